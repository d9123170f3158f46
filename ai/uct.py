"""Plain UCT, to the textbook definition: the baseline the benchmark measures against.

Kocsis & Szepesvári, "Bandit based Monte-Carlo planning" (ECML 2006): each node picks the
child maximising UCB1, ``w/n + c * sqrt(ln N / n)`` with ``c = sqrt(2)`` (unvisited children
first, in random order); one node is added per simulation; the simulation is finished with
uniformly random half-moves (``SearchState.playout``); the most visited root child is played.
It works on the same half-move view (:class:`engine.state.SearchState`) as ``ai.mcts``, with
no solver, no AMAF and no knowledge.
"""

from __future__ import annotations

import math
import random
import time

from engine import Position, SearchState

C = math.sqrt(2.0)


class _Node:
    __slots__ = ("action", "seat", "children", "untried", "n", "w")

    def __init__(self, action: int, seat: int):
        self.action = action
        self.seat = seat
        self.children: list[_Node] = []
        self.untried: list[int] | None = None
        self.n = 0
        self.w = 0.0


def uct_turn(position: Position, *, seconds: float | None = None, playouts: int | None = None,
             seed: int | None = None) -> tuple[str, int]:
    """One whole move of plain UCT for ``position``: ``(move text, simulations run)``.

    A turn of two half-moves runs a second search for the second half-move from the
    first one's node (what is left of the time). ``seconds`` caps the time, ``playouts``
    the simulations per half-move search; at least one cap must be given. Raises ValueError
    for a finished position or no cap.
    """
    if seconds is None and playouts is None:
        raise ValueError("give seconds or playouts")
    if position.outcome is not None:
        raise ValueError("the game is over: there is no move to choose")
    rng = random.Random(seed)
    t0 = time.perf_counter()
    state = position.search_state()
    turn: list[int] = []
    total = 0
    s = state.copy()
    first_share = 0.7
    while True:
        if seconds is None:
            deadline = None
        elif not turn:
            deadline = t0 + seconds * first_share
        else:
            deadline = t0 + seconds
        a, n = uct_search(s, rng, playouts=playouts, deadline=deadline)
        total += n
        turn.append(a)
        s.play(a)
        if not s.mid_turn or s.winner is not None:
            break
    return state.move_text(turn), total


def uct_search(state: SearchState, rng: random.Random, *, playouts: int | None = None,
               deadline: float | None = None) -> tuple[int, int]:
    """UCT from ``state`` (not changed); returns (most visited half-move, simulations)."""
    root = _Node(-1, 3 - state.to_move)
    clock = time.perf_counter
    sims = 0
    limit = playouts if playouts is not None else 1 << 60
    log = math.log
    sqrt = math.sqrt
    while sims < limit:
        s = state.copy()
        node = root
        path = [node]
        while True:
            if node.untried is None:
                node.untried = s.actions() if s.winner is None else []
                rng.shuffle(node.untried)
            if node.untried:
                a = node.untried.pop()
                child = _Node(a, s.to_move)
                node.children.append(child)
                s.play(a)
                path.append(child)
                break
            if not node.children:
                break
            ln = log(node.n)
            node = max(node.children, key=lambda c: c.w / c.n + C * sqrt(ln / c.n))
            s.play(node.action)
            path.append(node)
        if s.winner is None:
            winner = s.playout(rng)[0]
        else:
            winner = s.winner
        for nd in path:
            nd.n += 1
            if winner == nd.seat:
                nd.w += 1.0
            elif winner == 0:
                nd.w += 0.5
        sims += 1
        if deadline is not None and clock() >= deadline:
            break
    best = max(root.children, key=lambda c: c.n)
    return best.action, sims
