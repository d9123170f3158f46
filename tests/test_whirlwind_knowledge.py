"""Whirlwind knowledge for the search (issue 24): bridges and their save-bridge reply, the
playout tactics (wins, blocks) and the chain-distance prior, position by position.

Boards in position texts run top row first: ``x`` Black (rows 1 and 8 are its edges), ``o``
White (files a and h), ``.`` empty; ``put`` marks points by label.
"""

import random

import pytest
from test_whirlwind import EMPTY8, put, ww

import ai
import engine
from ai.knowledge import chain_distance, prior_for, whirlwind_prior
from engine.whirlwind import _tables, tactical_turn


def cell(label: str, n: int = 8) -> int:
    return (int(label[1:]) - 1) * n + ord(label[0]) - 97


def labels(bitboard: int, n: int = 8) -> set[str]:
    return {f"{chr(97 + c % n)}{c // n + 1}" for c in range(n * n) if bitboard >> c & 1}


def fronts(state, seat: int) -> tuple[int, int]:
    """The two fronts tactical_turn reads: each edge line and the neighbours of the stones
    joined to it."""
    t = state.tables
    own = state.black if seat == 1 else state.white
    return tuple(e | t.orth(t.flood(own & e, own)) for e in t.edges[seat])  # type: ignore[return-value]


def tactic(pos, last: tuple[str, ...] = (), seed: int = 1):
    """tactical_turn for the player to move in ``pos`` (the opponent's last turn ``last``),
    as labels, or None."""
    s = pos.search_state()
    me = s.to_move
    empt = [c for c in range(s.n_cells) if s.empty >> c & 1]
    turn = tactical_turn(s.tables, me, s.own, s.opp, s.empty, fronts(s, me), fronts(s, 3 - me),
                         tuple(cell(x) for x in last), empt, random.Random(seed))
    return None if turn is None else {s.label(c) for c in turn}


# ---- bridges -----------------------------------------------------------------------------
def test_a_rung_between_two_walls_is_a_bridge_and_its_other_carrier_is_the_save():
    t = _tables(8)
    own = sum(1 << cell(x) for x in ("c4", "c5", "e4", "e5"))  # two walls, carriers d4, d5
    empty = t.full & ~own & ~(1 << cell("d4"))
    assert labels(t.save_bridge(2, own, empty, cell("d4"))) == {"d5"}
    assert labels(t.save_bridge(1, own, empty | 1 << cell("d4"), cell("d5"))) == {"d4"}
    # the other carrier taken too: nothing left to save
    assert t.save_bridge(2, own, empty & ~(1 << cell("d5")), cell("d4")) == 0


def test_a_single_gap_or_a_half_wall_is_no_bridge():
    t = _tables(8)
    gap = (1 << cell("c4")) | (1 << cell("e4"))  # one carrier only: d4
    empty = t.full & ~gap & ~(1 << cell("d4"))
    assert t.save_bridge(1, gap, empty, cell("d4")) == 0
    half = gap | (1 << cell("c5"))  # d5 touches c5 but not the other stone's group
    assert t.save_bridge(1, half, empty & ~(1 << cell("c5")), cell("d4")) == 0


def test_edge_templates_follow_each_colours_own_edges():
    t = _tables(8)
    two = (1 << cell("d2")) | (1 << cell("e2"))  # one row inside Black's bottom edge
    empty = t.full & ~two & ~(1 << cell("d1"))
    assert labels(t.save_bridge(1, two, empty, cell("d1"))) == {"e1"}
    assert t.save_bridge(2, two, empty, cell("d1")) == 0  # row 1 is not White's edge
    wall = (1 << cell("b4")) | (1 << cell("b5"))  # one file inside White's file a
    empty = t.full & ~wall & ~(1 << cell("a5"))
    assert labels(t.save_bridge(2, wall, empty, cell("a5"))) == {"a4"}
    assert t.save_bridge(1, wall, empty, cell("a5")) == 0


def test_playout_policy_saves_the_bridge_the_opponent_intruded_into():
    rows = put(EMPTY8, {"c4": "o", "c5": "o", "e4": "o", "e5": "o", "d4": "x", "g7": "x"})
    pos = ww(rows, to_move=2)
    for seed in range(5):
        assert "d5" in tactic(pos, ("d4", "g7"), seed)
    # without the intrusion in the last turn the policy has nothing to say
    assert tactic(pos, ("g7",)) is None


# ---- wins and blocks in playouts ----------------------------------------------------------
def test_playout_policy_completes_a_two_stone_connection():
    rows = put(EMPTY8, {f"c{r}": "x" for r in range(1, 7)})  # c1-c6: c7 and c8 join
    assert tactic(ww(rows, to_move=1)) == {"c7", "c8"}
    one = put(rows, {"c7": "x"})
    assert tactic(ww(one, to_move=1)) == {"c8"}


def test_playout_policy_blocks_the_opponents_connection():
    rows = put(EMPTY8, {f"c{r}": "x" for r in range(1, 7)})
    for seed in range(5):
        assert tactic(ww(rows, to_move=2), seed=seed) & {"c7", "c8"}
    one = put(rows, {"c7": "x"})
    assert "c8" in tactic(ww(one, to_move=2))


@pytest.mark.parametrize("seed", range(6))
def test_tactical_playouts_play_legal_turns_to_the_recorded_end(seed):
    rng = random.Random(seed)
    pos = engine.new_game("whirlwind", size=10)
    for _ in range(rng.randrange(0, 30)):
        if pos.outcome is not None:
            break
        pos = pos.play(pos.random_move(rng))
    if pos.outcome is not None:
        return
    state = pos.search_state()
    state.tactical_playouts = True
    assert state.copy().tactical_playouts is True
    moves: list[tuple[int, ...]] = []
    winner, _, _ = state.playout(random.Random(seed), moves)
    replay = pos
    for turn in moves:
        replay = replay.play(state.move_text(turn))  # raises for an illegal turn
    assert replay.outcome is not None and replay.outcome.winner == winner


def test_tactical_playouts_win_the_race_random_ones_often_lose():
    # Black to move, one turn from joining (c7, c8); White one turn from its own crossing.
    rows = put(EMPTY8, {**{f"c{r}": "x" for r in range(1, 7)},
                        **{f"{f}5": "o" for f in "abdefg"}})
    state = ww(rows, to_move=1).search_state()
    tac = state.copy()
    tac.tactical_playouts = True
    rng = random.Random(3)
    assert all(tac.copy().playout(rng)[0] == 1 for _ in range(50))
    assert any(state.copy().playout(rng)[0] == 2 for _ in range(50))


# ---- chain distance and the prior ---------------------------------------------------------
def test_chain_distance_counts_the_stones_still_needed_and_marks_the_shortest_paths():
    rows = put(EMPTY8, {f"c{r}": "x" for r in range(2, 8)})
    state = ww(rows, to_move=1).search_state()
    d, on_path = chain_distance(state, 1)
    assert (d, labels(on_path)) == (2, {"c1", "c8"})
    d, on_path = chain_distance(state, 2)  # White goes round the wall, along row 1 or 8
    assert d == 8
    assert labels(on_path) == {f"{f}{r}" for f in "abcdefgh" for r in (1, 8)}
    walled = put(rows, {"c1": "x", "c8": "x"})  # Black has crossed: White has no path
    assert chain_distance(ww(walled, to_move=2).search_state(), 2) == (None, 0)


def test_whirlwind_prior_prefers_the_shortest_paths_of_both_colours():
    rows = put(EMPTY8, {f"c{r}": "x" for r in range(2, 8)})
    state = ww(rows, to_move=2).search_state()
    assert prior_for(state) is None  # measured, not kept (see ai.knowledge._PRIORS)
    acts = state.actions()
    pr = dict(zip(acts, whirlwind_prior(state, acts), strict=True))
    # c1 and c8 are on both colours' shortest paths; a1 on White's only; e5 on neither
    assert pr[cell("c1")] > pr[cell("a1")] > pr[cell("e5")]
    assert pr[cell("c8")] == pr[cell("c1")]


def test_level_5_with_the_whirlwind_knowledge_plays_legal_moves_and_stops_a_crossing(monkeypatch):
    """Both pieces are off in play (measured, not kept); switched on here, the search still
    plays legal moves and blocks a crossing."""
    from ai import knowledge
    from engine.whirlwind import WhirlwindPosition

    plain = WhirlwindPosition.search_state

    def tactical(self):
        s = plain(self)
        s.tactical_playouts = True
        return s

    monkeypatch.setitem(knowledge._PRIORS, "WhirlwindState", whirlwind_prior)
    monkeypatch.setattr(WhirlwindPosition, "search_state", tactical)
    rows = put(EMPTY8, {f"c{r}": "x" for r in range(1, 7)})
    pos = ww(rows, to_move=2)
    assert pos.search_state().tactical_playouts and prior_for(pos.search_state()) is whirlwind_prior
    d = ai.choose_move(pos, level=5, playouts=300, seed=2)
    assert {"c7", "c8"} & set(d.move.split())
    pos = engine.new_game("whirlwind", size=8)
    for seed in range(4):
        if pos.outcome is not None:
            break
        pos = pos.play(ai.choose_move(pos, level=5, playouts=200, seed=seed).move)


# ---- playouts cut off and scored by chain distance ------------------------------------------
def test_table_distance_agrees_with_chain_distance():
    t = _tables(8)
    rows = put(EMPTY8, {f"c{r}": "x" for r in range(2, 8)})
    state = ww(rows, to_move=1).search_state()
    assert t.distance(1, state.black, state.empty) == 2
    assert t.distance(2, state.white, state.empty) == 8
    walled = ww(put(rows, {"c1": "x", "c8": "x"}), to_move=2).search_state()
    assert t.distance(2, walled.white, walled.empty) is None
    rng = random.Random(5)
    pos = engine.new_game("whirlwind", size=10)
    for _ in range(12):
        pos = pos.play(pos.random_move(rng))
        s = pos.search_state()
        for seat in (1, 2):
            own = s.black if seat == 1 else s.white
            assert s.tables.distance(seat, own, s.empty) == chain_distance(s, seat)[0]


def test_cut_off_playouts_are_scored_by_the_turns_each_colour_still_needs():
    # Black needs c1 and c8 (one turn), White eight stones (four turns): after one random
    # turn each cut-off playout is Black's, whoever won the race on the board or not
    rows = put(EMPTY8, {f"c{r}": "x" for r in range(2, 8)})
    state = ww(rows, to_move=2).search_state()
    state.playout_cutoff = 1
    assert state.copy().playout_cutoff == 1
    rng = random.Random(2)
    for _ in range(30):
        s = state.copy()
        moves: list[tuple[int, ...]] = []
        assert s.playout(rng, moves)[0] == 1
        assert len(moves) == 1 and s.winner == 1 and s.to_move == 0
    # with no cut-off the same position is a real race White sometimes wins
    plain = ww(rows, to_move=2).search_state()
    assert {plain.copy().playout(rng)[0] for _ in range(60)} == {1, 2}
