"""The fast search states of the square-board games (Io, Whirlwind) against the public
Position and the slow reference PositionState (engine/state.py), on random games of every
kind and several sizes including the smallest.

* small sizes: at every half-move the fast state's actions() equal PositionState's, and
  wins_now agrees with the generic version; after every whole turn the state equals
  ``Position.play(move_text(turn))``;
* default sizes: whole turns against Position only (PositionState is slow there);
* copy() independence; playout() ends where replaying its turns through Position ends.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.state import PositionState, SearchState

SMALL = [
    ("io", {"size": 5}),
    ("io", {"size": 6}),
    ("whirlwind", {"size": 8}),
    ("whirlwind", {"size": 8, "setup": "B"}),
]
DEFAULT = [
    ("io", {}),
    ("io", {"size": 19}),
    ("whirlwind", {}),
    ("whirlwind", {"size": 10, "setup": "B"}),
    ("whirlwind", {"size": 24}),
]
SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _stones(state) -> dict[int, str]:
    """Cell -> colour of the state's stones, as Position.stones spells it."""
    out = {}
    for c in range(state.n_cells):
        if state.white >> c & 1:
            out[c] = "white"
        if state.black >> c & 1:
            out[c] = "black"
    return out


def assert_matches(state, pos) -> None:
    """The fast state (at a turn boundary) equals the Position in every observable."""
    assert not state.mid_turn
    assert state.ply == pos.ply
    out = pos.outcome
    if out is None:
        assert state.winner is None
        assert state.to_move == pos.to_move
    else:
        assert state.winner == (out.winner or 0)
        assert state.to_move == 0
        assert state.actions() == []
    assert _stones(state) == pos.stones
    if pos.kind == "io":
        assert state.scores() == pos.scores
    fresh = pos.search_state()
    assert type(fresh) is type(state)
    for name in type(state).__slots__:
        if not name.startswith("_"):  # private slots are caches
            assert getattr(fresh, name) == getattr(state, name), name


def _generic_wins_now(state, action) -> bool:
    return SearchState.wins_now(state, action)


@pytest.mark.parametrize("kind,options", SMALL)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_half_moves_match_the_reference_state(kind, options, seed):
    rng = random.Random(seed)
    pos = engine.new_game(kind, **options)
    fast = pos.search_state()
    ref = PositionState(pos)
    turn: list[int] = []
    while fast.winner is None:
        acts = fast.actions()
        assert acts == ref.actions()
        assert (fast.to_move, fast.mid_turn, fast.ply) == (ref.to_move, ref.mid_turn, ref.ply)
        for a in acts:
            assert fast.wins_now(a) == _generic_wins_now(fast, a)
        a = rng.choice(acts)
        turn.append(a)
        fast.play(a)
        ref.play(a)
        if not fast.mid_turn:
            pos = pos.play(fast.move_text(turn))
            turn = []
            assert ref.position.to_text() == pos.to_text()
            assert_matches(fast, pos)
    assert ref.winner == fast.winner


_INDEXES: dict[tuple[type, int], dict[str, int]] = {}


def _cells_of(state, move: str) -> list[int]:
    """The cells a move text names, in its order (each board's labels indexed once)."""
    key = (type(state), state.n_cells)
    index = _INDEXES.get(key)
    if index is None:
        index = _INDEXES[key] = {state.label(c): c for c in range(state.n_cells)}
    return [index[t] for t in move.split()]


def play_turn(state, move: str) -> None:
    """Play a whole turn given as text through the state's half-moves."""
    cells = _cells_of(state, move)
    for c in cells:
        assert c in state.actions()
        state.play(c)
    if state.mid_turn:  # a Whirlwind stone that could have been paired
        assert len(cells) == 1
        state.play(state.pass_action)
    assert not state.mid_turn


@pytest.mark.parametrize("kind,options", DEFAULT + SMALL)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_whole_turns_match_position(kind, options, seed):
    rng = random.Random(seed)
    pos = engine.new_game(kind, **options)
    fast = pos.search_state()
    assert_matches(fast, pos)
    while pos.outcome is None:
        move = pos.random_move(rng)
        assert fast.move_text(_cells_of(fast, move)) == move
        play_turn(fast, move)
        pos = pos.play(move)
        assert_matches(fast, pos)


@pytest.mark.parametrize("kind,options", DEFAULT + SMALL)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 40))
def test_playout_ends_where_its_turns_lead(kind, options, seed, plies):
    rng = random.Random(seed)
    pos = engine.new_game(kind, **options)
    for _ in range(plies):
        if pos.outcome is not None:
            break
        pos = pos.play(pos.random_move(rng))
    state = pos.search_state()
    if rng.random() < 0.5 and state.winner is None:  # sometimes start mid-turn
        a = rng.choice(state.actions())
        state.play(a)
        if state.mid_turn:
            pending = [a]
        else:
            pos = pos.play(state.move_text([a]))
            pending = []
    else:
        pending = []
    before = state.copy()
    moves: list[tuple[int, ...]] = []
    winner, placed1, placed2 = state.playout(random.Random(seed), moves)
    assert winner == state.winner and state.to_move == 0
    if moves:
        moves[0] = tuple(pending) + moves[0]
    elif pending:
        raise AssertionError("a playout from mid-turn must finish the turn")
    p1 = p2 = 0
    replay = pos
    for turn in moves:
        seat = replay.to_move
        cells = 0
        for c in turn:
            if c < state.n_cells:
                cells |= 1 << c
        if seat == 1:
            p1 |= cells
        else:
            p2 |= cells
        replay = replay.play(before.move_text(turn))
    if pending:  # the pending stone was placed before the playout began
        p1 &= ~(1 << pending[0]) if pos.to_move == 1 else -1
        p2 &= ~(1 << pending[0]) if pos.to_move == 2 else -1
    assert (placed1, placed2) == (p1, p2)
    assert_matches(state, replay)


@pytest.mark.parametrize("kind,options", SMALL)
def test_copy_is_independent(kind, options):
    rng = random.Random(7)
    pos = engine.new_game(kind, **options)
    for _ in range(6):
        pos = pos.play(pos.random_move(rng))
    state = pos.search_state()
    twin = state.copy()
    state.actions()  # fill any cache first: the copy must not share it either
    snapshot = {n: getattr(state, n) for n in type(state).__slots__}
    twin.play(twin.actions()[0])
    twin.playout(rng)
    assert {n: getattr(state, n) for n in type(state).__slots__} == snapshot
    assert_matches(state, pos)


@pytest.mark.parametrize("kind,options", SMALL)
def test_illegal_half_moves_raise_and_change_nothing(kind, options):
    pos = engine.new_game(kind, **options)
    state = pos.search_state()
    legal = set(state.actions())
    bad = [c for c in range(state.n_cells + 1) if c not in legal][:5] + [-1, state.n_cells + 7, "a1"]
    for a in bad:
        with pytest.raises(ValueError):
            state.play(a)
        with pytest.raises(ValueError):
            state.wins_now(a)
    assert_matches(state, pos)


def test_finished_position_gives_a_finished_state():
    rng = random.Random(3)
    for kind in ("io", "whirlwind"):
        end = engine.new_game(kind).random_playout(rng)
        state = end.search_state()
        assert state.winner == (end.outcome.winner or 0)
        assert state.actions() == []
        with pytest.raises(ValueError):
            state.play(0)


def test_whirlwind_player_without_a_legal_turn_loses_at_once(monkeypatch):
    """RULES.md "Whirlwind", Ruling: the game ends as soon as the player to move has no
    legal turn. Random games never reach it, so the tables are made to report no legal
    stone for White after Black's first stone, as a board with every point barred would."""
    from engine.whirlwind import _Tables

    state = engine.new_game("whirlwind", size=8).search_state()
    first = state.actions()[0]
    monkeypatch.setattr(_Tables, "singles", lambda self, own, empty: 0)
    monkeypatch.setattr(_Tables, "rescued", lambda self, own, empty, singles: 0)
    state.play(first)
    assert (state.winner, state.to_move, state.ply) == (1, 0, 1)
    assert state.actions() == []
