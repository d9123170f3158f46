"""Every board panel in every language fits and draws (issue 22, item 5): the panel of each
game -- at its start, in play, over by its own rules, by resignation and on time, with both
players' deadlines -- worded in each supported language (:func:`bot.texts.panel_text` inside
:func:`bot.texts.i18n.speaking`) and drawn by the renderer: no word cut with an ellipsis (the
renderer's own fitting, :func:`renderers.panel._fit`, cuts what does not fit) and no character
without a glyph in Roboto or the packaged fallback faces (a missing-glyph box)."""

from __future__ import annotations

import functools
import random
from datetime import datetime

import pytest
from PIL import Image

import engine
from bot import texts
from bot.texts import i18n
from renderers import fonts
from renderers import panel as panel_mod
from renderers.render import layout_of
from renderers.theme import get_theme

NAMES = {1: "Ann", 2: "さくら"}
DEADLINE = datetime(2027, 12, 30, 23, 59)


@functools.cache
def positions(kind: str) -> dict[str, engine.Position]:
    """The positions whose panels are drawn (language-independent, made once per game)."""
    rng = random.Random(22)
    start = engine.new_game(kind)
    middle = start
    for _ in range(6):
        if middle.outcome is not None:
            break
        middle = middle.play(middle.random_move(rng))
    return {"start": start, "middle": middle, "over": start.random_playout(rng),
            "resigned": middle.forfeit(1, engine.Termination.RESIGNATION),
            "timed out": middle.forfeit(2, engine.Termination.TIMEOUT)}


def drawn_strings(position: engine.Position, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string the panel of ``position`` draws, worded in the current language."""
    drawn: list[str] = []
    real = panel_mod._text

    def record(d, xy, text, font, fill, anchor="ls"):
        drawn.append(text)
        return real(d, xy, text, font, fill, anchor)

    monkeypatch.setattr(panel_mod, "_text", record)
    due = texts.panel_due(DEADLINE)
    words = texts.panel_text(position, clocks={1: due, 2: due})
    lay = layout_of(position)
    im = Image.new("RGB", (lay.width, lay.height))
    panel_mod.draw_panel(im, lay, position, get_theme("default"), words, NAMES)
    return drawn


@pytest.mark.parametrize("language", i18n.SUPPORTED)
def test_every_panel_fits_and_draws_in_every_language(language, monkeypatch):
    problems = []
    with i18n.speaking(language):
        for kind in engine.MENU_ORDER:
            for which, position in positions(kind).items():
                for text in drawn_strings(position, monkeypatch):
                    if text.endswith("…"):
                        problems.append(f"{kind} {which}: cut {text!r}")
                    missing = sorted({c for c in text if not fonts.drawable(c)})
                    if missing:
                        problems.append(f"{kind} {which}: no glyph for {missing} in {text!r}")
    assert not problems, f"{language}:\n" + "\n".join(problems)


def test_the_check_sees_a_cut_word_and_a_missing_glyph(monkeypatch):
    """The test's own checks: a title too long for its column is cut, and a character of a
    script no packaged face draws has no glyph."""
    position = positions("coil")["start"]
    import bot.texts.panel as text_panel

    monkeypatch.setattr(text_panel, "title", lambda kind: "Ein sehr, sehr langer Spieltitel, der nicht passt " * 3)
    assert any(t.endswith("…") for t in drawn_strings(position, monkeypatch))
    assert not fonts.drawable("\U0001e900")  # Adlam: no packaged face has it
    assert all(fonts.drawable(c) for c in "手番ですЖжÉé")


@pytest.mark.parametrize("weight", ["regular", "medium", "bold"])
def test_a_japanese_headline_draws_in_the_packaged_cjk_face(weight):
    """Roboto has no kana or kanji: "さくらの手番です" is drawn in Noto Sans CJK (packaged with
    the project), every glyph of it there; Cyrillic stays in Roboto."""
    f = fonts.font(30, weight)
    runs = fonts.runs("Ann の手番です", f)
    assert [text for text, _ in runs] == ["Ann ", "の手番です"]
    assert runs[1][1].path == fonts.CJK_FONT and fonts.draws(fonts.CJK_FONT, "の手番です")
    assert fonts.runs("ваш ход", f) == [("ваш ход", f)]
