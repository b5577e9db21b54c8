"""The plain-text table of `cursed-bottle play`, driven like a person would."""

from __future__ import annotations

import io
import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cursedbottle.bots import make_bot
from cursedbottle.cli.text_table import TextTable
from cursedbottle.engine import Rules
from cursedbottle.engine.rules import Edition


def _cycling_numbers():
    """A player who types 1, 2, 3, … 12 again and again: refused choices just move on."""
    numbers = itertools.cycle([str(n) for n in range(1, 13)])
    return lambda prompt: next(numbers)


@pytest.mark.parametrize(
    "rules",
    [Rules(3, hands=1), Rules(4, hands=1), Rules(2, hands=2), Rules(2, bright_house=True, hands=1),
     Rules(2, edition=Edition.BOTTLE_IMP, hands=1),
     Rules(3, edition=Edition.BOTTLE_IMP, hands=1), Rules(5, edition=Edition.BOTTLE_IMP, hands=2),
     Rules(6, edition=Edition.BOTTLE_IMP, hands=1, teams=True),
     Rules(5, edition=Edition.BOTTLE_IMP, hands=1, second_bottle=True)],
    ids=["3p", "4p", "2p-lopaka", "bright-house", "imp-devils-eye", "imp-3p", "imp-5p",
         "imp-6p-teams", "imp-5p-two-bottles"],
)
def test_a_whole_game_is_played_to_the_end(rules):
    out = io.StringIO()
    bots = {p: make_bot("random", p) for p in range(1, rules.players)}
    table = TextTable(rules, "t", bots, "You", input_fn=_cycling_numbers(), out=out)
    table.play()
    assert table.game.is_over
    text = out.getvalue()
    assert "=== Hand over." in text
    assert "=== Game over" in text
    assert "Pile:" in text


def test_a_refused_card_is_explained_and_nothing_changes():
    out = io.StringIO()
    answers = iter(["ZZ", "99", "q"])
    rules = Rules(3, hands=1)
    bots = {p: make_bot("random", p) for p in range(1, 3)}
    table = TextTable(rules, "t", bots, "You", input_fn=lambda _: next(answers), out=out)
    with pytest.raises(EOFError):
        table.play()
    text = out.getvalue()
    assert "'ZZ' is not a card" in text
    assert "there is no card number 99" in text
    # The human never placed a pile card: only the bots' choices were taken.
    assert len(table.game.actions) == 2


def test_the_command_plays_a_game_from_piped_input():
    script = Path(sys.executable).parent / "cursed-bottle"
    answers = "\n".join(str(n) for _ in range(400) for n in range(1, 13)) + "\n"
    done = subprocess.run(
        [str(script), "play", "--text", "--seed", "11", "--game-hands", "1"],
        input=answers,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "=== Game over after 1 hand:" in done.stdout


def test_bad_rule_options_exit_2_with_one_line():
    script = Path(sys.executable).parent / "cursed-bottle"
    done = subprocess.run(
        [str(script), "play", "--text", "--bright-house", "--players", "3"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "--bright-house: the bright house is a two-player variant" in done.stderr


def test_the_bottle_imp_shows_the_hell_card_and_a_short_dealer_hand():
    """Five players in teams: you (seat 0) play alone and deal every hand, so you hold 10
    cards and are never asked for a pile card; the price is 19 until someone buys; the
    cards are numbers with colour letters."""
    out = io.StringIO()
    rules = Rules(5, edition=Edition.BOTTLE_IMP, hands=1, teams=True)
    bots = {p: make_bot("random", p) for p in range(1, 5)}
    table = TextTable(rules, "imp", bots, "You", input_fn=_cycling_numbers(), out=out)
    table.play()
    text = out.getvalue()
    assert "Teams (partners share their score; a player alone counts double): You · " in text
    assert "=== Hand 1: You deal ===" in text and "You deals" not in text
    assert "price 19 · bottle: nobody" in text
    assert "joker" not in text
    first = next(line for line in text.splitlines() if line.startswith("Your hand:"))
    assert first.count(":") == 11, first  # "Your hand:" and 10 numbered cards
    assert "Card for the bottle's pile" not in text
    assert re.search(r"\b\d+(\.5)?[YBR]\b", first)
    assert "=== Game over after 1 hand:" in text
