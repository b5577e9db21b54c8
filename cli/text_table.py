"""`cursed-bottle play --text`: the plain-text table, a game loop on stdin and stdout.

Bots act on their own; the human is asked on every decision and answers with
a card (`10H`, `QS`, `10♥`) or its number in the hand.
"""

from __future__ import annotations

import functools
from collections.abc import Callable


class TextTable:
    """The game loop: bots act on their own; the human is asked on every decision."""

    def __init__(self, rules, seed, bots, name: str, input_fn: Callable[[str], str], out) -> None:
        from cursedbottle.engine.game import Game

        self.game = Game(rules, seed)
        self.bots = bots
        self.names = [name, *bot_names([bots[p].name for p in range(1, rules.players)])]
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
        f"Hand {view.hand_number} · price {price} · {bottle} · pile {view.pile_size} "
        + ("card" if view.pile_size == 1 else "cards")
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


def bot_names(kinds: list[str]) -> list[str]:
    """The bots' names as the client shows them (the human sits in seat 1, the bots
    from seat 2): "rule bot", and "rule bot 2", "rule bot 3" where two of a kind sit."""
    base = [f"{kind.partition(':')[0]} bot" for kind in kinds]
    return [b if base.count(b) == 1 else f"{b} {seat}" for seat, b in enumerate(base, start=2)]


def _verb(name: str, verb: str) -> str:
    """"Ann deals", but "You deal" for the player called by the pronoun (the default)."""
    return f"{name} {verb[:-1] if name == 'You' else verb}"


def describe(event, seat_name, player_names) -> str | None:
    """One line for an event, or None for those the table shows otherwise."""
    from cursedbottle.engine import events as ev

    if isinstance(event, ev.HandStarted):
        return f"\n=== Hand {event.number}: {_verb(seat_name(event.dealer), 'deals')} ==="
    if isinstance(event, ev.CardsDealt) and event.cards is not None and event.public:
        return "Lopaka's open hand: " + " ".join(c.display() for c in event.cards)
    if isinstance(event, ev.CardPassed) and event.card is not None:
        to = seat_name(event.to)
        to = "you" if to == "You" else to
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
            buys = "buy" if seat_name(event.winner) == "You" else "buys"
            return f"→ {_verb(seat_name(event.winner), 'wins')} the trick and {buys} the bottle" \
                f" at {price}"
        return f"→ {_verb(seat_name(event.winner), 'wins')} the trick"
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
            f"{_verb(player_names[event.winner], 'wins')}. "
            f"Totals: {_totals(event.totals, player_names)}"
        )
    return None


def _totals(totals, player_names) -> str:
    return ", ".join(f"{name} {t}" for name, t in zip(player_names, totals, strict=True))
