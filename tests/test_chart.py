"""renderers.chart: the review chart (plain data in, PNG out)."""

from __future__ import annotations

import io
import json
import math
import random

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


def _zigzag_review():
    """Swings on every move from the second: neighbouring badges on a zigzag curve."""
    values = [0.5, 0.55, 0.15, 0.85, 0.2, 0.8, 0.25]
    data = review_data(values)
    swings = []
    for p in data["plies"][1:]:
        mine = (lambda v: v) if p["seat"] == 1 else (lambda v: 1 - v)
        swings.append({"ply": p["ply"], "seat": p["seat"], "move": p["move"], "preferred": "d5 e5",
                       "before": mine(p["before"]), "after": mine(p["after"])})
    data["swings"] = swings
    return data


def _crowded_review():
    """A long Io game (random moves, seeded) whose five swings fall on neighbouring moves
    60-64: their points stand about 5 px apart on the plot."""
    rng = random.Random(3)
    pos = engine.new_game("io", size=13)
    plies, values = [], [0.5]
    while pos.outcome is None:
        i = len(plies) + 1
        mv = pos.random_move(rng)
        after = (0.9 if i % 2 == 0 else 0.1) if 60 <= i < 65 else 0.5
        plies.append({"ply": i, "seat": pos.to_move, "move": mv, "preferred": mv,
                      "before": values[-1], "after": after, "exact": False})
        values.append(after)
        pos = pos.play(mv)
    swings = []
    for p in plies[59:64]:
        mine = (lambda v: v) if p["seat"] == 1 else (lambda v: 1 - v)
        swings.append({"ply": p["ply"], "seat": p["seat"], "move": p["move"], "preferred": "d5",
                       "before": mine(p["before"]), "after": mine(p["after"])})
    return {"kind": "io", "options": {"size": 13}, "start": 0.5, "plies": plies, "swings": swings}


@pytest.mark.parametrize("make", [_crowded_review, lambda: _zigzag_review()], ids=["crowded", "zigzag"])
def test_badges_and_labels_of_swings_on_neighbouring_moves_do_not_overlap(make):
    """Swings on neighbouring moves of a long game drew their numbered badges on top of each
    other; every badge and label now stands clear of every other one, inside the plot."""
    from renderers.chart import swing_boxes

    data = make()
    pairs = swing_boxes(review_from_dict(data))
    assert len(pairs) == len(data["swings"]) == 5
    boxes = [box for pair in pairs for box in pair]
    x0, y0, x1, y1 = _PLOT
    for label, badge in pairs:  # labels inside the plot; badges centred in it (on its edge at most)
        assert x0 <= label[0] and label[2] <= x1 and y0 <= label[1] and label[3] <= y1, label
        assert x0 <= (badge[0] + badge[2]) / 2 <= x1 and y0 <= (badge[1] + badge[3]) / 2 <= y1, badge
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    renderers.render_review_png(review_from_dict(data))  # and it draws


def test_swings_name_their_mover_and_show_two_stone_preferred_moves_whole(monkeypatch):
    """"move 3, Ann's pass" (the mover by name, not "--" or a colour) and "search preferred
    d5 e5" whole, wrapped if need be (it was cut to "d5…")."""
    from renderers import chart

    drawn: list[str] = []
    real = chart._text

    def spy(d, xy, text, *a, **kw):
        drawn.append(text)
        return real(d, xy, text, *a, **kw)

    monkeypatch.setattr(chart, "_text", spy)
    data = _zigzag_review()
    names = {1: "Ann", 2: "Maximiliana Wolfeschlegelstein"}
    renderers.render_review_png(review_from_dict(data), players=names)
    for sw in data["swings"][:3]:  # the panel has room for three here
        if sw["seat"] == 1:
            assert f"move {sw['ply']}, Ann's {sw['move']}" in drawn
        else:  # a long name is cut, the move never
            assert any(t.startswith(f"move {sw['ply']}, Ma") and t.endswith(f"…'s {sw['move']}")
                       for t in drawn), sw
    joined = " ".join(drawn)
    assert joined.count("search preferred d5 e5") >= 2 and "d5 e5" in drawn  # kept whole
    assert not any(t.startswith("search preferred") and "…" in t for t in drawn)
    assert not any("--" in t for t in drawn)


@pytest.mark.parametrize("theme", ["dark", "default"])
def test_the_heading_stone_stands_out_from_a_dark_frame(theme):
    """The stone before "Ann's chances of winning" gets a light outline where its fill is as
    dark as the frame (it disappeared in the dark theme)."""
    from renderers.theme import HIGHLIGHT_CONTRAST_MIN, contrast_ratio

    th = THEMES[theme]
    im = image(review_data([0.5] * 7), theme=theme)
    cx, cy, r = _PLOT[0] + 13, 46, 13
    ring = [im.getpixel((round(cx + (r + 1.2) * math.cos(a)), round(cy + (r + 1.2) * math.sin(a))))
            for a in [i * math.pi / 8 for i in range(16)]]
    seen = sum(contrast_ratio(p, th.frame) >= HIGHLIGHT_CONTRAST_MIN for p in ring)
    assert seen >= 12, ring
