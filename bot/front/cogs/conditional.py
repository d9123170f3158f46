"""/conditional add, list and clear (issue 13): a player's prepared replies to their
opponent's next moves. Every answer is ephemeral: the opponent never sees the lines.
Replies are played by :meth:`bot.manager.GameManager.play_move` in the opponent's move."""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from bot import texts
from bot.front.replies import ephemeral

from .common import as_int, game_autocomplete, game_for

if TYPE_CHECKING:
    from bot.front.client import StonecastBot

log = logging.getLogger("stonecast.bot")


class ConditionalCog(commands.GroupCog, group_name=_T("conditional"),
                     group_description=_T("Prepare replies to your opponent's next moves")):
    """/conditional add | list | clear."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot
        super().__init__()

    @app_commands.command(name=_T("add"), description=_T("Store a line: their move; your reply; their move; ..."))
    @app_commands.describe(line=_T("Moves separated by ';', theirs first: e5; d4; c3 e5; f6 — pick from the suggestions"),
                           game=_T("The game's number (not needed in its thread or with one game)"))
    @app_commands.guild_only()
    async def add(self, interaction: discord.Interaction, line: app_commands.Range[str, 1, 400],
                  game: int | None = None) -> None:
        """Check the line against the game now and store it with the others."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        g = await game_for(interaction, game)
        stored = await self.bot.manager.add_conditional(g.id, interaction.user.id, line)
        await ephemeral(interaction, texts.conditional_stored(texts.game_label(g.kind, g.id), stored.texts))

    @add.autocomplete("line")
    async def line_autocomplete(self, interaction: discord.Interaction, current: str
                                ) -> list[app_commands.Choice[str]]:
        """Whole-line suggestions whose last step is a legal move after the earlier steps."""
        lines = await self.bot.manager.complete_conditional(
            interaction.user.id, current, game_id=as_int(interaction.namespace.game),
            channel_id=interaction.channel_id, guild_id=interaction.guild_id, limit=25)
        return [app_commands.Choice(name=x, value=x) for x in lines[:25]]

    add.autocomplete("game")(game_autocomplete)

    @app_commands.command(name=_T("list"), description=_T("Your stored conditional moves (only you see them)"))
    @app_commands.describe(game=_T("The game's number (not needed in its thread or with one game)"),
                           board=_T("A line's number: show the board at its end"))
    @app_commands.guild_only()
    async def list_(self, interaction: discord.Interaction, game: int | None = None,
                    board: app_commands.Range[int, 1, 20] | None = None) -> None:
        """The lines as text; with ``board:`` the board at the end of that line."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        g = await game_for(interaction, game)
        label = texts.game_label(g.kind, g.id)
        if board is None:
            stored = await self.bot.manager.conditional_lines(g.id, interaction.user.id)
            await ephemeral(interaction, texts.conditional_list(label, stored.texts))
            return
        stored, end = await self.bot.manager.conditional_end_position(g.id, interaction.user.id, board)
        # no deadline on a board that may never be: the game's current one would mislead
        file = await self.bot.announcer.board_file(dataclasses.replace(stored.game, deadline=None), end)
        await ephemeral(interaction, texts.conditional_board(label, board, stored.texts[board - 1]), file=file)

    list_.autocomplete("game")(game_autocomplete)

    @app_commands.command(name=_T("clear"), description=_T("Remove all your conditional moves in a game"))
    @app_commands.describe(game=_T("The game's number (not needed in its thread or with one game)"))
    @app_commands.guild_only()
    async def clear(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Remove every line the caller stored in the game."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        g = await game_for(interaction, game)
        n = await self.bot.manager.clear_conditionals(g.id, interaction.user.id)
        await ephemeral(interaction, texts.conditional_cleared(texts.game_label(g.kind, g.id), n))

    clear.autocomplete("game")(game_autocomplete)


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.front.cogs.conditional")``)."""
    await bot.add_cog(ConditionalCog(bot))
