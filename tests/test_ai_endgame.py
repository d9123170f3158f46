"""The exact endgame solver (ai/endgame.py) against the brute-force minimax of
tests/test_ai.py over the public Position, and its use by level 5 (Io, RULES.md "Io")."""

from __future__ import annotations

import dataclasses
import random

import ai
import engine
from ai import endgame
from tests.test_ai import solve


def io_main_phase_positions(size: int, empty: int, count: int, seed: int):
    """``count`` Io positions of a size x size board from seeded random games, in the main
    phase with exactly ``empty`` empty cells."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = engine.new_game("io", size=size)
        while pos.outcome is None:
            st = pos.search_state()
            if not st.opening and st.empty.bit_count() == empty:
                out.append(pos)
                break
            pos = pos.play(pos.random_move(rng))
    return out


def test_io_root_solve_matches_brute_force():
    """The best value the solver reports is the brute-force result, and its move gets it;
    even sizes (draws possible) and odd ones."""
    for size, empty in ((5, 7), (6, 7), (6, 6)):
        for pos in io_main_phase_positions(size, empty, count=6, seed=size * 10 + empty):
            me = pos.to_move
            truth = solve(pos.to_text(), [200000])
            expected = 1 if truth == me else (0 if truth == 0 else -1)
            result = endgame.io_solve_root(pos.search_state(), 10**6)
            action, value = max(result, key=lambda av: av[1])
            assert value == expected, pos.to_text()
            move = pos.search_state().move_text([action])
            assert solve(pos.play(move).to_text(), [200000]) == truth, (pos.to_text(), move)


def test_io_solver_gives_up_past_its_node_budget_and_in_the_opening():
    pos = io_main_phase_positions(9, 14, count=1, seed=3)[0]
    assert endgame.io_solve_root(pos.search_state(), 100) is None
    assert endgame.io_solve_root(engine.new_game("io").search_state(), 10**6) is None
    assert endgame.solver_for(engine.new_game("coil").search_state()) is None


def test_level_5_plays_a_solved_io_endgame_win_and_lower_levels_do_not_solve():
    """Level 5 solves the last cells exactly: a won position gives a proven win, with no
    simulation, and the move keeps the win; with the solver off it searches."""
    found = 0
    for pos in io_main_phase_positions(7, 9, count=12, seed=4):
        if solve(pos.to_text(), [400000]) != pos.to_move:
            continue
        found += 1
        d = ai.choose_move(pos, level=5, playouts=50, seed=1)
        assert d.proven and d.value == 1.0 and d.playouts == 0
        assert solve(pos.play(d.move).to_text(), [400000]) == pos.to_move
        off = dataclasses.replace(ai.LEVELS[5], endgame=0)
        assert ai.search_move(pos, off, playouts=50, seed=1).playouts > 0
    assert found >= 2


def test_grave_ref_and_explore_come_from_the_game_unless_the_level_sets_them(monkeypatch):
    """``Level.ref`` / ``explore`` None take the game's own (``ai.KIND_SETTINGS``, default
    50 / 0.1); a level's own value wins (level 4: level 5 sets its own in Io,
    ``Level.per_kind``)."""
    import ai.mcts

    seen = []
    real = ai.mcts.Search

    def spy(*args, **kwargs):
        seen.append((kwargs["ref"], kwargs["explore"]))
        return real(*args, **kwargs)

    monkeypatch.setattr(ai, "Search", spy)
    monkeypatch.setitem(ai.KIND_SETTINGS, "io", {"ref": 17, "explore": 0.3})
    io = engine.new_game("io", size=5)
    coil = engine.new_game("coil", size=5)
    ai.choose_move(io, level=4, playouts=20, seed=1)
    ai.choose_move(coil, level=4, playouts=20, seed=1)
    ai.search_move(io, dataclasses.replace(ai.LEVELS[4], ref=33), playouts=20, seed=1)
    assert seen[0] == (17, 0.3) and seen[-1] == (33, 0.3)
    assert (50, 0.1) in seen[1:-1]
    assert ai.kind_setting("braincoral", "explore", None) == 0.05


def test_the_tree_solves_io_nodes_exactly():
    """Io's exact endgame inside the tree (issue 24): a search whose nodes below the root
    are solved (``endgame.TreeSolver``) proves the root of a position with 11 empty cells
    after a few simulations, with the value the root solver finds; without it the same
    simulations prove nothing."""
    import random

    from ai import endgame
    from ai.mcts import Search

    rng = random.Random(4)
    checked = 0
    for _ in range(40):
        pos = engine.new_game("io", size=6)
        while pos.outcome is None:
            st = pos.search_state()
            if not st.opening and st.empty.bit_count() == 11:
                break
            pos = pos.play(pos.random_move(rng))
        if pos.outcome is not None:
            continue
        exact = endgame.io_solve_root(st, 10**7)
        assert exact is not None
        best = max(v for _, v in exact)
        solver = endgame.TreeSolver(12, 10**6)
        search = Search(st, rng=random.Random(1), exact=solver)
        search.run(playouts=60)
        me = st.to_move
        want = me if best > 0 else (0 if best == 0 else 3 - me)
        assert search.root.proven == want, (pos.to_text(), best)
        assert solver.solved > 0
        plain = Search(st, rng=random.Random(1))
        plain.run(playouts=search.playouts)
        assert plain.root.proven is None
        checked += 1
        if checked == 3:
            break
    assert checked == 3
