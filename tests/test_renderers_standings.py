"""renderers.standings: a tournament's standings table (plain data in, PNG out)."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image, ImageDraw

from renderers.fonts import font
from renderers.panel import _len
from renderers.standings import (
    _HEADER_H,
    _MARGIN,
    _ROW_H,
    _SECTION_H,
    _TITLE_H,
    _TITLE_LINE_H,
    MAX_ROWS,
    STANDINGS_WIDTH,
    TITLE_SIZES,
    StandingsHeader,
    StandingsRow,
    _columns,
    render_standings_png,
    title_lines,
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


# ---- long titles (a 32-character tournament name in every state of the title) ------------

NAMES_32 = ["Grand Autumn Brain Coral Classic", "GRAND AUTUMN BRAIN CORAL CLASSIC", "W" * 32,
            "МЕЖДУНАРОДНЫЙ ТУРНИР ПО КОРАЛЛАМ", "山田太郎" * 8]
ROOM = STANDINGS_WIDTH - 2 * _MARGIN - 8


def titles(name: str) -> list[str]:
    """Every standings title the bot words for a tournament called ``name``."""
    from types import SimpleNamespace

    from bot import texts

    out = []
    for status, all_at_once, finished, after in (("finished", False, True, None), ("running", False, False, 12),
                                                 ("running", False, False, None), ("running", True, False, None),
                                                 ("signup", False, False, None)):
        t = SimpleNamespace(name=name, status=status, all_at_once=all_at_once, current_round=14)
        out.append(texts.standings_title(SimpleNamespace(tournament=t, finished=finished), after))
    return out


@pytest.mark.parametrize("name", NAMES_32)
def test_a_long_title_is_never_cut_it_shrinks_then_takes_two_lines(name) -> None:
    assert len(name) == 32
    d = ImageDraw.Draw(Image.new("RGB", (8, 8)))
    for title in titles(name):
        f, lines = title_lines(d, title, name)
        assert 1 <= len(lines) <= 2 and all(_len(d, line, f) <= ROOM for line in lines), (title, lines)
        assert " ".join(lines) == title  # whole, broken between two words
        state = title[len(name):].lstrip(" —")
        assert any(state in line for line in lines), (title, lines)  # the round part on one line
        if len(lines) == 2:
            assert f.size == TITLE_SIZES[-1] and lines[0].startswith(name)
            assert _len(d, title, font(TITLE_SIZES[-1], "bold")) > ROOM  # two lines only when one cannot do


def test_a_title_too_long_for_two_lines_shortens_the_name_at_a_word_and_keeps_the_round() -> None:
    # A narrower room than the picture's (where no 32-character name needs it) makes the last
    # step show: the name loses whole words, the rest of the title stays whole on its line.
    d = ImageDraw.Draw(Image.new("RGB", (8, 8)))
    width = 480
    shortened = 0
    for name in ("GRAND AUTUMN BRAIN CORAL CLASSIC", "W" * 32):
        for title in titles(name):
            state = title[len(name):]
            f, lines = title_lines(d, title, name, width=width)
            assert len(lines) == 2 and all(_len(d, line, f) <= width for line in lines), lines
            joined = " ".join(lines)
            kept, ellipsis, rest = joined.partition("…")
            if not ellipsis:
                assert joined == title
                continue
            shortened += 1
            assert rest == state and lines[1] == state.lstrip(" —")  # the round part whole, on its line
            assert name.startswith(kept) and (" " not in name or name[len(kept)] == " ")  # at a word
    assert shortened >= 5
    f, lines = title_lines(d, "Grand Autumn Brain Coral Classic — standings after round 12", width=420)
    assert all(_len(d, line, f) <= 420 for line in lines) and " ".join(lines).endswith(" after…")  # no name: the end, at a word


def test_a_title_on_two_lines_makes_the_picture_taller_and_stays_inside_it() -> None:
    table = rows(["Ann", "Bo"])
    short = picture(table, title="Spring Swiss — standings after round 3")
    long_title = "GRAND AUTUMN BRAIN CORAL CLASSIC — standings, round 4 under way"
    im = Image.open(io.BytesIO(render_standings_png(table, HEADER, title=long_title, subtitle="Io · Swiss",
                                                    title_name="GRAND AUTUMN BRAIN CORAL CLASSIC"))).convert("RGB")
    assert im.height == short.height + _TITLE_LINE_H
    text = THEMES["default"].text
    band = (_MARGIN + 4, _MARGIN, STANDINGS_WIDTH - _MARGIN, _MARGIN + _TITLE_H + _TITLE_LINE_H - 50)
    assert ink(im, band, text) > ink(short, band, text) + 500  # a second line of title drawn
    assert ink(im, (STANDINGS_WIDTH - _MARGIN, 0, STANDINGS_WIDTH, 150), text) == 0  # nothing past the margin


# ---- a league's divisions, each under its label ------------------------------------------

def test_a_league_draws_each_division_under_its_label_ranked_on_its_own() -> None:
    table = [replace(r, section=f"Division {k + 1}", movement=-1 if r.rank == 3 else 0)
             for k in range(2) for r in rows([f"P{i}" for i in range(3 * k, 3 * k + 3)])]
    # rows() ranks 1..3 within each call, so the two divisions restart at rank 1
    assert [r.rank for r in table] == [1, 2, 3, 1, 2, 3]
    th = THEMES["default"]
    im = picture(table)
    plain = picture([replace(r, section="") for r in table])
    assert im.height == plain.height + 2 * _SECTION_H
    cols = _columns(ImageDraw.Draw(im), table, HEADER)
    top = _MARGIN + _TITLE_H + _HEADER_H

    def row_y(i: int) -> float:
        return top + (i // 3 + 1) * _SECTION_H + i * _ROW_H

    for k in range(2):  # each label in its band, left of the name column's end
        y = top + k * (_SECTION_H + 3 * _ROW_H)
        assert ink(im, (cols[0][0] - 20, y, cols[1][0] + 160, y + _SECTION_H), th.text) > 100, k
    for i in (0, 3):  # each division's leader: rank in the turn colour
        assert ink(im, (cols[0][0], row_y(i), cols[0][1], row_y(i) + _ROW_H - 4), th.turn) > 20, i
    for i in (2, 5):  # each division's last: its relegation mark
        mark = (cols[0][0], row_y(i), cols[0][0] + 20, row_y(i) + _ROW_H - 4)
        assert ink(im, mark, th.accent if not th.dark_frame else th.text_dim) > 20, i
