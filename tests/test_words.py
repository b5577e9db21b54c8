"""Every message of both catalogues, rendered with the player as subject, as object,
and with other players: grammatical in both languages, and no English word on a
German screen.

The grammar cases checked: English never "You wins/takes/deals…", "You's" or "to
You"; German never "Du gibt/gewinnt/bekommt…", "Du's" or "an Du/bei Du"; every
sentence about a player that may be the reader has a form addressed to "you"
(`_you`) and, where the player receives, one said to "you" (`_to_you`); counts
go through `Tr.count` ("1 card", "2 cards").
"""

from __future__ import annotations

import re
import string

import pytest
from conftest import CONFIGS, config_id
from cursedbottle.client.i18n import Tr
from cursedbottle.client.log_lines import addressed, shown_name, table_name_of
from cursedbottle.client.strings_de import DE
from cursedbottle.client.strings_en import EN
from cursedbottle.v1 import game_pb2

CATALOGUES = {"en": EN, "de": DE}
#: Fields that name a player, as subject and as object.
SUBJECT, OBJECT = ("name", "a"), ("b",)
#: Keys whose player is never the reader (a receiver, the absent, a label with
#: "(you)", a table's name, a seat named in a refusal, the other side of a hidden pass).
NEVER_THE_READER = {
    "shows", "your_turn_pass", "your_turn_pass_hand", "to_name", "to_name_hand",
    "log_passed_hidden", "why_pass", "table_of", "l_you", "r_title", "o_away",
    "err_name_taken", "err_seat_taken", "err_same_card_twice", "err_not_your_turn_turn",
}
#: Keys about a side of two or more ("Bob + Dan win"): plural either way.
TEAM = {"winner_team", "game_over_line_team", "log_game_end_team"}

BAD = {
    "en": [r"\bYou (wins|takes|deals|buys|passes|lays|gets|shows|plays|holds|has|is|owns|"
           r"gives|leads|chooses)\b", r"\bYou's\b", r"\b(to|with|at|for|by|from) You\b",
           r"\b1 (cards|points|deals|coins|tricks|seats|hands)\b", r"\(s\)"],
    "de": [r"\bDu (gibt|gewinnt|bekommt|kauft|legt|zeigt|spielt|hat|ist|nimmt|besitzt|gab|"
           r"wählt|muss)\b", r"\bDu's\b", r"\b(an|bei|für|von|mit|gegen|auf|zu) Du\b",
           r"\b1 (Karten|Punkte|Verteilungen|Münzen|Stiche|Plätze)\b", r"\(e\)|/Plätze"],
}
#: English words that are no German ones (a German screen must not show them).
ENGLISH = set(re.findall(r"\S+", """
the and of to you your is are were with for not no yes seat seats table tables wins
win takes take deals deal passed pass passes follow suit must cards card trick tricks
pile bottle refused player players points point score game over waiting wait random
strong rule rules hint hints best choose press back step empty join added first turn
hand's it its has have which while until again later only every each this that these
those from into onto than then there here what when who whom why how out off on
round server could should would cannot can't don't nothing something someone anyone
shows lays buys owns holds plays gets leads
"""))
#: Words both languages share, or key names (never flagged).
SHARED = {"hand", "bot", "bots", "tutor", "team", "teams", "enter", "esc", "solo", "partner",
          "lopaka", "pimc", "in", "so", "server", "a", "b", "d", "j", "k", "l", "n", "q", "s", "t",
          "h", "o", "x", "y", "f", "r", "w", "ok"}


def _sample(tr: Tr, field: str) -> object:
    spades = game_pb2.Card(code="9S", rank="9", suit=game_pb2.SUIT_SPADES)
    hearts = game_pb2.Card(code="5H", rank="5", suit=game_pb2.SUIT_HEARTS)
    values = {
        "card": tr.card(hearts), "best": tr.card(spades), "price": tr.card(spades),
        "cards": f"{tr.card(hearts)} {tr.card(spades)}", "pile": tr.card(hearts),
        "passes": tr("to_name", card=tr.card(hearts), name="Bob"),
        "pts": tr.count("points", 3), "deals": tr.count("deals", 4),
        "suit": tr.suit(game_pb2.SUIT_SPADES), "Suit": tr.suit(game_pb2.SUIT_SPADES),
        "which": tr("open"), "state": tr("on"), "speed": tr("speed_s", s=tr.number(0.5)),
        "target": "192.168.1.5:50051", "table": table_name_of(tr, "Bob"),
        "msg": tr("err_other"), "recipients": tr.joined(["Bob", "Cleo"]),
        "seats": tr.joined(["2", "3"]), "seat": tr("seat_n", n=2), "holder": "Cleo",
        "other": "Cleo", "turn": "Cleo", "to": "Cleo", "names": "Cleo",
        "kind": shown_name(tr, "rule bot"), "value": tr.number(1.5, signed=True),
        "gap": tr.number(1.5), "loss": tr.number(2.0), "best_value": tr.number(3.0),
        "scores": "Bob +3, Cleo -2",
    }
    return values.get(field, 2)


def _fields(text: str) -> set[str]:
    return {f for _lit, f, _spec, _conv in string.Formatter().parse(text) if f}


def _render(tr: Tr, key: str, me_as: str | None) -> str:
    """`key` as the client says it: `me_as` "subject" or "object" makes the reader
    (seat 0) that player, via the same `addressed` the client uses."""
    fields = _fields(EN[key]) | _fields(DE[key])
    names = {0: tr("you_name"), 1: "Bob", 2: "Cleo"}
    who = 0 if me_as == "subject" else 1
    to = 0 if me_as == "object" else 2
    params = {f: _sample(tr, f) for f in fields}
    for f in SUBJECT:
        if f in fields:
            params[f] = (f"{names[who]} + Dan" if key in TEAM else names[who])
    for f in OBJECT:
        if f in fields:
            params[f] = names[to]
    return addressed(tr, 0, key, who if key not in TEAM else None, to, **params)


def _base_keys() -> list[str]:
    return [k for k in EN if not k.endswith(("_you", "_to_you"))]


def test_both_catalogues_have_the_same_keys_and_fields():
    assert set(EN) == set(DE), (set(EN) ^ set(DE))
    for key in EN:  # (German may capitalise a word the English does not: {Suit})
        assert {f.lower() for f in _fields(EN[key])} == {f.lower() for f in _fields(DE[key])}, key


def test_a_sentence_about_a_player_who_may_be_the_reader_has_you_forms():
    for key in _base_keys():
        fields = _fields(EN[key])
        if key in NEVER_THE_READER or key in TEAM:
            continue
        if fields & set(SUBJECT):
            assert key + "_you" in EN, f"{key}: no form for the reader as subject"
        if fields & set(OBJECT):
            assert key + "_to_you" in EN, f"{key}: no form for the reader as object"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_message_with_the_reader_as_subject_and_object_is_grammatical(lang):
    tr = Tr(lang)
    seen = 0
    for key in _base_keys():
        fields = _fields(EN[key])
        cases = [None]
        if key not in NEVER_THE_READER and fields & {*SUBJECT, *OBJECT}:
            cases += ["subject"] if fields & set(SUBJECT) else []
            cases += ["object"] if fields & set(OBJECT) else []
        for case in cases:
            text = _render(tr, key, case)
            seen += 1
            assert "{" not in text and "}" not in text, (key, text)
            for bad in BAD[lang]:
                assert not re.search(bad, text), (key, case, text)
            if case == "subject":
                you = r"\b[Yy]ou\b" if lang == "en" else r"\b[Dd]u\b|\bdir\b|\bdich\b"
                assert re.search(you, text), (key, text)
            if case == "object":
                to_you = r"\byou\b" if lang == "en" else r"\bdir\b|\bdich\b"
                assert re.search(to_you, text), (key, text)
    assert seen > len(EN) // 2


def test_german_screens_show_no_english_word():
    tr = Tr("de")
    for key in EN:
        for case in (None, "subject", "object"):
            text = _render(tr, key, case)
            words = {w.lower() for w in re.findall(r"[A-Za-zÄÖÜäöüß']+", text)}
            english = words & ENGLISH - SHARED
            assert not english, (key, case, text, english)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_bots_have_one_name_in_the_readers_language(lang):
    tr = Tr(lang)
    names = {shown_name(tr, f"{kind} bot") for kind in ("random", "rule", "strong", "pimc")}
    assert len(names) == 4
    assert shown_name(tr, "strong:0.3 bot") == shown_name(tr, "strong bot")
    assert shown_name(tr, "Ann") == "Ann"
    if lang == "de":
        assert shown_name(tr, "rule bot") == "Regel-Bot"


@pytest.mark.parametrize(("lang", "one", "two"), [("en", "1 card", "2 cards"),
                                                  ("de", "1 Karte", "2 Karten")])
def test_counts_take_the_plural_they_need(lang, one, two):
    tr = Tr(lang)
    assert tr.count("cards", 1) == one and tr.count("cards", 2) == two
    assert table_name_of(tr, tr("you_name")) == tr("your_table")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_bot_has_the_same_name_at_the_table_in_the_review_and_in_text_mode(lang):
    from cursedbottle.cli.text_table import bot_names
    from cursedbottle.client.log_lines import seat_name
    from cursedbottle.client.review import _seat_name
    from cursedbottle.v1 import table_pb2

    tr = Tr(lang)
    names = ["Ann", "rule bot", "rule bot", "strong:0.3 bot"]
    info = table_pb2.TableInfo(seats=[table_pb2.SeatInfo(seat=i, name=n)
                                      for i, n in enumerate(names)])
    review = table_pb2.HandReview(seats=[table_pb2.SeatReview(name=n) for n in names])
    at_table = [seat_name(tr, info, s, None) for s in range(4)]
    assert at_table == [_seat_name(review, s, tr) for s in range(4)]
    bot = tr("bot_rule")
    assert at_table == ["Ann", f"{bot} 2", f"{bot} 3", tr("bot_strong")]
    if lang == "en":  # text mode speaks English
        assert ["Ann", *bot_names(["rule", "rule", "strong:0.3"])] == at_table


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("rules", CONFIGS, ids=config_id)
def test_a_review_tells_equal_names_apart_by_their_table_seat(rules, lang):
    """Every seat of a review carries the name the table gave it: two equal names
    are told apart by their table seat, as the table told them.  With Lopaka a
    hand's seats turn with the dealer (a review of `play --watch` once called the
    dealer "strong bot 1" where the table said "strong bot 2")."""
    from dataclasses import replace

    from cursedbottle.bots import make_bot
    from cursedbottle.client.log_lines import seat_name
    from cursedbottle.client.review import _seat_name, scores_text
    from cursedbottle.engine.game import Game
    from cursedbottle.server.review import FinishedHand, summary_msg
    from cursedbottle.server.rows import StoredHand
    from cursedbottle.v1 import table_pb2

    tr = Tr(lang)
    game = Game(replace(rules, hands=2), seed="equal-names")
    bots = [make_bot("heuristic", seed=s) for s in range(rules.players)]
    while not game.is_over:
        player = game.player_at(game.to_act()[0])
        game.apply(bots[player].act(game.view(player)))
    names = ["rule bot"] * rules.players
    info = table_pb2.TableInfo(seats=[table_pb2.SeatInfo(seat=i, name=n)
                                      for i, n in enumerate(names)])
    lopaka = rules.players if rules.lopaka else None
    turned = 0
    for number in (1, 2):
        stored = StoredHand.of("t1", game, number, names)
        summary = summary_msg(FinishedHand("t1", "t", number, stored.export(), 0))
        review = table_pb2.HandReview(
            seats=[table_pb2.SeatReview(name=n, lopaka=p is None)
                   for n, p in zip(stored.names, stored.seating, strict=True)])
        review.hand.CopyFrom(summary)
        assert list(summary.table_seats) == [
            rules.players if p is None else p for p in stored.seating]
        at_table = [seat_name(tr, info, t, lopaka) for t in summary.table_seats]
        assert [_seat_name(review, h, tr) for h in range(len(stored.names))] == at_table
        assert scores_text(tr, summary).startswith(f"{at_table[0]} ")
        turned += list(summary.table_seats) != sorted(summary.table_seats)
    if rules.lopaka:
        assert turned, "no hand whose seats differ from the table's"
