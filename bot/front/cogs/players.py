"""Per-player commands: /notify, /vacation, /leaderboard and /profile (issue 5)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from bot import texts
from bot.front.replies import ephemeral
from bot.manager import Limits
from bot.texts.commands import GAME_KIND_CONTEXT

from .common import GAME_CHOICES

# /vacation's upper bound: the yearly allowance (a longer request could never be granted)
VACATION_DAYS = int(Limits.vacation_days)

if TYPE_CHECKING:
    from bot.front.client import StonecastBot


class PlayersCog(commands.Cog, name="Players"):
    """Notifications, vacations, ratings and profiles."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot

    @app_commands.command(name=_T("notify"), description=_T("Get a direct message when it becomes your turn"))
    @app_commands.describe(dm=_T("on: a DM whenever it is your move; off: only the thread mention (default)"))
    async def notify(self, interaction: discord.Interaction, dm: Literal["on", "off"]) -> None:
        """/notify dm:on|off -- the your-turn DM (issue 5)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        settings = await self.bot.manager.set_notify(interaction.user.id, dm == "on")
        await ephemeral(interaction, texts.i18n._(texts.NOTIFY_ON if settings.dm else texts.NOTIFY_OFF))

    @app_commands.command(name=_T("vacation"), description=_T("Pause the clocks of all your games for some days"))
    @app_commands.describe(days=f"How many days, up to your {VACATION_DAYS} a year (0 ends a running "
                                f"vacation and gives the rest back)")
    async def vacation(self, interaction: discord.Interaction,
                       days: app_commands.Range[int, 0, VACATION_DAYS]) -> None:
        """/vacation days:<n> -- pause the caller's clocks (issue 5), then post a note with the
        new deadline in each game whose clock moved (issue 9).

        Vacation time is counted by the hour: ending one gives back its unused whole hours,
        so a vacation ended seconds after it began costs one hour (the reply says so)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        change = await self.bot.manager.vacation(interaction.user.id, days)
        s, before = change.settings, change.before
        if s.vacation_until:
            text = texts.vacation_started(s.vacation_until, s.vacation_left_days, asked=days,
                                          had=before.vacation_left_days)
        else:
            text = texts.vacation_ended(s.vacation_left_days - before.vacation_left_days, s.vacation_left_days)
        await ephemeral(interaction, text + await self.bot.announcer.publish(change))

    @app_commands.command(name=_T("leaderboard"), description=_T("The top ratings of a game in this server"))
    @app_commands.describe(game=_T("Which game"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    @app_commands.rename(game=_T("game", context=GAME_KIND_CONTEXT))
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """/leaderboard game:<game> -- top 10 ratings in this server, and the caller's own
        place below them when they are rated but not among the ten (issue 9)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        board = await self.bot.manager.standings(interaction.guild_id, game.value, interaction.user.id, limit=10)
        if not board.rows:
            await ephemeral(interaction, texts.no_rated_games(game.value))
            return
        lines = [texts.leaderboard_header(game.value)]
        lines += [texts.rank_line(rank, row) for rank, row in enumerate(board.rows, 1)]
        if board.mine is not None:
            lines += ["…", texts.rank_line(*board.mine) + " ← you"]
        elif not board.rated:
            lines.append(texts.unrated_here(game.value))
        await ephemeral(interaction, "\n".join(lines))

    @app_commands.command(name=_T("profile"), description=_T("Ratings, results and games of a player"))
    @app_commands.describe(member=_T("Whose profile (default: yours)"))
    @app_commands.guild_only()
    async def profile(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        """/profile [member] -- ratings, records and current games."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = member or interaction.user
        p = await self.bot.manager.profile(interaction.guild_id, user.id)
        await ephemeral(interaction, texts.profile_text(user.id, p))


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.front.cogs.players")``)."""
    await bot.add_cog(PlayersCog(bot))
