"""The store under load (issue 14, scale): on PostgreSQL a burst of transactions larger than
the pool waits its turn -- at most ``pool_size`` connections out at once, none failing --
and the pool's size is a setting (``STONECAST_DB_POOL``)."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import Config, ConfigError
from bot.store import Store
from bot.store.db import DEFAULT_POOL_SIZE


async def test_a_burst_larger_than_the_pool_waits_its_turn(db_url, backend):
    if backend != "postgresql":
        pytest.skip("SQLite runs one transaction at a time")
    store = await Store.open(db_url, pool_size=2)
    busy = peak = 0

    async def one(user_id: int) -> None:
        nonlocal busy, peak
        async with store.transaction():
            busy += 1
            peak = max(peak, busy)
            await store.execute("INSERT INTO user_settings (user_id, dm) VALUES (?, 1)", (user_id,))
            await asyncio.sleep(0.02)
            busy -= 1

    async def lone_read() -> int:  # statements outside a transaction take a turn too
        return len(await store.fetchall("SELECT user_id FROM user_settings"))

    try:
        await asyncio.gather(*(one(i) for i in range(1, 41)), *(lone_read() for _ in range(10)))
        assert peak <= 2
        assert store.engine.pool.checkedout() == 0
        assert len(await store.fetchall("SELECT user_id FROM user_settings")) == 40
    finally:
        await store.close()


async def test_a_pool_size_below_one_is_refused(tmp_path):
    with pytest.raises(ValueError, match="pool_size"):
        await Store.open(tmp_path / "x.db", pool_size=0)
    assert not (tmp_path / "x.db").exists()


def test_the_pool_size_is_a_setting():
    assert Config.from_env({"DISCORD_TOKEN": "t"}).db_pool == DEFAULT_POOL_SIZE
    assert Config.from_env({"DISCORD_TOKEN": "t", "STONECAST_DB_POOL": " 25 "}).db_pool == 25
    for bad in ("0", "-3", "ten", "101"):
        with pytest.raises(ConfigError, match="STONECAST_DB_POOL"):
            Config.from_env({"DISCORD_TOKEN": "t", "STONECAST_DB_POOL": bad})


async def test_display_names_are_stored_on_both_backends(db_url):
    from bot.manager import GameManager, UserError

    manager = await GameManager.open(db_url)
    try:
        await manager.remember_name(7, "  Ada  ")
        await manager.remember_name(7, "Ada L.")  # replaced
        await manager.remember_name(8, "x" * 300)
        assert await manager.display_names([7, 8, 9]) == {7: "Ada L.", 8: "x" * 100}
        with pytest.raises(UserError):
            await manager.remember_name(9, "   ")
        assert await manager.display_names([9]) == {}
    finally:
        await manager.close()
