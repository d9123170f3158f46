"""Answering interactions: ephemeral notes, and turning errors into messages for players.

Every :class:`bot.manager.UserError` becomes an ephemeral message with its sentence (worded
from its reason and values by :func:`bot.texts.refusal_text`, here and nowhere else); any
other exception is logged with its traceback and the player gets a short apology without
internals (issue 4, "Every user error is an ephemeral message").
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot import texts
from bot.manager import UserError
from bot.texts.i18n import _

log = logging.getLogger("stonecast.bot")


async def ephemeral(interaction: discord.Interaction, text: str | None, **kwargs: Any) -> None:
    """Send ``text`` to the interaction's user only, whether or not it was answered already
    (None: no text, e.g. only an ``embed``).

    After a deferral this is a follow-up (which completes a "thinking" deferral); otherwise
    the interaction's first response. ``kwargs`` go to discord.py (``view``, ``file``, ...).
    """
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)  # type: ignore[arg-type]  # None is no content to discord.py; its hint says str
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


def unwrap(error: BaseException) -> BaseException:
    """The exception a command or button raised, without discord.py's wrappers."""
    while isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError) \
            and error.__cause__ is not None:
        error = error.__cause__
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return error


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user what went wrong: their mistake in full, our failure without details.

    A command the bot's shutdown cut short (it was still running when the client closed, as a
    long ``/review`` at a restart) cannot be answered any more: its failure is logged as a
    warning and no reply is tried."""
    error = unwrap(error)
    if interaction.client.is_closed():
        log.warning("interaction %s cut short: the bot closed while it ran (%s)",
                    interaction.id, type(error).__name__)
        return
    if isinstance(error, UserError):
        text = texts.refusal_text(error)
    elif isinstance(error, app_commands.NoPrivateMessage):
        text = _(texts.NO_PRIVATE_MESSAGE)
    elif isinstance(error, app_commands.CheckFailure):
        text = str(error) or _(texts.CHECK_FAILED)
    elif isinstance(error, app_commands.TransformerError):
        # e.g. a user option naming someone who is not a member of this server
        if error.type is discord.AppCommandOptionType.user:
            text = _(texts.NOT_A_MEMBER)
        else:
            text = _(texts.UNREADABLE_OPTION)
    else:
        log.error("unexpected error in interaction %s (%s)", interaction.id,
                  interaction.command.qualified_name if interaction.command else
                  interaction.data.get("custom_id") if interaction.data else None, exc_info=error)
        text = _(texts.GENERIC_FAILURE)
    try:
        await ephemeral(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell user %s about an error in interaction %s",
                    interaction.user.id, interaction.id, exc_info=True)
