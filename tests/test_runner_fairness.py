"""The bot pool shares slow work between clients before tables: one client's many
tables of strong bots cannot make another client's table wait for all of them."""

from __future__ import annotations

import asyncio
import time

from cursedbottle.server.runner import FairPool


def test_groups_take_turns_before_their_keys():
    async def go() -> list[str]:
        pool = FairPool("test", workers=2, slow_limit=1)
        order: list[str] = []

        def think(label: str) -> str:
            order.append(label)
            time.sleep(0.02)
            return label

        try:
            jobs = [
                pool.run(f"flood table {i}", think, f"flood {i}", slow=True, group="flooder")
                for i in range(5)
            ]
            jobs.append(pool.run("my table", think, "mine", slow=True, group="bystander"))
            await asyncio.gather(*jobs)
        finally:
            pool.shutdown()
        return order

    order = asyncio.run(go())
    assert sorted(order) == sorted([*(f"flood {i}" for i in range(5)), "mine"])
    assert order.index("mine") <= 1, order  # (without groups: sixth, after every flood)


def test_without_groups_every_key_is_its_own_turn():
    async def go() -> list[str]:
        pool = FairPool("test", workers=2, slow_limit=1)
        order: list[str] = []

        def think(label: str) -> None:
            order.append(label)
            time.sleep(0.01)

        try:
            await asyncio.gather(
                pool.run("a", think, "a1", slow=True),
                pool.run("a", think, "a2", slow=True),
                pool.run("b", think, "b1", slow=True),
            )
        finally:
            pool.shutdown()
        return order

    order = asyncio.run(go())
    assert order.index("b1") < order.index("a2"), order
