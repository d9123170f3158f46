"""Runs the real Stonecast bot against a :class:`FakeDiscord`: start, stop, restart on one database."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from .server import HANDLED_SETTLE, FakeDiscord


class BotHarness:
    """One Stonecast bot process-equivalent: a ``StonecastBot`` on ``db_path`` talking to ``fake``.

    ``db_path``: a SQLite file, or a PostgreSQL URL (``str``, e.g. ``pg_server.create()`` of
    tests/conftest.py).

    ``manager_options`` go to ``GameManager.open`` (e.g. ``clock``, ``rng``);
    ``render_workers`` 0 (default) renders boards in a thread, more uses processes;
    ``config_options`` are more fields of the bot's ``Config`` (e.g. ``shard_count``);
    ``computer_options`` go to :class:`bot.workers.computer.Computer` (e.g. ``playouts`` to cap searches).
    """

    def __init__(self, fake: FakeDiscord, db_path: Path | str, *, render_workers: int = 0,
                 config_options: dict | None = None, computer_options: dict | None = None,
                 **manager_options):
        self.fake = fake
        self.config_options = config_options or {}
        self.render_workers = render_workers
        self.computer_options = computer_options
        self.db_path = db_path
        self.manager_options = manager_options
        self.manager_options.setdefault("rng", random.Random(1))
        self.bot = None
        self._task: asyncio.Task | None = None

    async def start(self) -> None:
        """Start a new bot and wait until it is ready (commands synced, guild received)."""
        from bot.config import Config
        from bot.front.client import StonecastBot

        config = Config(token=self.fake.token, db_path=self.db_path, guild_id=self.fake.guild_id,
                        **self.config_options)
        self.bot = StonecastBot(config, manager_options=dict(self.manager_options),
                                render_workers=self.render_workers, guild_ready_timeout=0.01,
                                computer_options=self.computer_options)
        self._task = asyncio.create_task(self.bot.start(self.fake.token))
        ready = asyncio.ensure_future(self.bot.wait_until_ready())
        await asyncio.wait([ready, self._task], timeout=15, return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            ready.cancel()
            if self._task.done():
                raise RuntimeError("the bot stopped while starting") from self._task.exception()
            raise TimeoutError("the bot did not become ready")

    async def stop(self) -> None:
        """Close the bot (gateway, then manager) and wait for its task to end."""
        if self.bot is not None:
            await self.bot.close()
            if self._task is not None:
                await self._task
            self.bot = None
            self._task = None
            # the bot's task has ended: nothing of it is left to post but what is in flight
            await self.fake.quiet(min(self.fake.settle, HANDLED_SETTLE))

    async def restart(self) -> None:
        """Stop this bot and start a fresh one on the same database."""
        await self.stop()
        await self.start()

    async def settle(self, quiet: float = 0.2, timeout: float = 60.0) -> None:
        """Wait until the computer has no move queued or searched and the bot has then made
        no request for ``quiet`` seconds (a finished search plays a move and posts a board,
        which may hand the computer its next turn). Raises TimeoutError after ``timeout`` s."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            while self.bot.computer.searching:
                if loop.time() > end:
                    raise TimeoutError("the computer is still searching")
                await asyncio.sleep(0.02)
            await self.fake.quiet(quiet)
            if not self.bot.computer.searching:
                return

    @property
    def manager(self):
        """The running bot's game manager."""
        return self.bot.manager

    @property
    def maintenance(self):
        """The running bot's maintenance cog (its sweep and delivery pass, run on demand)."""
        from bot.front.cogs.maintenance import MaintenanceCog

        return self.bot.cog(MaintenanceCog)
