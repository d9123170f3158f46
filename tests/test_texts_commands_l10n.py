"""Commands in every language (issue 22, item 4): the bot's own commands, translated by its
translator as they are synced, keep Discord's rules in every locale -- names lower-case, 1-32
characters of letters, digits, ``-`` and ``_``; descriptions and choice names 1-100 characters
-- checked by the fake Discord's checker (``fakediscord.limits.check_commands``), and no
translation is dropped for breaking them (the translator logs each one it drops)."""

from __future__ import annotations

import logging

import discord
from fakediscord import limits

from bot.config import Config
from bot.front.client import StonecastBot
from bot.front.translator import CommandTranslator, localise
from bot.texts import i18n

#: The Discord locales each supported language is offered in.
LOCALES = {"de": ["de"], "fr": ["fr"], "es": ["es-ES", "es-419"], "pt_BR": ["pt-BR"], "ru": ["ru"], "ja": ["ja"]}


async def synced_payloads() -> list[dict]:
    """The commands as the bot syncs them: every cog loaded, each command's payload translated."""
    bot = StonecastBot(Config(token="x" * 24), sync_only=True, render_workers=0)  # never connected
    try:
        await bot._load_cogs()
        translator = bot.tree.translator
        assert isinstance(translator, CommandTranslator)  # installed with the cogs
        return [await command.get_translated_payload(bot.tree, translator) for command in bot.tree.get_commands()]
    finally:
        for name in tuple(bot.extensions):
            await bot.unload_extension(name)
        await bot.http.close()


async def test_every_command_keeps_discords_rules_in_every_locale(caplog):
    caplog.set_level(logging.WARNING, "stonecast.bot")
    payloads = await synced_payloads()
    assert {p["name"] for p in payloads} >= {"move", "settings", "help", "challenge"}
    limits.check_commands(payloads)  # what Discord would refuse, named by field
    dropped = [r.getMessage() for r in caplog.records if "is not used" in r.getMessage()]
    assert not dropped, "translations Discord would refuse:\n" + "\n".join(dropped)


async def test_every_translated_command_string_is_offered_in_its_locales():
    """Each localisation the sync carries is the catalog's translation, under every Discord
    locale of its language (es-ES and es-419 alike), and only there."""
    payloads = await synced_payloads()
    settings = next(p for p in payloads if p["name"] == "settings")
    language = next(o for o in settings["options"] if o["name"] == "language")
    server = next(o for o in settings["options"] if o["name"] == "server-language")
    for lang, locales in LOCALES.items():
        with i18n.speaking(lang):
            want_name, want_description = i18n._("language"), i18n._("The language the bot speaks to you")
        for locale in locales:
            assert language["name_localizations"][locale] == want_name
            assert language["description_localizations"][locale] == want_description
    assert set(language["name_localizations"]) == {loc for locs in LOCALES.values() for loc in locs}
    assert server["name_localizations"]["de"] == "server-sprache"
    assert server["name_localizations"]["ja"] == "サーバー言語"
    discords = language["choices"][0]
    assert discords["value"] == "discord" and discords["name_localizations"]["fr"] == "Langue de Discord"
    assert localise("language", discord.Locale.british_english, discord.app_commands.TranslationContextLocation.parameter_name) is None


def _option(command: dict, *path: str) -> dict:
    """The option (or subcommand) of ``command``'s payload at ``path`` (English names)."""
    for name in path:
        command = next(o for o in command["options"] if o["name"] == name)
    return command


async def test_commands_built_in_another_language_stay_english_with_localisations():
    """The cogs built while German is current (a test or a reply that set it before they were
    loaded) still sync English names, each translated per locale: the levels of /challenge
    and /tournament are the English message ids ("1 Beginner"), German under ``de``, named as
    the texts name the levels; game names (/challenge coil) are never localised; /analyze's
    ``move:`` is the command word (de ``zug``), not the board's ``Zug``."""
    import ai
    from bot import texts
    from bot.front.cogs.challenges import level_choices
    from bot.texts.commands import UNTRANSLATED_COMMAND_WORDS

    english = {n: texts.level_choice(n) for n in ai.LEVELS}
    with i18n.speaking("de"):
        choices = level_choices()
        payloads = await synced_payloads()
    assert [c.name for c in choices] == list(english.values()) == ["1 Beginner", "2 Casual", "3 Club",
                                                                           "4 Strong", "5 Strongest"]
    by_name = {p["name"]: p for p in payloads}
    for level in (_option(by_name["challenge"], "coil", "level"),
                  _option(by_name["tournament"], "add-computer", "level")):
        assert [c["name"] for c in level["choices"]] == list(english.values())
        for lang, locales in LOCALES.items():
            with i18n.speaking(lang):
                wanted = [texts.level_choice(n) for n in ai.LEVELS]
            for locale in locales:
                shown = [c.get("name_localizations", {}).get(locale, c["name"]) for c in level["choices"]]
                assert shown == wanted, locale  # (fr "3 Club" is the English: no localisation)
    assert level["choices"][0]["name_localizations"]["de"] == "1 Anfänger"
    for kind in ("coil", "io", "braincoral", "branchingcoral", "whirlwind"):
        assert kind in UNTRANSLATED_COMMAND_WORDS
        sub = _option(by_name["challenge"], kind)
        assert not sub.get("name_localizations"), (kind, sub.get("name_localizations"))
    analyze = by_name["analyze"]
    assert analyze["name_localizations"]["de"] == "analysieren"
    assert _option(analyze, "move")["name_localizations"]["de"] == "zug"
    assert _option(analyze, "position")["name_localizations"]["de"] == "stellung"
    assert _option(by_name["note"], "text")["description_localizations"]["ja"]
