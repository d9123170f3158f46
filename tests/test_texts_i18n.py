"""The language machinery of the texts layer (bot/texts/i18n.py, issue 22): which language a
Discord locale means, the current language per block and per task, catalogs merged from every
``.po`` of a language, fuzzy entries ignored, plural forms by the language's rule."""

from __future__ import annotations

import asyncio

import pytest

from bot.texts import i18n

PO_HEADER = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: {lang}\\n"
"Plural-Forms: {plural}\\n"

'''
RU_PLURAL = ("nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
             "(n%100<10 || n%100>=20) ? 1 : 2);")


@pytest.fixture
def catalogs(tmp_path, monkeypatch):
    """A catalog folder of our own: write(lang, name, body) adds ``<lang>/LC_MESSAGES/<name>.po``."""
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()

    def write(lang: str, name: str, body: str, plural: str = "nplurals=2; plural=(n != 1);") -> None:
        folder = tmp_path / lang / "LC_MESSAGES"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.po").write_text(PO_HEADER.format(lang=lang, plural=plural) + body, encoding="utf-8")

    yield write
    i18n.translations.cache_clear()


@pytest.mark.parametrize(("locale", "language"), [
    ("de", "de"), ("fr", "fr"), ("es-ES", "es"), ("es-419", "es"), ("pt-BR", "pt_BR"),
    ("ru", "ru"), ("ja", "ja"), ("en-US", "en"), ("en-GB", "en"), ("ko", "en"), ("zh-CN", "en"),
    (None, "en"), ("", "en"), (42, "en"), ("pt_BR", "pt_BR"),
])
def test_a_discord_locale_means_a_supported_language_or_english(locale, language):
    assert i18n.language_of(locale) == language


def test_discord_locale_members_are_read_by_value():
    import discord

    assert i18n.language_of(discord.Locale.german) == "de"
    assert i18n.language_of(discord.Locale.brazil_portuguese) == "pt_BR"
    assert i18n.language_of(discord.Locale.japanese) == "ja"


def test_speaking_sets_the_language_for_its_block_and_nests(catalogs):
    catalogs("de", "a", 'msgid "Your move"\nmsgstr "Du bist am Zug"\n')
    catalogs("fr", "a", 'msgid "Your move"\nmsgstr "À vous de jouer"\n')
    assert i18n._("Your move") == "Your move"
    with i18n.speaking("de") as lang:
        assert lang == "de" and i18n.current_locale() == "de"
        assert i18n._("Your move") == "Du bist am Zug"
        with i18n.speaking("fr"):
            assert i18n._("Your move") == "À vous de jouer"
        assert i18n._("Your move") == "Du bist am Zug"
    assert i18n.current_locale() == "en" and i18n._("Your move") == "Your move"


def test_every_po_of_a_language_is_merged_and_fuzzy_or_missing_entries_stay_english(catalogs):
    catalogs("de", "boards", 'msgid "Board"\nmsgstr "Brett"\n\n#, fuzzy\nmsgid "Move"\nmsgstr "Zug?"\n')
    catalogs("de", "errors", 'msgid "Not your turn"\nmsgstr "Du bist nicht am Zug"\n\nmsgid "Empty"\nmsgstr ""\n')
    with i18n.speaking("de"):
        assert i18n._("Board") == "Brett"
        assert i18n._("Not your turn") == "Du bist nicht am Zug"
        assert i18n._("Move") == "Move"  # fuzzy: not used
        assert i18n._("Empty") == "Empty"  # untranslated
        assert i18n._("Never seen") == "Never seen"


def test_plural_forms_follow_the_language(catalogs):
    body = ('msgid "{n} game"\nmsgid_plural "{n} games"\n'
            'msgstr[0] "{n} партия"\nmsgstr[1] "{n} партии"\nmsgstr[2] "{n} партий"\n')
    catalogs("ru", "lists", body, plural=RU_PLURAL)
    with i18n.speaking("ru"):
        got = {n: i18n.ngettext("{n} game", "{n} games", n).format(n=n) for n in (1, 2, 5, 11, 21, 22, 25)}
    assert got == {1: "1 партия", 2: "2 партии", 5: "5 партий", 11: "11 партий", 21: "21 партия",
                   22: "22 партии", 25: "25 партий"}
    assert i18n.ngettext("{n} game", "{n} games", 1) == "{n} game"
    assert i18n.ngettext("{n} game", "{n} games", 2) == "{n} games"


async def test_the_language_is_per_task(catalogs):
    catalogs("de", "a", 'msgid "Hello"\nmsgstr "Hallo"\n')
    catalogs("ja", "a", 'msgid "Hello"\nmsgstr "こんにちは"\n')

    async def word(locale):
        with i18n.speaking(locale):
            await asyncio.sleep(0)
            first = i18n._("Hello")
            await asyncio.sleep(0.01)
            return first, i18n._("Hello")

    got = await asyncio.gather(word("de"), word("ja"), word("ko"))
    assert got == [("Hallo", "Hallo"), ("こんにちは", "こんにちは"), ("Hello", "Hello")]


def test_an_unsupported_language_is_refused_by_translations():
    with pytest.raises(ValueError, match="unsupported language 'xx'"):
        i18n.translations("xx")


def test_babel_locale_follows_the_current_language():
    from babel.numbers import format_decimal

    with i18n.speaking("de"):
        assert format_decimal(1234.5, locale=i18n.babel_locale()) == "1.234,5"
    with i18n.speaking("pt-BR"):
        assert str(i18n.babel_locale()) == "pt_BR"
    assert format_decimal(1234.5, locale=i18n.babel_locale()) == "1,234.5"


def test_a_compiled_catalog_is_kept_beside_its_po_and_read_while_current(catalogs, tmp_path, monkeypatch):
    catalogs("de", "a", 'msgid "Hello"\nmsgstr "Hallo"\n\n#, fuzzy\nmsgid "Move"\nmsgstr "Zug?"\n')
    assert i18n.translations("de").gettext("Hello") == "Hallo"
    folder = tmp_path / "de" / "LC_MESSAGES"
    assert sorted(p.name for p in folder.iterdir()) == ["a.mo", "a.po"]  # no temporary file left
    assert (folder / "a.mo").stat().st_mode & 0o777 == 0o644  # readable by the bot's own user
    i18n.translations.cache_clear()

    def no_parsing(*args, **kwargs):
        raise AssertionError("the .po was parsed again")

    monkeypatch.setattr(i18n, "read_po", no_parsing)
    again = i18n.translations("de")
    assert again.gettext("Hello") == "Hallo" and again.gettext("Move") == "Move"  # fuzzy stays out
    assert (folder / "a.mo").stat().st_mtime_ns == (folder / "a.po").stat().st_mtime_ns  # its stamp


def test_a_po_replaced_by_an_older_one_is_read_again(catalogs, tmp_path):
    import os

    catalogs("de", "a", 'msgid "Hello"\nmsgstr "Hallo"\n')
    assert i18n.translations("de").gettext("Hello") == "Hallo"
    po = tmp_path / "de" / "LC_MESSAGES" / "a.po"
    older = po.stat().st_mtime_ns - 10**9
    catalogs("de", "a", 'msgid "Hello"\nmsgstr "Servus"\n')  # an older release's file, say
    os.utime(po, ns=(older, older))
    i18n.translations.cache_clear()
    assert i18n.translations("de").gettext("Hello") == "Servus"


def test_an_edited_po_is_read_again_and_a_read_only_folder_still_works(catalogs, tmp_path, monkeypatch):
    import os

    catalogs("de", "a", 'msgid "Hello"\nmsgstr "Hallo"\n')
    assert i18n.translations("de").gettext("Hello") == "Hallo"
    po = tmp_path / "de" / "LC_MESSAGES" / "a.po"
    catalogs("de", "a", 'msgid "Hello"\nmsgstr "Servus"\n')
    mo_time = (po.with_suffix(".mo")).stat().st_mtime_ns
    os.utime(po, ns=(mo_time + 10**9, mo_time + 10**9))  # edited after it was compiled
    i18n.translations.cache_clear()

    def refused(*args, **kwargs):
        raise PermissionError("read-only")

    monkeypatch.setattr(i18n.os, "replace", refused)
    assert i18n.translations("de").gettext("Hello") == "Servus"
    assert sorted(p.name for p in po.parent.iterdir()) == ["a.mo", "a.po"]  # the old .mo, no temporary
    i18n.translations.cache_clear()
    monkeypatch.setattr(i18n.tempfile, "mkstemp", refused)  # not even a temporary file
    assert i18n.translations("de").gettext("Hello") == "Servus"
