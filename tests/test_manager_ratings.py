"""Game manager: ratings -- Glicko-2 updates in the ending transaction (checked against the
steps worked out in ``glicko_by_hand``), leaderboard (established first), rank, profile.

Every test runs against each backend: a SQLite file and a PostgreSQL database (the
``db`` fixture of conftest.py).
"""

from __future__ import annotations

import random

import pytest
from glicko_by_hand import NEW, game, grown
from manager_support import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    GUILD,
    FakeClock,
    first_move,
    game_for,
    play_random,
    refused,
    start_game,
)

import engine
from bot.manager import (
    DAY,
    GameManager,
    UserError,
)

HOUR = 3600.0
KIND = "coil"
OPTS = {"size": 5}
TITLE = engine.GAMES[KIND].title


@pytest.fixture
def clock():
    return FakeClock(1_704_067_200.0 + 40 * DAY)  # 2024-02-10 00:00 UTC


@pytest.fixture
async def mgr(db, clock):
    m = await GameManager.open(db("stonecast.db"), clock=clock, rng=random.Random(11))
    yield m
    await m.close()


def approx(triple):
    return pytest.approx(triple, abs=1e-6)


async def test_rating_after_a_win_a_timeout_and_unrated_games(mgr, clock):
    g = await game_for(mgr)
    await mgr.resign(g.id, BOB)
    alice, bob = game(NEW, NEW, 1)
    assert alice[0] == pytest.approx(1662.31, abs=0.01) and alice[1] == pytest.approx(290.32, abs=0.01)
    board = await mgr.leaderboard(GUILD, KIND)
    assert [(r.user_id, r.games, r.provisional) for r in board] == [(ALICE, 1, True), (BOB, 1, True)]
    assert [(r.rating, r.rd) for r in board] == [approx(alice[:2]), approx(bob[:2])]
    changes = await mgr.rating_changes(g.id)
    assert changes[ALICE] == approx((1500, alice[0])) and changes[BOB] == approx((1500, bob[0]))
    # a timeout counts: Alice (to move) loses on time to Bob three days later; both
    # deviations first grow by the three days without a game
    g = await game_for(mgr)
    clock.advance(3 * DAY)
    assert [e.user_id for e in await mgr.sweep()] == [ALICE]
    alice, bob = game((alice[0], grown(alice[1], alice[2], 3), alice[2]),
                      (bob[0], grown(bob[1], bob[2], 3), bob[2]), 2)
    board = {r.user_id: r for r in await mgr.leaderboard(GUILD, KIND)}
    assert (board[ALICE].rating, board[ALICE].rd, board[ALICE].games) == approx((*alice[:2], 2))
    assert (board[BOB].rating, board[BOB].rd, board[BOB].games) == approx((*bob[:2], 2))
    assert board[BOB].rating > 1500 > board[ALICE].rating
    # unrated and aborted games change nothing
    g = await game_for(mgr, rated=False)
    await mgr.resign(g.id, ALICE)
    g = await game_for(mgr)
    await first_move(mgr, g)
    aborted = await mgr.abort(g.id, CAROL)
    assert aborted.status == "aborted" and aborted.winner is None and aborted.deadline is None
    assert await mgr.rating_changes(aborted.id) == {}
    assert {r.user_id: (r.rating, r.games) for r in await mgr.leaderboard(GUILD, KIND)} == {
        ALICE: approx((alice[0], 2)), BOB: approx((bob[0], 2))}
    # ratings are per server and per game
    assert await mgr.leaderboard(GUILD + 1, KIND) == []
    assert await mgr.leaderboard(GUILD, "io") == []
    with refused(UserError, "no game called"):
        await mgr.leaderboard(GUILD, "chess")


async def test_rating_after_a_draw_and_a_natural_win(mgr):
    # find a random Io game on 6x6 that ends level (RULES.md Io: equal counts draw on even sizes)
    for seed in range(500):
        rng = random.Random(seed)
        pos, moves = engine.new_game("io", size=6), []
        while pos.outcome is None:
            moves.append(pos.random_move(rng))
            pos = pos.play(moves[-1])
        if pos.outcome.winner is None:
            break
    g = await start_game(mgr, "io", {"size": 6})
    for mv in moves:
        res = await mgr.play_move(g.id, (await mgr.get_game(g.id)).to_move_user, mv)
    assert res.finished and res.game.winner is None and res.game.reason == "stones"
    drawn, _ = game(NEW, NEW, None)
    assert drawn[0] == pytest.approx(1500) and drawn[1] < 350  # level, but surer
    assert {r.user_id: (r.rating, r.rd, r.games) for r in await mgr.leaderboard(GUILD, "io")} == {
        ALICE: approx((*drawn[:2], 1)), BOB: approx((*drawn[:2], 1))}
    # a win ended by the rules, from unequal ratings
    g = await start_game(mgr, "io", {"size": 5}, a=CAROL, b=ALICE)
    await mgr.resign((await start_game(mgr, "io", {"size": 5}, a=CAROL, b=DAVE)).id, DAVE)
    carol, _ = game(NEW, NEW, 1)
    g = await play_random(mgr, g, random.Random(2))
    assert g.status == "finished" and g.reason == "stones" and g.winner in (1, 2)
    exp_carol, exp_alice = game(carol, drawn, g.winner)
    changes = await mgr.rating_changes(g.id)
    assert changes[CAROL] == approx((carol[0], exp_carol[0]))
    assert changes[ALICE] == approx((drawn[0], exp_alice[0]))


async def test_ratings_become_established_and_lead_the_board(mgr, clock):
    """Alice and Bob win in turn, fourteen games a day apart: each rating as worked out by
    hand; their deviations fall below 110 (no more "?"), and their established ratings lead
    the board above Carol's higher provisional one (a single win)."""
    alice, bob = NEW, NEW
    for i in range(14):
        if i:
            clock.advance(DAY)
            alice = (alice[0], grown(alice[1], alice[2], 1), alice[2])
            bob = (bob[0], grown(bob[1], bob[2], 1), bob[2])
        g = await game_for(mgr)
        await mgr.resign(g.id, BOB if i % 2 == 0 else ALICE)
        alice, bob = game(alice, bob, 1 if i % 2 == 0 else 2)
    board = {r.user_id: r for r in await mgr.leaderboard(GUILD, KIND)}
    assert (board[ALICE].rating, board[ALICE].rd) == approx(alice[:2]) and board[ALICE].games == 14
    assert (board[BOB].rating, board[BOB].rd) == approx(bob[:2])
    assert alice[1] < 110 and not board[ALICE].provisional and board[ALICE].short_text == f"{round(alice[0])}"
    assert round(alice[0]) == 1484 and round(bob[0]) == 1516
    g = await game_for(mgr, a=CAROL, b=DAVE)
    await mgr.resign(g.id, DAVE)
    board = await mgr.leaderboard(GUILD, KIND)
    assert [r.user_id for r in board] == [BOB, ALICE, CAROL, DAVE]
    assert [r.short_text for r in board] == ["1516", "1484", "1662?", "1338?"]
    assert (await mgr.rank(GUILD, KIND, CAROL))[0] == 3
    # a long absence makes a rating provisional again (its deviation grows)
    clock.advance(3 * 365 * DAY)
    assert (await mgr.rank(GUILD, KIND, ALICE))[1].provisional


async def test_game_end_and_rating_are_one_transaction(mgr, monkeypatch):
    g = await game_for(mgr)
    conn = mgr.store  # every statement of the repositories goes through Store.execute
    real = conn.execute

    class Crash(BaseException):
        pass

    async def failing(sql, params=()):
        if sql.startswith("INSERT INTO ratings"):
            raise Crash
        return await real(sql, params)

    monkeypatch.setattr(conn, "execute", failing)
    with pytest.raises(Crash):
        await mgr.resign(g.id, BOB)
    monkeypatch.setattr(conn, "execute", real)
    assert (await mgr.get_game(g.id)).status == "active"
    assert await mgr.leaderboard(GUILD, KIND) == []
    assert (await mgr.resign(g.id, BOB)).status == "finished"
    assert len(await mgr.leaderboard(GUILD, KIND)) == 2


async def test_leaderboard_top_ten_and_profile(mgr):
    players = list(range(2001, 2013))  # twelve players; 2001 beats everyone once
    for p in players[1:]:
        g = await game_for(mgr, a=players[0], b=p)
        await mgr.resign(g.id, p)
    board = await mgr.leaderboard(GUILD, KIND)
    assert len(board) == 10 and board[0].user_id == players[0] and board[0].games == 11
    assert all(a.rating >= b.rating for a, b in zip(board, board[1:], strict=False))
    assert len(await mgr.leaderboard(GUILD, KIND, limit=3)) == 3

    g = await game_for(mgr, a=ALICE, b=BOB)
    await mgr.resign(g.id, ALICE)
    g = await game_for(mgr, a=BOB, b=ALICE, rated=False)
    await mgr.resign(g.id, BOB)
    io = await start_game(mgr, "io", {"size": 5}, a=ALICE, b=CAROL)
    prof = await mgr.profile(GUILD, ALICE)
    lost, _ = game(NEW, NEW, 2)
    assert set(prof.ratings) == {KIND} and prof.ratings[KIND].rating == pytest.approx(lost[0])
    assert prof.ratings[KIND].text == f"{round(lost[0])}? ± {round(lost[1])}"
    assert prof.ratings[KIND].games == 1  # the unrated game does not count for the rating
    rec = prof.records[KIND]
    assert (rec.wins, rec.losses, rec.draws, rec.games) == (1, 1, 0, 2)
    assert [x.id for x in prof.active_games] == [io.id]
    assert (await mgr.profile(GUILD + 1, ALICE)).records == {}


async def test_standings_give_the_top_and_the_askers_place_in_one_call(mgr):
    for a, b in ((ALICE, BOB), (CAROL, DAVE)):
        g = await start_game(mgr, KIND, OPTS, a=a, b=b)
        await mgr.resign(g.id, b)
    top = await mgr.standings(GUILD, KIND, ALICE, limit=1)
    assert top.rows == (await mgr.leaderboard(GUILD, KIND, limit=1)) and top.mine is None and top.rated
    assert top.rows[0].user_id == ALICE  # the first to win leads a tie (same order as rank)
    theirs = await mgr.standings(GUILD, KIND, DAVE, limit=1)
    assert theirs.mine == await mgr.rank(GUILD, KIND, DAVE) and theirs.rated
    stranger = await mgr.standings(GUILD, KIND, 4242, limit=1)
    assert stranger.mine is None and not stranger.rated
