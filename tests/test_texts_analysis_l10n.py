"""The analysis group in every language (issue 22 for issue 23's texts): the analysis board,
its buttons, its form and the Engine, /note, the note on /privacy show, and the analysis
refusals, worded from ``bot/texts/locale/<lang>/LC_MESSAGES/analysis.po``.

Each language's catalog holds every message of :mod:`bot.texts.analysis` (none fuzzy or
empty, the same placeholders, the language's plural forms); the messages built with
worst-case values come out translated, with every placeholder filled, the mentions, stamps,
code spans and move notation kept, and within Discord's limits."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from fakediscord import limits
from l10n_support import LANGUAGES, PLACEHOLDER, PLURAL_FORMS, catalog_problems

import engine
from bot import texts
from bot.manager import NOTE_MAX
from bot.manager.errors import NotAllowed, Refusal, StaleAction, UserError
from bot.texts import i18n

ROOT = Path(__file__).resolve().parents[1]
BIG = 2**63 - 1
LONG_KIND = max(engine.GAMES, key=lambda k: len(texts.title(k)))
LABEL = texts.game_label(LONG_KIND, 9_999_999)
STEP = "m19 n18"  # a long two-stone move


def _messages() -> list[str | tuple[str, str]]:
    keywords = {"_": None, "N_": None, "ngettext": (1, 2)}
    return [m if isinstance(m, str) else tuple(m) for _line, m, _c, _x in extract_from_file(
        "python", ROOT / "bot" / "texts" / "analysis.py", keywords=keywords)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_has_every_message_translated_with_its_placeholders(lang):
    with (ROOT / "bot" / "texts" / "locale" / lang / "LC_MESSAGES" / "analysis.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    assert catalog.num_plurals == PLURAL_FORMS[lang]
    messages = _messages()
    assert len(messages) > 50
    assert not catalog_problems(catalog, messages, lang)


def _sample() -> dict[str, str]:
    """The group's messages with worst-case values, in the current language."""
    game = SimpleNamespace(kind=LONG_KIND, id=9_999_999)
    steps = [(None, "pass")] + [(i, STEP) for i in range(1, 16)]
    summary = texts.engine_summary(texts.seat_name(2, None), 0.0, steps, True, 9999)
    note = "n" * NOTE_MAX
    out = {
        "board": texts.analysis_text(texts.analysis_source(None, LONG_KIND), 9999, 9999, 9999,
                                     texts.seat_name(1, "black"), 4_102_444_800, summary, note),
        "chances": texts.engine_summary("White", 0.4567, steps[:3], False, None),
        "share": texts.share_text(BIG, LABEL, 9999, summary),
        "text": texts.position_text_reply("io size=19 0 - " + "." * 361),
        "note_kept": texts.note_saved(LABEL, note),
        "note_deleted": texts.note_saved(LABEL, None),
        "note_line": "b" * 1400 + texts.note_line(note),
        "privacy": texts.privacy_notes(10**6),
        "alt": texts.analysis_alt(texts.title(LONG_KIND), 9999, "White", 32),
        "alt_over": texts.analysis_alt(texts.title(LONG_KIND), 1, None, 0),
    }
    refusals = [UserError(Refusal.ANALYZE_ONE_SOURCE),
                UserError(Refusal.BAD_POSITION_TEXT, error=engine.PositionError("bad ply in position text")),
                UserError(Refusal.BAD_POSITION_TEXT, error=None),
                UserError(Refusal.BAD_OPTIONS_TEXT, kind=LONG_KIND),
                UserError(Refusal.POSITION_OVER), UserError(Refusal.BAD_MOVE_NUMBER, most=99_999),
                StaleAction(Refusal.ANALYSIS_EXPIRED, hours=24.0), NotAllowed(Refusal.NOT_YOUR_ANALYSIS),
                UserError(Refusal.NOTHING_TO_UNDO),
                NotAllowed(Refusal.ENGINE_RUNNING_GAME, game=game, playing=True),
                NotAllowed(Refusal.ENGINE_RUNNING_GAME, game=game, playing=False),
                UserError(Refusal.ENGINE_GAME_OVER), UserError(Refusal.ENGINE_LIMIT, most=6, wait=61),
                UserError(Refusal.ENGINE_BUSY), UserError(Refusal.NOTE_TOO_LONG, length=2000, most=NOTE_MAX)]
    out.update((f"refusal {i}", texts.refusal_text(e)) for i, e in enumerate(refusals))
    out.update((f"engine note {k}", texts.engine_note(k)) for k in texts.ENGINE_NOTES)
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sample_is_translated_filled_and_fits(lang):
    with i18n.speaking("en"):
        english = _sample()
    with i18n.speaking(lang):
        sample = _sample()
        labels = [texts.analysis_label(a) for a in texts.ANALYSIS_LABELS if a not in ("prev", "next")]
        form = {part: texts.play_modal(part) for part in texts.PLAY_MODAL}
    for name, text in sample.items():
        assert text != english[name], (lang, name)
        assert not PLACEHOLDER.search(text), (lang, name, text)
        kept = re.findall(r"<@\d+>|<t:\d+:\w>|`[^`\n]+`|\d+\. m19 n18|\bpass\b", english[name])
        for piece in kept + ([LABEL] if LABEL in english[name] else []):
            assert piece in text, (lang, name, piece)
        if name.startswith("alt"):
            assert len(text) <= texts.ATTACHMENT_DESCRIPTION, (lang, name)
        else:
            limits.check_message({"content": text})
    with i18n.speaking("en"):
        english_labels = [texts.analysis_label(a) for a in texts.ANALYSIS_LABELS if a not in ("prev", "next")]
    assert all(0 < len(label) <= 80 for label in labels) and labels != english_labels
    assert len(form["title"]) <= 45 and len(form["label"]) <= 45 and len(form["hint"]) <= 100


def test_english_is_as_before_and_counts_take_each_languages_forms():
    assert texts.engine_summary("Black", 0.42, [(1, "c3")], False, None) == (
        "Engine: Black to move wins 42% of the time by its search. Best line: 1. c3")
    assert texts.analysis_alt("Io", 2, None, 0) == "Io analysis board after 2 moves, game over."
    assert texts.refusal_text(UserError(Refusal.ENGINE_LIMIT, most=6, wait=12)) == (
        "The engine answers at most 6 requests a minute for each player: try again in 12 seconds.")
    with i18n.speaking("ru"):
        own = [texts.analysis_text("x", 1, 2, n, None, 0, None, None).split("\n")[0].rsplit(": ", 1)[1]
               for n in (1, 2, 5, 21)]
    assert own == ["1 ход", "2 хода", "5 ходов", "21 ход"]
    with i18n.speaking("fr"):
        assert texts.privacy_notes(1).endswith("sur 1 partie, visibles par vous seul.")
