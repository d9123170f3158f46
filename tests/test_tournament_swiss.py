"""Swiss pairing (issue 21, bot.rules.tournaments.swiss): property tests over simulated
tournaments, checked against a brute-force search of every pairing of small fields."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.tournaments import (
    Bye,
    Entrant,
    GameRecord,
    NoLegalPairing,
    Outcome,
    Pairing,
    pair_swiss,
    swiss_scores,
)

OUTCOMES = [Outcome.SEAT1_WIN, Outcome.SEAT2_WIN, Outcome.DRAW, Outcome.SEAT1_FORFEIT,
            Outcome.NO_RESULT]


def _matchings(players):
    """Every perfect matching of ``players`` (an even count) as lists of pairs."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for tail in _matchings(rest[:i] + rest[i + 1:]):
            yield [(first, other)] + tail


class History:
    """What the test knows of a tournament, kept by hand (not by the code under test)."""

    def __init__(self, entrants):
        self.entrants = entrants
        self.games: list[GameRecord] = []
        self.byes: list[Bye] = []

    def score(self, p):
        total = sum({Outcome.DRAW: 0.5}.get(g.outcome, 0.0) for g in self.games
                    if p in (g.seat1, g.seat2))
        total += sum(1 for g in self.games if (g.seat1, g.outcome) in (
            (p, Outcome.SEAT1_WIN), (p, Outcome.SEAT2_FORFEIT)) or (g.seat2, g.outcome) in (
            (p, Outcome.SEAT2_WIN), (p, Outcome.SEAT1_FORFEIT)))
        return total + sum(1 for b in self.byes if b.player == p)

    def met(self, a, b):
        return any({g.seat1, g.seat2} == {a, b} for g in self.games)

    def had_bye(self, p):
        return any(b.player == p for b in self.byes) or any(
            (g.seat2 == p and g.outcome is Outcome.SEAT1_FORFEIT)
            or (g.seat1 == p and g.outcome is Outcome.SEAT2_FORFEIT) for g in self.games)

    def seats(self, p):
        return [1 if g.seat1 == p else 2 for g in sorted(self.games, key=lambda g: g.round)
                if p in (g.seat1, g.seat2) and g.outcome not in (
                    Outcome.SEAT1_FORFEIT, Outcome.SEAT2_FORFEIT)]

    def third(self, p, seat):
        return self.seats(p)[-2:] == [seat, seat]

    def ranked(self):
        seed = {e.player: i for i, e in enumerate(self.entrants)}
        return sorted(seed, key=lambda p: (-self.score(p), seed[p]))

    def pair_third(self, a, b):
        """The fewest third-in-a-row seats a pair can be given."""
        return min(self.third(a, 1) + self.third(b, 2), self.third(b, 1) + self.third(a, 2))

    def legal(self, players):
        """Every pairing of ``players`` without a rematch."""
        return [m for m in _matchings(players) if not any(self.met(a, b) for a, b in m)]

    def play(self, rnd, result, rng):
        for pairing in result.pairings:
            self.games.append(GameRecord(rnd, pairing.seat1, pairing.seat2, rng.choice(OUTCOMES)))
        self.byes += [Bye(result.number, p) for p in result.byes]


def _check_round(history, result, number):
    players = [e.player for e in history.entrants]
    assert result.number == number
    assert sorted(result.players) == sorted(players)  # everyone once: paired or a bye
    assert len(result.byes) == len(players) % 2
    for pairing in result.pairings:
        assert not history.met(pairing.seat1, pairing.seat2), "a rematch"
    ranked = history.ranked()
    if result.byes:
        (bye,) = result.byes
        assert not history.had_bye(bye)
        # the lowest-ranked player without a bye for whom the rest can be paired
        eligible = [p for p in reversed(ranked) if not history.had_bye(p)
                    and history.legal([q for q in players if q != p])]
        assert bye == eligible[0]
    rest = [p for p in players if p not in result.byes]
    legal = history.legal(rest)
    # no three same seats in a row where avoidable: as few as any legal pairing allows
    thirds = sum(history.third(p.seat1, 1) + history.third(p.seat2, 2) for p in result.pairings)
    fewest = min(sum(history.pair_third(a, b) for a, b in m) for m in legal)
    assert thirds == fewest
    # score groups: as few pairs across groups as any such pairing
    best = [m for m in legal if sum(history.pair_third(a, b) for a, b in m) == fewest]
    mixed = sum(history.score(p.seat1) != history.score(p.seat2) for p in result.pairings)
    assert mixed == min(sum(history.score(a) != history.score(b) for a, b in m) for m in best)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 10), st.integers(1, 7), st.randoms(use_true_random=False))
def test_simulated_swiss_tournaments_keep_every_pairing_rule(n, rounds, rng):
    entrants = [Entrant(500 + 3 * i, 2000 - 10 * i) for i in range(n)]
    history = History(entrants)
    for number in range(1, rounds + 1):
        players = [e.player for e in entrants]
        try:
            result = pair_swiss(entrants, history.games, history.byes, number)
        except NoLegalPairing:
            # really none: every pairing (with any bye a player without one may take) repeats
            if n % 2:
                options = [p for p in players if not history.had_bye(p)]
                assert all(not history.legal([q for q in players if q != p]) for p in options)
            else:
                assert not history.legal(players)
            return
        _check_round(history, result, number)
        history.play(number, result, rng)
    byes = Counter(b.player for b in history.byes)
    assert all(count == 1 for count in byes.values())  # nobody has two byes


def test_round_1_pairs_the_top_half_against_the_bottom_half_seeds_1_3_5_in_seat_1():
    entrants = [Entrant(p, 2000 - p) for p in range(1, 7)]
    result = pair_swiss(entrants, [], [], 1)
    assert result.pairings == (Pairing(1, 4), Pairing(5, 2), Pairing(3, 6))
    assert result.byes == ()
    odd = pair_swiss(entrants[:5], [], [], 1)
    assert odd.byes == (5,)  # the lowest ranked


def test_a_big_score_group_still_meets_top_half_against_bottom_half():
    # 40 players in one score group (round 1): 1 v 21, 2 v 22, ..., beyond the rank window
    entrants = [Entrant(p, 3000 - p) for p in range(1, 41)]
    result = pair_swiss(entrants, [], [], 1)
    assert [sorted(p.players) for p in result.pairings] == [[p, p + 20] for p in range(1, 21)]


def test_seats_alternate_and_a_third_same_seat_is_avoided():
    entrants = [Entrant(p, 2000 - p) for p in range(1, 5)]
    # 1 had seat 1 twice and 4 seat 2 twice: each must change seat; 2 (seats 2, 1) and 3
    # (1, 2) take the other, as alternation asks
    games = [GameRecord(1, 1, 2, Outcome.DRAW), GameRecord(1, 3, 4, Outcome.DRAW),
             GameRecord(2, 1, 4, Outcome.DRAW), GameRecord(2, 2, 3, Outcome.DRAW)]
    result = pair_swiss(entrants, games, [], 3)
    assert set(result.pairings) == {Pairing(3, 1), Pairing(4, 2)}


def test_avoiding_a_third_same_seat_comes_before_score_groups():
    # 1-4 beat 5-8 twice from seat 1 (1 v 5, then 1 v 6, ...): the leaders could meet each
    # other within their score group, but each would take seat 1 or 2 a third time in a
    # row; so, like FIDE's absolute colour rule, every leader meets a trailer, from seat 2
    entrants = [Entrant(p, 2000 - p) for p in range(1, 9)]
    games = [GameRecord(1, a, a + 4, Outcome.SEAT1_WIN) for a in range(1, 5)]
    games += [GameRecord(2, a, 5 + a % 4, Outcome.SEAT1_WIN) for a in range(1, 5)]
    result = pair_swiss(entrants, games, [], 3)
    assert all(p.seat2 <= 4 < p.seat1 for p in result.pairings), result.pairings


def test_no_legal_pairing_is_raised_and_a_rematch_allowed_only_on_request():
    entrants = [Entrant(p, 1500) for p in (1, 2, 3, 4)]
    games = [GameRecord(1, 1, 2, Outcome.SEAT1_WIN), GameRecord(1, 3, 4, Outcome.SEAT1_WIN),
             GameRecord(2, 1, 3, Outcome.SEAT1_WIN), GameRecord(2, 4, 2, Outcome.SEAT1_WIN),
             GameRecord(3, 1, 4, Outcome.SEAT1_WIN), GameRecord(3, 2, 3, Outcome.SEAT1_WIN)]
    with pytest.raises(NoLegalPairing) as raised:
        pair_swiss(entrants, games, [], 4)
    assert raised.value.round == 4
    last_resort = pair_swiss(entrants, games, [], 4, allow_rematch=True)
    assert len(last_resort.pairings) == 2
    # the leader (3 wins) meets the runner-up (2 wins): the rematch keeps score groups
    assert Pairing(1, 2).players in {p.players for p in last_resort.pairings}


def test_bad_input_is_refused():
    entrants = [Entrant(p, 1500) for p in (1, 2, 3)]
    with pytest.raises(ValueError):
        pair_swiss(entrants[:1], [], [], 1)
    with pytest.raises(ValueError):
        pair_swiss(entrants + entrants[:1], [], [], 1)
    with pytest.raises(ValueError):
        pair_swiss(entrants, [GameRecord(1, 1, 2, None)], [], 2)  # round 1 still running
    with pytest.raises(ValueError):
        pair_swiss(entrants, [], [], 0)


def test_a_withdrawn_player_is_not_paired_but_their_games_still_count():
    entrants = [Entrant(p, 1500) for p in (1, 2, 3, 4)]
    games = [GameRecord(1, 1, 2, Outcome.SEAT1_WIN), GameRecord(1, 3, 4, Outcome.SEAT1_WIN)]
    result = pair_swiss(entrants[:3], games, [], 2)  # 4 withdrew
    assert 4 not in result.players and len(result.byes) == 1
    assert not any(p.players == {1, 2} for p in result.pairings)
    assert swiss_scores(entrants[:3], games, [Bye(1, 3)]) == {1: 1.0, 2: 0.0, 3: 2.0}


def test_a_larger_field_pairs_everyone_without_rematches():
    # beyond the first rank window (16): 60 players, 6 rounds
    rng = random.Random(7)
    entrants = [Entrant(p, 2000 - p) for p in range(1, 61)]
    history = History(entrants)
    for number in range(1, 7):
        result = pair_swiss(entrants, history.games, history.byes, number)
        assert sorted(result.players) == list(range(1, 61))
        assert not any(history.met(p.seat1, p.seat2) for p in result.pairings)
        history.play(number, result, rng)
