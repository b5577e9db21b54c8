"""The options several commands share: the rule set (play, simulate) with the
engine's checks in the options' words, and the client's options (play, join)."""

from __future__ import annotations

import argparse


def add_client_arguments(p: argparse.ArgumentParser) -> None:
    """The client's options (play, join): its language, the hint's budget, and
    `--tutor`: the client asks "are you sure?" before a card the hint rates poorly."""
    p.add_argument("--lang", choices=("en", "de"), default=None,
                   help="language (default: from the locale)")
    p.add_argument("--hint-budget", type=int, default=1000,
                   help="milliseconds the server thinks about a hint (default: 1000)")
    p.add_argument("--tutor", action="store_true",
                   help="before each card you play, ask the server's hint and ask you again "
                   "if the card loses more than --tutor-threshold points (t toggles it)")
    p.add_argument("--tutor-threshold", type=float, default=2.0, metavar="POINTS",
                   help="points a card may lose against the best before the tutor asks "
                   "(default: 2.0)")


def check_tutor_threshold(args: argparse.Namespace) -> str | None:
    if not 0 <= args.tutor_threshold <= 100:
        return f"--tutor-threshold: {args.tutor_threshold:g} is not between 0 and 100 points"
    return None


def add_rules_arguments(p: argparse.ArgumentParser, players: bool = True) -> None:
    """The rule-set options every table-making command shares."""
    p.add_argument(
        "--game", choices=("cursed-bottle", "bottle-imp"), default="cursed-bottle",
        help="Cursed Bottle (2-4 players) or the original Bottle Imp (2-6 players; "
        "two play Devil's Eye)",
    )
    if players:
        p.add_argument(
            "--players", type=int, default=None, choices=(2, 3, 4, 5, 6),
            help="people at the table (default 3; 2 with --bright-house)",
        )
    p.add_argument("--hot-bottle", action="store_true", help="the owner also loses own tricks")
    p.add_argument(
        "--bright-house", action="store_true",
        help=("two players (--players 2 is implied)" if players else "two players (two --seats)")
        + ", two hands each, no Lopaka",
    )
    p.add_argument(
        "--teams", action="store_true",
        help="Bottle Imp, 4-6 players: partners sit opposite and share their points",
    )
    p.add_argument(
        "--singles", action="store_true",
        help="Bottle Imp, 6 players with --teams: two pairs and two who play alone (2-2-1-1)",
    )
    p.add_argument(
        "--second-bottle", action="store_true",
        help="Bottle Imp, 5-6 players: two bottles, only the dearer one is for sale",
    )
    end = p.add_mutually_exclusive_group()
    end.add_argument(
        "--target", type=int, default=None,
        help="points that end a game (default 100; the Bottle Imp: each player deals twice)",
    )
    end.add_argument(
        "--game-hands", dest="game_hands", type=int, default=None,
        help="a game is this many hands instead",
    )


#: The option that sets each field of the rules: a refusal names what was typed.
_OPTIONS = {
    "players": "--players",
    "game": "--game",
    "hot_bottle": "--hot-bottle",
    "bright_house": "--bright-house",
    "teams": "--teams",
    "singles": "--singles",
    "second_bottle": "--second-bottle",
    "target": "--target",
    "hands": "--game-hands",
}


def rules_from_args(args: argparse.Namespace, players: int | None = None):
    """The engine's rule set for the options (its checks and messages, the field
    renamed to its option: `--teams: the team mode is …`; with `players` given,
    the count of `--seats`)."""
    from cursedbottle.engine.rules import RulesError

    given = players if players is not None else args.players
    if args.bright_house and given not in (None, 2):
        how = (f"give two --seats, not {given}" if players is not None
               else f"leave out --players {given} (--bright-house alone means two)")
        raise RulesError("--bright-house", f"the bright house is a two-player variant: {how}")
    try:
        return _rules(args, players)
    except RulesError as exc:
        field = exc.field
        option = "--seats" if field == "players" and players is not None else _OPTIONS.get(field)
        if option is None:
            raise
        raise RulesError(option, exc.reason) from None


def _rules(args: argparse.Namespace, players: int | None):
    from cursedbottle.engine.rules import Edition, Rules

    if players is None:
        players = args.players if args.players is not None else 2 if args.bright_house else 3
    return Rules(
        players=players,
        hot_bottle=args.hot_bottle,
        bright_house=args.bright_house,
        target=args.target,
        hands=args.game_hands,
        edition=Edition(args.game),
        teams=args.teams,
        second_bottle=args.second_bottle,
        singles=args.singles,
    )
