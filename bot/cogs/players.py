"""Per-player commands: /notify, /vacation, /leaderboard and /profile (issue 5)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from .. import texts
from ..manager import Limits
from ..replies import ephemeral
from .info import GAME_CHOICES

log = logging.getLogger("stonecast.bot")

# /vacation's upper bound: the yearly allowance (a longer request could never be granted)
VACATION_DAYS = int(Limits.vacation_days)

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
    @app_commands.describe(days=f"How many days, up to your {VACATION_DAYS} a year (0 ends a running "
                                f"vacation and gives the rest back)")
    async def vacation(self, interaction: discord.Interaction,
                       days: app_commands.Range[int, 0, VACATION_DAYS]) -> None:
        """/vacation days:<n> -- pause the caller's clocks (issue 5), then post a note with the
        new deadline in each game whose clock moved (issue 9).

        Vacation time is counted by the hour: ending one gives back its unused whole hours,
        so a vacation ended seconds after it began costs one hour (the reply says so)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        before = await self.bot.manager.settings(interaction.user.id)
        s = await self.bot.manager.set_vacation(interaction.user.id, days)
        left = f"{texts.vacation_amount(s.vacation_left_days)} of vacation left this year"
        if s.vacation_until:
            short = ""
            if days and s.vacation_left_days < 1e-6 and before.vacation_left_days < days - 1e-6:
                short = (f" That is all you had left ({texts.vacation_amount(before.vacation_left_days)}),"
                         f" a little less than {days} days.")
            text = (f"Enjoy your break: your clocks wait until <t:{int(s.vacation_until)}:f>, and "
                    f"your opponents see that you are away.{short} {left}.")
        else:
            back = texts.vacation_amount(s.vacation_left_days - before.vacation_left_days)
            text = (f"Welcome back: your clocks run again. The unused part of this vacation is "
                    f"given back: {back} (vacation is counted by the hour, a started hour as a "
                    f"whole one). {left}.")
        notes = await self.deadline_notes(interaction.user.id)
        await ephemeral(interaction, text + notes)

    async def deadline_notes(self, user_id: int) -> str:
        """Post a short note with the new deadline in the thread of each game where it is
        ``user_id``'s move (the games whose clock a vacation just moved). Best effort: the
        deadlines are committed already; returns a sentence for the reply when a note could
        not be posted, else ``""``."""
        from .. import boards

        failed = 0
        for g in await self.bot.manager.active_games(user_id):
            if g.to_move_user != user_id or g.deadline is None:
                continue
            try:
                await boards.post_deadline_note(self.bot, g, user_id)
            except discord.HTTPException:
                log.warning("could not post the new deadline of game %s", g.id, exc_info=True)
                failed += 1
        if failed:
            return (f" I could not post the new deadline in {texts.count(failed, 'game')}'s thread; "
                    f"`/games` shows it.")
        return ""

    @app_commands.command(name="leaderboard", description="The top ratings of a game in this server")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """/leaderboard game:<game> -- top 10 ratings in this server, and the caller's own
        place below them when they are rated but not among the ten (issue 9)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        rows = await self.bot.manager.leaderboard(interaction.guild_id, game.value, limit=10)
        if not rows:
            await ephemeral(interaction, f"Nobody has finished a rated game of {texts.title(game.value)} "
                                         f"here yet. Be the first: `/challenge {game.value}`.")
            return
        lines = [f"**{texts.title(game.value)}** — top ratings in this server"]
        for rank, row in enumerate(rows, 1):
            lines.append(self._rank_line(rank, row))
        uid = interaction.user.id
        if all(row.user_id != uid for row in rows):
            mine = await self.bot.manager.rank(interaction.guild_id, game.value, uid)
            if mine is not None:
                lines += ["…", self._rank_line(*mine) + " ← you"]
            else:
                lines.append(f"You have no rated {texts.title(game.value)} game here yet.")
        await ephemeral(interaction, "\n".join(lines))

    @staticmethod
    def _rank_line(rank: int, row) -> str:
        """``"3. <@id> — **1523** (4 rated games)"``."""
        return (f"{rank}. <@{row.user_id}> — **{round(row.rating)}** "
                f"({texts.count(row.games, 'rated game')})")

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


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.cogs.players")``)."""
    await bot.add_cog(PlayersCog(bot))
