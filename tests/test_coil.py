"""Coil, position by position against RULES.md "Coil" (and its Ruling)."""

import random
from collections import deque

import pytest
from engine_support import rows_diagram

import engine
from engine import IllegalMove, MoveError, PositionError
from engine.coil import coil_tables
from engine.geometry import bits

RING_G7 = ["f7", "h7", "g6", "g8", "h8", "f6"]  # the six neighbours of the centre g7


def coil_text(size=7, black=(), white=(), turn=1, phase="II", black_seat=2, ply=10, last="-"):
    """Position text of a Coil position with these stones (labels)."""
    marks = {c: "x" for c in black}
    marks.update({c: "o" for c in white})
    rows = rows_diagram(engine.hex_board("hexhex", size), marks)
    seat = "-" if black_seat is None else str(black_seat)
    return f"coil size={size} {ply} {last} {rows} {turn} {phase} {seat}"


def coil_pos(**kw):
    return engine.from_text(coil_text(**kw))


# ---- slow, obviously correct coil detection (RULES.md "Coil", definition by paths) ----------
def slow_enclosed(board, black: set[int]) -> set[int]:
    """Every cell from which each path off the board passes a black stone other than itself."""
    perimeter = {c for c in range(len(board)) if len(board.neighbours[c]) < 6}
    out = set()
    for start in range(len(board)):
        seen = {start}
        queue = deque([start])
        escaped = False
        while queue and not escaped:
            c = queue.popleft()
            if c in perimeter:  # one step from off the board
                escaped = True
                break
            for d in board.neighbours[c]:
                if d not in seen and d not in black:
                    seen.add(d)
                    queue.append(d)
        if not escaped:
            out.add(start)
    return out


# ---- board and labels ---------------------------------------------------------------------
def test_kind_and_options():
    kind = engine.GAMES["coil"]
    assert kind.title == "Coil"
    (size,) = kind.options
    assert (size.name, size.default, size.minimum, size.maximum) == ("size", 7, 5, 12)
    with pytest.raises(engine.OptionError):
        engine.new_game("coil", size=4)
    with pytest.raises(engine.OptionError):
        engine.new_game("coil", size=13)


def test_labels_hexhex7_in_move_order():
    pos = engine.new_game("coil")
    moves = list(pos.legal_moves())
    assert len(moves) == 127 + 1
    assert moves[:7] == ["a1", "b1", "c1", "d1", "e1", "f1", "g1"]
    assert moves[-8:] == ["g13", "h13", "i13", "j13", "k13", "l13", "m13", "pass"]
    assert pos.play("G7").last_move == "g7"
    assert pos.play("G7").stones == {pos.board.cell("g7"): "black"}


# ---- Phase I ------------------------------------------------------------------------------
def test_phase_one_places_black_stones_and_has_no_colours():
    pos = engine.replay("coil", {}, ["g7", "a1", "m13"])
    assert pos.phase == "I"
    assert pos.colour(1) is None and pos.colour(2) is None
    assert set(pos.stones.values()) == {"black"} and len(pos.stones) == 3
    assert pos.to_move == 2  # seat 1 moved first; three moves played
    assert pos.ply == 3 and pos.outcome is None


def test_first_pass_makes_passer_black_and_white_moves_first():
    pos = engine.replay("coil", {}, ["g7", "pass"])  # seat 2 passes
    assert pos.phase == "II"
    assert pos.colour(2) == "black" and pos.colour(1) == "white"
    assert pos.to_move == 1
    after = pos.play("h7")
    assert after.stones[pos.board.cell("h7")] == "white"
    assert after.to_move == 2
    assert after.play("f7").stones[pos.board.cell("f7")] == "black"


def test_seat_one_passing_first_becomes_black():
    pos = engine.new_game("coil").play("pass")
    assert pos.colour(1) == "black" and pos.colour(2) == "white" and pos.to_move == 2
    assert pos.play("a1").stones == {pos.board.cell("a1"): "white"}


def test_no_passing_in_phase_two():
    pos = engine.replay("coil", {}, ["pass"])
    assert "pass" not in set(pos.legal_moves())
    with pytest.raises(IllegalMove, match="Phase I"):
        pos.play("pass")


def test_ruling_phase_one_placement_that_would_close_a_coil_is_refused():
    pos = coil_pos(black=RING_G7[:5], phase="I", black_seat=None, turn=1)
    with pytest.raises(IllegalMove, match="f6 would close a coil"):
        pos.play("f6")
    moves = list(pos.legal_moves())
    assert "f6" not in moves and "g7" in moves and "pass" in moves
    assert pos.play("pass").colour(1) == "black"  # passing stays legal
    # the same placement in Phase II by Black wins
    won = coil_pos(black=RING_G7[:5], turn=2).play("f6")
    assert won.outcome == engine.Outcome(2, "coil")


def test_ruling_solid_seven_refused_in_phase_one():
    pos = coil_pos(black=["g7"] + RING_G7[:5], phase="I", black_seat=None)
    with pytest.raises(IllegalMove, match="would close a coil"):
        pos.play("f6")


def test_passing_is_legal_on_the_empty_board():
    pos = engine.new_game("coil", size=5)
    assert pos.is_legal("pass") and pos.is_legal("PASS")


# ---- what is a coil ----------------------------------------------------------------------
@pytest.mark.parametrize("centre", ["empty", "white", "black"])
def test_six_around_the_centre_is_a_coil(centre):
    black = RING_G7[:5] + (["g7"] if centre == "black" else [])
    white = ["g7"] if centre == "white" else []
    pos = coil_pos(black=black, white=white, turn=2, black_seat=2)
    assert pos.outcome is None
    won = pos.play("f6")
    assert won.outcome == engine.Outcome(2, "coil")
    assert won.to_move is None
    h = won.highlights
    assert h.enclosed == {"g7"}
    assert h.winning == set(RING_G7)
    assert h.placed == ("f6",)


def test_solid_seven_is_a_coil_whichever_stone_comes_last():
    seven = ["g7"] + RING_G7
    assert coil_pos(black=RING_G7).outcome is not None  # so g7 can never come last
    for last in RING_G7:
        rest = [c for c in seven if c != last]
        pos = coil_pos(black=rest, turn=1, black_seat=1)
        assert pos.outcome is None
        assert pos.play(last).outcome == engine.Outcome(1, "coil")


def test_loop_larger_than_one_cell():
    # a ring of black around the two cells g7, h7
    ring = ["f6", "g6", "h6", "f7", "i7", "g8", "h8", "i8"]
    # check it really is the boundary of {g7, h7}
    board = engine.hex_board("hexhex", 7)
    inside = {board.cell("g7"), board.cell("h7")}
    boundary = {d for c in inside for d in board.neighbours[c]} - inside
    assert {board.labels[c] for c in boundary} == set(ring)
    pos = coil_pos(black=ring[:-1], white=["g7"], turn=2)
    won = pos.play(ring[-1])
    assert won.outcome.reason == "coil"
    assert won.highlights.enclosed == {"g7", "h7"}
    assert won.highlights.winning == set(ring)


def test_loop_closed_only_with_the_edge_is_not_a_coil():
    # black stones cut off a1, b1, a2, b2 against the board's corner edge
    wall = ["c1", "c2", "c3", "b3", "a3"]
    pos = engine.new_game("coil")
    for cell in wall:
        pos = pos.play(cell)  # every placement legal in Phase I: no coil
    assert pos.phase == "I" and pos.outcome is None
    pos = coil_pos(black=wall, turn=1)
    assert pos.play("b2").outcome is None  # White fills the inside: still nothing
    # along a straight edge: a pocket b1 c1 d1 against the bottom row
    pocket_wall = ["a1", "a2", "b2", "c2", "d2", "e2", "e1"]
    pos = coil_pos(black=pocket_wall[:-1], turn=2)
    assert pos.play("e1").outcome is None


def test_a_white_loop_means_nothing():
    pos = coil_pos(white=RING_G7[:5], black=["a1"], turn=1, black_seat=2)
    assert pos.play("f6").outcome is None


def test_coil_enclosing_white_and_black_together():
    # a ring around g7 + h7 with g7 black and h7 white inside
    ring = ["f6", "g6", "h6", "f7", "i7", "g8", "h8", "i8"]
    pos = coil_pos(black=ring[:-1] + ["g7"], white=["h7"], turn=2)
    assert pos.outcome is None
    won = pos.play("i8")
    assert won.outcome.winner == 2
    assert won.highlights.enclosed == {"g7", "h7"}


def test_board_full_without_coil_white_wins_size5():
    board = engine.hex_board("hexhex", 5)
    black = [board.labels[c] for c in board.row_cells(0)]  # a1..e1: a line on the edge
    white = [board.labels[c] for c in range(len(board)) if board.labels[c] not in black]
    white.remove("e5")
    pos = coil_pos(size=5, black=black, white=white, turn=1, black_seat=2)
    assert pos.outcome is None
    assert list(pos.legal_moves()) == ["e5"]
    full = pos.play("e5")
    assert full.outcome == engine.Outcome(1, "board full")
    assert full.to_move is None and list(full.legal_moves()) == []
    with pytest.raises(IllegalMove, match="over"):
        full.play("e5")


def test_board_full_by_black_without_coil_white_wins_but_coil_beats_full_board():
    board = engine.hex_board("hexhex", 5)
    black = [board.labels[c] for c in board.row_cells(0)]
    white = [board.labels[c] for c in range(len(board)) if board.labels[c] not in black]
    white.remove("e5")
    # Black to fill the last cell: it closes no loop (neighbours white) -> White wins
    pos = coil_pos(size=5, black=black, white=white, turn=2, black_seat=2)
    assert pos.play("e5").outcome == engine.Outcome(1, "board full")
    # last cell surrounded by black: filling it makes a coil, Black wins
    ring = [board.labels[c] for c in board.neighbours[board.cell("e5")]]
    white2 = [c for c in white if c not in ring]
    pos = coil_pos(size=5, black=black + ring[:-1], white=white2 + [ring[-1]], turn=2, black_seat=2)
    assert pos.outcome is None
    # fill: ring complete except one white stone -> no coil; put black on e5 -> no coil either
    assert pos.play("e5").outcome == engine.Outcome(1, "board full")
    pos = coil_pos(size=5, black=black + ring[:-1], white=white2, turn=2, black_seat=2, ply=60)
    # two empty cells: e5 and ring[-1]; Black closes the ring
    assert pos.play(ring[-1]).outcome == engine.Outcome(2, "coil")


# ---- moves and errors ----------------------------------------------------------------------
def test_move_errors():
    pos = engine.new_game("coil")
    for bad in ("z99", "hello", "a14", "g7 h7", ""):
        with pytest.raises(MoveError):
            pos.play(bad)
    pos = pos.play("g7")
    with pytest.raises(IllegalMove, match="g7 is occupied"):
        pos.play("g7")


def test_resign_and_timeout():
    pos = engine.new_game("coil").play("g7")
    r = pos.resign(1)
    assert r.outcome.winner == 2 and r.outcome.reason == "resignation"
    assert engine.from_text(r.to_text()) == r


# ---- position text --------------------------------------------------------------------------
def test_position_text_round_trip_and_errors():
    pos = engine.replay("coil", {"size": 5}, ["c3", "pass", "e5", "d4"])
    text = pos.to_text()
    assert "!" not in text
    back = engine.from_text(text)
    assert back == pos and back.to_text() == text
    assert list(back.legal_moves()) == list(pos.legal_moves())
    assert back.colour(2) == "black" and back.phase == "II" and back.to_move == 1
    rows, turn, phase, seat = text.split(" ", 4)[4].split(" ")
    bad_bodies = [
        f"{rows}x {turn} {phase} {seat}",                 # wrong row length
        f"{rows.replace('.', 'q', 1)} {turn} {phase} {seat}",  # bad character
        f"{rows} 3 {phase} {seat}",
        f"{rows} {turn} III {seat}",
        f"{rows} {turn} I {seat}",                         # Phase I with a Black seat
        f"{rows} {turn} II -",
        f"{rows} {turn}",
        f"{rows.rsplit('/', 1)[0]} {turn} {phase} {seat}",  # a row missing
    ]
    head = " ".join(text.split(" ", 4)[:4])
    for body in bad_bodies:
        with pytest.raises(PositionError):
            engine.from_text(f"{head} {body}")


def test_position_text_refuses_a_coil_in_phase_one_and_white_stones():
    with pytest.raises(PositionError):
        engine.from_text(coil_text(black=RING_G7, phase="I", black_seat=None))
    with pytest.raises(PositionError):
        engine.from_text(coil_text(white=["a1"], phase="I", black_seat=None))


def test_finished_position_round_trips_with_highlights():
    won = coil_pos(black=RING_G7[:5], turn=2).play("f6")
    back = engine.from_text(won.to_text())
    assert back.outcome == won.outcome and back.highlights == won.highlights


# ---- fast coil test against the slow definition ------------------------------------------
@pytest.mark.parametrize("size", [5, 7])
def test_fast_coil_detection_matches_slow_definition(size):
    rng = random.Random(size)
    board = engine.hex_board("hexhex", size)
    t = coil_tables(size)
    for _ in range(12 if size == 5 else 6):
        # grow a coil-free black set in random order (the Phase I process)
        black: set[int] = set()
        order = list(range(len(board)))
        rng.shuffle(order)
        limit = rng.randrange(len(board) // 3, len(board))
        for c in order[:limit]:
            padded = sum(t.bit[x] for x in black | {c})
            fast = t.closes_coil(padded, c)
            slow = bool(slow_enclosed(board, black | {c}))
            assert fast == slow, (sorted(board.labels[x] for x in black), board.labels[c])
            if not fast:
                black.add(c)
        # the one-flood enclosure of any black set equals the per-cell definition
        extra = set(rng.sample(range(len(board)), len(board) // 4)) | black
        padded = sum(t.bit[x] for x in extra)
        enc = {t.unpad[p] for p in bits(t.enclosed(padded))}
        assert enc == slow_enclosed(board, extra)


def test_random_games_are_consistent_with_the_definition():
    rng = random.Random(5)
    for _ in range(20):
        pos = engine.new_game("coil", size=5)
        while pos.outcome is None:
            mv = pos.random_move(rng)
            pos = pos.play(mv)
            black = {c for c, col in pos.stones.items() if col == "black"}
            has_coil = bool(slow_enclosed(pos.board, black))
            assert (pos.outcome is not None and pos.outcome.reason == "coil") == has_coil
        assert engine.from_text(pos.to_text()) == pos


def test_random_playout_ends_in_a_valid_position():
    rng = random.Random(3)
    start = engine.replay("coil", {"size": 6}, ["a1", "f6"])
    for _ in range(30):
        end = start.random_playout(rng)
        assert end.outcome is not None and end.outcome.reason in ("coil", "board full")
        back = engine.from_text(end.to_text())
        assert back.outcome == end.outcome and back.highlights == end.highlights
        black = {c for c, col in end.stones.items() if col == "black"}
        assert bool(slow_enclosed(end.board, black)) == (end.outcome.reason == "coil")
        assert end.ply >= start.ply + 1


def test_random_internal_moves_are_legal():
    rng = random.Random(8)
    pos = engine.new_game("coil", size=5)
    while pos.outcome is None:
        move = pos._random_internal(rng)
        text = "pass" if move == -1 else pos.board.labels[move]
        assert pos.is_legal(text)
        pos = pos.play(text)


@pytest.mark.parametrize("size", [5, 7])
def test_search_state_keeps_the_black_groups_a_rebuild_would_find(size):
    """With the search's settings (tactics and loops), a copy carries the black groups
    (``CoilState._groups``) and every play keeps them: the same groups (each group's stones
    under its highest cell, in ascending order) and bit-sliced black-neighbour counts as
    building them afresh from the stones, the counts right cell by cell; and a playout from the kept groups makes the same moves."""
    rng = random.Random(size)
    for _game in range(6):
        state = engine.new_game("coil", size=size).search_state()
        state.tactics = state.loops = True
        state = state.copy()
        while state.winner is None:
            assert state._groups is not None
            parent, gmask, *counts = state._groups
            _parent, fresh_gmask, *fresh_counts = state._build_groups()
            assert sorted(gmask.items()) == list(fresh_gmask.items())
            assert counts == fresh_counts
            ones, twos, fours = counts
            t = state.tables
            for y in range(state.n_cells):  # the bit-sliced counts, cell by cell
                count = sum(1 for j in t.ring[y] if state.black >> j & 1)
                b = t.bit[y]
                assert count == bool(ones & b) + 2 * bool(twos & b) + 4 * bool(fours & b)
            for c in bits(state.black):
                r = c
                while parent[r] != r:
                    r = parent[r]
                assert gmask[r] & state.tables.bit[c]
            kept, fresh = state.copy(), state.copy()
            fresh._groups = None
            seed = rng.random()
            assert kept.playout(random.Random(seed)) == fresh.playout(random.Random(seed))
            state.play(rng.choice(state.actions()))


@pytest.mark.parametrize("size", [5, 7, 12])
def test_table_helpers_match_their_definitions(size):
    """``CoilTables.padded`` / ``cells_of`` / ``fives`` against cell-by-cell definitions on
    random cell bitboards (rows split across bytes and the padding included)."""
    t = coil_tables(size)
    n = len(t.pad)
    rng = random.Random(size)
    for _ in range(60):
        x = rng.getrandbits(n) & rng.getrandbits(n) if rng.random() < 0.5 else rng.getrandbits(n)
        assert t.padded(x) == sum(t.bit[c] for c in range(n) if x >> c & 1)
        assert t.cells_of(x) == [c for c in range(n) if x >> c & 1]
        five = sum(t.bit[y] for y in range(n) if sum(1 for j in t.ring[y] if x >> j & 1) == 5)
        assert t.fives(t.padded(x)) == five
