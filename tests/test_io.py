"""Io, position by position against RULES.md "Io" (and its Ruling)."""

import random

import pytest
from engine_support import rows_diagram

import engine
from engine import IllegalMove, MoveError, Outcome, PositionError

DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))


def io_text(size=9, white=(), black=(), turn=1, phase="main", anchor="-", flipped="-", ply=20, last="-"):
    """Position text of an Io position with these stones (labels)."""
    marks = {c: "o" for c in white}
    marks.update({c: "x" for c in black})
    rows = rows_diagram(engine.square_board(size), marks)
    return f"io size={size} {ply} {last} {rows} {turn} {phase} {anchor} {flipped}"


def io_pos(**kw):
    return engine.from_text(io_text(**kw))


def label(board, f, r):
    return board.labels[board.index[(f, r)]]


def colours(pos):
    return {pos.board.labels[c]: col for c, col in pos.stones.items()}


# ---- slow, straightforward reference (RULES.md "Io") --------------------------------------
def slow_flips(n, stones, f0, r0, colour):
    """Labels-free capture: cells (f, r) turned by a ``colour`` stone on (f0, r0)."""
    other = "black" if colour == "white" else "white"
    out = set()
    for df, dr in DIRS:
        line = []
        f, r = f0 + df, r0 + dr
        while 0 <= f < n and 0 <= r < n and stones.get((f, r)) == other:
            line.append((f, r))
            f, r = f + df, r + dr
        if line and 0 <= f < n and 0 <= r < n and stones.get((f, r)) == colour:
            out.update(line)
    return out


def slow_place(n, stones, cell, colour):
    stones = dict(stones)
    for c in slow_flips(n, stones, *cell, colour):
        stones[c] = colour
    stones[cell] = colour
    return stones


def slow_legal(n, stones, opening, anchor):
    """Every legal move as text, from the definitions (anchor: (f, r) or None)."""
    corners = {(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)}
    cells = [(f, r) for r in range(n) for f in range(n)]

    def name(c):
        return chr(97 + c[0]) + str(c[1] + 1)

    def around(c):
        return [(c[0] + df, c[1] + dr) for df, dr in DIRS if 0 <= c[0] + df < n and 0 <= c[1] + dr < n]

    empty = [c for c in cells if c not in stones]
    if not opening:
        return {name(c) for c in empty}
    if anchor is None:
        return {name(c) for c in empty if c not in corners}
    out = set()
    for b in around(anchor):
        if b in stones:
            continue
        occ = set(stones) | {b}
        free = [c for c in cells if c not in occ and c not in corners and not any(d in occ for d in around(c))]
        if free:
            out.update(f"{name(b)} {name(c)}" for c in free)
        else:
            out.add(name(b))
    return out


# ---- kind, seats, first stone -------------------------------------------------------------
def test_kind_options_and_seats():
    kind = engine.GAMES["io"]
    assert kind.title == "Io"
    (size,) = kind.options
    assert (size.name, size.default, size.minimum, size.maximum) == ("size", 9, 5, 19)
    pos = engine.new_game("io")
    assert pos.colour(1) == "white" and pos.colour(2) == "black"
    assert pos.to_move == 1 and pos.phase == "opening"
    assert pos.scores == {1: 0, 2: 0}
    for bad in (4, 20):
        with pytest.raises(engine.OptionError):
            engine.new_game("io", size=bad)


def test_first_white_stone_not_on_a_corner():
    pos = engine.new_game("io")
    moves = list(pos.legal_moves())
    assert len(moves) == 81 - 4
    assert not {"a1", "i1", "a9", "i9"} & set(moves)
    for corner in ("a1", "I1", "a9", "i9"):
        with pytest.raises(IllegalMove, match="corners are not allowed for White's first stone"):
            pos.play(corner)
    with pytest.raises(IllegalMove, match="single stone"):
        pos.play("e5 b2")
    after = pos.play("b1")  # an edge cell is fine
    assert colours(after) == {"b1": "white"} and after.to_move == 2


# ---- opening: bound and free -------------------------------------------------------------
def test_bound_stone_must_touch_the_opponents_last_stone():
    pos = engine.new_game("io").play("e5")
    with pytest.raises(IllegalMove, match="the bound stone must touch e5"):
        pos.play("c3 h8")
    bounds = {mv.split()[0] for mv in pos.legal_moves()}
    assert bounds == {"d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6"}
    after = pos.play("d4 h8")
    assert colours(after) == {"e5": "white", "d4": "black", "h8": "black"}
    # White's bound stone must now touch Black's free stone h8, not the bound stone d4
    with pytest.raises(IllegalMove, match="must touch h8"):
        after.play("c3 b8")
    assert {mv.split()[0] for mv in after.legal_moves()} == {"g7", "h7", "i7", "g8", "i8", "g9", "h9", "i9"}


def test_bound_stone_may_take_a_corner_but_the_free_stone_may_not():
    pos = engine.new_game("io").play("b2")
    after = pos.play("a1 e5")
    assert colours(after)["a1"] == "black"
    with pytest.raises(IllegalMove, match="a9 is a corner"):
        pos.play("a2 a9")


def test_free_stone_needs_every_neighbour_empty():
    pos = engine.new_game("io").play("e5")
    with pytest.raises(IllegalMove, match="g7 is not free"):
        pos.play("f6 g7")  # g7 touches the bound stone f6
    with pytest.raises(IllegalMove, match="d3 is not free"):
        pos.play("e4 d3")  # d3 touches the bound stone e4
    with pytest.raises(IllegalMove, match="d6 is not free"):
        pos.play("e4 d6")  # d6 touches White's e5
    with pytest.raises(IllegalMove, match="e5 is occupied"):
        pos.play("e4 e5")
    with pytest.raises(IllegalMove, match="e4 is named twice: "):
        pos.play("e4 e4")
    with pytest.raises(IllegalMove, match="e4 is named twice: "):
        pos.play("E4,e4")
    assert not pos.is_legal("e4 e4")
    assert pos.to_text() == engine.new_game("io").play("e5").to_text()  # refusals change nothing
    assert pos.is_legal("e4 e2") and not pos.is_legal("e4 d3")
    # an edge cell is free when its five neighbours are empty
    assert pos.is_legal("e4 a5")


def test_bound_alone_refused_while_a_free_cell_exists():
    pos = engine.new_game("io").play("e5")
    with pytest.raises(IllegalMove, match="free stone must follow"):
        pos.play("d4")


SEED_EXAMPLE_EMPTY = {"b1", "d1", "b2", "c2", "d2", "e1", "f1", "e2", "f2"}


def seed_example():
    """Seed 002's diagram situation: White's last free stone on c1, Black to move.

    Only the cells around c1 and e1 are empty; e1 is the only free cell.
    """
    board = engine.square_board(9)
    white, black = ["c1"], []
    for c in range(len(board)):
        lab = board.labels[c]
        if lab in SEED_EXAMPLE_EMPTY or lab == "c1":
            continue
        f, r = board.coords[c]
        (white if (f + 2 * r) % 3 else black).append(lab)
    return io_pos(white=white, black=black, turn=2, phase="opening", anchor="c1")


def test_seed_example_end_of_the_opening():
    pos = seed_example()
    moves = set(pos.legal_moves())
    assert moves == {"b1 e1", "b2 e1", "c2 e1", "d1", "d2"}
    assert moves == slow_legal(9, {pos.board.coords[c]: col for c, col in pos.stones.items()}, True,
                               pos.board.coords[pos.board.cell("c1")])
    # Black's bound b2 keeps e1 free; White is then forced to a bound stone alone (f2)
    pos2 = pos.play("b2 e1")
    assert pos2.phase == "opening" and pos2.to_move == 1
    assert set(pos2.legal_moves()) == {"d1", "f1", "d2", "e2", "f2"}
    with pytest.raises(IllegalMove, match="no cell is free after f2"):
        pos2.play("f2 b1")
    pos3 = pos2.play("f2")
    assert pos3.phase == "main" and pos3.to_move == 2  # Black moves first in the main phase
    assert set(pos3.legal_moves()) == {"b1", "d1", "c2", "d2", "f1", "e2"}
    # had Black chosen d1 (or d2), no free cell was left: White moves first in the main phase
    for bound in ("d1", "d2"):
        alt = pos.play(bound)
        assert alt.phase == "main" and alt.to_move == 1
        assert alt.last_move == bound and alt.highlights.placed == (bound,)


def test_opening_ends_on_a_small_board_and_the_opponent_moves_first():
    pos = engine.replay("io", {"size": 5}, ["c3", "b2 e2", "d2 a4", "b4 d5"])
    assert pos.phase == "opening" and pos.to_move == 1
    # every bound stone next to d5 leaves no free cell
    assert list(pos.legal_moves()) == ["c4", "d4", "e4", "c5", "e5"]
    with pytest.raises(IllegalMove, match="no cell is free after e4"):
        pos.play("e4 a2")
    end = pos.play("e4")
    assert end.phase == "main" and end.to_move == 2
    assert end.is_legal("a1") and not end.is_legal("a1 b1")
    with pytest.raises(IllegalMove, match="single stone"):
        end.play("a1 e1")


def test_placements_in_the_opening_keep_equal_counts_without_captures():
    pos = engine.replay("io", {}, ["e5", "d4 h8", "g7 b2"])
    assert pos.scores == {1: 3, 2: 2}
    assert pos.ply == 3 and pos.last_move == "g7 b2"
    assert pos.highlights.placed == ("g7", "b2")


# ---- captures ------------------------------------------------------------------------------
@pytest.mark.parametrize("d", DIRS)
def test_capture_in_each_direction(d):
    board = engine.square_board(9)
    df, dr = d
    line = [label(board, 4 + k * df, 4 + k * dr) for k in (1, 2, 3)]
    # two black stones then a white one: White on e5 turns both
    pos = io_pos(black=line[:2], white=[line[2], "a1"], turn=1)
    after = pos.play("e5")
    assert after.highlights.flipped == set(line[:2])
    assert all(colours(after)[c] == "white" for c in line)
    assert after.scores == {1: 5, 2: 0}
    # a gap or the edge instead of a white stone: nothing turns
    pos = io_pos(black=line[:2], white=["a1"], turn=1)
    assert pos.play("e5").highlights.flipped == frozenset()


def test_several_lines_at_once():
    board = engine.square_board(9)
    black, white, turned = [], [], set()
    for k, (df, dr) in enumerate(DIRS):
        length = 1 + k % 3
        cells = [label(board, 4 + j * df, 4 + j * dr) for j in range(1, length + 2)]
        black += cells[:-1]
        white.append(cells[-1])
        turned |= set(cells[:-1])
    pos = io_pos(black=black, white=white, turn=1)
    after = pos.play("e5")
    assert after.highlights.flipped == turned
    assert after.scores == {1: len(white) + len(turned) + 1, 2: 0}
    back = engine.from_text(after.to_text())
    assert back.highlights == after.highlights


def test_capture_stops_at_an_empty_cell_and_is_not_required():
    pos = io_pos(black=["f5", "h5"], white=["i5"], turn=1)  # g5 empty breaks the line
    after = pos.play("e5")
    assert after.highlights.flipped == frozenset() and colours(after)["f5"] == "black"


def test_black_captures_too():
    pos = io_pos(white=["d4", "c3"], black=["b2"], turn=2)
    after = pos.play("e5")
    assert after.highlights.flipped == {"d4", "c3"}
    assert after.scores == {1: 0, 2: 4}


def test_bound_stone_captures_in_the_opening_and_the_free_stone_never_does():
    # White to move; Black's last (free) stone is e5
    pos = io_pos(white=["b8"], black=["e5", "c7"], turn=1, phase="opening", anchor="e5")
    # White's bound d6 turns c7 (with b8), the free stone h8 has only empty neighbours
    after = pos.play("d6 h8")
    assert after.highlights.flipped == {"c7"}
    assert after.highlights.placed == ("d6", "h8")
    assert colours(after)["h8"] == "white" and colours(after)["e5"] == "black"


# ---- main phase, end -----------------------------------------------------------------------
def test_main_phase_single_stones_and_no_passing():
    pos = io_pos(white=["e5"], black=["d4"], turn=2)
    assert set(pos.legal_moves()) == {lab for lab in pos.board.labels if lab not in ("e5", "d4")}
    assert "a1" in set(pos.legal_moves())  # corners allowed now
    with pytest.raises(IllegalMove, match="no passing"):
        pos.play("pass")
    with pytest.raises(IllegalMove, match="e5 is occupied"):
        pos.play("e5")


def test_move_errors():
    pos = engine.new_game("io")
    for bad in ("z99", "hello", "j1", "a0", "a1 b2 c3", "", "   "):
        with pytest.raises(MoveError):
            pos.play(bad)
    with pytest.raises(IllegalMove):
        pos.play("pass")
    # nothing changed
    assert pos == engine.new_game("io")


def test_board_full_more_stones_wins_odd_size():
    # 5x5, rows 1, 3, 5 one colour and rows 2, 4 the other; e5 is the last empty cell
    board = engine.square_board(5)
    odd_rows = [lab for c, lab in enumerate(board.labels) if board.coords[c][1] % 2 == 0 and lab != "e5"]
    even_rows = [lab for c, lab in enumerate(board.labels) if board.coords[c][1] % 2 == 1]
    pos = io_pos(size=5, white=odd_rows, black=even_rows, turn=1)
    assert pos.outcome is None and pos.scores == {1: 14, 2: 10}
    end = pos.play("e5")  # turns e4 (e3 behind) and d4 (c3 behind)
    assert end.highlights.flipped == {"e4", "d4"}
    assert end.outcome == Outcome(1, "stones", {1: 17, 2: 8})
    assert end.to_move is None and list(end.legal_moves()) == []
    with pytest.raises(IllegalMove, match="over"):
        end.play("a1")
    # Black filling e5 turns nothing (its neighbours below are black) and still loses
    end = io_pos(size=5, white=odd_rows, black=even_rows, turn=2).play("e5")
    assert end.highlights.flipped == frozenset()
    assert end.outcome == Outcome(1, "stones", {1: 14, 2: 11})
    # colours swapped: Black wins
    end = io_pos(size=5, white=even_rows, black=odd_rows, turn=2).play("e5")
    assert end.outcome == Outcome(2, "stones", {1: 8, 2: 17})


def test_ruling_draw_on_an_even_board():
    board = engine.square_board(6)
    # files a, c, e white except a1; files b, d, f black except f6; a1 black
    white = [lab for c, lab in enumerate(board.labels) if board.coords[c][0] % 2 == 0 and lab != "a1"]
    black = [lab for c, lab in enumerate(board.labels) if board.coords[c][0] % 2 == 1 and lab != "f6"]
    pos = io_pos(size=6, white=white, black=black + ["a1"], turn=1)
    assert pos.scores == {1: 17, 2: 18}
    end = pos.play("f6")  # e6 and e5 are White's own, the f file is black to the edge
    assert end.highlights.flipped == frozenset()
    assert end.outcome == Outcome(None, "stones", {1: 18, 2: 18})
    assert end.to_move is None


# ---- position text --------------------------------------------------------------------------
def test_position_text_round_trip():
    pos = engine.replay("io", {"size": 7}, ["d4", "c3 f6", "g7 b6"])
    text = pos.to_text()
    assert "!" not in text
    back = engine.from_text(text)
    assert back == pos and back.to_text() == text
    assert list(back.legal_moves()) == list(pos.legal_moves())
    assert back.highlights == pos.highlights and back.phase == "opening"


def test_position_text_errors():
    good = io_text(size=5, white=["c3"], black=["b2"], turn=2, phase="opening", anchor="c3", ply=2)
    engine.from_text(good)
    head, body = good.split(" ", 4)[:4], good.split(" ", 4)[4]
    rows, turn, phase, anchor, flipped = body.split(" ")
    bad = [
        f"{rows}. {turn} {phase} {anchor} {flipped}",
        f"{rows.replace('.', 'z', 1)} {turn} {phase} {anchor} {flipped}",
        f"{rows} 0 {phase} {anchor} {flipped}",
        f"{rows} {turn} middle {anchor} {flipped}",
        f"{rows} {turn} {phase} - {flipped}",       # opening without the cell to touch
        f"{rows} {turn} {phase} b2 {flipped}",      # anchor of the wrong colour
        f"{rows} {turn} {phase} z9 {flipped}",
        f"{rows} {turn} main c3 {flipped}",
        f"{rows} {turn} {phase} {anchor} a1",      # a1 empty: cannot have been turned
        f"{rows} {turn} {phase} {anchor}",
        f"{rows.rsplit('/', 1)[0]} {turn} {phase} {anchor} {flipped}",
    ]
    for b in bad:
        with pytest.raises(PositionError):
            engine.from_text(" ".join(head) + " " + b)


# ---- complete() ----------------------------------------------------------------------------
def test_complete_in_a_two_placement_turn():
    pos = engine.new_game("io").play("e5")
    assert pos.complete("") == ["d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6"]
    assert pos.complete("d") == ["d4", "d5", "d6"]
    assert pos.complete("D4", limit=3) == ["d4 b1", "d4 c1", "d4 d1"]
    assert pos.complete("d4 ") == pos.complete("d4,")
    assert all(mv.startswith("d4 ") for mv in pos.complete("d4 ", limit=None))
    assert set(pos.complete("d4 ", limit=None)) == {m for m in pos.legal_moves() if m.startswith("d4 ")}
    assert pos.complete("d4 h") == [f"d4 h{r}" for r in range(1, 10)]
    assert pos.complete("c3") == [] and pos.complete("d4 h8 x") == []
    assert pos.complete("e", limit=1) == ["e4"]
    for prefix in ("", "d", "d4", "d4 h", "f6 a", "x"):
        for mv in pos.complete(prefix, limit=None):
            assert pos.is_legal(mv) or any(m.startswith(mv + " ") for m in pos.legal_moves())


def test_complete_offers_a_bound_stone_that_is_a_whole_move():
    pos = seed_example()
    assert pos.complete("") == ["b1", "d1", "b2", "c2", "d2"]
    assert pos.complete("d1") == ["d1"]
    assert pos.complete("d1 ") == []
    assert pos.complete("b1") == ["b1 e1"]


def test_complete_with_one_placement_lists_legal_moves():
    pos = engine.new_game("io", size=5)
    assert pos.complete("", limit=None) == list(pos.legal_moves())
    main = io_pos(white=["e5"], black=["d4"], turn=2)
    assert main.complete("", limit=None) == list(main.legal_moves())
    assert main.complete("a") == ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9"]


# ---- cross-check against the slow reference ----------------------------------------------
@pytest.mark.parametrize("size,games", [(5, 20), (6, 10), (8, 4), (9, 4)])
def test_random_games_match_the_slow_reference(size, games):
    rng = random.Random(size)
    for _ in range(games):
        pos = engine.new_game("io", size=size)
        stones: dict[tuple[int, int], str] = {}
        anchor = None
        opening = True
        while pos.outcome is None:
            legal = set(pos.legal_moves())
            assert legal == slow_legal(size, stones, opening, anchor)
            mv = rng.choice(sorted(legal))
            colour = pos.colour(pos.to_move)
            cells = [pos.board.coords[pos.board.cell(t)] for t in mv.split()]
            before = stones
            stones = slow_place(size, stones, cells[0], colour)
            if len(cells) == 2:
                stones = slow_place(size, stones, cells[1], colour)
            if opening and (anchor is None or len(cells) == 2):
                anchor = cells[-1]
            else:
                opening, anchor = False, None
            pos = pos.play(mv)
            assert {pos.board.coords[c]: col for c, col in pos.stones.items()} == stones
            turned = {c for c in before if before[c] != stones[c]}
            assert {pos.board.coords[pos.board.cell(x)] for x in pos.highlights.flipped} == turned
            assert pos.phase == ("opening" if opening else "main")
            assert engine.from_text(pos.to_text()) == pos
        w = sum(1 for v in stones.values() if v == "white")
        assert pos.outcome.scores == {1: w, 2: size * size - w}


def test_random_playouts_end_full_and_valid():
    rng = random.Random(4)
    for size in (5, 8, 9):
        start = engine.new_game("io", size=size)
        for _ in range(5):
            end = start.random_playout(rng)
            assert len(end.stones) == size * size
            w, b = end.scores[1], end.scores[2]
            assert end.outcome == Outcome(None if w == b else 1 if w > b else 2, "stones", {1: w, 2: b})
            back = engine.from_text(end.to_text())
            assert back == end and back.highlights == end.highlights
            if size % 2:
                assert end.outcome.winner is not None


def test_random_internal_moves_are_legal():
    rng = random.Random(6)
    pos = engine.new_game("io", size=6)
    while pos.outcome is None:
        move = pos._random_internal(rng)
        text = " ".join(pos.board.labels[c] for c in move)
        assert pos.is_legal(text)
        pos = pos.play(text)
