"""The Discord client: :class:`StonecastBot`, a ``commands.Bot`` running the game manager.

``setup_hook`` opens the manager on the configured database, loads the cogs, registers the
persistent buttons and syncs the slash commands (to ``STONECAST_GUILD`` when set, else
globally). ``close`` closes the gateway and then the manager.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
import yarl
from discord.ext import commands

from . import texts
from .boards import BoardRenderer
from .config import Config
from .manager import GameManager
from .replies import report_error
from .views import DYNAMIC_ITEMS

log = logging.getLogger("stonecast.bot")

# How often clocks and challenges are checked (seconds).
MAINTENANCE_INTERVAL = 60.0


def bot_intents() -> discord.Intents:
    """Only non-privileged intents: no message content, members or presences."""
    intents = discord.Intents.default()
    intents.message_content = False
    intents.members = False
    intents.presences = False
    return intents


class StonecastBot(commands.Bot):
    """The Stonecast bot.

    * ``config`` -- :class:`bot.config.Config`.
    * ``manager`` -- an open :class:`bot.manager.GameManager` to use; by default one is
      opened on ``config.db_path`` in ``setup_hook`` (its folder created) and closed by
      :meth:`close`.
    * ``manager_options`` -- keyword arguments for ``GameManager.open`` (e.g. ``clock``).
    * ``render_workers`` -- processes for board images (default: ``config.render_workers``;
      0 renders in a thread instead).
    * other keyword arguments go to ``commands.Bot``.
    """

    def __init__(self, config: Config, *, manager: GameManager | None = None,
                 manager_options: dict | None = None, render_workers: int | None = None,
                 **kwargs: Any):
        kwargs.setdefault("intents", bot_intents())
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, **kwargs)
        self.config = config
        self.manager: GameManager | None = manager
        self._owns_manager = manager is None
        self._manager_options = manager_options or {}
        self._names: dict[int, str] = {}
        self.dm_closed: dict[int, float] = {}  # user id -> when a DM to them was refused
        self._maintenance: asyncio.Task | None = None
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
        """Register the slash commands with Discord: in one server if configured, else globally."""
        if self.config.guild_id is not None:
            guild = discord.Object(self.config.guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to server %s", len(synced), self.config.guild_id)
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
        """Announce what the manager's clock sweep did: reminders and losses on time.

        The manager marks each event in the database before returning it, so each is
        announced once even across restarts (issue 5).
        """
        from . import boards

        events = await self.manager.sweep()
        for event in events:
            game = event.game
            try:
                if event.kind == "reminder":
                    await boards.post_reminder(self, game)
                elif event.kind == "timeout":
                    await boards.post_final(self, game, game.position,
                                            headline=f"<@{event.user_id}> ran out of time",
                                            ping=game.opponent_of(event.user_id))
            except discord.HTTPException:
                log.warning("could not announce %s in game %s", event.kind, game.id, exc_info=True)
        return events

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
