"""The fast search states of the hex games (Coil, Brain Coral, Branching Coral) against the
public Position and the slow reference PositionState (engine/state.py, issue 10).

On random games: at every half-move (small boards) the fast state's actions equal
PositionState's; after every whole turn the fast state equals ``Position.play(move_text)``
(seat to move, ply, winner, scores, stones); copies are independent; a playout ends in a
finished position the Position rules agree with; ``wins_now`` agrees with the generic test.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.coil import CoilPosition, CoilState
from engine.coral import CoralPosition, CoralState
from engine.state import PositionState, SearchState

# Small boards: checked half-move by half-move against the slow PositionState.
SMALL = [
    ("coil", {"size": 5}),
    ("braincoral", {"shape": "limping", "size": 2}),
    ("braincoral", {"shape": "hexhex", "size": 3, "bonus": "opponent"}),
    ("branchingcoral", {"shape": "limping", "size": 2}),
    ("branchingcoral", {"shape": "limping", "size": 3, "bonus": "captures"}),
    ("branchingcoral", {"shape": "hexhex", "size": 3, "bonus": "none"}),
]
# Default (and larger) boards: checked turn by turn against Position only.
LARGE = [
    ("coil", {}),
    ("braincoral", {}),
    ("branchingcoral", {}),
    ("branchingcoral", {"shape": "hexhex", "size": 5, "bonus": "captures"}),
]
SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _stones(state) -> dict[int, str]:
    """Cell -> colour of a fast state, in the form of ``Position.stones``."""
    return {c: "black" if (state.black >> c) & 1 else "white"
            for c in range(state.n_cells) if ((state.black | state.white) >> c) & 1}


def assert_same(state, pos):
    """The fast state equals the public position (after a whole turn)."""
    assert not state.mid_turn
    assert state.to_move == (pos.to_move or 0)
    assert state.ply == pos.ply
    out = pos.outcome
    assert state.winner == (None if out is None else out.winner or 0)
    assert _stones(state) == pos.stones
    if hasattr(state, "scores"):
        assert state.scores() == pos.scores
    if out is None:
        assert state.actions() == sorted(
            state.pass_action if m == "pass" else pos.board.cell(m) for m in pos.legal_moves()
        )
    else:
        assert state.actions() == []


def random_line(kind, options, seed, check_halfmoves):
    """Play one random game on the fast state and on Position side by side, checking each
    step; returns the positions reached."""
    rng = random.Random(seed)
    pos = engine.new_game(kind, **options)
    state = pos.search_state()
    assert type(state) is not PositionState
    assert_same(state, pos)
    line = [pos]
    while pos.outcome is None:
        turn = []
        while True:
            acts = state.actions()
            if check_halfmoves:
                ref = PositionState(pos, tuple(turn))
                assert acts == ref.actions()
            a = rng.choice(acts)
            turn.append(a)
            state.play(a)
            if not state.mid_turn:
                break
        pos = pos.play(state.move_text(turn) if turn[-1] != state.pass_action or len(turn) == 1
                       else state.move_text(turn[:-1]))
        assert_same(state, pos)
        line.append(pos)
    return line


@pytest.mark.parametrize("kind,options", SMALL, ids=str)
@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_small_boards_every_halfmove_matches_the_reference(kind, options, seed):
    random_line(kind, options, seed, check_halfmoves=True)


@pytest.mark.parametrize("kind,options", LARGE, ids=str)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_default_boards_every_turn_matches_position(kind, options, seed):
    random_line(kind, options, seed, check_halfmoves=False)


def final_position(start, state):
    """The Position holding the final stones of a finished playout state (built directly,
    since a playout does not record its move order)."""
    if isinstance(start, CoralPosition):
        # one stone a turn, seat 1 first: the seat to move follows from the ply
        return type(start)._make(start.options, start.board, state.ply, None, 1 + state.ply % 2,
                                 state.black, state.white, state.captures, (0, 0))
    if isinstance(start, CoilPosition):
        t = start._t
        pwhite = sum(t.bit[c] for c in range(state.n_cells) if (state.white >> c) & 1)
        assert state.pblack == sum(t.bit[c] for c in range(state.n_cells) if (state.black >> c) & 1)
        return CoilPosition._make(start.options, state.ply, None, 1 + state.ply % 2, state.pblack,
                                  pwhite, state.black_seat, bool(t.enclosed(state.pblack)))
    raise AssertionError(f"no rebuild for {type(start).__name__}")


@pytest.mark.parametrize("kind,options", SMALL + LARGE, ids=str)
@SETTINGS
@given(seed=st.integers(0, 10**6), cut=st.floats(0, 1))
def test_playout_ends_where_position_agrees(kind, options, seed, cut):
    line = random_line(kind, options, seed, check_halfmoves=False)
    start = line[int(cut * (len(line) - 1))]
    state = start.search_state()
    if kind == "coil":
        state.tactics = seed % 2 == 1  # Coil's playouts with coil threats (ai's setting)
        state.loops = seed % 4 == 3      # ... and with threats of loops of any size
    before_b, before_w = state.black, state.white
    winner, placed1, placed2 = state.playout(random.Random(seed))
    assert winner == state.winner and winner in (1, 2)
    assert state.to_move == 0 and state.actions() == []
    end = final_position(start, state)
    assert end.outcome is not None and end.outcome.winner == winner
    if hasattr(state, "scores"):
        assert end.scores == state.scores()
    new = (state.black | state.white) & ~(before_b | before_w)
    if kind == "braincoral":  # nothing is ever removed: placed stones are the new stones
        assert placed1 & placed2 == 0
        assert placed1 == state.black & ~before_b and placed2 == state.white & ~before_w
    elif kind == "coil":  # either seat places black stones in Phase I, only White white ones
        assert placed1 & placed2 == 0 and placed1 | placed2 == new
        white_seat = 3 - state.black_seat
        assert state.white & ~before_w & ~(placed1 if white_seat == 1 else placed2) == 0
    else:
        assert state.black & ~before_b & ~placed1 == 0 and state.white & ~before_w & ~placed2 == 0


@pytest.mark.parametrize("kind,options", SMALL + LARGE[:2], ids=str)
@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_copy_is_independent_and_wins_now_agrees(kind, options, seed):
    line = random_line(kind, options, seed, check_halfmoves=False)
    for pos in line[-6:-1]:
        state = pos.search_state()
        snapshot = (state.black, state.white, state.to_move, state.ply, state.winner)
        twin = state.copy()
        twin.playout(random.Random(seed))
        assert (state.black, state.white, state.to_move, state.ply, state.winner) == snapshot
        for a in state.actions():
            assert state.wins_now(a) == SearchState.wins_now(state, a)
        assert (state.black, state.white, state.to_move, state.ply, state.winner) == snapshot


@pytest.mark.parametrize("kind", ["braincoral", "branchingcoral"])
def test_coral_state_refuses_illegal_half_moves_and_changes_nothing(kind):
    state = engine.new_game(kind).search_state()
    assert isinstance(state, CoralState)
    for bad in (-1, state.pass_action, state.n_cells + 5, "a1", None):
        with pytest.raises(ValueError):
            state.play(bad)
    state.play(state.actions()[0])
    occupied = state.black.bit_length() - 1
    with pytest.raises(ValueError):
        state.play(occupied)
    assert state.ply == 1 and state.to_move == 2 and state.white == 0


def test_coral_state_of_a_finished_game_has_no_actions():
    pos = engine.new_game("braincoral", shape="limping", size=2)
    end = pos.random_playout(random.Random(3))
    state = end.search_state()
    assert state.winner == end.outcome.winner and state.to_move == 0
    assert state.actions() == [] and state.playout(random.Random(1)) == (state.winner, 0, 0)
    with pytest.raises(ValueError):
        state.play(0)
    resigned = pos.resign(1).search_state()
    assert resigned.winner == 2 and resigned.actions() == []


def _coil(rows_from_top: list[str], turn: int, black_seat: int | None):
    """A size-5 Coil state from rows (top first) of ``.``/``x``/``o``."""
    phase = "I" if black_seat is None else "II"
    seat = "-" if black_seat is None else str(black_seat)
    pos = engine.from_text(f"coil size=5 10 - {'/'.join(rows_from_top)} {turn} {phase} {seat}")
    return pos, pos.search_state()


EMPTY5 = [".....", "......", ".......", "........", ".........", "........", ".......",
          "......", "....."]


def _ring_but_one():
    """Five black stones around e5 (the centre of hexhex 5), the sixth neighbour empty."""
    pos = engine.new_game("coil", size=5)
    board = pos.board
    centre = board.cell("e5")
    ring = list(board.neighbours[centre])
    return board, centre, ring


def test_coil_state_wins_now_on_a_coil_threat_and_on_the_last_cell():
    board, centre, ring = _ring_but_one()
    rows = [list(r) for r in EMPTY5]
    for c in ring[:-1]:
        f, r = board.coords[c]
        rows[len(rows) - 1 - r][f - max(0, r - 4)] = "x"
    text = ["".join(r) for r in rows]
    pos, state = _coil(text, 2, 2)
    assert isinstance(state, CoilState) and state.phase == "II"
    gap = ring[-1]
    assert state.closes_coil(gap)
    assert state.wins_now(gap) and SearchState.wins_now(state, gap)
    assert not state.wins_now(centre)
    # the same shape in Phase I: closing the coil is illegal, so it is not offered
    pos1, state1 = _coil(text, 1, None)
    assert gap not in state1.actions() and state1.pass_action in state1.actions()
    with pytest.raises(ValueError):
        state1.play(gap)
    assert state1.pblack == pos1._black and state1.ply == 10
    # White to move on the last empty cell wins by filling the board
    full = [r.replace(".", "o") for r in EMPTY5]
    f, r = board.coords[0]
    full[len(full) - 1] = "." + full[len(full) - 1][1:]
    pos2, state2 = _coil(full, 2, 1)
    assert state2.actions() == [0]
    assert state2.wins_now(0) and SearchState.wins_now(state2, 0)
    state2.play(0)
    assert state2.winner == 2 and state2.to_move == 0


def _ring_state(turn: int):
    """Phase II, seat 2 Black, five black stones around e5 and the sixth cell empty."""
    board, centre, ring = _ring_but_one()
    rows = [list(r) for r in EMPTY5]
    for c in ring[:-1]:
        f, r = board.coords[c]
        rows[len(rows) - 1 - r][f - max(0, r - 4)] = "x"
    return _coil(["".join(r) for r in rows], turn, 2)[1], ring[-1]


def test_coil_tactics_playout_takes_and_blocks_a_ring_threat():
    # Black to move with an open ring threat: every tactics playout closes it at once
    state, gap = _ring_state(2)
    for seed in range(20):
        s = state.copy()
        s.tactics = True
        winner, _p1, p2 = s.playout(random.Random(seed))
        assert winner == 2 and p2 == 1 << gap and s.winner == 2
    # uniform playouts do not always find it
    found = [state.copy().playout(random.Random(seed))[2] == 1 << gap for seed in range(20)]
    assert not all(found)
    # White to move: every tactics playout blocks the threat with White's first stone
    state, gap = _ring_state(1)
    for seed in range(20):
        s = state.copy()
        s.tactics = True
        s.playout(random.Random(seed))
        assert s.white >> gap & 1


def test_coil_tactics_playout_a_double_threat_wins_for_black():
    """Two rings of five black stones (around c3 and g7), each with its sixth cell empty,
    in Phase I: with tactics, whoever ends up Black wins every playout (White can block
    only one threat), however Phase I ends."""
    pos = engine.new_game("coil", size=5)
    for cell in ("d3", "b3", "c4", "c2", "d4", "h7", "f7", "g8", "g6", "h8"):
        pos = pos.play(cell)  # both seats place black stones in Phase I
    state = pos.search_state()
    assert state.phase == "I"
    assert state.closes_coil(pos.board.cell("b2")) and state.closes_coil(pos.board.cell("f6"))
    for seed in range(30):
        s = state.copy()
        s.tactics = True
        winner, _, _ = s.playout(random.Random(seed))
        assert winner == s.black_seat


def test_coil_state_copies_its_playout_tactics():
    state = engine.new_game("coil").search_state()
    assert state.tactics is False and state.loops is False
    state.tactics = True
    state.loops = True
    assert state.copy().tactics is True and state.copy().loops is True


def _coil_cells(size: int, black: list[str], turn: int, black_seat: int | None,
                white: list[str] = ()):
    """A Coil position and state on hexhex ``size`` with black stones on the cells
    labelled ``black`` and white ones on ``white``."""
    board = engine.new_game("coil", size=size).board
    n = 2 * size - 1
    rows = [["."] * (n - abs(size - 1 - r)) for r in range(n)]  # bottom row first
    for labels, stone in ((black, "x"), (white, "o")):
        for label in labels:
            f, r = board.coords[board.cell(label)]
            rows[r][f - max(0, r - (size - 1))] = stone
    phase = "I" if black_seat is None else "II"
    seat = "-" if black_seat is None else str(black_seat)
    text = "/".join("".join(r) for r in reversed(rows))
    pos = engine.from_text(f"coil size={size} 10 - {text} {turn} {phase} {seat}")
    return pos, pos.search_state()


#: A loop of ten cells around g6, h6, g7 and h7 (hexhex 7), all black but i7: a black stone
#: on i7 encloses those four cells, and no cell has five black neighbours (no ring of six).
_LOOP = ["f5", "g5", "h5", "f6", "i6", "f7", "g8", "h8", "i8"]


def _loop_state(turn: int):
    pos, state = _coil_cells(7, _LOOP, turn, 2)
    gap = pos.board.cell("i7")
    threats = [c for c in range(state.n_cells) if (state.empty >> c) & 1 and state.closes_coil(c)]
    assert threats == [gap]  # the one cell that closes a coil
    return state, gap


def test_coil_loops_playout_closes_and_blocks_a_larger_loop():
    # Black to move: every playout seeing loops closes the ten-cell loop at once
    state, gap = _loop_state(2)
    for seed in range(20):
        s = state.copy()
        s.tactics = s.loops = True
        winner, _p1, p2 = s.playout(random.Random(seed))
        assert winner == 2 and p2 == 1 << gap and s.winner == 2
    # the ring-of-six tactics alone leave it to chance
    found = []
    for seed in range(20):
        s = state.copy()
        s.tactics = True
        found.append(s.playout(random.Random(seed))[2] == 1 << gap)
    assert not all(found)
    # White to move: every playout seeing loops blocks the gap with White's first stone
    state, gap = _loop_state(1)
    for seed in range(20):
        s = state.copy()
        s.tactics = s.loops = True
        _w, p1, _p2 = s.playout(random.Random(seed))
        assert s.white >> gap & 1 and p1 & 1 << gap


def test_coil_loops_playout_sees_a_loop_a_phase_two_stone_brings_to_one_gap():
    """The ten-cell loop open at i7 and g8 around four white cells, every other cell white
    but a1, b1 and c1; Phase II, Black to move. No cell closes a coil yet, and White wins
    with perfect play. A Black stone on one gap makes the other a threat, found from what
    that stone changed, and White blocks it at once: with loops seen White wins every
    playout. With the ring-of-six tactics alone White misses it in some and Black wins."""
    board = engine.new_game("coil", size=7).board
    loop = [c for c in _LOOP if c != "g8"]
    keep = set(loop) | {"i7", "g8", "a1", "b1", "c1"}
    white = [label for label in board.labels if label not in keep]
    _pos, state = _coil_cells(7, loop, 2, 2, white)
    assert [c for c in range(state.n_cells) if (state.empty >> c) & 1 and state.closes_coil(c)] == []
    for seed in range(30):
        s = state.copy()
        s.tactics = s.loops = True
        assert s.playout(random.Random(seed))[0] == 1
    wins = []
    for seed in range(30):
        s = state.copy()
        s.tactics = True
        wins.append(s.playout(random.Random(seed))[0] == 2)
    assert any(wins)


def test_coil_state_refuses_illegal_half_moves_and_changes_nothing():
    state = engine.new_game("coil").search_state()
    for bad in (-1, state.n_cells + 1, "pass", None):
        with pytest.raises(ValueError):
            state.play(bad)
    state.play(60)
    with pytest.raises(ValueError):
        state.play(60)
    state.play(state.pass_action)  # seat 2 passes and is Black
    assert state.black_seat == 2 and state.phase == "II" and state.to_move == 1
    with pytest.raises(ValueError):
        state.play(state.pass_action)
    assert state.ply == 2 and state.white == 0 and state.black == 1 << 60


@pytest.mark.parametrize("kind,options", [c for c in SMALL if c[0] != "coil"], ids=str)
@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_coral_is_legal_agrees_with_actions(kind, options, seed):
    for pos in random_line(kind, options, seed, check_halfmoves=False)[::3]:
        state = pos.search_state()
        assert [c for c in range(state.n_cells) if state.is_legal(c)] == state.actions()


def test_coil_state_of_finished_games():
    pos = engine.new_game("coil", size=5)
    end = pos.random_playout(random.Random(7))
    state = end.search_state()
    assert state.winner == end.outcome.winner and state.to_move == 0 and state.actions() == []
    assert state.playout(random.Random(1)) == (state.winner, 0, 0)
    with pytest.raises(ValueError):
        state.wins_now(0)
    resigned = pos.resign(2).search_state()
    assert resigned.winner == 1 and resigned.actions() == []
