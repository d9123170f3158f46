"""Game knowledge for the search: priors (progressive bias) and candidate filters.

Everything here reads only the documented attributes of the engine's search states; where
a state does not offer them (the slow reference ``PositionState``), the knowledge falls back
to nothing (uniform priors, every candidate).
"""

from __future__ import annotations

from engine.state import SearchState

#: Weight of the prior in the selection value (progressive bias: weight * prior / (n + 1)).
PRIOR_WEIGHT = 0.5


def second_half_candidates(state: SearchState, first: int) -> list[int]:
    """Second half-moves worth testing for a win in one after ``first`` (``state`` is
    mid-turn). Default: every legal one."""
    return state.actions()


def prior_for(state: SearchState):
    """The prior function for ``state``'s game, or None when there is none (see
    :data:`ai.mcts.PriorFn`)."""
    return None
