"""`cursed-bottle play`: a game against bots, one command from install to playing.

By default it starts a game server on 127.0.0.1 (a child process on a free
port), makes a table, fills the other seats with strong bots and opens the
Textual client.  `--text` keeps the plain-text table: it needs nothing but a
terminal and stdin, so it also serves scripts and screen readers (type a card,
`10H`, `QS`, `10♥`, or its number in your hand).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator

from cursedbottle.cli.errors import fail


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser("play", help="play a game against bots in this terminal")
    add_rules_arguments(p)
    p.add_argument("--seed", default=None, help="seed of the deal (default: random)")
    p.add_argument(
        "--bots", default=None,
        help="bot for the other seats: strong, pimc, model, heuristic, rule, random "
        "(default: strong; random with --text)",
    )
    p.add_argument("--name", default=None, help="your name at the table")
    p.add_argument("--text", action="store_true", help="the plain-text table instead of the app")
    p.add_argument("--lang", choices=("en", "de"), default=None,
                   help="language (default: from the locale)")
    p.add_argument("--watch", action="store_true", help="only watch: bots take every seat")
    p.add_argument("--bot-delay", type=float, default=0.6,
                   help="seconds a bot waits before it acts (default: 0.6)")
    p.add_argument("--hint-budget", type=int, default=1000,
                   help="milliseconds the server thinks about a hint (default: 1000)")
    add_tutor_arguments(p)
    return p


def add_tutor_arguments(p: argparse.ArgumentParser) -> None:
    """`--tutor`: the client asks "are you sure?" before a card the hint rates poorly."""
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
            "--players", type=int, default=3, choices=(2, 3, 4, 5, 6),
            help="people at the table (default 3)",
        )
    p.add_argument("--hot-bottle", action="store_true", help="the owner also loses own tricks")
    p.add_argument(
        "--bright-house", action="store_true", help="two players, two hands each, no Lopaka"
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

    return Rules(
        players=args.players if players is None else players,
        hot_bottle=args.hot_bottle,
        bright_house=args.bright_house,
        target=args.target,
        hands=args.game_hands,
        edition=Edition(args.game),
        teams=args.teams,
        second_bottle=args.second_bottle,
        singles=args.singles,
    )


def rules_message(rules):
    """The same rule set on the wire, for the server."""
    from cursedbottle.v1 import game_pb2

    msg = game_pb2.Rules(
        players=rules.players,
        hot_bottle=rules.hot_bottle,
        bright_house=rules.bright_house,
        game=game_pb2.GAME_BOTTLE_IMP if rules.original else game_pb2.GAME_CURSED_BOTTLE,
        teams=rules.teams,
        second_bottle=rules.second_bottle,
        singles=rules.singles,
    )
    if rules.hands is not None:
        msg.hands = rules.hands
    else:
        msg.target = rules.target
    return msg


def run(args: argparse.Namespace) -> int:
    if args.text:
        return run_text(args)
    return run_app(args)


def run_text(args: argparse.Namespace) -> int:
    import secrets

    from cursedbottle.bots import make_bot
    from cursedbottle.bots.seeds import stable_seed
    from cursedbottle.engine.rules import RulesError

    try:
        rules = rules_from_args(args)
        seed = args.seed if args.seed is not None else secrets.randbelow(10**9)
        bot = args.bots or "random"
        bots = {p: make_bot(bot, seed=stable_seed(seed, p)) for p in range(1, rules.players)}
    except (RulesError, ValueError) as exc:
        return fail(str(exc))
    table = TextTable(rules, seed, bots, args.name or "You", input_fn=input, out=sys.stdout)
    try:
        table.play()
    except (EOFError, KeyboardInterrupt):
        print("\nGame left.", file=sys.stdout)
        return 1
    return 0


def run_app(args: argparse.Namespace) -> int:
    """Server in a child process, the client in this one: the bots think on their own
    core and never stall the screen."""
    from cursedbottle.bots import make_bot
    from cursedbottle.client import CursedBottleApp, QuickGame
    from cursedbottle.client.i18n import detect_lang
    from cursedbottle.engine.rules import RulesError

    try:
        rules = rules_message(rules_from_args(args))  # the engine's checks and messages
        bot = args.bots or "strong"
        make_bot(bot)
    except (RulesError, ValueError) as exc:
        return fail(str(exc))
    if not 0 <= args.bot_delay <= 60:
        return fail(f"--bot-delay: {args.bot_delay} is not between 0 and 60 seconds")
    problem = check_tutor_threshold(args)
    if problem:
        return fail(problem)
    lang = detect_lang(args.lang)
    name = args.name or ("Du" if lang == "de" else "You")
    quick = QuickGame(rules, bots=bot, name=name, seed=args.seed, watch=args.watch)
    with local_server(args.bot_delay) as target:
        app = CursedBottleApp(target, lang=lang, name=name, quick=quick,
                              hint_budget_ms=args.hint_budget, tutor=args.tutor,
                              tutor_threshold=args.tutor_threshold,
                              # the server ends with this client: no seat to resume later
                              remember_seats=False)
        app.run()
    return app.return_code or 0  # 1: the client stopped on an error


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    """Linux: the server ends when this process does, even on SIGKILL."""
    with contextlib.suppress(Exception):
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@contextlib.contextmanager
def local_server(bot_delay: float) -> Iterator[str]:
    """`cursed-bottle serve` on 127.0.0.1 and a free port, for as long as the block runs."""
    port = free_port()
    command = [
        sys.executable, "-m", "cursedbottle.cli.main", "serve", "--host", "127.0.0.1",
        "--port", str(port), "--bot-delay", str(bot_delay), "--quiet", "--grace", "0.5",
        # A game against bots lives as long as this client: nothing to resume later,
        # and no lock on the host's database if a LAN server runs beside it.
        "--no-db",
    ]
    with tempfile.TemporaryFile(mode="w+") as log:
        child = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            _wait_listening(port, child)
            yield f"127.0.0.1:{port}"
        finally:
            child.terminate()
            try:
                child.wait(5)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


def _wait_listening(port: int, child: subprocess.Popen, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if child.poll() is not None:
            raise SystemExit(f"cursed-bottle: the local server stopped (exit {child.returncode})")
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise SystemExit("cursed-bottle: the local server did not start")


class TextTable:
    """The game loop: bots act on their own; the human is asked on every decision."""

    def __init__(self, rules, seed, bots, name: str, input_fn: Callable[[str], str], out) -> None:
        from cursedbottle.engine.game import Game

        self.game = Game(rules, seed)
        self.bots = bots
        self.names = [name] + [f"{bots[p].name}-{p}" for p in range(1, rules.players)]
        self.input = input_fn
        self.out = out
        self._shown = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def play(self) -> None:
        game = self.game
        rules = game.rules
        if rules.teams:  # the Bottle Imp's team mode: who shares a score
            sides = [" + ".join(self.names[p] for p in side) for side in rules.sides]
            self.say("Teams (partners share their score; a player alone counts double): "
                     + " · ".join(sides))
        while not game.is_over:
            self._show_events()
            bot_seats = [s for s in game.to_act() if game.player_at(s) != 0]
            for seat in bot_seats:
                player = game.player_at(seat)
                game.apply(self.bots[player].act(game.view(player)))
            if not bot_seats:
                self._ask_human()
        self._show_events()

    def _seat_name(self, seat: int | None, seating=None) -> str:
        if seat is None:
            return "nobody"
        player = (seating or self.game.seatings[-1])[seat]
        return "Lopaka" if player is None else self.names[player]

    def _ask_human(self) -> None:
        from cursedbottle.engine.errors import IllegalAction

        view = self.game.view(0)
        self.say(render_view(view, self._seat_name))
        actions = list(view.legal_actions)
        while True:
            prompt = _prompt(view, actions)
            text = self.input(prompt).strip()
            if text in ("?", "help"):
                examples = "17B, 2.5Y, 37R" if view.rules.original else "AD, 10H, QS, 10♥"
                self.say(f"Type a card ({examples}) or its number in your hand; q to quit.")
                continue
            if text in ("q", "quit"):
                raise EOFError
            action = _parse_choice(text, view, actions)
            if isinstance(action, str):
                self.say(f"  ✗ {action}")
                continue
            try:
                self.game.apply(action)
                return
            except IllegalAction as exc:
                self.say(f"  ✗ {exc}")

    def _show_events(self) -> None:
        for seq, event in self.game.events_for(0, self._shown):
            self._shown = seq + 1
            seating = self.game.seating_at(seq)
            line = describe(event, functools.partial(self._seat_name, seating=seating), self.names)
            if line:
                self.say(line)


def _prompt(view, actions) -> str:
    from cursedbottle.engine.actions import ChooseOpen, PassCard, PileCard

    first = actions[0]
    if isinstance(first, PileCard):
        return "Card for the bottle's pile: "
    if isinstance(first, PassCard):
        if view.rules.devils_eye:
            which = ("first", "second")[view.pass_to_hand or 0]
            return f"Card to pass to seat {first.to}'s {which} hand: "
        return f"Card to pass to seat {first.to}: "
    if isinstance(first, ChooseOpen):
        return "Which hand lies open, 1 or 2? "
    return "Your card: "


def _parse_choice(text: str, view, actions):
    """The action the text names, or a message saying what is wrong with it."""
    from cursedbottle.engine.actions import ChooseOpen, PassCard, Play

    if not text:
        return "type a card or its number"
    if isinstance(actions[0], ChooseOpen):
        if text in ("1", "2"):
            return actions[int(text) - 1]
        return "answer 1 or 2"
    mine = _my_hand_for(view, actions)
    if text.isdigit():
        n = int(text)
        if not 1 <= n <= len(mine):
            return f"there is no card number {n} in your hand"
        card = mine[n - 1]
    else:
        try:
            card = view.rules.deck.card(text)
        except ValueError as exc:
            return str(exc)
    to = actions[0].to if isinstance(actions[0], PassCard) else None
    for a in actions:
        if a.card == card and (to is None or a.to == to):
            return a
    if card not in mine:
        return f"you do not hold {card.display()}"
    # Held but not legal: let the engine refuse it, so the message names the rule.
    return Play(view.seat, card)


def _my_hand_for(view, actions):
    from cursedbottle.engine.actions import PassCard, PileCard

    if isinstance(actions[0], PileCard | PassCard) and view.rules.two_hands:
        return view.visible[2 * view.seat + (view.stage_hand or 0)]
    if _both_hands_play(view):
        return view.visible[2 * view.seat] + view.visible[2 * view.seat + 1]
    holders = [h for h, s in enumerate(view.holder_seat) if s == view.seat]
    if view.rules.bright_house and actions and hasattr(actions[0], "card"):
        for h in holders:
            if actions[0].card in view.visible.get(h, ()):
                return view.visible[h]
    return view.my_cards


def render_view(view, seat_name) -> str:
    """The table as a few lines of text, from the seat's view only."""
    mine = view.my_cards
    lines = [""]
    price = view.price.display() if view.price is not None else (
        view.rules.deck.joker_name if view.rules.original else "joker (6½)"  # the Hell card 19
    )
    bottle = f"bottle: {seat_name(view.owner)}"
    if len(view.bottles) > 1:  # the second bottle: both, the one for sale first
        start = view.rules.deck.joker_name
        bottle = "bottles: " + " / ".join(
            f"{seat_name(owner)} {start if card is None else card.display()}"
            for card, owner in view.bottles
        )
    lines.append(
        f"Hand {view.hand_number} · price {price} · {bottle} · pile {view.pile_size} cards"
    )
    taken = ", ".join(
        f"{seat_name(s)} {p}"
        for s, p in enumerate(view.points_taken)
        if view.seat_players[s] is not None
    )
    lines.append(f"Points in tricks: {taken}")
    for h, cards in view.visible.items():
        if view.holder_seat[h] != view.seat:
            lines.append(
                f"{seat_name(view.holder_seat[h])} shows: " + " ".join(c.display() for c in cards)
            )
    if view.trick:
        lines.append("Trick: " + ", ".join(f"{seat_name(s)} {c.display()}" for s, c in view.trick))
    legal = set(view.legal_cards)
    hand = _my_hand_for(view, list(view.legal_actions)) if view.legal_actions else mine
    shown = [f"{i}:{c.display()}{'' if c in legal else '·'}" for i, c in enumerate(hand, 1)]
    if _both_hands_play(view):
        split = len(view.visible[2 * view.seat])
        lines.append("Your open hand 1: " + "  ".join(shown[:split]))
        lines.append("Your hidden hand 2: " + "  ".join(shown[split:]))
    else:
        if view.rules.two_hands and view.stage_hand is not None:
            other = view.visible.get(2 * view.seat + 1 - view.stage_hand, ())
            lines.append("Your other hand: " + " ".join(c.display() for c in other))
        lines.append("Your hand: " + "  ".join(shown))
    return "\n".join(lines)


def _both_hands_play(view) -> bool:
    """Devil's Eye in play: each card comes from either hand, so both are shown
    (numbered through, the open hand first)."""
    from cursedbottle.engine.events import Phase

    return view.rules.devils_eye and view.phase is Phase.PLAY


def describe(event, seat_name, player_names) -> str | None:
    """One line for an event, or None for those the table shows otherwise."""
    from cursedbottle.engine import events as ev

    if isinstance(event, ev.HandStarted):
        return f"\n=== Hand {event.number}: {seat_name(event.dealer)} deals ==="
    if isinstance(event, ev.CardsDealt) and event.cards is not None and event.public:
        return "Lopaka's open hand: " + " ".join(c.display() for c in event.cards)
    if isinstance(event, ev.CardPassed) and event.card is not None:
        to = seat_name(event.to)
        if event.hand is not None:
            to += f" (hand {event.hand + 1})"
        return f"{seat_name(event.seat)} passed {event.card.display()} to {to}"
    if isinstance(event, ev.OpenHandRevealed):
        cards = " ".join(c.display() for c in event.cards)
        return f"Open hand {event.hand + 1} of {seat_name(event.seat)}: {cards}"
    if isinstance(event, ev.CardPlayed):
        return f"  {seat_name(event.seat)}: {event.card.display()}"
    if isinstance(event, ev.TrickWon):
        if event.bought:
            price = event.price.display()
            return f"→ {seat_name(event.winner)} wins the trick and buys the bottle at {price}"
        return f"→ {seat_name(event.winner)} wins the trick"
    if isinstance(event, ev.HandEnded):
        pile = " ".join(c.display() for c in event.pile)
        scores = ", ".join(f"{seat_name(s)} {v:+d}" for s, v in enumerate(event.scores))
        return (
            f"=== Hand over. Pile: {pile} ({event.pile_points} points). "
            f"Bottle: {seat_name(event.owner)}.\n    Scores: {scores}\n    Totals: "
            + _totals(event.totals, player_names)
        )
    if isinstance(event, ev.GameEnded):
        return (
            f"=== Game over after {event.hands_played} hand{'s' * (event.hands_played != 1)}: "
            f"{player_names[event.winner]} wins. "
            f"Totals: {_totals(event.totals, player_names)}"
        )
    return None


def _totals(totals, player_names) -> str:
    return ", ".join(f"{name} {t}" for name, t in zip(player_names, totals, strict=True))
