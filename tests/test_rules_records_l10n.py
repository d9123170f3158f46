"""A /history record keeps one stable, parseable form in every language (issue 22): written and
read in English whatever the reader's language, so a record copied from a German session reads
back in a Japanese one, and equals the English record byte for byte."""

from __future__ import annotations

import pytest

import engine
from bot import texts
from bot.rules.records import format_record, parse_record, read_record
from bot.texts import i18n

BASE = dict(kind="io", options={"size": 5}, game_id=3, players={1: 11, 2: 22}, names={1: "Ann", 2: "ボブ"},
            colours={1: "white", 2: "black"}, rated=True, days_per_move=3, created_at=0, finished_at=60,
            status="finished", moves=["c3", "b2 d1"])
CASES = [(None, "stones", {1: 12, 2: 12}), (2, "resignation", None), (1, "timeout", {1: 1, 2: 9}), (2, "no moves", None)]


@pytest.fixture
def translated_words(monkeypatch):
    """The words a record borrows from the texts layer (game title, result, end reason) as
    a translation would give them: other words in every language but English."""
    title, phrase, result = texts.title, texts.termination_phrase, texts.result_text

    def local(english: str) -> str:
        return english if i18n.current_locale() == "en" else f"[{i18n.current_locale()}] {english[::-1]}"

    monkeypatch.setattr(texts, "title", lambda kind: local(title(kind)))
    monkeypatch.setattr(texts, "termination_phrase", lambda reason: local(phrase(reason)))
    monkeypatch.setattr(texts, "result_text", lambda *a, **k: local(result(*a, **k)))


@pytest.mark.parametrize(("winner", "reason", "scores"), CASES)
def test_a_record_is_the_same_text_in_every_language_and_reads_back_in_any(translated_words, winner, reason, scores):
    english = format_record(**BASE, winner=winner, reason=reason, scores=scores)
    assert english.splitlines()[1] == "Game: Io"
    for language in i18n.SUPPORTED:
        with i18n.speaking(language):
            assert texts.title("io") != "Io" or language == "en"  # the words around it are translated
            text = format_record(**BASE, winner=winner, reason=reason, scores=scores)
            assert text == english, language
        for reader in ("en", "ja", "ru"):
            with i18n.speaking(reader):
                rec = read_record(text)
                kind, options, moves = parse_record(text)
            assert (rec.finished, rec.winner, rec.reason) == (True, winner, reason), (language, reader)
            assert engine.replay(kind, options, moves).ply == 2
