"""``SearchState.play_listed`` (engine/state.py): the search's tree descent plays half-moves
that ``actions()`` listed without checking them again. On random games of every kind it
must leave the very state ``play`` leaves, and each fast state must really take its
unchecked path (the reference PositionState keeps play's check)."""

from __future__ import annotations

import random

import pytest

import engine
from engine.state import PositionState, SearchState

KINDS = [
    ("coil", {"size": 5}),
    ("coil", {}),
    ("io", {"size": 6}),
    ("io", {}),
    ("braincoral", {"shape": "limping", "size": 3}),
    ("braincoral", {}),
    ("branchingcoral", {"shape": "limping", "size": 3, "bonus": "captures"}),
    ("branchingcoral", {}),
    ("whirlwind", {"size": 8}),
    ("whirlwind", {}),
]


def snapshot(state: SearchState) -> dict[str, object]:
    """Every attribute of ``state`` (instance dict and slots), the shared tables by identity."""
    names = set(getattr(state, "__dict__", {}))
    for cls in type(state).__mro__:
        names.update(getattr(cls, "__slots__", ()))
    return {n: getattr(state, n) for n in sorted(names) if hasattr(state, n)}


@pytest.mark.parametrize("kind,options", KINDS, ids=str)
def test_play_listed_leaves_the_state_play_leaves(kind, options):
    rng = random.Random(f"{kind}{options}")
    for _ in range(2):
        state = engine.new_game(kind, **options).search_state()
        halfmoves = 0
        while state.winner is None:
            action = rng.choice(state.actions())
            checked = state.copy()
            checked.play(action)
            state.play_listed(action)
            assert snapshot(state) == snapshot(checked), (kind, halfmoves, action)
            halfmoves += 1
        assert halfmoves > 0


@pytest.mark.parametrize("kind,options", KINDS[::2], ids=str)
def test_fast_states_skip_the_check_and_the_reference_keeps_it(kind, options):
    position = engine.new_game(kind, **options)
    state = position.search_state()
    assert type(state).play_listed is not SearchState.play_listed  # its own fast path
    ref = PositionState(position)
    occupied_or_off = ref.n_cells + 1  # never an action
    with pytest.raises(ValueError):
        ref.play_listed(occupied_or_off)
    assert ref.position is position and not ref.pending  # changed nothing
