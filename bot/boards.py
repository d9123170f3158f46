"""Board messages: the text and the PNG posted after a game starts, after each move and at the end.

Rendering never runs on the event loop: :class:`BoardRenderer` sends it to worker processes
(so Pillow's work does not even compete with the loop for the GIL), or to a thread when
configured with no workers. Every board that asks someone to move is a new message that
mentions only that player (DESIGN.md, Bot).
"""

from __future__ import annotations

import asyncio
import io
import logging
import multiprocessing
import os
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING

import discord

import engine
import renderers

from . import texts

if TYPE_CHECKING:
    from .client import StonecastBot
    from .manager import Game

log = logging.getLogger("stonecast.bot")


def seat_line(game: Game, position: engine.Position, seat: int) -> str:
    """``"<@id> (White)"`` -- a seat's player with their colour when known."""
    colour = position.colour(seat)
    who = f"<@{game.players[seat]}>"
    return f"{who} ({colour.title()})" if colour else who


def render_text(position_text: str, players: Mapping[int, str] | None, clock=None) -> bytes:
    """PNG bytes of the position given as its one-line text (runs in a worker)."""
    return renderers.render_png(engine.from_text(position_text), players=players, clock=clock)


def _warm_up() -> int:
    """Import and exercise the renderer once so the first real board is fast."""
    return len(render_text(engine.new_game("io", size=5).to_text(), None))


def default_workers() -> int:
    """Render processes to use: one per CPU, at least 2, at most 4 (benchmarks/bot.py)."""
    return max(2, min(4, os.cpu_count() or 2))


class BoardRenderer:
    """Renders positions off the event loop.

    ``workers`` > 0: a pool of that many processes (started with "spawn", warmed up by
    :meth:`start`); 0: a thread (``asyncio.to_thread``). :meth:`close` stops the pool.
    """

    def __init__(self, workers: int | None = None):
        self.workers = default_workers() if workers is None else workers
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Start the worker processes and warm each one up in the background."""
        if self.workers > 0 and self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
            for _ in range(self.workers):
                self._pool.submit(_warm_up)

    async def render(self, position: engine.Position, players: Mapping[int, str] | None = None,
                     clock=None) -> bytes:
        """PNG bytes of ``position`` (see ``renderers.render_png``)."""
        if self.workers <= 0:
            return await asyncio.to_thread(renderers.render_png, position, players=players, clock=clock)
        self.start()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, render_text, position.to_text(),
                                          dict(players) if players else None, clock)

    def close(self) -> None:
        """Stop the worker processes (pending renders are cancelled)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


async def render(bot: StonecastBot, game: Game, position: engine.Position) -> bytes:
    """PNG bytes of ``position`` with the players' names, rendered off the event loop."""
    names = {seat: await bot.display_name(uid, game.guild_id) for seat, uid in game.players.items()}
    return await bot.renderer.render(position, players=names)


def board_file(game: Game, position: engine.Position, png: bytes) -> discord.File:
    """The attachment for a board image, named after the game and ply."""
    return discord.File(io.BytesIO(png), filename=f"stonecast-{game.id}-{position.ply}.png")


def board_text(game: Game, position: engine.Position, *, headline: str) -> tuple[str, int | None]:
    """Message content for a board post and the user id to ping (``None`` when over).

    ``headline`` is the first line (what just happened). While the game goes on, the second
    line asks the player to move; at the end it gives the result.
    """
    label = texts.game_label(game.kind, game.id)
    lines = [f"**{label}** · {headline}"]
    outcome = position.outcome
    if outcome is not None:
        names = {seat: seat_line(game, position, seat) for seat in game.players}
        lines.append(texts.result_text(game.kind, outcome, names))
        return "\n".join(lines), None
    seat = position.to_move
    uid = game.players[seat]
    colour = position.colour(seat)
    as_colour = f" as {colour.title()}" if colour else ""
    lines.append(f"<@{uid}>, your move{as_colour} ({texts.turn_hint(game.kind, position.phase)}): "
                 f"use `/move`.")
    return "\n".join(lines), uid


async def post_board(bot: StonecastBot, game: Game, position: engine.Position, *, headline: str,
                     ping: int | None = None, png: bytes | None = None) -> discord.Message:
    """Post the board in the game's thread (or channel) as a new message.

    ``ping`` overrides whom to notify (default: the player to move; at the end nobody unless
    given). Raises discord.HTTPException when Discord refuses the post.
    """
    content, to_move = board_text(game, position, headline=headline)
    ping = ping if ping is not None else to_move
    if ping is not None and f"<@{ping}>" not in content:
        content += f"\n<@{ping}>"
    if png is None:
        png = await render(bot, game, position)
    channel = bot.get_partial_messageable(game.channel_for_posts, guild_id=game.guild_id)
    mentions = (discord.AllowedMentions(users=[discord.Object(ping)], roles=False, everyone=False)
                if ping else discord.AllowedMentions.none())
    return await channel.send(content, file=board_file(game, position, png), allowed_mentions=mentions)
