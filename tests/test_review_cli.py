"""`cursed-bottle review`: every value it shows is the solver's, every cost and total
follows from them, and the text says what the data says."""

from __future__ import annotations

import itertools
import json
import random
import re
from dataclasses import replace

import pytest
from conftest import config_id
from cursedbottle.cli.main import main
from cursedbottle.cli.review import LOSS_HEADING
from cursedbottle.engine.game import Game
from cursedbottle.engine.records import HandRecord, record_of, replay, replay_hand
from cursedbottle.engine.rules import Edition, Rules, RulesError
from cursedbottle.solver.api import solve_hand


def played_record(rules: Rules, seed: str, rng_seed: int) -> HandRecord:
    """A known hand: a fixed deal played with fixed random legal moves."""
    game = Game(replace(rules, hands=1), seed=seed)
    rng = random.Random(rng_seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return record_of(game.hands[0])


@pytest.fixture(scope="module")
def four_players() -> HandRecord:
    return played_record(Rules(4), "review", 11)


def review_json(capsys, path, *extra: str) -> dict:
    code = main(["review", str(path), "--json", *extra])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_every_value_is_the_solvers_and_the_losses_add_up(capsys, tmp_path, four_players):
    path = tmp_path / "hand.json"
    four_players.save(path)
    review = review_json(capsys, path, "--from-trick", "4")
    assert review["model"] == "maxn" and review["worst_case"]
    assert review["from_trick"] == review["valued_from"] == 4
    result = replay(four_players)
    assert review["scores"] == list(result.scores)
    assert [t["winner"] for t in review["tricks"]] == [t.winner for t in result.tricks]
    cards = [c for t in review["tricks"] for c in t["cards"]]
    assert [c["card"] for c in cards] == [c.ascii for c in four_players.plays]
    assert all("value" not in c for c in cards[:12]), "tricks 1-3 were not asked for"
    loss, mistakes, worst = [0] * 4, [0] * 4, [0] * 4
    for c in cards[12:]:
        # The solver, asked afresh on the hand rebuilt up to this card, in both models.
        hand = replay_hand(replace(four_players, plays=four_players.plays[: c["play"]]))
        solution = solve_hand(hand, model="maxn")
        values = {card.ascii: v for card, v in solution.values.items()}
        assert solution.seat == c["seat"]
        assert c["values"] == values
        assert c["value"] == values[c["card"]]
        assert c["best_value"] == max(values.values())
        assert c["best"] == [card.ascii for card in solution.best]
        assert c["loss"] == max(values.values()) - values[c["card"]] >= 0
        assert c["mistake"] == (c["loss"] > 0)
        paranoid = solve_hand(hand, model="paranoid").values
        assert c["worst_value"] == paranoid[hand.deck.card(c["card"])]
        assert c["worst_loss"] == max(paranoid.values()) - c["worst_value"]
        loss[c["seat"]] += c["loss"]
        mistakes[c["seat"]] += c["loss"] > 0
        worst[c["seat"]] += c["worst_loss"]
    assert review["loss"] == loss and review["mistakes"] == mistakes
    assert review["worst_loss"] == worst
    assert review["analysed"] == [5, 5, 5, 5]
    assert sum(loss) > 0, "random play gives something away"

    code = main(["review", str(path), "--from-trick", "4"])
    text, _ = capsys.readouterr()
    assert code == 0
    lines = text.splitlines()
    assert " ".join(review["meaning"].split()) in " ".join(text.split())
    for t in review["tricks"]:
        assert f"Trick {t['number']}, seat {t['leader']} leads" in lines
    for c in cards[12:]:
        (line,) = [x for x in lines if re.fullmatch(rf"\s+seat {c['seat']}\s+{c['card']}\s+.*", x)]
        assert f" {c['value']} " in line + " "
        # a mistake is named exactly where the card cost points
        assert ("(mistake)" in line) == (c["loss"] > 0), line
        if c["loss"]:
            assert f"cost {c['loss']} (mistake)" in line and c["best"][0] in line
        if not c["forced"]:
            assert f"worst case {c['worst_value']:>4}" in line, line
    summary = lines[lines.index(LOSS_HEADING) + 1 :]
    for seat in range(4):
        assert re.fullmatch(rf"\s+seat {seat}\s+{loss[seat]}\s+\(.*\)", summary[seat])
    scores = ", ".join(f"seat {s} {v}" for s, v in enumerate(result.scores))
    assert f"Scores: {scores};" in text


def test_lopaka_has_no_choice_and_no_loss(capsys, tmp_path):
    record = played_record(Rules(2), "review-lopaka", 3)
    path = tmp_path / "lopaka.json"
    path.write_text(json.dumps({**record.to_json(), "names": ["Ann", "Bo", "Lopaka"]}))
    review = review_json(capsys, path, "--from-trick", "9")
    lopaka = record.lopaka
    his = [c for t in review["tricks"][8:] for c in t["cards"] if c["seat"] == lopaka]
    assert len(his) == 3 and all(c["forced"] and c["loss"] == 0 for c in his)
    code = main(["review", str(path), "--from-trick", "9"])
    text, _ = capsys.readouterr()
    assert code == 0 and "(his policy)" in text
    summary = text.split(LOSS_HEADING)[1]
    assert "Ann" in summary and "Bo" in summary and "Lopaka" not in summary


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        (None, [], "No such file"),
        ("{", [], "not JSON"),
        ("ILLEGAL", [], "trick 1"),
        ("GOOD", ["--from-trick", "0"], "--from-trick: 0 is not a trick"),
    ],
)
def test_bad_input_fails_with_one_line(capsys, tmp_path, four_players, content, args, message):
    path = tmp_path / "record.json"
    if content == "GOOD":
        four_players.save(path)
    elif content == "ILLEGAL":
        obj = four_players.to_json()
        obj["plays"][0], obj["plays"][1] = obj["plays"][1], obj["plays"][0]
        path.write_text(json.dumps(obj))
    elif content is not None:
        path.write_text(content)
    code = main(["review", str(path), *args])
    out, err = capsys.readouterr()
    assert code == 2 and not out
    assert err.count("\n") == 1 and message in err, err


def test_the_review_agrees_with_cursed_bottle_solve_on_the_same_positions(capsys, tmp_path):
    """The two commands a user has, side by side: the position before a reviewed card,
    written as FORMATS.md position JSON and given to `cursed-bottle solve`, gets the
    values the review shows for that card."""
    from cursedbottle.engine.position import Position

    record = played_record(Rules(3), "review-vs-solve", 5)
    path = tmp_path / "hand.json"
    record.save(path)
    review = review_json(capsys, path, "--from-trick", "7")
    cards = [c for t in review["tricks"] for c in t["cards"] if "value" in c]
    assert len(cards) == 15
    for c in cards[::4]:
        hand = replay_hand(replace(record, plays=record.plays[: c["play"]]))
        position = tmp_path / f"position-{c['play']}.json"
        position.write_text(json.dumps(Position.from_hand(hand).to_json()))
        assert main(["solve", "--model", "maxn", str(position)]) == 0
        solved = json.loads(capsys.readouterr().out)
        assert solved["seat"] == c["seat"]
        assert solved["values"] == c["values"]
        assert solved["best"] == c["best"]


def test_a_whole_hand_is_valued_from_where_maxn_is_affordable_and_says_so(capsys, tmp_path):
    """Asked for every trick, the review values the tricks it can solve under maxn in
    reasonable time and names the others, in the data and in the text."""
    from cursedbottle.solver.review import first_affordable_trick

    record = played_record(Rules(3), "review-whole", 2)
    path = tmp_path / "hand.json"
    record.save(path)
    review = review_json(capsys, path)
    first = first_affordable_trick(record)
    assert review["from_trick"] == 1 and review["valued_from"] == first > 1
    for t in review["tricks"]:
        assert all(("value" in c) == (t["number"] >= first) for c in t["cards"])
    code = main(["review", str(path)])
    text, _ = capsys.readouterr()
    assert code == 0
    flat = " ".join(text.split())
    assert f"Cards of tricks 1–{first - 1} are not valued" in flat
    assert "everyone plays perfectly for themself with all cards face up" in flat


def every_rule_set() -> list[Rules]:
    """Every rule set the engine accepts, one per combination of players, game
    and switch (the target and the deck aside)."""
    out = []
    for players, edition, *flags in itertools.product(
        range(1, 8), Edition, *[(False, True)] * 5
    ):
        names = ("teams", "second_bottle", "singles", "hot_bottle", "bright_house")
        try:
            out.append(Rules(players, edition=edition, **dict(zip(names, flags, strict=True))))
        except RulesError:
            continue
    return out


@pytest.mark.parametrize(
    "rules", [r for r in every_rule_set() if not (r.lopaka or r.devils_eye)], ids=config_id
)
def test_every_rule_set_has_a_measured_first_valued_trick(rules):
    """How far back a review values the play is measured for every rule set the
    engine plays (bench/review_bench.py; Lopaka's and Devil's Eye have their own
    figures), none left to the fallback."""
    from cursedbottle.solver import review

    assert review.maxn_cards_key(rules) in review.MAXN_CARDS
