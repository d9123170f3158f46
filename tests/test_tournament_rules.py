"""The pure tournament rules of issue 21 (bot.rules.tournaments): round robins, knockouts,
league seasons and standings with their tie-breaks worked by hand. Swiss pairing is in
tests/test_tournament_swiss.py."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.tournaments import (
    MIN_DIVISION,
    Bye,
    Entrant,
    GameRecord,
    LeagueRules,
    Match,
    MatchStatus,
    Outcome,
    Pairing,
    TieBreak,
    TournamentFormat,
    bracket_order,
    first_round,
    first_season,
    knockout_round_count,
    knockout_standings,
    match_state,
    movers_between,
    next_round,
    next_season,
    round_robin,
    round_robin_round_count,
    seed_order,
    standings,
)

W1, W2, D = Outcome.SEAT1_WIN, Outcome.SEAT2_WIN, Outcome.DRAW

# ---------------------------------------------------------------- round robin


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 17), st.booleans())
def test_a_round_robin_pairs_every_pair_once_or_twice_with_seats_balanced(n, double):
    players = [100 + 7 * i for i in range(n)]
    rounds = round_robin(players, double=double)
    assert len(rounds) == round_robin_round_count(n, double=double) == (n - 1 + n % 2) * (1 + double)
    meetings = Counter(frozenset(p.players) for r in rounds for p in r.pairings)
    assert set(meetings) == {frozenset((a, b)) for a in players for b in players if a < b}
    assert set(meetings.values()) == {2 if double else 1}
    if double:  # once in each seat
        assert len({(p.seat1, p.seat2) for r in rounds for p in r.pairings}) == n * (n - 1)
    for r in rounds:
        assert r.players == set(players)  # everyone plays or has the bye, once
        assert len(r.byes) == n % 2
    byes = Counter(b for r in rounds for b in r.byes)
    assert byes == (Counter({p: 1 + double for p in players}) if n % 2 else Counter())
    for player in players:
        seats = [1 if p.seat1 == player else 2 for r in rounds for p in r.pairings
                 if player in p.players]
        assert abs(seats.count(1) - seats.count(2)) <= (0 if double else 1)
        if not double:
            assert "111" not in "".join(map(str, seats)) and "222" not in "".join(map(str, seats))


def test_round_robin_refuses_too_few_or_repeated_players():
    with pytest.raises(ValueError):
        round_robin([1])
    with pytest.raises(ValueError):
        round_robin([1, 2, 1])
    with pytest.raises(ValueError):
        round_robin_round_count(1)


def test_a_pairing_and_a_round_refuse_a_player_twice():
    with pytest.raises(ValueError):
        Pairing(3, 3)
    from bot.rules.tournaments import Round
    with pytest.raises(ValueError):
        Round(1, (Pairing(1, 2),), (2,))


def test_seed_order_is_by_rating_ties_in_join_order():
    entrants = [Entrant(1, 1500), Entrant(2, 1700), Entrant(3, 1500), Entrant(4, 1800)]
    assert [e.player for e in seed_order(entrants)] == [4, 2, 1, 3]
    with pytest.raises(ValueError):
        seed_order([Entrant(1, 1500), Entrant(1, 1600)])


# ---------------------------------------------------------------- knockout


def test_the_standard_bracket_order():
    assert bracket_order(2) == (1, 2)
    assert bracket_order(4) == (1, 4, 2, 3)
    assert bracket_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    for bad in (0, 1, 3, 6, 12):
        with pytest.raises(ValueError):
            bracket_order(bad)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 70))
def test_a_knockout_bracket_keeps_the_top_seeds_apart_and_gives_them_the_byes(n):
    seeds = [1000 + i for i in range(n)]
    rounds = knockout_round_count(n)
    size = 1 << rounds
    assert size >= n > size // 2
    matches = first_round(seeds)
    assert len(matches) == size // 2 and [m.slot for m in matches] == list(range(size // 2))
    placed = [p for m in matches for p in (m.high, m.low) if p is not None]
    assert sorted(placed) == seeds
    assert {m.high for m in matches if m.low is None} == set(seeds[:size - n])  # byes: top seeds
    place = {p: 2 * m.slot + i for m in matches for i, p in enumerate((m.high, m.low))}
    for k in (2, 4, 8):  # seeds 1..k in k different parts of the bracket (halves, quarters, ...)
        if k <= n:
            assert len({place[seeds[i]] * k // size for i in range(k)}) == k
    for m in matches:  # the better seed is high
        assert m.low is None or seeds.index(m.high) < seeds.index(m.low)
    # the better seed always wins: 1 meets 2 in the final, after round_count rounds
    for _ in range(rounds - 1):
        matches = next_round(matches, [m.high for m in matches], seeds)
    assert len(matches) == 1 and (matches[0].high, matches[0].low) == (seeds[0], seeds[1])
    assert matches[0].round == rounds
    with pytest.raises(ValueError):
        next_round(matches, [seeds[0]], seeds)  # the final has no next round


def test_next_round_refuses_a_winner_who_did_not_play():
    matches = first_round([1, 2, 3, 4])
    with pytest.raises(ValueError):
        next_round(matches, [1, 4], [1, 2, 3, 4])  # 4 lost in match 0... and is not in match 1
    with pytest.raises(ValueError):
        next_round(matches, [1], [1, 2, 3, 4])
    assert next_round(matches, [4, 3], [1, 2, 3, 4]) == (Match(2, 0, 3, 4),)


def _game(seat1, seat2, outcome, rnd=1):
    return GameRecord(rnd, seat1, seat2, outcome)


def test_a_one_game_match_and_its_tie_break_game():
    m = Match(1, 0, 10, 20)
    state = match_state(m, [], 1)
    assert state.status is MatchStatus.NEEDS_GAME and state.next_game == Pairing(10, 20)
    assert match_state(m, [_game(10, 20, None)], 1).status is MatchStatus.PLAYING
    won = match_state(m, [_game(10, 20, W2)], 1)
    assert (won.status, won.winner, won.score) == (MatchStatus.DECIDED, 20, (0.0, 1.0))
    # a drawn game (Io on an even board) or no result: one more game, seats reversed
    for level in (D, Outcome.NO_RESULT):
        state = match_state(m, [_game(10, 20, level)], 1)
        assert state.status is MatchStatus.NEEDS_GAME and state.next_game == Pairing(20, 10)
    assert match_state(m, [_game(10, 20, D), _game(20, 10, W1)], 1).winner == 20
    # the tie-break game level too: the higher seed advances
    assert match_state(m, [_game(10, 20, D), _game(20, 10, D)], 1).winner == 10
    forfeit = match_state(m, [_game(10, 20, Outcome.SEAT1_FORFEIT)], 1)
    assert forfeit.winner == 20


def test_a_two_game_match_gives_each_seat_1_once_then_a_tie_break():
    m = Match(2, 1, 10, 20)
    one = [_game(10, 20, W1)]
    assert match_state(m, one, 2).next_game == Pairing(20, 10)
    assert match_state(m, one + [_game(20, 10, D)], 2).winner == 10  # 1.5-0.5
    level = one + [_game(20, 10, W1)]  # 1-1: a third game, seats reversed from game 2
    state = match_state(m, level, 2)
    assert state.status is MatchStatus.NEEDS_GAME and state.next_game == Pairing(10, 20)
    assert state.score == (1.0, 1.0)
    assert match_state(m, level + [_game(10, 20, W2)], 2).winner == 20
    with pytest.raises(ValueError):
        match_state(m, level + [_game(10, 20, W2)] * 2, 2)
    with pytest.raises(ValueError):
        match_state(m, [_game(10, 30, W1)], 2)
    with pytest.raises(ValueError):
        match_state(m, [], 3)


def test_a_bye_is_decided_at_once():
    state = match_state(Match(1, 0, 10, None), [], 2)
    assert (state.status, state.winner) == (MatchStatus.DECIDED, 10)


def test_knockout_standings_rank_by_the_round_reached():
    entrants = [Entrant(1, 1900), Entrant(2, 1800), Entrant(3, 1800), Entrant(4, 1800)]
    games = [_game(1, 4, W1), _game(2, 3, W2), _game(1, 3, W1, 2)]
    table = knockout_standings(entrants, games, {4: 1, 2: 1, 3: 2}, rounds=2)
    assert table.tie_breaks == (TieBreak.ROUND_REACHED,)
    assert [(r.rank, r.player, r.points, r.tie_breaks) for r in table.rows] == [
        (1, 1, 2.0, (3.0,)), (2, 3, 1.0, (2.0,)), (3, 2, 0.0, (1.0,)), (3, 4, 0.0, (1.0,))]
    with pytest.raises(ValueError):
        knockout_standings(entrants, games, {5: 1}, rounds=2)


# ---------------------------------------------------------------- league


def test_a_first_season_cuts_the_field_into_divisions():
    assert first_season(list(range(1, 20))) == (
        tuple(range(1, 9)), tuple(range(9, 17)), (17, 18, 19))
    assert first_season(list(range(1, 10))) == ((1, 2, 3, 4, 5), (6, 7, 8, 9))  # not 8 + 1
    assert first_season([1, 2]) == ((1, 2),)
    with pytest.raises(ValueError):
        first_season([1])


def test_a_season_promotes_and_relegates_k_and_fewer_for_small_divisions():
    final = (tuple(range(1, 9)), tuple(range(9, 17)), (17, 18, 19, 20))
    assert movers_between(8, 8) == 2 and movers_between(8, 4) == 1 and movers_between(8, 5) == 1
    change = next_season(final)
    assert change.divisions == ((1, 2, 3, 4, 5, 6, 9, 10), (7, 8, 11, 12, 13, 14, 15, 17),
                                (16, 18, 19, 20))
    assert change.promoted == {9, 10, 17} and change.relegated == {7, 8, 16}
    three = next_season(final, rules=LeagueRules(division_size=8, movers=3))
    assert three.promoted == {9, 10, 17}  # 8 v 8: capped at a third of 8; 8 v 4: one
    assert movers_between(9, 9, LeagueRules(division_size=10, movers=3)) == 3
    assert movers_between(2, 9) == 1 and movers_between(0, 9) == 0
    assert next_season(final, rules=LeagueRules(movers=0)).divisions == final


def test_newcomers_enter_the_lowest_division_and_leavers_are_dropped():
    final = (tuple(range(1, 9)), (9, 10, 11, 12, 13))
    change = next_season(final, left={3, 12}, newcomers=[50, 51, 52, 53, 54, 55])
    assert change.left == {3, 12}
    # 8 v 5: one each way; 12 left; the lowest division fills up to 8, the rest make a new one
    # of 3 (MIN_DIVISION)
    # of 2, under MIN_DIVISION: the last two share their 10 players, 5 and 5
    assert change.divisions == ((1, 2, 4, 5, 6, 7, 9), (8, 10, 11, 13, 50),
                                (51, 52, 53, 54, 55))
    assert change.promoted == {9} and change.relegated == {8}
    roomy = next_season(final, newcomers=[50, 51])
    assert roomy.divisions[1] == (8, 10, 11, 12, 13, 50, 51)
    with pytest.raises(ValueError):
        next_season(final, newcomers=[9])
    with pytest.raises(ValueError):
        next_season(((1, 2), (2, 3)))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 40), st.integers(6, 10), st.integers(0, 3), st.data())
def test_a_league_season_keeps_everyone_once_and_moves_one_division(n, size, k, data):
    rules = LeagueRules(division_size=size, movers=k)
    players = list(range(1, n + 1))
    divisions = first_season(players, rules)
    assert [p for d in divisions for p in d] == players
    assert all(len(d) <= size for d in divisions)
    assert len(divisions) == 1 or all(len(d) >= MIN_DIVISION for d in divisions)
    left = set(data.draw(st.lists(st.sampled_from(players), max_size=n // 3)))
    newcomers = list(range(1000, 1000 + data.draw(st.integers(0, 12))))
    if n - len(left) + len(newcomers) < 2:
        return
    change = next_season(divisions, left=left, newcomers=newcomers, rules=rules)
    after = [p for d in change.divisions for p in d]
    assert sorted(after) == sorted((set(players) - left) | set(newcomers))
    assert all(len(d) <= size for d in change.divisions)
    assert len(change.divisions) == 1 or all(len(d) >= MIN_DIVISION for d in change.divisions)
    assert newcomers == after[len(after) - len(newcomers):]  # at the bottom
    if not left and not newcomers and all(len(d) == size for d in divisions):
        where = {p: i for i, d in enumerate(change.divisions) for p in d}
        was = {p: i for i, d in enumerate(divisions) for p in d}
        for p in players:
            assert where[p] == was[p] - (p in change.promoted) + (p in change.relegated)


# ---------------------------------------------------------------- standings


def test_round_robin_standings_with_sonneborn_berger_worked_by_hand():
    a, b, c, d = 1, 2, 3, 4
    entrants = [Entrant(p, 1500) for p in (a, b, c, d)]
    games = [_game(a, b, W1), _game(c, a, W1), _game(a, d, W1),
             _game(b, c, W1), _game(d, b, W2), _game(c, d, D)]
    table = standings(TournamentFormat.ROUND_ROBIN, entrants, games)
    assert table.tie_breaks == (TieBreak.SONNEBORN_BERGER,)
    # A 2 (beat B 2, D 0.5: SB 2.5); B 2 (beat C 1.5, D 0.5: SB 2); C 1.5 (beat A 2, drew D
    # 0.5: SB 2.25); D 0.5 (drew C 1.5: SB 0.75)
    assert [(r.rank, r.player, r.points, r.tie_breaks, r.played, r.left) for r in table.rows] == [
        (1, a, 2.0, (2.5,), 3, 0), (2, b, 2.0, (2.0,), 3, 0),
        (3, c, 1.5, (2.25,), 3, 0), (4, d, 0.5, (0.75,), 3, 0)]


def test_level_players_are_ordered_by_rating_then_share_a_rank_in_seed_order():
    games = [_game(1, 2, D), _game(2, 3, D), _game(3, 1, D), _game(1, 4, None)]
    same = standings(TournamentFormat.LEAGUE, [Entrant(p, 1500) for p in (1, 2, 3, 4)], games)
    assert [(r.rank, r.player, r.left) for r in same.rows] == [
        (1, 1, 1), (1, 2, 0), (1, 3, 0), (4, 4, 1)]
    rated = standings(TournamentFormat.LEAGUE,
                      [Entrant(1, 1500), Entrant(2, 1400), Entrant(3, 1600), Entrant(4, 1500)], games)
    assert [(r.rank, r.player) for r in rated.rows] == [(1, 3), (2, 1), (3, 2), (4, 4)]


def test_swiss_standings_with_buchholz_and_median_buchholz_worked_by_hand():
    entrants = [Entrant(1, 1600), Entrant(2, 1500), Entrant(3, 1500), Entrant(4, 1500),
                Entrant(5, 1550)]
    games = [_game(1, 4, W1, 1), _game(2, 5, D, 1),
             _game(3, 1, W1, 2), _game(2, 4, Outcome.SEAT2_FORFEIT, 2),
             _game(1, 5, None, 3)]
    byes = [Bye(1, 3), Bye(2, 5)]
    table = standings(TournamentFormat.SWISS, entrants, games, byes)
    assert table.tie_breaks == (TieBreak.BUCHHOLZ, TieBreak.MEDIAN_BUCHHOLZ)
    # points: 3 = bye 1 + win 1; 2 = ½ + forfeit win 1; 5 = ½ + bye 1; 1 = 1; 4 = 0.
    # Buchholz: an unplayed round (bye, forfeit either way) counts the player's own points.
    # 3: bye 2 + 1's 1 = 3 (median: less 1 -> 2); 2: 5's 1.5 + own 1.5 = 3 (1.5);
    # 5: 2's 1.5 + own 1.5 = 3 (1.5); 1: 4's 0 + 3's 2 = 2 (2); 4: 1's 1 + own 0 = 1 (1)
    # 2 and 5 are level on points and both tie-breaks: 5 is rated higher
    assert [(r.rank, r.player, r.points, r.tie_breaks, r.played, r.left) for r in table.rows] == [
        (1, 3, 2.0, (3.0, 2.0), 1, 0), (2, 5, 1.5, (3.0, 1.5), 1, 1),
        (3, 2, 1.5, (3.0, 1.5), 2, 0), (4, 1, 1.0, (2.0, 2.0), 2, 1),
        (5, 4, 0.0, (1.0, 1.0), 2, 0)]


def test_a_no_result_game_counts_nothing_and_a_round_robin_bye_scores_nothing():
    entrants = [Entrant(p, 1500) for p in (1, 2, 3)]
    games = [_game(1, 2, Outcome.NO_RESULT), _game(2, 3, W1)]
    table = standings(TournamentFormat.ROUND_ROBIN, entrants, games, [Bye(1, 3)])
    rows = {r.player: r for r in table.rows}
    assert (rows[1].points, rows[1].played, rows[1].left) == (0.0, 0, 0)
    assert (rows[2].points, rows[2].played) == (1.0, 1)
    assert rows[3].points == 0.0


def test_standings_refuse_strangers_and_knockouts():
    with pytest.raises(ValueError):
        standings(TournamentFormat.SWISS, [Entrant(1, 1500)], [_game(1, 2, W1)])
    with pytest.raises(ValueError):
        standings(TournamentFormat.SWISS, [Entrant(1, 1500)], [], [Bye(1, 9)])
    with pytest.raises(ValueError):
        standings(TournamentFormat.KNOCKOUT, [Entrant(1, 1500)], [])
