"""What several cogs share: reading the ``game:`` option and posting the board a manager
operation queued (the command path of the outbox; the maintenance cog's delivery pass is the
other). Not an extension."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from .. import boards, texts

if TYPE_CHECKING:
    import engine

    from ..client import StonecastBot
    from ..manager import Game

log = logging.getLogger("stonecast.bot")

# the ``game:`` option of /rules and /leaderboard: the games by title, in menu order
GAME_CHOICES = [app_commands.Choice(name=texts.TITLES[k], value=k) for k in texts.GAME_ORDER]


def as_int(value: Any) -> int | None:
    """``value`` as an int, or None (a half-typed option in autocomplete)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


async def game_for(interaction: discord.Interaction, game_id: int | None) -> Game:
    """The game meant: ``game_id``, this thread's game, or the user's only fitting game.
    Raises the manager's NotFound / NotAllowed."""
    return await interaction.client.manager.resolve_game(interaction.user.id, game_id=game_id,
                                                         channel_id=interaction.channel_id,
                                                         guild_id=interaction.guild_id)


async def game_autocomplete(interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[int]]:
    """Suggest the caller's games for a ``game:`` option (finished ones too for
    /board and /history)."""
    bot = interaction.client
    finished = interaction.command is not None and interaction.command.name in ("board", "history")
    try:
        pairs = await bot.manager.complete_game(interaction.user.id, current, limit=25,
                                                include_finished=finished,
                                                guild_id=interaction.guild_id,
                                                name_of=bot.cached_name)
    except Exception:  # noqa: BLE001
        log.exception("game autocomplete failed")
        return []
    return [app_commands.Choice(name=label[:100], value=gid) for gid, label in pairs[:25]]


async def post_queued_board(bot: StonecastBot, game: Game, position: engine.Position, seat: int | None,
                            announcement_id: int | None, dm_id: int | None = None) -> str:
    """Post the board the manager queued with a move (``seat`` played it; ``None``: the
    first board of a new game), then mark its outbox row delivered and send the your-turn
    DM queued with it (``dm_id``; :func:`send_queued_dm`).

    Returns ``""`` on success, else a note for the player's reply -- the move (or the new
    game) is committed whatever happens here. A post Discord refuses for good (403, 404) is
    marked delivered with the reason (retrying cannot help); any other failure leaves the
    board in the outbox, which the bot's delivery loop posts after the grace period.
    """
    where = f"board of game {game.id} at move {position.ply} (announcement {announcement_id})"
    png = None
    try:
        png = await boards.render(bot, game, position)
        await boards.post_move(bot, game, position, seat, png=png,
                               nonce=boards.outbox_nonce(announcement_id))
    except (discord.Forbidden, discord.NotFound) as e:
        log.warning("cannot post the %s: Discord refused it (%s)", where, e)
        await mark_delivered(bot, announcement_id, error=f"refused: {e}")
        return texts.BOARD_REFUSED
    except Exception:  # noqa: BLE001 - committed: never answer "nothing changed"
        log.warning("could not post the %s; the outbox posts it later", where, exc_info=True)
        return texts.BOARD_DELAYED
    await mark_delivered(bot, announcement_id)
    await send_queued_dm(bot, game, position, seat, dm_id, png)
    return ""


async def send_queued_dm(bot: StonecastBot, game: Game, position: engine.Position, seat: int | None,
                         dm_id: int | None, png: bytes | None) -> None:
    """Send the your-turn DM of outbox row ``dm_id`` (with the board image ``png``) and
    mark it delivered; skipped (and marked) when the player turned DMs off or their DMs
    were found closed lately, given up at once when Discord refuses it (403: DMs closed).
    Any other failure leaves it to the delivery pass. Never raises."""
    if dm_id is None:
        return
    try:
        skip = await boards.dm_skip_reason(bot, game.to_move_user)
        if skip:
            await mark_delivered(bot, dm_id, error=skip)
            return
        await boards.send_turn_dm(bot, game, position, seat, png=png, nonce=boards.outbox_nonce(dm_id))
    except (discord.Forbidden, discord.NotFound) as e:
        await mark_delivered(bot, dm_id, error=f"refused: {e}")
        return
    except Exception:  # noqa: BLE001 - the delivery pass sends it later
        log.warning("could not send the DM of game %s (announcement %s); the outbox sends it later",
                    game.id, dm_id, exc_info=True)
        return
    await mark_delivered(bot, dm_id)


async def mark_delivered(bot: StonecastBot, announcement_id: int | None, *, error: str | None = None) -> None:
    """Mark a queued board (or DM) delivered. A failure is logged, not raised: the board is posted
    (or given up) already, and the worst outcome is that the outbox posts it again."""
    if announcement_id is None:
        return
    try:
        await bot.manager.mark_delivered(announcement_id, error=error)
    except Exception:  # noqa: BLE001
        log.exception("could not mark announcement %s delivered", announcement_id)
