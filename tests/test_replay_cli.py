"""`cursed-bottle replay`: one JSON object on stdout, or exit 2 with one line on stderr.

The command is exercised in process through `main([...])` and once as the
installed `cursed-bottle` program, as users and outside tools run it.
"""

from __future__ import annotations

import io
import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cursedbottle.cli.main import main
from cursedbottle.engine.game import Game
from cursedbottle.engine.hand import Hand
from cursedbottle.engine.records import HandRecord, record_of, replay_hand
from cursedbottle.engine.rules import Rules
from test_records import TEAM_DEALERS, team_hand, team_record_json

RULES = {
    "3p": Rules(3),
    "4p-hot": Rules(4, hot_bottle=True),
    "lopaka": Rules(2),
    "bright": Rules(2, bright_house=True),
}


def first_hand(rules: Rules, seed: int = 3) -> Hand:
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    while not game.hands[0].is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game.hands[0]


def expected_output(hand: Hand) -> dict:
    """What FORMATS.md says replay prints, read off the engine's own hand."""
    cards = hand.deck.cards
    return {
        "scores": list(hand.scores()),
        "owner": hand.owner,
        "price": "JOKER" if hand.price_card is None else cards[hand.price_card].ascii,
        "tricks": [
            {
                "leader": t.leader,
                "cards": [c.ascii for c in t.cards],
                "winner": t.winner,
                "bought": t.bought,
            }
            for t in hand.tricks
        ],
    }


def write(tmp_path: Path, obj: object, name: str = "hand.json") -> Path:
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
    return path


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["replay", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", sorted(RULES))
def test_replay_prints_the_hand(tmp_path, capsys, name: str) -> None:
    hand = first_hand(RULES[name])
    path = write(tmp_path, record_of(hand).to_json())
    code, out, err = run_cli(capsys, str(path))
    assert (code, err) == (0, "")
    assert out.count("\n") == 1  # one JSON object on one line
    assert json.loads(out) == expected_output(hand)


def test_indent_and_stdin(capsys, monkeypatch) -> None:
    hand = first_hand(RULES["3p"])
    monkeypatch.setattr(sys, "stdin", io.StringIO(record_of(hand).dumps(indent=2)))
    code, out, err = run_cli(capsys, "--indent", "2", "-")
    assert (code, err) == (0, "")
    assert out.startswith('{\n  "scores"')
    assert json.loads(out) == expected_output(hand)


def illegal_revoke(obj: dict) -> tuple[dict, str]:
    """The record with its first possible revoke, and the words replay must use."""
    names = {"D": "diamonds", "H": "hearts", "S": "spades"}
    for i in range(len(obj["plays"])):
        pos = i % 3
        if pos == 0:
            continue
        before = replay_hand(HandRecord.from_json(dict(obj, plays=obj["plays"][:i])))
        held = [c.ascii for c in before.deck.cards_of(before.holdings[before.holder_to_play()])]
        led = obj["plays"][i - pos][-1]
        off = [c for c in held if c[-1] != led]
        if off and len(off) < len(held):
            seat = before.to_act()[0]
            bad = dict(obj, plays=[*obj["plays"][:i], off[0], *obj["plays"][i + 1 :]])
            suit = names[led]
            return bad, (
                f"trick {i // 3 + 1}, seat {seat} played {off[0]} but holds {suit} and {suit} "
                f"were led (plays[{i}])"
            )
    raise AssertionError("no place to revoke in the sample hand")


def record_3p() -> dict:
    return record_of(first_hand(RULES["3p"])).to_json()


BAD_FILES = [
    ("not JSON", lambda: "{rules: 3}", r"not JSON: Expecting property name .* at line 1 column 2"),
    ("empty", lambda: "", r"not JSON: Expecting value at line 1 column 1"),
    ("a list", lambda: [1, 2], r"record: expected a JSON object, got a list"),
    ("no plays", lambda: {k: v for k, v in record_3p().items() if k != "plays"}, r"plays: missing"),
    (
        "bad card",
        lambda: dict(record_3p(), plays=["XX"]),
        r"plays\[0\]: 'XX' is not a card \(write e\.g\. AD, 10H, QS\)",
    ),
    (
        "wrong type",
        lambda: dict(record_3p(), dealer="north"),
        r"dealer: expected a seat number, got a string",
    ),
    (
        "short deal",
        lambda: dict(
            record_3p(), deal=[d[:10] if i == 2 else d for i, d in enumerate(record_3p()["deal"])]
        ),
        r"deal\[2\]: 10 cards, 3-player hands are dealt 12",
    ),
    (
        "too many plays",
        lambda: dict(record_3p(), plays=[*record_3p()["plays"], "AD"]),
        r"plays\[33\]: AD is one play too many, the hand is over after 33 plays",
    ),
]


@pytest.mark.parametrize(("what", "content", "pattern"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_record_exits_2_with_one_line(tmp_path, capsys, what, content, pattern) -> None:
    path = write(tmp_path, content())
    code, out, err = run_cli(capsys, str(path))
    assert code == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1
    prefix = f"cursed-bottle: {path}: "
    assert err.startswith(prefix)
    assert_full_match(pattern, err[len(prefix) : -1])


def assert_full_match(pattern: str, text: str) -> None:
    assert re.fullmatch(pattern, text), f"{text!r} does not match {pattern!r}"


@pytest.mark.parametrize("name", sorted(TEAM_DEALERS))
def test_a_team_hand_dealt_by_a_team_member_exits_2_with_one_line(
    tmp_path, capsys, name: str
) -> None:
    """Five in teams and the 2-2-1-1 split: "the dealer is always an individual"."""
    rules, individuals = TEAM_DEALERS[name]
    dealer = individuals[0] + 1  # a team member
    path = write(tmp_path, team_record_json(team_hand(rules, dealer, seed=5)))
    code, out, err = run_cli(capsys, str(path))
    assert (code, out) == (2, "")
    here = " or ".join(f"seat {s}" for s in individuals)
    assert err == (
        f"cursed-bottle: {path}: dealer: seat {dealer} plays in a team, but the dealer is "
        f"always an individual when some play alone (here {here})\n"
    )


def test_illegal_record_names_the_first_illegal_step(tmp_path, capsys) -> None:
    bad, message = illegal_revoke(record_3p())
    path = write(tmp_path, bad)
    code, out, err = run_cli(capsys, str(path))
    assert (code, out) == (2, "")
    assert err == f"cursed-bottle: {path}: {message}\n"


def test_missing_file_and_directory(tmp_path, capsys) -> None:
    missing = tmp_path / "nope.json"
    assert run_cli(capsys, str(missing)) == (
        2,
        "",
        f"cursed-bottle: {missing}: No such file or directory\n",
    )
    assert run_cli(capsys, str(tmp_path)) == (2, "", f"cursed-bottle: {tmp_path}: Is a directory\n")


def test_record_argument_is_required(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["replay"])
    assert exc.value.code == 2
    assert "RECORD.json" in capsys.readouterr().err


def installed_command() -> str:
    """The command installed next to this Python (the venv's), else the one on PATH."""
    beside = Path(sys.executable).parent / "cursed-bottle"
    found = str(beside) if beside.exists() else shutil.which("cursed-bottle")
    assert found, "the cursed-bottle command is not installed"
    return found


def test_installed_command(tmp_path) -> None:
    hand = first_hand(RULES["lopaka"], seed=8)
    good = write(tmp_path, record_of(hand).to_json(), "good.json")
    done = subprocess.run(
        [installed_command(), "replay", str(good)], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == expected_output(hand)

    bad, message = illegal_revoke(record_3p())
    bad_path = write(tmp_path, bad, "bad.json")
    done = subprocess.run(
        [installed_command(), "replay", str(bad_path)], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"cursed-bottle: {bad_path}: {message}\n"
