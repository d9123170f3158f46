"""Coil knowledge for the search (issue 24 item 5): the evaluation of the Phase I pass
(``ai.knowledge.coil_pass_value``, the pass's prior) -- RULES.md "Coil"."""

import random

import engine
from ai import knowledge


def _phase_one(size: int, cells: tuple[str, ...]):
    pos = engine.new_game("coil", size=size)
    for cell in cells:
        pos = pos.play(cell)  # both seats place black stones in Phase I
    state = pos.search_state()
    assert state.phase == "I"
    return pos, state


def test_pass_with_two_cells_closing_a_coil_is_a_win():
    """Two rings of five black stones, each with its sixth cell empty: White can block only
    one, so passing (taking Black) wins -- the evaluation says 1.0, the prior says so."""
    pos, state = _phase_one(5, ("d3", "b3", "c4", "c2", "d4", "h7", "f7", "g8", "g6", "h8"))
    actions = state.actions()
    assert knowledge.coil_pass_value(state, actions) == 1.0
    values = knowledge.coil_prior(state, actions)
    assert values is not None and values[-1] == 1.0 and actions[-1] == state.pass_action
    assert set(values[:-1]) == {0.5}
    # and it is right: after the pass, White blocks one threat, Black closes the other
    after = pos.play("pass")
    black_seat = 1 if after.colour(1) == "black" else 2
    assert black_seat == pos.to_move
    for block, other in (("b2", "f6"), ("f6", "b2")):
        end = after.play(block).play(other)
        assert end.outcome is not None and end.outcome.winner == black_seat


def test_pass_on_an_empty_small_board_is_clearly_wrong():
    """Passing at once on hexhex 5 gives White the first stone on an empty board: the
    evaluation says the passer (Black) rarely wins (the calibration's searches agree)."""
    _pos, state = _phase_one(5, ())
    value = knowledge.coil_pass_value(state, state.actions())
    assert value < 0.2
    prior = knowledge.coil_prior(state, state.actions())
    assert prior is not None and prior[-1] == value < 0.5


def test_pass_value_grows_with_the_black_stones_and_with_one_threat():
    """More black stones, or one cell already closing a coil (White's first stone must go
    there), make passing better; the value stays in (0, 1) until it is a proven win."""
    rng = random.Random(3)
    state = engine.new_game("coil", size=6).search_state()
    last = knowledge.coil_pass_value(state, state.actions())
    for _ in range(40):
        state.play(rng.choice(state.actions()[:-1]))
        actions = state.actions()
        if knowledge.coil_pass_features(state, actions) is None:
            assert knowledge.coil_pass_value(state, actions) == 1.0
            break
        value = knowledge.coil_pass_value(state, actions)
        # a cell that closes a coil keeps doing so in Phase I: one more stone never lowers it
        assert last <= value < 1.0
        last = value
    base = [6.0, 10.0, 6.0, 0.0]
    assert knowledge.coil_pass_value_of(base) < knowledge.coil_pass_value_of([6.0, 10.0, 6.0, 1.0])
    assert knowledge.coil_pass_value_of(base) < knowledge.coil_pass_value_of([6.0, 14.0, 10.0, 0.0])


def test_no_pass_prior_in_phase_two():
    pos = engine.new_game("coil", size=5).play("pass")
    state = pos.search_state()
    assert knowledge.coil_prior(state, state.actions()) is None
