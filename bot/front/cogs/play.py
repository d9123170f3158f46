"""Playing a game: /move (with autocomplete of legal moves), /resign and its confirmation
button, /board and /games.

Each handler defers first (the database and the renderer may take longer than Discord's
three seconds), makes its manager call, and turns the answer into messages. Replies to the
person acting are ephemeral; the board everyone should see is posted as a new message in the
game's thread, mentioning only the player who must act.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from bot import texts
from bot.front import boards
from bot.front.replies import ephemeral, report_error
from bot.front.views import resign_view
from bot.manager import MovePreview, NotAllowed, Refusal, UserError, game_over_error
from bot.texts.commands import COMMAND_CONTEXT
from bot.texts.i18n import _

from .common import announce_move, as_int, game_autocomplete, game_for
from .turns import TurnsCog

if TYPE_CHECKING:
    from bot.front.client import StonecastBot
    from bot.manager import GameManager

log = logging.getLogger("stonecast.bot")

MAX_GAMES_LISTED = 20
# /move's suggestions when several games wait (issue 19): past this many games, the first
# suggestion says to choose the game first (the moves follow, shared out among the games)
MAX_GAMES_IN_MOVES = 6
# the value of a move suggested for one of several games: "#12 c3" (the game, then the move)
_MOVE_OF_GAME = re.compile(r"#([0-9]{1,19})\s+(\S.*)")


def move_of_game(game_id: int, move: str) -> str:
    """The value of a /move suggestion for game ``game_id`` when it names no game:
    ``"#12 c3"`` (:func:`split_move`)."""
    return f"#{game_id} {move}"


def split_move(text: str) -> tuple[int | None, str]:
    """``(game id, move)`` of a /move value: ``"#12 c3"`` (:func:`move_of_game`) gives
    ``(12, "c3")``; anything else is a move alone, ``(None, text)``."""
    m = _MOVE_OF_GAME.fullmatch(text.strip()) if isinstance(text, str) else None
    return (int(m[1]), m[2]) if m else (None, text)


class PlayCog(commands.Cog, name="Play"):
    """Moves, resignations, boards and the list of games."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot

    async def cog_load(self) -> None:
        """Handle the Resign button (:class:`bot.front.views.ButtonRoutes`)."""
        self.bot.buttons.play = self

    async def cog_unload(self) -> None:
        """Leave the Resign button's route."""
        self.bot.buttons.play = None

    @property
    def manager(self) -> GameManager:
        """The bot's game manager."""
        return self.bot.manager

    @app_commands.command(name=_T("move", context=COMMAND_CONTEXT), description=_T("Play your move in a game"))
    @app_commands.rename(move=_T("move", context=COMMAND_CONTEXT))
    @app_commands.describe(move=_T("Your move, like g7, c3 e5 or pass — pick from the suggestions"),
                           game=_T("The game's number (not needed in its thread or with one game waiting)"))
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction,
                   move: app_commands.Range[str, 1, 40], game: int | None = None) -> None:
        """Validate and commit the move, post the new board in the game's thread."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        self.bot.remember(interaction.user)
        chosen, move = split_move(move)  # a suggestion for one of several games carries it
        if chosen is not None and game is not None and chosen != game:
            raise UserError(Refusal.MOVE_NAMES_ANOTHER_GAME, chosen=chosen, game_id=game)
        game = chosen if game is None else game  # checked by the manager like any game: number
        result = await self.manager.play(interaction.user.id, move, game_id=game, confirm=True,
                                         channel_id=interaction.channel_id, guild_id=interaction.guild_id)
        if isinstance(result, MovePreview):  # issue 13: the mover confirms their moves first
            await self.bot.cog(TurnsCog).ask_to_confirm(interaction, result)
            return
        await ephemeral(interaction, await announce_move(self.bot.announcer, result))

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str
                                ) -> list[app_commands.Choice[str]]:
        """Suggest legal moves (or first placements) starting with what was typed. With no
        game named or meant and several waiting, the moves of each, labelled by game
        (:meth:`_moves_by_game`)."""
        game_id = as_int(interaction.namespace.game)
        chosen, typed = split_move(current)  # a suggestion picked, then typed on
        try:
            moves = await self.manager.complete_move(
                interaction.user.id, typed, game_id=game_id if chosen is None else chosen,
                channel_id=interaction.channel_id, guild_id=interaction.guild_id, limit=25)
            if moves and chosen is not None:
                label = texts.game_label((await self.manager.visible_game(
                    interaction.user.id, chosen, guild_id=interaction.guild_id)).kind, chosen)
                return [app_commands.Choice(name=texts.move_choice(label, m)[:100],
                                            value=move_of_game(chosen, m)) for m in moves[:25]]
            if not moves and game_id is None and chosen is None:
                choices = await self._moves_by_game(interaction, current)
                if choices:
                    return choices
        except Exception:  # noqa: BLE001 - suggestions must never break typing
            log.exception("move autocomplete failed")
            return []
        if not moves:
            return await self._not_your_turn_choice(interaction, game_id if chosen is None else chosen)
        return [app_commands.Choice(name=m, value=m) for m in moves[:25]]

    async def _moves_by_game(self, interaction: discord.Interaction, current: str
                             ) -> list[app_commands.Choice[str]]:
        """Issue 19: /move naming no game, where none is meant and several wait for the
        caller (in this server): their moves shared out among those games in turn (the least
        time left first), each labelled by game (``"Io #2 · c3"``, value ``"#2 c3"``); past
        :data:`MAX_GAMES_IN_MOVES` games, a first choice says to choose the game first."""
        per_game = await self.manager.complete_moves_by_game(
            interaction.user.id, current, channel_id=interaction.channel_id,
            guild_id=interaction.guild_id, limit=25)
        explained = len(per_game) > MAX_GAMES_IN_MOVES
        choices: list[app_commands.Choice[str]] = []
        if explained:
            choices.append(app_commands.Choice(name=texts.pick_game_choice(len(per_game))[:100],
                                               value="game?"))
        for i in range(25):  # the first move of each game, then the second, ...
            for g, moves in per_game:
                if i < len(moves) and len(choices) < 25:
                    choices.append(app_commands.Choice(name=texts.move_choice(texts.game_label(g.kind, g.id), moves[i])[:100],
                                                       value=move_of_game(g.id, moves[i])))
        return choices if len(choices) > explained else []  # no move: nothing to explain

    async def _not_your_turn_choice(self, interaction: discord.Interaction, game_id: int | None
                                    ) -> list[app_commands.Choice[str]]:
        """When the game meant (``game_id``, else the one :meth:`resolve_game` picks) waits
        for the opponent: one choice saying whose move it is.
        Its value, if submitted, gets /move's usual "not your turn" answer. ``[]`` when no
        game of the caller's is waiting for the opponent."""
        try:
            g = await self.manager.waiting_game(
                interaction.user.id, game_id=game_id,
                channel_id=interaction.channel_id, guild_id=interaction.guild_id)
            if g is None:
                return []
            name = self.bot.cached_name(g.to_move_user) or "your opponent"
            text = texts.not_your_turn_choice(texts.game_label(g.kind, g.id), name)
        except Exception:  # noqa: BLE001 - suggestions must never break typing
            log.exception("move autocomplete failed")
            return []
        return [app_commands.Choice(name=text[:100], value="wait")]

    move.autocomplete("game")(game_autocomplete)

    @app_commands.command(name=_T("resign"), description=_T("Resign a game (asks you to confirm)"))
    @app_commands.describe(game=_T("The game's number (not needed in its thread or with one game)"))
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Ask for confirmation with a Resign button (:meth:`on_resign_button` does it)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        g = await game_for(interaction, game)
        label = texts.game_label(g.kind, g.id)
        if g.seat_of(interaction.user.id) is None:
            raise NotAllowed(Refusal.NOT_PLAYING, game=g)
        if g.status != "active":
            raise game_over_error(g)
        opponent = g.opponent_of(interaction.user.id)
        assert opponent is not None  # the caller plays here: the other seat is the opponent
        await ephemeral(interaction, texts.resign_prompt(label, opponent),
                        view=resign_view(g.id, interaction.user.id))

    resign.autocomplete("game")(game_autocomplete)

    async def on_resign_button(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Resign confirmation was pressed by its owner (the button's
        ``interaction_check`` turned everyone else away)."""
        try:
            await interaction.response.defer()
            end = await self.manager.resign_game(game_id, interaction.user.id, guild_id=interaction.guild_id)
            await self.bot.announcer.publish(end)
            await interaction.edit_original_response(content=texts.you_resigned(texts.game_label(end.game.kind, end.game.id)), view=None)
        except Exception as e:  # noqa: BLE001
            await report_error(interaction, e)

    @app_commands.command(name=_T("board"), description=_T("Show a game's current board (only to you)"))
    @app_commands.describe(game=_T("The game's number (not needed in its thread or with one game)"))
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """/board [game] -- the current board, to the caller only."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        g = await game_for(interaction, game)
        position = g.position
        file = await self.bot.announcer.board_file(g, position)
        content, _ = boards.board_text(g, position, headline=texts.board_headline(position.ply, position.last_move))
        if g.status == "active":
            content += texts.thread_link(g.channel_for_posts)
        note = await self.manager.note(interaction.user.id, g.id)  # issue 23: the caller's own
        if note:
            content += texts.note_line(note)
        await ephemeral(interaction, content, file=file)

    board.autocomplete("game")(game_autocomplete)

    @app_commands.command(name=_T("games"), description=_T("Your games in progress and whose turn it is"))
    @app_commands.describe(all=_T("Yes: every game in progress in this server, with links to watch them"))
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction, all: bool = False) -> None:  # noqa: A002 - the option's name
        """/games [all] -- the caller's games in progress, theirs to move first; with
        ``all:true`` every game in progress in this server (issue 9)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        if all:
            await self._server_games(interaction)
            return
        listing = await self.manager.listing(interaction.user.id, interaction.guild_id)
        active = listing.games
        if not active:
            await ephemeral(interaction, _(texts.NO_GAMES))
            return
        uid = interaction.user.id
        mine = [g for g in active if g.to_move_user == uid]
        lines = [texts.games_list_header(len(active), len(mine))]
        away: dict[int, str] = {}
        for g in sorted(active, key=lambda g: (g.to_move_user != uid, g.deadline or 0, g.id))[:MAX_GAMES_LISTED]:
            opponent = g.opponent_of(uid)
            if opponent not in away:
                away[opponent] = boards.vacation_note(opponent, listing.away.get(opponent))
            lines.append(texts.games_list_line(g, opponent, yours=g.to_move_user == uid,
                                               away=bool(away[opponent]) and g.to_move_user == opponent))
        notes = "".join(f"\n{n}" for n in away.values() if n)[:1000]
        text = texts.fit_lines(lines, limit=2000 - len(notes), hidden=max(0, len(active) - MAX_GAMES_LISTED),
                               more=_(texts.GAMES_LIST_MORE))
        await ephemeral(interaction, text + notes)

    async def _server_games(self, interaction: discord.Interaction) -> None:
        """The ``/games all:true`` answer: the server's games in progress, the most recently
        moved first, each with its players, whose move, the deadline and its thread -- within
        Discord's 2000 characters."""
        games = await self.manager.server_games(interaction.guild_id)
        if not games:
            await ephemeral(interaction, _(texts.NO_SERVER_GAMES))
            return
        lines = [texts.server_games_header(len(games))]
        lines += [texts.server_games_line(g) for g in games[:MAX_GAMES_LISTED]]
        text = texts.fit_lines(lines, hidden=max(0, len(games) - MAX_GAMES_LISTED),
                               more=_(texts.SERVER_GAMES_MORE))
        await ephemeral(interaction, text)


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.front.cogs.play")``)."""
    await bot.add_cog(PlayCog(bot))
