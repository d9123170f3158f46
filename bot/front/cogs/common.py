"""What several cogs share: the ``game:`` option (reading it, suggesting games, the game
choices of /rules and /leaderboard). Not an extension."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

import engine
from bot.front import boards, choices
from bot.manager import MoveResult

if TYPE_CHECKING:
    from bot.front.announcer import Announcer
    from bot.front.client import StonecastBot
    from bot.manager import Game

log = logging.getLogger("stonecast.bot")

# the ``game:`` option of /rules and /leaderboard: the games by title (engine.GAMES is in menu order)
GAME_CHOICES = [app_commands.Choice(name=kind.title, value=key) for key, kind in engine.GAMES.items()]


def as_int(value: Any) -> int | None:
    """``value`` as an int, or None (a half-typed option in autocomplete)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


async def game_for(interaction: discord.Interaction[Any], game_id: int | None) -> Game:
    """The game meant: ``game_id``, this thread's game, or the user's only fitting game.
    Raises the manager's NotFound / NotAllowed."""
    bot: StonecastBot = interaction.client
    game: Game = await bot.manager.resolve_game(interaction.user.id, game_id=game_id,
                                                channel_id=interaction.channel_id,
                                                guild_id=interaction.guild_id)
    return game


async def game_autocomplete(interaction: discord.Interaction[Any], current: str
                            ) -> list[app_commands.Choice[int]]:
    """Suggest the caller's games for a ``game:`` option (finished ones too for
    /board and /history)."""
    bot: StonecastBot = interaction.client
    finished = interaction.command is not None and interaction.command.name in ("board", "history", "note")
    try:
        found = await bot.manager.complete_game(interaction.user.id, include_finished=finished,
                                                guild_id=interaction.guild_id)
        pairs = choices.game_choices(interaction.user.id, found, current, name_of=bot.cached_name)
    except Exception:  # noqa: BLE001
        log.exception("game autocomplete failed")
        return []
    return [app_commands.Choice(name=label[:100], value=gid) for gid, label in pairs[:25]]


async def reviewable_game_autocomplete(interaction: discord.Interaction[Any], current: str
                                       ) -> list[app_commands.Choice[int]]:
    """Suggest the games /review can chart (issue 19): this server's games that are over
    (in a DM the caller's own), newest first."""
    bot: StonecastBot = interaction.client
    try:
        found = await bot.manager.complete_reviewable_game(interaction.user.id, current,
                                                           guild_id=interaction.guild_id)
        pairs = choices.reviewable_game_choices(found, current, name_of=bot.cached_name)
    except Exception:  # noqa: BLE001
        log.exception("review autocomplete failed")
        return []
    return [app_commands.Choice(name=label[:100], value=gid) for gid, label in pairs[:25]]


async def announce_move(announcer: Announcer, result: MoveResult) -> str:
    """Post the board of a committed move (through ``announcer``) and return the mover's note
    (/move, and a confirmed move's Confirm button)."""
    note = await announcer.publish(result)
    return boards.move_reply(result) + note
