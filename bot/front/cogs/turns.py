"""Taking turns (issue 13): move confirmation (the Confirm and Cancel buttons that /move shows
when ``/settings confirm:on``), /next and its Next button, and the daily digest DM that the
outbox delivers.

The buttons are persistent ``DynamicItem``s (registered when the cog loads): their custom ids
carry everything a press needs, so they work after a restart, and each checks in its
``interaction_check`` that the member pressing it is the one it was shown to.

Custom ids:

* ``stonecast:confirm:<game>:<ply>:<user>:<move>`` -- play ``move``, chosen at ``ply``;
* ``stonecast:cancelmove:<game>:<user>`` -- drop the move waiting for Confirm;
* ``stonecast:next:<user>:<game>`` -- the game after ``game`` in ``user``'s queue.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from bot import texts
from bot.front import boards
from bot.front.languages import LocalisedItem
from bot.front.replies import ephemeral, report_error
from bot.manager import NotFound, Refusal, UserError

from .common import announce_move

if TYPE_CHECKING:
    from bot.front.client import StonecastBot
    from bot.manager import MovePreview

log = logging.getLogger("stonecast.bot")

CUSTOM_ID_LIMIT = 100  # Discord's limit on a custom id


class _OwnedButton(LocalisedItem, template=r"stonecast:owned-base-never"):
    """A button only its ``user_id`` may press (``interaction_check``)."""

    user_id: int
    refusal: str = texts.NOT_YOUR_CONFIRMATION

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Only the member it was shown to may press it; anyone else is told so."""
        await super().interaction_check(interaction)  # the presser's language
        if interaction.user.id == self.user_id:
            return True
        await ephemeral(interaction, texts.i18n._(self.refusal))
        return False


class ConfirmMoveButton(_OwnedButton,
                        template=r"stonecast:confirm:(?P<game>[0-9]+):(?P<ply>[0-9]+):(?P<user>[0-9]+):(?P<move>.+)"):
    """Confirm: play the move shown, if the game is still where it was."""

    def __init__(self, game_id: int, ply: int, user_id: int, move: str):
        super().__init__(discord.ui.Button(label=texts.button_label("confirm"), style=discord.ButtonStyle.success,
                                           custom_id=f"stonecast:confirm:{game_id}:{ply}:{user_id}:{move}"))
        self.game_id, self.ply, self.user_id, self.move = game_id, ply, user_id, move

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ConfirmMoveButton:
        """Rebuild the button from its custom id (after a restart too)."""
        return cls(int(match["game"]), int(match["ply"]), int(match["user"]), match["move"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the turns cog."""
        await _turns(interaction).on_confirm(interaction, self.game_id, self.ply, self.move)


class CancelMoveButton(_OwnedButton, template=r"stonecast:cancelmove:(?P<game>[0-9]+):(?P<user>[0-9]+)"):
    """Cancel: nothing is played."""

    def __init__(self, game_id: int, user_id: int):
        super().__init__(discord.ui.Button(label=texts.button_label("cancelmove"), style=discord.ButtonStyle.secondary,
                                           custom_id=f"stonecast:cancelmove:{game_id}:{user_id}"))
        self.game_id, self.user_id = game_id, user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> CancelMoveButton:
        """Rebuild the button from its custom id (after a restart too)."""
        return cls(int(match["game"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Say so in place of the preview; nothing was stored, so nothing to undo. A press
        naming another server's game (in a DM: one the presser does not play) is refused like
        any unknown number, and the message is left as it is."""
        try:
            await interaction.client.manager.visible_game(interaction.user.id, self.game_id,
                                                          guild_id=interaction.guild_id)
        except Exception as e:  # noqa: BLE001
            await report_error(interaction, e)
            return
        await interaction.response.edit_message(content=texts.i18n._(texts.MOVE_CANCELLED), view=None, attachments=[])


class NextGameButton(_OwnedButton, template=r"stonecast:next:(?P<user>[0-9]+):(?P<game>[0-9]+)"):
    """Next: the following game of the queue /next showed."""

    refusal = texts.NOT_YOUR_QUEUE

    def __init__(self, user_id: int, game_id: int):
        super().__init__(discord.ui.Button(label=texts.button_label("next"), style=discord.ButtonStyle.primary,
                                           custom_id=f"stonecast:next:{user_id}:{game_id}"))
        self.user_id, self.game_id = user_id, game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> NextGameButton:
        """Rebuild the button from its custom id (after a restart too)."""
        return cls(int(match["user"]), int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the turns cog."""
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.client.manager.visible_game(interaction.user.id, self.game_id,
                                                          guild_id=interaction.guild_id)
            await _turns(interaction).show_next(interaction, after=self.game_id)
        except Exception as e:  # noqa: BLE001
            await report_error(interaction, e)


DYNAMIC_ITEMS = (ConfirmMoveButton, CancelMoveButton, NextGameButton)


def _turns(interaction: discord.Interaction[Any]) -> TurnsCog:
    """The turns cog of the bot that received ``interaction`` (by its class)."""
    return cast("StonecastBot", interaction.client).cog(TurnsCog)


def confirm_view(game_id: int, ply: int, user_id: int, move: str) -> discord.ui.View:
    """Confirm and Cancel under a move's preview."""
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmMoveButton(game_id, ply, user_id, move))
    view.add_item(CancelMoveButton(game_id, user_id))
    return view


class TurnsCog(commands.Cog, name="Turns"):
    """Move confirmation, /next and the daily digest."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot

    async def cog_load(self) -> None:
        """Register the persistent buttons."""
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        """Unregister the persistent buttons."""
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)

    # ---- move confirmation ---------------------------------------------------------------
    async def ask_to_confirm(self, interaction: discord.Interaction, preview: MovePreview) -> None:
        """/move with confirmation on: the board after the checked move (``preview``, from
        :meth:`bot.manager.GameManager.play`), to the mover only, with Confirm and Cancel, and
        the mover's clock (time left, deadline). Nothing is stored."""
        g, position = preview.game, preview.position
        custom_id = f"stonecast:confirm:{g.id}:{g.ply}:{interaction.user.id}:{preview.move}"
        if len(custom_id) > CUSTOM_ID_LIMIT:  # pragma: no cover - no game's move is that long
            raise UserError(Refusal.MOVE_TOO_LONG_TO_CONFIRM)
        # no deadline on the preview: the next turn's is not known before the move is played
        file = await self.bot.announcer.board_file(dataclasses.replace(g, deadline=None), position)
        text = texts.confirm_prompt(texts.game_label(g.kind, g.id), preview.move, boards.move_effect(position))
        if g.deadline is not None and g.status == "active":  # the mover's clock runs meanwhile (issue 19)
            away = (await self.bot.manager.settings(interaction.user.id)).vacation_until
            text += texts.confirm_clock(texts.game_clock(g, self.bot.manager.clock(), away), g.deadline)
        await ephemeral(interaction, text, file=file,
                        view=confirm_view(g.id, g.ply, interaction.user.id, preview.move))

    async def on_confirm(self, interaction: discord.Interaction, game_id: int, ply: int, move: str) -> None:
        """Confirm pressed by its owner: play the move if the game is still at ``ply``, post
        the board, and put the mover's note in place of the preview. A game that moved on or
        ended is refused clearly, and the buttons go."""
        try:
            await interaction.response.defer()
            try:
                result = await self.bot.manager.play(interaction.user.id, move, game_id=game_id,
                                                     guild_id=interaction.guild_id, expected_ply=ply)
            except NotFound as e:  # another server's game: refused privately, the message kept
                await report_error(interaction, e)
                return
            except UserError as e:
                await interaction.edit_original_response(content=texts.refusal_text(e), view=None, attachments=[])
                return
            text = await announce_move(self.bot.announcer, result)
            await interaction.edit_original_response(content=text, view=None, attachments=[])
        except Exception as e:  # noqa: BLE001
            await report_error(interaction, e)

    # ---- /next ---------------------------------------------------------------------------
    @app_commands.command(name=_T("next"), description=_T("Your game with the least time left, then the next"))
    @app_commands.guild_only()
    async def next_game(self, interaction: discord.Interaction) -> None:
        """/next: the game waiting for the caller with the least time left."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.show_next(interaction, after=None)

    async def show_next(self, interaction: discord.Interaction, *, after: int | None) -> None:
        """Show (only to the caller) the board, time left and thread of the game waiting for
        them after game ``after`` in their queue (least time left first; ``None``, or a game
        no longer waiting: the first), with a Next button while more follow."""
        manager = self.bot.manager
        uid = interaction.user.id
        waiting = await manager.waiting_games(uid, interaction.guild_id)
        ids = [g.id for g in waiting]
        index = ids.index(after) + 1 if after in ids else 0
        if not waiting or index >= len(waiting):
            await ephemeral(interaction, texts.i18n._(texts.NOTHING_MORE_WAITING if waiting else texts.NOTHING_WAITING))
            return
        g = waiting[index]
        away = (await manager.settings(uid)).vacation_until
        text = texts.next_text(g, g.opponent_of(uid), texts.game_clock(g, manager.clock(), away), index + 1, len(waiting))
        kwargs: dict[str, Any] = {"file": await self.bot.announcer.board_file(g, g.position)}
        if index + 1 < len(waiting):
            view = discord.ui.View(timeout=None)
            view.add_item(NextGameButton(uid, g.id))
            kwargs["view"] = view
        await ephemeral(interaction, text, **kwargs)

    # ---- the daily digest ----------------------------------------------------------------


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.front.cogs.turns")``)."""
    await bot.add_cog(TurnsCog(bot))
