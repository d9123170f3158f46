"""Game manager: ratings -- Elo updates in the ending transaction, leaderboard, rank, profile.

Every test runs against a real SQLite file under ``tmp_path``.
"""

from __future__ import annotations

import random

import pytest
from manager_support import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    GUILD,
    FakeClock,
    play_random,
    start_game,
)

import engine
from bot import ratings as elo
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
async def mgr(tmp_path, clock):
    m = await GameManager.open(tmp_path / "stonecast.db", clock=clock, rng=random.Random(11))
    yield m
    await m.close()


async def game_for(mgr, **kw):
    return await start_game(mgr, KIND, OPTS, **kw)


async def first_move(mgr, game):
    game = await mgr.get_game(game.id)
    return await mgr.play_move(game.id, game.to_move_user, next(game.position.legal_moves()))


def test_elo_formula():
    assert elo.expected_score(1500, 1500) == 0.5
    assert elo.expected_score(1900, 1500) == pytest.approx(1 / (1 + 10 ** -1))
    assert elo.update(1500, 0, 1500, 0, 1) == (1520, 1480)
    assert elo.update(1500, 10, 1500, 9, 2) == (1490, 1520)  # K 20 after ten games, 40 before
    assert elo.update(1500, 3, 1500, 3, None) == (1500, 1500)
    lo, hi = elo.update(1400, 20, 1600, 20, None)  # a draw moves the ratings together
    assert lo > 1400 and hi < 1600 and lo - 1400 == pytest.approx(1600 - hi)
    with pytest.raises(ValueError):
        elo.update(1500, 0, 1500, 0, 3)


async def test_rating_after_a_win_a_timeout_and_unrated_games(mgr, clock):
    g = await game_for(mgr)
    await mgr.resign(g.id, BOB)
    board = await mgr.leaderboard(GUILD, KIND)
    assert [(r.user_id, r.rating, r.games) for r in board] == [(ALICE, 1520, 1), (BOB, 1480, 1)]
    assert await mgr.rating_changes(g.id) == {ALICE: (1500, 1520), BOB: (1500, 1480)}
    # a timeout counts: Alice (1520, to move) loses on time to Bob (1480)
    g = await game_for(mgr)
    clock.advance(3 * DAY)
    assert [e.user_id for e in await mgr.sweep()] == [ALICE]
    new_alice, new_bob = elo.update(1520, 1, 1480, 1, 2)
    board = await mgr.leaderboard(GUILD, KIND)
    assert {r.user_id: (r.rating, r.games) for r in board} == {ALICE: (new_alice, 2), BOB: (new_bob, 2)}
    assert new_bob > 1500 > new_alice
    # unrated and aborted games change nothing
    g = await game_for(mgr, rated=False)
    await mgr.resign(g.id, ALICE)
    g = await game_for(mgr)
    await first_move(mgr, g)
    aborted = await mgr.abort(g.id, CAROL)
    assert aborted.status == "aborted" and aborted.winner is None and aborted.deadline is None
    assert await mgr.rating_changes(aborted.id) == {}
    assert {r.user_id: (r.rating, r.games) for r in await mgr.leaderboard(GUILD, KIND)} == {
        ALICE: (new_alice, 2), BOB: (new_bob, 2)}
    # ratings are per server and per game
    assert await mgr.leaderboard(GUILD + 1, KIND) == []
    assert await mgr.leaderboard(GUILD, "io") == []
    with pytest.raises(UserError, match="no game called"):
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
    assert {r.user_id: (r.rating, r.games) for r in await mgr.leaderboard(GUILD, "io")} == {
        ALICE: (1500, 1), BOB: (1500, 1)}
    # a win ended by the rules, from unequal ratings
    g = await start_game(mgr, "io", {"size": 5}, a=CAROL, b=ALICE)
    await mgr.resign((await start_game(mgr, "io", {"size": 5}, a=CAROL, b=DAVE)).id, DAVE)  # Carol 1520
    g = await play_random(mgr, g, random.Random(2))
    assert g.status == "finished" and g.reason == "stones" and g.winner in (1, 2)
    exp1, exp2 = elo.update(1520, 1, 1500, 1, g.winner)
    changes = await mgr.rating_changes(g.id)
    assert changes == {CAROL: (1520, exp1), ALICE: (1500, exp2)}


async def test_k_factor_drops_after_ten_rated_games(mgr):
    rating = {ALICE: 1500.0, BOB: 1500.0}
    played = {ALICE: 0, BOB: 0}
    for _ in range(12):
        g = await game_for(mgr)
        await mgr.resign(g.id, BOB)
        k_a = 40 if played[ALICE] < 10 else 20
        k_b = 40 if played[BOB] < 10 else 20
        e = 1 / (1 + 10 ** ((rating[BOB] - rating[ALICE]) / 400))
        rating[ALICE] += k_a * (1 - e)
        rating[BOB] -= k_b * (1 - e)
        played[ALICE] += 1
        played[BOB] += 1
    board = {r.user_id: r for r in await mgr.leaderboard(GUILD, KIND)}
    assert board[ALICE].rating == pytest.approx(rating[ALICE]) and board[ALICE].games == 12
    assert board[BOB].rating == pytest.approx(rating[BOB])


async def test_game_end_and_rating_are_one_transaction(mgr, monkeypatch):
    g = await game_for(mgr)
    conn = mgr.store.conn
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
    assert set(prof.ratings) == {KIND} and prof.ratings[KIND].rating == 1480
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
