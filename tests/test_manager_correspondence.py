"""Game manager, issue 5: clocks, reminders, timeouts, vacations, notify, ratings, rematch,
abort, leaderboard, profile and records. Clocks are driven by an injected clock."""

from __future__ import annotations

import asyncio
import random

import pytest
from manager_support import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    FakeClock,
    play_random,
    replay_of,
    small_options,
    start_game,
)

import engine
from bot import ratings as elo
from bot.manager import (
    DAY,
    GameManager,
    GameOver,
    LimitReached,
    NotAllowed,
    NotFound,
    StaleAction,
    UserError,
)
from bot.records import RecordError, parse_record, read_record

HOUR = 3600.0
KIND = "coil"
OPTS = {"size": 5}


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


# ---- clocks ---------------------------------------------------------------------------------
async def test_deadline_is_last_move_plus_days(mgr, clock):
    g = await game_for(mgr, days_per_move=2)
    assert g.days_per_move == 2 and g.deadline == clock.t + 2 * DAY
    clock.advance(30 * HOUR)
    res = await first_move(mgr, g)
    assert res.game.deadline == clock.t + 2 * DAY
    done = await mgr.resign(g.id, ALICE)
    assert done.deadline is None


@pytest.mark.parametrize("days, window", [(1, 6 * HOUR), (3, 18 * HOUR), (4, 24 * HOUR), (14, 24 * HOUR)])
async def test_reminder_once_per_turn(mgr, clock, days, window):
    assert GameManager.reminder_window(days) == window
    g = await game_for(mgr, days_per_move=days)
    start = clock.t
    assert await mgr.sweep(start + days * DAY - window - 1) == []
    events = await mgr.sweep(start + days * DAY - window)
    assert [(e.kind, e.game.id, e.user_id) for e in events] == [("reminder", g.id, ALICE)]
    assert await mgr.sweep(start + days * DAY - window + 60) == []
    assert await mgr.sweep(start + days * DAY - 1) == []
    # the next turn gets its own reminder, for the other player
    clock.advance(days * DAY - 2)
    res = await first_move(mgr, g)
    assert await mgr.sweep(clock.t + days * DAY - window - 1) == []
    events = await mgr.sweep(clock.t + days * DAY - window)
    assert [(e.kind, e.user_id, e.game.ply) for e in events] == [("reminder", BOB, res.game.ply)]


async def test_reminder_not_repeated_after_reopening(tmp_path, clock):
    path = tmp_path / "r.db"
    m = await GameManager.open(path, clock=clock)
    g = await game_for(m)
    clock.advance(3 * DAY - 10 * HOUR)
    assert [e.kind for e in await m.sweep()] == ["reminder"]
    await m.close()
    m = await GameManager.open(path, clock=clock)
    try:
        assert await m.sweep() == []
        assert (await m.get_game(g.id)).status == "active"
    finally:
        await m.close()


async def test_timeout_settled_exactly_once(mgr, clock):
    g = await game_for(mgr, days_per_move=1)
    res = await first_move(mgr, g)          # Bob to move from now
    clock.advance(DAY - 1)
    assert [e.kind for e in await mgr.sweep()] == ["reminder"]
    clock.advance(1)
    events = await mgr.sweep()
    assert [(e.kind, e.user_id) for e in events] == [("timeout", BOB)]
    done = events[0].game
    assert done.status == "finished" and done.reason == "timeout" and done.winner == 1
    assert done.deadline is None and done.finished_at == clock.t
    assert done.position.outcome.reason == "timeout"
    assert done.position_text == res.position.time_out(2).to_text()
    assert done.position_text == replay_of(done, await mgr.moves(g.id)).to_text()
    assert await mgr.sweep() == []
    clock.advance(10 * DAY)
    assert await mgr.sweep() == []
    with pytest.raises(GameOver):
        await mgr.play_move(g.id, BOB, next(res.position.legal_moves()))


async def test_timeout_after_being_offline_settled_once_by_racing_processes(tmp_path, clock):
    path = tmp_path / "offline.db"
    m = await GameManager.open(path, clock=clock)
    g = await game_for(m)
    other = await game_for(m, a=CAROL, b=DAVE, days_per_move=14)
    await m.close()
    clock.advance(5 * DAY)  # the bot was down past the 3-day deadline
    m1 = await GameManager.open(path, clock=clock)
    m2 = await GameManager.open(path, clock=clock)
    try:
        found = await asyncio.gather(m1.sweep(), m2.sweep())
        events = [e for batch in found for e in batch]
        assert [(e.kind, e.game.id, e.user_id) for e in events] == [("timeout", g.id, ALICE)]
        assert (await m1.get_game(other.id)).status == "active"
        assert await m1.sweep() == [] and await m2.sweep() == []
    finally:
        await m1.close()
        await m2.close()
    m = await GameManager.open(path, clock=clock)
    try:
        assert await m.sweep() == []
        assert (await m.get_game(g.id)).reason == "timeout"
    finally:
        await m.close()


async def test_a_failing_game_does_not_stop_the_sweep(mgr, clock):
    g1 = await game_for(mgr)
    g2 = await game_for(mgr, a=CAROL, b=DAVE)
    await mgr.store.execute("UPDATE games SET position_text = 'garbage' WHERE id = ?", (g1.id,))
    clock.advance(4 * DAY)
    events = await mgr.sweep()
    assert [(e.kind, e.game.id) for e in events] == [("timeout", g2.id)]


# ---- vacation and notify ------------------------------------------------------------------
async def test_vacation_pauses_the_players_clocks(mgr, clock):
    mine = await game_for(mgr)                      # Alice to move
    theirs = await game_for(mgr, a=BOB, b=ALICE)    # Bob to move
    later = await game_for(mgr, a=CAROL, b=ALICE)   # Carol to move, then Alice
    assert (await mgr.settings(ALICE)).vacation_left_days == 14
    clock.advance(DAY)
    s = await mgr.set_vacation(ALICE, 5)
    assert s.vacation_until == clock.t + 5 * DAY and s.vacation_left_days == 9
    assert (await mgr.get_game(mine.id)).deadline == mine.deadline + 5 * DAY
    assert (await mgr.get_game(theirs.id)).deadline == theirs.deadline
    # a turn that starts during the vacation gets the rest of it added
    clock.advance(DAY)
    res = await first_move(mgr, later)
    assert res.game.to_move_user == ALICE
    assert res.game.deadline == clock.t + 3 * DAY + 4 * DAY
    # past the old deadline, nothing times out for Alice; Bob's clock ran on
    clock.advance(2 * DAY)
    events = await mgr.sweep()
    assert [(e.kind, e.game.id) for e in events] == [("timeout", theirs.id)]
    # extending a running vacation
    s = await mgr.set_vacation(ALICE, 2)
    assert s.vacation_until == mine.created_at + DAY + 7 * DAY and s.vacation_left_days == 7
    assert (await mgr.get_game(mine.id)).deadline == mine.deadline + 7 * DAY
    # ending early gives back the unused days and brings the deadlines back
    s = await mgr.set_vacation(ALICE, 0)
    assert s.vacation_until is None
    assert s.vacation_left_days == pytest.approx(14 - 3)  # 3 of the 7 days were used
    assert (await mgr.get_game(mine.id)).deadline == pytest.approx(mine.deadline + 3 * DAY)
    with pytest.raises(UserError, match="not on vacation"):
        await mgr.set_vacation(ALICE, 0)


async def test_vacation_allowance_and_bad_input(mgr, clock):
    with pytest.raises(LimitReached, match="14 days of vacation left"):
        await mgr.set_vacation(ALICE, 15)
    for bad in (-1, "3", True, float("nan")):
        with pytest.raises(UserError):
            await mgr.set_vacation(ALICE, bad)
    assert (await mgr.settings(ALICE)).vacation_until is None
    await mgr.set_vacation(ALICE, 10)
    clock.advance(11 * DAY)
    s = await mgr.settings(ALICE)
    assert s.vacation_until is None and s.vacation_left_days == 4
    with pytest.raises(LimitReached, match="4 days of vacation left"):
        await mgr.set_vacation(ALICE, 5)
    clock.advance(366 * DAY)  # a new calendar year: a new allowance
    assert (await mgr.settings(ALICE)).vacation_left_days == 14


async def test_notify_is_off_by_default_and_persists(tmp_path, clock):
    path = tmp_path / "n.db"
    m = await GameManager.open(path, clock=clock)
    assert (await m.settings(ALICE)).dm is False
    assert (await m.set_notify(ALICE, True)).dm is True
    await m.set_vacation(ALICE, 3)
    assert (await m.set_notify(ALICE, True)).vacation_until is not None  # keeps the vacation
    await m.close()
    m = await GameManager.open(path, clock=clock)
    try:
        assert (await m.settings(ALICE)).dm is True
        assert (await m.set_notify(ALICE, False)).dm is False
        assert (await m.settings(BOB)).dm is False
    finally:
        await m.close()


# ---- ratings ----------------------------------------------------------------------------------
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


# ---- rematch, abort, open challenges ----------------------------------------------------------
@pytest.mark.parametrize("presser", [ALICE, BOB])
async def test_rematch_swaps_seats(mgr, presser):
    g = await start_game(mgr, "io", {"size": 7}, rated=False, days_per_move=5)
    assert g.players == {1: ALICE, 2: BOB}
    with pytest.raises(StaleAction, match="still in progress"):
        await mgr.rematch(g.id, presser)
    await mgr.resign(g.id, ALICE)
    with pytest.raises(NotAllowed):
        await mgr.rematch(g.id, CAROL)
    with pytest.raises(NotFound):
        await mgr.rematch(9999, ALICE)
    ch = await mgr.rematch(g.id, presser)
    other = BOB if presser == ALICE else ALICE
    assert (ch.challenger_id, ch.opponent_id) == (presser, other)
    assert (ch.kind, ch.options, ch.rated, ch.days_per_move) == ("io", g.options, False, 5)
    assert ch.rematch_of == g.id and ch.channel_id == g.channel_id and ch.guild_id == g.guild_id
    with pytest.raises(StaleAction, match="already offered"):
        await mgr.rematch(g.id, presser)
    with pytest.raises(StaleAction, match="already offered a rematch of Io #.*: accept their challenge"):
        await mgr.rematch(g.id, other)
    new = await mgr.accept_challenge(ch.id, other)
    assert new.players == {1: BOB, 2: ALICE}
    assert new.kind == "io" and new.options == g.options and new.days_per_move == 5
    # the old game's Rematch button does not start a second rematch once one is being played
    for who in (ALICE, BOB):
        with pytest.raises(StaleAction, match=f"Io #{new.id}"):
            await mgr.rematch(g.id, who)
    assert await mgr.open_challenges(ALICE) == []


async def test_racing_rematch_presses_offer_one_rematch(mgr):
    # a double click on Rematch, or both players pressing it at once: one offer, one refusal
    g = await start_game(mgr, "io", {"size": 5})
    await mgr.resign(g.id, ALICE)
    for pressers in ((ALICE, ALICE), (ALICE, BOB)):
        results = await asyncio.gather(*(mgr.rematch(g.id, who) for who in pressers),
                                       return_exceptions=True)
        offers = [r for r in results if not isinstance(r, BaseException)]
        assert len(offers) == 1, results
        assert [type(r) for r in results if isinstance(r, BaseException)] == [StaleAction]
        open_now = await mgr.open_challenges(BOB)
        assert [c.id for c in open_now] == [offers[0].id]
        await mgr.cancel_challenge(offers[0].id, offers[0].challenger_id)


async def test_abort(mgr):
    g = await game_for(mgr)
    await first_move(mgr, g)
    with pytest.raises(NotFound):
        await mgr.abort(9999, CAROL)
    done = await mgr.abort(g.id, CAROL)
    assert (done.status, done.winner, done.reason, done.ply) == ("aborted", None, "aborted", 1)
    assert done.to_move_user is None
    with pytest.raises(GameOver, match="aborted"):
        await mgr.play_move(g.id, BOB, "a1")
    with pytest.raises(GameOver, match="aborted"):
        await mgr.resign(g.id, BOB)
    with pytest.raises(GameOver):
        await mgr.abort(g.id, CAROL)
    assert await mgr.active_games(ALICE) == []
    prof = await mgr.profile(GUILD, ALICE)
    assert prof.records == {} and prof.ratings == {}
    # a rematch of an aborted game is allowed
    assert (await mgr.rematch(g.id, ALICE)).first == "opponent"


async def test_open_challenge_is_refused_to_the_challenger(mgr):
    ch = await mgr.create_challenge(guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE,
                                    opponent_id=None, kind=KIND, options=OPTS, first="challenger")
    with pytest.raises(NotAllowed, match="your own challenge"):
        await mgr.accept_challenge(ch.id, ALICE)
    g = await mgr.accept_challenge(ch.id, CAROL)
    assert g.players == {1: ALICE, 2: CAROL}


# ---- records ----------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", sorted(engine.GAMES))
async def test_record_round_trip(mgr, kind):
    rng = random.Random(5)
    g = await start_game(mgr, kind, small_options(kind))
    g = await play_random(mgr, g, rng)
    text = await mgr.record_text(g.id, {1: "Ann", 2: "Bob (the second)"})
    k, options, moves = parse_record(text)
    assert (k, options) == (kind, g.options)
    assert moves == [m.move for m in await mgr.moves(g.id)]
    assert engine.replay(k, options, moves) == g.position
    lines = text.splitlines()
    assert f"Game: {engine.GAMES[kind].title}" in lines and f"Game id: {g.id}" in lines
    assert any(line.startswith(f"Seat 1: Ann ({ALICE})") for line in lines)
    assert any(line.startswith(f"Seat 2: Bob (the second) ({BOB})") for line in lines)
    labels = {1: f"Ann ({ALICE})", 2: f"Bob (the second) ({BOB})"}
    if g.winner is None:
        assert f"Result: {labels[1]} and {labels[2]} draw" in text
    else:
        assert f"Result: {labels[g.winner]} beats {labels[3 - g.winner]} " in text
    rec = read_record(text)
    assert (rec.finished, rec.winner, rec.reason) == (True, g.winner, g.reason)
    assert "Started: 2024-02-10 00:00:00 UTC" in lines
    assert lines[lines.index("Moves:") + 1].startswith("1. ")


async def test_record_of_a_resigned_and_a_running_game(mgr):
    g = await start_game(mgr, "io", {"size": 5})
    g = await play_random(mgr, g, random.Random(1), max_moves=4)
    text = await mgr.record_text(g.id)
    rec = read_record(text)
    assert rec.finished is False and rec.headers["result"] == "in progress"
    assert rec.position() == g.position
    done = await mgr.resign(g.id, BOB)
    rec = read_record(await mgr.record_text(g.id))
    assert (rec.finished, rec.winner, rec.reason) == (True, 1, "resignation")
    assert rec.position() == done.position
    assert engine.replay(*parse_record(await mgr.record_text(g.id))) == g.position


async def test_record_names_who_won_in_words_for_every_result(mgr):
    names = {1: "Ann", 2: "Bob"}
    g = await start_game(mgr, "io", {"size": 5})
    await mgr.play_move(g.id, ALICE, "c3")
    await mgr.resign(g.id, ALICE)
    text = await mgr.record_text(g.id, names)
    assert f"Result: Bob ({BOB}) beats Ann ({ALICE}) by resignation" in text.splitlines()
    assert (read_record(text).winner, read_record(text).reason) == (2, "resignation")
    g = await start_game(mgr, "io", {"size": 5})
    await mgr.abort(g.id, CAROL)
    text = await mgr.record_text(g.id, names)
    assert "Result: no result: aborted by a moderator" in text.splitlines()
    rec = read_record(text)
    assert (rec.finished, rec.winner, rec.reason) == (False, None, None)
    g = await start_game(mgr, "io", {"size": 5})
    text = await mgr.record_text(g.id, {1: "A\nB", 2: ""})
    assert f"Seat 1: A B ({ALICE}), White" in text.splitlines()  # one line per header
    assert f"Seat 2: user ({BOB}), Black" in text.splitlines()
    assert read_record(text).headers["result"] == "in progress"


def test_records_in_words_read_back_including_draws_and_tie_breaks():
    from bot.records import format_record

    base = dict(kind="io", options={"size": 5}, game_id=3, players={1: 11, 2: 22},
                names={1: "Ann", 2: "Bob"}, colours={1: "white", 2: "black"}, rated=True,
                days_per_move=3, created_at=0, finished_at=60, status="finished", moves=[])
    cases = [
        (None, "stones", {1: 12, 2: 12}, "Ann (11) and Bob (22) draw on stones (12–12)"),
        (2, "stones", {1: 10, 2: 15}, "Bob (22) beats Ann (11) on stones (15–10)"),
        (1, "score", {1: 5, 2: 5}, "Ann (11) beats Bob (22) on score (5–5; a tie goes to the last stone placed)"),
        (2, "no moves", None, "Bob (22) beats Ann (11) who has no legal turn left"),
        (1, "timeout", {1: 1, 2: 9}, "Ann (11) beats Bob (22) on time"),
    ]
    for winner, reason, scores, words in cases:
        text = format_record(**base, winner=winner, reason=reason, scores=scores)
        assert f"Result: {words}" in text.splitlines()
        rec = read_record(text)
        assert (rec.finished, rec.winner, rec.reason) == (True, winner, reason), words


# A record as /history wrote it before results were written in words (issue 9, item 5).
OLD_RECORD = """Stonecast game record
Game: Io
Kind: io
Options: size=5
Game id: 12
Seat 1: user 1001 (white)
Seat 2: user 1002 (black)
Rated: yes
Days per move: 3
Started: 2024-05-01 12:00:00 UTC
Ended: 2024-05-03 09:10:00 UTC
Status: finished
Result: seat 2 wins by resignation

Moves:
1. c3
"""


def test_records_of_the_earlier_layout_still_read():
    assert parse_record(OLD_RECORD) == ("io", {"size": 5}, ["c3"])
    rec = read_record(OLD_RECORD)
    assert (rec.finished, rec.winner, rec.reason) == (True, 2, "resignation")
    assert rec.position().outcome.winner == 2
    draw = read_record(OLD_RECORD.replace("seat 2 wins by resignation", "draw by stones (18-18)"))
    assert (draw.winner, draw.reason) == (None, "stones")
    aborted = read_record(OLD_RECORD.replace("Status: finished", "Status: aborted")
                          .replace("seat 2 wins by resignation", "none (aborted)"))
    assert aborted.finished is False


def test_bad_records_are_refused():
    good = "Kind: io\nOptions: size=5\nMoves:\n1. c3\n"
    assert parse_record(good) == ("io", {"size": 5}, ["c3"])
    for bad, words in [
        ("Kind: chess\nMoves:\n", "no known game"),
        ("Kind: io\nOptions: size=50\nMoves:\n", "bad options"),
        ("Kind: io\nMoves:\n2. c3\n", "out of order"),
        ("Kind: io\nMoves:\nc3\n", "numbered move"),
        ("Kind: io\nStatus: finished\nResult: nobody knows\nMoves:\n", "unreadable result"),
    ]:
        with pytest.raises(RecordError, match=words):
            parse_record(bad)


async def test_vacation_time_is_charged_by_the_hour(mgr, clock):
    """Issue 9, item 16: ending a vacation seconds after starting it costs an hour, not a day;
    what is left stays usable (a request for the last, partly used day gets what is left)."""
    await mgr.set_vacation(ALICE, 3)
    clock.advance(10)
    s = await mgr.set_vacation(ALICE, 0)
    assert s.vacation_left_days == pytest.approx(14 - 1 / 24)  # one started hour
    clock.advance(3600 * 2.5)
    await mgr.set_vacation(ALICE, 1)
    clock.advance(3600 * 2.5)  # three started hours
    s = await mgr.set_vacation(ALICE, 0)
    assert s.vacation_left_days == pytest.approx(14 - 4 / 24)
    # 13 days 20 hours left: 14 is granted and lasts what is left; 15 is refused
    with pytest.raises(LimitReached, match="13 days and 20 hours of vacation left.*ask for 14 or fewer"):
        await mgr.set_vacation(ALICE, 15)
    s = await mgr.set_vacation(ALICE, 14)
    assert s.vacation_until == pytest.approx(clock.t + 14 * DAY - 4 * 3600)
    assert s.vacation_left_days == pytest.approx(0)
    with pytest.raises(LimitReached, match="used your 14 vacation days"):
        await mgr.set_vacation(ALICE, 1)
