"""/privacy show and /privacy delete (issue 18): what Stonecast stores about the player who
asks, and deleting it (with a confirmation button only they may press). Every answer is
ephemeral. Both work in servers and in a direct message with the bot: the data is the
player's own, in every server alike. What is deleted and what stays:
:mod:`bot.manager.privacy`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from bot import texts
from bot.front.replies import ephemeral, report_error
from bot.front.views import forget_view

if TYPE_CHECKING:
    from bot.front.client import StonecastBot


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
class PrivacyCog(commands.GroupCog, name="Privacy", group_name=_T("privacy"),
                 group_description=_T("What Stonecast stores about you, and deleting it")):
    """/privacy show | delete, and the "Delete my data" button."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        """Handle the "Delete my data" button (:class:`bot.front.views.ButtonRoutes`)."""
        self.bot.buttons.privacy = self

    async def cog_unload(self) -> None:
        """Leave the button's route."""
        self.bot.buttons.privacy = None

    @app_commands.command(name=_T("show"), description=_T("What Stonecast stores about you (only you see it)"))
    async def show(self, interaction: discord.Interaction) -> None:
        """Everything stored about the caller, in every server."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await self.bot.manager.stored_data(interaction.user.id)
        await ephemeral(interaction, texts.privacy_text(data, interaction.guild_id))

    @app_commands.command(name=_T("delete"), description=_T("Delete what Stonecast stores about you (asks first)"))
    async def delete(self, interaction: discord.Interaction) -> None:
        """The question and its button; or, with games in progress, which to finish first."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await self.bot.manager.stored_data(interaction.user.id)
        view = None if data.running_games else forget_view(interaction.user.id)
        await ephemeral(interaction, texts.privacy_confirm(data.running_games),
                        **({"view": view} if view is not None else {}))

    async def on_forget_button(self, interaction: discord.Interaction) -> None:
        """"Delete my data" was pressed by its owner (the button's ``interaction_check``
        turned everyone else away): delete, forget the name and language in this process too,
        answer (in the language they read until now)."""
        try:
            await interaction.response.defer()
            done = await self.bot.manager.forget_player(interaction.user.id)
            self.bot.forget_name(interaction.user.id)
            self.bot.languages.forget(interaction.user.id)  # their language went with their settings
            await interaction.edit_original_response(content=texts.privacy_deleted(done), view=None)
        except Exception as e:  # noqa: BLE001
            await report_error(interaction, e)


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.front.cogs.privacy")``)."""
    await bot.add_cog(PrivacyCog(bot))
