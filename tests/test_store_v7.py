"""Schema version 7 (issue 13) from a version-6 file with data in it: the ratings recomputed
with Glicko-2 by replaying every rated game in the order they ended (checked against the
steps worked out in ``glicko_by_hand``), clocks and banks filled in from the days per move,
settings at their defaults, the outbox kept and taking daily digests."""

from __future__ import annotations

import sqlite3

import pytest
from glicko_by_hand import NEW, game, grown
from manager_support import ALICE, BOB, CAROL, GUILD, FakeClock, start_game
from old_schema import copy_rows

from bot.manager import DAY, GameManager
from bot.store import LATEST_VERSION, Store

KIND, OPTS = "coil", {"size": 5}


def _columns(path) -> dict[str, set[str]]:
    con = sqlite3.connect(path)
    try:
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {t: {r[1] for r in con.execute(f"PRAGMA table_info({t})")} for t in tables}
    finally:
        con.close()


async def test_migration_from_version_6_recomputes_ratings_and_fills_clocks(tmp_path):
    path = tmp_path / "v6.db"
    clock = FakeClock()
    head = await GameManager.open(tmp_path / "head.db", clock=clock)  # the rows, played today
    old = await Store.open(path, target_version=6)
    try:
        g1 = await start_game(head, KIND, OPTS)                      # alice beats bob
        g2 = await start_game(head, KIND, OPTS, a=BOB, b=CAROL)      # carol beats bob, later
        g3 = await start_game(head, KIND, OPTS, rated=False)         # unrated: no rating
        g4 = await start_game(head, KIND, OPTS)                      # aborted: no rating
        running = await start_game(head, KIND, OPTS, a=CAROL, b=ALICE, days_per_move=5)
        await head.resign(g1.id, BOB)
        clock.advance(2 * DAY)
        await head.resign(g2.id, BOB)
        await head.resign(g3.id, ALICE)
        await head.abort(g4.id, CAROL)
        await head.play_move(running.id, CAROL, "a1")
        await head.set_notify(BOB, True)
        ch = await head.create_challenge(guild_id=GUILD, channel_id=1, challenger_id=ALICE,
                                         opponent_id=CAROL, kind="io", days_per_move=7)
        await copy_rows(head.store, old, ("challenges", "games", "moves", "ratings", "rating_changes",
                                          "user_settings", "announcements"))
        # a version-6 bot kept Elo ratings: whatever they were, version 7 replays the games
        await old.execute("UPDATE ratings SET rating = 1520 + user_id % 7")
        await old.execute("UPDATE rating_changes SET before = 1500, after = 1520")
        outbox = [tuple(r) for r in await old.fetchall("SELECT * FROM announcements ORDER BY id")]
    finally:
        await head.close()
        await old.close()
    assert outbox and "rd" not in _columns(path)["ratings"]

    mgr = await GameManager.open(path, clock=clock)
    try:
        assert await mgr.store.version() == LATEST_VERSION
        # Glicko-2 by hand: g1 (alice 1, bob 2) at t0, then g2 (bob 1, carol 2) two days later
        alice, bob = game(NEW, NEW, 1)
        bob_then = (bob[0], grown(bob[1], bob[2], 2), bob[2])
        bob, carol = game(bob_then, NEW, 2)
        rows = {r["user_id"]: r for r in await mgr.store.fetchall(
            "SELECT * FROM ratings WHERE guild_id = ? AND kind = ?", (GUILD, KIND))}
        assert set(rows) == {ALICE, BOB, CAROL}
        for uid, want, games in ((ALICE, alice, 1), (BOB, bob, 2), (CAROL, carol, 1)):
            r = rows[uid]
            assert (r["rating"], r["rd"], r["volatility"]) == pytest.approx(want, abs=1e-6)
            assert r["games"] == games and r["last_played"] is not None
        changes = await mgr.rating_changes(g2.id)
        assert changes[BOB] == pytest.approx((game(NEW, NEW, 1)[1][0], bob[0]), abs=1e-6)
        assert await mgr.rating_changes(g3.id) == {} and await mgr.rating_changes(g4.id) == {}
        board = await mgr.leaderboard(GUILD, KIND)
        assert [r.user_id for r in board] == [ALICE, CAROL, BOB] and all(r.provisional for r in board)
        # clocks: "move <days>d", both banks the allowance
        g = await mgr.get_game(running.id)
        assert (g.clock, g.bank1, g.bank2) == ("move 5d", 5 * DAY, 5 * DAY)
        assert g.time_control.name == "5 days a move"
        assert (await mgr.get_challenge(ch.id)).clock == "move 7d"
        # settings: the DM kept, no digest, no confirmation
        s = await mgr.settings(BOB)
        assert (s.dm_mode, s.confirm, s.digest_hour) == ("on", False, None)
        # the outbox's rows kept, ids going on; a digest can be queued now
        after = [tuple(r) for r in await mgr.store.fetchall("SELECT * FROM announcements ORDER BY id")]
        assert [r[:len(o)] for r, o in zip(after, outbox, strict=True)] == outbox  # + lease columns
        await mgr.set_dm_mode(ALICE, "digest", 23)
        await mgr.sweep(clock.t + 3600 * 25)  # 23:13 UTC the next day
        [row] = await mgr.store.fetchall("SELECT id, kind, user_id FROM announcements WHERE kind = 'digest'")
        assert row["user_id"] == ALICE and row["id"] > outbox[-1][0]
        # the game in progress goes on with its clock
        res = await mgr.play_move(running.id, ALICE, "b2")
        assert res.game.deadline == clock.t + 5 * DAY
    finally:
        await mgr.close()
    fresh = await Store.open(tmp_path / "fresh7.db")
    await fresh.close()
    assert _columns(path) == _columns(tmp_path / "fresh7.db")
