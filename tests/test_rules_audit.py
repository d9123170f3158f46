"""Independent audit of the engine against RULES.md.

Each game has a slow reference implementation here, written straight from the text of
RULES.md with plain sets and dicts (no bitboards, no engine internals): its own board
geometry and labels, its own legality, captures, scoring and end of game. Seeded random games
are played on several sizes and options, and at every checked ply the engine's
``legal_moves()``, stones, seat to move, phase and outcome must equal the reference's.
Notation, options, error classes and the public docstrings are audited at the end.

Cells are ``(f, r)`` pairs here (file and row from 0, row 0 at the bottom), named by
:func:`ref_label`.
"""

from __future__ import annotations

import random
from collections import deque

import pytest
from docstring_support import undocumented
from engine_support import rows_diagram

import engine
from engine import IllegalMove, MoveError, OptionError

# =============================================================================================
# Reference geometry (RULES.md "Boards and coordinates")
# =============================================================================================


def ref_letters(f: int) -> str:
    """File letters: a..z, then aa, ab, ... (bijective base 26)."""
    out = ""
    f += 1
    while f:
        f, rem = divmod(f - 1, 26)
        out = "abcdefghijklmnopqrstuvwxyz"[rem] + out
    return out


def ref_label(cell: tuple[int, int]) -> str:
    f, r = cell
    return f"{ref_letters(f)}{r + 1}"


HEX_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))
ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (-1, 1), (1, -1), (-1, -1))


def ref_hex_cells(shape: str, size: int) -> list[tuple[int, int]]:
    """Cells of a hex board in row order (bottom row first, left to right)."""
    if shape == "hexhex":
        n = size
        return [(f, r) for r in range(2 * n - 1) for f in range(2 * n - 1) if abs(f - r) <= n - 1]
    m = size
    return [(f, r) for r in range(2 * m) for f in range(2 * m) if -(m - 1) <= f - r <= m]


def ref_neighbours(cells, steps) -> dict[tuple[int, int], list[tuple[int, int]]]:
    s = set(cells)
    return {(f, r): [(f + a, r + b) for a, b in steps if (f + a, r + b) in s] for f, r in cells}


def engine_stones(pos) -> dict[str, str]:
    """The engine's stones as label -> colour."""
    return {pos.board.labels[c]: col for c, col in pos.stones.items()}


def ref_stones(stones: dict) -> dict[str, str]:
    return {ref_label(c): col for c, col in stones.items()}


def test_hex_boards_match_the_reference_shapes_and_labels():
    for shape, sizes in (("hexhex", range(3, 13)), ("limping", range(2, 11))):
        for size in sizes:
            board = engine.hex_board(shape, size)
            cells = ref_hex_cells(shape, size)
            assert list(board.labels) == [ref_label(c) for c in cells]
            nb = ref_neighbours(cells, HEX_STEPS)
            for i, c in enumerate(cells):
                assert {board.labels[j] for j in board.neighbours[i]} == {ref_label(d) for d in nb[c]}
            perimeter = {ref_label(c) for c in cells if len(nb[c]) < 6}
            assert {board.labels[i] for i in board.cells_of(board.perimeter)} == perimeter
            if shape == "hexhex":
                assert len(board) == 3 * size * size - 3 * size + 1
            else:  # rows of m+1 .. 2m, then 2m-1 .. m (sides alternating m+1 and m)
                lengths = [len(board.row_cells(r)) for r in range(board.rows)]
                assert lengths == list(range(size + 1, 2 * size + 1)) + list(range(2 * size - 1, size - 1, -1))


def test_named_cells_of_rules_md():
    h7 = engine.hex_board("hexhex", 7)
    assert len(h7) == 127
    assert [h7.labels[c] for c in h7.row_cells(0)] == ["a1", "b1", "c1", "d1", "e1", "f1", "g1"]
    assert [h7.labels[c] for c in h7.row_cells(6)][0::12] == ["a7", "m7"]
    assert [h7.labels[c] for c in h7.row_cells(12)] == ["g13", "h13", "i13", "j13", "k13", "l13", "m13"]
    assert h7.coords[h7.cell("g7")] == (6, 6) and len(h7.neighbours[h7.cell("g7")]) == 6
    l4 = engine.hex_board("limping", 4)
    assert len(l4) == 48
    assert [l4.labels[c] for c in l4.row_cells(0)] == ["a1", "b1", "c1", "d1", "e1"]
    assert [l4.labels[c] for c in l4.row_cells(7)] == ["e8", "f8", "g8", "h8"]
    # a file slants up-left: (f, r+1) is drawn half a cell left of (f, r), one row up
    x0, y0 = h7.point(h7.cell("d4"))
    x1, y1 = h7.point(h7.cell("d5"))
    assert x1 == pytest.approx(x0 - 0.5) and y1 > y0


def test_labels_after_z():
    from engine.geometry import file_letter

    for f in (0, 25, 26, 27, 51, 52, 701, 702):
        assert file_letter(f) == ref_letters(f)
    assert file_letter(26) == "aa" and file_letter(27) == "ab"


# =============================================================================================
# Coil (RULES.md "Coil")
# =============================================================================================


class RefCoil:
    """Coil from RULES.md: Phase I black placements or a pass, Phase II own colours."""

    def __init__(self, size: int):
        self.cells = ref_hex_cells("hexhex", size)
        self.nb = ref_neighbours(self.cells, HEX_STEPS)
        self.edge = {c for c in self.cells if len(self.nb[c]) < 6}
        self.black: set = set()
        self.white: set = set()
        self.turn = 1
        self.black_seat = None
        self.coil = False

    def enclosed(self, black: set, start) -> bool:
        """Every path from ``start`` off the board passes a black stone other than ``start``."""
        seen = {start}
        todo = deque([start])
        while todo:
            c = todo.popleft()
            if c in self.edge:  # one more step leaves the board
                return False
            for d in self.nb[c]:
                if d not in seen and d not in black:
                    seen.add(d)
                    todo.append(d)
        return True

    def has_coil(self, black: set) -> bool:
        return any(self.enclosed(black, c) for c in self.cells)

    def legal(self) -> set[str]:
        if self.outcome() is not None:
            return set()
        empty = [c for c in self.cells if c not in self.black and c not in self.white]
        if self.black_seat is None:
            out = {ref_label(c) for c in empty if not self.has_coil(self.black | {c})}
            return out | {"pass"}
        return {ref_label(c) for c in empty}

    def play(self, move: str) -> None:
        if move == "pass":
            assert self.black_seat is None
            self.black_seat = self.turn
        else:
            c = next(c for c in self.cells if ref_label(c) == move)
            if self.black_seat is None or self.turn == self.black_seat:
                self.black.add(c)
                self.coil = self.has_coil(self.black)
                assert not (self.coil and self.black_seat is None)
            else:
                self.white.add(c)
        self.turn = 3 - self.turn

    def outcome(self):
        if self.coil:
            return (self.black_seat, "coil")
        if len(self.black) + len(self.white) == len(self.cells):
            return (3 - self.black_seat, "board full")
        return None

    def stones(self):
        return ref_stones({**{c: "black" for c in self.black}, **{c: "white" for c in self.white}})


def same_outcome(pos, ref_outcome, scores=None) -> None:
    out = pos.outcome
    if ref_outcome is None:
        assert out is None and pos.to_move is not None
    else:
        assert out is not None and (out.winner, out.reason) == ref_outcome, pos.to_text()
        assert pos.to_move is None and list(pos.legal_moves()) == []
        if scores is not None:
            assert out.scores == scores


@pytest.mark.parametrize("size,games,seed", [(5, 4, 1), (6, 2, 2)])
def test_coil_random_games_match_the_reference(size, games, seed):
    rng = random.Random(seed)
    coils = phase1_refusals = 0
    for _ in range(games):
        pos = engine.new_game("coil", size=size)
        ref = RefCoil(size)
        pass_at = rng.randrange(len(ref.cells) // 3, len(ref.cells))  # long Phase I: dense black
        while True:
            same_outcome(pos, ref.outcome())
            assert engine_stones(pos) == ref.stones()
            assert pos.phase == ("I" if ref.black_seat is None else "II")
            if pos.outcome is not None:
                coils += pos.outcome.reason == "coil"
                break
            assert pos.to_move == ref.turn
            moves = list(pos.legal_moves())
            if ref.black_seat is None and (pos.ply % 4 == 0 or pos.ply > pass_at - 4):
                legal = ref.legal()
                assert set(moves) == legal, pos.to_text()
                phase1_refusals += len(ref.cells) - len(ref.black) - (len(legal) - 1)
            elif ref.black_seat is not None and pos.ply % 7 == 0:
                assert set(moves) == ref.legal()
            if ref.black_seat is None:
                mv = "pass" if pos.ply >= pass_at or moves == ["pass"] else rng.choice(moves[:-1])
                if mv != "pass":  # the engine offered it: the reference must agree it is legal
                    c = next(c for c in ref.cells if ref_label(c) == mv)
                    assert not ref.has_coil(ref.black | {c})
            else:
                mv = rng.choice(moves)
            pos = pos.play(mv)
            ref.play(mv)
            assert pos.last_move == mv
    assert coils >= 1 and phase1_refusals >= 1  # both rulings were exercised


def coil_position(size: int, black: set, phase: str, turn: int = 1, black_seat=2):
    rows = rows_diagram(engine.hex_board("hexhex", size), {ref_label(c): "x" for c in black})
    seat = "-" if phase == "I" else str(black_seat)
    return engine.from_text(f"coil size={size} 20 - {rows} {turn} {phase} {seat}")


def test_coil_dense_phase_one_boards_match_the_reference():
    """Phase I on random dense black boards: every cell the engine offers closes no coil and
    every cell it withholds would close one (RULES.md Ruling)."""
    rng = random.Random(7)
    ref = RefCoil(5)
    checked = 0
    while checked < 12:
        black = {c for c in ref.cells if rng.random() < 0.55}
        if ref.has_coil(black):
            continue
        ref.black = black
        pos = coil_position(5, black, "I")
        assert set(pos.legal_moves()) == ref.legal()
        checked += 1


def test_coil_edge_loops_and_enclosures():
    ref = RefCoil(5)
    lab = {ref_label(c): c for c in ref.cells}
    # a ring of black stones around a1 region closed only with the edge: not a coil
    edge_arc = {lab[x] for x in ("a2", "b2", "b1")}
    assert not ref.has_coil(edge_arc)
    assert coil_position(5, edge_arc, "II").outcome is None
    # six around c3 (an interior cell): a coil, whatever c3 holds
    ring = {lab[x] for x in ("b3", "d3", "c2", "c4", "d4", "b2")}
    assert ref.has_coil(ring)
    assert coil_position(5, ring, "II").outcome == engine.Outcome(2, "coil")
    # a black cell on the edge with all its on-board neighbours black is not enclosed
    corner = lab["a1"]
    assert not ref.has_coil({corner, *ref.nb[corner]})
    assert coil_position(5, {corner, *ref.nb[corner]}, "II").outcome is None


# =============================================================================================
# Io (RULES.md "Io")
# =============================================================================================


class RefIo:
    """Io from RULES.md: seat 1 White; one-bound-one-free opening; othello captures."""

    COL = {1: "white", 2: "black"}

    def __init__(self, n: int):
        self.n = n
        self.cells = [(f, r) for r in range(n) for f in range(n)]
        self.adj = ref_neighbours(self.cells, ORTH + DIAG)
        self.corners = {(0, 0), (n - 1, 0), (0, n - 1), (n - 1, n - 1)}
        self.stones: dict = {}
        self.turn = 1
        self.opening = True
        self.last_placed = {1: None, 2: None}  # each seat's last placed stone

    def captures(self, stones, cell, colour) -> set:
        out = set()
        for df, dr in ORTH + DIAG:
            line = []
            f, r = cell[0] + df, cell[1] + dr
            while 0 <= f < self.n and 0 <= r < self.n and stones.get((f, r)) not in (None, colour):
                line.append((f, r))
                f, r = f + df, r + dr
            if line and 0 <= f < self.n and 0 <= r < self.n and stones.get((f, r)) == colour:
                out.update(line)
        return out

    def place(self, stones, cell, colour) -> set:
        assert cell not in stones
        stones[cell] = colour
        flips = self.captures(stones, cell, colour)
        for c in flips:
            stones[c] = colour
        return flips

    def free_cells(self, stones) -> list:
        return [c for c in self.cells if c not in stones and c not in self.corners
                and all(d not in stones for d in self.adj[c])]

    def legal(self) -> set[str]:
        if self.outcome() is not None:
            return set()
        empty = [c for c in self.cells if c not in self.stones]
        if not self.opening:
            return {ref_label(c) for c in empty}
        anchor = self.last_placed[3 - self.turn]
        if anchor is None:  # White's first stone
            return {ref_label(c) for c in empty if c not in self.corners}
        out = set()
        for b in self.adj[anchor]:
            if b in self.stones:
                continue
            after = dict(self.stones)
            self.place(after, b, self.COL[self.turn])
            free = self.free_cells(after)
            if not free:
                out.add(ref_label(b))
            out.update(f"{ref_label(b)} {ref_label(f)}" for f in free)
        return out

    def play(self, move: str) -> set:
        cells = [next(c for c in self.cells if ref_label(c) == t) for t in move.split()]
        flips = set()
        first_stone = not self.stones
        for k, c in enumerate(cells):
            got = self.place(self.stones, c, self.COL[self.turn])
            if k == 1:
                assert not got  # the free stone never captures
            flips |= got
        if self.opening and len(cells) == 1 and not first_stone:
            self.opening = False
        self.last_placed[self.turn] = cells[-1]
        self.turn = 3 - self.turn
        return flips

    def outcome(self):
        if len(self.stones) < len(self.cells):
            return None
        w = sum(1 for v in self.stones.values() if v == "white")
        b = len(self.stones) - w
        return (1 if w > b else 2 if b > w else None, "stones")

    def scores(self):
        w = sum(1 for v in self.stones.values() if v == "white")
        return {1: w, 2: len(self.stones) - w}


@pytest.mark.parametrize("n,games,seed", [(5, 30, 3), (6, 30, 4), (7, 8, 5), (8, 8, 6)])
def test_io_random_games_match_the_reference(n, games, seed):
    rng = random.Random(seed)
    draws = flips_seen = bound_alone = 0
    for _ in range(games):
        pos = engine.new_game("io", size=n)
        ref = RefIo(n)
        while True:
            same_outcome(pos, ref.outcome(), ref.scores() if ref.outcome() else None)
            assert engine_stones(pos) == ref_stones(ref.stones)
            assert pos.scores == ref.scores()
            assert pos.phase == ("opening" if ref.opening else "main")
            if pos.outcome is not None:
                draws += pos.outcome.winner is None
                break
            assert pos.to_move == ref.turn
            moves = list(pos.legal_moves())
            assert set(moves) == ref.legal(), pos.to_text()
            assert len(moves) == len(set(moves))
            mv = rng.choice(moves)
            was_opening = ref.opening
            flips = ref.play(mv)
            pos = pos.play(mv)
            bound_alone += was_opening and not ref.opening
            flips_seen += bool(flips)
            assert pos.highlights.flipped == {ref_label(c) for c in flips}
    assert flips_seen and bound_alone == games
    if n % 2:
        assert draws == 0


def io_position(n, white=(), black=(), turn=1):
    rows = []
    for r in range(n - 1, -1, -1):
        row = ""
        for f in range(n):
            lab = ref_label((f, r))
            row += "o" if lab in white else "x" if lab in black else "."
        rows.append(row)
    return engine.from_text(f"io size={n} 30 - {'/'.join(rows)} {turn} main - -")


def test_io_captures_in_every_direction_at_once():
    # White plays d4 (centre of 7x7): each of the 8 lines holds one black then a white stone
    white = {"f6", "d6", "b6", "f4", "b4", "f2", "d2", "b2"}
    black = {"e5", "d5", "c5", "e4", "c4", "e3", "d3", "c3"}
    pos = io_position(7, white, black).play("d4")
    assert pos.highlights.flipped == black
    assert all(col == "white" for col in engine_stones(pos).values())
    ref = RefIo(7)
    ref.stones = {c: ("white" if ref_label(c) in white else "black")
                  for c in ref.cells if ref_label(c) in white | black}
    assert {ref_label(c) for c in ref.captures(ref.stones, (3, 3), "white")} == black


def test_io_even_board_draw():
    n = 6
    rows = ["oooooo", "oooooo", "xxxxoo", "xxxxxx", "xxxooo", "xxxx.x"]  # 17 o, 18 x before e1
    pos = engine.from_text(f"io size={n} 35 - {'/'.join(rows)} 1 main - -")
    end = pos.play("e1")  # e1 captures nothing: d2, e2, f2 are white, the row is black to the edge
    assert end.highlights.flipped == frozenset()
    assert end.outcome == engine.Outcome(None, "stones", {1: 18, 2: 18})


# =============================================================================================
# Brain Coral and Branching Coral (RULES.md "Brain Coral", "Branching Coral")
# =============================================================================================


class RefCoral:
    """Both Corals from RULES.md; ``branching`` picks the game."""

    COL = {1: "black", 2: "white"}

    def __init__(self, shape, size, bonus, branching):
        self.cells = ref_hex_cells(shape, size)
        self.nb = ref_neighbours(self.cells, HEX_STEPS)
        self.edge = {c for c in self.cells if len(self.nb[c]) < 6}
        self.bonus = bonus
        self.branching = branching
        self.stones: dict = {}
        self.turn = 1
        self.last_placer = None
        self.captured = {1: 0, 2: 0}

    def drains(self, empty: set) -> bool:
        """Every empty cell reaches an empty perimeter cell through empty cells."""
        for start in empty:
            seen = {start}
            todo = [start]
            ok = False
            while todo:
                c = todo.pop()
                if c in self.edge:
                    ok = True
                    break
                for d in self.nb[c]:
                    if d in empty and d not in seen:
                        seen.add(d)
                        todo.append(d)
            if not ok:
                return False
        return True

    def is_legal(self, c) -> bool:
        if c in self.stones:
            return False
        empty = {d for d in self.cells if d not in self.stones}
        after = empty - {c}
        if self.branching:
            if sum(d in empty for d in self.nb[c]) < 2:
                return False
            return self.drains(after)
        if not self.drains(after):
            return False
        return all(any(d in after for d in self.nb[s]) for s in [*self.stones, c])

    def legal(self) -> set[str]:
        return {ref_label(c) for c in self.cells if self.is_legal(c)}

    def play(self, move: str) -> dict:
        c = next(c for c in self.cells if ref_label(c) == move)
        self.stones[c] = self.COL[self.turn]
        removed = {}
        if self.branching:
            for s in self.nb[c]:
                if s in self.stones and sum(d not in self.stones for d in self.nb[s]) < 2:
                    removed[s] = self.stones[s]
            for s, col in removed.items():
                del self.stones[s]
                if col != self.COL[self.turn]:
                    self.captured[self.turn] += 1
        self.last_placer = self.turn
        self.turn = 3 - self.turn
        return removed

    def groups(self, colour) -> list[set]:
        left = {c for c, v in self.stones.items() if v == colour}
        out = []
        while left:
            start = left.pop()
            g = {start}
            todo = [start]
            while todo:
                c = todo.pop()
                for d in self.nb[c]:
                    if d in left:
                        left.discard(d)
                        g.add(d)
                        todo.append(d)
            out.append(g)
        return out

    def scores(self) -> dict:
        out = {}
        for seat in (1, 2):
            mine, theirs = self.groups(self.COL[seat]), self.groups(self.COL[3 - seat])
            bonus = {"own": len(mine), "opponent": len(theirs), "none": 0,
                     "captures": self.captured[seat]}[self.bonus]
            out[seat] = max((len(g) for g in mine), default=0) + bonus
        return out

    def outcome(self):
        if self.legal():
            return None
        s = self.scores()
        winner = 1 if s[1] > s[2] else 2 if s[2] > s[1] else self.last_placer
        return (winner, "score")


CORAL_CONFIGS = [
    (key, shape, size, bonus)
    for key, bonuses in (("braincoral", ("own", "opponent", "none")),
                         ("branchingcoral", ("own", "opponent", "captures", "none")))
    for (shape, size) in (("limping", 2), ("limping", 3), ("limping", 4), ("hexhex", 3), ("hexhex", 4))
    for bonus in bonuses
]


@pytest.mark.parametrize("key,shape,size,bonus", CORAL_CONFIGS)
def test_coral_random_games_match_the_reference(key, shape, size, bonus):
    rng = random.Random(f"{key}{shape}{size}{bonus}")
    games = 2 if size <= 3 else 1
    for _ in range(games):
        pos = engine.new_game(key, shape=shape, size=size, bonus=bonus)
        ref = RefCoral(shape, size, bonus, key == "branchingcoral")
        while True:
            assert engine_stones(pos) == ref_stones(ref.stones)
            assert pos.scores == ref.scores()
            same_outcome(pos, ref.outcome(), ref.scores())
            if pos.outcome is not None:
                break
            assert pos.to_move == ref.turn
            moves = list(pos.legal_moves())
            assert set(moves) == ref.legal(), pos.to_text()
            mv = rng.choice(moves)
            removed = ref.play(mv)
            pos = pos.play(mv)
            assert pos.highlights.removed == {ref_label(c): col for c, col in removed.items()}


def coral_position(key, shape, size, marks: dict[str, str], turn=1, bonus="own", extra=""):
    body = f"{rows_diagram(engine.hex_board(shape, size), marks)} {turn}" + (f" {extra}" if extra else "")
    return engine.from_text(f"{key} shape={shape},size={size},bonus={bonus} 9 - {body}")


def test_branching_captures_both_colours_and_counts_only_the_opponents():
    # limping 2, Black to play c2: c1 (black) and b1 (white) each keep fewer than two empty
    # neighbours once c2 is filled; both go together. Black's captures count b1 only.
    pos = engine.from_text("branchingcoral shape=limping,size=2,bonus=captures 8 d4 "
                           ".o/x.o/.o../.ox 1 0,1 -")
    ref = RefCoral("limping", 2, "captures", True)
    lab = {ref_label(c): c for c in ref.cells}
    ref.stones = {lab[k]: v for k, v in engine_stones(pos).items()}
    ref.captured = {1: 0, 2: 1}
    assert ref.is_legal(lab["c2"]) and pos.is_legal("c2")
    removed = ref.play("c2")
    after = pos.play("c2")
    assert {ref_label(c): col for c, col in removed.items()} == {"c1": "black", "b1": "white"}
    assert after.highlights.removed == {"c1": "black", "b1": "white"}
    assert engine_stones(after) == ref_stones(ref.stones)
    assert ref.captured == {1: 1, 2: 1}
    assert after.scores == ref.scores()


def test_brain_coral_perimeter_stone_needs_an_empty_neighbour():
    # limping 2: a1's on-board neighbours are b1, a2, b2. With all three filled a1 is refused
    # even though a1 lies on the perimeter.
    marks = {"b1": "x", "a2": "o", "b2": "x"}
    pos = coral_position("braincoral", "limping", 2, marks)
    ref = RefCoral("limping", 2, "own", False)
    lab = {ref_label(c): c for c in ref.cells}
    ref.stones = {lab[k]: ("black" if v == "x" else "white") for k, v in marks.items()}
    assert not ref.is_legal(lab["a1"])
    assert "a1" not in set(pos.legal_moves())
    with pytest.raises(IllegalMove):
        pos.play("a1")
    assert set(pos.legal_moves()) == ref.legal()


# =============================================================================================
# Whirlwind (RULES.md "Whirlwind")
# =============================================================================================


class RefWhirlwind:
    """Whirlwind from RULES.md with plain sets of (f, r) points."""

    COL = {1: "black", 2: "white"}

    def __init__(self, n: int, setup: str):
        self.n = n
        kb = (8 - n // 2) % 5 + (5 if setup == "A" else 0)
        self.own = {1: set(), 2: set()}
        for y in range(n):  # from the top
            for x in range(n):
                v = (x + 3 * y) % 10
                if v == kb:
                    self.own[1].add((x, n - 1 - y))
                elif v == (kb + 5) % 10:
                    self.own[2].add((x, n - 1 - y))
        self.turn = 1
        self.turns_played = 0
        self.winner = None

    def inside(self, p):
        return 0 <= p[0] < self.n and 0 <= p[1] < self.n

    def breaches_at(self, stones: set, p) -> bool:
        """Whether stone ``p`` touches a stone of ``stones`` diagonally with no shared
        orthogonal neighbour in ``stones``."""
        f, r = p
        for df, dr in DIAG:
            d = (f + df, r + dr)
            if d in stones and (f + df, r) not in stones and (f, r + dr) not in stones:
                return True
        return False

    def breach_free(self, stones: set) -> bool:
        return not any(self.breaches_at(stones, p) for p in stones)

    def legal(self) -> set[str]:
        if self.outcome() is not None:
            return set()
        return self._turns()

    def _turns(self) -> set[str]:
        own = self.own[self.turn]
        assert self.breach_free(own)  # the rule held at the end of this player's last turn
        occ = self.own[1] | self.own[2]
        empty = [(f, r) for r in range(self.n) for f in range(self.n) if (f, r) not in occ]
        out = {ref_label(p) for p in empty if not self.breaches_at(own | {p}, p)}
        if self.turns_played == 0:
            return out
        for i, p in enumerate(empty):
            for q in empty[i + 1:]:  # empty is sorted by row then file: p is canonical first
                both = own | {p, q}
                # the old stones were breach-free; more stones of the same colour cannot
                # break a pair of them, so only the new stones need looking at
                if not self.breaches_at(both, p) and not self.breaches_at(both, q):
                    out.add(f"{ref_label(p)} {ref_label(q)}")
        return out

    def chain(self, seat) -> bool:
        own = self.own[seat]
        if seat == 1:
            start = {p for p in own if p[1] == self.n - 1}
            goal = lambda p: p[1] == 0  # noqa: E731
        else:
            start = {p for p in own if p[0] == 0}
            goal = lambda p: p[0] == self.n - 1  # noqa: E731
        seen = set(start)
        todo = list(start)
        while todo:
            p = todo.pop()
            if goal(p):
                return True
            for df, dr in ORTH:
                q = (p[0] + df, p[1] + dr)
                if q in own and q not in seen:
                    seen.add(q)
                    todo.append(q)
        return False

    def play(self, move: str) -> None:
        for t in move.split():
            f = ord(t[0]) - 97
            self.own[self.turn].add((f, int(t[1:]) - 1))
        assert self.breach_free(self.own[self.turn])
        if self.chain(self.turn):
            self.winner = (self.turn, "connection")
        assert not self.chain(3 - self.turn)
        self.turn = 3 - self.turn
        self.turns_played += 1

    def outcome(self):
        if self.winner:
            return self.winner
        if not self._turns():
            return (3 - self.turn, "no moves")
        return None

    def stones(self):
        return ref_stones({**{p: "black" for p in self.own[1]}, **{p: "white" for p in self.own[2]}})


def canonical_pair(a: str, b: str) -> str:
    """RULES.md: lower row first, then the file further left."""
    key = lambda s: (int(s[1:]), s[0])  # noqa: E731
    return " ".join(sorted((a, b), key=key))


@pytest.mark.parametrize("n", range(8, 26, 2))
@pytest.mark.parametrize("setup", ["A", "B"])
def test_whirlwind_setups_match_the_formula(n, setup):
    if n > 24:
        with pytest.raises(OptionError):
            engine.new_game("whirlwind", size=n, setup=setup)
        return
    pos = engine.new_game("whirlwind", size=n, setup=setup)
    ref = RefWhirlwind(n, setup)
    assert engine_stones(pos) == ref.stones()
    # a quarter turn maps Black onto White
    turn = {(r, n - 1 - f) for f, r in ref.own[1]}
    assert turn == ref.own[2]


@pytest.mark.parametrize("n,setup,games,seed",
                         [(8, "A", 8, 11), (8, "B", 8, 12), (10, "A", 3, 13), (10, "B", 3, 14)])
def test_whirlwind_random_games_match_the_reference(n, setup, games, seed):
    rng = random.Random(seed)
    pairs = 0
    for _ in range(games):
        pos = engine.new_game("whirlwind", size=n, setup=setup)
        ref = RefWhirlwind(n, setup)
        while True:
            assert engine_stones(pos) == ref.stones()
            same_outcome(pos, ref.outcome())
            if pos.outcome is not None:
                break
            assert pos.to_move == ref.turn
            moves = list(pos.legal_moves())
            assert set(moves) == ref.legal(), pos.to_text()
            assert len(moves) == len(set(moves))
            mv = rng.choice(moves)
            if " " in mv:
                a, b = mv.split()
                assert mv == canonical_pair(a, b)
                pairs += 1
                # the engine takes the pair in either order and writes it canonically
                pos = pos.play(f"{b.upper()}, {a}")
            else:
                pos = pos.play(mv)
            assert pos.last_move == mv
            ref.play(mv)
    assert pairs


# 8x8, White to move: d5, e5, f5 are the only empty points and every turn on them leaves a
# white diagonal pair without white support (RULES.md Whirlwind, Ruling "no moves").
NO_TURN = ["xxxxxxxx", "xxxxxxxx", "xxxxoxxx", "ooo...oo", "xxooxoox", "xxxxxxxx",
           "xxxxxxxx", "xxxxxxxx"]


def ref_from_rows(rows: list[str], turn: int) -> RefWhirlwind:
    n = len(rows)
    ref = RefWhirlwind(n, "A")
    ref.own = {1: set(), 2: set()}
    for k, row in enumerate(rows):
        for f, ch in enumerate(row):
            if ch != ".":
                ref.own[1 if ch == "x" else 2].add((f, n - 1 - k))
    ref.turn, ref.turns_played = turn, 30
    return ref


@pytest.mark.parametrize("extra,turns", [("", set()), ("f4", {"d5 e5"})])
def test_whirlwind_no_moves_ruling(extra, turns):
    rows = [list(r) for r in NO_TURN]
    if extra:
        rows[8 - int(extra[1:])][ord(extra[0]) - 97] = "x"
    rows = ["".join(r) for r in rows]
    pos = engine.from_text(f"whirlwind size=8,setup=A 30 - {'/'.join(rows)} 2")
    ref = ref_from_rows(rows, 2)
    assert ref._turns() == turns
    same_outcome(pos, ref.outcome())
    assert set(pos.legal_moves()) == ref.legal()


def test_whirlwind_first_turn_is_one_stone_and_canonical_pairs():
    pos = engine.new_game("whirlwind", size=8)
    singles = list(pos.legal_moves())
    assert all(" " not in m for m in singles)
    with pytest.raises(IllegalMove, match="first turn"):
        pos.play(f"{singles[0]} {singles[-1]}")
    pos = pos.play(singles[0])
    pos = pos.play(next(iter(pos.legal_moves())))
    for a, b in (("f6", "e5"), ("e6", "f5"), ("f5", "e5")):
        if pos.is_legal(f"{a} {b}"):
            assert pos.play(f"{a} {b}").last_move == canonical_pair(a, b)


def test_whirlwind_same_point_twice_is_an_illegal_move_not_a_parse_error():
    """RULES.md "Moves and notation": text naming cells of the board is well-formed; placing
    a second stone on the point the first one took is a move the rules forbid (as Io does)."""
    pos = engine.new_game("whirlwind", size=8).play("b1")
    assert pos.is_legal("d2")
    with pytest.raises(IllegalMove, match="d2"):
        pos.play("d2 d2")
    with pytest.raises(IllegalMove, match="d2"):
        pos.play("D2,d2")
    io = engine.new_game("io", size=7).play("d4")
    with pytest.raises(IllegalMove, match="c3 is named twice"):
        io.play("c3 c3")


# =============================================================================================
# Notation, options, errors (RULES.md "Moves and notation", the games' option lines)
# =============================================================================================


def test_move_text_is_case_insensitive_with_commas_or_spaces():
    p = engine.new_game("io", size=7).play("D4")
    assert p.last_move == "d4"
    bound = next(m for m in p.legal_moves() if " " in m)
    a, b = bound.split()
    for text in (f"{a.upper()} {b.upper()}", f"{a},{b}", f" {a} ,  {b} ", f"{a}, {b.upper()}"):
        assert p.play(text).last_move == bound
    c = engine.new_game("coil", size=5)
    assert c.play("PASS").last_move == "pass" and c.play(" C3 ").last_move == "c3"


@pytest.mark.parametrize("kind", ["coil", "io", "braincoral", "branchingcoral", "whirlwind"])
def test_parse_errors_and_illegal_moves_are_classified_as_rules_md_says(kind):
    pos = engine.new_game(kind)
    for junk in ("z99", "hello", "", "   ", "e", "5", "a0", "aa1"):
        with pytest.raises(MoveError):
            pos.play(junk)
    # pass where it is not allowed is an illegal move, not a parse error
    if kind != "coil":
        with pytest.raises(IllegalMove):
            pos.play("pass")
    else:
        phase2 = pos.play("pass")
        with pytest.raises(IllegalMove):
            phase2.play("pass")
    # an occupied cell is an illegal move
    first = next(iter(pos.legal_moves()))
    if first == "pass":
        first = next(m for m in pos.legal_moves() if m != "pass")
    after = pos.play(first)
    if kind == "whirlwind":
        occupied = after.board.labels[next(iter(after.stones))]
    else:
        occupied = first.split()[0]
    with pytest.raises(IllegalMove, match="occupied"):
        after.play(occupied)
    # a move that fails changes nothing
    assert after.to_text() == pos.play(first).to_text()


OPTION_TABLE = {
    "coil": ({"size": 7}, {"size": (5, 12)}),
    "io": ({"size": 9}, {"size": (5, 19)}),
    "braincoral": ({"shape": "limping", "size": 4, "bonus": "own"}, None),
    "branchingcoral": ({"shape": "limping", "size": 4, "bonus": "own"}, None),
    "whirlwind": ({"size": 14, "setup": "A"}, {"size": (8, 24)}),
}


@pytest.mark.parametrize("kind", sorted(OPTION_TABLE))
def test_option_defaults_and_ranges(kind):
    defaults, ranges = OPTION_TABLE[kind]
    assert engine.new_game(kind).options == defaults
    for name, (lo, hi) in (ranges or {}).items():
        step = 2 if kind == "whirlwind" else 1
        for v in range(lo - 3, hi + 4):
            ok = lo <= v <= hi and (v - lo) % step == 0
            if ok:
                assert engine.new_game(kind, **{name: v}).options[name] == v
            else:
                with pytest.raises(OptionError):
                    engine.new_game(kind, **{name: v})


@pytest.mark.parametrize("kind", ["braincoral", "branchingcoral"])
def test_coral_size_ranges_per_shape_and_bonuses(kind):
    for shape, lo, hi in (("limping", 2, 10), ("hexhex", 3, 11)):
        for v in range(0, 14):
            if lo <= v <= hi:
                assert engine.new_game(kind, shape=shape, size=v).board.size == v
            else:
                with pytest.raises(OptionError) as err:
                    engine.new_game(kind, shape=shape, size=v)
                # the message must give the range of the chosen shape, not another one
                assert f"{lo}" in str(err.value) and f"{hi}" in str(err.value), str(err.value)
    bonuses = {"own", "opponent", "none"} | ({"captures"} if kind == "branchingcoral" else set())
    spec = {o.name: o for o in engine.GAMES[kind].options}["bonus"]
    assert set(spec.choices) == bonuses and spec.default == "own"
    for b in bonuses:
        assert engine.new_game(kind, bonus=b.upper()).options["bonus"] == b
    if kind == "braincoral":
        with pytest.raises(OptionError):
            engine.new_game(kind, bonus="captures")


@pytest.mark.parametrize("value", [9.5, "9.5", "nine", None, True])
def test_a_size_that_is_not_a_whole_number_is_refused(value):
    with pytest.raises(OptionError):
        engine.new_game("io", size=value)


@pytest.mark.parametrize("kind", ["coil", "io", "braincoral", "branchingcoral", "whirlwind"])
def test_colour_of_a_bad_seat_is_a_value_error(kind):
    pos = engine.new_game(kind)
    for seat in (0, 3, "1", None, [1]):
        with pytest.raises(ValueError, match="seat"):
            pos.colour(seat)


# =============================================================================================
# Public API docstrings (BRIEF "Standards")
# =============================================================================================

ENGINE_MODULES = ["engine", "engine.base", "engine.errors", "engine.geometry", "engine.coil",
                  "engine.io", "engine.coral", "engine.whirlwind"]


def test_every_public_function_class_and_method_has_a_docstring():
    missing = [m for name in ENGINE_MODULES for m in undocumented(name)]
    assert missing == []


def test_whirlwind_default_size_opening_turns_match_the_reference():
    rng = random.Random(21)
    pos = engine.new_game("whirlwind")
    ref = RefWhirlwind(14, "A")
    for _ in range(8):
        assert set(pos.legal_moves()) == ref.legal()
        mv = pos.random_move(rng)
        pos = pos.play(mv)
        ref.play(mv)
        assert engine_stones(pos) == ref.stones()


# =============================================================================================
# Random playouts (the fast paths) end where the reference says the game ends
# =============================================================================================


@pytest.mark.parametrize("key,bonus", [("braincoral", "own"), ("branchingcoral", "captures")])
def test_coral_playouts_end_where_the_reference_has_no_placement(key, bonus):
    for seed in range(12):
        end = engine.new_game(key, shape="limping", size=3, bonus=bonus).random_playout(random.Random(seed))
        ref = RefCoral("limping", 3, bonus, key == "branchingcoral")
        lab = {ref_label(c): c for c in ref.cells}
        ref.stones = {lab[k]: v for k, v in engine_stones(end).items()}
        if key == "branchingcoral":
            ref.captured = dict(zip((1, 2), end.captures, strict=True))
        ref.last_placer = 3 - end._turn  # no passing: the seat not to move placed last
        assert ref.legal() == set()
        same_outcome(end, ref.outcome(), ref.scores())


def test_coil_and_io_playouts_end_with_the_reference_outcome():
    for seed in range(12):
        end = engine.new_game("coil", size=5).random_playout(random.Random(seed))
        ref = RefCoil(5)
        lab = {ref_label(c): c for c in ref.cells}
        stones = engine_stones(end)
        ref.black = {lab[k] for k, v in stones.items() if v == "black"}
        ref.white = {lab[k] for k, v in stones.items() if v == "white"}
        ref.black_seat = 1 if end.colour(1) == "black" else 2
        ref.coil = ref.has_coil(ref.black)
        same_outcome(end, ref.outcome())
    for n in (5, 6):
        for seed in range(10):
            end = engine.new_game("io", size=n).random_playout(random.Random(seed))
            ref = RefIo(n)
            lab = {ref_label(c): c for c in ref.cells}
            ref.stones = {lab[k]: v for k, v in engine_stones(end).items()}
            same_outcome(end, ref.outcome(), ref.scores())
