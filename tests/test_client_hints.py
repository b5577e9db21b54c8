"""The hint as a learner sees it, through the Textual Pilot against a real server on
127.0.0.1: at the pile, at a pass, at the first lead (rollouts) and late in the hand
(exact solves), in English and German.

Every line of the hint on screen must show either its reason, in the table's
language, directly below it, or no claim at all; the sentence that says what the
numbers mean must be there; the shares must add up to 100%; and no reason uses
the words a beginner would not know.
"""

from __future__ import annotations

import pytest
from client_support import local_server, play_by_keys, quick_app, run, screen_text, table_screen
from client_support import until as wait_until
from cursedbottle.bots.hints import ENGLISH
from cursedbottle.client.hints import describe_action, hint_reason, meaning, percentages
from cursedbottle.client.table import HintScreen
from cursedbottle.v1 import game_pb2

#: Tall enough for eleven cards with a reason each: the whole hint on one screen.
TALL = (100, 70)
JARGON = ("shed", "dump", "safely", "undercut", "wirft", "gefahrlos", "unterbiet")


def _inner_lines(app) -> list[str]:
    """The hint box's lines, without its border (what is around it is the table)."""
    out = []
    for line in screen_text(app).splitlines():
        if line.count("█") >= 2:
            inner = line[line.index("█") + 1 : line.rindex("█")]
            out.append(inner.rstrip().rstrip("▁▂▃▄▅▆▇▔").strip())  # and its scrollbar
    return out


def _check_hint_on_screen(app, screen) -> set[str]:
    """Every action's row, then its reason below it or nothing; the kinds seen."""
    hint, model, tr = screen.hint, screen.model, screen.model.tr
    lines = _inner_lines(app)
    flat = " ".join(" ".join(ln.split()) for ln in lines)
    sentence = meaning(model, hint)
    assert sentence and " ".join(sentence.split()) in flat, (sentence, flat)
    assert tr.lang == "en" or "Points:" not in flat  # said in the table's language
    valued = [a for a in hint.actions if a.HasField("expected_value")]
    assert sum(percentages([a.best_share for a in valued])) == (100 if valued else 0)
    labels = [describe_action(model, a.action).plain for a in hint.actions]
    rows = []
    at = 0
    for line, label in zip(hint.actions, labels, strict=True):
        if line.HasField("expected_value"):
            value = tr("hint_points", value=tr.number(line.expected_value, signed=True))
        else:
            value = "—"
        while not (lines[at].startswith(label + " ") and value in lines[at]):
            at += 1  # raises IndexError when the row is missing
        rows.append(at)
        at += 1
    after = (tr("hint_close")[:5], tr("hint_close_note")[:8])
    last = next(i for i in range(rows[-1] + 1, len(lines)) if lines[i].startswith(after))
    ends = [*rows[1:], last]
    kinds = set()
    for line, row, end in zip(hint.actions, rows, ends, strict=True):
        shown = " ".join(" ".join(lines[row + 1 : end]).split())
        why = hint_reason(model, line)
        kinds.add(line.why.kind)
        if line.why.kind:
            # a reason the client says in its own language, under its line
            assert tr.has("why_" + line.why.kind), line.why.kind
            assert shown == " ".join(why.split()), (labels, shown, why)
            assert not any(word in why.lower() for word in JARGON), why
        else:
            assert shown == "" and why == "", (shown, why)  # no claim at all
    return kinds


async def _open_hint(pilot, app, screen) -> HintScreen:
    await pilot.press("h")
    await wait_until(pilot, lambda: isinstance(app.screen, HintScreen), timeout=30)
    hint_screen = app.screen
    await wait_until(pilot, lambda: hint_screen.ready and screen.hint is not None, timeout=60)
    await pilot.pause()
    return hint_screen


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_hint_line_shows_a_reason_or_no_claim(lang):
    async def main():
        async with local_server() as target:
            app = quick_app(target, game_pb2.Rules(players=3, hands=1), lang=lang,
                            seed="hints-" + lang)
            async with app.run_test(size=TALL) as pilot:
                await wait_until(pilot, lambda: table_screen(app) is not None)
                screen = table_screen(app)
                seen: dict[str, set[str]] = {}
                bases = set()

                async def look(moment: str) -> None:
                    await _open_hint(pilot, app, screen)
                    seen[moment] = _check_hint_on_screen(app, screen)
                    bases.add(screen.hint.basis.kind)
                    await pilot.press("escape")
                    await wait_until(pilot, lambda: app.screen is screen)

                await wait_until(pilot, lambda: screen._step() == "pile")
                await look("pile")
                await pilot.press("right", "enter")  # the pile card
                await wait_until(pilot, lambda: screen._step() == "pass")
                await look("pass")
                await play_by_keys(pilot, app, lambda s: s._step() == "play")
                await look("first play")
                await play_by_keys(pilot, app, lambda s: s.model.tricks_played >= 5
                                   and s._step() == "play" and len(s.model.legal) > 1)
                await look("late play")
                assert seen["pile"] == {"pile"} and seen["pass"] == {"pass"}, seen
                plays = set(ENGLISH) - {"pile", "pass", "open"}  # every kind of a card played
                assert seen["first play"] | seen["late play"] <= plays, seen
                assert bases >= {"setup", "exact"}, bases

    run(main(), timeout=240)



def test_every_hint_and_review_sentence_is_said_in_both_languages():
    """Each reason kind the hint engine gives, each meaning sentence and each review
    sentence has its English and its German words (a German player never reads the
    server's English fallback)."""
    from cursedbottle.client.i18n import STRINGS, Tr

    for kind in ENGLISH:
        if kind:
            assert STRINGS["en"]["why_" + kind] and STRINGS["de"]["why_" + kind], kind
    keys = [k for k in STRINGS["en"] if k.startswith(("hint_", "why_", "review_"))]
    for key in keys:
        assert STRINGS["de"].get(key), key
    # the English reasons the server sends and the client's English are the same words
    tr = Tr("en")
    for kind, text in ENGLISH.items():
        if kind:
            assert tr(f"why_{kind}") == text, kind
    for key in ("deals", "points"):
        assert Tr("de").count(key, 1) != Tr("de").count(key, 2)
    # and the meaning sentences: the server's English is the client's
    from cursedbottle.bots.hints import Basis

    for basis in (Basis("exact", "maxn", 40), Basis("exact", "paranoid", 1),
                  Basis("rollouts", "", 200), Basis("setup", "", 7), Basis()):
        words = tr(f"hint_means_{basis.key}", deals=tr.count("deals", basis.deals))
        assert words == basis.meaning, basis
        assert STRINGS["de"][f"hint_means_{basis.key}"]
