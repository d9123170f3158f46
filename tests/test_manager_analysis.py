"""Game manager: analysis boards and private notes (issue 23) -- opening a board three ways,
stepping, playing, undoing, the Engine gate by content (a running game's position, one that
may still arise from it, pasted as text), the per-player cap, lapsed boards, notes, and
/privacy deleting notes and boards. The content rule itself (:func:`bot.rules.analysis.may_follow`)
is checked against real games of each kind. Runs on SQLite only (the SQL is the backends'
common part, covered by tests/test_store_backends.py's statements)."""

from __future__ import annotations

import random

import pytest
from manager_support import ALICE, BOB, CAROL, GUILD, FakeClock, refused, start_game

import engine
from bot.manager import (
    ENGINE_PER_MINUTE,
    NOTE_MAX,
    SESSION_TTL,
    GameManager,
    NotAllowed,
    NotFound,
    StaleAction,
    UserError,
)
from bot.rules.analysis import may_follow

OTHER_GUILD = 77


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
async def mgr(sqlite_db, clock):
    m = await GameManager.open(sqlite_db(), clock=clock, rng=random.Random(3))
    yield m
    await m.close()


async def _finished_coil(mgr):
    g = await start_game(mgr, "coil", {"size": 5})
    for user, move in [(ALICE, "c3"), (BOB, "d4"), (ALICE, "e5")]:
        await mgr.play_move(g.id, user, move)
    await mgr.resign(g.id, BOB)
    return await mgr.get_game(g.id)


async def test_a_board_steps_plays_undoes_and_survives_a_new_manager(mgr, tmp_path, clock):
    g = await _finished_coil(mgr)
    b = await mgr.analyze(CAROL, guild_id=GUILD, game_id=g.id)  # anyone of the server
    assert (b.cursor, b.line, b.own, b.game.id) == (3, ("c3", "d4", "e5"), (), g.id)
    assert b.position == engine.replay("coil", {"size": 5}, ["c3", "d4", "e5"])
    b = await mgr.analysis_step(b.id, CAROL, -1)
    b = await mgr.analysis_step(b.id, CAROL, -5)  # past the start: the start
    assert b.cursor == 0 and b.position.ply == 0
    b = await mgr.analysis_step(b.id, CAROL, +1)
    # Play at move 1 reads pasted text as /move does; the game's later moves make way
    b = await mgr.analysis_play(b.id, CAROL, " `B2`. ")
    assert (b.line, b.own, b.cursor) == (("c3", "b2"), ("b2",), 2)
    with refused(UserError, "Illegal move"):
        await mgr.analysis_play(b.id, CAROL, "b2")
    with refused(UserError, "Cannot read that move"):
        await mgr.analysis_play(b.id, CAROL, "zz99")
    b = await mgr.analysis_play(b.id, CAROL, "a1")
    b = await mgr.analysis_undo(b.id, CAROL)
    assert (b.line, b.cursor) == (("c3", "b2"), 2)
    b = await mgr.analysis_undo(b.id, CAROL)  # none of Carol's left: the game's moves return
    assert (b.line, b.own, b.cursor) == (("c3", "d4", "e5"), (), 1)
    with refused(UserError, "no move of yours to take back"):
        await mgr.analysis_undo(b.id, CAROL)
    with refused(NotAllowed, "someone else's analysis board"):
        await mgr.analysis_step(b.id, ALICE, 1)
    # stored: another manager on the same database (a restart) shows the same board
    other = await GameManager.open(tmp_path / "stonecast.db", clock=clock)
    try:
        again = await other.analysis_board(b.id, CAROL)
        assert (again.line, again.cursor, again.position) == (b.line, b.cursor, b.position)
    finally:
        await other.close()
    # lapses SESSION_TTL after its last use: refused, and the row goes
    clock.advance(SESSION_TTL - 1)
    await mgr.analysis_step(b.id, CAROL, 1)  # used: lasts another SESSION_TTL
    clock.advance(SESSION_TTL)
    with refused(StaleAction, "lapsed .*24 hours"):
        await mgr.analysis_step(b.id, CAROL, 1)
    row = await mgr.store.fetchone("SELECT COUNT(*) FROM analysis_sessions")
    assert row[0] == 0


async def test_sweeps_by_two_processes_delete_each_lapsed_board_once_and_spare_one_in_use(
        mgr, tmp_path, clock, monkeypatch):
    g = await _finished_coil(mgr)
    old = await mgr.analyze(CAROL, guild_id=GUILD, game_id=g.id)
    kept = await mgr.analyze(ALICE, guild_id=GUILD, game_id=g.id)
    clock.advance(SESSION_TTL - 5)
    await mgr.analysis_step(kept.id, ALICE, -1)  # used: lasts another SESSION_TTL
    clock.advance(5)
    other = await GameManager.open(tmp_path / "stonecast.db", clock=clock)  # a second process
    try:
        assert [await other.expire_boards(), await mgr.expire_boards()] == [1, 0]
        with refused(StaleAction, "lapsed"):
            await mgr.analysis_board(old.id, CAROL)
        assert (await mgr.analysis_board(kept.id, ALICE)).cursor == 2
        # a press that read its board just before it lapsed, then met the sweep of a process
        # whose clock is 2 s ahead before writing: refused as lapsed (no crash), nothing kept
        clock.advance(SESSION_TTL - 6)  # it lapses 1 s from now
        ahead = await GameManager.open(tmp_path / "stonecast.db", clock=lambda: clock() + 2)
        from bot.store.analysis import AnalysisRepo
        read, swept = AnalysisRepo.session, []

        async def read_then_swept(self, session_id):
            row = await read(self, session_id)
            if not swept:
                swept.append(await ahead.expire_boards())
            return row

        monkeypatch.setattr(AnalysisRepo, "session", read_then_swept)
        try:
            with refused(StaleAction, "lapsed"):
                await mgr.analysis_step(kept.id, ALICE, 1)
        finally:
            monkeypatch.setattr(AnalysisRepo, "session", read)
            await ahead.close()
        assert swept == [1]
        row = await mgr.store.fetchone("SELECT COUNT(*) FROM analysis_sessions")
        assert row[0] == 0
    finally:
        await other.close()


async def test_opening_refusals_change_nothing(mgr):
    g = await _finished_coil(mgr)
    cases = [
        (dict(), UserError, "one thing to explore"),
        (dict(game_id=g.id, position="coil size=5 0 - x"), UserError, "one thing to explore"),
        (dict(game_id=g.id, move=4), UserError, "from 0 to 3"),
        (dict(game_id=g.id, move=-1), UserError, "from 0 to 3"),
        (dict(position="coil size=5 zero - ....."), UserError, "cannot read that position text \\(bad ply"),
        (dict(position="x" * 3000), UserError, "too long"),
        (dict(kind="chess"), UserError, ""),
        (dict(kind="io", options="size=4"), UserError, ""),
        (dict(kind="io", options="size"), UserError, "as name=value"),
    ]
    for kwargs, error, said in cases:
        with refused(error, said):
            await mgr.analyze(CAROL, guild_id=GUILD, **kwargs)
    with refused(NotFound, "No game is numbered"):  # another server's game is no game here
        await mgr.analyze(CAROL, guild_id=OTHER_GUILD, game_id=g.id)
    over = engine.replay("coil", {"size": 5}, ["c3", "d4", "e5"]).resign(2)
    with refused(UserError, "already finished"):
        await mgr.analyze(CAROL, guild_id=GUILD, position=over.to_text())
    row = await mgr.store.fetchone("SELECT COUNT(*) FROM analysis_sessions")
    assert row[0] == 0
    new = await mgr.analyze(CAROL, guild_id=GUILD, kind="io", options="size = 11")
    assert new.position == engine.new_game("io", size=11) and new.game is None


async def test_no_engine_on_a_running_game_or_any_position_that_may_arise_from_it(mgr, clock):
    g = await start_game(mgr, "coil", {"size": 5})
    for user, move in [(ALICE, "c3"), (BOB, "d4")]:
        await mgr.play_move(g.id, user, move)
    # its players may explore it, and so may a spectator; the Engine is refused to both
    mine = await mgr.analyze(ALICE, guild_id=GUILD, game_id=g.id)
    with refused(NotAllowed, f"your game Coil #{g.id}"):
        await mgr.engine_input(mine.id, ALICE)
    watcher = await mgr.analyze(CAROL, guild_id=GUILD, game_id=g.id, move=1)
    with refused(NotAllowed, f"Coil #{g.id}, which is being played"):
        await mgr.engine_input(watcher.id, CAROL)  # a move the game has passed: still its board
    # pasted as text: a position further on, its ply rewritten (the text's counters are not
    # content), is caught by its stones
    ahead = (await mgr.get_game(g.id)).position.play("e5")
    text = ahead.to_text().replace(f" {ahead.ply} ", " 0 ", 1)
    assert engine.from_text(text).ply == 0
    pasted = await mgr.analyze(CAROL, guild_id=GUILD, position=text)
    with refused(NotAllowed, "may still arise"):
        await mgr.engine_input(pasted.id, CAROL)
    # the running position itself, pasted by its player in another server: still refused
    same = await mgr.analyze(ALICE, guild_id=OTHER_GUILD, position=(await mgr.get_game(g.id)).position.to_text())
    with refused(NotAllowed, "your game"):
        await mgr.engine_input(same.id, ALICE)
    # played out on a new board of the same options: caught the same way
    board = await mgr.analyze(CAROL, guild_id=GUILD, kind="coil", options="size=5")
    for move in ("d4", "c3", "a1"):
        board = await mgr.analysis_play(board.id, CAROL, move)
    with refused(NotAllowed, "may still arise"):
        await mgr.engine_input(board.id, CAROL)
    # a position that cannot arise from it (d4, filled in the game, is empty) is searched
    other = await mgr.analyze(CAROL, guild_id=GUILD, kind="coil", options="size=5")
    other = await mgr.analysis_play(other.id, CAROL, "a1")
    assert (await mgr.engine_input(other.id, CAROL)).position == other.position
    # once the game is over the Engine is back on it
    await mgr.resign(g.id, BOB)
    assert (await mgr.engine_input(mine.id, ALICE)).game.id == g.id


async def test_engine_cap_a_minute_and_finished_positions(mgr, clock):
    board = await mgr.analyze(CAROL, guild_id=GUILD, kind="io", options="size=9")
    for _ in range(ENGINE_PER_MINUTE):
        await mgr.engine_input(board.id, CAROL)
        clock.advance(5)
    with refused(UserError, f"at most {ENGINE_PER_MINUTE} requests a minute.*try again in 31 seconds"):
        await mgr.engine_input(board.id, CAROL)
    other = await mgr.analyze(BOB, guild_id=GUILD, kind="io")  # the cap is each player's
    await mgr.engine_input(other.id, BOB)
    clock.advance(31)
    await mgr.engine_input(board.id, CAROL)
    g = await _finished_coil(mgr)
    end = await mgr.analyze(CAROL, guild_id=GUILD, game_id=g.id)
    clock.advance(120)
    end = await mgr.analysis_step(end.id, CAROL, 0)
    # the last move of a resigned game is not over on the board: the search may look at it
    assert not end.position.is_over


async def test_engine_answer_is_kept_for_its_position(mgr):
    board = await mgr.analyze(CAROL, guild_id=GUILD, kind="coil", options="size=5")
    pos = board.position
    board = await mgr.record_engine(board.id, CAROL, pos, value=0.6, line=["c3", "d4"], proven=False)
    assert board.engine is not None and board.engine.line == ("c3", "d4")
    assert board.engine.plies_to_end is None
    board = await mgr.analysis_play(board.id, CAROL, "c3")
    assert board.engine is None  # about another position now
    board = await mgr.analysis_undo(board.id, CAROL)
    assert board.engine.value == 0.6


async def test_notes_are_private_checked_and_deleted_by_privacy(mgr):
    g = await _finished_coil(mgr)
    game, note = await mgr.set_note(ALICE, g.id, "  e5 was the mistake  ", guild_id=GUILD)
    assert (game.id, note) == (g.id, "e5 was the mistake")
    assert await mgr.note(ALICE, g.id) == "e5 was the mistake"
    assert await mgr.note(BOB, g.id) is None  # nobody else's
    b = await mgr.analyze(ALICE, guild_id=GUILD, game_id=g.id)
    assert b.note == "e5 was the mistake"
    assert (await mgr.analyze(BOB, guild_id=GUILD, game_id=g.id)).note is None
    with refused(UserError, f"{NOTE_MAX + 1} characters long.*at most {NOTE_MAX}"):
        await mgr.set_note(ALICE, g.id, "x" * (NOTE_MAX + 1), guild_id=GUILD)
    assert await mgr.note(ALICE, g.id) == "e5 was the mistake"
    with refused(NotFound, "No game is numbered"):
        await mgr.set_note(ALICE, g.id, "hi", guild_id=OTHER_GUILD)
    assert (await mgr.stored_data(ALICE)).notes == 1
    gone = await mgr.forget_player(ALICE)
    assert (gone.notes, gone.analysis_boards) == (1, 1)
    assert await mgr.note(ALICE, g.id) is None
    row = await mgr.store.fetchone("SELECT COUNT(*) FROM analysis_sessions WHERE user_id = ?", (ALICE,))
    assert row[0] == 0
    assert (await mgr.analyze(BOB, guild_id=GUILD, game_id=g.id)).id  # Bob's are his own
    _, cleared = await mgr.set_note(BOB, g.id, "", guild_id=GUILD)
    assert cleared is None


@pytest.mark.parametrize("kind", list(engine.GAMES))
def test_may_follow_holds_along_real_games_and_fails_for_a_missing_stone(kind):
    """Sound: every later position of a random game may follow each earlier one. Useful:
    a position missing a stone of the earlier one (where stones never leave) may not."""
    rng = random.Random(kind)
    pos = engine.new_game(kind)
    seen = [pos]
    while not pos.is_over and len(seen) < 40:
        pos = pos.play(pos.random_move(rng))
        seen.append(pos)
    for i, earlier in enumerate(seen):
        for later in seen[i:]:
            assert may_follow(later, earlier)
    assert not may_follow(engine.new_game("io" if kind != "io" else "coil"), seen[0])
    if kind != "branchingcoral":
        first_with_stones = next(p for p in seen if len(p.stones) > len(seen[0].stones))
        assert not may_follow(seen[0], first_with_stones)


def test_a_pass_in_the_best_line_takes_no_number_in_the_picture_or_the_text():
    """The picture's markers and the text's numbers agree: only moves that place a stone are
    numbered (a pass has no cell to mark), so a line starting with a pass starts at 1 on both."""
    from bot import texts
    from bot.rules.analysis import line_markers, line_steps

    start = engine.new_game("coil", size=5)
    line = ["pass", "c3", "d4", "zz99"]  # the last does not play: the line stops there
    assert [(n, label) for n, label, _ in line_markers(start, line)] == [(1, "c3"), (2, "d4")]
    steps = line_steps(start, line)
    assert steps == [(None, "pass"), (1, "c3"), (2, "d4")]
    summary = texts.engine_summary("Black", 0.5, steps, False, None)
    assert summary.endswith("Best line: pass 1. c3 2. d4")
