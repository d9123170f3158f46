"""ai.review: a whole game's estimates, preferred moves and swings (small boards, small
playout caps, fixed seeds)."""

from __future__ import annotations

import json
import random

import pytest

import engine
from ai.review import (
    GameReview,
    PlyReview,
    Swing,
    find_spikes,
    find_swings,
    pct,
    remove_tempo,
    review_game,
)

SMALL = {
    "coil": {"size": 5},
    "io": {"size": 5},
    "braincoral": {"shape": "limping", "size": 2},
    "branchingcoral": {"shape": "limping", "size": 2},
    "whirlwind": {"size": 8},
}


def random_record(kind: str, seed: int, limit: int = 200) -> list[str]:
    """A random game of ``kind`` on its small board, played to the end (or ``limit`` moves)."""
    pos = engine.new_game(kind, **SMALL[kind])
    rng = random.Random(seed)
    moves = []
    while not pos.is_over and len(moves) < limit:
        mv = pos.random_move(rng)
        moves.append(mv)
        pos = pos.play(mv)
    return moves


@pytest.mark.parametrize("kind", sorted(SMALL))
def test_every_kind_reviews_a_finished_game(kind):
    moves = random_record(kind, 3)
    calls = []
    r = review_game(kind, SMALL[kind], moves, playouts=30, seed=5,
                    progress=lambda done, total: calls.append((done, total)))
    assert isinstance(r, GameReview)
    assert [p.move for p in r.plies] == [engine.replay(kind, SMALL[kind], moves[:i]).last_move
                                         for i in range(1, len(moves) + 1)]
    assert len(r.values) == len(moves) + 1
    assert all(0.0 <= v <= 1.0 for v in r.values)
    final = engine.replay(kind, SMALL[kind], moves)
    assert r.outcome == final.outcome
    # a finished position's value is exact
    winner = final.outcome.winner
    assert r.values[-1] == (0.5 if winner is None else (1.0 if winner == 1 else 0.0))
    assert r.plies[-1].exact
    d = r.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["outcome"] == {"winner": winner, "reason": str(final.outcome.reason.value)}
    # one progress call per search, in order, ending at the total; the first pass searches
    # every unfinished position, a few may be searched again at the end (find_spikes)
    assert [d for d, _ in calls] == list(range(1, len(calls) + 1))
    assert calls[-1][0] == calls[-1][1]
    assert all(t == len(moves) for _, t in calls[:len(moves)])
    assert all(t == calls[-1][1] for _, t in calls[len(moves):])
    # every preferred move is legal in the position before the ply
    for i, p in enumerate(r.plies):
        before = engine.replay(kind, SMALL[kind], moves[:i])
        assert before.is_legal(p.preferred)
        assert p.seat == before.to_move
        assert p.before == r.values[i] and p.after == r.values[i + 1]


def test_same_seed_and_playouts_give_the_same_review():
    moves = random_record("coil", 7)
    a = review_game("coil", SMALL["coil"], moves, playouts=40, seed=11)
    b = review_game("coil", SMALL["coil"], moves, playouts=40, seed=11)
    assert a == b


def test_swings_are_the_biggest_drops_from_the_movers_view():
    moves = random_record("io", 4)
    r = review_game("io", SMALL["io"], moves, playouts=40, seed=2, swings=3)
    drops = sorted((p.drop for p in r.plies), reverse=True)
    assert [round(s.drop, 9) for s in r.swings] == [round(d, 9) for d in drops[:len(r.swings)]]
    for s in r.swings:
        p = r.plies[s.ply - 1]
        assert (s.move, s.seat, s.preferred) == (p.move, p.seat, p.preferred)
        mover_before = p.before if p.seat == 1 else 1 - p.before
        assert s.before == pytest.approx(mover_before)


def test_find_swings_by_hand():
    plies = [
        PlyReview(1, 1, "a1", "a1", 0.5, 0.55, False),    # seat 1 gains
        PlyReview(2, 2, "b2", "c3", 0.55, 0.9, False),    # seat 2 drops from 45% to 10%
        PlyReview(3, 1, "d4", "e5", 0.9, 0.3, False),     # seat 1 drops from 90% to 30%
        PlyReview(4, 2, "f6", "f6", 0.3, 0.28, False),    # seat 2 gains a little
        PlyReview(5, 1, "g7", "a2", 0.28, 0.25, False),   # a drop under the minimum
    ]
    swings = find_swings(plies, count=5)
    assert [s.ply for s in swings] == [3, 2]
    assert swings[0] == Swing(3, 1, "d4", "e5", 0.9, 0.3)
    assert swings[1].before == pytest.approx(0.45) and swings[1].after == pytest.approx(0.10)
    assert swings[0].text() == "move 3, d4: 90% → 30%"
    assert find_swings(plies, count=1) == swings[:1]
    assert pct(0.714) == "71%"


def test_win_in_one_is_preferred_and_seen():
    # Whirlwind 8: a finished record by random play; the last mover's preferred move wins
    moves = random_record("whirlwind", 1)
    r = review_game("whirlwind", SMALL["whirlwind"], moves, playouts=30, seed=1)
    last = r.plies[-1]
    before = engine.replay("whirlwind", SMALL["whirlwind"], moves[:-1])
    after = before.play(last.preferred)
    if final_winner := engine.replay("whirlwind", SMALL["whirlwind"], moves).outcome.winner:
        # the mover won with the last move, so a win in one existed: the search found one
        assert after.is_over and after.outcome.winner == final_winner
        assert last.before == (1.0 if last.seat == 1 else 0.0)


def test_unfinished_record_is_searched_to_the_end():
    moves = random_record("coil", 2)[:6]
    r = review_game("coil", SMALL["coil"], moves, playouts=20, seed=0)
    assert r.outcome is None and len(r.plies) == 6


@pytest.mark.parametrize("kwargs, error", [
    ({"level": 0}, ValueError),
    ({"level": "3"}, ValueError),
    ({"seconds": -1}, ValueError),
    ({"playouts": 0}, ValueError),
    ({"swings": -1}, ValueError),
])
def test_bad_arguments_raise(kwargs, error):
    with pytest.raises(error):
        review_game("coil", SMALL["coil"], ["c3"], **kwargs)


def test_bad_records_raise_before_searching():
    calls = []
    with pytest.raises(engine.IllegalMove, match="move 2"):
        review_game("coil", SMALL["coil"], ["c3", "c3"], playouts=10,
                    progress=lambda d, t: calls.append(d))
    with pytest.raises(engine.MoveError):
        review_game("coil", SMALL["coil"], ["c3", "zz99"], playouts=10)
    with pytest.raises(engine.GameError):
        review_game("chess", {}, [], playouts=10)
    with pytest.raises(ValueError):
        review_game("coil", SMALL["coil"], "c3", playouts=10)
    moves = random_record("coil", 3)
    with pytest.raises(engine.IllegalMove, match=rf"move {len(moves) + 1} \(a1\): the game is over") as over:
        review_game("coil", SMALL["coil"], moves + ["a1"], playouts=10)
    assert over.value.reason is engine.ErrorReason.GAME_OVER and over.value.move_number == len(moves) + 1
    assert calls == []


def test_the_search_optimism_for_the_side_to_move_is_taken_out():
    # every position reads 70% for whoever is to move: a zigzag of 70% / 30% for seat 1
    own = [0.7] * 10
    movers = [1, 2] * 5
    out = remove_tempo(own, [False] * 10, movers)
    assert out == pytest.approx([0.5] * 10)
    # a real change survives: seat 1's true chances fall from 50% to 20% with ply 5, and
    # the search reads 10% high for the side to move (seat 1 moves at even positions)
    true = [0.5] * 5 + [0.2] * 5
    own = [(t if m == 1 else 1 - t) + 0.1 for t, m in zip(true, movers, strict=True)]
    seat1 = [v if m == 1 else 1 - v for v, m in zip(remove_tempo(own, [False] * 10, movers),
                                                    movers, strict=True)]
    assert seat1 == pytest.approx(true)
    # exact values are kept
    out = remove_tempo([0.7, 0.7, 1.0], [False, False, True], [1, 2, None])
    assert out[2] == 1.0


def test_a_review_does_not_zigzag_where_the_search_is_optimistic_for_the_mover():
    moves = random_record("coil", 2)[:12]
    r = review_game("coil", SMALL["coil"], moves, playouts=200, seed=3)
    # the mover's drops are centred on zero: as many moves gain as lose
    drops = sorted(p.drop for p in r.plies if not p.exact)
    assert abs(drops[len(drops) // 2]) < 0.05


def test_lone_spikes_are_found_and_searched_again():
    values = [0.5, 0.5, 0.9, 0.5, 0.5, 0.2, 0.2, 0.6, 0.2]
    exact = [False] * 9
    # 0.9 at 2 stands alone; 0.5 -> 0.2 at 5 is a step, not a spike; 0.6 at 7 is one
    assert find_spikes(values, exact) == [2, 7]
    assert find_spikes(values, [False, False, True] + [False] * 6) == [7]
    assert find_spikes([0.5, 0.6, 0.5], [False] * 3) == []   # within the threshold


def test_a_review_always_looks_at_wins_in_one_whatever_the_level():
    """A review searches every position looking at the immediate threats, also at levels 1
    and 2, which look only at a share of their moves in play (``ai.Level.sight``): the last
    mover's preferred move wins whenever the record's last move won."""
    checked = 0
    for game in range(12):
        moves = random_record("whirlwind", game)
        final = engine.replay("whirlwind", SMALL["whirlwind"], moves).outcome
        if final.winner is None or final.reason != "connection":
            continue
        before = engine.replay("whirlwind", SMALL["whirlwind"], moves[:-1])
        for level in (1, 2):
            r = review_game("whirlwind", SMALL["whirlwind"], moves, level=level, playouts=10,
                            seed=game)
            after = before.play(r.plies[-1].preferred)
            assert after.is_over and after.outcome.winner == final.winner, (game, level)
        checked += 1
        if checked >= 4:
            break
    assert checked >= 3
