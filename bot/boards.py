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
import os
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord

import engine
import renderers

from . import texts
from .procs import process_pool

if TYPE_CHECKING:
    from .client import StonecastBot
    from .manager import Game

log = logging.getLogger("stonecast.bot")

# After a DM is refused, wait this long (seconds) before trying that member again.
DM_RETRY_AFTER = 24 * 3600.0
# Board images kept per bot, so the your-turn DM carries the very PNG of the thread's post.
PNG_CACHE_SIZE = 32


def outbox_nonce(announcement_id: int | None) -> str | None:
    """The message nonce for the post of outbox row ``announcement_id`` (``None``: no row).

    discord.py sends a nonce with ``enforce_nonce``: Discord then answers a second post with
    the same nonce by the same bot, within a few minutes, with the first message instead of a
    new one -- so a post retried after a crash (or raced by the delivery pass) appears once.
    At most 25 characters, as Discord allows.
    """
    return None if announcement_id is None else f"stonecast-{int(announcement_id)}"[:25]


def seat_line(game: Game, position: engine.Position, seat: int) -> str:
    """``"<@id> (White)"`` -- a seat's player with their colour when known."""
    colour = position.colour(seat)
    who = f"<@{game.players[seat]}>"
    return f"{who} ({colour.title()})" if colour else who


def render_text(position_text: str, players: Mapping[int, str] | None, clock=None) -> bytes:
    """PNG bytes of the position given as its one-line text (runs in a worker)."""
    return renderers.render_png(engine.from_text(position_text), players=players, clock=clock)


def render_gif(kind: str, options: Mapping, moves: list[str], players: Mapping[int, str] | None) -> bytes:
    """GIF bytes replaying a game (runs in a worker)."""
    return renderers.render_gif(kind, options, moves, players=players)


def _warm_up() -> int:
    """Import and exercise the renderer once so the first real board is fast."""
    return len(render_text(engine.new_game("io", size=5).to_text(), None))


def default_workers() -> int:
    """Render processes to use: one per CPU, at least 2, at most 4 (benchmarks/bot.py)."""
    return max(2, min(4, os.cpu_count() or 2))


class BoardRenderer:
    """Renders positions off the event loop.

    ``workers`` > 0: a pool of that many processes (:func:`bot.procs.process_pool`: they end
    with the bot however it dies; warmed up by :meth:`start`); 0: a thread
    (``asyncio.to_thread``). :meth:`close` stops the pool.
    """

    def __init__(self, workers: int | None = None):
        self.workers = default_workers() if workers is None else workers
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Start the worker processes and warm each one up in the background."""
        if self.workers > 0 and self._pool is None:
            self._pool = process_pool(self.workers)
            for _ in range(self.workers):
                self._pool.submit(_warm_up)

    async def render(self, position: engine.Position, players: Mapping[int, str] | None = None,
                     clock=None) -> bytes:
        """PNG bytes of ``position`` (see ``renderers.render_png``)."""
        if self.workers <= 0:
            return await asyncio.to_thread(renderers.render_png, position, players=players, clock=clock)
        return await self._in_pool(render_text, position.to_text(), dict(players) if players else None,
                                   clock)

    async def render_gif(self, kind: str, options: Mapping, moves: list[str],
                         players: Mapping[int, str] | None = None) -> bytes:
        """An animated GIF replay of a game (see ``renderers.render_gif``)."""
        args = (kind, dict(options), list(moves), dict(players) if players else None)
        if self.workers <= 0:
            return await asyncio.to_thread(render_gif, *args)
        return await self._in_pool(render_gif, *args)

    async def _in_pool(self, fn, *args):
        """``fn(*args)`` in a worker process. A pool broken by a dead worker (killed by the
        OS, a crash in native code) is replaced and the call tried once more."""
        for attempt in (1, 2):
            self.start()
            pool = self._pool
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
            except BrokenProcessPool:
                if attempt == 2:
                    raise
                log.warning("a render worker died; starting new ones", exc_info=True)
                if self._pool is pool:  # not yet replaced by a concurrent render
                    self._pool = None
                    pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the worker processes (pending renders are cancelled)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


async def render(bot: StonecastBot, game: Game, position: engine.Position) -> bytes:
    """PNG bytes of ``position`` with the players' names and, while the game runs, its
    deadline on the side panel -- rendered off the event loop. The last few images are kept
    (per bot), so the board post and the your-turn DM after it carry the same PNG."""
    names = {seat: await bot.display_name(uid, game.guild_id) for seat, uid in game.players.items()}
    clock = deadline_of(game, position)
    if clock is not None and game.time_control.kind == "bank":  # issue 13: name the bank clock
        clock = f"{game.time_control.short}, due {clock:%d %b %H:%M} UTC"
    cache = getattr(bot, "board_pngs", None)
    key = (game.id, position.to_text(), tuple(sorted(names.items())), clock)
    if cache is not None and key in cache:
        cache.move_to_end(key)
        return cache[key]
    png = await bot.renderer.render(position, players=names, clock=clock)
    if cache is not None:
        cache[key] = png
        while len(cache) > PNG_CACHE_SIZE:
            cache.popitem(last=False)
    return png


def deadline_of(game: Game, position: engine.Position) -> datetime | None:
    """The current move's deadline (UTC) while the game runs, else None."""
    if game.status != "active" or position.outcome is not None or not game.deadline:
        return None
    return datetime.fromtimestamp(game.deadline, UTC)


def board_file(game: Game, position: engine.Position, png: bytes) -> discord.File:
    """The attachment for a board image, named after the game and ply."""
    return discord.File(io.BytesIO(png), filename=f"stonecast-{game.id}-{position.ply}.png")


def board_text(game: Game, position: engine.Position, *, headline: str) -> tuple[str, int | None]:
    """Message content for a board post and the user id to ping (``None`` when over).

    ``headline`` is the first line (what just happened). While the game goes on, the second
    line asks the player to move (with the deadline); at the end it gives the result.
    """
    label = texts.game_label(game.kind, game.id)
    lines = [f"**{label}** · {headline}"]
    outcome = position.outcome
    if outcome is not None:
        names = {seat: seat_line(game, position, seat) for seat in game.players}
        lines.append(texts.result_text(game.kind, outcome, names))
        return "\n".join(lines), None
    if game.status == "aborted":
        lines.append("The game was aborted by a moderator: no result, no rating change.")
        return "\n".join(lines), None
    seat = position.to_move
    uid = game.players[seat]
    colour = position.colour(seat)
    as_colour = f" as {colour.title()}" if colour else ""
    due = (f" Due <t:{int(game.deadline)}:R> ({game.time_control.short})."
           if game.deadline and game.status == "active" else "")
    lines.append(f"<@{uid}>, your move{as_colour} ({texts.turn_hint(game.kind, position)}): "
                 f"use `/move`.{due}")
    return "\n".join(lines), uid


async def vacation_note(bot: StonecastBot, user_id: int) -> str:
    """``" <@id> is on vacation until …: their clock waits."`` or ``""``."""
    try:
        settings = await bot.manager.settings(user_id)
    except Exception:  # noqa: BLE001 - a note is not worth failing a post for
        log.warning("no settings for user %s", user_id, exc_info=True)
        return ""
    until = settings.vacation_until
    if until and until > bot.manager.clock():
        return f"<@{user_id}> is on vacation until <t:{int(until)}:f>: their clock waits."
    return ""


async def post_deadline_note(bot: StonecastBot, game: Game, user_id: int) -> discord.Message:
    """A short note in the game's thread after ``user_id`` (the player to move) started or
    ended a vacation: the move's new deadline, which the last board no longer shows. Pings
    nobody. Raises discord.HTTPException when Discord refuses the post."""
    label = texts.game_label(game.kind, game.id)
    due = f"<t:{int(game.deadline)}:f> (<t:{int(game.deadline)}:R>)"
    away = await vacation_note(bot, user_id)
    if away:
        text = f"**{label}** · {away} Their move is now due {due}."
    else:
        text = f"**{label}** · <@{user_id}> is back from vacation: their move is now due {due}."
    channel = bot.get_partial_messageable(game.channel_for_posts, guild_id=game.guild_id)
    return await channel.send(text, allowed_mentions=discord.AllowedMentions.none())


async def post_board(bot: StonecastBot, game: Game, position: engine.Position, *, headline: str,
                     ping: int | tuple[int, ...] | None = None, png: bytes | None = None,
                     extra: str = "", view: discord.ui.View | None = None,
                     nonce: str | None = None) -> discord.Message:
    """Post the board in the game's thread (or channel) as a new message.

    ``ping`` overrides whom to notify: a user id or a tuple of them (default: the player to
    move; at the end nobody unless given); each is mentioned in the text if not already.
    ``extra`` lines are appended; ``view`` adds buttons; ``nonce`` (see
    :func:`outbox_nonce`) makes a repeated post return the first one. Raises
    discord.HTTPException when Discord refuses the post.
    """
    content, to_move = board_text(game, position, headline=headline)
    if to_move is not None:
        note = await vacation_note(bot, to_move)
        if note:
            content += "\n" + note
    if extra:
        content += "\n" + extra
    ping = ping if ping is not None else to_move
    pings = [] if ping is None else [ping] if isinstance(ping, int) else list(dict.fromkeys(ping))
    missing = [f"<@{uid}>" for uid in pings if f"<@{uid}>" not in content]
    if missing:
        content += "\n" + " ".join(missing)
    if png is None:
        png = await render(bot, game, position)
    channel = bot.get_partial_messageable(game.channel_for_posts, guild_id=game.guild_id)
    mentions = (discord.AllowedMentions(users=[discord.Object(uid) for uid in pings], roles=False,
                                        everyone=False)
                if pings else discord.AllowedMentions.none())
    kwargs: dict = {"view": view} if view is not None else {}
    if nonce is not None:
        kwargs["nonce"] = nonce
    return await channel.send(content[:2000], file=board_file(game, position, png),
                              allowed_mentions=mentions, **kwargs)


def move_headline(game: Game, position: engine.Position, seat: int | None) -> str:
    """The first line of the board after a move: ``"move 7: <@id> played `c3`"`` -- for the
    first pass of Coil also the colours it settles (RULES.md, Coil) -- or, at ply 0 (``seat``
    ``None``), the players and colours of the game that begins."""
    if seat is None or position.ply == 0:
        return f"{seat_line(game, position, 1)} vs {seat_line(game, position, 2)} — the game begins."
    headline = f"move {position.ply}: <@{game.players[seat]}> played `{position.last_move}`"
    headline += move_effect(position)
    if game.conditional_ply is not None and game.conditional_ply == position.ply:
        headline += texts.FROM_CONDITIONAL
    taken = colour_settled_by(game, position, seat)
    if taken:
        headline += (f" and takes {taken}; <@{game.players[3 - seat]}> plays "
                     f"{position.colour(3 - seat).title()}")
    return headline


def move_effect(position: engine.Position) -> str:
    """What the last move did beyond placing, in words, for the text of its post (a
    notification shows text, not the picture), from the engine's highlights: ``", turning
    over 5 stones"`` (Io), ``", removing 2 White stones (a1, c2) and 1 Black stone (d4)"``
    (Branching Coral), else ``""``."""
    marks = position.highlights
    if marks.removed:
        parts = []
        for colour in ("white", "black"):
            cells = sorted((c for c, col in marks.removed.items() if col == colour), key=_cell_order)
            if cells:
                parts.append(f"{texts.count(len(cells), colour.title() + ' stone')} ({', '.join(cells)})")
        return ", removing " + " and ".join(parts)
    if marks.flipped:
        return f", turning over {texts.count(len(marks.flipped), 'stone')}"
    return ""


def _cell_order(label: str) -> tuple[int, str]:
    """Sort key reading cells as players do: by row number, then file (``a2`` before ``a10``)."""
    digits = "".join(ch for ch in label if ch.isdigit())
    return int(digits or 0), label


def colour_settled_by(game: Game, position: engine.Position, seat: int) -> str | None:
    """``"Black"`` when the move ``seat`` just played was Coil's first pass, which ends Phase I
    and makes the passer Black (RULES.md, Coil); ``None`` for every other move."""
    if game.kind == "coil" and position.last_move == "pass" and position.colour(seat):
        return position.colour(seat).title()
    return None


async def post_move(bot: StonecastBot, game: Game, position: engine.Position, seat: int | None,
                    *, png: bytes | None = None, nonce: str | None = None) -> discord.Message:
    """The board after the move ``seat`` just played (``None``: the first board of a new game),
    as a new message: asking the player to move, or the final board when the move ended the
    game (pinging the player who did not make it). No DM (see :func:`send_turn_dm`).
    ``png``: the image if already rendered; ``nonce``: see :func:`outbox_nonce`.

    The /move and Accept handlers and the outbox's delivery of a board they could not post
    both come here, so a board posted late reads the same. Raises discord.HTTPException when
    Discord refuses the post.
    """
    headline = move_headline(game, position, seat)
    if position.outcome is not None and seat is not None:
        return await post_final(bot, game, position, headline=headline + " — game over",
                                ping=game.players[3 - seat], png=png, nonce=nonce)
    return await post_board(bot, game, position, headline=headline, png=png, nonce=nonce)


async def ratings_line(bot: StonecastBot, game: Game) -> str:
    """``"Ratings: <@a> 1500 → 1520 (+20) · <@b> 1500 → 1480 (−20)"`` for a rated game, or ``""``."""
    changes = await bot.manager.rating_changes(game.id)
    parts = []
    for seat in (1, 2):
        uid = game.players[seat]
        if uid in changes:
            before, after = changes[uid]
            delta = round(after) - round(before)
            parts.append(f"<@{uid}> {round(before)} → {round(after)} ({delta:+d})".replace("-", "−"))
    return ("Ratings: " + " · ".join(parts)) if parts else ""


async def post_final(bot: StonecastBot, game: Game, position: engine.Position, *, headline: str,
                     ping: int | tuple[int, ...] | None, png: bytes | None = None,
                     nonce: str | None = None) -> discord.Message:
    """The final board: result, winning structure (drawn by the renderer), rating changes and
    a Rematch button. ``ping``: the player (or players, a tuple) to tell -- the one who did
    not end the game; after a loss on time both. ``nonce``: see :func:`outbox_nonce`."""
    from .views import rematch_view

    return await post_board(bot, game, position, headline=headline, ping=ping, png=png,
                            extra=await ratings_line(bot, game), view=rematch_view(game.id),
                            nonce=nonce)


async def dm_skip_reason(bot: StonecastBot, user_id: int) -> str | None:
    """Why the your-turn DM to ``user_id`` is not to be sent now, or ``None`` to send it:
    they turned DMs off since it was queued, or their DMs were found closed less than
    :data:`DM_RETRY_AFTER` ago (no retry storm; the thread mention remains)."""
    if not (await bot.manager.settings(user_id)).dm:
        return "skipped: DMs turned off"
    closed_at = bot.dm_closed.get(user_id)
    if closed_at is not None and time.monotonic() - closed_at < DM_RETRY_AFTER:
        return "skipped: DMs closed"
    return None


def turn_dm_text(game: Game, position: engine.Position, seat: int | None) -> str:
    """The your-turn DM: what the opponent played (the board's headline, see
    :func:`move_headline`; at ply 0 that the game begins), then the game, the colour, a
    link to its thread and the deadline."""
    uid = game.to_move_user
    label = texts.game_label(game.kind, game.id)
    link = f"https://discord.com/channels/{game.guild_id}/{game.channel_for_posts}"
    colour = position.colour(position.to_move)
    as_colour = f" as {colour.title()}" if colour else ""
    due = f" It is due <t:{int(game.deadline)}:R>." if game.deadline else ""
    return (f"**{label}** · {move_headline(game, position, seat)}\n"
            f"Your move{as_colour} against <@{game.opponent_of(uid)}> "
            f"({texts.turn_hint(game.kind, position)}): {link}{due}")


async def send_turn_dm(bot: StonecastBot, game: Game, position: engine.Position, seat: int | None,
                       *, png: bytes | None = None, nonce: str | None = None) -> discord.Message:
    """DM the player to move that it is their turn, with the board image (the same PNG as
    the thread's post), what the opponent (``seat``; ``None`` at ply 0) played and a link to
    the thread. Callers check :func:`dm_skip_reason` first.

    Raises discord.Forbidden when their DMs are closed (code 50007; remembered in
    ``bot.dm_closed``, so they are not tried again for a while) and discord.HTTPException
    for any other refusal.
    """
    uid = game.to_move_user
    if uid is None:
        raise ValueError(f"nobody is to move in game {game.id}")
    if png is None:
        png = await render(bot, game, position)
    kwargs = {"nonce": nonce} if nonce is not None else {}
    try:
        user = bot.get_user(uid) or await bot.fetch_user(uid)
        message = await user.send(turn_dm_text(game, position, seat)[:2000],
                                  file=board_file(game, position, png),
                                  allowed_mentions=discord.AllowedMentions.none(), **kwargs)
    except discord.Forbidden:
        bot.dm_closed[uid] = time.monotonic()
        log.info("user %s does not accept DMs; not trying again for a while", uid)
        raise
    bot.dm_closed.pop(uid, None)
    return message


async def post_reminder(bot: StonecastBot, game: Game, *, nonce: str | None = None) -> discord.Message:
    """The one reminder per turn before the deadline, mentioning only the player to move.
    ``nonce``: see :func:`outbox_nonce`."""
    uid = game.to_move_user
    label = texts.game_label(game.kind, game.id)
    channel = bot.get_partial_messageable(game.channel_for_posts, guild_id=game.guild_id)
    return await channel.send(
        f"<@{uid}>, reminder: your move in **{label}** is due <t:{int(game.deadline)}:R> "
        f"— after that the game is lost on time. Use `/move`, or `/vacation` if you need a break.",
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(uid)]),
        **({"nonce": nonce} if nonce is not None else {}))
