"""Board messages: the text and the PNG posted after a game starts, after each move and at the end.

Rendering runs in a worker thread (``asyncio.to_thread``) so the gateway heartbeat never
waits on Pillow. Every board that asks someone to move is a new message that mentions only
that player (DESIGN.md, Bot).
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord

import renderers

from . import texts

if TYPE_CHECKING:
    import engine

    from .client import StonecastBot
    from .manager import Game

log = logging.getLogger("stonecast.bot")


def seat_line(game: Game, position: engine.Position, seat: int) -> str:
    """``"<@id> (White)"`` -- a seat's player with their colour when known."""
    colour = position.colour(seat)
    who = f"<@{game.players[seat]}>"
    return f"{who} ({colour.title()})" if colour else who


async def render(bot: StonecastBot, game: Game, position: engine.Position) -> bytes:
    """PNG bytes of ``position`` with the players' names (renderers.render_png, off the loop)."""
    names = {seat: await bot.display_name(uid, game.guild_id) for seat, uid in game.players.items()}
    return await asyncio.to_thread(renderers.render_png, position, players=names,
                                   clock=None)


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
