"""The outbox's delivery pass and the one policy for a failed post (split from
:mod:`bot.front.announcer`, which posts).

A failed post, on the command path (:class:`bot.front.announcer.Announcer`) and in the delivery
pass (:class:`DeliveryPass`) alike, is handled by one policy (:meth:`PostPolicy.attempt`):

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
(:meth:`PostPolicy.find_post`) and marks the row delivered when it is there.
"""

from __future__ import annotations

import asyncio
import enum
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.manager.leases import renewing

from . import boards

if TYPE_CHECKING:
    from bot.manager import Announcement, GameManager, UserSettings

log = logging.getLogger("stonecast.bot")

# Failed posts (Discord 5xx, network errors) after which an announcement is given up.
MAX_ANNOUNCE_ATTEMPTS = 5
# After a DM is refused, wait this long (seconds) before trying that member again.
DM_RETRY_AFTER = 24 * 3600.0
# A delivery pass reads the outbox this many rows at a time, and goes on with the next rows
# while there are any, until this many seconds have passed (the next pass takes the rest).
DELIVERY_BATCH = 100
DELIVERY_BUDGET = 45.0
# The channel's last messages read to find an announcement posted before (PostPolicy.find_post).
RECHECK_MESSAGES = 50


def _post_key(content: str, filenames: list[str]) -> tuple[str, tuple[str, ...]]:
    """What identifies a post in its channel (:meth:`PostPolicy.find_post`): the first line of
    its ``content`` (Discord trims the spaces around a message) and its attachments'
    ``filenames``."""
    return content.strip().split("\n", 1)[0].strip(), tuple(filenames)


class Delivery(enum.Enum):
    """How one attempt to post went (:meth:`PostPolicy.attempt`)."""

    POSTED = "posted"
    REFUSED = "refused"  # for good: marked delivered with the reason
    FAILED = "failed"  # for now: left in the outbox


def rate_limited(error: BaseException) -> bool:
    """Whether ``error`` says Discord's rate limit refused a request: a 429 answer that
    discord.py gave up retrying, or its :class:`discord.RateLimited` (a wait longer than its
    ``max_ratelimit_timeout``)."""
    return isinstance(error, discord.RateLimited) or (
        isinstance(error, discord.HTTPException) and error.status == 429)


class PostPolicy:
    """The one policy for a post about a game (module docstring), over ``manager``'s outbox,
    for the Discord connection ``client`` (whose ``user`` is the bot's own account).

    ``dm_closed`` remembers, per user id, when a DM to them was refused (monotonic seconds).
    """

    def __init__(self, manager: GameManager, client: discord.Client):
        self.manager = manager
        self.client = client
        self.dm_closed: dict[int, float] = {}

    async def attempt(self, announcement_id: int | None, where: str, post: Callable[[], Awaitable[object]],
                       *, count: bool = False) -> Delivery:
        """Run ``post`` for outbox row ``announcement_id`` (``None``: a post not in the
        outbox) and settle the row by the one policy (module docstring). ``count``: a failure
        is counted against the row and the row given up after :data:`MAX_ANNOUNCE_ATTEMPTS`
        (the delivery pass); else it waits for that pass (the command path)."""
        try:
            posted = await post()
        except (discord.Forbidden, discord.NotFound) as e:
            log.warning("giving up the %s: Discord refused the post (%s)", where, e)
            await self.mark(announcement_id, error=f"refused: {e}")
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
                    await self.mark(announcement_id, error=f"gave up after {attempts} failed posts")
                else:
                    log.info("could not post the %s (attempt %d); retrying at the next sweep",
                             where, attempts, exc_info=True)
            return Delivery.FAILED
        await self.mark(announcement_id, message_id=posted.id if isinstance(posted, discord.Message) else None)
        return Delivery.POSTED

    async def mark(self, announcement_id: int | None, *, error: str | None = None,
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
        closed_at = self.dm_closed.get(user_id) if user_id is not None else None
        if closed_at is not None and time.monotonic() - closed_at < DM_RETRY_AFTER:
            return "skipped: DMs closed"
        return None

    # ------------------------------------------------------------------ posted already? (issue 18)

    async def find_post(self, channel: discord.PartialMessageable, post: boards.Post) -> discord.Message | None:
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
        me = self.client.user
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


class DeliveryPass:
    """The outbox's delivery pass (:meth:`deliver`): each pending announcement of ``manager``
    posted by ``post`` (:meth:`bot.front.announcer.Announcer.post_announcement`) and settled
    by ``policy``. ``board_grace``: seconds a queued board waits before the pass posts it in
    place of the handler that queued it (tests set 0)."""

    def __init__(self, manager: GameManager, policy: PostPolicy,
                 post: Callable[[Announcement], Awaitable[object]], *, board_grace: float):
        self.manager = manager
        self.policy = policy
        self.post = post
        self.board_grace = board_grace
        self._delivery = asyncio.Lock()  # one delivery pass at a time: no double posts

    async def deliver(self, *, board_grace: float | None = None) -> int:
        """Post each pending announcement of the manager's outbox, oldest first, and mark it
        delivered once the post succeeded. Returns how many were posted. ``board_grace``:
        in place of :attr:`board_grace` for this pass (0 after a tournament round's start,
        whose first boards no handler posts).

        * A board (kind ``"move"``) is only taken once it is :attr:`board_grace`
          seconds old, and posted as the game's current board (:func:`bot.front.boards.move_post`).
        * A your-turn DM (kind ``"dm"``) likewise, sent with the board image; one to a member
          who turned DMs off since, or whose DMs were found closed lately, is marked without
          a post; one whose game's board failed to post in this pass waits for the next (the
          board comes first).
        * A reminder or DM whose turn ended meanwhile, or a board a later move superseded
          (:attr:`~bot.manager.Announcement.stale`), is marked without a post.
        * Refusals and failures: the module's policy (:meth:`PostPolicy.attempt`).

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
                grace = self.board_grace if board_grace is None else board_grace
                batch = await self.manager.pending_announcements(DELIVERY_BATCH, board_grace=grace)
                fresh = [a for a in batch if a.id not in seen]
                posted += await self._deliver_claimed(fresh, boards_failed)
                seen.update(a.id for a in fresh)
                if (len(batch) < DELIVERY_BATCH or not fresh
                        or time.monotonic() - started >= DELIVERY_BUDGET):
                    return posted

    async def _deliver_claimed(self, batch: list[Announcement], boards_failed: set[int]) -> int:
        """One batch of :meth:`deliver`, claimed already: posted by :meth:`_deliver_batch`
        while this process's claim on its rows is renewed every third of the manager's lease
        (:func:`bot.manager.leases.renewing`): a pass slowed past the lease by Discord's rate
        limits keeps its rows, so no other process posts them too."""
        ids = [a.id for a in batch]
        async with renewing(lambda: self.manager.renew_announcements(ids), self.manager.lease,
                            what=f"{len(ids)} outbox rows"):
            return await self._deliver_batch(batch, boards_failed)

    async def _deliver_batch(self, batch: list[Announcement], boards_failed: set[int]) -> int:
        """Post the announcements of one batch of a delivery pass (:meth:`deliver`); adds to
        ``boards_failed`` the games whose board could not be posted. Returns how many were
        posted."""
        posted = 0
        for a in batch:
            if a.stale:
                await self.policy.mark(a.id, error="skipped: the turn ended first"
                                 if a.kind in ("reminder", "dm") else "skipped: superseded")
                continue
            skip = self.policy.dm_skip_reason(a.user_id, a.settings) if a.kind == "dm" else None
            if skip:
                await self.policy.mark(a.id, error=skip)
                continue
            if a.kind == "dm" and a.game.id in boards_failed:
                continue
            where = f"{a.kind} of game {a.game.id} (announcement {a.id})"
            done = await self.policy.attempt(a.id, where, functools.partial(self.post, a), count=True)
            if done is Delivery.FAILED and a.kind == "move":
                boards_failed.add(a.game.id)
            posted += done is Delivery.POSTED
        return posted
