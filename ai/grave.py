"""MC-GRAVE, Ludii's recipe: a second baseline the benchmark measures level 5 against.

Cazenave, "Generalized Rapid Action Value Estimation" (IJCAI 2015), as Ludii's ``AIFactory``
builds its "MC-GRAVE" agent (``McGRAVE`` selection, random playouts, robust child, tree
reuse), over the same half-move view (:class:`engine.state.SearchState`) and the same
playouts (``SearchState.playout``) as :mod:`ai.mcts`, so that the recipe is measured and
not the language it runs in:

* **GRAVE selection, no exploration term**: a child's value is
  ``(1 - beta) * mean + beta * amaf`` with ``beta = m / (m + n + bias * m * n)`` (``n`` the
  child's visits, ``m`` the AMAF visits of its half-move for its seat in the *reference*
  node's table); the reference node is the deepest node on the path so far with more than
  ``ref`` visits (the root to begin with). ``ref = 100``; ``bias = 1e-6`` as issue 24 gives
  it (Ludii's source writes ``10.0e-6``, i.e. 1e-5: pass ``bias=1e-5`` for that). Ties are
  broken uniformly at random.
* **Unvisited children first** (Ludii's ``QInit.INF``), in random order; one node is added
  per simulation and the simulation is finished with a random playout.
* **Robust child**: the most visited root child is played (ties at random).
* **Tree reuse**: :class:`GraveAgent` keeps its tree from one move to the next and starts
  the next search from the node of the position it is asked about (its own turn, then the
  opponent's), when that node is in the tree.

No solver, no decisive moves, no knowledge. One simplification, shared with ``ai.mcts``: a
node starts its AMAF table when its visits reach ``ref`` (Ludii keeps one in every node from
its first visit), so its table lacks its first ``ref`` simulations; a node's table is read
only once it has more than ``ref`` visits, so this is a small share of what it holds.

A two-placement turn (a Whirlwind pair, Io's opening) is two half-moves of the same seat, as
in ``ai.mcts``; statistics are kept for the seat that made the half-move into a node.
"""

from __future__ import annotations

import random
import time

from engine import Position, SearchState

from .reuse import follows, turn_below

#: Ludii's MC-GRAVE settings (issue 24): visits before a node is a reference, and the bias.
REF = 100
BIAS = 1e-6

#: A node's AMAF table: per cell, visits and wins of seat 1, then of seat 2.
_Amaf = tuple[list[int], list[float], list[int], list[float]]


class GraveNode:
    """One node: the state after ``action`` was played by ``seat``; ``n`` visits, ``w``
    wins for ``seat`` (a draw counts half); ``children`` the expanded ones; ``untried`` the
    half-moves not yet expanded (None until the node is first selected from, then in random
    order); ``amaf`` None until ``n`` reaches the agent's ``ref`` (see the module)."""

    __slots__ = ("action", "seat", "children", "untried", "n", "w", "amaf")

    def __init__(self, action: int, seat: int):
        self.action = action
        self.seat = seat
        self.children: list[GraveNode] = []
        self.untried: list[int] | None = None
        self.n = 0
        self.w = 0.0
        self.amaf: _Amaf | None = None


class GraveAgent:
    """Ludii's MC-GRAVE player (see the module) for one seat of one game.

    ``ref`` and ``bias`` are GRAVE's; ``seed`` seeds its random numbers; ``reuse`` keeps the
    tree between moves (Ludii's recipe; False starts each move afresh). Call
    :meth:`choose` once per own move, with the position as it stands then.
    """

    def __init__(self, *, ref: int = REF, bias: float = BIAS, seed: int | None = None,
                 reuse: bool = True):
        self.ref = ref
        self.bias = bias
        self.reuse = reuse
        self.rng = random.Random(seed)
        self.root: GraveNode | None = None
        self.state: SearchState | None = None      # the root's state
        self._after: Position | None = None        # the position after the agent's last move
        self._after_node: GraveNode | None = None  # its node
        self._after_state: SearchState | None = None
        #: Visits the root had when the last :meth:`choose` began (0: a fresh tree).
        self.reused = 0

    # -- tree reuse ---------------------------------------------------------------------------
    def _find(self, position: Position) -> tuple[GraveNode, SearchState] | None:
        """The node of ``position`` below the node after the agent's last move: that node
        itself, or one turn of the opponent's below it (``position.last_move``); None when
        it is not in the tree."""
        after, node, state = self._after, self._after_node, self._after_state
        if after is None or node is None or state is None:
            return None
        if position == after:
            return node, state
        if not follows(after, position):
            return None
        assert position.last_move is not None  # follows() checked it
        return turn_below(node, state, position.last_move)

    def _set_root(self, position: Position) -> None:
        found = self._find(position) if self.reuse else None
        if found is None:
            state = position.search_state()
            self.root = GraveNode(-1, 3 - state.to_move)
            self.state = state
        else:
            self.root, self.state = found
        self.reused = self.root.n

    # -- a move -------------------------------------------------------------------------------
    def choose(self, position: Position, *, seconds: float | None = None,
               playouts: int | None = None) -> tuple[str, int]:
        """One whole move for ``position``: ``(move text, simulations run)``.

        ``seconds`` caps the wall time of the whole move, ``playouts`` the simulations of
        each half-move's search; at least one must be given. A two-half-move turn searches
        its first half-move for 70% of the time, then goes on from the chosen child's
        subtree for the rest; a one-half-move turn takes the whole time. Raises ValueError for a finished position or no cap.
        """
        if seconds is None and playouts is None:
            raise ValueError("give seconds or playouts")
        if position.outcome is not None:
            raise ValueError("the game is over: there is no move to choose")
        t0 = time.perf_counter()
        self._set_root(position)
        assert self.root is not None and self.state is not None  # set just above
        start = self.state.copy()
        turn: list[int] = []
        total = 0
        seat = start.to_move
        first_share = 0.7 if position.stones_this_turn == 2 else 1.0
        while True:
            if seconds is None:
                deadline = None
            else:
                deadline = t0 + seconds * (first_share if not turn else 1.0)
            total += self.search(playouts=playouts, deadline=deadline)
            child = self.robust_child()
            turn.append(child.action)
            self.state.play(child.action)
            self.root = child
            s = self.state
            if s.winner is not None or not s.mid_turn or s.to_move != seat:
                break
        self._after = position.play(start.move_text(turn))
        self._after_node = self.root
        self._after_state = self.state
        return start.move_text(turn), total

    def robust_child(self) -> GraveNode:
        """The root child with the most visits (ties at random): Ludii's ``RobustChild``.
        Expands the root first if no simulation has."""
        assert self.root is not None and self.state is not None
        root = self.root
        if not root.children:
            self.search(playouts=1)
        best = max(c.n for c in root.children)
        return self.rng.choice([c for c in root.children if c.n == best])

    def search(self, *, playouts: int | None = None, deadline: float | None = None) -> int:
        """Simulate from the root until ``playouts`` simulations or ``deadline`` (a
        ``time.perf_counter()`` value); at least one. Returns the simulations run."""
        assert self.root is not None and self.state is not None
        if self.root.amaf is None:  # the root is always a reference (Ludii: no parent)
            n = self.state.n_cells + 1
            self.root.amaf = ([0] * n, [0.0] * n, [0] * n, [0.0] * n)
        clock = time.perf_counter
        limit = playouts if playouts is not None else 1 << 60
        sims = 0
        while sims < limit:
            self._simulate()
            sims += 1
            if deadline is not None and clock() >= deadline:
                break
        return sims

    def _simulate(self) -> None:
        """Select (GRAVE), add one node, play out uniformly at random, back up."""
        assert self.root is not None and self.state is not None
        rng = self.rng
        ref = self.ref
        bias = self.bias
        n_cells = self.state.n_cells
        s = self.state.copy()
        node = self.root
        path = [node]
        table = node.amaf
        while True:
            if s.winner is not None:
                break
            if node.untried is None:
                node.untried = s.actions()
                rng.shuffle(node.untried)
            if node.untried:
                a = node.untried.pop()
                child = GraveNode(a, s.to_move)
                node.children.append(child)
                s.play(a)
                path.append(child)
                break
            # GRAVE selection: the reference table is the deepest with > ref visits
            if node.n > ref and node.amaf is not None:
                table = node.amaf
            assert table is not None  # the root always has one
            p = s.to_move
            an = table[0] if p == 1 else table[2]
            aw = table[1] if p == 1 else table[3]
            best: GraveNode | None = None
            best_v = -1.0
            ties = 0
            for c in node.children:
                n = c.n
                q = c.w / n
                m = an[c.action]
                if m:
                    beta = m / (m + n + bias * m * n)
                    q = (1.0 - beta) * q + beta * aw[c.action] / m
                if q > best_v:
                    best_v = q
                    best = c
                    ties = 1
                elif q == best_v:
                    ties += 1
                    if rng.random() * ties < 1.0:
                        best = c
            assert best is not None  # a node with no untried half-move has children
            node = best
            s.play(node.action)
            path.append(node)
        if s.winner is None:
            winner, p1, p2 = s.playout(rng)
        else:
            winner, p1, p2 = s.winner, 0, 0
        r1 = 1.0 if winner == 1 else (0.5 if winner == 0 else 0.0)
        r2 = 1.0 - r1
        for i in range(len(path) - 1, -1, -1):
            nd = path[i]
            nd.n += 1
            nd.w += r1 if nd.seat == 1 else r2
            t = nd.amaf
            if t is None and nd.n >= ref:
                t = nd.amaf = ([0] * (n_cells + 1), [0.0] * (n_cells + 1),
                               [0] * (n_cells + 1), [0.0] * (n_cells + 1))
            if t is not None:
                _amaf_add(t[0], t[1], p1, r1)
                _amaf_add(t[2], t[3], p2, r2)
            a = nd.action
            if 0 <= a < n_cells:
                if nd.seat == 1:
                    p1 |= 1 << a
                else:
                    p2 |= 1 << a


def _amaf_add(counts: list[int], wins: list[float], bits: int, r: float) -> None:
    """Add one AMAF sample ``r`` for every cell set in ``bits``."""
    while bits:
        low = bits & -bits
        a = low.bit_length() - 1
        counts[a] += 1
        wins[a] += r
        bits ^= low


def grave_turn(position: Position, *, seconds: float | None = None,
               playouts: int | None = None, seed: int | None = None) -> tuple[str, int]:
    """One move of a fresh :class:`GraveAgent` (no tree to reuse): ``(move text,
    simulations)``; arguments and errors as :meth:`GraveAgent.choose`."""
    return GraveAgent(seed=seed).choose(position, seconds=seconds, playouts=playouts)
