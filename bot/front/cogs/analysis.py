"""Analysis boards (issue 23): /analyze and its buttons (◀ ▶ Play Undo Engine Share Text), and
/note, a private note per game.

A board is the caller's alone: /analyze answers privately, and every press edits that private
message (its buttons check their owner, :class:`bot.front.views.AnalysisButton`). The board's
state is the manager's (:mod:`bot.manager.analysis`: stored, so the buttons work after a
restart; a board lapses a day after its last use). The Engine's search runs in the computer's
worker pool, in its analysis lane (:meth:`bot.workers.computer.Computer.analyse`), at level 5,
due to end in time for the answer to be shown within :data:`ENGINE_ANSWER_SECONDS` of the
press (the budget is explained below :data:`ENGINE_AFTER_SECONDS`); its best line is drawn on
the board as numbered markers (:func:`bot.rules.analysis.line_markers`, numbered as the text
numbers the moves: a pass takes no number).
Share posts the position publicly in the channel with the line and who explored it; Text
gives the position's one-line text to copy (``/analyze position:`` reads it back).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

import ai
from bot import texts
from bot.front.boards import attachment
from bot.front.replies import ephemeral, report_error
from bot.front.views import analysis_view
from bot.manager import Refusal, UserError
from bot.rules.analysis import line_markers, line_steps
from bot.texts.commands import COMMAND_CONTEXT
from bot.workers.search_pool import QueueFull, SearchBusy, SearchFailed

from .common import GAME_CHOICES, game_autocomplete, reviewable_game_autocomplete

if TYPE_CHECKING:
    from bot.front.client import StonecastBot
    from bot.manager import AnalysisBoard

log = logging.getLogger("stonecast.bot")

#: The Engine's level: 5, the strongest (:data:`ai.LEVELS`: its search settings -- endgame
#: solver, playout tactics, 12,000 playouts at most -- and its time cap of 5 s).
ENGINE_LEVEL = 5
#: Seconds from the press within which the Engine's answer is shown (issue 23's target).
ENGINE_ANSWER_SECONDS = 6.0
#: Seconds kept, out of :data:`ENGINE_ANSWER_SECONDS`, for what follows the search: storing
#: the answer, drawing the board with its markers and editing the message (measured by
#: benchmarks/analysis.py: about 0.1-0.4 s under load; the rest is margin for Discord).
ENGINE_AFTER_SECONDS = 1.0
# The Engine's budget: the search must end ENGINE_ANSWER_SECONDS - ENGINE_AFTER_SECONDS
# (5 s) after the press. A worker that is free at once gives it about 4.5 s (5 s less the
# press's own handling, divided by the search's 10% overrun: bot.workers.search_pool.time_cap),
# close to level 5's own 5 s -- the strength of MCTS grows with the log of its playouts, so
# 10% fewer is not a level less. An Engine request that waited for a computer search to end
# (at most the rest of one: it takes the first worker that frees) searches what is left of
# the 5 s: behind a level-3 move (at most 2.2 s) still 2.5 s or more, at level 5's settings.
# Only behind a level-4 or -5 computer move with every worker busy does it fall to the
# floor (bot.workers.search_pool.FLOOR_SECONDS) and may answer after 6 s: run two search
# workers (STONECAST_AI_WORKERS=2) where such games are played.


class PlayModal(discord.ui.Modal):
    """The Play button's form: one move, read as /move reads it."""

    def __init__(self, cog: AnalysisCog, board_id: int):
        super().__init__(title=texts.play_modal("title"), timeout=900,
                         custom_id=f"stonecast:analysis-play:{board_id}")
        self.cog, self.board_id = cog, board_id
        self.move: discord.ui.TextInput[PlayModal] = discord.ui.TextInput(
            label=texts.play_modal("label"), placeholder=texts.play_modal("hint"), max_length=64)
        self.add_item(self.move)

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        """Play the move typed on the board."""
        await self.cog.on_play_submit(interaction, self.board_id, self.move.value)


class AnalysisCog(commands.Cog, name="Analysis"):
    """/analyze, its buttons, /note."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot

    async def cog_load(self) -> None:
        """Handle the analysis board's buttons (:class:`bot.front.views.ButtonRoutes`)."""
        self.bot.buttons.analysis = self

    async def cog_unload(self) -> None:
        """Leave the buttons' route."""
        self.bot.buttons.analysis = None

    @app_commands.command(name=_T("analyze"),
                          description=_T("Explore a finished game or any position, privately, with the engine"))
    @app_commands.rename(move=_T("move", context=COMMAND_CONTEXT))
    @app_commands.describe(game=_T("A game of this server to explore"),
                           move=_T("Moves played to show (default: all)"),
                           position=_T("A position's text (from an analysis board's Text button)"),
                           new=_T("A new board of this game"), options=_T("Options of the new board, like size=9"))
    @app_commands.choices(new=GAME_CHOICES)
    @app_commands.guild_only()
    async def analyze(self, interaction: discord.Interaction, game: int | None = None,
                      move: app_commands.Range[int, 0, 100000] | None = None,
                      position: app_commands.Range[str, 1, 2000] | None = None,
                      new: str | None = None, options: app_commands.Range[str, 1, 200] | None = None) -> None:
        """/analyze -- open an analysis board (one of game, position, new) for the caller."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        board = await self.bot.manager.analyze(interaction.user.id, guild_id=interaction.guild_id,
                                               game_id=game, move=move, position=position,
                                               kind=new, options=options)
        content, file = await self._show(board)
        await ephemeral(interaction, content, file=file, view=analysis_view(board.id, interaction.user.id))

    analyze.autocomplete("game")(reviewable_game_autocomplete)  # this server's finished games

    @app_commands.command(name=_T("note"), description=_T("Keep a private note on a game (only you see it)"))
    @app_commands.describe(game=_T("The game's number"), text=_T("Your note (leave it out to delete it)"))
    @app_commands.guild_only()
    async def note(self, interaction: discord.Interaction, game: int,
                   text: app_commands.Range[str, 1, 2000] | None = None) -> None:
        """/note game: text: -- keep (or, without text, delete) the caller's note on a game."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        g, kept = await self.bot.manager.set_note(interaction.user.id, game, text,
                                                  guild_id=interaction.guild_id)
        await ephemeral(interaction, texts.note_saved(texts.game_label(g.kind, g.id), kept))

    note.autocomplete("game")(game_autocomplete)

    # ------------------------------------------------------------------ the buttons

    async def on_analysis_button(self, interaction: discord.Interaction[Any], action: str,
                                 board_id: int) -> None:
        """A button of the caller's own board (its ``interaction_check`` turned others away)."""
        pressed = asyncio.get_running_loop().time()
        uid = interaction.user.id
        manager = self.bot.manager
        try:
            if action == "play":  # a form first: checked now, so a lapsed board says so at once
                await manager.analysis_board(board_id, uid)
                await interaction.response.send_modal(PlayModal(self, board_id))
                return
            await interaction.response.defer()
            if action in ("prev", "next"):
                await self._edit(interaction, await manager.analysis_step(board_id, uid, -1 if action == "prev" else 1))
            elif action == "undo":
                await self._edit(interaction, await manager.analysis_undo(board_id, uid))
            elif action == "engine":
                await self._engine(interaction, board_id, pressed)
            elif action == "share":
                board = await manager.analysis_board(board_id, uid)
                content, file = await self._show(board, share=True)
                await interaction.followup.send(
                    texts.share_text(uid, texts.analysis_source(board.game, board.position.kind),
                                     board.cursor, content), file=file,
                    allowed_mentions=discord.AllowedMentions.none())
            else:  # text
                board = await manager.analysis_board(board_id, uid)
                await ephemeral(interaction, texts.position_text_reply(board.position.to_text()))
        except Exception as e:  # noqa: BLE001 - every failure answers the presser privately
            await report_error(interaction, e)

    async def on_play_submit(self, interaction: discord.Interaction[Any], board_id: int, move: str) -> None:
        """The Play form was sent: play its move and show the board (a refusal answers
        privately; the board stays as it was)."""
        try:
            await interaction.response.defer()
            await self._edit(interaction, await self.bot.manager.analysis_play(board_id, interaction.user.id, move))
        except Exception as e:  # noqa: BLE001 - every failure answers the player privately
            await report_error(interaction, e)

    async def _engine(self, interaction: discord.Interaction[Any], board_id: int, pressed: float) -> None:
        """Engine: the gate (running games, the cap), the search at :data:`ENGINE_LEVEL` in the
        analysis lane -- due to end :data:`ENGINE_AFTER_SECONDS` before the answer is due
        (``pressed``: the event loop's time of the press), queued before the "thinking" note
        is shown so that Discord's round trip runs meanwhile -- then the board with the line."""
        uid = interaction.user.id
        board = await self.bot.manager.engine_input(board_id, uid)
        search = asyncio.ensure_future(self.bot.computer.analyse(
            uid, board.position, level=ENGINE_LEVEL, seconds=ai.LEVELS[ENGINE_LEVEL].seconds,
            deadline=pressed + ENGINE_ANSWER_SECONDS - ENGINE_AFTER_SECONDS))
        try:
            await interaction.edit_original_response(content=f"{texts.engine_note('thinking')}\n")
        except BaseException:
            search.cancel()
            raise
        try:
            decision = await search
        except SearchBusy:
            raise UserError(Refusal.ENGINE_BUSY) from None
        except (QueueFull, SearchFailed) as e:
            log.warning("engine request on board %s failed: %s", board_id, e)
            note = texts.engine_note("queue_full" if isinstance(e, QueueFull) else "failed")
            await self._edit(interaction, board)
            await ephemeral(interaction, note)
            return
        board = await self.bot.manager.record_engine(board_id, uid, board.position, value=decision.value,
                                                     line=list(decision.line), proven=decision.proven)
        await self._edit(interaction, board)

    # ------------------------------------------------------------------ showing a board

    async def _edit(self, interaction: discord.Interaction[Any], board: AnalysisBoard) -> None:
        """Show ``board`` in the private message the press came from."""
        content, file = await self._show(board)
        await interaction.edit_original_response(content=content, attachments=[file],
                                                 view=analysis_view(board.id, board.user_id))

    async def _show(self, board: AnalysisBoard, *, share: bool = False) -> tuple[str, discord.File]:
        """The text and picture of ``board`` (its Engine line drawn when it has one); with
        ``share`` the text is the Engine's summary only (for the public post)."""
        pos = board.position
        names = await self.bot.player_names(board.game) if board.game is not None else None
        seat = pos.to_move
        mover = texts.seat_name(seat, pos.colour(seat)) if seat is not None else None
        summary = None
        markers = None
        if board.engine is not None and mover is not None:
            summary = texts.engine_summary(mover, board.engine.value, line_steps(pos, board.engine.line),
                                           board.engine.proven, board.engine.plies_to_end)
            markers = line_markers(pos, board.engine.line)
        png = await self.bot.renderer.render(pos, names, markers=markers)
        source = texts.analysis_source(board.game, pos.kind)
        file = attachment(png, f"stonecast-analysis-{board.id}.png",
                          texts.analysis_alt(texts.title(pos.kind), pos.ply, mover, len(markers or ())))
        if share:
            return summary or "", file
        return texts.analysis_text(source, board.cursor, len(board.line), len(board.own), mover,
                                   board.expires_at, summary, board.note), file


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.front.cogs.analysis")``)."""
    await bot.add_cog(AnalysisCog(bot))
