"""/abort: a moderator (Manage Server) ends a game without a result."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from bot import texts
from bot.front import choices
from bot.front.replies import ephemeral
from bot.manager import NotAllowed, Refusal

if TYPE_CHECKING:
    from bot.front.client import StonecastBot


class AdminCog(commands.Cog, name="Admin"):
    """Moderators' commands."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot

    @app_commands.command(name=_T("abort"), description=_T("End a game without a result (moderators)"))
    @app_commands.describe(game=_T("The game's number"))
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def abort(self, interaction: discord.Interaction, game: int) -> None:
        """/abort game:<id> -- end a game without result (Manage Server only)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        manager = self.bot.manager
        # a moderator aborts any game of this server, not only their own; another server's
        # game (in a DM: one the caller does not play) gets the usual refusal first
        g = await manager.resolve_game(interaction.user.id, game_id=game, guild_id=interaction.guild_id)
        if not interaction.permissions.manage_guild:
            raise NotAllowed(Refusal.ABORT_NOT_ALLOWED)
        end = await manager.abort_game(g.id, interaction.user.id)
        await self.bot.announcer.publish(end)
        await ephemeral(interaction, texts.is_aborted(texts.game_label(end.game.kind, end.game.id)))

    @abort.autocomplete("game")
    async def abort_autocomplete(self, interaction: discord.Interaction, current: str
                                 ) -> list[app_commands.Choice[int]]:
        """Suggest the server's games in progress -- only to members who may abort them."""
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            return []
        found = await self.bot.manager.complete_server_game(interaction.guild_id)
        pairs = choices.server_game_choices(found, current, name_of=self.bot.cached_name)
        return [app_commands.Choice(name=label[:100], value=gid) for gid, label in pairs]


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.front.cogs.admin")``)."""
    await bot.add_cog(AdminCog(bot))
