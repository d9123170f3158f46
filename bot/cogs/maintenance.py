"""Housekeeping as a ``discord.ext.tasks`` loop: every minute (and once on start, settling
whatever fell due while the bot was away; the bot's ``maintenance_interval``) challenges past their deadline lapse, the clocks
are swept, and the outbox is delivered. The loop waits until the bot is ready, starts when
the cog loads and stops when it unloads (on close); a failing step is logged and the loop
goes on.

Clock announcements (issue 5) go through the manager's outbox: the sweep commits a timeout or
a reminder together with an announcement row, and :meth:`MaintenanceCog.deliver_announcements`
posts each pending row and marks it delivered only after Discord accepted the post. It runs
on start and after every sweep, so a bot that died between the commit and the post (or whose
post failed) posts it later. Boards go the same way (kind ``"move"``): ``play_move`` queues
the board with the move (``accept_challenge`` the first board, ply 0, with the new game), the
/move (Accept) handler posts it and marks it (:func:`bot.cogs.common.post_queued_board`), and
a board still pending ``board_grace`` seconds later (the handler died or its post failed) is
posted by the delivery pass -- the game's current board, as the handler would have written
it, or nothing when a later move superseded it. Your-turn DMs go the same way (kind ``"dm"``,
queued with the move or the new game for a player who turned DMs on): the handler sends it
after the board, with the same image, else the delivery pass does; a closed DM (403) is given
up at once.

Delivery is at least once, and every post carries a nonce derived from its outbox row
(:func:`bot.boards.outbox_nonce`), which discord.py sends with ``enforce_nonce``: a post
repeated within a few minutes -- after a crash between the post and its mark, or a handler
and the delivery pass both posting -- returns the first message instead of a second one.

A game accepted by a process that died before recording its thread (``thread_wanted``) gets
it from the delivery pass before anything of the game is posted: the thread is started on the
challenge message, or, when one was started there already, found (a thread started from a
message has that message's id); where threads are not allowed the game stays in the channel.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from .. import boards, texts

if TYPE_CHECKING:
    from ..client import StonecastBot

log = logging.getLogger("stonecast.bot")

# Failed posts (Discord 5xx, network errors) after which an announcement is given up.
MAX_ANNOUNCE_ATTEMPTS = 5
# Discord's error code for "A thread has already been created for this message".
THREAD_ALREADY_CREATED = 160004


class MaintenanceCog(commands.Cog, name="Maintenance"):
    """The housekeeping loop (:attr:`maintenance`) and the outbox's delivery pass."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot
        self._delivery = asyncio.Lock()  # one delivery pass at a time: no double posts

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
        """Expire old challenges and sweep the clocks; failures are logged, never raised."""
        for job in (self.expire_challenges, self.sweep_clocks):
            try:
                await job()
            except Exception:  # noqa: BLE001 - keep the loop alive
                log.exception("maintenance step %s failed", job.__name__)

    async def sweep_clocks(self) -> list:
        """Sweep the clocks (reminders, losses on time), then post whatever the outbox holds
        -- this sweep's announcements and any left over from before a crash or a failed post.

        Returns the manager's :class:`~bot.manager.ClockEvent` list for this sweep.
        """
        try:
            return await self.bot.manager.sweep()
        finally:
            await self.deliver_announcements()

    async def deliver_announcements(self) -> int:
        """Post each pending announcement of the manager's outbox, oldest first, and mark it
        delivered once the post succeeded. Returns how many were posted.

        * A board (kind ``"move"``) is only taken once it is :attr:`board_grace` seconds old,
          and posted as the game's current board (:func:`bot.boards.post_move`).
        * A your-turn DM (kind ``"dm"``) likewise, sent with the board image
          (:func:`bot.boards.send_turn_dm`); one to a member who turned DMs off since, or
          whose DMs were found closed lately, is marked without a post; one whose game's
          board failed to post in this pass waits for the next (the board comes first).
        * A reminder or DM whose turn ended meanwhile, or a board a later move superseded
          (:attr:`~bot.manager.Announcement.stale`), is marked without a post.
        * A post Discord refuses for good (404: the thread or channel is gone; 403: no
          access) is marked delivered with a logged warning -- it is never retried.
        * Any other failure (5xx, network, rendering) leaves it pending for the next sweep,
          counted; after :data:`MAX_ANNOUNCE_ATTEMPTS` failures it is given up with a warning.

        At least once: see the module docstring for the one window where a post can repeat.
        Database errors propagate.
        """
        posted = 0
        boards_failed: set[int] = set()  # games whose board could not be posted in this pass
        async with self._delivery:
            for a in await self.bot.manager.pending_announcements(board_grace=self.bot.board_grace):
                where = f"{a.kind} of game {a.game.id} (announcement {a.id})"
                if a.stale:
                    await self.bot.manager.mark_delivered(a.id, error="skipped: the turn ended first"
                                                      if a.kind in ("reminder", "dm") else "skipped: superseded")
                    continue
                skip = await boards.dm_skip_reason(self.bot, a.user_id) if a.kind == "dm" else None
                if skip:
                    await self.bot.manager.mark_delivered(a.id, error=skip)
                    continue
                if a.kind == "dm" and a.game.id in boards_failed:
                    continue
                try:
                    await self.post_announcement(a)
                except (discord.NotFound, discord.Forbidden) as e:
                    log.warning("giving up the %s: Discord refused the post (%s)", where, e)
                    await self.bot.manager.mark_delivered(a.id, error=f"refused: {e}")
                    continue
                except Exception as e:  # noqa: BLE001 - a failed post is retried, not fatal
                    if a.kind == "move":
                        boards_failed.add(a.game.id)
                    attempts = await self.bot.manager.record_failed_post(a.id, f"{type(e).__name__}: {e}")
                    if attempts >= MAX_ANNOUNCE_ATTEMPTS:
                        log.warning("giving up the %s after %d failed posts", where, attempts, exc_info=True)
                        await self.bot.manager.mark_delivered(a.id, error=f"gave up after {attempts} failed posts")
                    else:
                        log.info("could not post the %s (attempt %d); retrying at the next sweep",
                                 where, attempts, exc_info=True)
                    continue
                await self.bot.manager.mark_delivered(a.id)
                posted += 1
        return posted

    async def post_announcement(self, announcement) -> discord.Message:
        """Post one outbox :class:`~bot.manager.Announcement` in its game's thread: the
        reminder mentioning the player to move, the final board of a loss on time pinging both
        players (the winner and the one who ran out of time), or the board after a move (:func:`bot.boards.post_move`: the game's current
        board with the text the /move or Accept handler writes, pinging the player to move;
        at ply 0 the first board, "the game begins"); or the your-turn DM
        (:func:`bot.boards.send_turn_dm`). Each post carries the row's nonce. A game whose
        thread is still wanted gets it first (:meth:`ensure_thread`). Raises
        discord.HTTPException when Discord refuses the post and ValueError for an unknown
        kind."""
        if announcement.kind == "digest":  # issue 13: the daily digest DM (bot.cogs.turns)
            return await self.bot.get_cog("Turns").send_digest(announcement, boards.outbox_nonce(announcement.id))
        if announcement.kind not in ("reminder", "timeout", "move", "dm"):
            raise ValueError(f"unknown announcement kind {announcement.kind!r}")
        game = await self.ensure_thread(announcement.game)
        announcement = replace(announcement, game=game)
        nonce = boards.outbox_nonce(announcement.id)
        if announcement.kind == "reminder":
            return await boards.post_reminder(self.bot, game, nonce=nonce)
        if announcement.kind == "timeout":
            return await boards.post_final(self.bot, game, game.position,
                                           headline=texts.ran_out_of_time(announcement.user_id),
                                           ping=(game.opponent_of(announcement.user_id),
                                                 announcement.user_id),
                                           nonce=nonce)
        record = await self.bot.manager.move_at(game.id, announcement.ply) if announcement.ply else None
        seat = None if record is None else record.seat
        if announcement.kind == "dm":
            return await boards.send_turn_dm(self.bot, game, game.position, seat, nonce=nonce)
        return await boards.post_move(self.bot, game, game.position, seat, nonce=nonce)

    async def ensure_thread(self, game):
        """The game, with its thread made or found when it is still wanted
        (:attr:`~bot.manager.Game.thread_wanted`: the process that accepted it died before
        recording it); else the game unchanged.

        The thread is started on the challenge message, as the Accept handler does; when
        Discord answers that one was started there already (code 160004), that thread -- whose
        id is the message's -- is the game's. Where no thread can be made (the message is
        unknown or gone, threads are not allowed there: 400, 403, 404) the game's boards go to
        the channel. The challenge message, whose buttons the dead handler left, then says
        where the game is (best effort). Raises discord.HTTPException for other failures (5xx:
        tried again with the announcement), ValueError when the bot does not know the server
        (likewise)."""
        if not game.thread_wanted:
            return game
        challenge = await self.bot.manager.get_challenge(game.challenge_id) if game.challenge_id else None
        thread_id = None
        if challenge is not None and challenge.message_id is not None:
            name = texts.thread_name(game, await self.bot.display_name(game.players[1], game.guild_id),
                                     await self.bot.display_name(game.players[2], game.guild_id))
            try:
                message = self.bot.get_partial_messageable(
                    challenge.channel_id, guild_id=challenge.guild_id).get_partial_message(challenge.message_id)
                thread_id = (await message.create_thread(name=name, auto_archive_duration=10080)).id
            except discord.HTTPException as e:
                if e.code == THREAD_ALREADY_CREATED:
                    thread_id = challenge.message_id
                elif e.status not in (400, 403, 404):
                    raise
                else:
                    log.info("no thread for game %s (%s); posting in the channel", game.id, e)
        await self.bot.manager.set_game_thread(game.id, thread_id)
        log.info("game %s recovered its thread: %s", game.id, thread_id or "none, the channel")
        game = await self.bot.manager.get_game(game.id)
        if challenge is not None and challenge.message_id is not None:
            try:
                await self.bot.get_partial_messageable(challenge.channel_id, guild_id=challenge.guild_id
                                                   ).get_partial_message(challenge.message_id).edit(
                    content=texts.accepted_text(challenge, game), view=None,
                    allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                log.info("could not mark accepted challenge %s", challenge.id)
        return game

    async def expire_challenges(self) -> int:
        """Expire challenges older than their deadline and mark their messages. Returns how many."""
        expired = await self.bot.manager.expire_challenges()
        for c in expired:
            if c.message_id is None:
                continue
            try:
                await self.bot.get_partial_messageable(c.channel_id, guild_id=c.guild_id).get_partial_message(
                    c.message_id).edit(content=texts.challenge_ended(c, texts.CHALLENGE_LAPSED),
                                       view=None, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                log.info("could not mark expired challenge %s", c.id)
        return len(expired)


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.cogs.maintenance")``)."""
    await bot.add_cog(MaintenanceCog(bot))
