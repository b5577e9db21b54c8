"""Names other people see: refused when they could change what others see or pass
for someone else, kept literally otherwise (markup is just text)."""

from __future__ import annotations

import grpc
import pytest
from cursedbottle.v1 import table_pb2
from test_server_support import create, fingerprint, refused, rules, run, serving, table_of

INVALID = grpc.StatusCode.INVALID_ARGUMENT

HIDDEN = [
    pytest.param("Ann\x85", id="C1-next-line"),
    pytest.param("Ann\x9b31m", id="C1-CSI"),
    pytest.param("\u202eAnn", id="bidi-override"),
    pytest.param("Ann\u2066", id="bidi-isolate"),
    pytest.param("A\u200bnn", id="zero-width-space"),
    pytest.param("A\u200dnn", id="zero-width-joiner"),
    pytest.param("\ufeffAnn", id="byte-order-mark"),
    pytest.param("Ann\u2028Bob", id="line-separator"),
    pytest.param("Ann\ue000", id="private-use"),
]


@pytest.mark.parametrize("name", HIDDEN)
def test_names_with_invisible_or_control_characters_are_refused(name):
    async def go():
        async with serving() as (running, stub):
            message = await refused(
                stub.CreateTable(table_pb2.CreateTableRequest(name=name, rules=rules(3))),
                INVALID,
                "MALFORMED",
            )
            assert "U+" in message
            assert not running.lobby.tables
            table_id, _ = await create(stub, rules(3))
            before = fingerprint(table_of(running, table_id))
            join = table_pb2.JoinRequest(table_id=table_id, name=name)
            message = await refused(stub.Join(join), INVALID, "MALFORMED")
            assert "U+" in message
            assert fingerprint(table_of(running, table_id)) == before

    run(go())


@pytest.mark.parametrize(
    "name",
    ["Lopaka", "lopaka", "ＬＯＰＡＫＡ", "strong bot", "Random Bot", "random", "strong:0.3",
     "Mallory  bot"],
)
def test_a_person_may_not_pass_for_a_bot_or_lopaka(name):
    async def go():
        async with serving() as (running, stub):
            table_id, _ = await create(stub, rules(2))
            before = fingerprint(table_of(running, table_id))
            join = table_pb2.JoinRequest(table_id=table_id, name=name)
            message = await refused(stub.Join(join), INVALID, "RESERVED_NAME")
            assert "bot or Lopaka" in message
            assert fingerprint(table_of(running, table_id)) == before

    run(go())


def test_a_person_may_not_take_the_name_of_someone_at_the_table():
    async def go():
        async with serving() as (running, stub):
            table_id, _ = await create(stub, rules(3))
            await stub.Join(table_pb2.JoinRequest(table_id=table_id, name="Ann"))
            before = fingerprint(table_of(running, table_id))
            join = table_pb2.JoinRequest(table_id=table_id, name="  ANN ")
            await refused(stub.Join(join), grpc.StatusCode.FAILED_PRECONDITION, "NAME_TAKEN")
            assert fingerprint(table_of(running, table_id)) == before
            # Anyone else is welcome; so is Ann at another table.
            await stub.Join(table_pb2.JoinRequest(table_id=table_id, name="Annabel"))
            other, _ = await create(stub, rules(3))
            await stub.Join(table_pb2.JoinRequest(table_id=other, name="Ann"))

    run(go())


def test_markup_and_other_scripts_are_names_like_any_other():
    names = ["[/x]", "[reverse]ADMIN[/]", "Zoë", "Ζωή", "أحمد", "山田", "🂡 Ace"]

    async def go():
        async with serving() as (_running, stub):
            made = await stub.CreateTable(
                table_pb2.CreateTableRequest(name="[bold red]X[/]", rules=rules(6, game=2))
            )
            table_id = made.table.table_id
            for name in names[:6]:
                await stub.Join(table_pb2.JoinRequest(table_id=table_id, name=name))
            info = (await stub.GetTable(table_pb2.GetTableRequest(table_id=table_id))).table
            assert info.name == "[bold red]X[/]"
            assert [s.name for s in info.seats] == names[:6]
            spaced = await stub.CreateTable(
                table_pb2.CreateTableRequest(name="  Friday  ", rules=rules(3))
            )
            assert spaced.table.name == "Friday"

    run(go())
