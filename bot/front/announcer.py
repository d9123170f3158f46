"""The announcer: the one way a board (or any other post about a game) reaches Discord.

A command handler makes one manager call and hands its answer to :meth:`Announcer.publish`
(a :class:`~bot.manager.MoveResult`, :class:`~bot.manager.Accepted` or
:class:`~bot.manager.GameEnd`); the maintenance cog's loop calls :meth:`Announcer.deliver`
for what the outbox still holds (:class:`~bot.manager.Announcement`). Both come here, so a
board posted late reads the same, and a failed post is handled by one policy
(:class:`bot.front.delivery.PostPolicy`; the delivery pass is
:class:`bot.front.delivery.DeliveryPass`, the game threads :class:`bot.front.threads.GameThreads`).

The announcer also renders boards through the render pool (the last few images kept, so the
your-turn DM carries the very PNG of the thread's post), sends your-turn DMs (skipped when the
player turned DMs off or their DMs were found closed in the last
:data:`bot.front.delivery.DM_RETRY_AFTER` seconds) and shows the typing indicator while the
computer thinks (:meth:`Announcer.typing`). What each message says is
:mod:`bot.front.boards`'s; it is worded in its readers' language (issue 22,
:mod:`bot.front.languages`): a post in a game's thread or channel in the server's, a DM in
its player's (its board drawn again when the thread's image speaks another language).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, cast

import discord

from bot import texts
from bot.manager import Accepted, Announcement, GameEnd, MoveResult, VacationChange
from bot.texts import i18n

from . import alttext, boards
from .delivery import Delivery, DeliveryPass, PostPolicy
from .languages import Languages
from .threads import GameThreads

if TYPE_CHECKING:
    import engine
    from bot.manager import Game, GameManager, MoveRecord, UserSettings
    from bot.workers.computer import Computer
    from bot.workers.rendering import BoardRenderer

log = logging.getLogger("stonecast.bot")

# Board images kept, so the your-turn DM carries the very PNG of the thread's post.
PNG_CACHE_SIZE = 32
ANNOUNCEMENT_KINDS = ("reminder", "timeout", "move", "dm", "digest", "deadline")


@dataclass(frozen=True)
class Picture:
    """A board picture ready to attach: the ``png`` bytes and their ``description`` (alt text),
    worded in ``language``."""

    png: bytes
    description: str
    language: str = i18n.DEFAULT


class Announcer:
    """Posts what the manager returns, over the Discord connection ``client``:

    * ``manager`` -- the open game manager (its outbox, settings, threads);
    * ``renderer`` -- the render pool that draws boards off the event loop;
    * ``names(game)`` -- seat -> the name ``game`` shows for its player
      (:meth:`bot.front.client.StonecastBot.player_names`);
    * ``computer`` -- the computer opponent, asked for its move after a board that leaves it
      to move, and told to drop the search of a game that ended;
    * ``board_grace`` -- seconds a queued board waits before the delivery pass posts it
      (attribute :attr:`board_grace`);
    * ``languages`` -- whose language each post speaks (default: read through ``manager``).

    Its parts: :attr:`policy` (:class:`~bot.front.delivery.PostPolicy`: a failed post, DMs
    found closed), :attr:`outbox` (:class:`~bot.front.delivery.DeliveryPass`) and
    :attr:`threads` (:class:`~bot.front.threads.GameThreads`).
    """

    def __init__(self, client: discord.Client, manager: GameManager, renderer: BoardRenderer, *,
                 names: Callable[[Game], Awaitable[dict[int, str]]], computer: Computer,
                 board_grace: float, languages: Languages | None = None):
        self.client = client
        self.languages = languages or Languages(lambda: manager)
        self.manager = manager
        self.renderer = renderer
        self.names = names
        self.computer = computer
        self.policy = PostPolicy(manager, client)
        # the announcement's post is looked up at each call: tests replace post_announcement
        self.outbox = DeliveryPass(manager, self.policy, lambda a: self.post_announcement(a),
                                   board_grace=board_grace)
        self.threads = GameThreads(client, manager, names, self.languages)
        self._pngs: OrderedDict[tuple[object, ...], bytes] = OrderedDict()

    @property
    def board_grace(self) -> float:
        """Seconds a queued board waits before the delivery pass posts it."""
        return self.outbox.board_grace

    @board_grace.setter
    def board_grace(self, seconds: float) -> None:
        self.outbox.board_grace = seconds

    async def deliver(self) -> int:
        """The outbox's delivery pass: :meth:`bot.front.delivery.DeliveryPass.deliver`."""
        return await self.outbox.deliver()

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

        A board that leaves the computer to move (a game against it) queues its move. A game
        that ended dispatches the ``game_over`` event with its id (the tournaments cog then
        advances its tournament, issue 21).
        """
        if isinstance(value, MoveResult | GameEnd) and (isinstance(value, GameEnd) or value.position.outcome):
            self.client.dispatch("game_over", value.game.id)  # a tournament may advance now (issue 21)
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
                self.computer.forget(value.game.id)
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
        return self.computer.request(game)

    async def _publish_board(self, game: Game, position: engine.Position, seat: int | None,
                             board_id: int | None, dm_id: int | None, settings: UserSettings | None,
                             rating_changes: dict[int, tuple[float, float]], plies: tuple[MoveRecord, ...] = ()) -> str:
        """The board queued as outbox row ``board_id`` (``seat`` played; ``None``: the first
        board; ``plies``: every move it announces, the player's and the conditional replies
        after it), then the DM queued as ``dm_id`` with the same image."""
        pic: Picture | None = None

        async def post() -> discord.Message:
            nonlocal pic
            with i18n.speaking(await self.languages.of_game(game)):
                pic = await self.picture(game, position)
                vacation = None if settings is None else settings.vacation_until
                return await self._send(game, boards.move_post(game, position, seat, pic.png, vacation_until=vacation,
                                                               rating_changes=rating_changes, plies=plies), board_id,
                                        pic)

        where = f"board of game {game.id} at move {position.ply} (announcement {board_id})"
        done = await self.policy.attempt(board_id, where, post)
        if done is Delivery.REFUSED:
            return texts.i18n._(texts.BOARD_REFUSED)
        if done is Delivery.FAILED:
            return texts.i18n._(texts.BOARD_DELAYED)
        if dm_id is not None and pic is not None:
            skip = self.policy.dm_skip_reason(game.to_move_user, settings)
            if skip:
                await self.policy.mark(dm_id, error=skip)
            else:
                await self.policy.attempt(dm_id, f"DM of game {game.id} (announcement {dm_id})",
                                    lambda: self._send_turn_dm(game, position, seat, pic, dm_id, plies))
        return ""

    async def _publish_end(self, end: GameEnd) -> None:
        """The final board of a resigned game, or the note on an aborted one (no outbox row:
        a failure is logged)."""
        game = end.game

        async def post() -> None:
            with i18n.speaking(await self.languages.of_game(game)):
                if game.status == "aborted":
                    await self._send(game, boards.abort_post(game, end.by, end.ping))
                    return
                pic = await self.picture(game, end.position)
                await self._send(game, boards.final_post(game, end.position, pic.png, headline=texts.resigned(end.by),
                                                         ping=end.ping, rating_changes=end.rating_changes),
                                 picture=pic)

        await self.policy.attempt(None, f"end of game {game.id}", post)

    async def _publish_deadlines(self, change: VacationChange) -> str:
        """The note with the move's new deadline (:func:`bot.front.boards.deadline_note`) in each
        game whose clock ``change`` moved -- the last board there no longer shows it -- each
        posted with its outbox row (``change.note_ids``), like a board: a note that fails now
        stays queued and the delivery pass posts it. Returns ``""``, or the sentences for the
        notes that follow later and those Discord refused."""
        delayed = refused = 0
        for game, note_id in zip(change.games, change.note_ids, strict=True):
            with i18n.speaking(await self.languages.of_game(game)):
                post = boards.deadline_note(game, change.user_id, change.settings.vacation_until)
            done = await self.policy.attempt(note_id, f"deadline note of game {game.id} (announcement {note_id})",
                                       functools.partial(self._send, game, post, note_id))
            if done is Delivery.FAILED:
                delayed += 1
            elif done is not Delivery.POSTED:
                refused += 1
        return ((texts.deadline_notes_delayed(delayed) if delayed else "")
                + (texts.deadline_notes_failed(refused) if refused else ""))

    async def post_announcement(self, announcement: Announcement) -> discord.Message | None:
        """Post one outbox :class:`~bot.manager.Announcement` in its game's thread: the
        reminder mentioning the player to move, the note with a vacation's new deadline, the
        final board of a loss on time pinging both
        players (the winner and the one who ran out of time), or the board after a move (the
        game's current board as the /move or Accept handler writes it; at ply 0 the first
        board, "the game begins"); or the your-turn DM. Each post carries the row's nonce; a post
        in a thread whose announcement may have gone out already beyond the nonce's reach
        (:attr:`~bot.manager.Announcement.recheck`) is first looked for there
        (:meth:`bot.front.delivery.PostPolicy.find_post`) and not posted again when found (DMs and digests are not looked
        for: a repeated DM is the lesser harm, and the DM channel's history is not read). A
        game whose thread is still wanted gets it first (:meth:`bot.front.threads.GameThreads.ensure_thread`). Raises
        discord.HTTPException when Discord refuses the post and ValueError for an unknown
        kind. Returns the message (``None``: a digest skipped)."""
        a = announcement
        if a.kind not in ANNOUNCEMENT_KINDS:
            raise ValueError(f"unknown announcement kind {a.kind!r}")
        if a.kind == "digest":  # a DM about all of a player's games, not a post in a thread
            return await self._send_digest(a)
        with i18n.speaking(await self.languages.of_game(a.game)):  # a DM: _send_turn_dm's own
            return await self._post_in_game(a)

    async def _post_in_game(self, a: Announcement) -> discord.Message:
        """:meth:`post_announcement` of every kind but the digest."""
        game = await self.threads.ensure_thread(a.game)
        look = a.recheck  # posted already, perhaps: look for it in the thread first
        if a.kind == "reminder":
            return await self._send(game, boards.reminder_post(game), a.id, look_first=look)
        if a.kind == "deadline":
            return await self._send(game, boards.deadline_note(game, a.user_id, a.vacation_until), a.id,
                                    look_first=look)
        position = game.position
        pic = await self.picture(game, position)
        if a.kind == "timeout":
            opponent = game.opponent_of(a.user_id)
            assert opponent is not None  # the player who ran out of time plays in the game
            return await self._send(game, boards.final_post(
                game, position, pic.png, headline=texts.ran_out_of_time(a.user_id),
                ping=(opponent, a.user_id), rating_changes=a.rating_changes), a.id,
                pic, look_first=look)
        seat = None if a.move_record is None else a.move_record.seat
        if a.kind == "dm":
            return await self._send_turn_dm(game, position, seat, pic, a.id, a.plies)
        return await self._send(game, boards.move_post(game, position, seat, pic.png, vacation_until=a.vacation_until,
                                                       rating_changes=a.rating_changes, plies=a.plies), a.id,
                                pic, look_first=look)

    # ------------------------------------------------------------------ Discord

    async def _send(self, game: Game, post: boards.Post, announcement_id: int | None = None,
                    picture: Picture | None = None, *, look_first: bool = False) -> discord.Message:
        """Send ``post`` as a new message in the game's thread (or channel), with the nonce of
        outbox row ``announcement_id``; its board image is described by ``picture``'s
        description (:meth:`picture`). ``look_first``: unless :meth:`bot.front.delivery.PostPolicy.find_post` finds it
        there already (then that message). Raises discord.HTTPException when Discord
        refuses."""
        if picture is not None:
            post = replace(post, description=picture.description)
        channel = self.client.get_partial_messageable(game.channel_for_posts, guild_id=game.guild_id)
        if look_first:
            earlier = await self.policy.find_post(channel, post)
            if earlier is not None:
                log.info("announcement %s of game %s was posted already (message %s); not posting "
                         "it again", announcement_id, game.id, earlier.id)
                return earlier
        return await channel.send(**post.send_kwargs(boards.outbox_nonce(announcement_id)))

    async def _send_turn_dm(self, game: Game, position: engine.Position, seat: int | None, picture: Picture,
                            announcement_id: int | None, plies: tuple[MoveRecord, ...] = ()) -> discord.Message:
        """DM the player to move (:func:`bot.front.boards.turn_dm`, naming every move of ``plies``).
        Raises discord.Forbidden when their DMs are closed (remembered in :attr:`bot.front.delivery.PostPolicy.dm_closed`,
        so they are not tried again for a while), discord.HTTPException for any other refusal."""
        uid = game.to_move_user
        if uid is None:
            raise ValueError(f"nobody is to move in game {game.id}: no your-turn DM")
        with i18n.speaking(await self.languages.of_user(uid)) as language:
            if picture.language != language:  # the thread's image speaks another language
                picture = await self.picture(game, position)
            post = replace(boards.turn_dm(game, position, seat, picture.png, plies), description=picture.description)
        try:
            user = self.client.get_user(uid) or await self.client.fetch_user(uid)
            message = await user.send(**post.send_kwargs(boards.outbox_nonce(announcement_id)))
        except discord.Forbidden:
            self.policy.dm_closed[uid] = time.monotonic()
            log.info("user %s does not accept DMs; not trying again for a while", uid)
            raise
        self.policy.dm_closed.pop(uid, None)
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
        lines: list[tuple[Game, int, str]] = [(g, cast(int, g.opponent_of(uid)), texts.game_clock(g, now, away)) for g in a.games]  # uid plays each
        user = self.client.get_user(uid) or await self.client.fetch_user(uid)
        with i18n.speaking(await self.languages.of_user(uid)):
            content = texts.digest_text(lines)[:2000]
        return await user.send(content, allowed_mentions=discord.AllowedMentions.none(),
                               nonce=cast(str, boards.outbox_nonce(a.id)))  # a str for a row's id

    async def picture(self, game: Game, position: engine.Position) -> Picture:
        """The picture of ``position`` in ``game`` and its description, from one look-up of
        the players' names (:attr:`names`): the PNG with the names and, while the game runs,
        its clock and both players' time on the panel (:func:`bot.texts.panel_text`,
        :func:`bot.front.boards.panel_clocks`) -- rendered off the event loop by the bot's
        render pool -- and the alt text naming the same players
        (:func:`bot.front.alttext.board`). The last :data:`PNG_CACHE_SIZE` images are kept,
        so the board post and the your-turn DM after it carry the same PNG."""
        names = await self.names(game)
        return Picture(await self._png(game, position, names), alttext.board(game, position, names),
                       i18n.current_locale())

    async def _png(self, game: Game, position: engine.Position, names: dict[int, str]) -> bytes:
        """The PNG of :meth:`picture`, from the cache when drawn before with the same words."""
        clock = boards.panel_clock(game, position)
        clocks = boards.panel_clocks(game, position)  # both players' time (issue 19)
        key = (game.id, position.to_text(), tuple(sorted(names.items())), clock, clocks, i18n.current_locale())
        if key in self._pngs:
            self._pngs.move_to_end(key)
            return self._pngs[key]
        png = await self.renderer.render(position, players=names,
                                         text=texts.panel_text(position, clock=clock, clocks=dict(clocks or ())))
        self._pngs[key] = png
        while len(self._pngs) > PNG_CACHE_SIZE:
            self._pngs.popitem(last=False)
        return png

    async def board_file(self, game: Game, position: engine.Position) -> discord.File:
        """The picture of ``position`` (:meth:`picture`; ``game``'s deadline on its panel) as an
        attachment with its description: for the replies that show a board
        to one player (/board, /next, the preview before Confirm, a conditional line's end)."""
        pic = await self.picture(game, position)
        return boards.board_file(game, position, pic.png, pic.description)

    @contextlib.asynccontextmanager
    async def typing(self, game: Game) -> AsyncIterator[None]:
        """The typing indicator in ``game``'s thread while the body runs (best effort): the
        computer thinking (:class:`bot.workers.computer.Computer`'s ``show_thinking``)."""
        channel = self.client.get_partial_messageable(game.thread_id or game.channel_id,
                                                      guild_id=game.guild_id)
        stop = asyncio.Event()

        async def keep_typing() -> None:
            while not stop.is_set():
                try:
                    await channel.typing()
                except (discord.HTTPException, OSError):
                    return
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 8)  # Discord shows it for ~10 s

        task = asyncio.create_task(keep_typing())
        try:
            yield
        finally:
            stop.set()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
