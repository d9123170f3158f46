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
