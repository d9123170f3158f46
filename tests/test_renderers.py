"""Board images read back pixel by pixel: stones, marks, coordinates, panel, GIF replays.

Positions come from the real engine (new games, replays and seeded random play). Pixels are
located with :func:`renderers.cell_centre` and the layout's stone radius.
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import itertools
import math
import os
import random

import pytest
from PIL import Image, ImageChops, ImageDraw

import engine
import renderers
from renderers import panel
from renderers.english import clock_text, options_text, result_text
from renderers.fonts import font, runs, stroke
from renderers.layout import HEX_R
from renderers.panel import clean_name
from renderers.render import layout_of
from renderers.sprites import RING

W = renderers.DEFAULT_WIDTH
TH = renderers.get_theme("default")
#: Backgrounds these tests keep at once (``renderers.board.base_image``'s cache holds 12, a
#: bot's few boards; about 5 MB each).
BACKGROUNDS = 64


@pytest.fixture(autouse=True, scope="module")
def _room_for_every_background():
    """These tests draw every board of every size, one parametrized test after another, so
    the background cache of 12 was emptied by each sweep and every background drawn again by
    the next (150 times in a run, a tenth of a second each): while they run, the same cached
    function has room for all of them."""
    cached = renderers.board.base_image
    with pytest.MonkeyPatch.context() as mp:
        roomy = functools.lru_cache(maxsize=BACKGROUNDS)(cached.__wrapped__)
        mp.setattr(renderers.board, "base_image", roomy)
        mp.setattr(renderers.render, "base_image", roomy)
        yield


# ---- helpers -------------------------------------------------------------------------------


def image(pos, **kw) -> Image.Image:
    """The picture of ``pos`` as drawn (:func:`renderers.render_image`; what
    :func:`renderers.render_png` encodes, which :func:`test_the_png_holds_the_drawn_picture`
    checks): the tests look at pixels, and PNG encoding and decoding were a third of their time."""
    return renderers.render_image(pos, **kw).convert("RGB")


def decoded(png: bytes) -> Image.Image:
    """A PNG's pixels (RGB), checking its signature."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(png))
    im.load()
    return im.convert("RGB")


def lum(rgb) -> float:
    r, g, b = rgb[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b


def near(a, b, tol=40) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a[:3], b[:3], strict=True))


def pixels(im) -> list:
    """Every pixel of ``im`` (Pillow 12+ renamed getdata)."""
    flat = getattr(im, "get_flattened_data", None)
    return list(flat() if flat else im.getdata())


def pixel(im, x, y):
    return im.getpixel((int(x), int(y)))


def every_board(kind: engine.GameKind):
    """Every (options) the engine allows for ``kind``, varying shape and size only."""
    specs = {o.name: o for o in kind.options}
    shapes = specs["shape"].choices if "shape" in specs else (None,)
    size = specs["size"]
    for shape, n in itertools.product(shapes, range(size.minimum, size.maximum + 1)):
        opts = {"size": n} if shape is None else {"shape": shape, "size": n}
        try:
            kind.validate(opts)
        except engine.OptionError:
            continue
        yield opts


BOARDS = [(key, opts) for key, kind in engine.GAMES.items() for opts in every_board(kind)]


def played(kind: str, plies: int, seed: int = 1, **opts):
    """A position after ``plies`` random legal moves (fewer if the game ends first)."""
    rng = random.Random(seed)
    pos = engine.new_game(kind, **opts)
    for _ in range(plies):
        if pos.outcome is not None:
            break
        pos = pos.play(pos.random_move(rng))
    return pos


def finished(kind: str, want=lambda p: True, **opts):
    """A finished random game satisfying ``want`` (searching seeds in order)."""
    start = engine.new_game(kind, **opts)
    for seed in range(200):
        pos = start.random_playout(random.Random(seed))
        if want(pos):
            return pos
    pytest.fail(f"no finished {kind} game found with the wanted property")


# ---- every game, shape and size --------------------------------------------------------------


@pytest.mark.parametrize(("kind", "opts", "kw"), [
    ("coil", {"size": 7}, {}),
    ("io", {"size": 9}, {"players": {1: "Ann", 2: "山田太郎"}, "theme": "dark"}),
    ("braincoral", {"shape": "limping", "size": 4}, {"cell_labels": True}),
    ("whirlwind", {"size": 14}, {"clocks": {1: "2 days", 2: "bank 7d"}}),
])
def test_the_png_holds_the_drawn_picture(kind, opts, kw):
    """render_png is render_image stored with a palette (the other tests look at render_image's
    pixels): same size, opaque, no channel of any pixel more than 16 levels of 255 off, and
    99% of the pixels within 8."""
    pos = played(kind, 5, **opts)
    raw = Image.open(io.BytesIO(renderers.render_png(pos, **kw)))
    assert raw.mode == "P" and "transparency" not in raw.info
    png, drawn = raw.convert("RGB"), image(pos, **kw)
    assert png.size == drawn.size == renderers.image_size(pos)
    difference = ImageChops.difference(png, drawn)
    assert max(high for _, high in difference.getextrema()) <= 16
    red, green, blue = difference.split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue).histogram()
    assert sum(worst[:9]) > 0.99 * drawn.width * drawn.height


@pytest.mark.parametrize("mode", ["RGB", "1"])
def test_a_text_width_is_pillows_measure_on_that_drawing_and_is_measured_once(mode):
    """The panel's text widths (``_len``) are cached: the cached width is what Pillow measures
    on a drawing of the same image mode, fallback faces and an emboldened run's stroke
    included, and measuring the same text in the same font again is a cache hit."""
    d = ImageDraw.Draw(Image.new(mode, (8, 8)))
    f = font(30, "bold")
    text = f"Zoë 山田 Борис {os.getpid()}-{random.random()}"  # not measured before in this process
    by_pillow = sum(d.textlength(t, font=g) + 2 * stroke(g) for t, g in runs(text, f))
    assert len(runs(text, f)) > 1  # a fallback face draws the Chinese characters
    hits = panel._width.cache_info().hits
    assert panel._len(d, text, f) == by_pillow
    assert panel._width.cache_info().hits == hits
    assert panel._len(ImageDraw.Draw(Image.new(mode, (8, 8))), text, f) == by_pillow
    assert panel._width.cache_info().hits == hits + 1



def test_every_game_is_covered():
    assert BOARDS, "the engine registers no games"
    assert {k for k, _ in BOARDS} == set(engine.GAMES)


@pytest.mark.parametrize(("kind", "opts"), BOARDS, ids=[f"{k}-{'-'.join(map(str, o.values()))}" for k, o in BOARDS])
def test_every_board_renders_with_its_stones(kind, opts):
    pos = played(kind, 6, seed=len(BOARDS), **opts)
    im = image(pos)
    assert im.size == renderers.image_size(pos) and im.width == W
    r = layout_of(pos).radius
    flipped = set(pos.highlights.flipped)
    for cell, colour in pos.stones.items():
        label = pos.board.labels[cell]
        x, y = renderers.cell_centre(pos, label)
        # Sample a little below the centre: clear of the last-move ring and flipped marks.
        got = pixel(im, x, y + 0.38 * r) if label in flipped else pixel(im, x, y)
        if label in pos.highlights.placed:
            got = pixel(im, x, y)
        want = TH.stone(colour)
        assert near(got, want), (label, colour, got)


# ---- stones and marks ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(engine.GAMES))
def test_stone_on_the_cell_it_was_played(kind):
    start = engine.new_game(kind)
    move = next(m for m in start.legal_moves() if m != "pass" and " " not in m)
    pos = start.play(move)
    im = image(pos)
    x, y = renderers.cell_centre(pos, move)
    colour = pos.stones[pos.board.cell(move)]
    assert near(pixel(im, x, y), TH.stone(colour))
    # The same cell is empty before the move: no stone colour there.
    before = image(start)
    assert not near(pixel(before, x, y), TH.stone(colour))
    # A stone's rim has the opposite lightness to its fill.
    r = layout_of(pos).radius
    rim = pixel(im, x + r - 1.5, y)
    assert (lum(rim) - lum(TH.stone(colour))) * (1 if colour == "black" else -1) > 40


@pytest.mark.parametrize("kind", sorted(engine.GAMES))
def test_last_move_is_marked_by_a_ring(kind):
    pos = played(kind, 5, seed=3)
    assert pos.highlights.placed
    im = image(pos)
    r = layout_of(pos).radius
    for label in pos.highlights.placed:
        colour = pos.stones[pos.board.cell(label)]
        x, y = renderers.cell_centre(pos, label)
        on_ring = [pixel(im, x + RING * r * math.cos(a), y + RING * r * math.sin(a))
                   for a in (0, math.pi / 2, math.pi, 3 * math.pi / 2)]
        assert all(near(p, TH.contrast(colour), 70) for p in on_ring), (label, on_ring)
        assert near(pixel(im, x, y), TH.stone(colour))
    # Stones not placed by the last move carry no ring.
    for cell, colour in pos.stones.items():
        label = pos.board.labels[cell]
        if label in pos.highlights.placed or label in pos.highlights.flipped:
            continue
        x, y = renderers.cell_centre(pos, label)
        assert near(pixel(im, x + RING * r, y), TH.stone(colour)), label


def test_io_flipped_stones_carry_a_small_mark():
    rng = random.Random(11)
    pos = engine.new_game("io", size=7)
    while not pos.highlights.flipped:
        pos = pos.play(pos.random_move(rng))
    im = image(pos)
    for label in pos.highlights.flipped:
        colour = pos.stones[pos.board.cell(label)]
        x, y = renderers.cell_centre(pos, label)
        assert near(pixel(im, x, y), TH.contrast(colour)), label
        # ... and only a small one: the stone's own colour is still around it.
        r = layout_of(pos).radius
        assert near(pixel(im, x, y + 0.38 * r), TH.stone(colour)), label


def test_coil_enclosed_cells_are_tinted_and_the_loop_stands_out():
    pos = finished("coil", lambda p: p.outcome.reason == "coil")
    hl = pos.highlights
    assert hl.enclosed and hl.winning
    im = image(pos)
    lay = layout_of(pos)
    for label in hl.enclosed:
        x, y = renderers.cell_centre(pos, label)
        # Between the stone and the top corner of the hexagon: the tint, not the board.
        inside = pixel(im, x, y - 0.5 * HEX_R * lay.scale - 0.45 * lay.radius)
        assert not near(inside, TH.board, 20), (label, inside)
        assert inside[0] > inside[2] + 40, (label, inside)  # reddish
    for label in hl.winning:
        x, y = renderers.cell_centre(pos, label)
        assert near(pixel(im, x, y), TH.black), label
    faded = [c for c in pos.stones if pos.board.labels[c] not in hl.winning | hl.enclosed]
    for cell in faded[:10]:
        x, y = lay.centres[cell]
        assert not near(pixel(im, x, y), TH.stone(pos.stones[cell]), 30)


WON_ON_BOARD = {"coil": "coil", "whirlwind": "connection", "braincoral": "score", "branchingcoral": "score"}


@pytest.mark.parametrize("kind", sorted(WON_ON_BOARD))
def test_winning_stones_have_a_halo_and_the_rest_fade(kind):
    pos = finished(kind, lambda p: p.outcome.reason == WON_ON_BOARD[kind])
    hl = pos.highlights
    assert hl.winning
    im = image(pos)
    lay = layout_of(pos)
    r = lay.radius
    # The Corals' winning stones are both largest groups; only the winner's is haloed.
    haloed = hl.groups[pos.outcome.winner] if hl.groups else hl.winning
    for label in hl.winning:
        x, y = renderers.cell_centre(pos, label)
        ring = [pixel(im, x + 1.1 * r * math.cos(a), y + 1.1 * r * math.sin(a))
                for a in [i * math.pi / 6 for i in range(12)]]
        if label in haloed:
            assert any(near(p, TH.accent, 45) for p in ring), label
        if label not in hl.placed:
            assert near(pixel(im, x, y), TH.stone(pos.stones[pos.board.cell(label)])), label
    keep = hl.winning | hl.enclosed | hl.chain
    for cell, colour in pos.stones.items():
        label = pos.board.labels[cell]
        if label in hl.chain and label not in hl.winning | set(hl.placed):
            # The rest of Whirlwind's winning chain is plain: no halo, no fading.
            x, y = lay.centres[cell]
            assert near(pixel(im, x, y), TH.stone(colour)), label
            ring = [pixel(im, x + 1.1 * r * math.cos(a), y + 1.1 * r * math.sin(a))
                    for a in [i * math.pi / 6 for i in range(12)]]
            assert sum(near(p, TH.accent, 45) for p in ring) <= 4, label  # a neighbour's halo at most
        if label not in keep:
            x, y = lay.centres[cell]
            assert not near(pixel(im, x, y), TH.stone(colour), 30), pos.board.labels[cell]


@pytest.mark.parametrize("kind", ["braincoral", "branchingcoral"])
@pytest.mark.parametrize("theme", ["default", "dark"])
def test_coral_results_halo_only_the_winners_group_and_give_the_score_parts(kind, theme):
    """Both largest groups score and stay bright, but only the winner's carries the winning
    halo (the loser's looked like a second winning structure); the panel spells out each
    score as largest group plus bonus."""
    from renderers.english import score_parts

    th = renderers.THEMES[theme]
    pos = finished(kind, lambda p: p.outcome.reason == "score")
    hl, winner = pos.highlights, pos.outcome.winner
    im = image(pos, theme=theme)
    lay = layout_of(pos)
    r = lay.radius

    def halo_share(label):
        x, y = renderers.cell_centre(pos, label)
        ring = [pixel(im, x + 1.12 * r * math.cos(a), y + 1.12 * r * math.sin(a))
                for a in [i * math.pi / 12 for i in range(24)]]
        return sum(near(p, th.accent, 45) for p in ring) / len(ring)

    assert sum(halo_share(lab) for lab in hl.groups[winner]) / len(hl.groups[winner]) > 0.3
    for lab in hl.groups[3 - winner]:
        assert halo_share(lab) <= 0.34, lab  # a neighbouring winner's halo at most
        if lab not in hl.placed:  # the loser's group does not fade
            x, y = renderers.cell_centre(pos, lab)
            assert near(pixel(im, x, y), th.stone(pos.stones[pos.board.cell(lab)])), lab
    bonus = pos.options["bonus"]
    for seat in (1, 2):
        largest = len(hl.groups[seat])
        text = score_parts(pos, seat)
        assert text.startswith(f"largest group {largest}")
        if bonus != "none":
            assert f"+ {pos.scores[seat] - largest} " in text


def test_resigned_game_shows_no_fading():
    pos = played("coil", 12, seed=4).resign(1)
    im = image(pos)
    for cell, colour in pos.stones.items():
        x, y = layout_of(pos).centres[cell]
        label = pos.board.labels[cell]
        if label not in pos.highlights.placed:
            assert near(pixel(im, x, y), TH.stone(colour))


def test_branching_coral_removed_stones_leave_a_crossed_ghost():
    for seed in range(100):
        rng = random.Random(seed)
        pos = engine.new_game("branchingcoral")
        while not pos.highlights.removed and pos.outcome is None:
            pos = pos.play(pos.random_move(rng))
        if pos.highlights.removed:
            break
    else:
        pytest.fail("no capture found in 100 seeded games")
    im = image(pos)
    r = layout_of(pos).radius
    for label, colour in pos.highlights.removed.items():
        assert pos.board.cell(label) not in pos.stones
        x, y = renderers.cell_centre(pos, label)
        assert near(pixel(im, x, y), TH.rim(colour), 60)  # where the two strokes of the cross meet
        edge = pixel(im, x + r * 0.6, y)  # inside the ghost, off the cross: a washed-out fill
        assert not near(edge, TH.board, 8) and not near(edge, TH.stone(colour), 40)


@pytest.mark.parametrize("kind", ["braincoral", "branchingcoral"])
def test_coral_largest_groups_are_joined_by_bars(kind):
    pos = played(kind, 24, seed=5)
    groups = pos.highlights.groups
    assert groups
    im = image(pos)
    lay = layout_of(pos)
    board = pos.board
    in_group = set().union(*(set(map(board.cell, g)) for g in groups.values()))
    bonded = loose = 0
    for a, colour in pos.stones.items():
        for b in board.neighbours[a]:
            if b <= a or pos.stones.get(b) != colour:
                continue
            (xa, ya), (xb, yb) = lay.centres[a], lay.centres[b]
            mid = pixel(im, (xa + xb) / 2, (ya + yb) / 2)
            if a in in_group and b in in_group:
                assert near(mid, TH.stone(colour), 50), (board.labels[a], board.labels[b])
                bonded += 1
            elif a not in in_group and b not in in_group:
                assert not near(mid, TH.stone(colour), 50), (board.labels[a], board.labels[b])
                loose += 1
    assert bonded


def test_whirlwind_edges_are_coloured_for_their_owners():
    from renderers.layout import BAND_GAP, BAND_WIDTH

    pos = engine.new_game("whirlwind")
    lay = layout_of(pos)
    im = image(pos)
    n = pos.board.size
    mid = (n - 1) / 2
    out = BAND_GAP + BAND_WIDTH / 2
    assert near(pixel(im, *lay.px(mid, n - 1 + out)), TH.black, 10)  # top: Black
    assert near(pixel(im, *lay.px(mid, -out)), TH.black, 10)  # bottom: Black
    assert near(pixel(im, *lay.px(-out, mid)), TH.white, 10)  # left: White
    assert near(pixel(im, *lay.px(n - 1 + out, mid)), TH.white, 10)  # right: White


# ---- coordinates ------------------------------------------------------------------------------


def _spots(pos, text):
    return [s for s in layout_of(pos).labels if s.text == text]


@pytest.mark.parametrize(("shape", "size"), [("hexhex", 7), ("limping", 4), ("hexhex", 3), ("limping", 2),
                                           ("hexhex", 11), ("limping", 10)])
def test_hex_labels_sit_at_both_ends_of_every_row_and_the_outer_end_of_every_file(shape, size):
    pos = engine.new_game("braincoral", shape=shape, size=size)
    board, lay = pos.board, layout_of(pos)
    for r in range(board.rows):
        cells = board.row_cells(r)
        xs = [lay.centres[c][0] for c in cells]
        y = lay.centres[cells[0]][1]
        spots = _spots(pos, str(r + 1))
        assert len(spots) == 2
        assert all(abs(s.y - y) < 0.5 for s in spots)
        assert min(s.x for s in spots) < min(xs) and max(s.x for s in spots) > max(xs)
    top = board.rows - 1
    for f in range(board.files):
        letter = engine.geometry.file_letter(f)
        cells = sorted((c for c, (ff, _) in enumerate(board.coords) if ff == f), key=lambda c: board.coords[c][1])
        (x0, y0), (x1, y1) = lay.centres[cells[0]], lay.centres[cells[-1]]
        spots = _spots(pos, letter)
        # A letter only where the file ends on the bottom or the top row (its other end lies
        # on an edge of row numbers), so one or two per file.
        ends = [board.coords[cells[0]][1] == 0, board.coords[cells[-1]][1] == top]
        assert len(spots) == sum(ends) >= 1, letter
        for s in spots:  # on the file's own slanted line, beyond its ends
            cross = (x1 - x0) * (s.y - y0) - (y1 - y0) * (s.x - x0) if len(cells) > 1 else 0
            assert abs(cross) < 1.0 * lay.scale * max(1, len(cells) - 1) * 0.05 + 1e-6, letter
            assert s.y > y0 if s.y > (y0 + y1) / 2 else s.y < y1


@pytest.mark.parametrize(("kind", "opts"), [("coil", {"size": 12}), ("coil", {"size": 7}),
                                            ("braincoral", {"shape": "hexhex", "size": 11}),
                                            ("braincoral", {"shape": "limping", "size": 10}),
                                            ("braincoral", {"shape": "limping", "size": 4})])
def test_hex_edge_labels_never_pair_a_letter_with_a_number(kind, opts):
    """No file letter stands near a row number, where the two would read as a cell name
    ("b 15", "10 w"): every letter is at least two label heights from every number."""
    lay = layout_of(engine.new_game(kind, **opts))
    letters = [lay.label_box(s) for s in lay.labels if s.text.isalpha()]
    numbers = [lay.label_box(s) for s in lay.labels if s.text.isdigit()]
    for a in letters:
        for b in numbers:
            gap_x = max(a[0] - b[2], b[0] - a[2], 0)
            gap_y = max(a[1] - b[3], b[1] - a[3], 0)
            assert math.hypot(gap_x, gap_y) >= 1.5 * lay.label_size, (a, b)


def test_hexhex_7_labels_match_rules():
    pos = engine.new_game("coil", size=7)
    b = pos.board
    assert [b.labels[c] for c in b.row_cells(0)] == [f"{ch}1" for ch in "abcdefg"]
    assert [b.labels[c] for c in b.row_cells(6)] == [f"{ch}7" for ch in "abcdefghijklm"]
    assert [b.labels[c] for c in b.row_cells(12)] == [f"{ch}13" for ch in "ghijklm"]
    lay = layout_of(pos)
    # Letters a..g stand below the bottom row, g..m above the top row, under/over their cells.
    for label, above in (("a1", False), ("g1", False), ("g13", True), ("m13", True)):
        x, y = renderers.cell_centre(pos, label)
        letter = label[0]
        spot = min(_spots(pos, letter), key=lambda s: abs(s.y - y))
        assert (spot.y < y) == above
        assert abs(spot.x - x) < lay.scale  # half a cell along the slant, plus the gap


def test_limping_4_labels_match_rules():
    pos = engine.new_game("braincoral", shape="limping", size=4)
    b, lay = pos.board, layout_of(pos)
    assert [b.labels[c] for c in b.row_cells(0)] == [f"{ch}1" for ch in "abcde"]
    assert [b.labels[c] for c in b.row_cells(7)] == [f"{ch}8" for ch in "efgh"]
    # Letters a..e stand below the bottom row and e..h above the top row, by their cells
    # (only e, on both rows, twice); every number 1..8 twice (both ends of its row).
    for label, above in (("a1", False), ("e1", False), ("e8", True), ("h8", True)):
        x, y = renderers.cell_centre(pos, label)
        spot = min(_spots(pos, label[0]), key=lambda s: abs(s.y - y))
        assert (spot.y < y) == above and abs(spot.x - x) < lay.scale
    texts = sorted(s.text for s in lay.labels)
    assert texts == sorted([*"abcdefgh", "e", *(str(r) for r in range(1, 9)), *(str(r) for r in range(1, 9))])


def test_square_labels_on_every_side():
    for kind in ("io", "whirlwind"):
        if kind not in engine.GAMES:
            continue
        pos = engine.new_game(kind)
        n = pos.board.size
        x_a1, y_a1 = renderers.cell_centre(pos, "a1")
        x_top, y_top = renderers.cell_centre(pos, f"a{n}")
        a = sorted(_spots(pos, "a"), key=lambda s: s.y)
        assert len(a) == 2 and a[0].y < y_top and a[1].y > y_a1
        assert all(abs(s.x - x_a1) < 0.5 for s in a)
        ones = sorted(_spots(pos, "1"), key=lambda s: s.x)
        assert len(ones) == 2 and ones[0].x < x_a1
        assert all(abs(s.y - y_a1) < 0.5 for s in ones)


# One game per drawing family, board shape and size: the layout depends on nothing else.
LAYOUTS = list({(renderers.render.family_of(k, engine.new_game(k, **o).board), o.get("shape", "square"),
                 o["size"]): (k, o) for k, o in BOARDS}.values())
LARGEST = [("coil", {"size": 12}), ("braincoral", {"shape": "hexhex", "size": 11}),
           ("braincoral", {"shape": "limping", "size": 10}), ("io", {"size": 19}), ("whirlwind", {"size": 24})]


def _ids(cases):
    return [f"{k}-{'-'.join(map(str, o.values()))}" for k, o in cases]


@pytest.mark.parametrize(("kind", "opts"), LAYOUTS, ids=_ids(LAYOUTS))
def test_labels_are_large_and_clear_of_each_other_and_of_the_board(kind, opts):
    pos = engine.new_game(kind, **opts)
    lay = layout_of(pos)
    assert lay.label_size >= 18  # at 1200x900; 13 px was too small on the largest boards
    boxes = [(s, lay.label_box(s)) for s in lay.labels]
    for (sa, a), (sb, b) in itertools.combinations(boxes, 2):
        gap_x = max(a[0] - b[2], b[0] - a[2])
        gap_y = max(a[1] - b[3], b[1] - a[3])
        assert max(gap_x, gap_y) > 1, (sa, sb)
        if sa.text.isalpha() != sb.text.isalpha() and gap_y <= 0:
            # A letter and a number on one line must not read as one label like "d8".
            assert gap_x >= 0.8 * lay.label_size, (sa, sb)
        if sa.text.isalpha() != sb.text.isalpha():
            # Nor one tucked under the other's corner like "10" over "v" (read "10v"):
            # a letter and a number stand at least half a label height apart in any direction.
            apart = math.hypot(max(gap_x, 0), max(gap_y, 0))
            assert apart >= 0.5 * lay.label_size, (sa, sb, apart)
    xs = [x for x, _ in lay.centres]
    ys = [y for _, y in lay.centres]
    for spot, (x0, y0, x1, y1) in boxes:
        for x, y in lay.centres:  # no ink within half a cell of any cell or point
            dx, dy = max(x0 - x, 0, x - x1), max(y0 - y, 0, y - y1)
            assert math.hypot(dx, dy) > 0.5 * lay.scale, spot
        if pos.board.shape == "square":  # outside the board's rim (Whirlwind: its bands)
            out = lay.radius if kind == "io" else 1.1 * lay.scale
            inside = x1 > min(xs) - out and x0 < max(xs) + out and y1 > min(ys) - out and y0 < max(ys) + out
            assert not inside, spot


@pytest.mark.parametrize(("kind", "opts"), LARGEST, ids=_ids(LARGEST))
def test_coordinates_on_the_largest_boards_are_drawn_large(kind, opts):
    pos = engine.new_game(kind, **opts)
    lay, im = layout_of(pos), image(pos)
    for spot in lay.labels:
        if not spot.text.isdigit():
            continue
        x0, y0, x1, y1 = lay.label_box(spot)
        box = im.crop((int(x0) - 2, int(y0) - 2, int(x1) + 3, int(y1) + 3))
        ink = [i for i, p in enumerate(pixels(box)) if near(p, TH.coord, 60)]
        rows = {i // box.width for i in ink}
        assert max(rows) - min(rows) + 1 >= 12, spot  # digit height in pixels (was about 9)


@pytest.mark.parametrize(("kind", "opts"), LAYOUTS, ids=_ids(LAYOUTS))
def test_board_and_coordinates_fill_their_area(kind, opts):
    pos = engine.new_game(kind, **opts)
    lay, im = layout_of(pos), image(pos)
    x0, y0, x1, y1 = lay.board_box
    area = im.crop((x0 + 4, y0 + 4, x1, y1 - 4))  # inside the image's thin border
    bx0, by0, bx1, by1 = ImageChops.difference(area, Image.new("RGB", area.size, TH.frame)).getbbox()
    left, right, top, bottom = bx0 + 4, x1 - x0 - 4 - bx1, by0 + 4, y1 - y0 - 4 - by1  # gaps
    margin = 0.012 * W + 3
    # Touches both sides of the area in one direction, and is centred in the other.
    assert left <= margin and right <= margin or top <= margin and bottom <= margin
    assert abs(left - right) <= 3 and abs(top - bottom) <= 3
    # The board area spans the image's whole width; the panel is the strip below it.
    assert (x0, x1) == (0, W) and lay.panel_box == (0, y1, W, lay.height)


@pytest.mark.parametrize(("shape", "size"), [("hexhex", 3), ("limping", 2), ("hexhex", 4), ("limping", 3)])
def test_file_letters_of_small_hex_boards_stay_close_to_the_board(shape, size):
    pos = engine.new_game("braincoral", shape=shape, size=size)
    lay = layout_of(pos)
    for spot in lay.labels:
        if spot.text.isalpha():
            near_cell = min(math.hypot(spot.x - x, spot.y - y) for x, y in lay.centres)
            # Beyond the rim by at most a couple of label heights (it was half a cell further).
            assert near_cell <= 0.57 * lay.scale + 2.5 * lay.label_size, spot


def test_coordinates_are_drawn_in_the_coordinate_colour():
    pos = engine.new_game("io" if "io" in engine.GAMES else next(iter(engine.GAMES)))
    im = image(pos)
    lay = layout_of(pos)
    for spot in lay.labels[:8]:
        s = lay.label_size
        box = im.crop((int(spot.x - s), int(spot.y - s / 2), int(spot.x + s), int(spot.y + s / 2)))
        assert any(near(p, TH.coord, 30) for p in pixels(box)), spot


def test_cell_labels_option_prints_faint_labels_in_empty_cells():
    pos = engine.new_game(next(iter(engine.GAMES)))
    x, y = renderers.cell_centre(pos, pos.board.labels[len(pos.board) // 2])
    r = layout_of(pos).radius
    box = (int(x - r), int(y - r / 2), int(x + r), int(y + r / 2))
    plain = image(pos).crop(box)
    labelled = image(pos, cell_labels=True).crop(box)
    assert plain.tobytes() != labelled.tobytes()
    assert any(near(p, TH.cell_label, 25) for p in pixels(labelled))


# ---- panel, themes, arguments -----------------------------------------------------------------


def test_panel_changes_with_players_and_clock_but_the_board_does_not():
    pos = played(next(iter(engine.GAMES)), 4)
    a = image(pos)
    b = image(pos, players={1: "Ann", 2: "Bo"}, clock="2 days 4 h left")
    bh = layout_of(pos).board_box[3]
    assert a.size == b.size
    assert a.crop((0, 0, W, bh)).tobytes() == b.crop((0, 0, W, bh)).tobytes()
    assert a.crop((0, bh, W, a.height)).tobytes() != b.crop((0, bh, W, a.height)).tobytes()


class _Over:
    """A finished position as the panel sees it, for outcomes random play rarely reaches."""

    def __init__(self, pos, outcome):
        self._pos, self.outcome, self.to_move = pos, outcome, None

    def __getattr__(self, name):
        return getattr(self._pos, name)


def _outcomes():
    ww = engine.new_game("whirlwind").random_playout(random.Random(1))
    coil = engine.new_game("coil").random_playout(random.Random(1))
    started = engine.new_game("io").play("e5")
    return [
        coil,
        _Over(coil, engine.Outcome(2, "board full")),
        engine.new_game("io").random_playout(random.Random(1)),
        finished("io", lambda p: p.outcome.winner is None, size=6),
        engine.new_game("braincoral").random_playout(random.Random(1)),
        ww,
        _Over(ww, engine.Outcome(2, "no moves")),
        started.resign(1),
        started.time_out(2),
    ]


LONG_NAMES = {1: "W" * 32, 2: "José 🎲 the 🐉 dragon-slayer of the north"}


@pytest.mark.parametrize("case", range(11))
def test_panel_text_stays_inside_the_panel(case):
    coil = engine.new_game("coil").play("g7").play("f6")
    positions = [*_outcomes(), coil, engine.new_game("io", size=19)]
    pos = positions[case]
    clock = "due 30 September 23:59 UTC, and then some more words" if pos.outcome is None else None
    im = image(pos, players=LONG_NAMES, clock=clock)
    _x0, py0, _x1, py1 = layout_of(pos).panel_box
    # The card's right and bottom padding hold no ink: every pixel is the card or the turn
    # highlight (clear of the card's rounded corners).
    for strip in (im.crop((W - 33, py0 + 22, W - 16, py1 - 34)), im.crop((34, py1 - 28, W - 34, py1 - 17))):
        assert all(near(p, TH.panel, 6) or near(p, TH.panel_turn, 6) for p in pixels(strip))


def test_result_text_for_every_reason():
    names = {1: "Ann", 2: "Bo"}
    got = {pos.outcome.reason: result_text(pos, names) for pos in _outcomes()}
    assert got["coil"][1] == "by closing a coil"
    assert got["board full"] == ("Bo wins", "board full, no coil")
    assert got["no moves"] == ("Bo wins", "Ann had no legal turn")
    assert got["resignation"] == ("Bo wins", "by resignation")
    assert got["timeout"] == ("Ann wins", "on time")
    assert got["connection"][1] == "by joining both edges"
    draw = finished("io", lambda p: p.outcome.winner is None, size=6)
    n = draw.scores[1]
    assert result_text(draw, names) == ("Draw", f"on stones {n}–{n}")
    io_won = engine.new_game("io").random_playout(random.Random(1))
    s = io_won.scores
    w = io_won.outcome.winner
    assert result_text(io_won, names)[1] == f"on stones {s[w]}–{s[3 - w]}"


@pytest.mark.parametrize("theme", sorted(renderers.THEMES))
def test_themes_are_opaque_and_stones_differ_by_lightness(theme):
    th = renderers.THEMES[theme]
    assert lum(th.white) - lum(th.black) > 180
    assert abs(lum(th.black_rim) - lum(th.black)) > 80 and abs(lum(th.white_rim) - lum(th.white)) > 80
    pos = played(next(iter(engine.GAMES)), 3)
    png = Image.open(io.BytesIO(renderers.render_png(pos, theme=theme)))
    # no alpha: the same picture on Discord's dark and light themes
    assert png.mode == "P" and "transparency" not in png.info
    im = png.convert("RGB")
    assert near(im.getpixel((1, 1)), th.border, 2) and near(im.getpixel((0, im.height // 2)), th.border, 2)
    assert near(im.getpixel((8, 8)), th.frame, 2)
    # The image's edge shows on both Discord themes: frame or border differs in lightness.
    for page in ((0x31, 0x33, 0x38), (0xFF, 0xFF, 0xFF)):
        assert max(abs(lum(th.border) - lum(page)), abs(lum(th.frame) - lum(page))) > 10, page


def test_unknown_theme_and_bad_arguments_raise():
    pos = engine.new_game(next(iter(engine.GAMES)))
    with pytest.raises(ValueError, match="unknown theme"):
        renderers.render_png(pos, theme="neon")
    with pytest.raises(TypeError):
        renderers.render_png(pos, players=["Ann", "Bo"])
    with pytest.raises(TypeError):
        renderers.render_png(pos, clock=42)
    with pytest.raises(engine.MoveError):
        renderers.cell_centre(pos, "z99")


def test_clock_text():
    assert clock_text(None) is None
    assert clock_text("3 h left") == "3 h left"
    assert clock_text(dt.timedelta(days=2, hours=4, minutes=5)) == "2 days 4 h left"
    assert clock_text(dt.timedelta(days=1)) == "1 day 0 h left"
    assert clock_text(dt.timedelta(hours=5, minutes=30)) == "5 h 30 min left"
    assert clock_text(dt.timedelta(seconds=20)) == "1 min left"
    assert clock_text(dt.timedelta(0)) == "time is up"
    assert clock_text(dt.datetime(2025, 5, 3, 14, 0)) == "due 3 May 14:00 UTC"
    eastern = dt.timezone(dt.timedelta(hours=-4))
    assert clock_text(dt.datetime(2025, 5, 3, 10, 0, tzinfo=eastern)) == "due 3 May 14:00 UTC"


def test_clean_name():
    assert clean_name("Zoë 🔥", "Player 2") == "Zoë"
    assert clean_name("Ольга", "Player 1") == "Ольга"
    assert clean_name("  ", "Player 2") == "Player 2"
    assert clean_name(None, "Player 1") == "Player 1"


def test_options_text():
    from engine.geometry import hex_board, square_board

    assert options_text({"size": 7}, hex_board("hexhex", 7)) == "hexhex 7"
    assert options_text({"size": 9}, square_board(9)) == "9×9"
    assert options_text({"shape": "limping", "size": 4, "bonus": "none"}, hex_board("limping", 4)) == (
        "limping 4 · no bonus"
    )


def test_render_image_scales_to_other_sizes():
    pos = played(next(iter(engine.GAMES)), 3)
    im = renderers.render_image(pos, width=600, height=600)
    assert im.size == (600, 600)
    label = pos.highlights.placed[0]
    x, y = renderers.cell_centre(pos, label, width=600, height=600)
    assert near(im.getpixel((int(x), int(y))), TH.stone(pos.stones[pos.board.cell(label)]))
    im = renderers.render_image(pos, width=600)
    assert im.size == renderers.image_size(pos, 600)
    x, y = renderers.cell_centre(pos, label, width=600)
    assert near(im.getpixel((int(x), int(y))), TH.stone(pos.stones[pos.board.cell(label)]))


# ---- GIF replays ------------------------------------------------------------------------------


def test_gif_replays_every_move_and_holds_the_last_frame():
    kind = "io" if "io" in engine.GAMES else next(iter(engine.GAMES))
    rng = random.Random(2)
    pos = engine.new_game(kind, size=5) if kind == "io" else engine.new_game(kind)
    moves = []
    while pos.outcome is None and len(moves) < 30:
        m = pos.random_move(rng)
        moves.append(m)
        pos = pos.play(m)
    gif = renderers.render_gif(kind, pos.options, moves, players={1: "Ann", 2: "Bo"})
    assert gif[:6] == b"GIF89a"
    im = Image.open(io.BytesIO(gif))
    assert im.n_frames == len(moves) + 1
    durations = []
    for i in range(im.n_frames):
        im.seek(i)
        durations.append(im.info["duration"])
    assert durations[-1] > max(durations[1:-1])
    # The final frame shows the final position: each stone's colour at its cell.
    im.seek(im.n_frames - 1)
    last = im.convert("RGB")
    from renderers.gif import GIF_WIDTH

    assert last.size == renderers.image_size(pos, GIF_WIDTH)
    for cell, colour in list(pos.stones.items())[:12]:
        label = pos.board.labels[cell]
        x, y = renderers.cell_centre(pos, label, width=GIF_WIDTH)
        r = layout_of(pos, GIF_WIDTH).radius
        want = TH.stone(colour)
        if pos.outcome is not None and pos.highlights.winning and label not in pos.highlights.winning:
            continue
        got = last.getpixel((int(x), int(y + 0.38 * r)))
        assert near(got, want, 45), (label, got)


def test_gif_rejects_a_bad_move_with_its_number():
    kind = next(iter(engine.GAMES))
    first = next(engine.new_game(kind).legal_moves())
    with pytest.raises(engine.IllegalMove, match="move 2"):
        renderers.render_gif(kind, {}, [first, first])
    with pytest.raises(engine.GameError):
        renderers.render_gif("chess", {}, [])


def test_gif_of_an_unplayed_game_has_one_frame():
    kind = next(iter(engine.GAMES))
    im = Image.open(io.BytesIO(renderers.render_gif(kind, {}, [])))
    assert im.n_frames == 1


def test_rendering_from_several_threads_gives_the_same_picture():
    from concurrent.futures import ThreadPoolExecutor

    positions = [played(key, 8, seed=9) for key in sorted(engine.GAMES)]
    alone = [renderers.render_png(p) for p in positions]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(renderers.render_png, positions * 2))
    assert together == alone * 2


# ---- issue 9: scores winner first, tie-break named, deadline whole, names readable ------------


def test_result_text_puts_the_winners_score_first_and_names_the_tie_break():
    names = {1: "Ann", 2: "Bo"}
    seat2 = finished("braincoral", lambda p: p.outcome.winner == 2 and p.scores[1] != p.scores[2])
    s = seat2.outcome.scores
    assert result_text(seat2, names) == ("Bo wins", f"on score {s[2]}–{s[1]}")
    assert s[2] > s[1]
    for kind in ("braincoral", "branchingcoral"):
        tie = finished(kind, lambda p: p.outcome.reason == "score" and p.scores[1] == p.scores[2])
        n = tie.scores[1]
        head, detail = result_text(tie, names)
        assert head == f"{names[tie.outcome.winner]} wins"
        assert detail == f"on score {n}–{n}\ntie broken by the last stone placed"


@pytest.mark.parametrize("kind", list(engine.GAMES))
def test_a_deadline_on_the_panel_reads_whole(kind):
    from PIL import ImageDraw

    from renderers.panel import CLOCK_SIZES, COLUMNS, clock_lines

    pos = played(kind, 6)
    lay = layout_of(pos)
    text = clock_text(dt.datetime(2026, 11, 27, 13, 13))
    # The room the panel gives the clock text: its first column (card margins, padding and
    # gaps between columns shared out, the clock icon subtracted).
    px0, py0, px1, py1 = lay.panel_box
    column = COLUMNS[0] * (px1 - px0 - 2 * 14 - 2 * 20 - 2 * 30)
    room = column - 2 * 13 - 12
    d = ImageDraw.Draw(Image.new("RGB", (8, 8)))
    f, lines = clock_lines(d, text, 1.0, room)
    assert " ".join(lines) == text  # whole: no ellipsis, nothing dropped
    assert f.size >= CLOCK_SIZES[-1]
    assert all(d.textlength(line, font=f) <= room for line in lines)
    # Drawn: the clock's ink stays inside the card, below the rest of the panel's text.
    im = image(pos, clock=dt.datetime(2026, 11, 27, 13, 13))
    plain = image(pos)
    diff = ImageChops.difference(im, plain).getbbox()
    assert diff is not None and diff[0] >= 14 + 20 and diff[2] <= 14 + 20 + column
    assert py0 + 0.5 * (py1 - py0) < diff[1] and diff[3] <= py1 - 14 - 4


DECORATED = ["Ꮓ̶̧͓ā̸l̷g̵o̶ 𝕯𝖆𝖗𝖐 ✨", "ｆｕｌｌ", "山田太郎", "Ναταλία", "محمد", "Ǹ̷̢̛̖̰̈́ő̸̢̻ 🎮", "नमस्ते"]


def test_decorated_names_fold_and_never_become_question_marks(monkeypatch):
    from renderers import fonts

    monkeypatch.setattr(fonts, "FALLBACK_FACES", ())  # Roboto only: the rest is transliterated
    got = [clean_name(n, "Player 1") for n in DECORATED]
    assert got == ["Noālgo Dark", "full", "ShanTianTaiLang", "Ναταλία", "mhmd", "Ǹő", "nmste"]
    assert clean_name("Zoë ✨🔥", "Player 2") == "Zoë"
    assert clean_name("🎮", "Player 2") == "Player 2"
    assert clean_name("a\u200bb\tc", "Player 1") == "ab c"
    assert clean_name("who?", "Player 1") == "who?"  # a player's own "?" stays


def test_decorated_names_draw_without_missing_glyphs():
    from renderers.fonts import _has_glyph, font, runs

    for name in DECORATED:
        text = clean_name(name, "Player 1")
        assert "?" not in text and text != "Player 1"
        for part, f in runs(text, font(34, "bold")):  # every run drawn by a font that has it
            assert all(_has_glyph(f.path, ch) for ch in part), (name, part)


ACCENTED = ["Olúwaṣeun Adébáyọ̀", "Ẹ̀kọ́", "Lạ̄m", "Nguyễn Thị Ǹgọ̀c"]


@pytest.mark.parametrize("name", ACCENTED)
def test_accents_left_on_a_latin_letter_after_composing_are_kept(name):
    # "ọ̀" has no precomposed character: its grave stays a combining mark after NFC, and a
    # name's spelling needs it (Yoruba, Vietnamese, pinyin...).
    import unicodedata

    assert any(unicodedata.combining(ch) for ch in unicodedata.normalize("NFC", name))
    assert clean_name(name, "Player 1") == unicodedata.normalize("NFC", name)


def test_zalgo_stacks_and_strike_throughs_on_latin_letters_are_still_dropped():
    assert clean_name("Ǹ\u0337\u0322\u031b\u0316\u0330\u0344ő\u0338\u0322\u033b", "Player 1") == "Ǹő"
    assert clean_name("a\u0338l\u0337g\u0335o\u0336", "Player 1") == "algo"  # overlays
    assert clean_name("Z\u0300\u0301\u0302\u0303\u0304\u0305", "Player 1") == "Z"  # a stack, dropped whole
    assert clean_name("Ю\u0301", "Player 1") == "Ю\u0301"  # Cyrillic stress mark, kept
    assert clean_name("x\u0323\u0301", "Player 1") == "x\u0323\u0301"  # two marks, kept


def test_an_accent_left_after_composing_is_drawn():
    # Drawn with Roboto, which has the combining marks: the kept grave changes the ink.
    from renderers.fonts import _has_glyph, font, runs

    for part, f in runs(clean_name("Adébáyọ̀", "Player 1"), font(34, "bold")):
        assert all(_has_glyph(f.path, ch) for ch in part)
    pos = played("braincoral", 6)
    marked = image(pos, players={1: "Adébáyọ̀"})
    bare = image(pos, players={1: "Adébáyọ"})
    assert marked.tobytes() != bare.tobytes()


def test_a_name_no_font_draws_is_drawn_as_its_transliteration(monkeypatch):
    from renderers import fonts

    monkeypatch.setattr(fonts, "FALLBACK_FACES", ())
    pos = played("braincoral", 6)
    a = image(pos, players={1: "山田太郎", 2: "محمد"})
    b = image(pos, players={1: "ShanTianTaiLang", 2: "mhmd"})
    assert a.tobytes() == b.tobytes()


CJK_NAMES = ["山田太郎", "김민준", "さくら"]


@pytest.mark.parametrize("name", CJK_NAMES)
def test_cjk_names_draw_in_the_packaged_cjk_font_not_transliterated(name):
    # The font comes from a dependency in pyproject.toml (installed by `make run`, `make
    # test` and the Dockerfile's `pip install .`), not from the system: any machine draws it.
    from renderers.fonts import CJK_FONT, FALLBACK_FACES, _face_font, _has_glyph, font, runs

    assert CJK_FONT is not None and os.path.exists(CJK_FONT)
    assert "site-packages" in CJK_FONT and FALLBACK_FACES[0]["regular"] == CJK_FONT
    assert clean_name(name, "Player 1") == name  # kept as written, not "ShanTianTaiLang"
    (part, f), = runs(name, font(34, "bold"))
    assert part == name and f.path == CJK_FONT
    # Every character has its own glyph in the font (not the missing-glyph box) ...
    assert all(_has_glyph(CJK_FONT, ch) for ch in name)
    cjk = _face_font(CJK_FONT, 34)
    missing = cjk.getmask("\U0010fffd")
    masks = {bytes(cjk.getmask(ch)) for ch in name}
    assert len(masks) == len(set(name)) and bytes(missing) not in masks
    # ... and the picture differs from the transliteration's, in width and ink.
    pos = played("braincoral", 6)
    drawn = image(pos, players={1: name})
    spelt = image(pos, players={1: anyascii_of(name)})
    bh = layout_of(pos).board_box[3]
    assert drawn.crop((0, bh, W, drawn.height)).tobytes() != spelt.crop((0, bh, W, spelt.height)).tobytes()


def anyascii_of(text: str) -> str:
    from anyascii import anyascii

    return anyascii(text)


def test_the_cjk_font_is_a_declared_dependency_the_docker_image_installs():
    import tomllib

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "pyproject.toml"), "rb") as fh:
        deps = tomllib.load(fh)["project"]["dependencies"]
    assert any(d.startswith("noto-cjk-sans-jp-regular>=") for d in deps)
    with open(os.path.join(root, "Dockerfile")) as fh:
        docker = fh.read()
    assert "COPY pyproject.toml" in docker and "pip install ." in docker


@pytest.mark.skipif(not __import__("os").path.exists(
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"), reason="DejaVu Sans not installed")
def test_a_script_roboto_lacks_is_drawn_in_an_installed_fallback_font():
    from renderers.fonts import font, runs

    (part, f), = runs("محمد", font(34, "bold"))
    assert part == "محمد" and "DejaVu" in f.path
    pos = played("braincoral", 6)
    drawn = image(pos, players={1: "محمد"})
    spelt = image(pos, players={1: "mhmd"})
    assert drawn.tobytes() != spelt.tobytes()


def test_a_won_board_draws_the_same_whatever_the_hash_seed():
    # Overlapping winning halos are pasted in a fixed order: a set's order varies with
    # PYTHONHASHSEED, and so did the picture of a won Whirlwind game.
    import subprocess
    import sys

    script = (
        "import engine, hashlib, random\n"
        "from renderers import render_png\n"
        "for seed in range(60):\n"
        "    p = engine.new_game('whirlwind').random_playout(random.Random(seed))\n"
        "    if p.outcome.reason == 'connection':\n"
        "        break\n"
        "print(hashlib.sha256(render_png(p)).hexdigest())\n"
    )
    digests = set()
    for hash_seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                             text=True, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1, digests


# ---- legible in chat and without hue ---------------------------------------------------------


def _size_cases():
    """Each game at its smallest, default and largest board (per shape), from its options."""
    out = []
    for key, kind in engine.GAMES.items():
        default = engine.new_game(key).board
        seen = set()
        boards = list(every_board(kind))
        shapes = {o.get("shape") for o in boards}
        for shape in sorted(shapes, key=str):
            sized = [o for o in boards if o.get("shape") == shape]
            for opts in (sized[0], sized[-1]):
                seen.add(tuple(opts.items()))
                out.append((key, opts))
        dflt = next(o for o in boards if o["size"] == default.size and o.get("shape", default.shape) == default.shape)
        if tuple(dflt.items()) not in seen:
            out.append((key, dflt))
    return out


SIZE_CASES = _size_cases()


def test_size_cases_hold_each_games_smallest_default_and_largest_board():
    coil = {o["size"] for k, o in SIZE_CASES if k == "coil"}
    assert coil == {5, 7, 12}
    whirlwind = {o["size"] for k, o in SIZE_CASES if k == "whirlwind"}
    assert whirlwind == {8, 14, 24}
    coral = {(o["shape"], o["size"]) for k, o in SIZE_CASES if k == "braincoral"}
    assert coral == {("limping", 2), ("limping", 4), ("limping", 10), ("hexhex", 3), ("hexhex", 11)}


@pytest.mark.parametrize(("kind", "opts"), BOARDS, ids=_ids(BOARDS))
def test_every_board_is_legible_at_discords_display_width(kind, opts):
    """Shown :data:`DISPLAY_WIDTH` px wide (Discord's chat), coordinates keep a cap height of
    at least 10 px and the last-move ring at least 8 px across, on every board (Coil hexhex
    12 had 6 px labels, Whirlwind 24 an 8 px ring)."""
    from renderers.layout import (
        DISPLAY_WIDTH,
        LABEL_CAP_MIN,
        MARKER_MIN,
        cap_height,
        marker_diameter,
    )

    lay = layout_of(engine.new_game(kind, **opts))
    k = DISPLAY_WIDTH / lay.width
    assert lay.label_height == cap_height(lay.label_size)
    assert lay.marker == pytest.approx(marker_diameter(lay.radius), abs=0.3)
    assert lay.label_height * k >= LABEL_CAP_MIN, lay.label_size
    assert lay.marker * k >= MARKER_MIN, lay.radius
    assert lay.display_label_height >= LABEL_CAP_MIN and lay.display_marker >= MARKER_MIN


@pytest.mark.parametrize(("kind", "opts"), SIZE_CASES, ids=_ids(SIZE_CASES))
def test_drawn_labels_and_last_move_ring_measure_what_the_layout_says(kind, opts):
    """The layout's figures are the drawn ones: the ink height of a row number and the
    width of the ring on the last stone played, measured in the picture."""
    pos = played(kind, 1, **opts)
    lay, im = layout_of(pos), image(pos)
    spot = next(s for s in lay.labels if s.text == "2")
    x0, y0, x1, y1 = lay.label_box(spot)
    box = im.crop((int(x0) - 3, int(y0) - 3, int(x1) + 4, int(y1) + 4))
    rows = {i // box.width for i, p in enumerate(pixels(box)) if near(p, TH.coord, 90)}
    assert abs((max(rows) - min(rows) + 1) - lay.label_height) <= 2
    label = pos.highlights.placed[0]
    x, y = renderers.cell_centre(pos, label)
    ring = TH.contrast(pos.stones[pos.board.cell(label)])
    reach = int(0.8 * lay.radius)  # the ring, inside its stone (whose rim may share its colour)
    xs = [i for i in range(int(x) - reach, int(x) + reach + 1) if near(pixel(im, i, y), ring, 90)]
    assert abs((max(xs) - min(xs) + 1) - lay.marker) <= 2.5


@pytest.mark.parametrize("theme", sorted(renderers.THEMES))
def test_highlights_differ_in_lightness_from_what_they_are_drawn_on(theme):
    """Each highlight keeps a WCAG luminance contrast of at least
    :data:`renderers.theme.HIGHLIGHT_CONTRAST_MIN` (3:1) in one of its colours against the
    board and against either stone it can stand on or beside, and a two-colour mark's colours
    differ that much from each other (it reads as a pattern): in greyscale and under
    deuteranopia the old red halo became a thin grey or olive ring."""
    from renderers.sprites import _mix
    from renderers.theme import HIGHLIGHT_CONTRAST_MIN, contrast_ratio

    th = renderers.THEMES[theme]
    stones = {"black": th.black, "white": th.white}
    grounds = {"board": th.board, **stones}
    marks = {
        "halo": ((th.accent, th.halo_edge), grounds),
        # the enclosed-cell tint's stripes on the board (Coil)
        "tint": ((_mix(th.accent, (0, 0, 0), 0.45),), {"board": th.board}),
    }
    for colour, fill in stones.items():
        marks[f"last-move ring on {colour}"] = ((th.contrast(colour),), {colour: fill})
        marks[f"bond of {colour}"] = ((th.stone(colour), th.rim(colour)), {"board": th.board})
    for name, (colours, under) in marks.items():
        for ground, rgb in under.items():
            best = max(contrast_ratio(c, rgb) for c in colours)
            assert best >= HIGHLIGHT_CONTRAST_MIN, (name, ground, round(best, 2))
        if len(colours) == 2:
            assert contrast_ratio(*colours) >= HIGHLIGHT_CONTRAST_MIN, name



# ---- player cards: long names, each player's clock (issue 19 items 6 and 11) ---------------


LONG_NAME = "Maximiliana Wolfeschlegelstein"


@pytest.mark.parametrize("clocks", [None, {1: dt.timedelta(days=6, hours=23), 2: "bank 7d"}])
def test_a_long_name_takes_two_whole_lines_inside_its_card(clocks):
    from PIL import ImageDraw

    from renderers.fonts import font
    from renderers.panel import _card_rows, player_cards

    pos = played("braincoral", 6)  # a Coral: a score at the card's right, long score parts
    assert pos.outcome is None and pos.to_move == 1 and pos.scores
    lay = layout_of(pos)
    cards = player_cards(lay)
    x0, y0, x1, y1 = cards[1]
    d = ImageDraw.Draw(Image.new("RGB", (8, 8)))
    f_score = font(44, "bold")
    score_left = x1 - 10 - d.textlength(str(pos.scores[1]), font=f_score)
    room = score_left - 12 - (x0 + 10 + 2 * 22 + 20)
    rows = _card_rows(d, LONG_NAME, "largest group 3 + 2 groups", (clocks or {}).get(1) and "6 days 23 h left",
                      room, y1 - y0 - 12, 1.0)
    lines, f_name = rows.name, rows.name_font
    assert lines == ["Maximiliana", "Wolfeschlegelstein"]  # whole, broken at the space
    assert f_name.size >= 26 and all(d.textlength(ln, font=f_name) <= room for ln in lines)
    # Drawn: the name's two lines (and the rows under them) stay inside the first card, clear
    # of the score at its right and of the second card below.
    players = {1: LONG_NAME, 2: "Bo"}
    plain_clocks = image(pos, players={1: "A", 2: "Bo"}, clocks=clocks)
    drawn = image(pos, players=players, clocks=clocks)
    box = ImageChops.difference(plain_clocks, drawn).getbbox()
    assert box is not None
    assert x0 <= box[0] and box[2] <= score_left - 4, (box, score_left)
    assert y0 <= box[1] and box[3] <= y1 <= cards[2][1], (box, cards)
    assert box[3] - box[1] > 2 * 0.7 * f_name.size  # two lines of ink, not one


def test_two_lines_break_at_a_space_else_inside_a_word_and_cut_only_beyond_two():
    from PIL import ImageDraw

    from renderers.fonts import font
    from renderers.panel import _two_lines

    d = ImageDraw.Draw(Image.new("RGB", (8, 8)))
    f = font(30, "bold")
    assert _two_lines(d, "Ann", f, 200) == ["Ann"]
    assert _two_lines(d, LONG_NAME, f, 300) == ["Maximiliana", "Wolfeschlegelstein"]
    # No space: the word is broken where the first line is full, nothing is lost.
    one_word = "Wolfeschlegelsteinhausenberger"
    lines = _two_lines(d, one_word, f, 300)
    assert len(lines) == 2 and "".join(lines) == one_word
    assert all(d.textlength(x, font=f) <= 300 for x in lines)
    # Beyond two lines: the second is cut with an ellipsis, words kept whole where they can.
    lines = _two_lines(d, "Hubert Blaine Wolfeschlegelsteinhausenbergerdorff Sr.", f, 300)
    assert lines[0] == "Hubert Blaine" and lines[1].endswith("…")
    assert all(d.textlength(x, font=f) <= 300 for x in lines)


def test_each_player_clock_is_drawn_on_their_own_card_the_movers_emphasised():
    from renderers.panel import player_cards

    pos = played("io", 5)
    mover = pos.to_move
    other = 3 - mover
    cards = player_cards(layout_of(pos))
    names = {1: "Ann", 2: "Bo"}
    plain = image(pos, players=names)
    clocks = {1: dt.timedelta(days=2, hours=4), 2: dt.datetime(2026, 11, 27, 13, 13)}
    both = image(pos, players=names, clocks=clocks)
    game_col = (0, plain.height - 330, 300, plain.height)  # the game column: no clock drawn there
    assert plain.crop(game_col).tobytes() == both.crop(game_col).tobytes()
    for seat in (1, 2):
        box = tuple(round(v) for v in cards[seat])
        assert plain.crop(box).tobytes() != both.crop(box).tobytes(), seat

    def turn_ink(im, seat):
        box = tuple(round(v) for v in cards[seat])
        return sum(near(p, TH.turn, 30) for p in pixels(im.crop(box)))

    # The mover's clock is in the turn colour (and bold); the other's is dimmed.
    assert turn_ink(both, mover) > turn_ink(plain, mover) + 150
    assert turn_ink(both, other) == turn_ink(plain, other) == 0
    # Only one seat's clock: only that card changes.
    one = image(pos, players=names, clocks={other: "bank 7d"})
    box = tuple(round(v) for v in cards[mover])
    assert plain.crop(box).tobytes() == one.crop(box).tobytes()
    box = tuple(round(v) for v in cards[other])
    assert plain.crop(box).tobytes() != one.crop(box).tobytes()
    # The single clock line of the game column still works beside them.
    line = image(pos, players=names, clock="bank 7d+1d", clocks=clocks)
    assert line.crop(game_col).tobytes() != both.crop(game_col).tobytes()


@pytest.mark.parametrize("name", ["Ann", LONG_NAME])
def test_card_clocks_read_at_550_px(name):
    from PIL import ImageDraw

    from renderers.english import clock_text
    from renderers.layout import DISPLAY_WIDTH
    from renderers.panel import _card_rows, player_cards

    pos = played("braincoral", 6)
    x0, y0, x1, y1 = player_cards(layout_of(pos))[1]
    d = ImageDraw.Draw(Image.new("RGB", (8, 8)))
    for clock in ("bank 6d 23h", clock_text(dt.datetime(2026, 11, 27, 13, 13)),
                  clock_text(dt.timedelta(days=2, hours=4))):
        f_clock = _card_rows(d, name, "largest group 3 + 2 groups", clock, x1 - x0 - 150, y1 - y0 - 12,
                             1.0).clock_font
        assert f_clock.size * DISPLAY_WIDTH / W >= 11, clock  # px of the font shown in chat
        assert d.textlength(clock, font=f_clock) <= x1 - x0 - 150 - 31


def _card_strings(pos, monkeypatch, subs, clocks=(None, None)):
    """The strings the panel of ``pos`` draws with the cards' lines ``subs`` and clocks
    ``clocks`` (seats 1 and 2; the rest of its words English), in drawing order."""
    import dataclasses

    from renderers import english
    from renderers import panel as panel_mod

    drawn: list[str] = []
    real = panel_mod._text

    def record(d, xy, text, font, fill, anchor="ls"):
        drawn.append(text)
        return real(d, xy, text, font, fill, anchor)

    monkeypatch.setattr(panel_mod, "_text", record)
    words = dataclasses.replace(english.panel_text(pos, None, None), subs=subs, clocks=clocks)
    image(pos, players={1: "Ann", 2: "Bo"}, text=words)
    return drawn


LONG_SUB = "größte Gruppe 9 + 5 Gruppen · gewinnt"  # German score parts: too long for one line
LONG_CLOCK = "due 30 December 2027 at 23:59 UTC"


@pytest.mark.parametrize("clock", [None, "due 30 Dec 23:59 UTC"])
def test_a_card_line_too_long_for_one_line_takes_two_whole_lines(clock, monkeypatch):
    """Issue 22 (a translation's score parts, e.g. "größte Gruppe 9 + 5 Gruppen · gewinnt"):
    a card's line under the name too long for one line at its smallest size is drawn whole on
    two lines -- broken at the " · " between its parts -- never below the smallest size, the
    rows inside the card; a line that fits one line is drawn as before."""
    from PIL import ImageDraw

    from renderers.panel import SUB_SIZES, _card_rows, player_cards

    pos = finished("braincoral", lambda p: p.outcome.winner == 1)
    drawn = _card_strings(pos, monkeypatch, (LONG_SUB, "Black"), (clock, clock))
    assert not [t for t in drawn if t.endswith("…")], drawn
    assert "größte Gruppe 9 + 5 Gruppen" in drawn and "gewinnt" in drawn
    assert "Black" in drawn
    x0, y0, x1, y1 = player_cards(layout_of(pos))[1]
    d = ImageDraw.Draw(Image.new("RGB", (8, 8)))
    room = x1 - x0 - 150
    rows = _card_rows(d, "Ann", LONG_SUB, clock, room, y1 - y0 - 12, 1.0)
    assert rows.sub == ["größte Gruppe 9 + 5 Gruppen", "gewinnt"]
    assert rows.sub_font.size >= SUB_SIZES[-1] and rows.name == ["Ann"]
    fonts = [rows.name_font, rows.sub_font, rows.sub_font] + [rows.clock_font] * len(rows.clock)
    assert sum(f.size * 1.02 for f in fonts) + 5 * (len(fonts) - 1) <= y1 - y0 - 12
    assert rows.clock == ([clock] if clock else [])
    short = _card_rows(d, "Ann", "größte Gruppe 9 + 5 Gruppen", clock, room, y1 - y0 - 12, 1.0)
    assert short.sub == ["größte Gruppe 9 + 5 Gruppen"]


def test_a_card_clock_too_long_for_one_line_takes_two_and_one_icon(monkeypatch):
    """The card's clock too long for one line at its smallest size takes two whole lines
    (one clock icon, before the first); where the card's height leaves no room for two
    lines of both, the sub line and the clock are not both wrapped: one stays cut on one
    line, as before."""
    from renderers import panel as panel_mod

    pos = played("io", 5)
    icons = []
    real_icon = panel_mod._clock_icon
    monkeypatch.setattr(panel_mod, "_clock_icon", lambda *a: (icons.append(a), real_icon(*a)))
    drawn = _card_strings(pos, monkeypatch, ("Black", "White"), (LONG_CLOCK, None))
    assert ["due 30 December", "2027 at 23:59 UTC"] == [t for t in drawn if "due" in t or "UTC" in t]
    assert not [t for t in drawn if t.endswith("…")], drawn
    assert len(icons) == 1
    coral = finished("braincoral", lambda p: p.outcome.winner == 1)
    drawn = _card_strings(coral, monkeypatch, (LONG_SUB, "Black"), (LONG_CLOCK, None))
    assert len([t for t in drawn if t.endswith("…")]) == 1, drawn


def test_bad_clocks_raise():
    pos = engine.new_game("io")
    with pytest.raises(TypeError, match="clocks must be a mapping"):
        renderers.render_png(pos, clocks=["1 day", "2 days"])
    with pytest.raises(TypeError, match="clocks must map seats 1 and 2"):
        renderers.render_png(pos, clocks={3: "1 day"})
    with pytest.raises(TypeError, match="clock must be None, text"):
        renderers.render_png(pos, clocks={1: 42})


def test_numbered_markers_of_a_line_are_drawn_on_their_cells_only():
    """Issue 23: an analysis board's best line as numbered markers -- a disc of the stone's
    colour (translucent: the board shows through) with its number in the other colour; the
    rest of the image is unchanged, and a label naming no cell is skipped."""
    from bot.rules.analysis import line_markers

    pos = played("io", 6, seed=3)
    line = [m for m in itertools.islice(pos.legal_moves(), 1)]
    after = pos.play(line[0])
    line.append(next(after.legal_moves()))
    markers = line_markers(pos, line)
    assert [n for n, _, _ in markers] == [1] * len(line[0].split()) + [2] * len(line[1].split())
    plain = renderers.render_image(pos)
    marked = renderers.render_image(pos, markers=markers + [(3, "zz99", "black")])
    changed = ImageChops.difference(plain, marked).getbbox()
    assert changed is not None
    r = layout_of(pos).radius
    for _, label, colour in markers:
        x, y = renderers.cell_centre(pos, label)
        ring = pixel(marked, x + 0.6 * r, y)  # on the disc, off the number
        assert not near(ring, pixel(plain, x + 0.6 * r, y), 10)  # drawn
        assert not near(ring, TH.stone(colour), 10)  # but translucent: not a stone
    # nothing outside the markers' cells changed
    boxes = [renderers.cell_centre(pos, label) for _, label, _ in markers]
    left, top, right, bottom = changed
    assert left >= min(x for x, _ in boxes) - r and right <= max(x for x, _ in boxes) + r + 1
    assert top >= min(y for _, y in boxes) - r and bottom <= max(y for _, y in boxes) + r + 1
