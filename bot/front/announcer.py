"""The announcer: the one way a board (or any other post about a game) reaches Discord.

A command handler makes one manager call and hands its answer to :meth:`Announcer.publish`
(a :class:`~bot.manager.MoveResult`, :class:`~bot.manager.Accepted` or
:class:`~bot.manager.GameEnd`); the maintenance cog's loop calls :meth:`Announcer.deliver`
for what the outbox still holds (:class:`~bot.manager.Announcement`). Both come here, so a
board posted late reads the same and a failed post is handled by one policy
(:meth:`Announcer._attempt`):

* posted: the outbox row is marked delivered;
* refused for good by Discord (403: no access or DMs closed; 404: the thread or channel is
  gone): marked delivered with the reason, never retried;
* any other failure (5xx, network, rendering): left in the outbox. The command path tells the
  player it is saved and will follow; the delivery pass counts the failure and gives the row
  up after :data:`MAX_ANNOUNCE_ATTEMPTS`;
* rate limited (a 429 still there after discord.py's own waits and retries: a bot at Discord's
  global limit for long, :func:`rate_limited`): left in the outbox and tried at every pass, not
  counted -- an announcement is never given up for the bot's own load.

Marking delivered never raises: the post is made (or given up) already, and the worst outcome
of a lost mark is a second post, which the row's nonce (:func:`bot.front.boards.outbox_nonce`) turns
into the first message again -- within Discord's nonce window (minutes). Beyond it (a long
outage, a process that claimed the row and died after posting, a failed post Discord may have
made anyway), the delivery pass first looks for the post among the thread's recent messages
(:meth:`Announcer.find_post`) and marks the row delivered when it is there.

The announcer also renders boards through the bot's render pool (the last few images kept, so
the your-turn DM carries the very PNG of the thread's post), sends your-turn DMs (skipped when
the player turned DMs off or their DMs were found closed in the last :data:`DM_RETRY_AFTER`
seconds), and starts a game's thread -- on Accept, or for a game whose process died before
recording it (:meth:`Announcer.ensure_thread`). What each message says is :mod:`bot.front.boards`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import discord

import ai
from bot import texts
from bot.manager import Accepted, Announcement, GameEnd, MoveResult, VacationChange

from . import alttext, boards

if TYPE_CHECKING:
    import engine
    from bot.manager import Game, GameManager, MoveRecord, UserSettings

    from .client import StonecastBot

log = logging.getLogger("stonecast.bot")

# Failed posts (Discord 5xx, network errors) after which an announcement is given up.
MAX_ANNOUNCE_ATTEMPTS = 5
# After a DM is refused, wait this long (seconds) before trying that member again.
DM_RETRY_AFTER = 24 * 3600.0
# Board images kept, so the your-turn DM carries the very PNG of the thread's post.
PNG_CACHE_SIZE = 32
# A delivery pass reads the outbox this many rows at a time, and goes on with the next rows
# while there are any, until this many seconds have passed (the next pass takes the rest).
DELIVERY_BATCH = 100
DELIVERY_BUDGET = 45.0
# Discord's error code for "A thread has already been created for this message".
THREAD_ALREADY_CREATED = 160004
# Minutes of inactivity before a game's thread is archived (Discord's longest: a week).
THREAD_ARCHIVE_MINUTES = 10080
ANNOUNCEMENT_KINDS = ("reminder", "timeout", "move", "dm", "digest", "deadline")
# The channel's last messages read to find an announcement posted before (Announcer.find_post).
RECHECK_MESSAGES = 50


def _post_key(content: str, filenames: list[str]) -> tuple[str, tuple[str, ...]]:
    """What identifies a post in its channel (:meth:`Announcer.find_post`): the first line of
    its ``content`` (Discord trims the spaces around a message) and its attachments'
    ``filenames``."""
    return content.strip().split("\n", 1)[0].strip(), tuple(filenames)


class Delivery(enum.Enum):
    """How one attempt to post went (:meth:`Announcer._attempt`)."""

    POSTED = "posted"
    REFUSED = "refused"  # for good: marked delivered with the reason
    FAILED = "failed"  # for now: left in the outbox


def rate_limited(error: BaseException) -> bool:
    """Whether ``error`` says Discord's rate limit refused a request: a 429 answer that
    discord.py gave up retrying, or its :class:`discord.RateLimited` (a wait longer than its
    ``max_ratelimit_timeout``)."""
    return isinstance(error, discord.RateLimited) or (
        isinstance(error, discord.HTTPException) and error.status == 429)


class Announcer:
    """Posts what the manager returns, for the bot ``bot`` (its Discord connection, its
    ``manager``, ``renderer``, ``board_grace`` and the players' display names).

    ``dm_closed`` remembers, per user id, when a DM to them was refused (monotonic seconds).
    """

    def __init__(self, bot: StonecastBot):
        self.bot = bot
        self.dm_closed: dict[int, float] = {}
        self._pngs: OrderedDict[tuple, bytes] = OrderedDict()
        self._delivery = asyncio.Lock()  # one delivery pass at a time: no double posts

    @property
    def manager(self) -> GameManager:
        """The bot's game manager."""
        return self.bot.manager

    # ------------------------------------------------------------------ the command path

    async def publish(self, value: MoveResult | Accepted | GameEnd | VacationChange) -> str:
        """Post what a command's manager call committed: the board after a move (and the
        your-turn DM queued with it), the first board of an accepted game (likewise; call
        :meth:`open_thread` first), the final word on a resigned or aborted game, or the note
        with the new deadline in each game whose clock a vacation moved.

        Returns ``""`` when all went out, else a sentence for the player's reply (the board
        could not be posted: refused, or saved for the delivery pass; some deadline notes
        follow later or were refused; the computer's queue is full). Never raises for a failed post:
        what it announces is committed already. TypeError for another value.

        A board that leaves the computer to move (a game against it) queues its move.
        """
        if isinstance(value, MoveResult):
            note = await self._publish_board(value.game, value.position, value.last_seat, value.announcement_id,
                                             value.dm_id, value.to_move_settings, value.rating_changes,
                                             value.plies)
            return note + self._computer_turn(value.game, value.position)
        if isinstance(value, Accepted):
            note = await self._publish_board(value.game, value.position, None, value.announcement_id,
                                             value.dm_id, value.to_move_settings, {})
            return note + self._computer_turn(value.game, value.position)
        if isinstance(value, GameEnd):
            if value.game.ai_seat is not None:
                self.bot.computer.forget(value.game.id)
            await self._publish_end(value)
            return ""
        if isinstance(value, VacationChange):
            return await self._publish_deadlines(value)
        raise TypeError(f"nothing to publish for {type(value).__name__}")

    def _computer_turn(self, game: Game, position: engine.Position) -> str:
        """After a board that leaves the computer to move: queue its move
        (:meth:`bot.workers.computer.Computer.request`); a sentence when its queue is full."""
        if game.ai_seat is None or position.outcome is not None or position.to_move != game.ai_seat:
            return ""
        return self.bot.computer.request(game)

    async def _publish_board(self, game: Game, position: engine.Position, seat: int | None,
                             board_id: int | None, dm_id: int | None, settings: UserSettings | None,
                             rating_changes: dict, plies: tuple[MoveRecord, ...] = ()) -> str:
        """The board queued as outbox row ``board_id`` (``seat`` played; ``None``: the first
        board; ``plies``: every move it announces, the player's and the conditional replies
        after it), then the DM queued as ``dm_id`` with the same image."""
        png: bytes | None = None

        async def post() -> discord.Message:
            nonlocal png
            png = await self.render(game, position)
            vacation = None if settings is None else settings.vacation_until
            return await self._send(game, boards.move_post(game, position, seat, png, vacation_until=vacation,
                                                           rating_changes=rating_changes, plies=plies), board_id,
                                    position)

        where = f"board of game {game.id} at move {position.ply} (announcement {board_id})"
        done = await self._attempt(board_id, where, post)
        if done is Delivery.REFUSED:
            return texts.BOARD_REFUSED
        if done is Delivery.FAILED:
            return texts.BOARD_DELAYED
        if dm_id is not None and png is not None:
            skip = self.dm_skip_reason(game.to_move_user, settings)
            if skip:
                await self._mark(dm_id, error=skip)
            else:
                await self._attempt(dm_id, f"DM of game {game.id} (announcement {dm_id})",
                                    lambda: self._send_turn_dm(game, position, seat, png, dm_id, plies))
        return ""

    async def _publish_end(self, end: GameEnd) -> None:
        """The final board of a resigned game, or the note on an aborted one (no outbox row:
        a failure is logged)."""
        game = end.game

        async def post() -> None:
            if game.status == "aborted":
                await self._send(game, boards.abort_post(game, end.by, end.ping))
                return
            png = await self.render(game, end.position)
            await self._send(game, boards.final_post(game, end.position, png, headline=texts.resigned(end.by),
                                                     ping=end.ping, rating_changes=end.rating_changes),
                             position=end.position)

        await self._attempt(None, f"end of game {game.id}", post)

    async def _publish_deadlines(self, change: VacationChange) -> str:
        """The note with the move's new deadline (:func:`bot.front.boards.deadline_note`) in each
        game whose clock ``change`` moved -- the last board there no longer shows it -- each
        posted with its outbox row (``change.note_ids``), like a board: a note that fails now
        stays queued and the delivery pass posts it. Returns ``""``, or the sentences for the
        notes that follow later and those Discord refused."""
        delayed = refused = 0
        note_ids = change.note_ids or (None,) * len(change.games)
        for game, note_id in zip(change.games, note_ids, strict=True):
            post = boards.deadline_note(game, change.user_id, change.settings.vacation_until)
            done = await self._attempt(note_id, f"deadline note of game {game.id} (announcement {note_id})",
                                       lambda g=game, p=post, i=note_id: self._send(g, p, i))
            if done is Delivery.FAILED and note_id is not None:
                delayed += 1
            elif done is not Delivery.POSTED:
                refused += 1
        return ((texts.deadline_notes_delayed(delayed) if delayed else "")
                + (texts.deadline_notes_failed(refused) if refused else ""))

    # ------------------------------------------------------------------ the outbox

    async def deliver(self) -> int:
        """Post each pending announcement of the manager's outbox, oldest first, and mark it
        delivered once the post succeeded. Returns how many were posted.

        * A board (kind ``"move"``) is only taken once it is the bot's ``board_grace``
          seconds old, and posted as the game's current board (:func:`bot.front.boards.move_post`).
        * A your-turn DM (kind ``"dm"``) likewise, sent with the board image; one to a member
          who turned DMs off since, or whose DMs were found closed lately, is marked without
          a post; one whose game's board failed to post in this pass waits for the next (the
          board comes first).
        * A reminder or DM whose turn ended meanwhile, or a board a later move superseded
          (:attr:`~bot.manager.Announcement.stale`), is marked without a post.
        * Refusals and failures: the module's policy (:meth:`_attempt`).

        At least once: a post repeated after a crash between it and its mark returns the first
        message (its nonce). Database errors reading the outbox propagate.

        The outbox is read :data:`DELIVERY_BATCH` rows at a time; the pass goes on with the
        next rows while a batch came back full, until :data:`DELIVERY_BUDGET` seconds have
        passed (a row that failed in this pass is not tried again in it).
        """
        posted = 0
        boards_failed: set[int] = set()  # games whose board could not be posted in this pass
        seen: set[int] = set()  # rows taken in this pass (a failed one comes back in the next batch)
        started = time.monotonic()
        async with self._delivery:
            while True:
                batch = await self.manager.pending_announcements(DELIVERY_BATCH, board_grace=self.bot.board_grace)
                fresh = [a for a in batch if a.id not in seen]
                posted += await self._deliver_claimed(fresh, boards_failed)
                seen.update(a.id for a in fresh)
                if (len(batch) < DELIVERY_BATCH or not fresh
                        or time.monotonic() - started >= DELIVERY_BUDGET):
                    return posted

    async def _deliver_claimed(self, batch: list[Announcement], boards_failed: set[int]) -> int:
        """One batch of :meth:`deliver`, claimed already: posted by :meth:`_deliver_batch`
        while :meth:`_renew_claims` keeps this process's claim on its rows."""
        renewer = asyncio.create_task(self._renew_claims([a.id for a in batch]),
                                      name="renew outbox claims")
        try:
            return await self._deliver_batch(batch, boards_failed)
        finally:
            renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await renewer

    async def _renew_claims(self, ids: list[int]) -> None:
        """Every third of the manager's lease, renew this process's claim on the outbox rows
        ``ids`` of the running delivery batch (those not delivered yet): a pass slowed past the
        lease by Discord's rate limits keeps its rows, so no other process posts them too."""
        manager = self.manager
        while ids:
            await asyncio.sleep(manager.lease / 3)
            try:
                await manager.renew_announcements(ids)
            except Exception:  # noqa: BLE001 - the next renewal tries again
                log.warning("could not renew the claim on %d outbox rows", len(ids), exc_info=True)

    async def _deliver_batch(self, batch: list[Announcement], boards_failed: set[int]) -> int:
        """Post the announcements of one batch of a delivery pass (:meth:`deliver`); adds to
        ``boards_failed`` the games whose board could not be posted. Returns how many were
        posted."""
        posted = 0
        for a in batch:
            if a.stale:
                await self._mark(a.id, error="skipped: the turn ended first"
                                 if a.kind in ("reminder", "dm") else "skipped: superseded")
                continue
            skip = self.dm_skip_reason(a.user_id, a.settings) if a.kind == "dm" else None
            if skip:
                await self._mark(a.id, error=skip)
                continue
            if a.kind == "dm" and a.game.id in boards_failed:
                continue
            where = f"{a.kind} of game {a.game.id} (announcement {a.id})"
            done = await self._attempt(a.id, where, lambda a=a: self.post_announcement(a), count=True)
            if done is Delivery.FAILED and a.kind == "move":
                boards_failed.add(a.game.id)
            posted += done is Delivery.POSTED
        return posted

    async def post_announcement(self, announcement: Announcement) -> discord.Message | None:
        """Post one outbox :class:`~bot.manager.Announcement` in its game's thread: the
        reminder mentioning the player to move, the note with a vacation's new deadline, the
        final board of a loss on time pinging both
        players (the winner and the one who ran out of time), or the board after a move (the
        game's current board as the /move or Accept handler writes it; at ply 0 the first
        board, "the game begins"); or the your-turn DM. Each post carries the row's nonce; a post
        in a thread whose announcement may have gone out already beyond the nonce's reach
        (:attr:`~bot.manager.Announcement.recheck`) is first looked for there
        (:meth:`find_post`) and not posted again when found (DMs and digests are not looked
        for: a repeated DM is the lesser harm, and the DM channel's history is not read). A
        game whose thread is still wanted gets it first (:meth:`ensure_thread`). Raises
        discord.HTTPException when Discord refuses the post and ValueError for an unknown
        kind. Returns the message (``None``: a digest skipped)."""
        a = announcement
        if a.kind not in ANNOUNCEMENT_KINDS:
            raise ValueError(f"unknown announcement kind {a.kind!r}")
        if a.kind == "digest":  # a DM about all of a player's games, not a post in a thread
            return await self._send_digest(a)
        game = await self.ensure_thread(a.game)
        look = a.recheck  # posted already, perhaps: look for it in the thread first
        if a.kind == "reminder":
            return await self._send(game, boards.reminder_post(game), a.id, look_first=look)
        if a.kind == "deadline":
            return await self._send(game, boards.deadline_note(game, a.user_id, a.vacation_until), a.id,
                                    look_first=look)
        position = game.position
        png = await self.render(game, position)
        if a.kind == "timeout":
            return await self._send(game, boards.final_post(
                game, position, png, headline=texts.ran_out_of_time(a.user_id),
                ping=(game.opponent_of(a.user_id), a.user_id), rating_changes=a.rating_changes), a.id,
                position, look_first=look)
        seat = None if a.move_record is None else a.move_record.seat
        if a.kind == "dm":
            return await self._send_turn_dm(game, position, seat, png, a.id, a.plies)
        return await self._send(game, boards.move_post(game, position, seat, png, vacation_until=a.vacation_until,
                                                       rating_changes=a.rating_changes, plies=a.plies), a.id,
                                position, look_first=look)

    # ------------------------------------------------------------------ the policy

    async def _attempt(self, announcement_id: int | None, where: str, post: Callable[[], Awaitable[object]],
                       *, count: bool = False) -> Delivery:
        """Run ``post`` for outbox row ``announcement_id`` (``None``: a post not in the
        outbox) and settle the row by the one policy (module docstring). ``count``: a failure
        is counted against the row and the row given up after :data:`MAX_ANNOUNCE_ATTEMPTS`
        (the delivery pass); else it waits for that pass (the command path)."""
        try:
            posted = await post()
        except (discord.Forbidden, discord.NotFound) as e:
            log.warning("giving up the %s: Discord refused the post (%s)", where, e)
            await self._mark(announcement_id, error=f"refused: {e}")
            return Delivery.REFUSED
        except Exception as e:  # noqa: BLE001 - committed already: a failed post is retried, not fatal
            if announcement_id is None:
                log.warning("could not post the %s", where, exc_info=True)
            elif not count:
                log.warning("could not post the %s; the outbox posts it later", where, exc_info=True)
            elif rate_limited(e):
                log.info("could not post the %s: Discord's rate limit; retrying at the next sweep "
                         "(not counted as a failure)", where)
            else:
                attempts = await self.manager.record_failed_post(announcement_id, f"{type(e).__name__}: {e}")
                if attempts >= MAX_ANNOUNCE_ATTEMPTS:
                    log.warning("giving up the %s after %d failed posts", where, attempts, exc_info=True)
                    await self._mark(announcement_id, error=f"gave up after {attempts} failed posts")
                else:
                    log.info("could not post the %s (attempt %d); retrying at the next sweep",
                             where, attempts, exc_info=True)
            return Delivery.FAILED
        await self._mark(announcement_id, message_id=posted.id if isinstance(posted, discord.Message) else None)
        return Delivery.POSTED

    async def _mark(self, announcement_id: int | None, *, error: str | None = None,
                    message_id: int | None = None) -> None:
        """Mark outbox row ``announcement_id`` delivered (or given up: ``error``) by the message
        ``message_id`` when known. A failure is logged, not raised (see the module
        docstring)."""
        if announcement_id is None:
            return
        try:
            await self.manager.mark_delivered(announcement_id, error=error, message_id=message_id)
        except Exception:  # noqa: BLE001
            log.exception("could not mark announcement %s delivered", announcement_id)

    def dm_skip_reason(self, user_id: int | None, settings: UserSettings | None) -> str | None:
        """Why the your-turn DM to ``user_id`` is not to be sent now, or ``None`` to send it:
        their ``settings`` (as the manager read them with the move or the announcement) say
        DMs are off, or their DMs were found closed less than :data:`DM_RETRY_AFTER` ago (no
        retry storm; the thread mention remains)."""
        if settings is not None and not settings.dm:
            return "skipped: DMs turned off"
        closed_at = self.dm_closed.get(user_id)
        if closed_at is not None and time.monotonic() - closed_at < DM_RETRY_AFTER:
            return "skipped: DMs closed"
        return None

    # ------------------------------------------------------------------ Discord

    async def _send(self, game: Game, post: boards.Post, announcement_id: int | None = None,
                    position: engine.Position | None = None, *, look_first: bool = False) -> discord.Message:
        """Send ``post`` as a new message in the game's thread (or channel), with the nonce of
        outbox row ``announcement_id``; its board image is described as a picture of
        ``position`` (:meth:`describe`). ``look_first``: unless :meth:`find_post` finds it
        there already (then that message). Raises discord.HTTPException when Discord
        refuses."""
        if position is not None:
            post = replace(post, description=await self.describe(game, position))
        channel = self.bot.get_partial_messageable(game.channel_for_posts, guild_id=game.guild_id)
        if look_first:
            earlier = await self.find_post(channel, post)
            if earlier is not None:
                log.info("announcement %s of game %s was posted already (message %s); not posting "
                         "it again", announcement_id, game.id, earlier.id)
                return earlier
        return await channel.send(**post.send_kwargs(boards.outbox_nonce(announcement_id)))

    # ------------------------------------------------------------------ posted already? (issue 18)

    async def find_post(self, channel: discord.abc.Messageable, post: boards.Post) -> discord.Message | None:
        """The message among the last :data:`RECHECK_MESSAGES` of ``channel`` that is ``post``
        posted before, if any: sent by this bot, with the same first line (the game and what
        happened: the move and its number, the loss on time, the reminder or new deadline)
        and the same attachment names (a board's names its game and ply) -- and not recorded
        as the post of another announcement (:meth:`~bot.manager.GameManager.recorded_messages`:
        the outbox keeps the message id of each post), the newest such.

        Used before posting an announcement again that may have been posted already beyond the
        reach of its nonce (:attr:`~bot.manager.Announcement.recheck`): Discord does not return
        a message's nonce when messages are fetched (only in the create response and the
        gateway's MESSAGE_CREATE), so the post is recognised by what it shows. Later lines are
        not compared: the deadline and the vacation note may have changed since; the first
        post stands. ``None`` when there is none, and when the bot may not read the channel's
        history (403; without Read Message History Discord returns no messages): then the
        post goes out, at worst a second time. Raises discord.HTTPException for other
        failures (the announcement is tried again later)."""
        key = _post_key(post.content[:boards.MESSAGE_LIMIT], [post.filename] if post.png is not None else [])
        me = self.bot.user
        alike = []
        try:
            async for message in channel.history(limit=RECHECK_MESSAGES):
                if (me is not None and message.author.id == me.id
                        and _post_key(message.content, [a.filename for a in message.attachments]) == key):
                    alike.append(message)
        except discord.Forbidden:
            log.info("cannot read the history of channel %s to look for an earlier post", channel.id)
            return None
        recorded = await self.manager.recorded_messages([m.id for m in alike])
        return next((m for m in alike if m.id not in recorded), None)

    async def _send_turn_dm(self, game: Game, position: engine.Position, seat: int | None, png: bytes,
                            announcement_id: int | None, plies: tuple[MoveRecord, ...] = ()) -> discord.Message:
        """DM the player to move (:func:`bot.front.boards.turn_dm`, naming every move of ``plies``).
        Raises discord.Forbidden when their DMs are closed (remembered in :attr:`dm_closed`,
        so they are not tried again for a while), discord.HTTPException for any other refusal."""
        post = replace(boards.turn_dm(game, position, seat, png, plies),
                       description=await self.describe(game, position))
        uid = game.to_move_user
        try:
            user = self.bot.get_user(uid) or await self.bot.fetch_user(uid)
            message = await user.send(**post.send_kwargs(boards.outbox_nonce(announcement_id)))
        except discord.Forbidden:
            self.dm_closed[uid] = time.monotonic()
            log.info("user %s does not accept DMs; not trying again for a while", uid)
            raise
        self.dm_closed.pop(uid, None)
        return message

    async def _send_digest(self, a: Announcement) -> discord.Message | None:
        """DM the daily digest of outbox row ``a`` (kind ``"digest"``, issue 13): every game
        waiting for its player now, with its clock and time left (:func:`bot.texts.digest_text`).
        Skipped (``None``) when the player has turned the digest off since. Raises
        discord.HTTPException (Forbidden: DMs closed) like any post."""
        settings = a.settings
        if settings is not None and settings.dm_mode != "digest":
            return None
        now = self.manager.clock()
        away = settings.vacation_until if settings is not None else None
        uid = a.user_id
        lines = [(g, g.opponent_of(uid), g.clock_text(now, away)) for g in a.games]
        user = self.bot.get_user(uid) or await self.bot.fetch_user(uid)
        return await user.send(texts.digest_text(lines)[:2000], allowed_mentions=discord.AllowedMentions.none(),
                               nonce=boards.outbox_nonce(a.id))

    async def render(self, game: Game, position: engine.Position) -> bytes:
        """PNG bytes of ``position`` with the players' names and, while the game runs, its
        deadline and both players' time (:func:`bot.front.boards.panel_clocks`) on the side panel -- rendered off the event loop by the bot's render pool.
        The last :data:`PNG_CACHE_SIZE` images are kept, so the board post and the your-turn
        DM after it carry the same PNG."""
        names = await self.bot.player_names(game)
        clock = boards.panel_clock(game, position)
        clocks = boards.panel_clocks(game, position)  # both players' time (issue 19)
        key = (game.id, position.to_text(), tuple(sorted(names.items())), clock, clocks)
        if key in self._pngs:
            self._pngs.move_to_end(key)
            return self._pngs[key]
        png = await self.bot.renderer.render(position, players=names, clock=clock,
                                              clocks=dict(clocks) if clocks else None)
        self._pngs[key] = png
        while len(self._pngs) > PNG_CACHE_SIZE:
            self._pngs.popitem(last=False)
        return png

    async def describe(self, game: Game, position: engine.Position) -> str:
        """The description (alt text) of the picture of ``position`` in ``game``, with the
        names the picture shows (:func:`bot.front.alttext.board`)."""
        return alttext.board(game, position, await self.bot.player_names(game))

    async def board_file(self, game: Game, position: engine.Position) -> discord.File:
        """The picture of ``position`` (:meth:`render`; ``game``'s deadline on its panel) as an
        attachment with its description (:meth:`describe`): for the replies that show a board
        to one player (/board, /next, the preview before Confirm, a conditional line's end)."""
        png = await self.render(game, position)
        return boards.board_file(game, position, png, await self.describe(game, position))

    async def _thread_name(self, game: Game) -> str:
        """The name of ``game``'s thread, with its players' display names."""
        names = await self.bot.player_names(game)
        return texts.thread_name(game, names[1], names[2])

    async def open_thread(self, accepted: Accepted, message: discord.Message | None) -> Accepted:
        """Start the new game's public thread on the challenge ``message`` (``None``: not
        possible here, e.g. the challenge was made inside a thread) and record it with the
        manager -- recorded even when there is none (the channel then), so the delivery pass
        does not make one later. Returns ``accepted`` with the game as now stored. Raises the
        manager's errors."""
        game = accepted.game
        thread_id = None
        if message is not None:
            try:
                thread = await message.create_thread(name=await self._thread_name(game),
                                                     auto_archive_duration=THREAD_ARCHIVE_MINUTES)
                thread_id = thread.id
            except (discord.HTTPException, ValueError):
                log.info("no thread for game %s in channel %s; posting in the channel", game.id,
                         game.channel_id)
        return replace(accepted, game=await self.manager.set_game_thread(game.id, thread_id))

    async def open_computer_thread(self, accepted: Accepted) -> Accepted:
        """A new game against the computer has no challenge message: post the message that
        opens it in the channel (no ping), remember it as the challenge's message, and start
        the game's thread on it (:meth:`open_thread`; the channel if the post fails)."""
        game = accepted.game
        message = None
        try:
            channel = self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
            level = game.ai_level
            message = await channel.send(
                texts.computer_started(game.label, level, ai.LEVELS[level].description,
                                       game.players[3 - game.ai_seat]),
                allowed_mentions=discord.AllowedMentions.none())
            await self.manager.set_challenge_message(accepted.challenge.id, message.id)
        except discord.HTTPException:
            log.info("cannot post the opening of game %s in channel %s", game.id, game.channel_id)
        return await self.open_thread(accepted, message)

    async def ensure_thread(self, game: Game) -> Game:
        """The game, with its thread made or found when it is still wanted
        (:attr:`~bot.manager.Game.thread_wanted`: the process that accepted it died before
        recording it); else the game unchanged.

        The thread is started on the challenge message, as :meth:`open_thread` does; when
        Discord answers that one was started there already (code 160004), that thread -- whose
        id is the message's -- is the game's. Where no thread can be made (the message is
        unknown or gone, threads are not allowed there: 400, 403, 404) the game's boards go to
        the channel. The challenge message, whose buttons the dead handler left, then says
        where the game is (best effort). Raises discord.HTTPException for other failures (5xx:
        tried again with the announcement), ValueError when the bot does not know the server
        (likewise)."""
        if not game.thread_wanted:
            return game
        challenge = await self.manager.get_challenge(game.challenge_id) if game.challenge_id else None
        message = None
        if challenge is not None and challenge.message_id is not None:
            message = self.bot.get_partial_messageable(
                challenge.channel_id, guild_id=challenge.guild_id).get_partial_message(challenge.message_id)
        thread_id = None
        if message is not None:
            try:
                thread_id = (await message.create_thread(name=await self._thread_name(game),
                                                         auto_archive_duration=THREAD_ARCHIVE_MINUTES)).id
            except discord.HTTPException as e:
                if e.code == THREAD_ALREADY_CREATED:
                    thread_id = challenge.message_id
                elif e.status not in (400, 403, 404):
                    raise
                else:
                    log.info("no thread for game %s (%s); posting in the channel", game.id, e)
        game = await self.manager.set_game_thread(game.id, thread_id)
        log.info("game %s recovered its thread: %s", game.id, thread_id or "none, the channel")
        if message is not None:
            try:
                await message.edit(content=texts.accepted_text(challenge, game), view=None,
                                   allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                log.info("could not mark accepted challenge %s", challenge.id)
        return game
