"""renderers.standings: a tournament's standings table (plain data in, PNG out)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from renderers.standings import (
    _HEADER_H,
    _MARGIN,
    _ROW_H,
    _TITLE_H,
    MAX_ROWS,
    STANDINGS_WIDTH,
    StandingsHeader,
    StandingsRow,
    _columns,
    render_standings_png,
)
from renderers.theme import THEMES

HEADER = StandingsHeader("#", "Player", "Rating", "Pts", ("Buch", "Med"), "Left")


def rows(names: list[str]) -> list[StandingsRow]:
    """One row per name, points falling, tie-breaks with halves and quarters."""
    return [StandingsRow(rank=i + 1, name=n, rating=str(1700 - 10 * i), points=9 - i / 2,
                         tie_breaks=(30.25 - i, 20.5 - i), games_left=i % 3) for i, n in enumerate(names)]


def picture(table: list[StandingsRow], theme: str = "default", title: str = "Spring Swiss") -> Image.Image:
    png = render_standings_png(table, HEADER, title=title, subtitle="Io · Swiss", theme=theme)
    im = Image.open(io.BytesIO(png))
    assert im.format == "PNG"
    return im.convert("RGB")


def ink(im: Image.Image, box: tuple[float, float, float, float], colour: tuple[int, int, int]) -> int:
    """Pixels within ``box`` close to ``colour`` (text drawn in it)."""
    crop = im.crop(tuple(round(v) for v in box))
    data = crop.tobytes()
    r, g, b = colour
    return sum(1 for i in range(0, len(data), 3)
               if abs(data[i] - r) + abs(data[i + 1] - g) + abs(data[i + 2] - b) < 60)


def row_box(i: int, x0: float, x1: float) -> tuple[float, float, float, float]:
    y = _MARGIN + _TITLE_H + _HEADER_H + i * _ROW_H
    return (x0, y, x1, y + _ROW_H - 4)


def test_size_grows_with_the_rows_and_every_row_is_drawn() -> None:
    names = [f"Player {i}" for i in range(12)]
    for theme in ("default", "light"):
        im = picture(rows(names), theme)
        assert im.width == STANDINGS_WIDTH
        assert im.height == 2 * _MARGIN + _TITLE_H + _HEADER_H + 12 * _ROW_H
        th = THEMES[theme]
        cols = _columns(ImageDraw.Draw(im), rows(names), HEADER)
        for i in range(12):  # the name, the points and the games left are there in each row
            for c in (1, 3, len(cols) - 1):
                x0, x1, _ = cols[c]
                assert ink(im, row_box(i, x0, x1), th.text if c != len(cols) - 1 else th.text_dim) > 20, (theme, i, c)
    # one row fewer: shorter by one row's height
    assert picture(rows(names[:11])).height == im.height - _ROW_H


def test_a_long_name_is_cut_inside_its_column() -> None:
    long = "Bartholomew Featherstonehaugh-Cholmondeley of the Very Long Name" * 2
    table = rows(["Ann", long, "Bo"])
    im = picture(table)
    cols = _columns(ImageDraw.Draw(im), table, HEADER)
    name_end, rating_start = cols[1][1], cols[2][0]
    rating_text_x = cols[2][1] - 70  # the rating "1690" is right-aligned, about 60 px wide
    # nothing drawn between the end of the name column and the rating's digits
    assert ink(im, row_box(1, name_end + 1, min(rating_start, rating_text_x)), THEMES["default"].text) == 0
    assert ink(im, row_box(1, cols[1][0], name_end), THEMES["default"].text) > 200


def test_names_in_other_scripts_are_drawn_not_boxes() -> None:
    """Two CJK names with the same characters in another order give other pixels (missing
    glyphs would all be the same box); Cyrillic and Greek likewise."""
    for a, b in (("山田太郎", "郎太田山"), ("김민준", "준민김"), ("Иван", "навИ"), ("Ἀρίων", "νωίρἈ")):
        first, second = picture(rows(["Ann", a])), picture(rows(["Ann", b]))
        cols = _columns(ImageDraw.Draw(first), rows(["Ann", a]), HEADER)
        box = row_box(1, cols[1][0], cols[1][1])
        assert first.crop(tuple(round(v) for v in box)).tobytes() != second.crop(tuple(round(v) for v in box)).tobytes(), a
        assert ink(first, box, THEMES["default"].text) > 30


def test_the_same_rows_give_the_same_bytes_and_other_rows_other_bytes() -> None:
    table = rows(["Ann", "Bo", "Cy"])
    one = render_standings_png(table, HEADER, title="T")
    assert one == render_standings_png(table, HEADER, title="T")
    assert one != render_standings_png(rows(["Ann", "Bo", "Cz"]), HEADER, title="T")


def test_bad_tables_are_refused() -> None:
    with pytest.raises(ValueError):
        render_standings_png([], HEADER, title="T")
    with pytest.raises(ValueError):
        render_standings_png(rows([f"P{i}" for i in range(MAX_ROWS + 1)]), HEADER, title="T")
    with pytest.raises(ValueError):  # one tie-break value for two header words
        render_standings_png([StandingsRow(1, "Ann", "1500", 1, (2.0,), 0)], HEADER, title="T")
    with pytest.raises(ValueError):
        render_standings_png(rows(["Ann"]), HEADER, title="T", theme="neon")


def test_the_largest_field_fits_in_one_picture() -> None:
    """MAX_ROWS rows of 32-character names with four-digit tie-breaks: drawn, each row inked."""
    table = [StandingsRow(rank=i + 1, name="W" * 32, rating="2999?", points=99.5,
                          tie_breaks=(999.75, 999.75), games_left=99) for i in range(MAX_ROWS)]
    im = picture(table)
    cols = _columns(ImageDraw.Draw(im), table, HEADER)
    assert all(ink(im, row_box(i, cols[3][0], cols[3][1]), THEMES["default"].text) > 20 for i in range(MAX_ROWS))
