"""Monte-Carlo tree search over :class:`engine.state.SearchState` half-moves.

The search follows these methods (each part's docstring says which):

* **MCTS** (Kocsis & Szepesvári 2006; Coulom 2006): select down the tree, add one node,
  finish the game with a random playout, back the result up.
* **MCTS-Solver** (Winands, Björnsson & Saito, "Monte-Carlo Tree Search Solver", CG 2008):
  finished positions are proven; a node is proven a win for the player to move there when
  one child is, and proven for the other side (or a draw) when every child is proven. Proven
  losses are never selected again; a proven win at the root is played at once. Each proof
  keeps its distance (``Node.dist``, in turns, as in solvers that score a win by its depth):
  a won node takes its shortest proven win, a lost node its longest loss, so the root plays
  the quickest proven win and, every move lost, the loss that is furthest away.
* **GRAVE** (Cazenave, "Generalized Rapid Action Value Estimation", IJCAI 2015), built on
  **RAVE** (Gelly & Silver, "Combining online and offline knowledge in UCT", ICML 2007): every
  node that has been visited at least ``ref`` times keeps all-moves-as-first (AMAF) statistics
  of the cells each seat placed later in the simulations through it; a child's value mixes its
  own mean with the AMAF mean from the *closest* such ancestor, weighted by
  ``beta = m / (m + n + bias * m * n)`` (``m`` AMAF visits, ``n`` visits).
* **Decisive and anti-decisive moves** (Teytaud & Teytaud, "On the huge benefit of decisive
  moves in Monte-Carlo tree search algorithms", CIG 2010): where a node is expanded near the
  root, every half-move that wins at once (:meth:`SearchState.wins_now`) is found and makes the
  node a proven win, so the side to move never misses a win in one and, one turn up, never
  gives the opponent one it can avoid (those children are proven losses).

Half-moves are searched as they come: a two-placement turn is two tree levels by the same
seat, so a node's statistics are kept from the point of view of the seat that made the
half-move into it (``Node.seat``), never by alternation.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from engine import SearchState

#: A prior function: (state, actions) -> list of prior values in [0, 1] per action, or None.
PriorFn = Callable[[SearchState, list[int]], "list[float] | None"]
#: A node's AMAF table (GRAVE): per cell, visits and wins of seat 1, then of seat 2.
Amaf = tuple[list[int], list[float], list[int], list[float]]
_NO_AMAF: list[float] = []  # the AMAF wins read where a selection has no table (never read)
#: Per byte ``k`` of a bitboard (little-endian), per value of that byte: its cells
#: (``8 * k + bit``), grown as boards need (:func:`_byte_cells`).
_BYTE_CELLS: list[tuple[tuple[int, ...], ...]] = []


def _byte_cells(n_cells: int) -> list[tuple[tuple[int, ...], ...]]:
    """The table of :data:`_BYTE_CELLS` covering bitboards of ``n_cells`` cells (one byte
    more than needed, so a board's every cell fits)."""
    while len(_BYTE_CELLS) <= n_cells // 8:
        k = len(_BYTE_CELLS)
        _BYTE_CELLS.append(tuple(tuple(8 * k + i for i in range(8) if b >> i & 1)
                                 for b in range(256)))
    return _BYTE_CELLS


def _cells(bits: int, table: list[tuple[tuple[int, ...], ...]], n_bytes: int) -> list[int]:
    """The cells set in bitboard ``bits`` (below ``8 * n_bytes``), ascending, decoded a
    byte at a time from ``table`` (:func:`_byte_cells`): several times faster than a
    bit at a time on the dense boards a playout leaves."""
    out: list[int] = []
    k = 0
    for b in bits.to_bytes(n_bytes, "little"):
        if b:
            out += table[k][b]
        k += 1
    return out


class Node:
    """One tree node: the state after ``action`` was played by ``seat``.

    ``n`` visits and ``w`` wins (for ``seat``; a draw counts half) of the simulations through
    it; ``proven`` the seat that wins with perfect play from here (0 a draw) or None;
    ``children`` None until expanded, then the list of child nodes; ``amaf`` None until the
    node has ``ref`` visits, then
    ``(n1, w1, n2, w2)``: per cell, AMAF visits and wins of seat 1 and seat 2 placing there
    later in the simulations through this node (GRAVE); ``turn_depth`` the turns begun from
    the root to here; ``dist``, once ``proven``, the turns the proof takes from here to the
    game's end (0: over, or won within the open turn; 1: the next turn wins).

    Children are made lazily (the search's speed, issue 24): an expanded node keeps its
    half-moves in ``acts`` and, in ``kids`` at the same places, each child's node or None
    where none was needed yet (an unvisited child: no visits, no wins, no proof, its prior
    in ``priors`` or 0.5); the search reads these directly. Reading ``children`` makes the
    missing nodes, so every reader outside the search sees the whole list.
    """

    __slots__ = ("action", "seat", "to_move", "kids", "acts", "priors", "kid_depth", "n",
                 "w", "proven", "amaf", "prior", "turn_depth", "dist", "fresh")

    def __init__(self, action: int, seat: int, prior: float = 0.5, turn_depth: int = 0):
        self.action = action
        self.seat = seat
        self.to_move = 0
        self.kids: list[Node | None] | None = None
        self.acts: list[int] = _NO_ACTS
        self.priors: list[float] | None = None
        self.kid_depth = 0
        self.n = 0
        self.w = 0.0
        self.proven: int | None = None
        self.amaf: Amaf | None = None
        self.prior = prior
        self.turn_depth = turn_depth
        self.dist = 0
        self.fresh = 0  # unvisited-first selection: no child before this place is unvisited

    @property
    def children(self) -> list[Node] | None:
        """The child nodes (every legal half-move here, or the one decisive win, or none for a
        position solved at once), in the order of ``SearchState.actions()`` (shuffled where
        the search visits unvisited children first); None until expanded. Makes the nodes
        not made yet (see the class)."""
        kids = self.kids
        if kids is not None and None in kids:
            for i, c in enumerate(kids):
                if c is None:
                    self.make_kid(i)
        return kids  # type: ignore[return-value]  # every place filled just above

    @children.setter
    def children(self, nodes: list[Node]) -> None:
        self.kids = list(nodes)
        self.acts = [c.action for c in nodes]
        self.priors = None
        self.fresh = 0

    def make_kid(self, i: int) -> Node:
        """Make (and keep) the node of child ``i`` (a place in ``acts``) as expansion would
        have: moved by the seat to move here, its prior, one turn deeper unless mid-turn."""
        pr = self.priors
        c = Node(self.acts[i], self.to_move, 0.5 if pr is None else pr[i], self.kid_depth)
        self.kids[i] = c  # type: ignore[index]  # only expanded nodes have places
        return c


_NO_ACTS: list[int] = []  # the half-moves of a node not expanded (never changed)


class Search:
    """GRAVE MCTS with solver and decisive moves over one root state (see the module).

    Parameters: ``ref`` visits before a node keeps its own AMAF table (GRAVE's ``ref``);
    ``bias`` GRAVE's bias; ``explore`` the UCB exploration constant added to the mixed value
    (small: GRAVE needs little); ``decisive_turns`` how many turns below the root are
    checked for wins in one at expansion (0 = the root turn only, 1 = also the opponent's
    reply, which makes the root avoid losses in one; -1 = never, the solver alone);
    ``prior`` an optional game-knowledge prior function and ``prior_weight`` its weight as
    progressive bias (``prior_weight * prior / (n + 1)``); ``rng`` a ``random.Random``;
    ``use_amaf`` GRAVE on or off; ``solver`` MCTS-Solver back-up on or off; ``candidates``
    a function (state, actions) -> the actions that may win at once, to check fewer
    (default: all; ``ai.knowledge.decisive_candidates`` knows each game); ``exact`` a
    function state -> None or (the exact result for the player to move, +1 / 0 / -1, and
    the turns left to the game's end with perfect play), tried
    where a node below the root is expanded (``ai.endgame.TreeSolver``: Io's last empty
    cells), whose answer proves the node at once; ``unvisited_first`` every child is
    visited once, in random order, before any is chosen by value (Ludii's ``QInit.INF``, as
    in its MC-GRAVE; off: an unvisited child is valued by its AMAF mean, Cazenave's GRAVE).
    """

    def __init__(self, state: SearchState, *, rng: random.Random, ref: int = 50,
                 bias: float = 1e-5, explore: float = 0.1, decisive_turns: int = 1,
                 prior: PriorFn | None = None, prior_weight: float = 0.0,
                 use_amaf: bool = True, solver: bool = True,
                 candidates: Callable[[SearchState, list[int]], list[int]] | None = None,
                 exact: Callable[[SearchState], tuple[int, int] | None] | None = None,
                 unvisited_first: bool = False):
        if state.winner is not None:
            raise ValueError("the game is over: there is no move to search")
        self.state = state
        self.rng = rng
        self.ref = ref
        self.bias = bias
        self.explore = explore
        self.decisive_turns = decisive_turns
        self.prior = prior
        self.prior_weight = prior_weight
        self.use_amaf = use_amaf
        self.solver = solver
        self.candidates = candidates or (lambda _state, actions: actions)
        self.exact = exact
        self.unvisited_first = unvisited_first
        self.n_cells = state.n_cells
        self._bytes = state.n_cells // 8 + 1  # bytes of a bitboard of cells (_cells)
        self._byte_table = _byte_cells(state.n_cells)
        self.root = Node(-1, 3 - state.to_move)
        self.root.to_move = state.to_move
        if use_amaf:
            self.root.amaf = self._new_amaf()
        self.depth0 = 0  # the root's turn_depth (not 0 once a kept subtree is adopted)
        self.playouts = 0

    def adopt(self, node: Node) -> None:
        """Tree reuse: make ``node`` -- the node of this search's state in a tree kept from
        an earlier search of the same game (:class:`ai.SearchTree`) -- the root, with its
        statistics, proofs and subtree. Decisive-move checks count turns from it
        (``decisive_turns``); its nodes expanded before keep the checks they had."""
        node.to_move = self.state.to_move
        if self.use_amaf and node.amaf is None:
            node.amaf = self._new_amaf()
        self.root = node
        self.depth0 = node.turn_depth

    def _new_amaf(self) -> Amaf:
        n = self.n_cells + 1
        return ([0] * n, [0.0] * n, [0] * n, [0.0] * n)

    # -- expansion (with decisive moves) -------------------------------------------------
    def _expand(self, node: Node, state: SearchState) -> None:
        """Create ``node``'s children; where ``node`` is within ``decisive_turns`` turns of
        the root, look for a half-move that wins at once (Teytaud & Teytaud's decisive
        moves) and, if one exists, keep only it, proven a win."""
        p = state.to_move
        node.to_move = p
        if self.exact is not None and node is not self.root and not state.mid_turn:
            solved = self.exact(state)
            if solved is not None:
                v, turns = solved
                node.kids, node.acts = [], []
                node.proven = p if v > 0 else (0 if v == 0 else 3 - p)
                node.dist = turns
                return
        actions = state.actions()
        depth = node.turn_depth
        if state.mid_turn:
            child_depth = depth
        else:
            child_depth = depth + 1
        node.kid_depth = child_depth
        if node.turn_depth - self.depth0 <= self.decisive_turns:
            for a in self.candidates(state, actions):
                if state.wins_now(a):
                    child = Node(a, p, 1.0, child_depth)
                    child.proven = p
                    node.kids, node.acts = [child], [a]
                    node.proven = p
                    node.dist = child_depth - depth
                    return
        priors = self.prior(state, actions) if self.prior is not None else None
        if priors is not None and len(priors) != len(actions):
            raise ValueError("the prior gave a number of values other than the actions'")
        if self.unvisited_first:  # tried in this (random) order; priors kept beside
            order = list(range(len(actions)))
            self.rng.shuffle(order)
            actions = [actions[i] for i in order]
            if priors is not None:
                priors = [priors[i] for i in order]
        node.priors = priors
        node.acts = actions
        node.kids = [None] * len(actions)  # nodes made when first selected (Node.make_kid)

    def guard_root(self, deadline: float | None = None) -> None:
        """Anti-decisive moves at the root (Teytaud & Teytaud): expand the root and prove
        lost every root half-move that ends the turn and leaves the opponent a half-move
        that wins at once. Stops checking at ``deadline`` (a ``time.perf_counter()`` value).
        """
        root = self.root
        if root.children is None:
            self._expand(root, self.state.copy())
        if root.proven is not None:
            return
        clock = time.perf_counter
        p = root.to_move
        assert root.children is not None  # expanded just above
        for c in root.children:
            if deadline is not None and clock() > deadline:
                return
            s = self.state.copy()
            s.play(c.action)
            if s.winner is not None:
                c.proven = s.winner
                c.dist = 0
                continue
            if s.mid_turn or s.to_move == p:
                continue
            for b in self.candidates(s, s.actions()):
                if s.wins_now(b):
                    c.proven = 3 - p
                    c.dist = 1
                    break
        self._try_prove(root)

    def restrict_root(self, actions: list[int]) -> None:
        """Expand the root (if it is not yet) and keep only the children whose half-move
        is in ``actions``, so every simulation from now on starts with one of them. Raises
        ValueError when none of ``actions`` is a root child."""
        root = self.root
        if root.children is None:
            self._expand(root, self.state.copy())
        keep = set(actions)
        assert root.children is not None  # expanded just above
        kids = [c for c in root.children if c.action in keep]
        if not kids:
            raise ValueError("none of the half-moves is legal at the root")
        root.children = kids
        root.proven = None
        if self.solver:
            self._try_prove(root)

    # -- selection --------------------------------------------------------------------------
    def _select(self, node: Node, table: Amaf | None) -> Node | None:
        """The child to descend into (GRAVE value + small UCB term + progressive bias),
        skipping children proven lost for the mover; None when every child is proven. The
        chosen child's node is made here if it was not yet (:meth:`Node.make_kid`)."""
        p = node.to_move
        best_v = -1e9
        log_n = math.log(node.n + 1)
        explore = self.explore
        bias = self.bias
        pw = self.prior_weight
        an_t: list[int] | None
        aw_t: list[float]
        if table is not None:
            an_t = table[0] if p == 1 else table[2]
            aw_t = table[1] if p == 1 else table[3]
        else:
            an_t, aw_t = None, _NO_AMAF  # aw_t is read only with an_t
        skip_proven = self.solver
        # the exploration term of an unvisited child, and its factor for a visited one
        # (explore * sqrt(ln N / n) = e0 / sqrt(n)): computed once per selection
        e0 = explore * math.sqrt(log_n)
        sqrt = math.sqrt
        acts = node.acts
        kids = node.kids
        assert kids is not None  # only expanded nodes are selected from
        if self.unvisited_first:
            i = node.fresh
            while i < len(kids):
                c = kids[i]
                if c is None:
                    node.fresh = i + 1
                    return node.make_kid(i)
                if c.n == 0 and not (skip_proven and c.proven is not None):
                    node.fresh = i + 1
                    return c
                i += 1
            node.fresh = i
        best_a = -1  # the chosen half-move (-1: none) and its node, None until made
        best: Node | None = None
        if an_t is not None and not pw:
            # the common case (GRAVE, no prior), with no per-child test of either; the
            # same arithmetic as the general loop below, in the same order (same values)
            top = 1.0 + e0  # an unvisited child with no AMAF sample
            for a, c in zip(acts, kids, strict=True):
                if c is None:  # not made yet: unvisited, unproven
                    m = an_t[a]
                    v = aw_t[a] / m + e0 if m else top
                else:
                    if skip_proven and c.proven is not None:
                        continue
                    n = c.n
                    m = an_t[a]
                    if n:
                        if m:
                            beta = m / (m + n + bias * m * n)
                            v = (1.0 - beta) * (c.w / n) + beta * aw_t[a] / m
                        else:
                            v = c.w / n
                        if e0:  # no term to add at explore 0 (level 5 in Whirlwind, as the recipe)
                            v += e0 / sqrt(n)
                    else:
                        v = aw_t[a] / m + e0 if m else top
                if v > best_v:
                    best_v = v
                    best_a = a
                    best = c
        else:
            priors = node.priors
            for i, (a, c) in enumerate(zip(acts, kids, strict=True)):
                if c is None:
                    n = 0
                    prior = 0.5 if priors is None else priors[i]
                else:
                    if skip_proven and c.proven is not None:
                        continue
                    n = c.n
                    prior = c.prior
                if an_t is not None:
                    m = an_t[a]
                    if n:
                        assert c is not None  # a visited child has its node
                        q = c.w / n
                        if m:
                            beta = m / (m + n + bias * m * n)
                            q = (1.0 - beta) * q + beta * aw_t[a] / m
                        v = q + e0 / sqrt(n)
                    elif m:
                        v = aw_t[a] / m + e0
                    else:
                        v = 1.0 + e0
                elif n:
                    assert c is not None  # a visited child has its node
                    v = c.w / n + e0 / sqrt(n)
                else:
                    v = 1.0 + e0
                if pw:
                    v += pw * prior / (n + 1)
                if v > best_v:
                    best_v = v
                    best_a = a
                    best = c
        if best is None and best_a >= 0:
            best = node.make_kid(acts.index(best_a))
        return best

    # -- solver -------------------------------------------------------------------------------
    @staticmethod
    def _try_prove(node: Node) -> bool:
        """MCTS-Solver back-up: prove ``node`` from its children where possible, with its
        distance (:attr:`Node.dist`): a win the shortest of its proven winning children, a
        loss or draw the longest of its children."""
        if node.kids is None:
            return False
        p = node.to_move
        depth = node.turn_depth
        all_proven = True
        draw = False
        win = -1
        longest = 0
        for c in node.kids:
            if c is None:  # not made yet: unproven
                all_proven = False
                continue
            pr = c.proven
            if pr is None:
                all_proven = False
                continue
            d = c.dist + c.turn_depth - depth
            if pr == p:
                if win < 0 or d < win:
                    win = d
            else:
                if pr == 0:
                    draw = True
                if d > longest:
                    longest = d
        if win >= 0:
            node.proven = p
            node.dist = win
            return True
        if all_proven:
            node.proven = 0 if draw else 3 - p
            node.dist = longest
            return True
        return False

    # -- one simulation ------------------------------------------------------------------
    def simulate(self) -> None:
        """Run one simulation (select, expand, playout, back up)."""
        state = self.state.copy()
        node = self.root
        path = [node]
        table = node.amaf
        winner = None
        while True:
            if node.proven is not None:
                winner = node.proven
                break
            if node.kids is None:
                if state.winner is not None:
                    node.proven = state.winner
                    node.dist = 0
                    node.to_move = 0
                    winner = state.winner
                    break
                if node.n == 0 and node is not self.root:
                    break  # a new leaf: play out from here; expanded on its next visit
                self._expand(node, state)
                if node.proven is not None:
                    winner = node.proven
                    break
            child = self._select(node, table)
            if child is None:
                # every child proven: prove this node and stop here
                self._try_prove(node)
                winner = node.proven
                break
            state.play_listed(child.action)  # listed by actions() where the node was expanded
            node = child
            path.append(node)
            if node.amaf is not None:
                table = node.amaf
        if winner is None:
            winner, p1, p2 = state.playout(self.rng)
            self.playouts += 1
        else:
            p1 = p2 = 0
            self.playouts += 1
        self._backup(path, winner, p1, p2)

    def _backup(self, path: list[Node], winner: int, p1: int, p2: int) -> None:
        """Back the result up the path: visits, wins, AMAF tables and solver proofs.

        The cells each seat placed below a node (``p1``/``p2`` bitboards, growing by each
        node's own half-move on the way up) are decoded into lists once, at the deepest
        node with an AMAF table, and extended from there (the tables sit at the top)."""
        use_amaf = self.use_amaf
        ref = self.ref
        n_cells = self.n_cells
        prove = self.solver and path[-1].proven is not None
        r1 = 1.0 if winner == 1 else (0.5 if winner == 0 else 0.0)
        r2 = 1.0 - r1
        l1: list[int] | None = None  # the cells of p1 / p2, once a table needs them
        l2: list[int] = []
        for i in range(len(path) - 1, -1, -1):
            node = path[i]
            node.n += 1
            node.w += r1 if node.seat == 1 else r2
            if prove and i < len(path) - 1:
                prove = self._try_prove(node)
            if use_amaf:
                t = node.amaf
                if t is None and node.n >= ref and node.kids is not None:
                    t = node.amaf = self._new_amaf()
                if t is not None:
                    if l1 is None:
                        table, n_bytes = self._byte_table, self._bytes
                        l1, l2 = _cells(p1, table, n_bytes), _cells(p2, table, n_bytes)
                    # a loss adds 0.0 to the wins (no change): only the counts move then
                    counts = t[0]
                    for a in l1:
                        counts[a] += 1
                    if r1:
                        wins = t[1]
                        for a in l1:
                            wins[a] += r1
                    counts = t[2]
                    for a in l2:
                        counts[a] += 1
                    if r2:
                        wins = t[3]
                        for a in l2:
                            wins[a] += r2
            a = node.action
            if 0 <= a < n_cells:
                bit = 1 << a
                if node.seat == 1:
                    if not p1 & bit:
                        p1 |= bit
                        if l1 is not None:
                            l1.append(a)
                elif not p2 & bit:
                    p2 |= bit
                    if l1 is not None:
                        l2.append(a)

    # -- running and reading ------------------------------------------------------------
    def run(self, *, playouts: int | None = None, deadline: float | None = None) -> None:
        """Simulate until ``playouts`` simulations were run, ``deadline`` (a
        ``time.perf_counter()`` value) passes, or the root is proven; at least one."""
        clock = time.perf_counter
        limit = playouts if playouts is not None else 1 << 60
        while self.playouts < limit and self.root.proven is None:
            self.simulate()
            if deadline is not None and clock() >= deadline:
                break

    def best_child(self, node: Node | None = None) -> Node:
        """The child to play at ``node`` (the root by default): the first of
        :func:`ranked_children`."""
        return ranked_children(node or self.root)[0]

    def value(self, node: Node | None = None) -> float:
        """Estimated chance (0..1) that the player to move at ``node`` wins."""
        node = node or self.root
        p = node.to_move
        if node.proven is not None:
            return 1.0 if node.proven == p else (0.5 if node.proven == 0 else 0.0)
        if not node.children:
            return 0.5
        c = self.best_child(node)
        if c.proven is not None:
            return 1.0 if c.proven == p else (0.5 if c.proven == 0 else 0.0)
        return c.w / c.n if c.n else 0.5

    def principal_line(self, limit: int = 12) -> list[int]:
        """Half-moves of the expected continuation (best child at each node)."""
        line: list[int] = []
        node = self.root
        while node.children and len(line) < limit:
            node = self.best_child(node)
            if node.n == 0 and node.proven is None:
                break
            line.append(node.action)
        return line


def ranked_children(node: Node) -> list[Node]:
    """``node``'s children (it must be expanded), best first for the player to move:
    proven wins, the shortest proof first (:attr:`Node.dist`); then the children not
    proven lost (draws included), most visited first (ties: higher mean); then proven
    losses, the furthest loss first (ties: most visited) -- the longest resistance."""
    p = node.to_move
    wins: list[Node] = []
    alive: list[Node] = []
    lost: list[Node] = []
    assert node.children is not None, "ranked_children needs an expanded node"
    for c in node.children:
        if c.proven == p:
            wins.append(c)
        elif c.proven == 3 - p:
            lost.append(c)
        else:
            alive.append(c)
    wins.sort(key=lambda c: c.dist)
    alive.sort(key=lambda c: (c.n, c.w / c.n if c.n else 0.0), reverse=True)
    lost.sort(key=lambda c: (c.dist, c.n), reverse=True)
    return wins + alive + lost

