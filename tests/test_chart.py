"""renderers.chart: the review chart (plain data in, PNG out)."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

import engine
import renderers
from renderers.chart import _PLOT, CHART_SIZE, review_from_dict
from renderers.theme import THEMES

# Coil 5, a short real record: seat 1 passes first (so seat 1 is Black), ...
MOVES = ["c3", "d4", "pass", "e5", "b2", "c4"]


def review_data(values, swings=()):
    """A review of MOVES with seat 1's chances ``values`` (start, then after each move)."""
    plies = []
    pos = engine.new_game("coil", size=5)
    for i, mv in enumerate(MOVES, 1):
        plies.append({"ply": i, "seat": pos.to_move, "move": mv, "preferred": "a1",
                      "before": values[i - 1], "after": values[i], "exact": False})
        pos = pos.play(mv)
    return {"kind": "coil", "options": {"size": 5}, "start": values[0], "plies": plies,
            "swings": [dict(s) for s in swings]}


def image(data, **kw) -> Image.Image:
    png = renderers.render_review_png(review_from_dict(data), players={1: "Ann", 2: "Bo"}, **kw)
    im = Image.open(io.BytesIO(png))
    assert im.format == "PNG"
    return im.convert("RGB")


def at(i: int, v: float, n: int = len(MOVES)) -> tuple[int, int]:
    """Pixel of ply ``i`` at chance ``v`` on the plot."""
    x0, y0, x1, y1 = _PLOT
    return round(x0 + (x1 - x0) * i / n), round(y1 - (y1 - y0) * v)


def near(a, b, tol=30) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_the_leader_is_shown_by_their_stone_colour(theme):
    th = THEMES[theme]
    # seat 1 far ahead after moves 1-2, seat 2 far ahead after moves 4-6
    im = image(review_data([0.5, 0.95, 0.95, 0.5, 0.05, 0.05, 0.05]), theme=theme)
    assert im.size == CHART_SIZE
    # seat 1 passed first: seat 1 is Black, seat 2 White (RULES.md "Coil")
    assert near(im.getpixel(at(1.5, 0.7)), th.black)
    assert near(im.getpixel(at(5, 0.3)), th.white)
    # where nobody leads by much the plot shows the board colour
    assert near(im.getpixel(at(1.5, 0.1)), th.board)
    assert near(im.getpixel(at(5, 0.9)), th.board)


def test_swings_are_marked_on_the_curve():
    data = review_data([0.5, 0.5, 0.9, 0.2, 0.2, 0.2, 0.2],
                       [{"ply": 3, "seat": 1, "move": "pass", "preferred": "a1",
                         "before": 0.9, "after": 0.2}])
    th = THEMES["default"]
    marked = image(data)
    plain = image({**data, "swings": []})
    # the badge sits on the point after the swing, in the accent colour, beside its number
    x, y = at(3, 0.2)
    assert near(marked.getpixel((x - 10, y)), th.accent, 60)
    assert not near(plain.getpixel((x - 10, y)), th.accent, 60)
    # and the swing's segment is drawn in the accent colour
    mx, my = at(2.5, 0.55)
    assert near(marked.getpixel((mx, my)), th.accent, 60)


def test_themes_differ_and_rendering_is_repeatable():
    data = review_data([0.5, 0.6, 0.4, 0.5, 0.7, 0.8, 1.0])
    a = renderers.render_review_png(review_from_dict(data))
    assert a == renderers.render_review_png(review_from_dict(data))  # the cached frame is untouched
    assert a != renderers.render_review_png(review_from_dict(data), theme="light")


def test_a_review_from_the_search_renders_and_round_trips_as_json():
    from ai.review import review_game

    r = review_game("coil", {"size": 5}, MOVES, playouts=20, seed=1)
    png = renderers.render_review_png(r, players={1: "Ann", 2: "Bo"})
    again = review_from_dict(json.loads(json.dumps(r.to_dict())))
    assert renderers.render_review_png(again, players={1: "Ann", 2: "Bo"}) == png


def test_a_finished_game_and_a_resigned_game_render():
    data = review_data([0.5] * 7)
    final = engine.replay("coil", {"size": 5}, MOVES).resign(2)
    assert image(data, final=final).size == CHART_SIZE
    assert image({**data, "plies": [], "swings": []}).size == CHART_SIZE  # no move at all


def test_bad_input_raises():
    data = review_data([0.5] * 7)
    with pytest.raises(ValueError, match="unknown theme"):
        renderers.render_review_png(review_from_dict(data), theme="sepia")
    data["plies"][1]["move"] = "c3"  # occupied
    with pytest.raises(engine.IllegalMove):
        renderers.render_review_png(review_from_dict(data))
    with pytest.raises(KeyError):
        review_from_dict({"kind": "coil"})
