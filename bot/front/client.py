"""The Discord client: :class:`StonecastBot`, a ``commands.AutoShardedBot`` running the game manager.

``setup_hook`` wires the pieces (explicitly: each gets what it uses in its constructor): it
opens the manager on the configured database, starts the render pool, builds the announcer
(manager, render pool, players' names, computer) and the computer opponent (manager, the
announcer's ``publish`` for its moves, its typing indicator), loads the cogs as extensions
(:data:`bot.front.cogs.EXTENSIONS`; a cog is found by its class, :meth:`StonecastBot.cog`),
registers the persistent buttons and syncs the slash commands
(to ``STONECAST_GUILD`` when set, else globally) -- only in the process that runs shard 0
(``Config.syncs_commands``), so that of several sharded processes exactly one syncs. The
gateway shards are ``STONECAST_SHARD_COUNT``/``STONECAST_SHARD_IDS`` (default: every shard
Discord recommends, in this process). ``close`` unloads the cogs (the maintenance
loop stops), closes the gateway and then the manager. The bot owns the render pool
(:class:`bot.workers.rendering.BoardRenderer`, ``renderer``) and, once started, the announcer
(:class:`bot.front.announcer.Announcer`, ``announcer``: every post about a game goes through it)
and the computer opponent (:class:`bot.workers.computer.Computer`, ``computer``: its search
workers); ``manager``, ``announcer`` and ``computer`` raise :class:`NotStarted` before
``setup_hook`` has built them. The bot also remembers players' display names for board images and autocomplete (:meth:`StonecastBot.player_names`:
"deleted player" for one who had their data deleted, issue 18).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, TypeVar, cast

import discord
import yarl
from discord.ext import commands

from bot import texts
from bot.config import Config
from bot.manager import BOARD_GRACE, Game, GameManager
from bot.texts.i18n import _
from bot.workers.computer import Computer
from bot.workers.rendering import BoardRenderer

from .announcer import Announcer
from .cogs import EXTENSIONS
from .languages import Languages, LocalisedTree
from .replies import report_error
from .translator import CommandTranslator
from .views import DYNAMIC_ITEMS, ButtonRoutes

log = logging.getLogger("stonecast.bot")

# Seconds between a newly seen display name and the write of the names seen meanwhile.
NAME_FLUSH_DELAY = 0.5

# How often clocks and challenges are checked (seconds): the default of the bot's
# ``maintenance_interval``, which the maintenance cog's loop uses.
MAINTENANCE_INTERVAL = 60.0


CogT = TypeVar("CogT", bound=commands.Cog)


class NotStarted(RuntimeError):
    """A piece the bot builds in ``setup_hook`` (the manager, the announcer, the computer) was
    asked for before it was built (or the manager after :meth:`StonecastBot.close`)."""


class StartRefused(Exception):
    """Discord refused a step of the start that a setting decides (``str(e)``: one line for
    the operator naming the setting): the process stops with status 2."""


def bot_intents() -> discord.Intents:
    """Only non-privileged intents: no message content, members or presences."""
    intents = discord.Intents.default()
    intents.message_content = False
    intents.members = False
    intents.presences = False
    return intents


def works_in_dms(command: discord.app_commands.Command[Any, ..., Any] | discord.app_commands.Group
                 | discord.app_commands.ContextMenu) -> bool:
    """Whether ``command`` is allowed in a direct message with the bot (its
    ``allowed_contexts`` say so explicitly)."""
    contexts = getattr(command, "allowed_contexts", None)
    return contexts is not None and bool(contexts.dm_channel)


class StonecastBot(commands.AutoShardedBot):
    """The Stonecast bot.

    * ``config`` -- :class:`bot.config.Config` (its ``shard_count`` and ``shard_ids`` pick
      the gateway shards).
    * ``manager`` -- an open :class:`bot.manager.GameManager` to use; by default one is
      opened on ``config.db_path`` in ``setup_hook`` (its folder created) and closed by
      :meth:`close`.
    * ``manager_options`` -- keyword arguments for ``GameManager.open`` (e.g. ``clock``).
    * ``render_workers`` -- processes for board images (default: ``config.render_workers``;
      0 renders in a thread instead).
    * ``maintenance_interval`` -- seconds between two passes of the maintenance loop
      (default ``config.maintenance_interval``, else :data:`MAINTENANCE_INTERVAL`; attribute
      of the same name).
    * ``board_grace`` -- seconds a queued board waits before the delivery pass posts it in
      place of the handler that queued it (attribute of the same name; tests set 0).
    * ``computer_options`` -- keyword arguments for :class:`bot.workers.computer.Computer` (workers,
      by default ``config.ai_workers``; max_queue, playouts, review_options; tests cap the
      playouts).
    * ``sync_only`` -- ``setup_hook`` loads the commands and syncs them, nothing else (no
      database, no render pool): ``python -m bot sync`` logs in with it and exits.
    * other keyword arguments go to ``commands.AutoShardedBot``.
    """

    def __init__(self, config: Config, *, manager: GameManager | None = None,
                 manager_options: dict[str, Any] | None = None, render_workers: int | None = None,
                 board_grace: float = BOARD_GRACE, maintenance_interval: float | None = None,
                 computer_options: dict[str, Any] | None = None, sync_only: bool = False, **kwargs: Any):
        kwargs.setdefault("intents", bot_intents())
        kwargs.setdefault("shard_count", config.shard_count)
        if config.shard_ids is not None:
            kwargs.setdefault("shard_ids", list(config.shard_ids))
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        kwargs.setdefault("tree_cls", LocalisedTree)  # each interaction in its reader's language
        # Stonecast joins no voice channel: discord.py's two warnings that voice's libraries
        # (PyNaCl, davey) are missing are not news. Its own switches, read once by the first
        # client, silence exactly those two lines and nothing else.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, **kwargs)
        self.config = config
        self.sync_only = sync_only
        self._manager: GameManager | None = manager
        self._owns_manager = manager is None
        self._manager_options = manager_options or {}
        self._names: dict[int, str] = {}
        self._names_to_store: dict[int, str] = {}  # display names on their way to the database
        self._name_flush: asyncio.Task[None] | None = None
        self._closing = asyncio.Event()  # set by close: a pending write of names goes at once
        self._board_grace = board_grace
        if maintenance_interval is None:
            maintenance_interval = config.maintenance_interval or MAINTENANCE_INTERVAL
        self.maintenance_interval = maintenance_interval
        self.renderer = BoardRenderer(config.render_workers if render_workers is None else render_workers)
        self._computer_options = {"workers": config.ai_workers, **(computer_options or {})}
        self._announcer: Announcer | None = None  # built by setup_hook
        self._computer: Computer | None = None
        self.languages = Languages(lambda: self.manager)  # who reads what (issue 22)
        self.buttons = ButtonRoutes()  # the cogs handling the persistent buttons enter themselves
        if config.api_url:
            discord.http.Route.BASE = config.api_url

    # ------------------------------------------------------------------ the pieces

    @property
    def manager(self) -> GameManager:
        """The open game manager. Raises :class:`NotStarted` before ``setup_hook`` opened it
        (or after :meth:`close` closed it)."""
        if self._manager is None:
            raise NotStarted("the game manager is not open: the bot has not started (setup_hook) "
                             "or is closed")
        return self._manager

    @property
    def announcer(self) -> Announcer:
        """The announcer (:class:`bot.front.announcer.Announcer`), built by ``setup_hook``;
        :class:`NotStarted` before."""
        if self._announcer is None:
            raise NotStarted("the announcer is built when the bot starts (setup_hook)")
        return self._announcer

    @property
    def computer(self) -> Computer:
        """The computer opponent (:class:`bot.workers.computer.Computer`), built by
        ``setup_hook``; :class:`NotStarted` before."""
        if self._computer is None:
            raise NotStarted("the computer opponent is built when the bot starts (setup_hook)")
        return self._computer

    @property
    def board_grace(self) -> float:
        """Seconds a queued board waits before the delivery pass posts it in place of the
        handler that queued it (the announcer's, once built; tests set 0)."""
        return self._board_grace if self._announcer is None else self._announcer.board_grace

    @board_grace.setter
    def board_grace(self, seconds: float) -> None:
        self._board_grace = seconds
        if self._announcer is not None:
            self._announcer.board_grace = seconds

    def cog(self, kind: type[CogT]) -> CogT:
        """The loaded cog of class ``kind`` (e.g. ``bot.cog(TurnsCog)``): the typed way to reach
        a cog, by its class (found under the name the class declares, so a reloaded extension
        is found too), never by a name string at the call. Raises LookupError when no such cog
        is loaded (its extension is not, or the bot is closing)."""
        found = self.get_cog(kind.__cog_name__)
        if found is None or type(found).__qualname__ != kind.__qualname__:
            raise LookupError(f"the {kind.__name__} cog is not loaded")
        return cast(CogT, found)

    def _build(self, manager: GameManager) -> None:
        """Build the announcer and the computer opponent over ``manager`` (explicit wiring:
        each gets what it uses). The announcer asks the computer for its move after a board
        that leaves it to move; the computer posts its moves through the announcer's
        ``publish``, and shows the typing indicator through its ``typing``."""
        # the lambdas read ``announcer`` when the computer moves, after both are built
        computer = Computer(manager, on_move=lambda value: announcer.publish(value),
                            show_thinking=lambda game: announcer.typing(game), **self._computer_options)
        announcer = Announcer(self, manager, self.renderer, names=self.player_names, computer=computer,
                              board_grace=self._board_grace, languages=self.languages)
        self._computer, self._announcer = computer, announcer

    async def setup_hook(self) -> None:
        """Open the manager, build the announcer and the computer (:meth:`_build`), load the
        cogs, register the persistent buttons, sync the commands (if this process runs shard
        0). With ``sync_only``: load the cogs and sync, only."""
        if self.sync_only:
            await self._load_cogs()
            await self.sync_commands()
            return
        if self.config.api_url:
            # a non-default API: ask it where its gateway is (discord.py assumes discord.gg)
            _, url, _ = await self.http.get_bot_gateway()
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await self.languages.load_catalogs()  # read once, before any interaction waits for it
        if self._manager is None:
            if not self.config.uses_postgresql:
                assert not isinstance(self.config.db_path, str)  # a str is a PostgreSQL URL
                self.config.db_path.parent.mkdir(parents=True, exist_ok=True)
            options = {"pool_size": self.config.db_pool, **self._manager_options}
            if self.config.lease is not None:
                options.setdefault("lease", self.config.lease)
            self._manager = await GameManager.open(self.config.db_path, **options)
        self.renderer.start()  # once the store is open: a refused start spawns no workers
        self._build(self._manager)
        await self._load_cogs()
        if self.config.syncs_commands:
            await self.sync_commands()
        else:
            log.info("commands not synced here: the process running shard 0 (or `python -m bot "
                     "sync`) does it")

    async def _load_cogs(self) -> None:
        """Load the extensions, register the persistent buttons, the error handler and the
        commands' translator (names and descriptions in each user's language, issue 22)."""
        await self.tree.set_translator(CommandTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.error(report_error)  # sets tree.on_error

    async def sync_commands(self) -> None:
        """Register the slash commands with Discord: in one server if configured, else globally.

        In one server, the commands that also work in direct messages (/help, /rules: their
        allowed contexts include DMs) stay global -- Discord never shows a server's commands
        in a DM -- and only the others are registered in the server (each command once).
        Raises :class:`StartRefused` when Discord refuses the server's commands (403)."""
        if self.config.guild_id is not None:
            guild = discord.Object(self.config.guild_id)
            for command in self.tree.get_commands():
                if not works_in_dms(command):
                    self.tree.add_command(command, guild=guild, override=True)
                    self.tree.remove_command(command.name)
            try:
                synced = await self.tree.sync(guild=guild)
            except discord.Forbidden as e:  # 50001 Missing Access: not there, or no scope
                raise StartRefused(
                    f"Discord refused the commands for server {self.config.guild_id} "
                    f"(STONECAST_GUILD): {e.text or e.status}; the bot is not in that server or "
                    f"was added without the applications.commands scope (README.md, step 3)") from e
            if self.tree.get_commands():
                in_dms = await self.tree.sync()
                log.info("commands synced: %d to server %s, %d global for direct messages",
                         len(synced), self.config.guild_id, len(in_dms))
            else:
                log.info("commands synced: %d to server %s", len(synced), self.config.guild_id)
        else:
            synced = await self.tree.sync()
            log.info("commands synced: %d global (Discord may take a while to show changes)", len(synced))

    async def close(self) -> None:
        """Unload the cogs (the maintenance loop ends), close the gateway connection, then
        the manager (if this bot opened it)."""
        # the extensions first (commands.Bot.close would, but awaiting their unload there
        # leaves the gateway open after the ready task below is ended: a READY arriving then
        # starts another)
        for name in tuple(self.extensions):
            try:
                await self.unload_extension(name)
            except Exception:  # noqa: BLE001 - closing goes on, as in commands.Bot.close
                log.exception("could not unload %s", name)
        # discord.py waits guild_ready_timeout after connecting before "ready"; closed in that
        # window, its waiting task would later dispatch on a closed client (an error logged
        # at exit): end it with the client, and each shard's. (The private discord.py
        # attributes the bot reads: discord.py offers no public way to end these tasks.)
        shard_tasks = getattr(self._connection, "_ready_tasks", None) or {}
        for ready in (getattr(self._connection, "_ready_task", None), *shard_tasks.values()):
            if ready is not None and not ready.done():
                ready.cancel()
        await super().close()
        if self._computer is not None:
            await self._computer.close()
        await asyncio.to_thread(self.renderer.close)
        if self._name_flush is not None and not self._name_flush.done():
            self._closing.set()  # no need to wait out NAME_FLUSH_DELAY
            await self._name_flush  # the names noted last are stored before the manager closes
        if self._manager is not None and self._owns_manager:
            await self._manager.close()
            self._manager = None

    async def on_ready(self) -> None:
        """Log the connection (and the shards this process runs)."""
        log.info("connected as %s (id %s) to %d server(s) over shard(s) %s of %s", self.user,
                 self.user.id if self.user else "?", len(self.guilds),
                 ",".join(map(str, sorted(self.shards))), self.shard_count)

    # ------------------------------------------------------------------ names

    def remember(self, user: discord.abc.User) -> None:
        """Note a user's display name (used on board images); a name this process had not
        noted yet is also stored in the database (in the background), so another process, or
        this one after a restart, need not ask Discord for it. The names of a burst are
        written together, :data:`NAME_FLUSH_DELAY` seconds after the first (one transaction:
        a write per move would double the commits of a busy SQLite file)."""
        name = user.display_name
        if self._names.get(user.id) == name:
            return
        self._names[user.id] = name
        if self._manager is not None and name:
            self._names_to_store[user.id] = name
            if self._name_flush is None or self._name_flush.done():
                self._name_flush = asyncio.create_task(self._store_names())

    async def _store_names(self) -> None:
        try:  # NAME_FLUSH_DELAY, or less when the bot closes meanwhile
            await asyncio.wait_for(self._closing.wait(), NAME_FLUSH_DELAY)
        except TimeoutError:
            pass
        names, self._names_to_store = self._names_to_store, {}
        if self._manager is None:  # closed meanwhile without a manager of its own: nowhere to write
            return
        try:
            await self._manager.remember_names(names)
        except Exception:  # noqa: BLE001 - a name is a nicety: the board shows it anyway
            log.warning("could not store %d display names", len(names), exc_info=True)

    def forget_name(self, user_id: int) -> None:
        """Drop what this process noted of ``user_id``'s name (their data was deleted, issue
        18): nothing noted before is written to the database after."""
        self._names.pop(user_id, None)
        self._names_to_store.pop(user_id, None)

    async def player_names(self, game: Game, *, levels: bool = True) -> dict[int, str]:
        """Seat -> the name ``game`` shows for its player: :data:`bot.texts.DELETED_PLAYER`
        for one who had their data deleted after the game began (issue 18: never looked up,
        so never learnt again from Discord), else :meth:`display_name` -- for the computer with
        its level, ``"Stonecast (level 3)"`` (:func:`bot.texts.computer_name`; ``levels=False``:
        the plain name, as a /history record's ``Seat`` line keeps it). The one place boards,
        records, replays, review charts and thread names get players' names."""
        deleted: frozenset[int] = frozenset()
        if self._manager is not None:
            deleted = (await self._manager.deleted_players([game])).get(game.id, deleted)
        names = {seat: _(texts.DELETED_PLAYER) if uid in deleted else await self.display_name(uid, game.guild_id)
                 for seat, uid in game.players.items()}
        if levels and game.ai_seat in names and game.ai_level is not None:
            names[game.ai_seat] = texts.computer_name(names[game.ai_seat], game.ai_level)
        return names

    def cached_name(self, user_id: int) -> str | None:
        """A user's display name if the bot already knows it (no request to Discord: for
        autocomplete, which must answer at once), else None."""
        name = self._names.get(user_id)
        if name is None:
            user = self.get_user(user_id)
            name = user.display_name if user is not None else None
        return name

    async def display_name(self, user_id: int, guild_id: int | None = None) -> str:
        """A user's display name: from what the bot saw, the member cache, the names stored in
        the database, or (the last resort, a request) Discord's API."""
        name = self._names.get(user_id)
        if name is not None:
            return name
        guild = self.get_guild(guild_id) if guild_id else None
        member = guild.get_member(user_id) if guild else None
        user: discord.abc.User | None = member or self.get_user(user_id)
        if user is None and self._manager is not None:
            try:
                stored: str | None = (await self._manager.display_names([user_id])).get(user_id)
            except Exception:  # noqa: BLE001 - then ask Discord
                log.warning("could not read the display name of user %s", user_id, exc_info=True)
                stored = None
            if stored is not None:
                self._names[user_id] = stored
                return stored
        if user is None:
            try:
                user = await self.fetch_user(user_id)
            except discord.HTTPException:
                return f"player {user_id}"
        self.remember(user)
        return self._names[user_id]
