"""/history: a game's record as a text file, with an animated replay once it is over."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from .. import texts
from ..replies import ephemeral
from .common import game_autocomplete

if TYPE_CHECKING:
    from ..client import StonecastBot


class HistoryCog(commands.Cog, name="History"):
    """Records and replays of games."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot

    @app_commands.command(name="history", description="A game's record as a text file, with a replay once it is over")
    @app_commands.describe(game="The game's number")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, game: int) -> None:
        """/history game:<id> -- the text record, plus a GIF replay once over."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        rec = await self.bot.manager.game_record(interaction.user.id, game_id=game, guild_id=interaction.guild_id)
        g = rec.game
        names = {seat: await self.bot.display_name(uid, g.guild_id) for seat, uid in g.players.items()}
        label = texts.game_label(g.kind, g.id)
        files = [discord.File(io.BytesIO(rec.text(names).encode()), filename=f"stonecast-{g.id}.txt")]
        if g.status != "active" and g.ply:
            gif = await self.bot.renderer.render_gif(g.kind, g.options, rec.move_texts, names)
            files.append(discord.File(io.BytesIO(gif), filename=f"stonecast-{g.id}.gif"))
        await ephemeral(interaction, texts.history_text(label, g.ply, over=g.status != "active"), files=files)

    history.autocomplete("game")(game_autocomplete)


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.cogs.history")``)."""
    await bot.add_cog(HistoryCog(bot))
