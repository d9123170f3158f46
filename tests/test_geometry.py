"""Board geometry against RULES.md "Boards and coordinates"."""

import pytest

from engine import MoveError, hex_board, square_board
from engine.geometry import file_letter


def test_file_letters_continue_after_z():
    assert [file_letter(i) for i in (0, 1, 25, 26, 27, 51, 52)] == ["a", "b", "z", "aa", "ab", "az", "ba"]


@pytest.mark.parametrize("n", range(3, 13))
def test_hexhex_cell_count_and_perimeter(n):
    b = hex_board("hexhex", n)
    assert len(b) == 3 * n * n - 3 * n + 1
    assert bin(b.perimeter).count("1") == 6 * (n - 1)


def test_hexhex7_labels():
    b = hex_board("hexhex", 7)
    assert len(b) == 127
    assert [b.labels[c] for c in b.row_cells(0)] == ["a1", "b1", "c1", "d1", "e1", "f1", "g1"]
    assert [b.labels[c] for c in b.row_cells(6)][0] == "a7"
    assert [b.labels[c] for c in b.row_cells(6)][-1] == "m7"
    assert [b.labels[c] for c in b.row_cells(12)] == ["g13", "h13", "i13", "j13", "k13", "l13", "m13"]
    centre = b.cell("G7")
    assert len(b.neighbours[centre]) == 6
    assert sorted(b.labels[c] for c in b.neighbours[centre]) == sorted(["f7", "h7", "g6", "g8", "h8", "f6"])


def test_limping4_rows():
    b = hex_board("limping", 4)
    assert len(b) == 48
    assert [len(b.row_cells(r)) for r in range(8)] == [5, 6, 7, 8, 7, 6, 5, 4]
    assert [b.labels[c] for c in b.row_cells(0)] == ["a1", "b1", "c1", "d1", "e1"]
    assert [b.labels[c] for c in b.row_cells(7)] == ["e8", "f8", "g8", "h8"]


def test_hex_drawn_position_slants_files_up_left():
    b = hex_board("hexhex", 7)
    x0, y0 = b.point(b.cell("a1"))
    x1, y1 = b.point(b.cell("a2"))
    assert x1 == pytest.approx(x0 - 0.5) and y1 > y0


def test_square_board_neighbours_and_labels():
    b = square_board(9)
    assert b.labels[0] == "a1" and b.labels[80] == "i9"
    e5 = b.cell("e5")
    assert len(b.neighbours[e5]) == 4 and len(b.adjacent[e5]) == 8
    a1 = b.cell("a1")
    assert sorted(b.labels[c] for c in b.adjacent[a1]) == ["a2", "b1", "b2"]
    assert bin(b.corners).count("1") == 4
    assert bin(b.perimeter).count("1") == 32


@pytest.mark.parametrize("text", ["z99", "j1", "hello", "", "a0", "11"])
def test_bad_cell_text_is_a_move_error(text):
    with pytest.raises(MoveError):
        square_board(9).cell(text)


def test_cells_of_lists_the_set_cells_in_order_like_bits():
    import random

    import engine
    from engine.geometry import bits

    assert engine.cells_of(0) == []
    assert engine.cells_of(0b1011) == [0, 1, 3]
    rng = random.Random(7)
    for _ in range(200):
        x = rng.getrandbits(rng.randrange(1, 400))
        assert engine.cells_of(x) == list(bits(x)) == [i for i in range(x.bit_length()) if x >> i & 1]
