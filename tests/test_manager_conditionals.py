"""Conditional moves through the manager (issue 13): storing lines, replies played in the
opponent's move transaction, lines dropped by another move, cleared at the end, never played
twice across a crash, hidden from the opponent."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from manager_support import ALICE, BOB, CAROL, FakeClock, refused, replay_of, start_game

from bot.manager import BOARD_GRACE, GameManager, GameOver, NotAllowed, UserError
from bot.store import LATEST_VERSION

KIND, OPTS = "coil", {"size": 5}
ROOT = Path(__file__).resolve().parents[1]


class SimulatedCrash(BaseException):
    """Raised in place of the process dying."""


@pytest.fixture
async def mgr(db):
    m = await GameManager.open(db("c.db"), clock=FakeClock())
    yield m
    await m.close()


async def _flags(mgr, gid):
    rows = await mgr.store.fetchall("SELECT ply, move, conditional FROM moves WHERE game_id = ? ORDER BY ply",
                                    (gid,))
    return [tuple(r) for r in rows]


async def test_a_line_is_played_move_by_move_and_then_gone(mgr):
    game = await start_game(mgr, KIND, OPTS)  # alice (seat 1) to move
    stored = await mgr.add_conditional(game.id, BOB, "A1; b2; a2; b3")
    assert stored.seat == 2 and stored.texts == ["a1; b2; a2; b3"]  # canonical text

    res = await mgr.play_move(game.id, ALICE, "a1")
    assert res.move == "a1" and res.seat == 1
    assert [(r.ply, r.seat, r.move) for r in res.replies] == [(2, 2, "b2")]
    assert res.last_seat == 2 and res.position.ply == 2 and res.position.to_move == 1
    assert res.game.conditional_ply == 2 and res.game.to_move_user == ALICE and res.ping_id == ALICE
    assert (await mgr.conditional_lines(game.id, BOB)).texts == ["a2; b3"]
    assert await mgr.pending_board(game.id, 2) == res.announcement_id  # one board, after the reply

    res = await mgr.play_move(game.id, ALICE, "a2")
    assert [r.move for r in res.replies] == ["b3"]
    assert (await mgr.conditional_lines(game.id, BOB)).lines == ()
    assert await _flags(mgr, game.id) == [(1, "a1", 0), (2, "b2", 1), (3, "a2", 0), (4, "b3", 1)]
    g = await mgr.get_game(game.id)
    assert replay_of(g, await mgr.moves(game.id)).to_text() == g.position_text

    res = await mgr.play_move(game.id, ALICE, "c3")  # nothing stored any more: bob moves himself
    assert res.replies == () and res.game.to_move_user == BOB


async def test_the_result_and_the_outbox_carry_the_move_and_its_reply_with_their_seats(mgr):
    # issue 18: the board after a reply names the move that set it off too, on the command
    # path (MoveResult.plies) and on the outbox path (Announcement.plies) alike
    await mgr.set_notify(ALICE, True)
    game = await start_game(mgr, KIND, OPTS)
    await mgr.add_conditional(game.id, BOB, "a1; b2; a2; b3")
    res = await mgr.play_move(game.id, ALICE, "a1")
    assert [(m.ply, m.seat, m.move) for m in res.plies] == [(1, 1, "a1"), (2, 2, "b2")]
    mgr.clock.t += BOARD_GRACE
    board, dm = [a for a in await mgr.pending_announcements() if a.ply == 2]
    assert (board.kind, dm.kind) == ("move", "dm")
    assert board.plies == dm.plies == res.plies and board.move_record == res.plies[-1]
    for a in (board, dm):
        await mgr.mark_delivered(a.id)
    res = await mgr.play_move(game.id, ALICE, "c3")  # no reply: just the move
    assert [(m.ply, m.seat, m.move) for m in res.plies] == [(3, 1, "c3")]
    mgr.clock.t += BOARD_GRACE
    board = next(a for a in await mgr.pending_announcements() if a.kind == "move" and a.ply == 3)
    assert board.plies == res.plies == (board.move_record,)


async def test_another_move_drops_every_line(mgr):
    game = await start_game(mgr, KIND, OPTS)
    await mgr.add_conditional(game.id, BOB, "a1; b2; a2; b3")
    await mgr.add_conditional(game.id, BOB, "a1; b2; c3; d4")  # shares its beginning
    await mgr.add_conditional(game.id, BOB, "e5; d4")
    assert len((await mgr.conditional_lines(game.id, BOB)).lines) == 3
    res = await mgr.play_move(game.id, ALICE, "a1")
    assert [r.move for r in res.replies] == ["b2"]
    assert sorted((await mgr.conditional_lines(game.id, BOB)).texts) == ["a2; b3", "c3; d4"]
    res = await mgr.play_move(game.id, ALICE, "e1")  # neither line foresaw it
    assert res.replies == () and res.game.to_move_user == BOB
    assert (await mgr.conditional_lines(game.id, BOB)).lines == ()
    assert await _flags(mgr, game.id) == [(1, "a1", 0), (2, "b2", 1), (3, "e1", 0)]


async def test_a_reply_illegal_by_then_drops_its_line(mgr):
    game = await start_game(mgr, KIND, OPTS)
    await mgr.play_move(game.id, ALICE, "a1")
    await mgr.add_conditional(game.id, ALICE, "b2; c3")  # bob to move: alice prepares c3
    # a stored reply that is illegal by the time it is due (the very cell bob takes)
    await mgr.store.execute("UPDATE conditionals SET tree = ? WHERE game_id = ?",
                            ('{"b2":["b2",{}]}', game.id))
    res = await mgr.play_move(game.id, BOB, "b2")
    assert res.replies == () and res.game.to_move_user == ALICE
    assert (await mgr.conditional_lines(game.id, ALICE)).lines == ()


async def test_lines_are_checked_and_private(mgr):
    game = await start_game(mgr, KIND, OPTS)
    with refused(UserError, "it is your move"):
        await mgr.add_conditional(game.id, ALICE, "a1; b2")
    with refused(UserError, r"step 2 \(your reply `a1`\)"):
        await mgr.add_conditional(game.id, BOB, "a1; a1")
    with refused(UserError, "ends with their move"):
        await mgr.add_conditional(game.id, BOB, "a1")
    with pytest.raises(NotAllowed):
        await mgr.add_conditional(game.id, CAROL, "a1; b2")
    with pytest.raises(NotAllowed):
        await mgr.conditional_lines(game.id, CAROL)
    assert (await mgr.store.fetchone("SELECT COUNT(*) FROM conditionals"))[0] == 0  # nothing stored
    await mgr.add_conditional(game.id, BOB, "a1; b2")
    with refused(UserError, "another reply|reply"):
        await mgr.add_conditional(game.id, BOB, "a1; c3")
    assert (await mgr.conditional_lines(game.id, ALICE)).lines == ()  # alice never sees bob's
    stored, end = await mgr.conditional_end_position(game.id, BOB, 1)
    assert end.ply == 2 and end.last_move == "b2" and stored.texts == ["a1; b2"]
    with refused(UserError, "from 1 to 1"):
        await mgr.conditional_end_position(game.id, BOB, 2)
    assert await mgr.clear_conditionals(game.id, BOB) == 1
    assert await mgr.clear_conditionals(game.id, BOB) == 0
    assert (await mgr.play_move(game.id, ALICE, "a1")).replies == ()


async def test_autocomplete_offers_legal_moves_for_each_step(mgr):
    game = await start_game(mgr, KIND, OPTS)
    got = await mgr.complete_conditional(BOB, "a1; b", game_id=game.id)
    assert got and all(s.startswith("a1; b") for s in got)
    assert await mgr.complete_conditional(BOB, "a1; a1; ", game_id=game.id) == []  # bad step 2
    assert await mgr.complete_conditional(ALICE, "a", game_id=game.id) == []  # her own move


async def test_the_end_of_the_game_clears_the_lines(mgr):
    game = await start_game(mgr, KIND, OPTS)
    await mgr.add_conditional(game.id, BOB, "a1; b2")
    await mgr.resign(game.id, ALICE)
    assert (await mgr.store.fetchone("SELECT COUNT(*) FROM conditionals"))[0] == 0
    with pytest.raises(GameOver):
        await mgr.add_conditional(game.id, BOB, "a1; b2")
    assert (await mgr.conditional_lines(game.id, BOB)).lines == ()


async def test_crash_in_the_move_transaction_plays_the_reply_once_or_not_at_all(tmp_path, monkeypatch):
    """Die right after the conditional reply's move row is written, before COMMIT: on disk
    (copied aside at that moment) and in the live file the game is before alice's move, the
    line still stored; alice's move again plays the reply exactly once."""
    path = tmp_path / "crash.db"
    snap = tmp_path / "snapshot"
    snap.mkdir()
    mgr = await GameManager.open(path, clock=FakeClock())
    game = await start_game(mgr, KIND, OPTS)
    await mgr.add_conditional(game.id, BOB, "a1; b2; a2; b3")
    conn = mgr.store  # every statement of the repositories goes through Store.execute
    real_execute = conn.execute

    async def crashing_execute(sql, params=()):
        cur = await real_execute(sql, params)
        if sql.startswith("INSERT INTO moves") and "conditional" in sql:
            for suffix in ("", "-wal"):
                src = Path(str(path) + suffix)
                if src.exists():
                    shutil.copy(src, snap / ("crash.db" + suffix))
            raise SimulatedCrash
        return cur

    monkeypatch.setattr(conn, "execute", crashing_execute)
    with pytest.raises(SimulatedCrash):
        await mgr.play_move(game.id, ALICE, "a1")
    monkeypatch.setattr(conn, "execute", real_execute)
    await mgr.close()
    for db in (snap / "crash.db", path):
        m = await GameManager.open(db, clock=FakeClock())
        try:
            assert (await m.get_game(game.id)).ply == 0 and await m.moves(game.id) == []
            assert (await m.conditional_lines(game.id, BOB)).texts == ["a1; b2; a2; b3"]
            res = await m.play_move(game.id, ALICE, "a1")
            assert [r.move for r in res.replies] == ["b2"]
            assert await _flags(m, game.id) == [(1, "a1", 0), (2, "b2", 1)]
        finally:
            await m.close()


_KILL_SCRIPT = textwrap.dedent(
    """
    import asyncio, os, sys
    sys.path[:0] = [{tests!r}, {root!r}]
    from bot.manager import GameManager

    async def main(path, game_id, user, move):
        mgr = await GameManager.open(path)
        res = await mgr.play_move(game_id, user, move)
        print("acknowledged", [r.move for r in res.replies], flush=True)
        os._exit(7)  # killed right after the move was acknowledged

    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]))
    """
)


async def test_process_killed_after_the_reply_never_plays_it_again(tmp_path):
    path = tmp_path / "killed.db"
    script = tmp_path / "kill.py"
    script.write_text(_KILL_SCRIPT.format(tests=str(ROOT / "tests"), root=str(ROOT)))
    mgr = await GameManager.open(path)
    game = await start_game(mgr, KIND, OPTS)
    await mgr.add_conditional(game.id, BOB, "a1; b2; a2; b3")
    await mgr.close()
    proc = subprocess.run([sys.executable, str(script), str(path), str(game.id), str(ALICE), "a1"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 7 and "acknowledged ['b2']" in proc.stdout, proc.stderr
    mgr = await GameManager.open(path)
    try:
        assert await _flags(mgr, game.id) == [(1, "a1", 0), (2, "b2", 1)]
        assert (await mgr.conditional_lines(game.id, BOB)).texts == ["a2; b3"]
        res = await mgr.play_move(game.id, ALICE, "a2")
        assert [r.move for r in res.replies] == ["b3"]
        assert await _flags(mgr, game.id) == [(1, "a1", 0), (2, "b2", 1), (3, "a2", 0), (4, "b3", 1)]
    finally:
        await mgr.close()


def _columns(path) -> dict[str, set[str]]:
    import sqlite3
    con = sqlite3.connect(path)
    try:
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {t: {r[1] for r in con.execute(f"PRAGMA table_info({t})")} for t in tables}
    finally:
        con.close()


async def test_migration_from_version_6_keeps_games_and_moves_and_takes_lines(tmp_path):
    """Version 7 adds the conditionals table and two columns: a version-6 file's games and
    moves come through unchanged (no move conditional, no conditional ply), and the game in
    progress takes conditional lines at once."""
    from old_schema import copy_rows

    from bot.store import Store
    path = tmp_path / "v6.db"
    clock = FakeClock()
    head = await GameManager.open(tmp_path / "head.db", clock=clock)  # the rows, played today
    old = await Store.open(path, target_version=6)
    try:
        game = await start_game(head, KIND, OPTS)
        await head.play_move(game.id, ALICE, "a1")
        await head.play_move(game.id, BOB, "b2")
        done = await start_game(head, KIND, OPTS)
        await head.play_move(done.id, ALICE, "c3")
        await head.resign(done.id, BOB)
        await copy_rows(head.store, old, ("challenges", "games", "moves"))
        games = [tuple(r) for r in await old.fetchall("SELECT * FROM games ORDER BY id")]
        moves = [tuple(r) for r in await old.fetchall("SELECT * FROM moves ORDER BY game_id, ply")]
    finally:
        await head.close()
        await old.close()
    assert "conditionals" not in _columns(path)

    mgr = await GameManager.open(path, clock=clock)
    try:
        assert await mgr.store.version() == LATEST_VERSION
        after = [tuple(r) for r in await mgr.store.fetchall("SELECT * FROM games ORDER BY id")]
        width = len(games[0])
        assert [r[:width] for r in after] == games
        assert [tuple(r) for r in await mgr.store.fetchall(
            "SELECT conditional_ply, clock, bank1, bank2 FROM games ORDER BY id")] == [
            (None, "move 3d", 3 * 86400.0, 3 * 86400.0)] * 2
        assert [tuple(r) for r in await mgr.store.fetchall(
            "SELECT * FROM moves ORDER BY game_id, ply")] == [(*m, 0) for m in moves]
        await mgr.play_move(game.id, ALICE, "a2")
        await mgr.add_conditional(game.id, ALICE, "c3; d4")
        res = await mgr.play_move(game.id, BOB, "c3")
        assert [r.move for r in res.replies] == ["d4"] and res.game.conditional_ply == 5
    finally:
        await mgr.close()
    fresh = await Store.open(tmp_path / "fresh7.db")
    await fresh.close()
    assert _columns(path) == _columns(tmp_path / "fresh7.db")
