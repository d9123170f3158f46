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


# ---- the clock sweep settles due games in batches -----------------------------------------

async def _due_games(mgr, clock, n: int, *, first_user: int = 1000):
    from manager_support import KIND, OPTS, start_game

    games = [await start_game(mgr, KIND, OPTS, a=first_user + 2 * k, b=first_user + 2 * k + 1,
                              days_per_move=1) for k in range(n)]
    return games


async def test_a_sweep_settles_due_games_a_batch_to_a_transaction(db_url):
    from manager_support import FakeClock

    from bot.manager import DAY, GameManager
    from bot.manager.clocks import SWEEP_BATCH

    clock = FakeClock(1_704_067_200.0)
    mgr = await GameManager.open(db_url, clock=clock)
    try:
        late = await _due_games(mgr, clock, SWEEP_BATCH + 5)
        clock.advance(5 * 3600)
        near = await _due_games(mgr, clock, SWEEP_BATCH + 5, first_user=5000)
        clock.advance(DAY - 5 * 3600 + 1)  # the first lot past its deadline, the second 5 h from it
        real, opened = mgr.store.transaction, []

        def counting():
            opened.append(1)
            return real()

        mgr.store.transaction = counting
        events = await mgr.sweep()
        mgr.store.transaction = real
        assert sorted(e.game.id for e in events if e.kind == "timeout") == [g.id for g in late]
        assert sorted(e.game.id for e in events if e.kind == "reminder") == [g.id for g in near]
        assert len(opened) == 4  # two batches of each kind (one a game each before)
        for g in late:
            done = await mgr.get_game(g.id)
            assert (done.status, done.reason) == ("finished", "timeout")
        pending = await mgr.pending_announcements(1000, board_grace=0)
        assert sorted((a.kind, a.game.id) for a in pending) == sorted(
            [("timeout", g.id) for g in late] + [("reminder", g.id) for g in near])
        assert await mgr.sweep() == []
    finally:
        await mgr.close()


async def test_a_game_failing_in_a_batch_leaves_the_others_settled(db_url, caplog):
    from manager_support import FakeClock

    from bot.manager import DAY, GameManager

    clock = FakeClock(1_704_067_200.0)
    mgr = await GameManager.open(db_url, clock=clock)
    try:
        games = await _due_games(mgr, clock, 6)
        clock.advance(DAY + 1)
        bad = games[2].id
        real = mgr.services.endings.finish_in_transaction

        async def failing(game, *a, **kw):
            if game.id == bad:
                raise RuntimeError("a broken game")
            return await real(game, *a, **kw)

        mgr.services.endings.finish_in_transaction = failing
        events = await mgr.sweep()
        assert sorted(e.game.id for e in events) == sorted(g.id for g in games if g.id != bad)
        assert (await mgr.get_game(bad)).status == "active"
        assert "sweep failed for game" in caplog.text
        mgr.services.endings.finish_in_transaction = real
        assert [e.game.id for e in await mgr.sweep()] == [bad]
        assert len(await mgr.pending_announcements(1000, board_grace=0)) == 6
    finally:
        await mgr.close()
