"""The Discord client: :class:`StonecastBot`, a ``commands.Bot`` running the game manager.

``setup_hook`` opens the manager on the configured database, loads the cogs, registers the
persistent buttons and syncs the slash commands (to ``STONECAST_GUILD`` when set, else
globally). ``close`` closes the gateway and then the manager.

Clock announcements (issue 5) go through the manager's outbox: the sweep commits a timeout or
a reminder together with an announcement row, and :meth:`StonecastBot.deliver_announcements`
posts each pending row and marks it delivered only after Discord accepted the post. It runs
on start and after every sweep, so a bot that died between the commit and the post (or whose
post failed) posts it later. Boards go the same way (kind ``"move"``): ``play_move`` queues
the board with the move (``accept_challenge`` the first board, ply 0, with the new game), the
/move (Accept) handler posts it and marks it, and a board still pending ``board_grace``
seconds later (the handler died or its post failed) is posted by the delivery
pass -- the game's current board, as the handler would have written it, or nothing when a
later move superseded it. Your-turn DMs go the same way (kind ``"dm"``, queued with the move
or the new game for a player who turned DMs on): the handler sends it after the board, with
the same image, else the delivery pass does; a closed DM (403) is given up at once.

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
from collections import OrderedDict
from dataclasses import replace
from typing import Any

import discord
import yarl
from discord.ext import commands

from . import texts
from .boards import BoardRenderer
from .config import Config
from .manager import BOARD_GRACE, GameManager
from .replies import report_error
from .views import DYNAMIC_ITEMS

log = logging.getLogger("stonecast.bot")

# How often clocks and challenges are checked (seconds).
MAINTENANCE_INTERVAL = 60.0

# Failed posts (Discord 5xx, network errors) after which an announcement is given up.
MAX_ANNOUNCE_ATTEMPTS = 5
# Discord's error code for "A thread has already been created for this message".
THREAD_ALREADY_CREATED = 160004


def bot_intents() -> discord.Intents:
    """Only non-privileged intents: no message content, members or presences."""
    intents = discord.Intents.default()
    intents.message_content = False
    intents.members = False
    intents.presences = False
    return intents


def works_in_dms(command: discord.app_commands.Command | discord.app_commands.Group) -> bool:
    """Whether ``command`` is allowed in a direct message with the bot (its
    ``allowed_contexts`` say so explicitly)."""
    contexts = getattr(command, "allowed_contexts", None)
    return contexts is not None and bool(contexts.dm_channel)


class StonecastBot(commands.Bot):
    """The Stonecast bot.

    * ``config`` -- :class:`bot.config.Config`.
    * ``manager`` -- an open :class:`bot.manager.GameManager` to use; by default one is
      opened on ``config.db_path`` in ``setup_hook`` (its folder created) and closed by
      :meth:`close`.
    * ``manager_options`` -- keyword arguments for ``GameManager.open`` (e.g. ``clock``).
    * ``render_workers`` -- processes for board images (default: ``config.render_workers``;
      0 renders in a thread instead).
    * ``board_grace`` -- seconds a queued board waits before the delivery pass posts it in
      place of the handler that queued it (attribute of the same name; tests set 0).
    * other keyword arguments go to ``commands.Bot``.
    """

    def __init__(self, config: Config, *, manager: GameManager | None = None,
                 manager_options: dict | None = None, render_workers: int | None = None,
                 board_grace: float = BOARD_GRACE, **kwargs: Any):
        kwargs.setdefault("intents", bot_intents())
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, **kwargs)
        self.config = config
        self.manager: GameManager | None = manager
        self._owns_manager = manager is None
        self._manager_options = manager_options or {}
        self._names: dict[int, str] = {}
        self.dm_closed: dict[int, float] = {}  # user id -> when a DM to them was refused
        self.board_pngs: OrderedDict = OrderedDict()  # recent board images (boards.render)
        self._maintenance: asyncio.Task | None = None
        self._delivery = asyncio.Lock()  # one delivery pass at a time: no double posts
        self.board_grace = board_grace
        self.games = None  # the GamesCog, set in setup_hook
        self.renderer = BoardRenderer(config.render_workers if render_workers is None else render_workers)
        if config.api_url:
            discord.http.Route.BASE = config.api_url

    async def setup_hook(self) -> None:
        """Open the manager, load the cogs, register the persistent buttons, sync the commands."""
        if self.config.api_url:
            # a non-default API: ask it where its gateway is (discord.py assumes discord.gg)
            _, url, _ = await self.http.get_bot_gateway()
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        self.renderer.start()
        if self.manager is None:
            self.config.db_path.parent.mkdir(parents=True, exist_ok=True)
            self.manager = await GameManager.open(self.config.db_path, **self._manager_options)
        from .cogs.games import GamesCog
        from .cogs.info import InfoCog
        from .cogs.players import PlayersCog

        self.games = GamesCog(self)
        await self.add_cog(self.games)
        await self.add_cog(InfoCog(self))
        await self.add_cog(PlayersCog(self))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.on_error = report_error
        await self.sync_commands()
        self._maintenance = asyncio.create_task(self._maintenance_loop(), name="stonecast-maintenance")

    async def sync_commands(self) -> None:
        """Register the slash commands with Discord: in one server if configured, else globally.

        In one server, the commands that also work in direct messages (/help, /rules: their
        allowed contexts include DMs) stay global -- Discord never shows a server's commands
        in a DM -- and only the others are registered in the server (each command once)."""
        if self.config.guild_id is not None:
            guild = discord.Object(self.config.guild_id)
            for command in self.tree.get_commands():
                if not works_in_dms(command):
                    self.tree.add_command(command, guild=guild, override=True)
                    self.tree.remove_command(command.name)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to server %s", len(synced), self.config.guild_id)
            if self.tree.get_commands():
                synced = await self.tree.sync()
                log.info("synced %d global commands for direct messages", len(synced))
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (Discord may take a while to show changes)", len(synced))

    async def close(self) -> None:
        """Close the gateway connection, then the manager (if this bot opened it)."""
        if self._maintenance is not None:
            self._maintenance.cancel()
            try:
                await self._maintenance
            except (asyncio.CancelledError, Exception):  # noqa: BLE001
                pass
            self._maintenance = None
        # discord.py waits guild_ready_timeout after connecting before "ready"; closed in that
        # window, its waiting task would later dispatch on a closed client (an error logged
        # at exit): end it with the client
        ready = getattr(self._connection, "_ready_task", None)
        if ready is not None and not ready.done():
            ready.cancel()
        await super().close()
        await asyncio.to_thread(self.renderer.close)
        if self.manager is not None and self._owns_manager:
            await self.manager.close()
            self.manager = None

    async def on_ready(self) -> None:
        """Log the connection."""
        log.info("connected as %s (id %s) to %d server(s)", self.user, self.user.id if self.user else "?",
                 len(self.guilds))

    # ------------------------------------------------------------------ names

    def remember(self, user: discord.abc.User) -> None:
        """Note a user's display name (used on board images)."""
        self._names[user.id] = user.display_name

    def cached_name(self, user_id: int) -> str | None:
        """A user's display name if the bot already knows it (no request to Discord: for
        autocomplete, which must answer at once), else None."""
        name = self._names.get(user_id)
        if name is None:
            user = self.get_user(user_id)
            name = user.display_name if user is not None else None
        return name

    async def display_name(self, user_id: int, guild_id: int | None = None) -> str:
        """A user's display name: from what the bot saw, the member cache, or Discord's API."""
        name = self._names.get(user_id)
        if name is not None:
            return name
        guild = self.get_guild(guild_id) if guild_id else None
        member = guild.get_member(user_id) if guild else None
        user: discord.abc.User | None = member or self.get_user(user_id)
        if user is None:
            try:
                user = await self.fetch_user(user_id)
            except discord.HTTPException:
                return f"player {user_id}"
        self.remember(user)
        return self._names[user_id]

    # ------------------------------------------------------------------ housekeeping

    async def _maintenance_loop(self) -> None:
        """At start (settling whatever fell due while the bot was away) and every minute."""
        await self.wait_until_ready()
        while not self.is_closed():
            await self.run_maintenance()
            await asyncio.sleep(MAINTENANCE_INTERVAL)

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
            return await self.manager.sweep()
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
            for a in await self.manager.pending_announcements(board_grace=self.board_grace):
                where = f"{a.kind} of game {a.game.id} (announcement {a.id})"
                if a.stale:
                    await self.manager.mark_delivered(a.id, error="skipped: the turn ended first"
                                                      if a.kind in ("reminder", "dm") else "skipped: superseded")
                    continue
                from .boards import dm_skip_reason

                skip = await dm_skip_reason(self, a.user_id) if a.kind == "dm" else None
                if skip:
                    await self.manager.mark_delivered(a.id, error=skip)
                    continue
                if a.kind == "dm" and a.game.id in boards_failed:
                    continue
                try:
                    await self.post_announcement(a)
                except (discord.NotFound, discord.Forbidden) as e:
                    log.warning("giving up the %s: Discord refused the post (%s)", where, e)
                    await self.manager.mark_delivered(a.id, error=f"refused: {e}")
                    continue
                except Exception as e:  # noqa: BLE001 - a failed post is retried, not fatal
                    if a.kind == "move":
                        boards_failed.add(a.game.id)
                    attempts = await self.manager.record_failed_post(a.id, f"{type(e).__name__}: {e}")
                    if attempts >= MAX_ANNOUNCE_ATTEMPTS:
                        log.warning("giving up the %s after %d failed posts", where, attempts, exc_info=True)
                        await self.manager.mark_delivered(a.id, error=f"gave up after {attempts} failed posts")
                    else:
                        log.info("could not post the %s (attempt %d); retrying at the next sweep",
                                 where, attempts, exc_info=True)
                    continue
                await self.manager.mark_delivered(a.id)
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
        from . import boards

        if announcement.kind not in ("reminder", "timeout", "move", "dm"):
            raise ValueError(f"unknown announcement kind {announcement.kind!r}")
        game = await self.ensure_thread(announcement.game)
        announcement = replace(announcement, game=game)
        nonce = boards.outbox_nonce(announcement.id)
        if announcement.kind == "reminder":
            return await boards.post_reminder(self, game, nonce=nonce)
        if announcement.kind == "timeout":
            return await boards.post_final(self, game, game.position,
                                           headline=f"<@{announcement.user_id}> ran out of time",
                                           ping=(game.opponent_of(announcement.user_id),
                                                 announcement.user_id),
                                           nonce=nonce)
        record = await self.manager.move_at(game.id, announcement.ply) if announcement.ply else None
        seat = None if record is None else record.seat
        if announcement.kind == "dm":
            return await boards.send_turn_dm(self, game, game.position, seat, nonce=nonce)
        return await boards.post_move(self, game, game.position, seat, nonce=nonce)

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
        tried again with the announcement)."""
        if not game.thread_wanted:
            return game
        challenge = await self.manager.get_challenge(game.challenge_id) if game.challenge_id else None
        thread_id = None
        if challenge is not None and challenge.message_id is not None:
            name = (f"{texts.game_label(game.kind, game.id)}: "
                    f"{await self.display_name(game.players[1], game.guild_id)} vs "
                    f"{await self.display_name(game.players[2], game.guild_id)}")[:100]
            try:
                data = await self.http.start_thread_with_message(
                    challenge.channel_id, challenge.message_id, name=name, auto_archive_duration=10080,
                    rate_limit_per_user=None)
                thread_id = int(data["id"])
            except discord.HTTPException as e:
                if e.code == THREAD_ALREADY_CREATED:
                    thread_id = challenge.message_id
                elif e.status not in (400, 403, 404):
                    raise
                else:
                    log.info("no thread for game %s (%s); posting in the channel", game.id, e)
        await self.manager.set_game_thread(game.id, thread_id)
        log.info("game %s recovered its thread: %s", game.id, thread_id or "none, the channel")
        game = await self.manager.get_game(game.id)
        if challenge is not None and challenge.message_id is not None and self.games is not None:
            try:
                await self.get_partial_messageable(challenge.channel_id, guild_id=challenge.guild_id
                                                   ).get_partial_message(challenge.message_id).edit(
                    content=self.games.accepted_text(challenge, game), view=None,
                    allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                log.info("could not mark accepted challenge %s", challenge.id)
        return game

    async def expire_challenges(self) -> int:
        """Expire challenges older than their deadline and mark their messages. Returns how many."""
        expired = await self.manager.expire_challenges()
        for c in expired:
            if c.message_id is None:
                continue
            title = self.games.challenge_title(c) if self.games else texts.title(c.kind)
            try:
                await self.get_partial_messageable(c.channel_id, guild_id=c.guild_id).get_partial_message(
                    c.message_id).edit(content=f"{title}\nNobody answered in time: the challenge lapsed.",
                                       view=None, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                log.info("could not mark expired challenge %s", c.id)
        return len(expired)
