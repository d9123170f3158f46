"""Tournament posts (issue 21): the announcement with its Join button, a round's pairings,
standings (text and picture), the final standings, a cancellation, a withdrawal -- each an
outbox row the tournaments service writes with the change it announces
(:class:`bot.manager.values.tournaments.TournamentPost`), posted here in the tournament's
channel and marked delivered once Discord took it. The post that ends sign-up (round 1's
pairings, or a cancellation before the start) first takes the Join button off the
announcement (an edit, which doing twice does no harm).

The policy is the games' outbox's (:mod:`bot.front.delivery`): refused for good (403, 404)
-> given up with the reason; another failure -> counted, given up after
:data:`bot.front.delivery.MAX_ANNOUNCE_ATTEMPTS`; Discord's rate limit -> tried again at the
next pass, not counted. Each post carries a nonce of its row (``stonecast-t<id>``), and a
post that may have gone out already (``recheck``) is looked for in the channel first.

A round's games start in threads of their own, made by the games' delivery pass
(:meth:`bot.front.threads.GameThreads.ensure_thread`, named by
:func:`bot.texts.tournament_thread_name`); the pairings post comes after their first boards,
so it links each game's thread.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot import texts
from bot.rules import timecontrol
from bot.texts import i18n
from renderers.standings import MAX_ROWS, StandingsHeader, StandingsRow, render_standings_png

from . import boards
from .delivery import MAX_ANNOUNCE_ATTEMPTS, rate_limited
from .views import join_view

if TYPE_CHECKING:
    from bot.manager import GameManager
    from bot.manager.values.tournaments import StandingsView, TournamentPost

    from .client import StonecastBot

log = logging.getLogger("stonecast.bot")

#: Rows of the standings picture (the text lists more, within Discord's 2000 characters).
IMAGE_ROWS = 32
#: Tournament posts read from the outbox at a time.
POST_BATCH = 50


def post_nonce(post_id: int) -> str:
    """The message nonce of tournament post ``post_id`` (apart from the games' outbox's)."""
    return f"stonecast-t{int(post_id)}"[:25]


class TournamentPosts:
    """Posts the tournament outbox of ``bot``'s manager (:meth:`deliver`), one pass at a time."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot
        self._lock = asyncio.Lock()

    @property
    def manager(self) -> GameManager:
        """The bot's game manager."""
        return self.bot.manager

    async def deliver(self) -> int:
        """Post every pending tournament post, oldest first, and mark each delivered (or
        given up, by the policy of the module docstring). Returns how many were posted.
        Database errors reading the outbox propagate."""
        posted = 0
        seen: set[int] = set()
        async with self._lock:
            while True:
                batch = [p for p in await self.manager.pending_tournament_posts(POST_BATCH) if p.id not in seen]
                if not batch:
                    return posted
                seen.update(p.id for p in batch)
                for post in batch:
                    posted += await self._attempt(post)

    async def _attempt(self, post: TournamentPost) -> bool:
        """Post one row and settle it; True when posted."""
        try:
            message = await self.post(post)
        except (discord.Forbidden, discord.NotFound) as e:
            log.warning("giving up tournament post %s: Discord refused it (%s)", post.id, e)
            await self.manager.mark_tournament_post_delivered(post.id, error=f"refused: {e}")
            return False
        except Exception as e:  # noqa: BLE001 - committed already: retried at the next pass
            if rate_limited(e):
                log.info("tournament post %s: Discord's rate limit; retrying at the next pass", post.id)
                return False
            attempts = await self.manager.record_failed_tournament_post(post.id, f"{type(e).__name__}: {e}")
            if attempts >= MAX_ANNOUNCE_ATTEMPTS:
                log.warning("giving up tournament post %s after %d failures", post.id, attempts, exc_info=True)
                await self.manager.mark_tournament_post_delivered(
                    post.id, error=f"gave up after {attempts} failed posts")
            return False
        await self.manager.mark_tournament_post_delivered(post.id, message_id=message.id)
        return True

    async def post(self, post: TournamentPost) -> discord.Message:
        """Send ``post`` in its tournament's channel (its content by :meth:`content`, a
        standings picture with standings). Raises discord.HTTPException when refused;
        ValueError for an unknown kind."""
        t = post.tournament
        with i18n.speaking(await self.bot.languages.of_guild(t.guild_id)):  # a public post: the server's language
            content, view = self.content(post)
            png = None
            if post.standings is not None and post.kind in ("standings", "final") and post.standings.rows:
                png = await self.standings_png(post.standings, post.round)
            message = boards.Post(content=content, png=png, filename=f"standings-{t.id}-{post.round}.png",
                                  view=view, description=texts.standings_alt(post.standings, IMAGE_ROWS)
                                  if post.standings is not None else "")
        channel = self.bot.get_partial_messageable(t.channel_id, guild_id=t.guild_id)
        if post.announcement_id is not None:
            await self.close_signup(channel, post.announcement_id)
        if post.recheck:
            earlier = await self.bot.announcer.policy.find_post(channel, message)
            if earlier is not None:
                return earlier
        return await channel.send(**message.send_kwargs(post_nonce(post.id)))

    async def close_signup(self, channel: discord.PartialMessageable, message_id: int) -> None:
        """Take the Join button off the announcement ``message_id`` (sign-up ended: the
        tournament started or was cancelled). Its text stays. A message gone or out of reach
        is left be (a late press is refused and takes the button off then); Discord's rate
        limit propagates, so the post is tried again at the next pass."""
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException as e:
            if rate_limited(e):
                raise
            log.info("could not take the Join button off announcement %s: %s", message_id, e)

    def content(self, post: TournamentPost) -> tuple[str, discord.ui.View | None]:
        """The words of ``post`` (and the Join button of an announcement while sign-up is
        open: one posted late, after the start, has none). ValueError for an unknown kind."""
        t = post.tournament
        if post.kind == "opened":
            clock = clock_name(t.clock)
            return texts.tournament_announcement(t, clock), join_view(t.id) if t.status == "signup" else None
        if post.kind == "round":
            return texts.tournament_round_post(t, post.round, post.pairings, post.games), None
        if post.kind == "standings" and post.standings is not None:
            return texts.standings_text(post.standings, post.round), None
        if post.kind == "final" and post.standings is not None:
            return texts.tournament_final_post(post.standings, post.next_season), None
        if post.kind == "cancelled":
            return texts.tournament_cancelled_post(t), None
        if post.kind == "withdrawn" and post.user_id is not None:
            return texts.tournament_withdrawn_post(t, post.user_id), None
        raise ValueError(f"unknown tournament post kind {post.kind!r}")

    async def standings_png(self, view: StandingsView, after_round: int | None = None) -> bytes:
        """The standings picture (its first :data:`IMAGE_ROWS` rows, a league's under their
        division's label; ``after_round``: the round just completed, for its title), drawn
        off the event loop."""
        rows = []
        for row in view.rows[:min(IMAGE_ROWS, MAX_ROWS)]:
            name = await self.bot.display_name(row.user_id, view.tournament.guild_id)
            if row.computer_level is not None:
                name = texts.computer_name(name, row.computer_level)
            rows.append(StandingsRow(rank=row.rank, name=name, rating=str(round(row.rating)), points=row.points,
                                     tie_breaks=tuple(value for _, value in row.tiebreaks), games_left=row.left,
                                     movement=_movement(view, row.user_id),
                                     section="" if row.division is None else texts.division_label(row.division)))
        words = texts.standings_words()
        names = view.rows[0].tiebreaks if view.rows else ()
        header = StandingsHeader(words["rank"], words["player"], words["rating"], words["points"],
                                 tuple(texts.tie_break_word(name) for name, _ in names), words["left"])
        return await asyncio.to_thread(render_standings_png, rows, header, title=texts.standings_title(view, after_round),
                                       subtitle=texts.tournament_format(view.tournament),
                                       title_name=view.tournament.name)


def _movement(view: StandingsView, user_id: int) -> int:
    """+1 promoted, -1 relegated, 0 neither (a league's final standings)."""
    return 1 if user_id in view.promoted else -1 if user_id in view.relegated else 0


def clock_name(clock: str) -> str:
    """A stored clock as players read it (its own text when it cannot be read)."""
    try:
        return texts.clock_name(timecontrol.parse(clock))
    except timecontrol.TimeControlError:
        return clock
