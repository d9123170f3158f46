"""Housekeeping as a ``discord.ext.tasks`` loop: every minute (the bot's
``maintenance_interval``; and once on start, settling whatever fell due while the bot was
away) challenges past their deadline lapse, tournaments advance (issue 21), the clocks are swept, the outbox is delivered,
every game where the computer is to move and no search runs gets its search queued, and lapsed
analysis boards are deleted (issue 23; :meth:`bot.manager.GameManager.expire_boards`, safe in
several processes at once).
The loop waits until the bot is ready, starts when the cog loads and stops when it unloads (on
close); a failing step is logged and the loop goes on.

Clock announcements (issue 5) go through the manager's outbox: the sweep commits a timeout or
a reminder together with an announcement row, and the delivery pass
(:meth:`bot.front.announcer.Announcer.deliver`) posts each pending row and marks it delivered only
after Discord accepted the post. It runs on start and after every sweep, so a bot that died
between the commit and the post (or whose post failed) posts it later. Boards and your-turn
DMs go the same way: the /move or Accept handler posts what it queued
(:meth:`bot.front.announcer.Announcer.publish`), and a row still pending ``board_grace`` seconds
later (the handler died or its post failed) is posted by the delivery pass -- the game's
current board, as the handler would have written it, or nothing when a later move superseded
it. A post failing again and again is given up after :data:`MAX_ANNOUNCE_ATTEMPTS` passes.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot import texts
from bot.front.cogs.tournaments import TournamentsCog
from bot.front.delivery import MAX_ANNOUNCE_ATTEMPTS
from bot.texts import i18n

if TYPE_CHECKING:
    from bot.front.client import StonecastBot
    from bot.manager import ClockEvent

log = logging.getLogger("stonecast.bot")

__all__ = ["MAX_ANNOUNCE_ATTEMPTS", "MaintenanceCog", "setup"]


class MaintenanceCog(commands.Cog, name="Maintenance"):
    """The housekeeping loop (:attr:`maintenance`) and the outbox's delivery pass."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot

    async def cog_load(self) -> None:
        """Start the loop (its first pass runs once the bot is ready)."""
        self.maintenance.change_interval(seconds=self.bot.maintenance_interval)
        self.maintenance.start()

    async def cog_unload(self) -> None:
        """Stop the loop and wait for a pass under way to end."""
        self.maintenance.cancel()
        task = self.maintenance.get_task()
        if task is not None:
            try:
                await task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001
                pass

    @tasks.loop(minutes=1)  # the bot's maintenance_interval, set in cog_load
    async def maintenance(self) -> None:
        """One pass: :meth:`run_maintenance`."""
        await self.run_maintenance()

    @maintenance.before_loop
    async def before_maintenance(self) -> None:
        """The first pass waits until the bot is connected (posts need the gateway)."""
        await self.bot.wait_until_ready()

    async def run_maintenance(self) -> None:
        """Expire old challenges, advance the tournaments, sweep the clocks and wake the
        computer for its pending moves, delete lapsed analysis boards; failures are logged,
        never raised."""
        for job in (self.expire_challenges, self.advance_tournaments, self.sweep_clocks, self.wake_computer,
                    self.expire_analysis_boards):
            try:
                await job()
            except Exception:  # noqa: BLE001 - keep the loop alive
                log.exception("maintenance step %s failed", job.__name__)

    async def sweep_clocks(self) -> list[ClockEvent]:
        """Sweep the clocks (reminders, losses on time), then post whatever the outbox holds
        -- this sweep's announcements and any left over from before a crash or a failed post.

        Returns the manager's :class:`~bot.manager.ClockEvent` list for this sweep.
        """
        try:
            events: list[ClockEvent] = await self.bot.manager.sweep()
            return events
        finally:
            await self.deliver_announcements()

    async def advance_tournaments(self) -> int:
        """Advance the tournaments (issue 21: sign-ups that closed start, finished games'
        results are recorded, the next round or season starts, final standings), then post
        the new rounds' first boards (in threads named with the tournament and round) and
        the tournament posts. Returns how many tournaments changed."""
        changed = await self.bot.manager.advance()
        try:
            if any(a.started is not None or a.next_season is not None for a in changed):
                await self.bot.announcer.outbox.deliver(board_grace=0.0)
        finally:
            await self.bot.cog(TournamentsCog).posts.deliver()
        return len(changed)

    async def deliver_announcements(self) -> int:
        """Post what the outbox holds (:meth:`bot.front.announcer.Announcer.deliver`). Returns how
        many were posted."""
        return await self.bot.announcer.deliver()

    async def wake_computer(self) -> int:
        """Queue the computer's move in every game where it is to move and no search runs
        (the database is the truth: after a restart, or a queue that was full). Returns how
        many were queued."""
        return await self.bot.computer.wake()

    async def expire_analysis_boards(self) -> int:
        """Delete the analysis boards unused for a day (issue 23; their private messages stay,
        and their buttons answer that the board lapsed). Returns how many."""
        deleted: int = await self.bot.manager.expire_boards()
        return deleted

    async def expire_challenges(self) -> int:
        """Expire challenges older than their deadline and mark their messages. Returns how many."""
        expired = await self.bot.manager.expire_challenges()
        for c in expired:
            if c.message_id is None:
                continue
            with i18n.speaking(await self.bot.languages.of_guild(c.guild_id)):  # the public message
                content = texts.challenge_ended(c, i18n._(texts.CHALLENGE_LAPSED))
            try:
                await self.bot.get_partial_messageable(c.channel_id, guild_id=c.guild_id).get_partial_message(
                    c.message_id).edit(content=content,
                                       view=None, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                log.info("could not mark expired challenge %s", c.id)
        return len(expired)


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.front.cogs.maintenance")``)."""
    await bot.add_cog(MaintenanceCog(bot))
