"""Whirlwind (Luis Bolaños Mures): RULES.md "Whirlwind".

Stones go on the points of an even n x n grid. Black (seat 1) joins the top and bottom rows,
White (seat 2) the left and right files, with orthogonally connected chains. A turn places one
or two stones (Black's first turn exactly one); at the end of a turn every two of the mover's
stones touching diagonally must share an orthogonal neighbour of the mover's colour (the
*diagonal rule*). A player with no legal turn loses (**Ruling**).

Internal form: bitboards over :class:`engine.geometry.SquareBoard` points (bit ``r*n + f``);
a move is a sorted tuple of one or two point numbers (``()`` for ``pass``; a point named
twice stays twice, for :meth:`WhirlwindPosition._check` to refuse as an illegal move).

Every reachable position keeps both colours free of *breaches* (diagonal pairs without a
shared orthogonal neighbour of their colour): the mover's stones are checked at the end of
every turn and the opponent's turn never touches them. So a turn's legality only depends on
the diagonals of the stones it places, which keeps the tests local:

* a single stone ``p`` is legal when no own diagonal neighbour ``d`` of ``p`` has both
  common orthogonal neighbours of ``p`` and ``d`` free of own stones;
* a pair whose stones are each legal alone is illegal only when the two touch diagonally
  without a shared own neighbour;
* a stone ``p`` that is illegal alone can only be rescued by a second stone on a common
  orthogonal neighbour of ``p`` and each of its breach partners (at most two candidates).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any

from .base import (
    GameKind,
    Highlights,
    OptionSpec,
    Outcome,
    Position,
    Stage,
    Termination,
    prefix_tokens,
    read_rows,
    register,
    rows_text,
    stones_of,
)
from .errors import ErrorReason, IllegalMove, MoveError, OptionError, PositionError
from .geometry import SquareBoard, bits, cells_of, square_board
from .state import SearchState, turn_and_winner

__all__ = ["WhirlwindPosition", "WhirlwindState", "sample_turn", "setup_points", "shortest_crossing",
           "tactical_turn"]

COLOURS = {1: "black", 2: "white"}
_REJECTION_TRIES = 40


def setup_points(n: int, setup: str) -> tuple[int, int]:
    """(black, white) bitboards of the starting stones (RULES.md "Whirlwind", Set-up).

    ``y`` counts rows from the top and ``x`` files from the left, both from 0; Black stands
    where ``(x + 3y) mod 10 == kB``, White where it equals ``(kB + 5) mod 10``, with
    ``kB = (8 - n/2) mod 5 + 5`` for set-up ``"A"`` and ``(8 - n/2) mod 5`` for ``"B"``.
    Raises ValueError for an odd ``n`` or an unknown set-up.
    """
    if n % 2:
        raise ValueError("Whirlwind boards have an even size")
    if setup == "A":
        kb = (8 - n // 2) % 5 + 5
    elif setup == "B":
        kb = (8 - n // 2) % 5
    else:
        raise ValueError(f"unknown set-up {setup!r}")
    kw = (kb + 5) % 10
    black = white = 0
    for r in range(n):
        y = n - 1 - r
        for x in range(n):
            v = (x + 3 * y) % 10
            if v == kb:
                black |= 1 << (r * n + x)
            elif v == kw:
                white |= 1 << (r * n + x)
    return black, white


class _Tables:
    """Per-size tables: diagonal triples, edge masks and shift masks (cached per size)."""

    __slots__ = ("n", "full", "diag", "nmask", "edges", "not_first", "not_last", "labels",
                 "bridges")

    def __init__(self, board: SquareBoard):
        n = board.size
        self.n = n
        self.labels = board.labels
        self.full = board.full
        self.nmask = board.nmask
        diag = []
        for f, r in board.coords:
            triples = []
            for df, dr in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
                d = board.index.get((f + df, r + dr))
                if d is not None:
                    om = (1 << board.index[(f + df, r)]) | (1 << board.index[(f, r + dr)])
                    triples.append((1 << d, om, d))
            diag.append(tuple(triples))
        self.diag = tuple(diag)
        file0 = sum(1 << (r * n) for r in range(n))
        file_last = file0 << (n - 1)
        bottom = (1 << n) - 1
        top = bottom << (n * (n - 1))
        self.edges = {1: (top, bottom), 2: (file0, file_last)}
        self.not_first = board.full & ~file0
        self.not_last = board.full & ~file_last
        self.bridges = {seat: tuple(_bridge_patterns(board, seat, p) for p in range(n * n))
                        for seat in (1, 2)}

    def orth(self, x: int) -> int:
        """Orthogonal neighbours of the points of bitboard ``x`` (by whole-board shifts)."""
        n = self.n
        return (((x << n) | (x >> n) | ((x << 1) & self.not_first) | ((x >> 1) & self.not_last))
                & self.full)

    def distance(self, seat: int, own: int, empty: int) -> int | None:
        """The fewest stones ``seat`` (stones ``own``) must still place on ``empty`` points to
        join its two edges with an orthogonal chain, or None when no path is left: a 0-1
        shortest path by bitboard layers from the first edge (the diagonal rule not read, so
        a lower bound; RULES.md "Whirlwind", Win)."""
        ea, eb = self.edges[seat]
        cur = self.flood(own & ea, own)
        d = 0
        while not cur & eb:
            front = ((self.orth(cur) | ea) & empty) & ~cur
            if not front:
                return None
            cur = self.flood(cur | front, own | cur | front)
            d += 1
        return d

    def save_bridge(self, seat: int, own: int, empty: int, s: int) -> int:
        """Bitboard of the empty points where a stone of ``seat`` (stones ``own``) restores a
        bridge the other colour's stone on ``s`` has just intruded into: the other carrier
        point of a two-carrier link (:func:`_bridge_patterns`) whose other stones are all
        ``seat``'s. MoHex's "save bridge" reply, in Whirlwind's geometry."""
        out = 0
        for need, c in self.bridges[seat][s]:
            if own & need == need and empty >> c & 1:
                out |= 1 << c
        return out

    def ok(self, own: int, p: int) -> bool:
        """True when stone ``p`` (already in bitboard ``own``) has no breach in ``own``."""
        for dbit, om, _ in self.diag[p]:
            if own & dbit and not own & om:
                return False
        return True

    def fixes(self, own: int, p: int, empty: int) -> int:
        """Bitboard of empty points that could each mend every breach of ``p`` in
        ``own | p`` (0 when a breach cannot be mended, or when there is none)."""
        cand = -1
        own |= 1 << p
        for dbit, om, _ in self.diag[p]:
            if own & dbit and not own & om:
                cand &= om & empty
        return 0 if cand == -1 else cand

    def flood(self, seed: int, within: int) -> int:
        """Orthogonally connected points of ``within`` reachable from ``seed``."""
        n = self.n
        nf, nl = self.not_first, self.not_last
        x = seed & within
        while True:
            y = (x | (x << n) | (x >> n) | ((x << 1) & nf) | ((x >> 1) & nl)) & within
            if y == x:
                return x
            x = y

    def connected(self, seat: int, own: int) -> bool:
        """True when ``own`` holds an orthogonal chain joining ``seat``'s two edges."""
        a, b = self.edges[seat]
        if not (own & a and own & b):
            return False
        return bool(self.flood(own & a, own) & b)

    def joins(self, seat: int, own: int, new: int) -> bool:
        """True when a chain through one of the stones of ``new`` (in ``own``) joins both edges."""
        a, b = self.edges[seat]
        if not (own & a and own & b):
            return False
        n = self.n
        nf, nl = self.not_first, self.not_last
        while new:
            x = new & -new
            while True:
                y = (x | (x << n) | (x >> n) | ((x << 1) & nf) | ((x >> 1) & nl)) & own
                if y == x:
                    break
                x = y
            if x & a and x & b:
                return True
            new &= ~x
        return False

    def breach(self, own: int) -> tuple[int, int] | None:
        """A diagonal pair of ``own`` without a shared own orthogonal neighbour, or None."""
        n = self.n
        ne = own & (own >> (n + 1)) & ~(own >> 1) & ~(own >> n) & self.not_last
        nw = own & (own >> (n - 1)) & ~(own << 1) & ~(own >> n) & self.not_first
        if ne:
            p = (ne & -ne).bit_length() - 1
            return p, p + n + 1
        if nw:
            p = (nw & -nw).bit_length() - 1
            return p, p + n - 1
        return None


    def singles(self, own: int, empty: int) -> int:
        """Bitboard of the empty points where one stone of the colour ``own`` is a legal
        turn alone: no own diagonal neighbour lacks an own orthogonal neighbour shared with
        it (RULES.md "Whirlwind", Diagonal rule), by whole-board shifts. ``own`` must be
        free of breaches, as in every reachable position."""
        n = self.n
        nf, nl = self.not_first, self.not_last
        up, down = own >> n, own << n
        right, left = own >> 1, own << 1
        bad = (((own >> (n + 1)) & ~right & ~up & nl)      # north-east diagonal
               | ((own >> (n - 1)) & ~left & ~up & nf)     # north-west
               | ((own << (n - 1)) & ~right & ~down & nl)  # south-east
               | ((own << (n + 1)) & ~left & ~down & nf))  # south-west
        return empty & ~bad

    def partners(self, own: int, empty: int, singles: int, p: int) -> int:
        """Bitboard of the points ``q`` such that ``{p, q}`` is a legal two-stone turn for
        the colour ``own`` (``p`` empty; ``singles`` as :meth:`singles` gives it). A pair
        of stones each legal alone fails only when the two touch diagonally with no own
        stone beside both; a stone illegal alone needs the other on a common orthogonal
        neighbour of it and each of its breach partners (:meth:`fixes`)."""
        pbit = 1 << p
        if singles & pbit:
            out = singles & ~pbit
            for dbit, om, _ in self.diag[p]:
                if out & dbit and not own & om:
                    out &= ~dbit
            rest = self.nmask[p] & empty & ~singles
            while rest:
                low = rest & -rest
                if self.ok(own | pbit | low, low.bit_length() - 1):
                    out |= low
                rest ^= low
            return out
        out = 0
        cand = self.fixes(own, p, empty)
        while cand:
            low = cand & -cand
            q = low.bit_length() - 1
            both = own | pbit | low
            if self.ok(both, p) and self.ok(both, q):
                out |= low
            cand ^= low
        return out

    def rescued(self, own: int, empty: int, singles: int) -> int:
        """Bitboard of the empty points illegal alone that some second stone makes legal
        (each is then one stone of a legal pair)."""
        out = 0
        rest = empty & ~singles
        while rest:
            low = rest & -rest
            if self.partners(own, empty, singles, low.bit_length() - 1):
                out |= low
            rest ^= low
        return out


def _bridge_patterns(board: SquareBoard, seat: int, s: int) -> tuple[tuple[int, int], ...]:
    """The two-carrier links of ``seat`` that point ``s`` is one carrier of, as
    ``(stones needed, other carrier)`` pairs (RULES.md "Whirlwind").

    Two own stones diagonally apart are always joined already (the diagonal rule), and two
    a point apart in a line have one carrier only, so Hex's bridge has no single-stone form
    here. The links with two disjoint one-stone carriers are the *rungs*: two orthogonally
    adjacent empty points ``s`` and ``c`` with own stones on both sides of each (two parallel
    own walls), and the *edge template*: two own stones side by side one line from the
    seat's own edge, whose two edge points below them are the carriers. A stone on one
    carrier is answered on the other.
    """
    n = board.size
    f, r = board.coords[s]
    index = board.index
    out = []

    def at(ff: int, rr: int) -> int | None:
        return index.get((ff, rr))

    # rungs: carriers s and c = s + step; walls on both sides, across the step
    for (df, dr), (sf, sr) in (((0, 1), (1, 0)), ((0, -1), (1, 0)),
                               ((1, 0), (0, 1)), ((-1, 0), (0, 1))):
        c = at(f + df, r + dr)
        walls = [at(f + sf, r + sr), at(f - sf, r - sr),
                 at(f + df + sf, r + dr + sr), at(f + df - sf, r + dr - sr)]
        if c is None or any(w is None for w in walls):
            continue
        out.append((sum(1 << w for w in walls if w is not None), c))
    # edge templates: s on the seat's edge line, the two own stones on the line inside it
    if seat == 1:
        lines = [(r == 0, (0, 1)), (r == n - 1, (0, -1))]
    else:
        lines = [(f == 0, (1, 0)), (f == n - 1, (-1, 0))]
    for on_edge, (inf, inr) in lines:
        if not on_edge:
            continue
        along = (0, 1) if inf else (1, 0)
        for sign in (1, -1):
            c = at(f + sign * along[0], r + sign * along[1])
            a = at(f + inf, r + inr)
            b = None if c is None else at(f + sign * along[0] + inf, r + sign * along[1] + inr)
            if c is None or a is None or b is None:
                continue
            out.append(((1 << a) | (1 << b), c))
    return tuple(out)


def shortest_crossing(board: SquareBoard, stones: int, seat: int) -> list[int]:
    """One shortest orthogonal path of points in bitboard ``stones`` from one of ``seat``'s
    edges to the other (seat 1: bottom row to top row; seat 2: left file to right file),
    as point numbers from the first edge; ``[]`` when ``stones`` does not join the edges.

    Breadth-first search from every stone on the first edge; among equally short paths the
    one found first in point order is returned, so the answer is deterministic.
    """
    n = board.size
    goal: Callable[[int], bool]
    if seat == 1:
        start = [p for p in range(n) if stones >> p & 1]
        goal = lambda p: p >= n * (n - 1)  # noqa: E731
    elif seat == 2:
        start = [r * n for r in range(n) if stones >> (r * n) & 1]
        goal = lambda p: p % n == n - 1  # noqa: E731
    else:
        raise ValueError("seat must be 1 or 2")
    came: dict[int, int | None] = dict.fromkeys(start)
    frontier = start
    while frontier:
        nxt = []
        for p in frontier:
            if goal(p):
                path = [p]
                prev = came[p]
                while prev is not None:
                    path.append(prev)
                    prev = came[prev]
                return path[::-1]
            for q in board.neighbours[p]:
                if q not in came and stones >> q & 1:
                    came[q] = p
                    nxt.append(q)
        frontier = nxt
    return []


@cache
def _tables(n: int) -> _Tables:
    return _Tables(square_board(n))


class _Turns:
    """Every legal turn of one position, grouped for counting and uniform sampling.

    * ``singles`` -- points legal as a one-stone turn (ascending).
    * ``rescues`` -- sorted pairs ``(p, q)``, ``p < q``, legal together where at least one
      stone is illegal alone.
    * ``bad`` -- pairs of two singles that breach each other (touch diagonally without a
      shared own neighbour), as a set of sorted tuples.
    * ``pairs_allowed`` -- False on Black's first turn.
    """

    __slots__ = ("singles", "single_set", "rescues", "bad", "pairs_allowed", "illegal")

    def __init__(self, t: _Tables, own: int, empty: int, pairs_allowed: bool):
        singles = []
        illegal = []
        rest = empty
        diag = t.diag
        while rest:
            low = rest & -rest
            p = low.bit_length() - 1
            o = own | low
            for dbit, om, _ in diag[p]:
                if o & dbit and not o & om:
                    illegal.append(p)
                    break
            else:
                singles.append(p)
            rest ^= low
        self.singles = singles
        self.single_set = set(singles)
        self.illegal = illegal
        self.pairs_allowed = pairs_allowed
        rescues: set[tuple[int, int]] = set()
        bad: set[tuple[int, int]] = set()
        if pairs_allowed:
            for p in illegal:
                cand = t.fixes(own, p, empty)
                while cand:
                    low = cand & -cand
                    q = low.bit_length() - 1
                    both = own | low | (1 << p)
                    if t.ok(both, p) and t.ok(both, q):
                        rescues.add((p, q) if p < q else (q, p))
                    cand ^= low
            ss = self.single_set
            for p in singles:
                for _dbit, om, d in diag[p]:
                    if d > p and d in ss and not own & om:
                        bad.add((p, d))
        self.rescues = sorted(rescues)
        self.bad = bad

    def count(self) -> int:
        """Number of legal turns."""
        k = len(self.singles)
        if not self.pairs_allowed:
            return k
        return k + len(self.rescues) + k * (k - 1) // 2 - len(self.bad)

    def sample(self, rng: random.Random) -> tuple[int, ...] | None:
        """A uniformly random legal turn (sorted tuple), or None when there is none."""
        total = self.count()
        if total == 0:
            return None
        r = rng.randrange(total)
        k = len(self.singles)
        if r < k:
            return (self.singles[r],)
        r -= k
        if r < len(self.rescues):
            return self.rescues[r]
        s = self.singles
        while True:
            i = rng.randrange(k)
            j = rng.randrange(k - 1)
            if j >= i:
                j += 1
            p, q = (s[i], s[j]) if s[i] < s[j] else (s[j], s[i])
            if (p, q) not in self.bad:
                return (p, q)

    def partners(self, t: _Tables, own: int, empty: int, p: int) -> list[int]:
        """Ascending points ``q`` such that ``{p, q}`` is a legal turn."""
        if not self.pairs_allowed or not (empty >> p) & 1:
            return []
        out = []
        if p in self.single_set:
            bad = self.bad
            for q in self.singles:
                if q != p and ((p, q) if p < q else (q, p)) not in bad:
                    out.append(q)
            ss = self.single_set
            for q in _orth(t, p, empty):
                if q not in ss:
                    both = own | (1 << p) | (1 << q)
                    if t.ok(both, p) and t.ok(both, q):
                        out.append(q)
            out.sort()
        else:
            for q in bits(t.fixes(own, p, empty)):
                both = own | (1 << p) | (1 << q)
                if t.ok(both, p) and t.ok(both, q):
                    out.append(q)
        return out

    def first_stones(self) -> set[int]:
        """Points that appear in some legal turn."""
        out = set(self.singles)
        for p, q in self.rescues:
            out.add(p)
            out.add(q)
        return out


def sample_turn(t: _Tables, own: int, occ: int, empty_points: list[int], first: bool,
                rng: random.Random, quick: bool = False) -> tuple[int, ...] | None:
    """A uniformly random legal turn for the player whose stones are ``own``, or None.

    ``empty_points`` lists the empty points (any order), ``occ`` is the bitboard of all
    stones, ``first`` is True on Black's first turn (single stones only). A turn is proposed
    uniformly among every set of one or two empty points and kept when legal; after
    ``_REJECTION_TRIES`` refusals the exact set of legal turns is built and sampled. Either
    way the result is uniform over the legal turns. With ``quick`` each proposal costs one
    ``rng.random()`` draw instead of up to three ``rng.randrange`` calls (the fractional
    part of the draw picks the second point; uniform to within float rounding): faster,
    but another random stream for the same seed.
    """
    diag = t.diag
    randrange = rng.randrange
    rnd = rng.random
    e = len(empty_points)
    total = e if first else e + e * (e - 1) // 2
    for _ in range(_REJECTION_TRIES if total else 0):
        if quick:
            x = rnd() * total
            if x < e:
                r = int(x)
            else:
                r = e
                x = (x - e) * e / (total - e)
                i = int(x)
                j = int((x - i) * (e - 1))
                if i >= e:
                    i = e - 1
        else:
            r = randrange(total)
            if r >= e:
                i = randrange(e)
                j = randrange(e - 1)
        if r < e:
            p = empty_points[r]
            o = own | (1 << p)
            for dbit, om, _d in diag[p]:
                if o & dbit and not o & om:
                    break
            else:
                return (p,)
        else:
            if j >= i:
                j += 1
            p = empty_points[i]
            q = empty_points[j]
            o = own | (1 << p) | (1 << q)
            for dbit, om, _d in diag[p]:
                if o & dbit and not o & om:
                    break
            else:
                for dbit, om, _d in diag[q]:
                    if o & dbit and not o & om:
                        break
                else:
                    return (p, q) if p < q else (q, p)
    return _Turns(t, own, t.full & ~occ, not first).sample(rng)


def tactical_turn(t: _Tables, seat: int, own: int, opp: int, empty: int,
                  fronts: tuple[int, int], opp_fronts: tuple[int, int],
                  opp_last: tuple[int, ...], empt: list[int],
                  rng: random.Random) -> tuple[int, ...] | None:
    """The playout policy's turn for ``seat`` (stones ``own``; the other colour ``opp``;
    ``empty`` the empty points), or None for a uniformly random turn (RULES.md "Whirlwind").

    ``fronts`` / ``opp_fronts`` are, per colour and for each of its two edges, the points a
    stone must stand on to join the stones already joined to that edge (the edge line and
    the orthogonal neighbours of those stones). In order, as Connect6 and MoHex playouts do:

    1. a win: one stone on both fronts, or two adjacent stones, one on each;
    2. a block: the opponent's points that win alone (up to two), else one stone on each
       side of the opponent's two-stone win;
    3. a saved bridge: the other carrier of a link of ours the opponent's last turn
       (``opp_last``) took one carrier of (:meth:`_Tables.save_bridge`);

    the second stone, when only one is chosen, uniformly among ``empt`` (the empty points'
    list) where the pair is legal. Every stone chosen obeys the diagonal rule; a choice that
    does not is dropped. A turn of one stone only when no legal partner was found in a few
    tries. Costs a few whole-board operations when nothing applies.
    """
    ok = t.ok
    na, nb = fronts[0] & empty, fronts[1] & empty
    for p in bits(na & nb):
        if ok(own | 1 << p, p):
            return (p,)
    x = na & t.orth(nb)
    if x:
        for p in bits(x):
            for q in bits(t.nmask[p] & nb):
                o = own | 1 << p | 1 << q
                if ok(o, p) and ok(o, q):
                    return (p, q) if p < q else (q, p)
    oa, ob = opp_fronts[0] & empty, opp_fronts[1] & empty
    cand: list[int] = []
    th = oa & ob
    if th:
        cand = cells_of(th)
    else:
        xa = oa & t.orth(ob)
        if xa:
            xs = cells_of(xa)
            ys = cells_of(ob & t.orth(oa))
            cand = [xs[rng.randrange(len(xs))], ys[rng.randrange(len(ys))]]
    for sp in opp_last:
        sv = t.save_bridge(seat, own, empty, sp)
        if sv:
            cand.extend(cells_of(sv))
    first = -1
    for p in cand:
        if ok(own | 1 << p, p):
            first = p
            break
    if first < 0:
        return None
    o1 = own | 1 << first
    for q in cand:
        if q != first:
            o = o1 | 1 << q
            if ok(o, first) and ok(o, q):
                return (first, q) if first < q else (q, first)
    e = len(empt)
    for _ in range(8 if e > 1 else 0):
        q = empt[rng.randrange(e)]
        if q != first:
            o = o1 | 1 << q
            if ok(o, first) and ok(o, q):
                return (first, q) if first < q else (q, first)
    return (first,)


def _playout_turns(t: _Tables, black: int, white: int, turn: int, ply: int,
                   rng: random.Random, record: list[tuple[int, ...]] | None = None,
                   quick: bool = False, tactics: bool = False, stop: int = 0
                   ) -> tuple[int, int, int, int, int, Termination, tuple[int, ...], int, int]:
    """Random whole turns to the end of the game (RULES.md "Whirlwind"), on bitboards.

    Each turn is uniform among the legal turns (:func:`sample_turn`). ``turn`` is the seat
    to move and ``ply`` the turns played so far (0: Black's first turn, one stone). Returns
    ``(black, white, turn, ply, winner, reason, last, placed1, placed2)``: the final stones,
    the seat that moved last (``reason`` "connection") or had no legal turn ("no moves"),
    the final ply, the winner, the reason, the last turn (sorted tuple, ``()`` when none
    was played) and the points each seat placed. When ``record`` is a list, each turn is
    appended to it; ``quick`` is passed on to :func:`sample_turn`. With ``tactics`` every
    turn after the first is :func:`tactical_turn`'s where it has one (wins, blocks, saved
    bridges), else uniform. With ``stop`` > 0 the playout stops after that many turns, the
    game unfinished: the winner returned is then 0 (no winner yet) and ``turn`` the seat to
    move. Raises nothing.
    """
    occ = black | white
    empt = [c for c in range(len(t.diag)) if not (occ >> c) & 1]
    where = [-1] * len(t.diag)
    for i, c in enumerate(empt):
        where[c] = i
    last: tuple[int, ...] = ()
    placed = [0, 0, 0]
    # Per seat, the own stones connected to each of the seat's edges, kept up to date
    # turn by turn: a connection is a stone in both (cheaper than flooding from the new
    # stones through a long chain every turn).
    n = t.n
    nf, nl = t.not_first, t.not_last
    flood = t.flood
    reach: list[list[tuple[int, int]]] = [[], [], []]  # by seat; [0] unused
    for seat, own in ((1, black), (2, white)):
        for edge in t.edges[seat]:
            reach[seat].append((edge, flood(own & edge, own)))
    # per seat, the two fronts of tactical_turn (kept up to date as the reaches grow)
    fronts: list[list[int]] = [[], [], []]
    if tactics:
        for seat in (1, 2):
            fronts[seat] = [e | t.orth(c) for e, c in reach[seat]]
    end = ply + stop if stop > 0 else -1
    while True:
        if ply == end:
            return black, white, turn, ply, 0, Termination.CONNECTION, last, placed[1], placed[2]
        own = black if turn == 1 else white
        move = None
        if tactics and ply > 0:
            other = white if turn == 1 else black
            fo = fronts[3 - turn]
            fm = fronts[turn]
            move = tactical_turn(t, turn, own, other, t.full & ~occ, (fm[0], fm[1]),
                                 (fo[0], fo[1]), last, empt, rng)
        if move is None:
            move = sample_turn(t, own, occ, empt, ply == 0, rng, quick)
        if move is None:
            return black, white, turn, ply, 3 - turn, Termination.NO_MOVES, last, placed[1], placed[2]
        if record is not None:
            record.append(move)
        bits = 0
        for c in move:
            bits |= 1 << c
            i = where[c]
            lastc = empt.pop()
            if lastc != c:
                empt[i] = lastc
                where[lastc] = i
            where[c] = -1
        occ |= bits
        own |= bits
        placed[turn] |= bits
        if turn == 1:
            black = own
        else:
            white = own
        ply += 1
        last = move
        (ea, ca), (eb, cb) = mine = reach[turn]
        seed = bits & (ea | (ca << n) | (ca >> n) | ((ca << 1) & nf) | ((ca >> 1) & nl))
        if seed:
            ca |= flood(seed, own & ~ca)
            mine[0] = (ea, ca)
            if tactics:
                fronts[turn][0] = ea | t.orth(ca)
        seed = bits & (eb | (cb << n) | (cb >> n) | ((cb << 1) & nf) | ((cb >> 1) & nl))
        if seed:
            cb |= flood(seed, own & ~cb)
            mine[1] = (eb, cb)
            if tactics:
                fronts[turn][1] = eb | t.orth(cb)
        if ca & cb:
            return black, white, turn, ply, turn, Termination.CONNECTION, last, placed[1], placed[2]
        turn = 3 - turn


def _orth(t: _Tables, p: int, empty: int) -> list[int]:
    return list(bits(t.nmask[p] & empty))


class WhirlwindPosition(Position):
    """A Whirlwind position (RULES.md "Whirlwind").

    Seat 1 is Black (top and bottom rows) and moves first, seat 2 White (left and right
    files). Moves: ``"e5"`` or ``"e5 f6"``; a pair is accepted in either order and written
    lower row first, then the file further left (RULES.md "Moves and notation"). A point
    named twice (``"e5 e5"``) is an IllegalMove, like an occupied point.
    """

    __slots__ = ("black", "white", "_turns_cache")

    board: SquareBoard
    black: int  # bitboards: bit p = point p
    white: int
    _turns_cache: _Turns | None  # None until asked

    two_placements = True

    # ---- construction ---------------------------------------------------------------------
    @classmethod
    def initial(cls, options: dict[str, Any]) -> WhirlwindPosition:
        """The set-up position for ``options`` (already validated)."""
        n = options["size"]
        black, white = setup_points(n, options["setup"])
        return cls._make(options, square_board(n), 0, None, 1, black, white)

    @classmethod
    def _make(cls, options: dict[str, Any], board: SquareBoard, ply: int, last: str | None,
              turn: int, black: int, white: int) -> WhirlwindPosition:
        p = cls.__new__(cls)
        p._init_base(options, board, ply, last, turn)
        p.black = black
        p.white = white
        p._turns_cache = None
        return p

    @property
    def _t(self) -> _Tables:
        return _tables(self.board.size)

    def _own(self, seat: int) -> int:
        return self.black if seat == 1 else self.white

    def _empty(self) -> int:
        return self.board.full & ~(self.black | self.white)

    def _turns(self) -> _Turns:
        if self._turns_cache is None:
            self._turns_cache = _Turns(self._t, self._own(self._turn), self._empty(), self.ply > 0)
        return self._turns_cache

    # ---- rules ----------------------------------------------------------------------------
    def _natural_outcome(self) -> Outcome | None:
        t = self._t
        for seat in (1, 2):
            if t.connected(seat, self._own(seat)):
                return Outcome(seat, Termination.CONNECTION)
        if self._turns().count() == 0:
            return Outcome(3 - self._turn, Termination.NO_MOVES)
        return None

    @property
    def stones_this_turn(self) -> int:
        """2, except 1 on Black's first turn (RULES.md "Whirlwind")."""
        return 1 if self.ply == 0 else 2

    @property
    def stage(self) -> Stage:
        """:attr:`Stage.WHIRLWIND_FIRST_TURN` on Black's first turn (one stone), then
        :attr:`Stage.WHIRLWIND_TWO_STONES` (RULES.md "Whirlwind" Turns)."""
        return Stage.WHIRLWIND_FIRST_TURN if self.ply == 0 else Stage.WHIRLWIND_TWO_STONES

    def colour(self, seat: int) -> str:
        """``"black"`` for seat 1, ``"white"`` for seat 2. Raises ValueError for another seat."""
        if seat not in (1, 2):
            raise ValueError("seat must be 1 or 2")
        return COLOURS[seat]

    @property
    def stones(self) -> dict[int, str]:
        """Point number -> ``"black"`` / ``"white"`` for every stone (set-up stones included)."""
        return stones_of(self.black, self.white)

    @property
    def highlights(self) -> Highlights:
        """The last turn's stones (``placed``) and, once won by connection, the winning
        chain: ``chain`` holds every stone of the winner's groups that touch both of their
        edges, ``winning`` one shortest path through them from edge to edge
        (:func:`shortest_crossing`)."""
        placed = tuple(self.last_move.split()) if self.last_move else ()
        winning: frozenset[str] = frozenset()
        chain_labels: frozenset[str] = frozenset()
        out = self.outcome
        if out is not None and out.reason is Termination.CONNECTION and out.winner is not None:
            t = self._t
            own = self._own(out.winner)
            a, b = t.edges[out.winner]
            x = t.flood(own & a, own)
            chain = t.flood(x & b, x)
            labels = self.board.labels
            chain_labels = frozenset(labels[c] for c in self.board.cells_of(chain))
            winning = frozenset(labels[c] for c in shortest_crossing(self.board, chain, out.winner))
        return Highlights(placed=placed, winning=winning, chain=chain_labels)

    # ---- moves ----------------------------------------------------------------------------
    def _text(self, move: tuple[int, ...]) -> str:
        return " ".join(self.board.labels[c] for c in move)

    def legal_moves(self) -> Iterator[str]:
        """Legal turns as canonical text: every single stone (ascending point number, i.e.
        bottom row first), then every pair ``"p q"`` with ``p < q`` in ascending order."""
        if self.outcome is not None:
            return
        turns = self._turns()
        labels = self.board.labels
        for p in turns.singles:
            yield labels[p]
        if not turns.pairs_allowed:
            return
        t, own, empty = self._t, self._own(self._turn), self._empty()
        firsts = sorted(turns.first_stones())
        for p in firsts:
            lp = labels[p] + " "
            for q in turns.partners(t, own, empty, p):
                if q > p:
                    yield lp + labels[q]

    def _parse(self, tokens: list[str]) -> tuple[int, ...]:
        if tokens == ["pass"]:
            return ()
        if len(tokens) > 2:
            raise MoveError(ErrorReason.WHIRLWIND_MOVE_FORM)
        return tuple(sorted(self.board.cell(tok) for tok in tokens))

    def _check(self, move: tuple[int, ...]) -> None:
        if not move:
            raise IllegalMove(ErrorReason.NO_PASSING, game="Whirlwind")
        labels = self.board.labels
        empty = self._empty()
        for c in move:
            if not (empty >> c) & 1:
                raise IllegalMove(ErrorReason.OCCUPIED, cell=labels[c])
        if len(move) == 2 and move[0] == move[1]:
            raise IllegalMove(ErrorReason.WHIRLWIND_SAME_POINT, cell=labels[move[0]])
        if len(move) == 2 and self.ply == 0:
            raise IllegalMove(ErrorReason.WHIRLWIND_FIRST_TURN)
        own = self._own(self._turn)
        for c in move:
            own |= 1 << c
        t = self._t
        for c in move:
            for dbit, om, d in t.diag[c]:
                if own & dbit and not own & om:
                    raise IllegalMove(ErrorReason.DIAGONAL, cell=labels[c], other=labels[d])

    def _apply(self, move: tuple[int, ...]) -> WhirlwindPosition:
        bits = 0
        for c in move:
            bits |= 1 << c
        black, white = self.black, self.white
        if self._turn == 1:
            black |= bits
        else:
            white |= bits
        return self._make(self.options, self.board, self.ply + 1, self._text(move),
                          3 - self._turn, black, white)

    def complete(self, prefix: str, limit: int | None = 25) -> list[str]:
        """Autocomplete for a move being typed (see :meth:`engine.base.Position.complete`).

        While the first point is being typed: the points starting with the text that begin
        some legal turn (alone or as one stone of a legal pair). Once a whole point is typed
        (``"e5"``, ``"e5 "`` or ``"e5 f"``): ``"e5"`` itself when legal alone, other points
        starting with the text, then the legal pairs ``"e5 q"`` in the typed order (which
        :meth:`play` accepts) with ``q`` starting with the second part. Raises TypeError when
        ``prefix`` is not a string.
        """
        tokens, trailing = prefix_tokens(prefix)
        if (limit is not None and limit <= 0) or self.outcome is not None:
            return []
        if len(tokens) > 2:
            return []
        turns = self._turns()
        labels = self.board.labels
        index = self.board._by_label
        out: list[str] = []

        def full() -> bool:
            return limit is not None and len(out) >= limit

        first = tokens[0] if tokens else ""
        second = tokens[1] if len(tokens) == 2 else None
        p = index.get(first)
        if second is None and not trailing:
            firsts = sorted(turns.first_stones())
            if p is not None and p in turns.single_set:
                out.append(first)
            for q in firsts:
                if full():
                    return out
                lab = labels[q]
                if lab.startswith(first) and q != p:
                    out.append(lab)
            if p is None or full():
                return out
        if p is None:
            return []
        if second is None and trailing and p in turns.single_set:
            out.append(first)
        want = second or ""
        exact = second is not None and trailing
        for q in turns.partners(self._t, self._own(self._turn), self._empty(), p):
            if full():
                break
            if labels[q] == want if exact else labels[q].startswith(want):
                out.append(f"{first} {labels[q]}")
        return out[:limit] if limit is not None else out

    def search_state(self) -> WhirlwindState:
        """This position as a fast :class:`WhirlwindState` for tree search."""
        return WhirlwindState(self)

    # ---- random play ----------------------------------------------------------------------
    def _random_internal(self, rng: random.Random) -> tuple[int, ...]:
        mv = self._turns().sample(rng)
        if mv is None:
            raise IllegalMove(ErrorReason.GAME_OVER)
        return mv

    def random_move(self, rng: random.Random | None = None) -> str:
        """A legal turn chosen uniformly at random, as canonical text. Raises IllegalMove
        once the game is over."""
        if self.outcome is not None:
            raise IllegalMove(ErrorReason.GAME_OVER)
        return self._text(self._random_internal(rng or random.Random()))

    def random_playout(self, rng: random.Random | None = None) -> WhirlwindPosition:
        """The final position of the game continued with uniformly random legal turns.

        Each turn is uniform among all legal turns (singles and pairs): a turn is proposed
        uniformly among all sets of one or two empty points and kept when legal; after
        several refusals the exact list of legal turns is built and sampled instead (the
        mixture is still exactly uniform).
        """
        if self.outcome is not None:
            return self
        rng = rng or random.Random()
        black, white, turn, ply, winner, reason, last, _, _ = _playout_turns(
            self._t, self.black, self.white, self._turn, self.ply, rng)
        if not last:
            return self
        end = self._make(self.options, self.board, ply, self._text(last),
                         3 - turn if reason is Termination.CONNECTION else turn, black, white)
        end._outcome_cache = Outcome(winner, reason)
        return end

    # ---- text -----------------------------------------------------------------------------
    def _body(self) -> str:
        """Rows top to bottom (``.`` empty, ``x`` Black, ``o`` White, ``/`` between rows),
        a space, then the seat to move."""
        return f"{rows_text(self.board, self.black, self.white)} {self._turn}"

    @classmethod
    def from_body(cls, options: dict[str, Any], ply: int, last: str | None, body: str) -> WhirlwindPosition:
        """Read :meth:`_body` text back. Raises PositionError for a malformed body or for
        stones no game can reach (two stones of one colour in breach of the diagonal rule)."""
        n = options["size"]
        board = square_board(n)
        parts = body.split(" ")
        if len(parts) != 2:
            raise PositionError("a Whirlwind body is the rows and the seat to move")
        black, white = read_rows(board, parts[0], noun="point")
        if parts[1] not in ("1", "2"):
            raise PositionError("the seat to move must be 1 or 2")
        t = _tables(n)
        for own in (black, white):
            bad = t.breach(own)
            if bad is not None:
                a, b = (board.labels[c] for c in bad)
                raise PositionError(f"{a} and {b} break the diagonal rule; no game reaches this")
        if last is not None:
            cells = [board.cell(tok) for tok in last.split()]
            if len(cells) > 2 or any(not ((black | white) >> c) & 1 for c in cells):
                raise PositionError("the last move must name stones on the board")
        return cls._make(options, board, ply, last, int(parts[1]), black, white)


class WhirlwindState(SearchState):
    """Fast :class:`engine.state.SearchState` for Whirlwind (RULES.md "Whirlwind"); see
    that module for the protocol. Made by :meth:`WhirlwindPosition.search_state`.

    Half-moves: Black's first turn is one point legal alone (the turn ends with it). Every
    later turn starts with any point that begins a legal turn -- legal alone, or one stone
    of a legal pair (a stone in breach of the diagonal rule is offered only when a second
    stone mends it); the second half-move is a point completing a legal pair, or
    :attr:`pass_action` ("end the turn with one stone", offered only when the first stone is
    legal alone). A first stone that no second stone can join ends the turn by itself. The
    first stone stands on the board (in :attr:`black` / :attr:`white`) while the turn is
    open. A player with no legal turn loses (**Ruling**): :attr:`winner` is set as soon as
    the player to move has none.

    Read-only attributes (besides the protocol's ``n_cells``, ``pass_action``, ``to_move``,
    ``winner``, ``mid_turn``, ``ply``):

    * ``tables`` -- the board's tables (``diag``, ``nmask``, ``edges``; helpers
      ``singles``, ``partners``, ``ok``, ``joins``).
    * ``black`` / ``white`` -- bitboards of the stones (seat 1 Black, seat 2 White).
    * ``singles`` -- at the start of a turn, the bitboard of the points where one stone is
      a legal turn for the player to move; kept unchanged while the turn is open; 0 once
      over.
    * ``first`` -- mid-turn, the point of the turn's first stone; else -1.
    * ``partners`` -- mid-turn, the bitboard of the legal second stones; else 0.

    Writable settings (copies keep them): ``playout_cutoff`` (default 0: off; the search's
    ``ai.Level.cutoff``) stops a :meth:`playout` after that many turns and scores it by
    chain distance. ``tactical_playouts`` (default False) makes
    :meth:`playout` play :func:`tactical_turn`'s wins, blocks and saved bridges. Not named
    ``tactics`` on purpose: ``ai.Level.tactics`` does not switch it on, since level 5 with it
    did not beat level 5 without it (issue 24, ``benchmarks/results/issue24-whirl-2026-11-26.txt``:
    15/30 at 1,000 simulations a move, size 10).

    Properties ``own`` / ``opp`` / ``empty`` give the mover's stones, the other seat's and
    the empty points; :meth:`breaches` tells whether a stone would break the diagonal rule.
    :meth:`play` checks legality; :meth:`_play_unchecked` does not.
    """

    __slots__ = ("tables", "n_cells", "pass_action", "to_move", "winner", "mid_turn", "ply",
                 "black", "white", "singles", "first", "partners", "_reach", "_firsts",
                 "tactical_playouts", "playout_cutoff")

    _reach: tuple[int, int] | None  # reach(), until the next half-move
    _firsts: int | None  # _first_mask(), until the next half-move

    def __init__(self, position: WhirlwindPosition):
        """The state of ``position`` (any WhirlwindPosition, finished or not)."""
        t = position._t
        self.tables = t
        self.n_cells = len(t.diag)
        self.pass_action = self.n_cells
        self.black = position.black
        self.white = position.white
        self.ply = position.ply
        self.mid_turn = False
        self.first = -1
        self.partners = 0
        self._reach = None
        self._firsts = None
        self.tactical_playouts = False
        self.playout_cutoff = 0
        self.to_move, self.winner = turn_and_winner(position)
        self.singles = t.singles(self.own, self.empty) if self.winner is None else 0

    # -- read-only views ------------------------------------------------------------------
    @property
    def own(self) -> int:
        """Bitboard of the stones of the seat to move (Black's once over)."""
        return self.white if self.to_move == 2 else self.black

    @property
    def opp(self) -> int:
        """Bitboard of the other seat's stones."""
        return self.black if self.to_move == 2 else self.white

    @property
    def empty(self) -> int:
        """Bitboard of the empty points."""
        return self.tables.full & ~(self.black | self.white)

    def reach(self) -> tuple[int, int]:
        """``(near, far)``: bitboards of the mover's stones (the open turn's first stone
        included) orthogonally connected to each of their two edges (Black: top row, then
        bottom row; White: left file, then right file). Cached until the next half-move.
        For connection threats: a stone joins both when it touches (or lies on) each side."""
        r = self._reach
        if r is None:
            t = self.tables
            own = self.own
            a, b = t.edges[self.to_move or 1]
            r = self._reach = (t.flood(own & a, own), t.flood(own & b, own))
        return r

    def _touches_both(self, p: int) -> bool:
        """True when a stone of the mover on ``p`` would join their two edges."""
        ca, cb = self.reach()
        t = self.tables
        a, b = t.edges[self.to_move]
        bit, nm = 1 << p, t.nmask[p]
        return bool((bit & a or nm & ca) and (bit & b or nm & cb))

    def breaches(self, p: int) -> bool:
        """True when a stone of the player to move on point ``p`` would touch one of their
        stones diagonally with no stone of theirs beside both (RULES.md "Whirlwind",
        Diagonal rule), counting the first stone of an open turn. Raises IndexError for a
        point off the board."""
        return not self.tables.ok(self.own | (1 << p), p)

    # -- protocol -------------------------------------------------------------------------
    def copy(self) -> WhirlwindState:
        """An independent copy (attribute copies only)."""
        s = WhirlwindState.__new__(WhirlwindState)
        s.tables = self.tables
        s.n_cells = self.n_cells
        s.pass_action = self.pass_action
        s.to_move = self.to_move
        s.winner = self.winner
        s.mid_turn = self.mid_turn
        s.ply = self.ply
        s.black = self.black
        s.white = self.white
        s.singles = self.singles
        s.first = self.first
        s.partners = self.partners
        s._reach = self._reach
        s._firsts = self._firsts
        s.tactical_playouts = self.tactical_playouts
        s.playout_cutoff = self.playout_cutoff
        return s

    def _first_mask(self) -> int:
        """Bitboard of the legal first half-moves (turn start, game in play); cached until
        the next half-move."""
        f = self._firsts
        if f is None:
            f = self.singles
            if self.ply:
                f |= self.tables.rescued(self.own, self.empty, self.singles)
            self._firsts = f
        return f

    def actions(self) -> list[int]:
        """Legal half-moves, ascending (mid-turn: the partners, then :attr:`pass_action`
        when the first stone is legal alone). Empty once over."""
        if self.winner is not None:
            return []
        if self.mid_turn:
            out = cells_of(self.partners)
            if self.singles >> self.first & 1:
                out.append(self.pass_action)
            return out
        return cells_of(self._first_mask())

    def _legal(self, action: object) -> bool:
        if self.winner is not None or not isinstance(action, int) or action < 0:
            return False
        if self.mid_turn:
            if action == self.pass_action:
                return bool(self.singles >> self.first & 1)
            return action < self.n_cells and bool(self.partners >> action & 1)
        if action >= self.n_cells:
            return False
        return bool(self._first_mask() >> action & 1)

    def play(self, action: int) -> None:
        """Make one half-move in place. Raises ValueError when it is not in :meth:`actions`."""
        if not self._legal(action):
            raise ValueError(f"half-move {action} is not legal here")
        self._play_unchecked(action)

    def _play_unchecked(self, a: int) -> None:
        """:meth:`play` without the legality check: ``a`` must be in :meth:`actions`
        (anything else corrupts the state). For the search, after :meth:`actions`."""
        seat = self.to_move
        self._reach = None
        self._firsts = None
        if self.mid_turn:
            p = self.first
            self.mid_turn = False
            self.first = -1
            self.partners = 0
            bits = 1 << p
            if a != self.pass_action:
                bits |= 1 << a
                if seat == 1:
                    self.black |= 1 << a
                else:
                    self.white |= 1 << a
            self._end_turn(seat, bits)
            return
        t = self.tables
        bit = 1 << a
        partners = 0
        if self.ply > 0:
            partners = t.partners(self.own, self.empty, self.singles, a)
        if seat == 1:
            self.black |= bit
        else:
            self.white |= bit
        if partners:
            self.mid_turn = True
            self.first = a
            self.partners = partners
        else:
            self._end_turn(seat, bit)

    def _end_turn(self, seat: int, bits: int) -> None:
        """Close the turn that placed ``bits``: a connection wins; else the other seat moves,
        and loses at once when it has no legal turn."""
        t = self.tables
        self.ply += 1
        own = self.black if seat == 1 else self.white
        if t.joins(seat, own, bits):
            self.winner = seat
            self.to_move = 0
            self.singles = 0
            return
        other = 3 - seat
        theirs = self.white if seat == 1 else self.black
        empty = t.full & ~(own | theirs)
        singles = t.singles(theirs, empty)
        if not singles and not t.rescued(theirs, empty, 0):
            self.winner = seat
            self.to_move = 0
            self.singles = 0
            return
        self.to_move = other
        self.singles = singles

    def wins_now(self, action: int) -> bool:
        """True when ``action`` ends the turn (or can, followed by :attr:`pass_action`) with a
        chain of the mover's joining their two edges (RULES.md "Whirlwind", Win). Raises
        ValueError for an illegal action."""
        if not self._legal(action):
            raise ValueError(f"half-move {action} is not legal here")
        if self.mid_turn:
            ca, cb = self.reach()
            if ca & cb:  # the first stone already joined the edges
                return True
            return action != self.pass_action and self._touches_both(action)
        return bool(self.singles >> action & 1) and self._touches_both(action)

    def playout(self, rng: random.Random,
                moves: list[tuple[int, ...]] | None = None) -> tuple[int, int, int]:
        """Play to the end in place (RULES.md "Whirlwind"); see :meth:`SearchState.playout`.

        Policy: an open turn is finished with a uniformly random legal half-move; then, with
        :attr:`tactical_playouts` set, each whole turn is :func:`tactical_turn`'s where it has one;
        otherwise the turn is uniform among the legal turns, as
        :meth:`WhirlwindPosition.random_playout` does, but with one ``rng.random()`` draw
        per proposal (:func:`sample_turn` with ``quick``). When ``moves`` is a list, each
        whole turn played is appended to it as a tuple of half-moves (an open turn's as its
        remaining half-move only). Returns ``(winner, placed1, placed2)``.

        With :attr:`playout_cutoff` = K > 0 the playout stops after K whole turns and names
        the winner by chain distance (an evaluation, not the rules: the state is left
        finished with that winner): each colour needs ``ceil(d / 2)`` more turns for its
        :meth:`_Tables.distance` ``d``; the seat that needs fewer wins, a tie is decided by
        one ``rng.random()`` draw, and a seat with no path left loses.
        """
        placed = [0, 0, 0]
        if self.winner is None and self.mid_turn:
            seat = self.to_move
            acts = self.actions()
            a = acts[rng.randrange(len(acts))]
            if a != self.pass_action:
                placed[seat] |= 1 << a
            self._play_unchecked(a)
            if moves is not None:
                moves.append((a,))
        if self.winner is not None:
            return self.winner, placed[1], placed[2]
        t = self.tables
        black, white, turn, ply, winner, _, _, p1, p2 = _playout_turns(
            t, self.black, self.white, self.to_move, self.ply, rng, moves, True,
            self.tactical_playouts, self.playout_cutoff)
        if winner == 0:  # cut off: the chain-distance evaluation
            empty = t.full & ~(black | white)
            dm = t.distance(turn, black if turn == 1 else white, empty)
            do = t.distance(3 - turn, white if turn == 1 else black, empty)
            if dm is None:
                winner = 3 - turn
            elif do is None:
                winner = turn
            else:
                tm, to = (dm + 1) // 2, (do + 1) // 2
                if tm == to:  # as many turns each: a coin decides
                    winner = turn if rng.random() < 0.5 else 3 - turn
                else:
                    winner = turn if tm < to else 3 - turn
        self.black, self.white, self.ply, self.winner = black, white, ply, winner
        self.to_move = 0
        self.singles = 0
        self._reach = None
        self._firsts = None
        return winner, placed[1] | p1, placed[2] | p2

    def label(self, action: int) -> str:
        """The point's label (``"e5"``), or ``""`` for :attr:`pass_action`."""
        if action == self.pass_action:
            return ""
        return self.tables.labels[action]

    def move_text(self, turn: Sequence[int]) -> str:
        """Canonical text of a whole turn: its points in ascending order (lower row first,
        then the file further left), :attr:`pass_action` dropped: ``"e5"``, ``"e5 f6"``."""
        labels = self.tables.labels
        return " ".join(labels[a] for a in sorted(turn) if a != self.pass_action)




def _check_size(options: dict[str, Any]) -> None:
    """Whirlwind sizes are even. Raises OptionError."""
    if options["size"] % 2:
        raise OptionError(ErrorReason.ODD_SIZE)


register(GameKind(
    key="whirlwind",
    title="Whirlwind",
    summary="Connect your two edges with one or two stones a turn; diagonal links need support.",
    options=(
        OptionSpec("size", int, 14, "board size, even, 8-24 (12-20 recommended)",
                   minimum=8, maximum=24),
        OptionSpec("setup", str, "A", "starting pattern: A or B (colours swapped)",
                   choices=("A", "B")),
    ),
    position_class=WhirlwindPosition,
    validate_extra=_check_size,
    ends=(Termination.CONNECTION, Termination.NO_MOVES),
    places="points",
    move_format="one or two cells: `e5` or `e5 f6`",
    colours=dict(COLOURS),
))
