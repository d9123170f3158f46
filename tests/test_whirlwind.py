"""Whirlwind, position by position against RULES.md "Whirlwind".

Boards in position texts run top row first: ``x`` Black, ``o`` White, ``.`` empty.
"""

import collections
import itertools
import random

import pytest

import engine
from engine import IllegalMove, MoveError, OptionError, PositionError
from engine.whirlwind import _tables, sample_turn, setup_points

# Seed 004's diagram (n = 14), exactly as printed: every line that starts with an empty
# point carries one stray extra "." at its start.
SEED_DIAGRAM = """\
.. o . . . . x . . . . o . .
.. . . x . . . . o . . . . x
x . . . . o . . . . x . . .
.. . o . . . . x . . . . o .
.. . . . x . . . . o . . . .
.. x . . . . o . . . . x . .
.. . . o . . . . x . . . . o
o . . . . x . . . . o . . .
.. . x . . . . o . . . . x .
.. . . . o . . . . x . . . .
.. o . . . . x . . . . o . .
.. . . x . . . . o . . . . x
x . . . . o . . . . x . . .
.. . o . . . . x . . . . o .
"""


def diagram_rows() -> list[str]:
    rows = []
    for line in SEED_DIAGRAM.splitlines():
        row = line.replace(" ", "")
        if len(row) == 15:
            row = row[1:]
        assert len(row) == 14
        rows.append(row)
    return rows


def ww(rows: list[str], to_move: int = 1, ply: int = 10, last: str = "-") -> engine.Position:
    n = len(rows)
    return engine.from_text(f"whirlwind size={n},setup=A {ply} {last} {'/'.join(rows)} {to_move}")


EMPTY8 = ["........"] * 8


def put(rows: list[str], marks: dict[str, str]) -> list[str]:
    """Copy of ``rows`` with ``marks`` (label -> 'x'/'o'/'.') applied."""
    n = len(rows)
    grid = [list(r) for r in rows]
    for label, ch in marks.items():
        f = ord(label[0]) - 97
        r = int(label[1:]) - 1
        grid[n - 1 - r][f] = ch
    return ["".join(r) for r in grid]


# ---- slow, obviously correct reference versions --------------------------------------------
def slow_breach(n: int, own: set[tuple[int, int]]) -> bool:
    for (f, r) in own:
        for df, dr in ((1, 1), (1, -1)):
            d = (f + df, r + dr)
            if d in own and (f + df, r) not in own and (f, r + dr) not in own:
                return True
    return False


def slow_turns(pos) -> set[str]:
    n = pos.board.size
    coords = pos.board.coords
    own_bits = pos.black if pos._turn == 1 else pos.white
    own = {coords[c] for c in range(n * n) if (own_bits >> c) & 1}
    empty = [c for c in range(n * n) if not ((pos.black | pos.white) >> c) & 1]
    out = set()
    sizes = (1,) if pos.ply == 0 else (1, 2)
    for k in sizes:
        for combo in itertools.combinations(empty, k):
            if not slow_breach(n, own | {coords[c] for c in combo}):
                out.add(" ".join(pos.board.labels[c] for c in combo))
    return out


def slow_connected(pos, seat: int) -> bool:
    n = pos.board.size
    bits = pos.black if seat == 1 else pos.white
    own = {pos.board.coords[c] for c in range(n * n) if (bits >> c) & 1}
    start = [c for c in own if (c[1] == 0 if seat == 1 else c[0] == 0)]
    seen, stack = set(start), list(start)
    while stack:
        f, r = stack.pop()
        if (r if seat == 1 else f) == n - 1:
            return True
        for d in ((f + 1, r), (f - 1, r), (f, r + 1), (f, r - 1)):
            if d in own and d not in seen:
                seen.add(d)
                stack.append(d)
    return False


# ---- options and set-up --------------------------------------------------------------------
def test_options():
    k = engine.GAMES["whirlwind"]
    assert k.title == "Whirlwind"
    p = engine.new_game("whirlwind")
    assert p.options == {"size": 14, "setup": "A"}
    assert p.to_move == 1 and p.colour(1) == "black" and p.colour(2) == "white"
    for size in range(8, 25, 2):
        assert len(engine.new_game("whirlwind", size=size).board) == size * size
    for bad in ({"size": 13}, {"size": 6}, {"size": 26}, {"setup": "C"}, {"colour": "x"}):
        with pytest.raises(OptionError):
            engine.new_game("whirlwind", **bad)


def test_setup_a_at_14_is_the_seed_diagram():
    p = engine.new_game("whirlwind", size=14, setup="A")
    body = p.to_text().split(" ")[4]
    assert body.split("/") == diagram_rows()


@pytest.mark.parametrize("n", range(8, 25, 2))
def test_setup_b_swaps_colours_and_quarter_turn_maps_black_onto_white(n):
    ab, aw = setup_points(n, "A")
    bb, bw = setup_points(n, "B")
    assert (bb, bw) == (aw, ab)
    assert ab and aw and not ab & aw
    board = engine.square_board(n)

    def turn(bits: int) -> int:  # quarter turn: (f, r) -> (r, n - 1 - f)
        out = 0
        for c in board.cells_of(bits):
            f, r = board.coords[c]
            out |= 1 << board.index[(r, n - 1 - f)]
        return out

    for black, white in ((ab, aw), (bb, bw)):
        assert turn(black) == white and turn(white) == black
        t = _tables(n)
        assert t.breach(black) is None and t.breach(white) is None


# ---- turns ---------------------------------------------------------------------------------
def test_black_first_turn_is_one_stone():
    p = engine.new_game("whirlwind")
    with pytest.raises(IllegalMove, match="first turn"):
        p.play("a1 n14")
    assert all(" " not in m for m in p.legal_moves())
    q = p.play("a1").play("a14")
    assert q.play("n14 a3").last_move == "a3 n14"


def test_pair_order_is_canonical():
    rows = put(EMPTY8, {"a1": "x"})
    p = ww(rows)
    assert p.play("g6 e5").last_move == "e5 g6"
    assert p.play("g6, e5") == p.play("E5 G6")
    assert p.play("g5 c5").last_move == "c5 g5"
    assert p.play("h8 a7").highlights.placed == ("a7", "h8")
    moves = list(p.legal_moves())
    assert len(moves) == len(set(moves))
    for m in moves:
        cells = [p.board.cell(t) for t in m.split()]
        assert cells == sorted(cells)


def test_parse_errors_and_illegal_moves():
    p = engine.new_game("whirlwind").play("a1").play("a14")
    for bad in ("z99", "hello", "a2 a3 a4", "", "a2 pass", "o1"):
        with pytest.raises(MoveError):
            p.play(bad)
    for twice in ("c5 c5", "b2 B2"):  # well-formed text; the rules forbid a point twice
        with pytest.raises(IllegalMove, match="named twice"):
            p.play(twice)
    with pytest.raises(IllegalMove, match="passing"):
        p.play("pass")
    with pytest.raises(IllegalMove, match="a1 is occupied"):
        p.play("a1")
    with pytest.raises(IllegalMove, match="b14 is occupied"):
        p.play("a3 b14")  # a set-up stone


# ---- diagonal rule ---------------------------------------------------------------------------
def test_diagonal_breach_refused_and_mended_by_second_stone():
    p = ww(put(EMPTY8, {"d4": "x", "a8": "o"}))
    with pytest.raises(IllegalMove, match="diagonal rule"):
        p.play("e5")
    assert not p.is_legal("e5 h1")
    assert p.is_legal("e5 d5") and p.is_legal("e4 e5")
    assert "d5 e5" in set(p.legal_moves()) and "e4 e5" in set(p.legal_moves())
    assert "e5" not in set(p.legal_moves())
    # the two new stones of a pair must respect the rule between themselves too
    assert not p.is_legal("f6 g7") and p.is_legal("f6 g6")


def test_diagonal_rule_binds_only_the_movers_colour():
    # A stone may touch an opponent's stone diagonally: only like-coloured pairs count.
    p = ww(put(EMPTY8, {"d4": "x", "e4": "x", "d5": "x", "h8": "o"}), to_move=2)
    assert p.is_legal("e5") and p.is_legal("c5 e3") and p.is_legal("c3")
    # White d4 and black e4: White on e5 breaches (d5 empty, e4 black); Black on e5 is fine.
    rows = put(EMPTY8, {"d4": "o", "e4": "x", "h1": "o"})
    assert not ww(rows, to_move=2).is_legal("e5")
    assert ww(rows, to_move=1).is_legal("e5")


def test_positions_in_breach_are_refused_as_text():
    with pytest.raises(PositionError, match="diagonal rule"):
        ww(put(EMPTY8, {"d4": "x", "e5": "x"}))


# ---- win and the no-moves ruling --------------------------------------------------------------
def test_black_wins_by_connection():
    rows = put(EMPTY8, {f"c{r}": "x" for r in (1, 2, 3, 5, 6, 7, 8)} | {"a1": "o"})
    p = ww(rows)
    assert p.outcome is None
    q = p.play("c4")
    assert q.outcome == engine.Outcome(1, "connection")
    assert q.to_move is None and list(q.legal_moves()) == [] and q.complete("") == []
    assert q.highlights.winning == {f"c{r}" for r in range(1, 9)}
    with pytest.raises(IllegalMove):
        q.play("h8")
    assert engine.from_text(q.to_text()).outcome == q.outcome


def test_white_wins_by_connection_with_a_pair():
    rows = put(EMPTY8, {f"{f}5": "o" for f in "abcdfgh"} | {"a1": "x", "b2": "o"})
    p = ww(rows, to_move=2)
    q = p.play("h1 e5")
    assert q.outcome == engine.Outcome(2, "connection")
    assert q.highlights.winning == {f"{f}5" for f in "abcdefgh"}  # h1, b2 are not in the chain
    assert q.highlights.placed == ("h1", "e5")  # lower row first
    # only a chain touching both edges counts
    r = p.play("h1 h2")
    assert r.outcome is None


# No-moves gadget (8x8, White to move). d5, e5, f5 are empty:
#   d5 alone touches white e6 diagonally with d6 black and e5 empty;
#   f5 alone likewise (f6 black); e5 alone touches white d4 (shared d5 empty, e4 black);
#   d5+e5 leaves e5-f4 in breach (f5 empty, e4 black); e5+f5 leaves e5-d4; d5+f5 leaves d5-e6.
NO_MOVES = [
    "xxxxxxxx",
    "xxxxxxxx",
    "xxxxoxxx",
    "ooo...oo",
    "xxooxoox",
    "xxxxxxxx",
    "xxxxxxxx",
    "xxxxxxxx",
]


def test_player_without_a_legal_turn_loses():
    p = ww(NO_MOVES, to_move=2, ply=30)
    assert not slow_connected(p, 1) and not slow_connected(p, 2)
    assert slow_turns(p) == set()
    assert p.outcome == engine.Outcome(1, "no moves")
    assert p.to_move is None and list(p.legal_moves()) == []
    for mv in ("d5", "e5", "f5", "d5 e5", "e5 f5", "d5 f5"):
        with pytest.raises(IllegalMove):
            p.play(mv)
    assert p.random_playout(random.Random(1)) is p


# The gadget with f4 black: d5 and e5 are each illegal alone, but together each mends the
# other's breach (d5-e6 through e5, e5-d4 through d5), and nothing else is legal.
RESCUE = put(NO_MOVES, {"f4": "x"})


def test_pair_legal_where_neither_stone_is_legal_alone():
    p = ww(RESCUE, to_move=2, ply=30)
    assert slow_turns(p) == {"d5 e5"}
    assert list(p.legal_moves()) == ["d5 e5"]
    assert p.outcome is None
    assert p.complete("") == ["d5", "e5"] and p.complete("e5") == ["e5 d5"]
    assert p.play("e5 d5").last_move == "d5 e5"
    with pytest.raises(IllegalMove, match="diagonal rule"):
        p.play("d5")


# ---- cross-checks of the fast code ----------------------------------------------------------
def test_legal_turns_match_slow_version_on_random_positions():
    rng = random.Random(12)
    checked = 0
    for game in range(6):
        p = engine.new_game("whirlwind", size=8, setup="AB"[game % 2])
        while p.outcome is None:
            if rng.random() < 0.35 or p.ply == 0:
                assert set(p.legal_moves()) == slow_turns(p), p.to_text()
                checked += 1
            p = p.play(p.random_move(rng))
        assert slow_connected(p, p.outcome.winner)
        assert not slow_connected(p, 3 - p.outcome.winner)
    assert checked >= 20


def test_complete_offers_only_legal_moves_or_first_stones():
    rng = random.Random(8)
    p = engine.new_game("whirlwind", size=8)
    for _ in range(9):
        p = p.play(p.random_move(rng))
    legal = set(p.legal_moves())
    stones = {s for m in legal for s in m.split()}
    assert set(p.complete("", limit=None)) == stones
    assert p.complete("", limit=5) == p.complete("", limit=None)[:5]
    for first in sorted(stones):
        partners = {[s for s in m.split() if s != first][0]
                    for m in legal if " " in m and first in m.split()}
        got = p.complete(first + " ", limit=None)
        assert {g.split()[1] for g in got if " " in g} == partners
        assert all(g.split()[0] == first for g in got)
        assert (first in got) == (first in legal)
        for g in got:
            assert p.is_legal(g) or g in stones
        assert first in p.complete(first[0], limit=None)
        for letter in "aceh":
            typed = p.complete(f"{first} {letter}", limit=None)
            assert typed == [g for g in got if " " in g and g.split()[1].startswith(letter)]
            assert all(p.is_legal(g) for g in typed)
    assert p.complete("zz") == [] and p.complete("a1 b2 c3") == []


def test_sample_turn_is_uniform():
    rows = put(RESCUE, {"a1": ".", "h8": "."})
    p = ww(rows, to_move=2, ply=30)
    legal = sorted(p.legal_moves())
    t = _tables(8)
    empty = p.board.cells_of(p.board.full & ~(p.black | p.white))
    rng = random.Random(3)
    draws = 300 * len(legal)
    counts = collections.Counter(
        " ".join(p.board.labels[c] for c in sample_turn(t, p.white, p.black | p.white, empty, False, rng))
        for _ in range(draws)
    )
    assert set(counts) == set(legal)
    assert all(200 < counts[m] < 400 for m in legal), counts
    moves = collections.Counter(p.random_move(rng) for _ in range(draws))
    assert all(200 < moves[m] < 400 for m in legal)


def test_random_playouts_end_correctly():
    rng = random.Random(4)
    start = engine.new_game("whirlwind", size=10)
    for _ in range(40):
        end = start.random_playout(rng)
        out = end.outcome
        assert out.reason == "connection"
        assert slow_connected(end, out.winner)
        t = _tables(10)
        assert t.breach(end.black) is None and t.breach(end.white) is None
        assert engine.from_text(end.to_text()).outcome == out


def test_text_round_trip_and_bad_bodies():
    rng = random.Random(6)
    p = engine.new_game("whirlwind", size=10, setup="B")
    while p.outcome is None:
        q = engine.from_text(p.to_text())
        assert q == p and q.highlights == p.highlights and q.complete("c") == p.complete("c")
        p = p.play(p.random_move(rng))
    assert engine.from_text(p.to_text()).highlights == p.highlights
    base = "/".join(EMPTY8)
    for body in (base, base + " 3", "/".join(EMPTY8[:7]) + " 1", base.replace(".", "q", 1) + " 1",
                 base + "./ 1"):
        with pytest.raises(PositionError):
            engine.from_text(f"whirlwind size=8,setup=A 3 - {body}")


# ---- the winning path (issue 9 item 12) ----------------------------------------------------------
def _orth_path_ok(board, cells, seat):
    """True when ``cells`` (point numbers) form one orthogonally connected set touching both
    of ``seat``'s edges."""
    n = board.size
    rows = {board.coords[c][1] for c in cells}
    files = {board.coords[c][0] for c in cells}
    edges = (0 in rows and n - 1 in rows) if seat == 1 else (0 in files and n - 1 in files)
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        p = todo.pop()
        for q in board.neighbours[p]:
            if q in cells and q not in seen:
                seen.add(q)
                todo.append(q)
    return edges and seen == set(cells)


def _bfs_length(board, group, seat):
    """Number of stones on a shortest edge-to-edge path through ``group`` (brute force)."""
    n = board.size
    first = [c for c in group if (board.coords[c][1] if seat == 1 else board.coords[c][0]) == 0]
    dist = {c: 1 for c in first}
    todo = list(first)
    for p in todo:
        for q in board.neighbours[p]:
            if q in group and q not in dist:
                dist[q] = dist[p] + 1
                todo.append(q)
    return min(d for c, d in dist.items() if (board.coords[c][1] if seat == 1 else board.coords[c][0]) == n - 1)


def test_winning_highlight_is_one_shortest_path_through_the_chain():
    found = 0
    for seed in range(60):
        pos = engine.new_game("whirlwind", size=8 + 2 * (seed % 3)).random_playout(random.Random(seed))
        if pos.outcome.reason != "connection":
            continue
        found += 1
        board, seat, hl = pos.board, pos.outcome.winner, pos.highlights
        path = [board.cell(lab) for lab in hl.winning]
        chain = {board.cell(lab) for lab in hl.chain}
        assert set(path) <= chain
        assert all(pos.stones[c] == pos.colour(seat) for c in path)
        assert _orth_path_ok(board, path, seat), seed
        assert len(path) == _bfs_length(board, chain, seat), seed
    assert found >= 10


def test_winning_path_leaves_a_bulge_of_the_group_out():
    # c1..c8 joined, plus a side branch d6 e6: the path is the column only; the chain has all.
    rows = put(EMPTY8, {f"c{r}": "x" for r in (1, 2, 3, 5, 6, 7, 8)} | {"d6": "x", "e6": "x", "a1": "o"})
    q = ww(rows).play("c4")
    assert q.outcome == engine.Outcome(1, "connection")
    assert q.highlights.winning == {f"c{r}" for r in range(1, 9)}
    assert q.highlights.chain == {f"c{r}" for r in range(1, 9)} | {"d6", "e6"}
