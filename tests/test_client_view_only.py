"""The client holds no rule: it draws the server's view and derives nothing from `Rules`.

Two checks.  A scan of every client module's source refuses any read of a rule
field of a `Rules` message (how many play, teams, the variants, how the game
ends, the pile per stage): what those imply (who scores together, Lopaka, the
passes to choose, the pile cards owed, the points) comes filled in by the
server.  And over a real game of every rule set of the suite, played over gRPC,
the model fed each seat's stream (and a spectator's) states the same facts as
the engine playing the game, turn by turn: sides, Lopaka, who acts, the cards
held and their counts, the points taken, the price, and for the setup the
pile cards and passes the seat then really lays.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import CONFIGS
from cursedbottle.client.i18n import Tr
from cursedbottle.client.model import TableModel
from cursedbottle.engine.actions import PassCard, PileCard
from cursedbottle.engine.events import Phase
from cursedbottle.engine.game import Game
from cursedbottle.engine.rules import Rules
from cursedbottle.server.wire import rules_msg
from test_server_secrecy import record_game
from test_server_support import run

CLIENT = Path(__file__).parent.parent / "client"

#: The fields a person sets when making a table; what follows from them is the server's.
RULE_FIELDS = frozenset({
    "players", "teams", "singles", "bright_house", "hot_bottle", "second_bottle",
    "hands", "target", "pile_per_stage",
})
#: Where the client reads them only to show them as chosen, never to derive a fact:
#: there a read may stand only in an f-string ("6p") or decide whether a label is
#: shown (an `if` test, alone or in an `and`/`or`; the end compared with a name).
#: (By function, wherever its module is.)
SHOWN = {
    # The lobby's one line per table: "Bottle Imp, 6p, teams 2-2-1-1, 12×".
    "rules_text",
    # The end-of-hand line for the hot bottle's owner ("pays the pile and its own
    # tricks"): the server's score is shown, the flag only picks the words.
    "TableModel.score_lines",
}


def _is_rules(node: ast.expr) -> bool:
    """`rules`, `x.rules`: how the client reaches a Rules message."""
    return (isinstance(node, ast.Name) and node.id == "rules") or (
        isinstance(node, ast.Attribute) and node.attr == "rules")


def _only_shown(node: ast.AST, parent: dict) -> bool:
    """The read is text in an f-string, or (part of) the test of an `if`."""
    up = parent.get(node)
    if isinstance(up, ast.FormattedValue):
        return True
    if isinstance(node, ast.Call) and isinstance(up, ast.Compare) and all(
            isinstance(c, ast.Constant) for c in up.comparators):
        node, up = up, parent.get(up)  # rules.WhichOneof("end") == "hands"
    while isinstance(up, (ast.BoolOp, ast.UnaryOp)):
        node, up = up, parent.get(up)
    return isinstance(up, (ast.If, ast.IfExp)) and up.test is node


def rule_reads(source: str) -> list[tuple[str, int, str, bool]]:
    """(function, line, field, only shown) of every read of a rule field of a Rules
    message."""
    found: list[tuple[str, int, str, bool]] = []
    scope: list[str] = []
    tree = ast.parse(source)
    parent = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

    class Visitor(ast.NodeVisitor):
        def visit_FunctionDef(self, node) -> None:
            scope.append(node.name)
            self.generic_visit(node)
            scope.pop()

        visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

        def visit_Attribute(self, node: ast.Attribute) -> None:
            if (isinstance(node.ctx, ast.Load) and node.attr in RULE_FIELDS
                    and _is_rules(node.value)):
                found.append((".".join(scope), node.lineno, node.attr, _only_shown(node, parent)))
            self.generic_visit(node)

        def visit_Call(self, node: ast.Call) -> None:
            # rules.WhichOneof("end"), getattr(rules, "players"): the same reads
            args = [a.value for a in node.args if isinstance(a, ast.Constant)]
            func = node.func
            if (isinstance(func, ast.Attribute) and func.attr == "WhichOneof"
                    and _is_rules(func.value) and "end" in args) or (
                    isinstance(func, ast.Name) and func.id == "getattr" and node.args
                    and _is_rules(node.args[0]) and RULE_FIELDS & set(args)):
                found.append((".".join(scope), node.lineno, str(args[0]),
                              _only_shown(node, parent)))
            self.generic_visit(node)

    Visitor().visit(tree)
    return found


def refused(source: str) -> list[tuple[str, int, str]]:
    """(function, line, field) of the reads in a client module the client may not make."""
    return [(function, line, field) for function, line, field, shown in rule_reads(source)
            if not (shown and function in SHOWN)]


def test_no_client_module_reads_a_rule_field():
    modules = sorted(CLIENT.rglob("*.py"))
    assert len(modules) > 10
    found = []
    for path in modules:
        name = path.relative_to(CLIENT).as_posix()
        for function, line, field in refused(path.read_text(encoding="utf-8")):
            found.append(f"client/{name}:{line} {function} reads Rules.{field}")
    assert not found, "\n".join(found)


def test_the_scan_refuses_what_the_old_model_derived():
    """The old client's own copies of rules, as it had them: each is refused."""
    model = '''
class TableModel:
    @property
    def people(self):
        return self.rules.players if self.rules else 0

    def sides(self):
        n = self.people
        if not self.teams or n < 4:
            return [(s,) for s in range(n)]
        if n == 6 and self.rules is not None and self.rules.singles:
            return [(0,), (1, 4), (2, 5), (3,)]

    def pile_needed(self):
        return max(1, self.rules.pile_per_stage - len(self.my_pile))

    def apply_event(self, m):
        self.totals = [0] * m.rules.players
'''
    assert {(f, field) for f, _line, field in refused(model)} == {
        ("TableModel.people", "players"), ("TableModel.sides", "singles"),
        ("TableModel.pile_needed", "pile_per_stage"), ("TableModel.apply_event", "players"),
    }
    # The lobby's line may show the players and the flags, but not derive from them.
    app = '''
def rules_text(tr, rules):
    parts = [f"{rules.players}p"]
    if rules.teams:
        parts.append("teams")
    if rules.players == 2:
        parts.append("Lopaka")
    end = rules.WhichOneof("end")
    if end is None:
        parts.append(f"{2 * rules.players}x")
    return parts
'''
    assert {(f, line, field) for f, line, field in refused(app)} == {
        ("rules_text", 6, "players"), ("rules_text", 8, "end"), ("rules_text", 10, "players"),
    }


# ------------------------------------------------------- the facts, game by game


@dataclass
class Step:
    """The engine's hand just before one action (or at the end): what each fact is."""

    sequence: int
    game: Game  # a copy at this point
    action: object = None
    phase: Phase | None = None
    stage: tuple = ()


def timeline(game: Game) -> list[Step]:
    """The finished game replayed action by action, one step per log length."""
    replay = Game(game.rules, game.seed, game.first_dealer)
    steps = []
    for action in game.actions:
        hand = replay.hand
        steps.append(Step(len(replay.events), _frozen(replay), action, hand.phase,
                          (hand.number, hand.stage_hand, hand.pass_to_hand)))
        replay.apply(action)
    steps.append(Step(len(replay.events), replay))
    return steps


def _frozen(game: Game) -> Game:
    return Game.replay(game.rules, game.seed, game.actions, game.first_dealer)


def _table_seat(game: Game, seat: int) -> int:
    player = game.seatings[-1][seat]
    return game.rules.players if player is None else player


def _still_to_lay(steps: list[Step], i: int, seat: int) -> tuple[int, list, list]:
    """What the seat really lays from step i on: (pile cards in this pile stage, the
    passes of this pass stage, the passes of the setup's pass stages that follow)."""
    start = steps[i]
    hand = start.game.hand
    rules = start.game.rules
    told = rules.devils_eye
    pile = 0
    stage: list = []
    setup: list = []
    for step in steps[i:]:
        if step.action is None or step.stage[0] != hand.number:
            break
        if step.phase is Phase.PILE and step.stage != start.stage:
            break  # the next pile stage (the bright house's second hand)
        if step.phase not in (Phase.PILE, Phase.PASS):
            break
        if step.action.seat != seat:
            continue
        if isinstance(step.action, PileCard):
            pile += 1
        elif isinstance(step.action, PassCard):
            to_hand = step.stage[2] if told else None
            target = (_table_seat(start.game, step.action.to), to_hand)
            setup.append(target)
            if step.stage == start.stage:
                stage.append(target)
    return pile, stage, setup


def check(model: TableModel, steps: list[Step], at: dict[int, int], sequence: int) -> None:
    """The model (fed the stream up to `sequence`) against the engine there."""
    i = at[sequence]
    game = steps[i].game
    hand = game.hand
    rules: Rules = game.rules
    seat_of = {_table_seat(game, s): s for s in range(hand.seats)}
    assert model.sides() == [tuple(side) for side in rules.sides]
    assert model.people == rules.players and model.two_hands == rules.two_hands
    assert model.devils_eye == rules.devils_eye
    lopaka = None if hand.lopaka is None else _table_seat(game, hand.lopaka)
    assert model.lopaka == lopaka
    assert model.hand_number == hand.number
    assert model.seats() == [_table_seat(game, s) for s in range(hand.seats)]
    assert sorted(model.to_act) == sorted(_table_seat(game, s) for s in hand.to_act())
    assert model.tricks_played == len(hand.tricks)
    assert model.pile_size == len(hand.pile)
    assert model.totals == list(game.totals)
    points = hand.points_taken()
    for table_seat, seat in seat_of.items():
        assert model.points_taken(table_seat) == points[seat], (table_seat, sequence)
    for holder, seat in enumerate(hand.holder_seat):
        key = (_table_seat(game, seat), holder % 2 if rules.two_hands else 0)
        assert model.counts[key] == hand.holdings[holder].bit_count()
    owners = [None if o is None else _table_seat(game, o) for _c, o in hand.bottle_states()]
    assert model.bottle_owners() == (owners or [
        None if hand.owner is None else _table_seat(game, hand.owner)])
    price = model.price.code if model.price is not None else None
    assert price == (None if hand.price_card is None else rules.deck.cards[hand.price_card].ascii)
    if model.me is None:
        assert all(seat == lopaka or (seat, h) in {
            (_table_seat(game, s), h) for s, h in enumerate(hand.open_hand) if h is not None
        } for seat, h in model.holdings)
        return
    seat = seat_of[model.me]
    mine = {c.code for _h, cards in model.my_hands() for c in cards}
    own = [h for h, s in enumerate(hand.holder_seat) if s == seat]
    assert mine == {c.ascii for h in own for c in rules.deck.cards_of(hand.holdings[h])}
    pile, stage, setup = _still_to_lay(steps, i, seat)
    kind = model.legal_kind()
    assert model.pile_needed() == (pile if kind == "pile" else 0)
    if kind in ("pile", "pass_card"):
        assert sorted(model.plan_targets()) == sorted(setup), sequence
    assert sorted(model.stage_targets()) == (sorted(stage) if kind == "pass_card" else [])
    if hand.phase is Phase.OVER:
        assert model.rules.tricks == len(hand.tricks)
        assert model.rules.WhichOneof("end") == "hands" and model.rules.hands == len(game.hands)


def replay_stream(me: int | None, updates, steps, at) -> int:
    """Feed a stream's messages to a model, checking it at every view; the views seen."""
    model = TableModel(me, Tr("en"))
    views = 0
    for update in updates:
        model.apply_update(update)
        kind = update.WhichOneof("kind")
        if kind == "snapshot" and update.snapshot.HasField("view"):
            check(model, steps, at, update.snapshot.sequence)
            views += 1
        elif kind == "batch" and update.batch.HasField("turn"):
            check(model, steps, at, update.batch.turn.sequence)
            views += 1
    return views


@pytest.mark.parametrize("rules", CONFIGS, ids=lambda r: r.deck.name + str(r.to_json()))
def test_the_model_states_the_engine_facts(rules: Rules):
    msg = rules_msg(rules)
    msg.hands = 1
    game, seat_updates, spectated = run(record_game(msg))
    steps = timeline(game)
    at = {step.sequence: i for i, step in enumerate(steps)}
    for seat, updates in seat_updates.items():
        assert replay_stream(seat, updates, steps, at) > 10
    assert replay_stream(None, spectated, steps, at) >= 1
