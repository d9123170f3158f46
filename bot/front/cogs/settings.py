"""/settings (issue 13): direct messages off, on (one per turn) or a daily digest at an hour
(UTC), and move confirmation. ``/notify`` (bot.front.cogs.players) stays as the old name of
``/settings dm:on|off``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from bot import texts
from bot.front.replies import ephemeral

if TYPE_CHECKING:
    from bot.front.client import StonecastBot


class SettingsCog(commands.Cog, name="Settings"):
    """/settings."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot

    @app_commands.command(name=_T("settings"), description=_T("Your direct messages and move confirmation"))
    @app_commands.describe(
        dm=_T("off: thread mentions only; on: a DM when it is your move; digest: one DM a day"),
        hour=_T("The hour (UTC, 0-23) of your daily digest, with dm:digest"),
        confirm=_T("on: /move shows the board first, with Confirm and Cancel"))
    async def settings(self, interaction: discord.Interaction,
                       dm: Literal["off", "on", "digest"] | None = None,
                       hour: app_commands.Range[int, 0, 23] | None = None,
                       confirm: Literal["on", "off"] | None = None) -> None:
        """Change what is given; answer with every setting as it is now."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        manager = self.bot.manager
        uid = interaction.user.id
        if dm is None and hour is not None:
            dm = "digest"  # an hour alone means the digest at that hour
        if dm is not None:
            await manager.set_dm_mode(uid, dm, hour)
        if confirm is not None:
            await manager.set_confirm(uid, confirm == "on")
        await ephemeral(interaction, texts.settings_text(await manager.settings(uid)))


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.front.cogs.settings")``)."""
    await bot.add_cog(SettingsCog(bot))
