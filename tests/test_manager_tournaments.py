"""Tournaments at the manager level (issue 21): whole round robins, Swiss and knockout
tournaments and league seasons, played through the manager -- games started at once, results
feeding the standings, the next round started by :meth:`GameManager.advance`."""

import itertools
import random

import pytest
from manager_support import GUILD, FakeClock
from tournament_support import (
    KIND,
    PLAYERS,
    create,
    finish_round,
    play_out,
    post_kinds,
    round_games,
)

from bot.manager import GameManager


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
async def mgr(sqlite_db, clock):
    m = await GameManager.open(sqlite_db("t.db"), clock=clock, rng=random.Random(7))
    yield m
    await m.close()


async def test_a_four_player_round_robin_starts_every_game_at_once_and_is_played_to_the_end(mgr):
    tid = await create(mgr, players=4)
    started = await mgr.start_tournament(tid, 2000, guild_id=GUILD, may_organise=False)  # its organiser
    assert (started.round, started.last_round, len(started.games)) == (1, 3, 6)
    assert started.tournament.status == "running" and started.tournament.current_round == 3
    # every game of every round started at once, each with its first board queued and its round
    rounds, last = [], None
    for g in started.games:
        assert g.kind == KIND and g.status == "active" and g.ply == 0 and g.thread_wanted
        assert await mgr.pending_board(g.id, 0) is not None
        label = await mgr.game_tournament(g.id)
        assert label.name == "Winter Cup"
        rounds.append(label.round)
        last = g if label.round == 3 else last
    assert sorted(rounds) == [1, 1, 2, 2, 3, 3]
    assert await post_kinds(mgr, tid) == [("opened", 0), ("round", 1), ("round", 2), ("round", 3)]
    # the standings count each game as it ends, whatever its round; the rest wait
    await mgr.resign(last.id, last.players[2])
    assert await mgr.advance() == []  # five games still run: no step, no standings post
    view = await mgr.tournament_standings(tid, guild_id=GUILD)
    points = {r.user_id: (r.points, r.played, r.left) for r in view.rows}
    assert points[last.players[1]] == (1, 1, 2) and points[last.players[2]] == (0, 1, 2)
    assert not view.finished and sum(r.left for r in view.rows) == 10
    steps = await play_out(mgr, tid, random.Random(1))
    t = await mgr.get_tournament(tid, guild_id=GUILD)
    assert t.status == "finished" and t.current_round == 3
    assert [s.started for s in steps] == [None] and steps[-1].finished  # the last game's end: the final
    mine = [await mgr.my_tournament_games(tid, uid, guild_id=GUILD) for uid in PLAYERS[:4]]
    assert all(len(games) == 3 for games in mine)  # everyone met everyone once
    met = {frozenset((tg.pairing.seat1, tg.pairing.seat2)) for games in mine for tg in games}
    assert met == {frozenset(p) for p in itertools.combinations(PLAYERS[:4], 2)}
    view = await mgr.tournament_standings(tid, guild_id=GUILD)
    assert view.finished and sum(r.points for r in view.rows) == 6  # six games, no draws here
    assert [r.tiebreaks[0][0] for r in view.rows] == ["sonneborn_berger"] * 4
    assert all(r.left == 0 and r.played == 3 for r in view.rows)
    assert view.winners == tuple(r.user_id for r in view.rows if r.rank == 1)
    # a win is a win whatever ended it: every finished game gave its points
    games = [tg.game for tg in mine[0]]
    assert all(g.status == "finished" for g in games)
    assert await post_kinds(mgr, tid) == [("opened", 0), ("round", 1), ("round", 2), ("round", 3), ("final", 3)]
    assert await mgr.advance() == []  # nothing left to do


async def test_a_double_round_robin_starts_both_games_of_every_pair_at_once(mgr):
    tid = await create(mgr, "Double", players=5, format="double_round_robin")
    started = await mgr.start_tournament(tid, 2000, guild_id=GUILD, may_organise=True)
    # 5 players: 10 rounds of 2 games and a bye (no points in a round robin)
    assert (started.round, started.last_round, len(started.games)) == (1, 10, 20)
    assert sum(p.seat2 is None for p in started.pairings) == 10
    seats = {(g.players[1], g.players[2]) for g in started.games}
    assert seats == set(itertools.permutations(PLAYERS[:5], 2))  # each pair in both seats
    info = await mgr.tournament_info(tid, guild_id=GUILD)
    assert len(info.pairings) == 30 and {p.round for p in info.pairings} == set(range(1, 11))
    await play_out(mgr, tid, random.Random(9))
    view = await mgr.tournament_standings(tid, guild_id=GUILD)
    assert view.finished and all(r.played == 8 and r.left == 0 for r in view.rows)


async def test_a_six_player_three_round_swiss_pairs_no_rematch(mgr):
    tid = await create(mgr, "Swiss Open", players=6, format="swiss", rounds=3)
    await mgr.start_tournament(tid, 2000, guild_id=GUILD, may_organise=True)
    await play_out(mgr, tid, random.Random(2))
    t = await mgr.get_tournament(tid, guild_id=GUILD)
    assert t.status == "finished" and t.current_round == 3 and t.rounds == 3
    pairs = [frozenset((p.seat1, p.seat2)) for uid in PLAYERS[:6]
             for p in (tg.pairing for tg in await mgr.my_tournament_games(tid, uid, guild_id=GUILD))]
    assert len(pairs) == 6 * 3 and len(set(pairs)) == 9  # 9 games, nobody met twice
    view = await mgr.tournament_standings(tid, guild_id=GUILD)
    assert [name for name, _ in view.rows[0].tiebreaks] == ["buchholz", "median_buchholz"]
    assert sum(r.points for r in view.rows) == 9


async def test_a_swiss_round_with_an_odd_field_gives_one_bye_worth_a_point(mgr):
    tid = await create(mgr, "Odd Swiss", players=5, format="swiss", rounds=2)
    started = await mgr.start_tournament(tid, 2000, guild_id=GUILD, may_organise=True)
    byes = [p for p in started.pairings if p.seat2 is None]
    assert len(byes) == 1 and byes[0].result == "bye" and byes[0].game_id is None and len(started.games) == 2
    view = await mgr.tournament_standings(tid, guild_id=GUILD)
    assert {r.user_id: r.points for r in view.rows}[byes[0].seat1] == 1.0


async def test_a_knockout_of_three_gives_the_top_seed_a_bye_and_ends_with_the_final(mgr, clock):
    tid = await create(mgr, "Cup", players=3, format="knockout")
    started = await mgr.start_tournament(tid, 2000, guild_id=GUILD, may_organise=True)
    assert len(started.games) == 1 and sum(p.seat2 is None for p in started.pairings) == 1
    await play_out(mgr, tid, random.Random(3))
    t = await mgr.get_tournament(tid, guild_id=GUILD)
    assert t.status == "finished" and t.current_round == 2
    view = await mgr.tournament_standings(tid, guild_id=GUILD)
    assert len(view.winners) == 1 and view.rows[0].tiebreaks[0][0] == "round_reached"
    final = [tg for tg in await mgr.my_tournament_games(tid, view.winners[0], guild_id=GUILD)
             if tg.pairing.round == 2]
    assert len(final) == 1 and final[0].game.status == "finished"
    assert final[0].game.players[final[0].game.winner] == view.winners[0]


async def test_a_league_season_promotes_relegates_and_starts_the_next_by_itself(mgr):
    tid = await create(mgr, "League", players=6, format="league", division_size=3, promote=1)
    await mgr.start_tournament(tid, 2000, guild_id=GUILD, may_organise=True)
    info = await mgr.tournament_info(tid, guild_id=GUILD)
    divisions = {d: [e.user_id for e in info.entrants if e.division == d] for d in (1, 2)}
    assert sorted(map(len, divisions.values())) == [3, 3]
    await mgr.join_tournament("League", PLAYERS[6], guild_id=GUILD)  # waits for season 2
    steps = await play_out(mgr, tid, random.Random(4))
    assert steps[-1].finished and steps[-1].next_season is not None
    view = await mgr.tournament_standings(tid, guild_id=GUILD)
    top = [r.user_id for r in view.rows if r.division == 1]
    low = [r.user_id for r in view.rows if r.division == 2]
    assert view.promoted == (low[0],) and view.relegated == (top[-1],)
    season2 = steps[-1].next_season
    assert (season2.season, season2.parent_id, season2.status) == (2, tid, "running")
    assert season2.name == "League"
    info2 = await mgr.tournament_info(season2.id, guild_id=GUILD)
    now = {e.user_id: e.division for e in info2.entrants}
    assert now[low[0]] == 1 and now[top[-1]] == 2 and now[top[0]] == 1
    assert now[PLAYERS[6]] == max(now.values())  # the newcomer: in the lowest division
    assert PLAYERS[6] not in {r.user_id for r in view.rows}  # and not in season 1's standings
    # every game of every division's round robin started with the season
    sizes = [list(now.values()).count(d) for d in set(now.values())]
    assert len(await round_games(mgr, season2.id)) == sum(n * (n - 1) // 2 for n in sizes)
    assert season2.current_round == max(n if n % 2 else n - 1 for n in sizes)
    assert ("final", 3) in await post_kinds(mgr, tid)
    # the name now means the running season
    assert (await mgr.get_tournament("league", guild_id=GUILD)).id == season2.id


async def test_the_computer_entrant_plays_its_games_unrated(mgr):
    tid = await create(mgr, "With the computer", players=2, rated=True)
    await mgr.enter_computer(tid, 2000, guild_id=GUILD, may_organise=False, computer_id=4242, level=2)
    started = await mgr.start_tournament(tid, 2000, guild_id=GUILD, may_organise=False)
    computer_games = [g for g in started.games if 4242 in g.players.values()]
    assert len(started.games) == 3 and sum(p.seat2 is None for p in started.pairings) == 3  # 3 rounds
    assert len(computer_games) == 2
    for g in computer_games:
        assert g.ai_level == 2 and g.players[g.ai_seat] == 4242 and not g.rated
    humans = [g for g in started.games if 4242 not in g.players.values()]
    assert all(g.rated for g in humans)


async def test_an_aborted_game_has_no_result_and_the_tournament_goes_on(mgr):
    tid = await create(mgr, players=4)
    await mgr.start_tournament(tid, 2000, guild_id=GUILD, may_organise=True)
    first, second, *rest = await round_games(mgr, tid)
    await mgr.abort_game(first.id, 9999)
    await mgr.resign(second.id, second.players[1])
    assert await mgr.advance() == []  # four games still run
    results = {tg.pairing.game_id: tg.pairing.result
               for tg in await mgr.my_tournament_games(tid, first.players[1], guild_id=GUILD)}
    assert results[first.id] == "void"
    view = await mgr.tournament_standings(tid, guild_id=GUILD)
    points = {r.user_id: r.points for r in view.rows}
    assert points[first.players[1]] == points[first.players[2]] == 0 and points[second.players[2]] == 1
    steps = await play_out(mgr, tid, random.Random(3))
    assert steps[-1].finished
    view = await mgr.tournament_standings(tid, guild_id=GUILD)
    assert sum(r.points for r in view.rows) == 5  # six games, one without a result


async def test_withdrawal_loses_every_running_round_robin_game_by_forfeit(mgr):
    """All of a round robin's games run at once: a player who withdraws loses every game of
    theirs still running (a resignation each); the games they finished stand."""
    tid = await create(mgr, players=4)
    await mgr.start_tournament(tid, 2000, guild_id=GUILD, may_organise=True)
    leaver = PLAYERS[0]
    theirs = [tg.game for tg in await mgr.my_tournament_games(tid, leaver, guild_id=GUILD)]
    won = theirs[0]  # one of theirs ends first: the leaver wins it
    await mgr.resign(won.id, next(u for u in won.players.values() if u != leaver))
    w = await mgr.withdraw(tid, leaver, guild_id=GUILD)
    assert sorted(g.id for g in w.forfeited) == sorted(g.id for g in theirs[1:])
    for lost in w.forfeited:
        assert lost.status == "finished" and lost.players[lost.winner] != leaver and lost.reason == "resignation"
    assert await post_kinds(mgr, tid) == [("opened", 0), ("round", 1), ("round", 2), ("round", 3),
                                          ("withdrawn", 3)]
    # a second withdrawal whose process died before its resignations: the next advance forfeits them
    crashed = PLAYERS[1]
    await mgr.services.tournaments.tournaments_repo.withdraw_entrant(tid, crashed)
    await mgr.advance()
    for tg in await mgr.my_tournament_games(tid, crashed, guild_id=GUILD):
        winner = tg.game.players[tg.game.winner]
        assert tg.game.status == "finished"
        assert winner == crashed if leaver in tg.game.players.values() else winner != crashed
    await play_out(mgr, tid, random.Random(5))
    games = await mgr.my_tournament_games(tid, leaver, guild_id=GUILD)
    assert len(games) == 3 and all(tg.game is not None and not tg.pairing.forfeit for tg in games)
    view = await mgr.tournament_standings(tid, guild_id=GUILD)
    row = next(r for r in view.rows if r.user_id == leaver)
    assert row.points == 1 and row.played == 3 and row.withdrawn and view.finished


async def test_a_withdrawn_swiss_player_is_not_paired_again(mgr):
    tid = await create(mgr, "Swiss", players=4, format="swiss", rounds=3)
    await mgr.start_tournament(tid, 2000, guild_id=GUILD, may_organise=True)
    await mgr.remove_entrant(tid, 2000, PLAYERS[3], guild_id=GUILD, may_organise=False)
    await finish_round(mgr, tid, random.Random(6))
    steps = await mgr.advance()
    r2 = steps[0].started
    assert PLAYERS[3] not in {p.seat1 for p in r2.pairings} | {p.seat2 for p in r2.pairings}
    assert sum(p.seat2 is None for p in r2.pairings) == 1  # three left: one bye


async def test_a_level_two_game_knockout_match_goes_to_a_tie_break_game(mgr):
    tid = await create(mgr, "Match", players=2, format="knockout", games_per_match=2)
    started = await mgr.start_tournament(tid, 2000, guild_id=GUILD, may_organise=True)
    (g1,) = started.games
    await mgr.resign(g1.id, g1.players[2])  # seat 1 wins game 1
    steps = await mgr.advance()
    assert len(steps) == 1 and steps[0].started is None and not steps[0].finished  # game 2 started
    (g2,) = await round_games(mgr, tid)
    assert (g2.players[1], g2.players[2]) == (g1.players[2], g1.players[1])  # seats swapped
    await mgr.resign(g2.id, g2.players[2])  # seat 1 wins again: 1-1
    await mgr.advance()
    (g3,) = await round_games(mgr, tid)  # the tie-break game
    assert {g3.players[1], g3.players[2]} == {g1.players[1], g1.players[2]}
    pairings = [tg.pairing for tg in await mgr.my_tournament_games(tid, g1.players[1], guild_id=GUILD)]
    assert [p.game_no for p in pairings] == [1, 2, 3] and {p.round for p in pairings} == {1}
    await mgr.resign(g3.id, g3.players[1])
    steps = await mgr.advance()
    assert steps[-1].finished
    view = await mgr.tournament_standings(tid, guild_id=GUILD)
    assert view.winners == (g3.players[2],)


async def test_a_swiss_out_of_legal_pairings_ends_after_its_last_complete_round(mgr):
    tid = await create(mgr, "Long Swiss", players=4, format="swiss", rounds=5)
    await mgr.start_tournament(tid, 2000, guild_id=GUILD, may_organise=True)
    await play_out(mgr, tid, random.Random(8))
    t = await mgr.get_tournament(tid, guild_id=GUILD)
    assert t.status == "finished" and t.current_round == 3  # 4 players meet everyone in 3 rounds
