"""The board picture's panel is worded by the bot (issue 20, one wording layer; issue 22 draws it
in the post's language): ``bot.texts.panel_text`` gives every word the renderer draws, the
renderer draws those and no others, and in English they are the words the pictures always had
(the renderers' own English default, so no picture changes)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random

import pytest
from PIL import ImageChops

import engine
import renderers
from bot import texts
from bot.workers.rendering import BoardRenderer, replay_texts
from renderers import english


class _Over:
    """A finished position as the panel sees it, for outcomes random play rarely reaches."""

    def __init__(self, pos, outcome):
        self._pos, self.outcome, self.to_move = pos, outcome, None

    def __getattr__(self, name):
        return getattr(self._pos, name)


def _finished(kind, want, **opts):
    start = engine.new_game(kind, **opts)
    for seed in range(300):
        pos = start.random_playout(random.Random(seed))
        if want(pos):
            return pos
    pytest.fail(f"no finished {kind} game found")


def _positions():
    """Positions of every game: the start, after a few moves, the middle, the end; and every
    way a game ends (a coral tie, an Io draw, no legal turn, resignation, timeout)."""
    out = []
    for kind in engine.GAMES.values():
        rng = random.Random(7)
        pos = kind.new()
        out.append(pos)
        for _ in range(len(pos.board) // 2):
            if pos.outcome is not None:
                break
            pos = pos.play(pos.random_move(rng))
            if pos.ply in (1, 2, 5) or pos.highlights.removed or pos.highlights.flipped:
                out.append(pos)
        out.append(kind.new().random_playout(random.Random(3)))
        out.append(kind.new().play(kind.new().random_move(rng)).resign(1))
        out.append(kind.new().time_out(2))
        bonus = next((o for o in kind.options if o.name == "bonus"), None)
        for value in bonus.choices if bonus is not None else ():
            out.append(kind.new(bonus=value).random_playout(random.Random(5)))
    ww = engine.new_game("whirlwind").random_playout(random.Random(1))
    out.append(_Over(ww, engine.Outcome(2, "no moves")))
    out.append(_Over(ww, engine.Outcome(None, "no moves")))
    out.append(_finished("io", lambda p: p.outcome.winner is None, size=6))
    out.append(_finished("braincoral", lambda p: p.outcome.scores[1] == p.outcome.scores[2]))
    return out


POSITIONS = _positions()
DUE = dt.datetime(2026, 11, 27, 13, 13, tzinfo=dt.UTC)


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_the_bots_english_panel_is_the_picture_it_always_was(index):
    pos = POSITIONS[index]
    running = pos.outcome is None
    clock = "bank 7d+1d" if running else None
    clocks = {pos.to_move: texts.panel_due(DUE), 3 - pos.to_move: "bank 6 d"} if running else None
    assert texts.panel_text(pos, clock=clock, clocks=clocks) == english.panel_text(pos, clock, clocks)
    assert texts.panel_text(pos) == english.panel_text(pos)


def test_every_ending_has_a_panel_caption_and_the_deadline_reads_as_before():
    assert set(texts.PANEL_CAPTIONS) == set(engine.Termination)
    for ending in engine.Termination:
        assert texts.PANEL_CAPTIONS[ending] == ending.caption("{loser}")
    for when in (DUE, dt.datetime(2025, 5, 3, 14, 0), dt.datetime(2025, 5, 3, 10, tzinfo=dt.timezone(-dt.timedelta(hours=4)))):
        assert texts.panel_due(when) == english.clock_text(when)


def test_the_panel_draws_the_words_it_is_given_and_names_by_seat():
    pos = engine.new_game("whirlwind").play("c3")  # White to move
    players = {1: "Ann", 2: "Bo"}
    german = dataclasses.replace(
        texts.panel_text(pos), headline=renderers.Headline("", "Weiß", " ist am Zug"),
        detail=("Ein oder zwei Steine je Zug",), subs=("Schwarz", "Weiß"), move="Zug 1: c3")
    english_png = renderers.render_png(pos, players=players, text=texts.panel_text(pos))
    assert english_png == renderers.render_png(pos, players=players)  # the default draws the same
    # the drawn pictures (the PNG's palette is the whole picture's: a few levels may shift)
    english = renderers.render_image(pos, players=players, text=texts.panel_text(pos))
    drawn = renderers.render_image(pos, players=players, text=german)
    box = renderers.render.layout_of(pos).panel_box
    assert ImageChops.difference(english, drawn).getbbox() is not None
    # only the panel changes, and the board above it not at all
    assert ImageChops.difference(english, drawn).crop((0, 0, box[2], box[1])).getbbox() is None
    # the name first or last: a seat in the headline draws that player's (cleaned) name
    first = dataclasses.replace(german, headline=renderers.Headline("", renderers.Name(2), " ist am Zug"))
    spelled = dataclasses.replace(german, headline=renderers.Headline("", "Bo", " ist am Zug"))
    assert renderers.render_png(pos, players=players, text=first) == renderers.render_png(pos, players=players, text=spelled)
    last = dataclasses.replace(german, headline=renderers.Headline("Au tour de ", renderers.Name(2), ""))
    assert renderers.render_png(pos, players=players, text=last) != renderers.render_png(pos, players=players, text=first)
    with pytest.raises(TypeError):
        renderers.render_png(pos, text=german, clock="bank 7d+1d")  # the text carries its clocks
    with pytest.raises(ValueError):
        renderers.Name(3)


async def test_the_bots_renderer_draws_the_texts_words_in_png_and_replay():
    pos = engine.new_game("io", size=5).play("c3")
    words = dataclasses.replace(texts.panel_text(pos), move="Zug 1: c3")
    renderer = BoardRenderer(0)
    png = await renderer.render(pos, {1: "Ann", 2: "Bo"}, words)
    assert png == renderers.render_png(pos, players={1: "Ann", 2: "Bo"}, text=words)
    assert png != renderers.render_png(pos, players={1: "Ann", 2: "Bo"})
    moves = ["c3", "b2 d1"]
    frames = replay_texts("io", {"size": 5}, moves)
    assert frames == [texts.panel_text(p) for p in (engine.new_game("io", size=5), pos, pos.play("b2 d1"))]
    with pytest.raises(ValueError):
        renderers.render_gif("io", {"size": 5}, moves, texts=frames[:2])


# ---- the review chart: worded by the bot too -------------------------------------------------
def _review(kind, moves, swings):
    from renderers.chart import review_from_dict

    pos, plies = engine.new_game(kind), []
    for i, mv in enumerate(moves, 1):
        plies.append({"ply": i, "seat": pos.to_move, "move": mv, "preferred": mv, "before": 0.5, "after": 0.4})
        pos = pos.play(mv)
    return review_from_dict({"kind": kind, "options": {}, "start": 0.5, "plies": plies, "swings": swings}), pos


def test_the_bots_english_chart_words_are_the_pictures_words():
    rng = random.Random(4)
    for kind in engine.GAMES:
        pos, moves = engine.new_game(kind), []
        while pos.outcome is None and len(moves) < 30:
            moves.append(pos.random_move(rng))
            pos = pos.play(moves[-1])
        swings = [{"ply": 2, "seat": 2, "move": moves[1], "preferred": moves[1], "before": 0.61, "after": 0.2},
                  {"ply": 1, "seat": 1, "move": moves[0], "preferred": "zz", "before": 0.3, "after": 0.755}]
        review, final = _review(kind, moves, swings)
        for end in (final, final.resign(1) if final.outcome is None else final,
                    _Over(final, engine.Outcome(None, "stones")), _Over(final, engine.Outcome(2, "no moves"))):
            assert texts.chart_text(review, end) == english.chart_text(review, end)
        unfinished, _ = _review(kind, moves[:3], [])
        start = engine.replay(kind, {}, moves[:3])
        assert texts.chart_text(unfinished, start) == english.chart_text(unfinished, start)


async def test_the_bots_review_chart_draws_the_texts_words(monkeypatch):
    from bot.texts import chart
    from bot.workers import rendering

    data = {"kind": "io", "options": {"size": 5}, "start": 0.5, "swings": [],
            "plies": [{"ply": 1, "seat": 1, "move": "c3", "preferred": "c3", "before": 0.5, "after": 0.6}]}
    english_png = rendering.render_review(data, {1: "Ann", 2: "Bo"}, None)
    assert english_png == renderers.render_review_png(__import__("renderers.chart").chart.review_from_dict(data),
                                                      players={1: "Ann", 2: "Bo"})
    monkeypatch.setattr(chart, "TURNING_POINTS", "Wendepunkte")
    assert rendering.render_review(data, {1: "Ann", 2: "Bo"}, None) != english_png


def test_the_renderers_draw_no_words_of_their_own():
    """Issue 20/22: a scan of renderers/ for words -- a string literal with a word followed
    by more text, or an f-string with words of its own -- outside docstrings, raised errors
    and the English default (renderers/english.py) and gallery, which the bot never uses."""
    import ast
    import pathlib
    import re

    root = pathlib.Path(renderers.__file__).parent
    found = []
    for path in sorted(root.glob("*.py")):
        if path.name in ("english.py", "gallery.py"):
            continue
        tree = ast.parse(path.read_text(), str(path))
        skipped = set()
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
                skipped.add(id(body[0].value))  # docstrings
            if isinstance(node, ast.Raise | ast.Assert):
                skipped.update(id(n) for n in ast.walk(node))
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.JoinedStr):
                skipped.update(id(v) for v in node.values)
                own = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
                if re.search(r"[A-Za-z]{2}", own):
                    found.append(f"{path.name}:{node.lineno}: f{ast.unparse(node)}")
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and re.search(r"[A-Za-z]{2,}[\s·:,.'][\s\S]*[A-Za-z]|^[A-Z][a-z]{2,}$", node.value)
                  and "/" not in node.value and node.value not in renderers.__all__):  # not font paths
                found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    allowed = {"ChartReview", "ReviewedPly", "ReviewedSwing", "Layout", "LabelSpot", "Piece"}  # __all__ names
    found = [f for f in found if f.rpartition(": ")[2].strip("'") not in allowed]
    assert not found, "words drawn by the renderers (word them in bot/texts):\n" + "\n".join(found)
