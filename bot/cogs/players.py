"""Per-player commands: /notify, /vacation, /leaderboard and /profile (issue 5)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from .. import texts
from ..replies import ephemeral
from .info import GAME_CHOICES

if TYPE_CHECKING:
    from ..client import StonecastBot


class PlayersCog(commands.Cog, name="Players"):
    """Notifications, vacations, ratings and profiles."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot

    @app_commands.command(name="notify", description="Get a direct message when it becomes your turn")
    @app_commands.describe(dm="on: a DM whenever it is your move; off: only the thread mention (default)")
    async def notify(self, interaction: discord.Interaction, dm: Literal["on", "off"]) -> None:
        """/notify dm:on|off -- the your-turn DM (issue 5)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        settings = await self.bot.manager.set_notify(interaction.user.id, dm == "on")
        if settings.dm:
            text = ("I will send you a direct message when it becomes your move. If your DMs are "
                    "closed to server members I will quietly skip it; the thread mention stays.")
        else:
            text = "No more direct messages: you will be mentioned in the game's thread only."
        await ephemeral(interaction, text)

    @app_commands.command(name="vacation", description="Pause the clocks of all your games for some days")
    @app_commands.describe(days="How many days (0 ends a running vacation and gives the rest back)")
    async def vacation(self, interaction: discord.Interaction, days: app_commands.Range[int, 0, 366]) -> None:
        """/vacation days:<n> -- pause the caller's clocks (issue 5)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        s = await self.bot.manager.set_vacation(interaction.user.id, days)
        whole = int(s.vacation_left_days + 1e-9)  # only whole days can be asked for
        left = f"{whole} vacation day{'s' if whole != 1 else ''} left this year"
        if s.vacation_until:
            text = (f"Enjoy your break: your clocks wait until <t:{int(s.vacation_until)}:f>, and "
                    f"your opponents see that you are away. {left}.")
        else:
            text = f"Welcome back: your clocks run again. {left}."
        await ephemeral(interaction, text)

    @app_commands.command(name="leaderboard", description="The top ratings of a game in this server")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """/leaderboard game:<game> -- top 10 ratings in this server."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        rows = await self.bot.manager.leaderboard(interaction.guild_id, game.value, limit=10)
        if not rows:
            await ephemeral(interaction, f"Nobody has finished a rated game of {texts.title(game.value)} "
                                         f"here yet. Be the first: `/challenge {game.value}`.")
            return
        lines = [f"**{texts.title(game.value)}** — top ratings in this server"]
        for rank, row in enumerate(rows, 1):
            lines.append(f"{rank}. <@{row.user_id}> — **{round(row.rating)}** "
                         f"({row.games} rated game{'s' if row.games != 1 else ''})")
        await ephemeral(interaction, "\n".join(lines))

    @app_commands.command(name="profile", description="Ratings, results and games of a player")
    @app_commands.describe(member="Whose profile (default: yours)")
    @app_commands.guild_only()
    async def profile(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        """/profile [member] -- ratings, records and current games."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = member or interaction.user
        p = await self.bot.manager.profile(interaction.guild_id, user.id)
        lines = [f"**Profile of <@{user.id}>**"]
        kinds = [k for k in texts.GAME_ORDER if k in p.ratings or k in p.records]
        for kind in kinds:
            rating = p.ratings.get(kind)
            record = p.records.get(kind)
            parts = []
            if rating is not None:
                parts.append(f"rating **{round(rating.rating)}** ({rating.games} rated)")
            if record is not None:
                parts.append(f"{record.wins} won, {record.losses} lost, {record.draws} drawn")
            lines.append(f"• {texts.title(kind)}: " + "; ".join(parts))
        if not kinds:
            lines.append("No finished games yet.")
        if p.active_games:
            ids = ", ".join(f"{texts.game_label(g.kind, g.id)} (<#{g.channel_for_posts}>)"
                            for g in p.active_games[:10])
            more = len(p.active_games) - 10
            lines.append(f"Playing now: {ids}" + (f", and {more} more." if more > 0 else "."))
        await ephemeral(interaction, "\n".join(lines)[:2000])
