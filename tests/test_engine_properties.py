"""Properties every game must have, checked over random games of every kind and several sizes.

Issue 2 "Correctness": every legal move plays; a move not listed is refused; everything
``complete()`` offers is a legal move or the first part of one (and lists exactly the legal
moves where every move is one placement); position text round-trips; replaying the move list
reproduces the position; games end; bad input raises only the engine's typed errors.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import EngineError, IllegalMove, MoveError

# (kind, options) pairs kept small enough for fast exhaustive checks.
CONFIGS = [
    ("coil", {"size": 5}),
    ("coil", {"size": 7}),
    ("io", {"size": 5}),
    ("io", {"size": 8}),
    ("braincoral", {"shape": "limping", "size": 3}),
    ("braincoral", {"shape": "hexhex", "size": 4, "bonus": "opponent"}),
    ("branchingcoral", {"shape": "limping", "size": 4}),
    ("branchingcoral", {"shape": "hexhex", "size": 3, "bonus": "captures"}),
    ("whirlwind", {"size": 8}),
    ("whirlwind", {"size": 10, "setup": "B"}),
]
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_all_five_games_are_registered():
    assert set(engine.GAMES) == {"coil", "io", "braincoral", "branchingcoral", "whirlwind"}
    titles = {k: g.title for k, g in engine.GAMES.items()}
    assert titles == {
        "coil": "Coil",
        "io": "Io",
        "braincoral": "Brain Coral",
        "branchingcoral": "Branching Coral",
        "whirlwind": "Whirlwind",
    }


def _random_game(kind, options, seed, max_plies):
    """Positions of one random game from the start, at most ``max_plies`` moves."""
    rng = random.Random(seed)
    pos = engine.new_game(kind, **options)
    line = [pos]
    moves = []
    while pos.outcome is None and len(moves) < max_plies:
        mv = pos.random_move(rng)
        moves.append(mv)
        pos = pos.play(mv)
        line.append(pos)
    return line, moves


def _first_parts(moves):
    """Stones that can be placed first in some legal move (a pair may be typed in either order)."""
    return {part for m in moves for part in m.split(" ")}


@pytest.mark.parametrize("kind,options", CONFIGS, ids=lambda v: str(v))
@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_random_games_keep_every_property(kind, options, seed):
    line, moves = _random_game(kind, options, seed, max_plies=40)
    rng = random.Random(seed)
    for pos in line[:: max(1, len(line) // 6)] + [line[-1]]:
        legal = list(pos.legal_moves())
        assert len(legal) == len(set(legal)), "legal_moves() repeats a move"
        if pos.outcome is not None:
            assert legal == [] and pos.to_move is None
            continue
        assert pos.to_move in (1, 2)
        # every legal move plays (a sample of them, always including the first and last)
        for mv in {legal[0], legal[-1], *rng.sample(legal, min(8, len(legal)))}:
            nxt = pos.play(mv)
            assert nxt.ply == pos.ply + 1
            assert nxt.last_move == mv
        # a one-placement move not listed is refused, and refused without side effects
        legal_set = set(legal)
        text_before = pos.to_text()
        for label in pos.board.labels:
            if label not in legal_set:
                with pytest.raises((IllegalMove, MoveError)):
                    pos.play(label)
        if "pass" not in legal_set:
            with pytest.raises(IllegalMove):
                pos.play("pass")
        assert pos.to_text() == text_before
        # completion offers only legal moves or first parts of legal moves
        offered = pos.complete("", limit=None)
        firsts = _first_parts(legal)
        assert offered and all(o in legal_set or o in firsts for o in offered)
        if all(" " not in m for m in legal):
            assert offered == legal
        for prefix in {legal[0][:1], legal[-1][:2], legal[0]}:
            got = pos.complete(prefix, limit=25)
            assert len(got) <= 25
            for o in got:
                assert o.startswith(prefix)
                assert o in legal_set or o in firsts or pos.is_legal(o)
    # position text round-trips and replay reproduces the position
    for pos in line:
        text = pos.to_text()
        back = engine.from_text(text)
        assert back.to_text() == text
        assert back == pos
        assert back.to_move == pos.to_move and back.phase == pos.phase
        assert back.outcome == pos.outcome and back.highlights == pos.highlights
    assert engine.replay(kind, options, moves) == line[-1]


@pytest.mark.parametrize("kind,options", CONFIGS, ids=lambda v: str(v))
def test_random_playouts_end_with_an_outcome(kind, options):
    rng = random.Random(7)
    start = engine.new_game(kind, **options)
    for _ in range(3):
        end = start.random_playout(rng)
        assert end.outcome is not None
        assert end.to_move is None
        assert end.outcome.winner in (1, 2, None)
        assert end.ply <= 2 * len(start.board) + 2
        assert list(end.legal_moves()) == []
        with pytest.raises(IllegalMove):
            end.play(next(iter(start.legal_moves())))


@pytest.mark.parametrize("kind", ["coil", "io", "braincoral", "branchingcoral", "whirlwind"])
def test_resign_and_timeout_conclude_the_game(kind):
    pos = engine.new_game(kind)
    pos = pos.play(next(pos.legal_moves()))
    r = pos.resign(1)
    assert r.outcome.winner == 2 and r.outcome.reason == "resignation" and r.to_move is None
    t = pos.time_out(2)
    assert t.outcome.winner == 1 and t.outcome.reason == "timeout"
    assert engine.from_text(r.to_text()) == r
    assert engine.from_text(t.to_text()).outcome == t.outcome
    with pytest.raises(IllegalMove):
        r.resign(2)
    with pytest.raises(ValueError):
        pos.resign(3)
    assert pos.outcome is None  # the original is untouched


JUNK = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", " ", "pass pass", "a1 a1", "A1,B2", "z99", "a0", "aa1", "1a", "e5 f6 g7", "-", "!"]),
)


@pytest.mark.parametrize("kind", ["coil", "io", "braincoral", "branchingcoral", "whirlwind"])
@settings(max_examples=60, deadline=None)
@given(text=JUNK)
def test_junk_moves_raise_only_typed_errors(kind, text):
    pos = engine.new_game(kind)
    try:
        nxt = pos.play(text)
    except EngineError:
        return
    assert nxt.ply == 1  # it was a legal move after all


@settings(max_examples=80, deadline=None)
@given(
    name=st.sampled_from(["coil", "io", "braincoral", "branchingcoral", "whirlwind", "chess", ""]),
    options=st.dictionaries(
        st.sampled_from(["size", "shape", "bonus", "setup", "colour"]),
        st.one_of(st.integers(-5, 30), st.text(max_size=8), st.none(), st.booleans()),
        max_size=3,
    ),
)
def test_junk_options_raise_only_typed_errors(name, options):
    try:
        pos = engine.new_game(name, **options)
    except EngineError:
        return
    assert pos.kind == name and pos.ply == 0
    kind = engine.GAMES[name]
    for spec in kind.options:
        value = pos.options[spec.name]
        if spec.choices is not None:
            assert value in spec.choices
        else:
            assert spec.minimum <= value <= spec.maximum


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=40))
def test_junk_position_text_raises_only_typed_errors(text):
    try:
        engine.from_text(text)
    except EngineError:
        pass


@pytest.mark.parametrize("kind", ["coil", "io", "braincoral", "branchingcoral", "whirlwind"])
def test_corrupted_position_text_is_refused(kind):
    pos = engine.new_game(kind)
    text = pos.to_text()
    for bad in (text.replace(".", "q", 1), text + " extra", text.replace(f"{kind} ", "chess ", 1)):
        with pytest.raises(EngineError):
            engine.from_text(bad)
