"""Every catalog is complete (issue 22, item 5): each message id of the texts layer and of the
cogs' ``locale_str`` command strings -- found by Babel's own extraction, as ``make messages``
finds them -- is in every language's merged catalog, translated (not empty, not fuzzy), with
the same ``{placeholders}`` as the English.

A failure lists, per language, how many messages are missing, fuzzy, empty or with other
placeholders, and the first of each (the full lists are in the assertion's text)."""

from __future__ import annotations

import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from bot.texts import i18n

ROOT = Path(__file__).resolve().parents[1]
#: Babel's keywords: the texts layer's functions and discord.py's ``locale_str`` (also as
#: ``_T``, the name the cogs import it under), as ``make messages`` passes them.
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "locale_str": None, "_T": None}
#: Where messages are written: the texts layer, and the cogs (command strings).
SOURCES = (ROOT / "bot" / "texts", ROOT / "bot" / "front" / "cogs")
LANGUAGES = [lang for lang in i18n.SUPPORTED if lang != i18n.DEFAULT]
SHOWN = 8  # messages named per problem and language in a failure


def extracted() -> dict[str, tuple[str, ...]]:
    """Message id -> its English forms (one, or singular and plural), from every source."""
    found: dict[str, tuple[str, ...]] = {}
    for folder in SOURCES:
        for _file, _line, message, _comments, _context in extract_from_dir(
                folder, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=()):
            forms = message if isinstance(message, tuple) else (message,)
            forms = tuple(f for f in forms if f)
            if forms:
                found[forms[0]] = forms
    return found


def placeholders(text: str) -> set[str]:
    """The named ``str.format`` fields of ``text`` (``{name}``, ``{n:02d}`` -> ``n``)."""
    try:
        return {field.split(".")[0].split("[")[0] for _, field, _, _ in string.Formatter().parse(text)
                if field is not None}
    except ValueError:  # not a format string (a lone brace): no fields
        return set()


def merged_catalog(language: str) -> dict[str, tuple[tuple[str, ...], bool]]:
    """Message id -> (its translations, fuzzy) over every ``.po`` file of ``language``."""
    out: dict[str, tuple[tuple[str, ...], bool]] = {}
    for po in sorted((i18n.LOCALE_DIR / language / "LC_MESSAGES").glob("*.po")):
        with po.open("rb") as f:
            catalog = read_po(f, locale=language)
        for message in catalog:
            if not message.id:
                continue
            key = message.id[0] if isinstance(message.id, tuple | list) else message.id
            strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
            out[key] = (tuple(s or "" for s in strings), message.fuzzy)
    return out


def problems(language: str, ids: dict[str, tuple[str, ...]]) -> Iterator[tuple[str, str]]:
    """(problem, message id) for every message of ``ids`` not properly in ``language``."""
    catalog = merged_catalog(language)
    for key, forms in sorted(ids.items()):
        if key not in catalog:
            yield "missing", key
            continue
        strings, fuzzy = catalog[key]
        if fuzzy:
            yield "fuzzy", key
        elif not strings or any(not s.strip() for s in strings):
            yield "empty", key
        else:
            wanted = set().union(*(placeholders(f) for f in forms))
            for s in strings:
                if placeholders(s) != wanted:
                    yield f"placeholders {sorted(placeholders(s))} not {sorted(wanted)}", key
                    break


def test_extraction_finds_the_texts_and_the_command_strings():
    """The extraction itself works: a sentence of the texts layer, a command string."""
    ids = extracted()
    assert "Only members who may manage this server can choose its language." in ids
    assert "The language the bot speaks to you" in ids  # a locale_str of the settings cog


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_in_every_language(language):
    ids = extracted()
    found: dict[str, list[str]] = {}
    for problem, key in problems(language, ids):
        found.setdefault(problem.split(" ")[0], []).append(f"{key!r} ({problem})" if problem != "missing" else repr(key))
    summary = "; ".join(f"{len(keys)} {kind}" for kind, keys in found.items())
    detail = "\n".join(f"  {kind}: " + ", ".join(keys[:SHOWN]) + (" ..." if len(keys) > SHOWN else "")
                       for kind, keys in found.items())
    assert not found, f"{language}: {summary} of {len(ids)} messages\n{detail}"


def test_the_check_catches_what_it_should(tmp_path, monkeypatch):
    """The checks themselves: a missing, a fuzzy, an empty message and different placeholders
    are each reported; a good catalog passes."""
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "a.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: de\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "Good {name}"\nmsgstr "Gut {name}"\n\n'
        '#, fuzzy\nmsgid "Fuzzy"\nmsgstr "Unscharf"\n\n'
        'msgid "Empty"\nmsgstr ""\n\n'
        'msgid "Moved {name}"\nmsgstr "Bewegt {nom}"\n\n'
        'msgid "{n} game"\nmsgid_plural "{n} games"\nmsgstr[0] "{n} Partie"\nmsgstr[1] "{n} Partien"\n',
        encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    ids = {k: (k,) for k in ("Good {name}", "Fuzzy", "Empty", "Moved {name}", "Missing")}
    ids["{n} game"] = ("{n} game", "{n} games")
    got = {key: problem for problem, key in problems("de", ids)}
    assert got == {"Fuzzy": "fuzzy", "Empty": "empty", "Missing": "missing",
                   "Moved {name}": "placeholders ['nom'] not ['name']"}
