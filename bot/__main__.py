"""``python -m bot``: run Stonecast until SIGINT or SIGTERM.

Configuration comes from environment variables (see :mod:`bot.config`). A configuration or
login problem prints one line to stderr and exits with status 2 (configuration) or 1 (Discord
refused us); a clean stop exits 0.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import discord

from .client import StonecastBot
from .config import Config, ConfigError

log = logging.getLogger("stonecast.bot")


async def run(config: Config) -> int:
    """Start the bot and wait for it to stop or for SIGINT/SIGTERM; returns the exit status."""
    bot = StonecastBot(config)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    runner = asyncio.create_task(bot.start(config.token), name="stonecast-bot")
    stopper = asyncio.create_task(stop.wait())
    await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
    if stop.is_set():
        log.info("signal received: closing")
    stopper.cancel()
    await bot.close()
    try:
        await runner
    except discord.LoginFailure:
        print("stonecast: Discord rejected DISCORD_TOKEN; copy the token again from the "
              "developer portal (Bot page)", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("stonecast: Discord refused the gateway intents requested", file=sys.stderr)
        return 1
    except (OSError, discord.HTTPException, discord.GatewayNotFound) as e:
        print(f"stonecast: cannot reach Discord ({e.__class__.__name__}: {e})", file=sys.stderr)
        return 1
    log.info("stopped")
    return 0


def main() -> int:
    """Entry point: read the configuration, run the bot, return the exit status."""
    try:
        config = Config.from_env()
    except ConfigError as e:
        print(f"stonecast: {e}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(logging.WARNING)
    return asyncio.run(run(config))


if __name__ == "__main__":
    sys.exit(main())
