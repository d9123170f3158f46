"""The MC-GRAVE baseline (ai/grave.py, Ludii's recipe, issue 24): legal moves in every game
with the tree kept between moves, a win in one found by the statistics alone, tree reuse
carrying the visits of the position's node over, and its errors. Simulation budgets only
(no time), small boards."""

from __future__ import annotations

import random

import pytest
from test_ai import SMALL, winning_moves
from test_ai_sight import WINS

import ai
import engine
from ai.grave import BIAS, REF, GraveAgent, grave_turn


def pair_visits(node, a: int, b: int) -> int:
    """Visits of the node reached by half-moves ``a`` then ``b`` below ``node`` (0 when the
    tree does not hold it): a pair is in the tree in both orders, and the kept tree is
    entered by the more visited."""
    for c in node.children or []:
        if c.action == a:
            for d in c.children or []:
                if d.action == b:
                    return d.n
    return 0


def test_settings_are_ludiis():
    agent = GraveAgent()
    assert (agent.ref, agent.bias, agent.reuse) == (REF, BIAS, True) == (100, 1e-6, True)


@pytest.mark.parametrize("kind", list(SMALL))
def test_plays_legal_moves_to_the_end_keeping_its_tree(kind):
    """Both seats are GRAVE agents that keep their trees (found again where the reply was
    tried: on these tiny budgets not always); every move is legal and the game ends."""
    pos = engine.new_game(kind, **SMALL[kind])
    agents = {1: GraveAgent(seed=1), 2: GraveAgent(seed=2)}
    while pos.outcome is None:
        agent = agents[pos.to_move]
        move, sims = agent.choose(pos, playouts=30)
        assert move in set(pos.legal_moves()), (pos.to_text(), move)
        assert sims >= 30
        pos = pos.play(move)


@pytest.mark.parametrize("text", [WINS[0][0], WINS[2][0], WINS[4][0]],
                         ids=["coil-a", "coil-b", "braincoral"])
def test_finds_a_win_in_one(text):
    """With no decisive-move check, the statistics alone find the one winning move among
    many (a won playout every time it is tried)."""
    pos = engine.from_text(text)
    wins = set(winning_moves(pos))
    assert wins
    move, _ = grave_turn(pos, playouts=3000, seed=4)
    assert move in wins, (text, move, wins)


def test_tree_reuse_keeps_the_subtree_and_its_visits():
    """After its move, the opponent plays the reply the agent's tree visited most; the next
    search starts from that reply's node with every visit it had."""
    pos = engine.new_game("braincoral", size=3)
    agent = GraveAgent(seed=3)
    move, _ = agent.choose(pos, playouts=2000)
    assert agent.reused == 0  # a fresh tree for the first move
    after = pos.play(move)
    node, state = agent._after_node, agent._after_state
    assert node is not None and state is not None
    reply = max(node.children, key=lambda c: c.n)
    visits = reply.n
    assert visits > 1
    pos2 = after.play(state.move_text([reply.action]))
    agent.choose(pos2, playouts=50)
    assert agent.reused == visits
    # the same game without reuse starts afresh
    fresh = GraveAgent(seed=3, reuse=False)
    fresh.choose(pos, playouts=2000)
    fresh.choose(pos2, playouts=50)
    assert fresh.reused == 0


def test_tree_reuse_in_a_two_stone_game():
    """Whirlwind: the opponent's two-stone turn is found two levels down the kept tree."""
    pos = engine.new_game("whirlwind", size=8)
    agent = GraveAgent(seed=5)
    move, _ = agent.choose(pos, playouts=300)   # Black's first turn: one stone
    after = pos.play(move)
    node, state = agent._after_node, agent._after_state
    assert node is not None and state is not None
    first = max(node.children, key=lambda c: c.n)
    second = max(first.children, key=lambda c: c.n)
    visits = max(pair_visits(node, first.action, second.action),
                 pair_visits(node, second.action, first.action))
    pos2 = after.play(state.move_text([first.action, second.action]))
    agent.choose(pos2, playouts=20)
    assert agent.reused == visits > 0


def test_a_position_outside_the_tree_starts_afresh():
    pos = engine.new_game("coil", size=5)
    agent = GraveAgent(seed=1)
    agent.choose(pos, playouts=50)
    other = engine.new_game("coil", size=5).play("c3").play("d4")
    move, _ = agent.choose(other, playouts=20)
    assert agent.reused == 0 and move in set(other.legal_moves())


def test_errors():
    with pytest.raises(ValueError):
        GraveAgent().choose(engine.new_game("io", size=5))
    done = engine.new_game("io", size=5).resign(1)
    with pytest.raises(ValueError):
        grave_turn(done, playouts=5)


def test_level_5_keeps_its_tree_between_moves():
    """ai.SearchTree (tree reuse for our own search, issue 24): after level 5's move the
    opponent plays the reply the tree visited most; the next search starts from that
    reply's node with its visits, and plays a legal move. A position the tree does not hold
    starts afresh."""
    lv = ai.LEVELS[5]
    pos = engine.new_game("braincoral", size=3)
    tree = ai.SearchTree()
    d = ai.search_move(pos, lv, playouts=1500, seed=2, tree=tree)
    assert tree.reused == 0 and tree.node is not None and tree.after == pos.play(d.move)
    reply = max(tree.node.children or [], key=lambda c: c.n)
    visits = reply.n
    assert visits > 1
    state = tree.after.search_state()
    pos2 = tree.after.play(state.move_text([reply.action]))
    d2 = ai.search_move(pos2, lv, playouts=100, seed=3, tree=tree)
    assert tree.reused == visits
    assert d2.move in set(pos2.legal_moves())
    other = engine.new_game("braincoral", size=3).play(d2.move)
    ai.search_move(other, lv, playouts=50, seed=4, tree=tree)
    assert tree.reused == 0


def test_level_5_keeps_its_tree_in_whirlwind():
    """Two-stone turns: our turn's two half-moves and the opponent's two are walked."""
    lv = ai.LEVELS[5]
    rng = random.Random(2)
    pos = engine.new_game("whirlwind", size=8)
    pos = pos.play(pos.random_move(rng))  # Black's one stone; White to play two
    tree = ai.SearchTree()
    ai.search_move(pos, lv, playouts=1500, seed=2, tree=tree)
    assert tree.node is not None and tree.after is not None
    first = max(tree.node.children or [], key=lambda c: c.n)
    second = max(first.children or [], key=lambda c: c.n)
    visits = max(pair_visits(tree.node, first.action, second.action),
                 pair_visits(tree.node, second.action, first.action))
    assert visits > 0
    state = tree.after.search_state()
    pos2 = tree.after.play(state.move_text([first.action, second.action]))
    d2 = ai.search_move(pos2, lv, playouts=100, seed=3, tree=tree)
    assert tree.reused == visits
    assert d2.move in set(pos2.legal_moves())


def _io_position(turns: int, seed: int) -> engine.Position:
    pos = engine.new_game("io", size=7)
    rng = random.Random(seed)
    for _ in range(turns):
        pos = pos.play(pos.random_move(rng))
    return pos


def test_choose_move_keeps_a_tree_only_where_the_level_does():
    """ai.choose_move's ``tree`` (issue 24): level 5 keeps its tree in Io (Level.keep_tree,
    ai.IO_SEARCH), so its next move, after the reply it expected, starts from that reply's
    node with its visits; level 4 in Io and level 5 in Brain Coral leave the tree empty."""
    assert ai.LEVELS[5].for_kind("io").keep_tree
    assert not ai.LEVELS[5].for_kind("braincoral").keep_tree
    pos = _io_position(4, 3)
    tree = ai.SearchTree()
    d = ai.choose_move(pos, level=5, playouts=800, seed=1, tree=tree)
    after = pos.play(d.move)
    assert tree.reused == 0 and tree.node is not None and tree.after == after
    assert len(d.line) >= 2
    d2 = ai.choose_move(after.play(d.line[1]), level=5, playouts=100, seed=2, tree=tree)
    assert tree.reused > 0
    assert d2.move in set(after.play(d.line[1]).legal_moves())
    for position, level in ((pos, 4), (engine.new_game("braincoral", size=3), 5)):
        untouched = ai.SearchTree()
        ai.choose_move(position, level=level, playouts=200, seed=1, tree=untouched)
        assert untouched.node is None and untouched.after is None
