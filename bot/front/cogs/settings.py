"""/settings (issue 13): direct messages off, on (one per turn) or a daily digest at an hour
(UTC), and move confirmation; your language and, for moderators, the server's (issue 22).
``/notify`` (bot.front.cogs.players) stays as the old name of ``/settings dm:on|off``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from bot import texts
from bot.front.replies import ephemeral
from bot.texts import i18n
from bot.texts import languages as language_texts

if TYPE_CHECKING:
    from bot.front.client import StonecastBot

# /settings language: and server-language: -- each supported language named in itself, and
# Discord's (the value "discord": follow the Discord locale again)
FOLLOW_DISCORD = "discord"
LANGUAGE_CHOICES = [app_commands.Choice(name=_T(language_texts.DISCORDS_LANGUAGE), value=FOLLOW_DISCORD),
                    *(app_commands.Choice(name=name, value=code) for code, name in language_texts.LANGUAGE_NAMES.items())]


class SettingsCog(commands.Cog, name="Settings"):
    """/settings."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot

    @app_commands.command(name=_T("settings"), description=_T("Your direct messages and move confirmation"))
    @app_commands.describe(
        dm=_T("off: thread mentions only; on: a DM when it is your move; digest: one DM a day"),
        hour=_T("The hour (UTC, 0-23) of your daily digest, with dm:digest"),
        confirm=_T("on: /move shows the board first, with Confirm and Cancel"),
        language=_T("The language the bot speaks to you"),
        server_language=_T("The language of this server's posts (Manage Server)"))
    @app_commands.rename(language=_T("language"), server_language=_T("server-language"))
    @app_commands.choices(language=LANGUAGE_CHOICES, server_language=LANGUAGE_CHOICES)
    async def settings(self, interaction: discord.Interaction,
                       dm: Literal["off", "on", "digest"] | None = None,
                       hour: app_commands.Range[int, 0, 23] | None = None,
                       confirm: Literal["on", "off"] | None = None,
                       language: app_commands.Choice[str] | None = None,
                       server_language: app_commands.Choice[str] | None = None) -> None:
        """Change what is given; answer with every setting as it is now (in the caller's
        language, the new one if they chose one)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        manager = self.bot.manager
        languages = self.bot.languages
        uid = interaction.user.id
        if server_language is not None:  # checked first: a refusal changes nothing
            if interaction.guild_id is None:
                await ephemeral(interaction, i18n._(language_texts.SERVER_LANGUAGE_IN_DM))
                return
            if not interaction.permissions.manage_guild:
                await ephemeral(interaction, i18n._(language_texts.SERVER_LANGUAGE_NOT_ALLOWED))
                return
        if dm is None and hour is not None:
            dm = "digest"  # an hour alone means the digest at that hour
        if dm is not None:
            await manager.set_dm_mode(uid, dm, hour)
        if confirm is not None:
            await manager.set_confirm(uid, confirm == "on")
        if language is not None:
            await languages.choose(uid, None if language.value == FOLLOW_DISCORD else language.value)
        if server_language is not None and interaction.guild_id is not None:
            await languages.choose_for_server(interaction.guild_id,
                                              None if server_language.value == FOLLOW_DISCORD else server_language.value)
        with i18n.speaking(await languages.speak_to(interaction)):
            chosen, server_chosen = await languages.chosen(uid, interaction.guild_id)
            server = None if interaction.guild_id is None else await languages.of_guild(interaction.guild_id)
            text = texts.settings_text(await manager.settings(uid)) + "\n" + language_texts.language_text(
                chosen, i18n.current_locale(), server_chosen, server)
            await ephemeral(interaction, text)


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.front.cogs.settings")``)."""
    await bot.add_cog(SettingsCog(bot))
