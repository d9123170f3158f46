"""Game manager: play -- moves, races, the position cache, resignation, abort.

Every test runs against each backend: a SQLite file and a PostgreSQL database (the
``db`` fixture of conftest.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
import random

import pytest
from manager_support import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    FakeClock,
    StatementLog,
    challenge,
    first_move,
    game_for,
    pause_inside_move,
    play_random,
    refused,
    replay_of,
    small_options,
    start_game,
)

import engine
from bot.manager import (
    Game,
    GameManager,
    GameOver,
    InvalidMove,
    NotAllowed,
    NotFound,
    NotYourTurn,
)

HOUR = 3600.0
KIND = "coil"
OPTS = {"size": 5}
TITLE = engine.GAMES[KIND].title


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
async def mgr(db, clock):
    m = await GameManager.open(db("stonecast.db"), clock=clock, rng=random.Random(7))
    yield m
    await m.close()


async def test_a_move_is_committed_with_its_canonical_text(mgr, clock):
    g = await start_game(mgr, KIND, OPTS)
    first = next(g.position.legal_moves())
    clock.advance(5)
    res = await mgr.play_move(g.id, ALICE, "  " + first.upper() + " ")
    assert res.move == first and res.seat == 1 and not res.finished
    assert res.position == g.position.play(first)
    assert res.game.ply == 1 and res.game.position_text == res.position.to_text()
    assert res.game.to_move_user == BOB and res.game.updated_at == clock.t
    assert await mgr.moves(g.id) == [type((await mgr.moves(g.id))[0])(1, 1, first, clock.t)]


async def test_a_game_carries_its_position_as_a_field(mgr):
    """``Game.position`` is a field given when the game is built (issue 20), never written
    behind the frozen dataclass's back: the game after a move holds the position played, a
    copy keeps it, and a game cannot be built without one."""
    g = await start_game(mgr, KIND, OPTS)
    res = await first_move(mgr, g)
    assert res.game.position is res.position and res.position.to_text() == res.game.position_text
    assert dataclasses.replace(res.game, deadline=None).position is res.position
    assert (await mgr.get_game(g.id)).position is res.position  # the cache's, not parsed again
    assert "position" in {f.name for f in dataclasses.fields(Game)}
    with pytest.raises(TypeError, match="position"):
        Game(**{f.name: getattr(res.game, f.name) for f in dataclasses.fields(Game) if f.name != "position"})


async def test_move_errors(mgr):
    g = await start_game(mgr, KIND, OPTS)
    first = next(g.position.legal_moves())
    with refused(NotAllowed, "not playing"):
        await mgr.play_move(g.id, CAROL, first)
    with refused(NotYourTurn, "not your turn"):
        await mgr.play_move(g.id, BOB, first)
    for bad in ("z99", "hello", ""):
        with refused(InvalidMove, "Cannot read that move"):
            await mgr.play_move(g.id, ALICE, bad)
    with pytest.raises(InvalidMove):
        await mgr.play_move(g.id, ALICE, "a1 " * 100)
    await mgr.play_move(g.id, ALICE, first)
    with refused(InvalidMove, "Illegal move: .*occupied"):
        await mgr.play_move(g.id, BOB, first)
    g2 = await mgr.get_game(g.id)
    assert g2.ply == 1 and len(await mgr.moves(g.id)) == 1


async def test_racing_moves_on_one_manager(mgr):
    g = await start_game(mgr, KIND, OPTS)
    a, b = list(g.position.legal_moves())[:2]
    results = await asyncio.gather(
        mgr.play_move(g.id, ALICE, a), mgr.play_move(g.id, ALICE, b), return_exceptions=True
    )
    wins = [r for r in results if not isinstance(r, BaseException)]
    losses = [r for r in results if isinstance(r, BaseException)]
    assert len(wins) == 1 and len(losses) == 1
    assert isinstance(losses[0], NotYourTurn)
    moves = await mgr.moves(g.id)
    assert [m.move for m in moves] == [wins[0].move]


async def test_racing_moves_from_two_processes_on_one_file(db, clock):
    path = db("shared.db")
    m1 = await GameManager.open(path, clock=clock)
    m2 = await GameManager.open(path, clock=clock)
    try:
        g = await start_game(m1, KIND, OPTS)
        for _ in range(3):
            g = await m1.get_game(g.id)
            await m2.get_game(g.id)  # both have the position cached
            mover = g.to_move_user
            a, b = list(g.position.legal_moves())[:2]
            results = await asyncio.gather(
                m1.play_move(g.id, mover, a), m2.play_move(g.id, mover, b), return_exceptions=True
            )
            errors = [r for r in results if isinstance(r, BaseException)]
            assert len(errors) == 1 and isinstance(errors[0], NotYourTurn), results
            assert "not your turn" in str(errors[0])
        g = await m2.get_game(g.id)
        moves = await m1.moves(g.id)
        assert g.ply == 3 == len(moves)
        assert replay_of(g, moves).to_text() == g.position_text
    finally:
        await m1.close()
        await m2.close()


async def test_a_move_holds_the_game_row_until_it_commits(db, clock, backend):
    """Two processes on one database: while the first's move transaction is open (paused
    after reading the game row), the second's move on that game waits (PostgreSQL: the row
    is read FOR UPDATE; SQLite: BEGIN IMMEDIATE), then finds the game moved on: the first
    move stands, the second is refused, one move recorded."""
    m1 = await GameManager.open(db("race.db"), clock=clock)
    m2 = await GameManager.open(db("race.db"), clock=clock)
    try:
        g = await start_game(m1, KIND, OPTS)
        a, b = list(g.position.legal_moves())[:2]
        inside, release = pause_inside_move(m1)
        first = asyncio.create_task(m1.play_move(g.id, ALICE, a))
        await inside.wait()
        second = asyncio.create_task(m2.play_move(g.id, ALICE, b))
        done, _ = await asyncio.wait({second}, timeout=0.5)
        assert not done, "the second move must wait for the first's transaction"
        release.set()
        assert (await first).move == a
        with pytest.raises(NotYourTurn):
            await second
        moves = await m2.moves(g.id)
        assert [m.move for m in moves] == [a]
        if backend == "postgresql":
            async with StatementLog(m2) as log:
                with pytest.raises(NotYourTurn):
                    await m2.play_move(g.id, ALICE, b)
            assert any(s.startswith("SELECT * FROM games") and s.endswith("FOR UPDATE")
                       for s in log.statements), log.statements
    finally:
        await m1.close()
        await m2.close()


@pytest.mark.parametrize("kind", sorted(engine.GAMES))
async def test_position_cache_equals_replay_through_whole_games(mgr, kind):
    rng = random.Random(3)
    for i in range(3):
        g = await start_game(mgr, kind, small_options(kind))
        if i == 2:  # and one ended by resignation part-way
            g = await play_random(mgr, g, rng, max_moves=5)
            g = await mgr.resign(g.id, g.to_move_user)
        g = await play_random(mgr, g, rng)
        assert g.status == "finished"
        moves = await mgr.moves(g.id)
        assert [m.ply for m in moves] == list(range(1, g.ply + 1))
        pos, seats = engine.new_game(g.kind, **g.options), []
        for m in moves:
            seats.append(pos.to_move)
            pos = pos.play(m.move)
        assert [m.seat for m in moves] == seats
        replayed = replay_of(g, moves)
        assert replayed.to_text() == g.position_text
        assert (g.winner, g.reason) == (replayed.outcome.winner, replayed.outcome.reason)
        assert await mgr.replay_position(g.id) == g.position


async def test_finished_game_refuses_moves_and_resignation(mgr):
    g = await play_random(mgr, await start_game(mgr, KIND, OPTS), random.Random(4))
    assert g.status == "finished" and g.deadline is None and g.finished_at is not None
    for uid in (ALICE, BOB):
        with refused(GameOver, "is over"):
            await mgr.play_move(g.id, uid, "a1")
        with pytest.raises(GameOver):
            await mgr.resign(g.id, uid)


@pytest.mark.parametrize("who, seat", [(ALICE, 1), (BOB, 2)])
async def test_resign_on_either_turn(mgr, who, seat):
    g = await start_game(mgr, KIND, OPTS)
    await mgr.play_move(g.id, ALICE, next(g.position.legal_moves()))  # Bob to move
    with pytest.raises(NotAllowed):
        await mgr.resign(g.id, CAROL)
    done = await mgr.resign(g.id, who)
    assert done.status == "finished" and done.reason == "resignation" and done.winner == 3 - seat
    assert done.position.outcome.winner == 3 - seat
    assert done.position_text == replay_of(done, await mgr.moves(g.id)).to_text()
    with pytest.raises(GameOver):
        await mgr.resign(g.id, who)


async def test_state_survives_close_and_reopen(db, clock):
    path = db("persist.db")
    m = await GameManager.open(path, clock=clock)
    g = await start_game(m, KIND, OPTS)
    res = await m.play_move(g.id, ALICE, next(g.position.legal_moves()))
    ch = await challenge(m, opponent_id=CAROL)
    await m.close()
    m = await GameManager.open(path, clock=clock)
    try:
        g2 = await m.get_game(g.id)
        assert g2 == res.game
        assert [x.move for x in await m.moves(g.id)] == [res.move]
        assert await m.get_challenge(ch.id) == ch
        nxt = next(g2.position.legal_moves())
        res2 = await m.play_move(g.id, BOB, nxt)
        assert res2.game.ply == 2
    finally:
        await m.close()


async def test_abort(mgr):
    g = await game_for(mgr)
    await first_move(mgr, g)
    with pytest.raises(NotFound):
        await mgr.abort(9999, CAROL)
    done = await mgr.abort(g.id, CAROL)
    assert (done.status, done.winner, done.reason, done.ply) == ("aborted", None, "aborted", 1)
    assert done.to_move_user is None
    with refused(GameOver, "aborted"):
        await mgr.play_move(g.id, BOB, "a1")
    with refused(GameOver, "aborted"):
        await mgr.resign(g.id, BOB)
    with pytest.raises(GameOver):
        await mgr.abort(g.id, CAROL)
    assert await mgr.active_games(ALICE) == []
    prof = await mgr.profile(GUILD, ALICE)
    assert prof.records == {} and prof.ratings == {}
    # a rematch of an aborted game is allowed
    assert (await mgr.rematch(g.id, ALICE)).first == "opponent"


# ---- what a move returns for its board post (issue 11) ------------------------------------------
async def test_a_move_reads_the_game_row_and_the_settings_once(mgr, clock):
    await mgr.set_notify(BOB, True)  # a DM is due too: its check must not read the settings again
    g = await start_game(mgr, KIND, OPTS)
    async with StatementLog(mgr) as log:
        res = await mgr.play_move(g.id, ALICE, next(g.position.legal_moves()))
    assert res.dm_id is not None
    assert log.reads("games") == 1, log.statements
    assert log.reads("user_settings") == 1, log.statements
    # ... and the game it returns is the one stored
    assert res.game == await mgr.get_game(g.id)


async def test_a_move_result_carries_what_its_board_needs(mgr, clock):
    await mgr.set_notify(BOB, True)
    g = await start_game(mgr, KIND, OPTS)
    await mgr.set_vacation(BOB, 2)
    res = await mgr.play_move(g.id, ALICE, next(g.position.legal_moves()))
    assert res.ping_id == BOB == res.game.to_move_user
    assert res.vacation_until == clock.t + 2 * 86400.0
    assert res.dm_due and res.dm_id == await mgr.pending_dm(g.id, res.game.ply)
    assert res.announcement_id == await mgr.pending_board(g.id, res.game.ply)
    assert res.rating_changes == {}
    assert res.to_move_settings == await mgr.settings(BOB)
    res = await mgr.play_move(g.id, BOB, next(res.position.legal_moves()))
    assert res.ping_id == ALICE and res.vacation_until is None and not res.dm_due


async def test_the_move_that_ends_a_rated_game_carries_the_rating_changes(mgr):
    g = await start_game(mgr, KIND, OPTS)
    rng = random.Random(3)
    res = None
    while res is None or not res.finished:
        game = res.game if res is not None else g
        res = await mgr.play_move(game.id, game.to_move_user, game.position.random_move(rng))
    assert res.game.status == "finished" and res.game == await mgr.get_game(g.id)
    assert res.rating_changes == await mgr.rating_changes(g.id) != {}
    assert res.ping_id == res.game.players[3 - res.seat]
    assert res.to_move_settings is None and res.vacation_until is None and not res.dm_due


async def test_resign_game_and_abort_game_return_what_the_final_post_needs(mgr):
    g = await start_game(mgr, KIND, OPTS)
    end = await mgr.resign_game(g.id, BOB, guild_id=g.guild_id)
    assert end.game == await mgr.get_game(g.id) and end.game.reason == "resignation"
    assert end.position == end.game.position and end.position.outcome.winner == 1
    assert end.by == BOB and end.ping == (ALICE,)
    assert end.rating_changes == await mgr.rating_changes(g.id) != {}
    g = await start_game(mgr, KIND, OPTS, rated=False)
    end = await mgr.resign_game(g.id, ALICE, guild_id=g.guild_id)
    assert end.ping == (BOB,) and end.rating_changes == {}
    g = await start_game(mgr, KIND, OPTS)
    end = await mgr.abort_game(g.id, CAROL)
    assert end.game == await mgr.get_game(g.id) and end.game.status == "aborted"
    assert end.by == CAROL and end.ping == (ALICE, BOB) and end.rating_changes == {}


async def test_set_game_thread_returns_the_game_as_stored(mgr):
    g = await start_game(mgr, KIND, OPTS)
    assert g.thread_wanted and g.thread_id is None
    after = await mgr.set_game_thread(g.id, 4242)
    assert after == await mgr.get_game(g.id)
    assert after.thread_id == 4242 == after.channel_for_posts and not after.thread_wanted
    with pytest.raises(NotFound):
        await mgr.set_game_thread(g.id + 100, 1)


async def test_play_finds_the_game_meant_and_plays_there(mgr):
    g = await start_game(mgr, KIND, OPTS)
    await mgr.set_game_thread(g.id, 4242)
    move = next(g.position.legal_moves())
    with pytest.raises(NotYourTurn):  # Bob's one game waits for Alice
        await mgr.play(BOB, move, channel_id=4242)
    res = await mgr.play(ALICE, move, channel_id=4242, guild_id=GUILD)
    assert res.game.id == g.id and res.move == move and res.game == await mgr.get_game(g.id)
    with pytest.raises(NotFound):
        await mgr.play(BOB, move, game_id=g.id, guild_id=GUILD + 1)


async def test_how_a_game_ended_reads_as_a_termination(mgr):
    g = await start_game(mgr, KIND, OPTS)
    assert g.termination is None and not g.ended_off_the_board
    ended = await mgr.resign(g.id, ALICE)
    assert ended.termination is engine.Termination.RESIGNATION and ended.ended_off_the_board
    g = await start_game(mgr, KIND, OPTS)
    aborted = await mgr.abort(g.id, CAROL)
    assert aborted.reason == "aborted" and aborted.termination is None and not aborted.ended_off_the_board
