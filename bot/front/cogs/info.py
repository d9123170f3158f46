"""/rules and /help: what the games are and how to use the bot. Both also work in a direct
message with the bot (every other command lives in servers and says so in a DM)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

import engine
from bot import texts
from bot.front import alttext
from bot.front.boards import attachment
from bot.front.replies import ephemeral
from bot.texts.commands import GAME_KIND_CONTEXT

from .common import GAME_CHOICES

if TYPE_CHECKING:
    from bot.front.client import StonecastBot

# Start positions for /rules pictures: small boards read better than the defaults at a glance.
RULES_OPTIONS = {"coil": {"size": 5}, "io": {"size": 8}, "braincoral": {},
                 "branchingcoral": {}, "whirlwind": {"size": 14}}


def rules_position(kind: str) -> engine.Position:
    """The start position pictured by /rules for ``kind``."""
    try:
        return engine.new_game(kind, **RULES_OPTIONS.get(kind, {}))
    except engine.OptionError:
        return engine.new_game(kind)


class InfoCog(commands.Cog, name="Info"):
    """Rules summaries and help."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot
        self._pictures: dict[str, bytes] = {}

    @app_commands.command(name=_T("rules"), description=_T("A short summary of a game's rules, with a picture"))
    @app_commands.describe(game=_T("Which game"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.rename(game=_T("game", context=GAME_KIND_CONTEXT))
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """/rules game:<game> -- a summary in our words and a start position."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        kind = game.value
        position = rules_position(kind)
        if kind not in self._pictures:
            self._pictures[kind] = await self.bot.renderer.render(position)
        await ephemeral(interaction, texts.rules_text(kind),
                        file=attachment(self._pictures[kind], f"{kind}-start.png", alttext.rules(position)))

    @app_commands.command(name=_T("help"), description=_T("How to play with Stonecast"))
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def help(self, interaction: discord.Interaction) -> None:
        """/help -- how to use the bot: an embed with the commands by topic (a plain text
        of them all is longer than Discord's 2,000 characters for a message)."""
        embed = discord.Embed.from_dict(texts.help_embed(in_dm=interaction.guild is None))
        await ephemeral(interaction, None, embed=embed)


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.front.cogs.info")``)."""
    await bot.add_cog(InfoCog(bot))
