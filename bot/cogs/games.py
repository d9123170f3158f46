"""Slash commands and buttons for playing: /challenge, /move, /resign, /board, /games,
/history and /abort, plus the challenge, resign and rematch buttons.

Each handler defers first (the database and the renderer may take longer than Discord's
three seconds), makes one manager call, and turns the answer into messages. Replies to the
person acting are ephemeral; what everyone should see (challenges, boards) is posted as a new
message in the channel or the game's thread, mentioning only the player who must act.
"""

from __future__ import annotations

import inspect
import io
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

import engine

from .. import boards, texts
from ..manager import NotAllowed, NotFound, StaleAction, UserError, game_over_error
from ..replies import ephemeral, report_error
from ..views import challenge_view, resign_view

if TYPE_CHECKING:
    from ..client import StonecastBot
    from ..manager import Challenge, Game

log = logging.getLogger("stonecast.bot")

# /challenge first: value shown to players -> the manager's term
FIRST = {"me": "challenger", "opponent": "opponent", "random": "random"}
MAX_GAMES_LISTED = 20
DEFAULT_DAYS_PER_MOVE = 3
DESCRIPTION_LIMIT = 100  # Discord's limit for command and option descriptions


def option_annotation(spec: engine.OptionSpec) -> Any:
    """The slash-command type for an engine option: choices as a Literal, int ranges as Range."""
    if spec.choices is not None:
        return Literal[tuple(spec.choices)]
    if spec.type is int:
        if spec.minimum is None and spec.maximum is None:
            return int
        return app_commands.Range[int, spec.minimum, spec.maximum]
    return str


def challenge_command(cog: GamesCog, kind: engine.GameKind) -> app_commands.Command:
    """``/challenge <kind>``: opponent, the game's options (from ``kind.options``), first,
    days per move and rated.

    The callback's signature is generated from the engine's option specs, so discord.py
    builds typed options with choices and min/max from them; every subcommand calls
    :meth:`GamesCog.challenge`.
    """
    names = [spec.name for spec in kind.options]

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        """The subcommand's callback: collect the options, call GamesCog.challenge."""
        options = {name: values[name] for name in names if values.get(name) is not None}
        await cog.challenge(interaction, kind.key, values.get("opponent"), options,
                            first=values.get("first"), days=values.get("days"),
                            rated=values.get("rated"))

    kw = inspect.Parameter.KEYWORD_ONLY
    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=discord.Interaction),
              inspect.Parameter("opponent", kw, annotation=discord.Member | None, default=None)]
    descriptions = {"opponent": "Who you want to play; leave out to let anyone here accept"}
    for spec in kind.options:
        params.append(inspect.Parameter(spec.name, kw, annotation=option_annotation(spec) | None,
                                        default=None))
        descriptions[spec.name] = fitted(f"{spec.description} (default {spec.default})", spec.description)
    params += [
        inspect.Parameter("first", kw, annotation=Literal["me", "opponent", "random"] | None, default=None),
        inspect.Parameter("days", kw, annotation=app_commands.Range[int, 1, 14] | None, default=None),
        inspect.Parameter("rated", kw, annotation=bool | None, default=None),
    ]
    descriptions["first"] = "Who moves first: you, your opponent, or drawn at random (default)"
    descriptions["days"] = f"Days allowed for each move, 1 to 14 (default {DEFAULT_DAYS_PER_MOVE})"
    descriptions["rated"] = "Whether the game changes ratings (default yes)"
    callback.__signature__ = inspect.Signature(params)
    callback.__discord_app_commands_param_description__ = descriptions
    summary = getattr(kind, "summary", "") or ""
    description = fitted(f"{kind.title}: {summary}", summary) if summary else f"Challenge someone to {kind.title}"
    return app_commands.Command(name=kind.key, description=description, callback=callback)


def fitted(*candidates: str) -> str:
    """The first of ``candidates`` (longest first) within Discord's 100 characters for a
    description, so none is cut mid-word; ValueError if none fits."""
    for text in candidates:
        if 1 <= len(text) <= DESCRIPTION_LIMIT:
            return text
    raise ValueError(f"no description fits in {DESCRIPTION_LIMIT} characters: {candidates!r}")


def _as_int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


class GamesCog(commands.Cog, name="Games"):
    """Challenges, moves and boards. ``bot.games`` is this cog (the buttons call into it)."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot
        self.challenge_group = app_commands.Group(
            name="challenge", description="Challenge a member of this server to a game",
            guild_only=True)
        for key in texts.GAME_ORDER:
            if key in engine.GAMES:
                self.challenge_group.add_command(challenge_command(self, engine.GAMES[key]))

    @property
    def manager(self):
        """The bot's game manager."""
        return self.bot.manager

    async def cog_load(self) -> None:
        """Register the /challenge group with the command tree."""
        self.bot.tree.add_command(self.challenge_group)

    async def cog_unload(self) -> None:
        """Remove the /challenge group from the command tree."""
        self.bot.tree.remove_command(self.challenge_group.name)

    # ------------------------------------------------------------------ challenges

    def challenge_title(self, c: Challenge) -> str:
        """``"<@a> challenges <@b> to **Io** (size 9) · 3 days a move · rated"``."""
        opts = texts.options_text(c.options)
        game = f"**{texts.title(c.kind)}**" + (f" ({opts})" if opts else "")
        terms = f" · {c.days_per_move} day{'s' if c.days_per_move != 1 else ''} a move · " \
                f"{'rated' if c.rated else 'unrated'}"
        if c.opponent_id is None:
            return f"<@{c.challenger_id}> offers a game of {game} to anyone here{terms}"
        return f"<@{c.challenger_id}> challenges <@{c.opponent_id}> to {game}{terms}"

    def first_text(self, c: Challenge) -> str:
        """Who moves first, as a sentence."""
        if c.first == "challenger":
            return f"<@{c.challenger_id}> moves first."
        if c.first == "opponent":
            return ("Whoever accepts moves first." if c.opponent_id is None
                    else f"<@{c.opponent_id}> moves first.")
        return "Who moves first is drawn at random when the challenge is accepted."

    async def post_challenge(self, c: Challenge) -> discord.Message:
        """Post challenge ``c`` in its channel with its buttons; pings only the opponent."""
        lines = [self.challenge_title(c), self.first_text(c)]
        if c.opponent_id is None:
            lines.append(f"Press Accept to play — the offer lapses <t:{int(c.expires_at)}:R>.")
            mentions = discord.AllowedMentions.none()
        else:
            lines.append(f"<@{c.opponent_id}>, accept or decline below — the challenge lapses "
                         f"<t:{int(c.expires_at)}:R>.")
            mentions = discord.AllowedMentions(users=[discord.Object(c.opponent_id)])
        channel = self.bot.get_partial_messageable(c.channel_id, guild_id=c.guild_id)
        message = await channel.send("\n".join(lines), allowed_mentions=mentions,
                                     view=challenge_view(c.id, open_challenge=c.opponent_id is None))
        await self.manager.set_challenge_message(c.id, message.id)
        return message

    async def challenge(self, interaction: discord.Interaction, kind: str,
                        opponent: discord.Member | None, options: dict, *, first: str | None = None,
                        days: int | None = None, rated: bool | None = None) -> None:
        """Create a challenge and post it with Accept / Decline / Cancel buttons."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        self.bot.remember(interaction.user)
        if opponent is not None:
            self.bot.remember(opponent)
        c = await self.manager.create_challenge(
            guild_id=interaction.guild_id, channel_id=self.challenge_channel(interaction),
            challenger_id=interaction.user.id, opponent_id=opponent.id if opponent else None,
            kind=kind, options=options, first=FIRST[first or "random"],
            rated=True if rated is None else rated,
            days_per_move=days or DEFAULT_DAYS_PER_MOVE,
            opponent_is_bot=bool(opponent and opponent.bot))
        try:
            await self.post_challenge(c)
        except discord.HTTPException:
            log.warning("cannot post challenge %s in channel %s", c.id, c.channel_id, exc_info=True)
            await self.manager.cancel_challenge(c.id, interaction.user.id)
            raise UserError("I am not allowed to post in this channel, so the challenge was not "
                            "sent. Try another channel, or ask a moderator to let me send "
                            "messages here.") from None
        who = f"<@{opponent.id}>" if opponent else "anyone in this channel"
        where = f" in <#{c.channel_id}>" if c.channel_id != interaction.channel_id else ""
        if where and not opponent:
            who = "anyone there"
        await ephemeral(interaction, f"Challenge sent to {who}{where}. You can withdraw it with "
                                     f"its Cancel button until it is accepted.")

    @staticmethod
    def challenge_channel(interaction: discord.Interaction) -> int:
        """Where a challenge made in ``interaction``'s channel is posted: that channel, except
        in a thread under a text channel (a game's thread, say), where it goes to the parent
        channel -- so the game it starts gets a thread of its own there instead of being
        played inside the other game's thread (issue 9). Threads of other parents (forums)
        keep it: a forum takes no plain messages."""
        channel = interaction.channel
        if isinstance(channel, discord.Thread) and channel.parent_id is not None:
            parent = channel.parent
            if parent is None or isinstance(parent, discord.TextChannel):
                return channel.parent_id
        return interaction.channel_id

    async def on_challenge_button(self, interaction: discord.Interaction, action: str,
                                  challenge_id: int) -> None:
        """Accept, Decline or Cancel pressed on challenge ``challenge_id``."""
        try:
            await interaction.response.defer()
            self.bot.remember(interaction.user)
            if action == "accept":
                await self._accept(interaction, challenge_id)
                return
            if action == "decline":
                c = await self.manager.decline_challenge(challenge_id, interaction.user.id)
                outcome = f"<@{c.opponent_id}> declined."
            else:
                c = await self.manager.cancel_challenge(challenge_id, interaction.user.id)
                outcome = f"Withdrawn by <@{c.challenger_id}>."
            await interaction.edit_original_response(
                content=f"{self.challenge_title(c)}\n{outcome}", view=None,
                allowed_mentions=discord.AllowedMentions.none())
        except StaleAction as e:
            await report_error(interaction, await self._already_yours(interaction, challenge_id) or e)
            await self._retire_buttons(interaction, challenge_id)
        except Exception as e:  # noqa: BLE001 - every failure becomes a reply
            await report_error(interaction, e)

    def accepted_text(self, c: Challenge, game: Game) -> str:
        """What an accepted challenge's message says: who accepted and where the game is."""
        return (f"{self.challenge_title(c)}\nAccepted by <@{c.opponent_id}>: "
                f"**{texts.game_label(game.kind, game.id)}** is on in <#{game.channel_for_posts}>.")

    async def _already_yours(self, interaction: discord.Interaction, challenge_id: int) -> UserError | None:
        """For a second press of Accept by the player who accepted: where their game is."""
        try:
            c = await self.manager.get_challenge(challenge_id)
            if c.status != "accepted" or c.game_id is None or c.opponent_id != interaction.user.id:
                return None
            game = await self.manager.get_game(c.game_id)
        except UserError:
            return None
        where = (f"in <#{game.thread_id}>" if game.thread_id is not None
                 else f"in <#{game.channel_id}>, where its board is being posted")
        return UserError(f"You already accepted this challenge: "
                         f"**{texts.game_label(game.kind, game.id)}** is on {where}.")

    async def _retire_buttons(self, interaction: discord.Interaction, challenge_id: int) -> None:
        """A stale challenge message still had buttons: replace them by the challenge's state
        (for an accepted one, the same text the acceptance wrote, so a late tidy-up after a
        race never hides where the game is)."""
        try:
            c = await self.manager.get_challenge(challenge_id)
            lapsed = c.status == "open" and self.manager.clock() >= c.expires_at  # before the sweep
            if (c.status == "open" and not lapsed) or c.message_id != getattr(interaction.message, "id", None):
                return
            state = {"declined": "Declined.", "cancelled": "Withdrawn.",
                     "expired": "Nobody answered in time: the challenge lapsed."}
            if lapsed:
                state["open"] = state["expired"]
            if c.status == "accepted" and c.game_id is not None:
                content = self.accepted_text(c, await self.manager.get_game(c.game_id))
            else:
                content = f"{self.challenge_title(c)}\n{state.get(c.status, c.status.capitalize() + '.')}"
            await interaction.edit_original_response(
                content=content, view=None, allowed_mentions=discord.AllowedMentions.none())
        except (UserError, discord.HTTPException):
            log.info("could not tidy stale challenge %s", challenge_id, exc_info=True)

    async def _open_thread(self, interaction: discord.Interaction, game: Game) -> int | None:
        """A public thread for the game on the challenge message; None where not allowed."""
        name = (f"{texts.game_label(game.kind, game.id)}: "
                f"{await self.bot.display_name(game.players[1], game.guild_id)} vs "
                f"{await self.bot.display_name(game.players[2], game.guild_id)}")[:100]
        if interaction.message is None or isinstance(interaction.channel, discord.Thread):
            return None
        try:
            thread = await interaction.message.create_thread(name=name, auto_archive_duration=10080)
        except (discord.HTTPException, ValueError):
            log.info("no thread for game %s in channel %s; posting in the channel", game.id,
                     game.channel_id)
            return None
        return thread.id

    async def _accept(self, interaction: discord.Interaction, challenge_id: int) -> None:
        game = await self.manager.accept_challenge(challenge_id, interaction.user.id)
        c = await self.manager.get_challenge(challenge_id)
        thread_id = await self._open_thread(interaction, game)
        # recorded even when None (the channel): the delivery pass must not make one later
        await self.manager.set_game_thread(game.id, thread_id)
        game = await self.manager.get_game(game.id)
        # the first board was queued with the game: post it here and mark it, or the outbox
        # posts it after the grace period (a crash or a failed post here loses nothing)
        try:
            board_id = await self.manager.pending_board(game.id, 0)
            dm_id = await self.manager.pending_dm(game.id, 0)
        except Exception:  # noqa: BLE001 - the game is created: never answer "nothing changed"
            log.exception("no outbox row for the first board of game %s", game.id)
            board_id = dm_id = None  # posted unmarked: the outbox may post it a second time
        note = await self.post_queued_board(game, game.position, None, board_id, dm_id)
        await interaction.edit_original_response(
            content=self.accepted_text(c, game) + note, view=None,
            allowed_mentions=discord.AllowedMentions.none())

    async def on_rematch_button(self, interaction: discord.Interaction, game_id: int) -> None:
        """Rematch pressed on a final board: challenge the other player, seats swapped."""
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            c = await self.manager.rematch(game_id, interaction.user.id)
            try:
                await self.post_challenge(c)
            except discord.HTTPException:
                await self.manager.cancel_challenge(c.id, interaction.user.id)
                raise UserError("I could not post the rematch challenge in the game's channel; "
                                "use /challenge instead.") from None
            await ephemeral(interaction, f"Rematch offered to <@{c.opponent_id}> in <#{c.channel_id}>.")
        except Exception as e:  # noqa: BLE001
            await report_error(interaction, e)

    # ------------------------------------------------------------------ games

    async def _game_for(self, interaction: discord.Interaction, game_id: int | None) -> Game:
        """The game meant: ``game_id``, this thread's game, or the user's only fitting game."""
        return await self.manager.resolve_game(interaction.user.id, game_id=game_id,
                                               channel_id=interaction.channel_id,
                                               guild_id=interaction.guild_id)

    @app_commands.command(name="move", description="Play your move in a game")
    @app_commands.describe(move="Your move, like g7, c3 e5 or pass — pick from the suggestions",
                           game="The game's number (not needed in its thread or with one game waiting)")
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction,
                   move: app_commands.Range[str, 1, 40], game: int | None = None) -> None:
        """Validate and commit the move, post the new board in the game's thread."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        self.bot.remember(interaction.user)
        g = await self._game_for(interaction, game)
        result = await self.manager.play_move(g.id, interaction.user.id, move)
        g, position = result.game, result.position
        taken = boards.colour_settled_by(g, position, result.seat)
        settled = f" You play {taken} from now on." if taken else ""
        note = await self.post_queued_board(g, position, result.seat, result.announcement_id, result.dm_id)
        label = texts.game_label(g.kind, g.id)
        played = f"You played `{result.move}` in {label}{boards.move_effect(position)}."
        if result.finished:
            names = {seat: f"<@{uid}>" for seat, uid in g.players.items()}
            text = f"{played} Game over: {texts.result_text(g.kind, position.outcome, names)}"
        else:
            text = f"{played}{settled} Now it is <@{g.to_move_user}>'s move."
        await ephemeral(interaction, text + note)

    async def post_queued_board(self, game: Game, position: engine.Position, seat: int | None,
                                announcement_id: int | None, dm_id: int | None = None) -> str:
        """Post the board the manager queued with a move (``seat`` played it; ``None``: the
        first board of a new game), then mark its outbox row delivered and send the your-turn
        DM queued with it (``dm_id``; :meth:`send_queued_dm`).

        Returns ``""`` on success, else a note for the player's reply -- the move (or the new
        game) is committed whatever happens here. A post Discord refuses for good (403, 404) is
        marked delivered with the reason (retrying cannot help); any other failure leaves the
        board in the outbox, which the bot's delivery loop posts after the grace period.
        """
        where = f"board of game {game.id} at move {position.ply} (announcement {announcement_id})"
        png = None
        try:
            png = await boards.render(self.bot, game, position)
            await boards.post_move(self.bot, game, position, seat, png=png,
                                   nonce=boards.outbox_nonce(announcement_id))
        except (discord.Forbidden, discord.NotFound) as e:
            log.warning("cannot post the %s: Discord refused it (%s)", where, e)
            await self._mark_board(announcement_id, error=f"refused: {e}")
            return (" I could not post the board in the game's thread — check my permissions "
                    "there, and use `/board` to see it meanwhile.")
        except Exception:  # noqa: BLE001 - committed: never answer "nothing changed"
            log.warning("could not post the %s; the outbox posts it later", where, exc_info=True)
            return (" I could not post the board in the game's thread just now; it is saved and "
                    "will follow there within a few minutes.")
        await self._mark_board(announcement_id)
        await self.send_queued_dm(game, position, seat, dm_id, png)
        return ""

    async def send_queued_dm(self, game: Game, position: engine.Position, seat: int | None,
                             dm_id: int | None, png: bytes | None) -> None:
        """Send the your-turn DM of outbox row ``dm_id`` (with the board image ``png``) and
        mark it delivered; skipped (and marked) when the player turned DMs off or their DMs
        were found closed lately, given up at once when Discord refuses it (403: DMs closed).
        Any other failure leaves it to the delivery pass. Never raises."""
        if dm_id is None:
            return
        try:
            skip = await boards.dm_skip_reason(self.bot, game.to_move_user)
            if skip:
                await self._mark_board(dm_id, error=skip)
                return
            await boards.send_turn_dm(self.bot, game, position, seat, png=png,
                                      nonce=boards.outbox_nonce(dm_id))
        except (discord.Forbidden, discord.NotFound) as e:
            await self._mark_board(dm_id, error=f"refused: {e}")
            return
        except Exception:  # noqa: BLE001 - the delivery pass sends it later
            log.warning("could not send the DM of game %s (announcement %s); the outbox sends it later",
                        game.id, dm_id, exc_info=True)
            return
        await self._mark_board(dm_id)

    async def _mark_board(self, announcement_id: int | None, *, error: str | None = None) -> None:
        """Mark a queued board (or DM) delivered. A failure is logged, not raised: the board is posted
        (or given up) already, and the worst outcome is that the outbox posts it again."""
        if announcement_id is None:
            return
        try:
            await self.manager.mark_delivered(announcement_id, error=error)
        except Exception:  # noqa: BLE001
            log.exception("could not mark announcement %s delivered", announcement_id)

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str
                                ) -> list[app_commands.Choice[str]]:
        """Suggest legal moves (or first placements) starting with what was typed."""
        try:
            moves = await self.manager.complete_move(
                interaction.user.id, current, game_id=_as_int(interaction.namespace.game),
                channel_id=interaction.channel_id, guild_id=interaction.guild_id, limit=25)
        except Exception:  # noqa: BLE001 - suggestions must never break typing
            log.exception("move autocomplete failed")
            return []
        if not moves:
            return await self._not_your_turn_choice(interaction)
        return [app_commands.Choice(name=m, value=m) for m in moves[:25]]

    async def _not_your_turn_choice(self, interaction: discord.Interaction
                                    ) -> list[app_commands.Choice[str]]:
        """When the game meant waits for the opponent: one choice saying whose move it is.
        Its value, if submitted, gets /move's usual "not your turn" answer. ``[]`` when no
        game of the caller's is waiting for the opponent."""
        try:
            g = await self.manager.waiting_game(
                interaction.user.id, game_id=_as_int(interaction.namespace.game),
                channel_id=interaction.channel_id, guild_id=interaction.guild_id)
            if g is None:
                return []
            name = self.bot.cached_name(g.to_move_user) or "your opponent"
            text = texts.not_your_turn_choice(texts.game_label(g.kind, g.id), name)
        except Exception:  # noqa: BLE001 - suggestions must never break typing
            log.exception("move autocomplete failed")
            return []
        return [app_commands.Choice(name=text[:100], value="wait")]

    async def game_autocomplete(self, interaction: discord.Interaction, current: str
                                ) -> list[app_commands.Choice[int]]:
        """Suggest the caller's games for a ``game:`` option (finished ones too for
        /board and /history)."""
        finished = interaction.command is not None and interaction.command.name in ("board", "history")
        try:
            pairs = await self.manager.complete_game(interaction.user.id, current, limit=25,
                                                     include_finished=finished,
                                                     guild_id=interaction.guild_id,
                                                     name_of=self.bot.cached_name)
        except Exception:  # noqa: BLE001
            log.exception("game autocomplete failed")
            return []
        return [app_commands.Choice(name=label[:100], value=gid) for gid, label in pairs[:25]]

    move.autocomplete("game")(game_autocomplete)

    @app_commands.command(name="resign", description="Resign a game (asks you to confirm)")
    @app_commands.describe(game="The game's number (not needed in its thread or with one game)")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Ask for confirmation with a Resign button (:meth:`on_resign_button` does it)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        g = await self._game_for(interaction, game)
        label = texts.game_label(g.kind, g.id)
        if g.seat_of(interaction.user.id) is None:
            raise NotAllowed(f"You are not playing in {label}.")
        if g.status != "active":
            raise game_over_error(g)
        opponent = g.opponent_of(interaction.user.id)
        await ephemeral(interaction, f"Resign **{label}** against <@{opponent}>? The game ends "
                                     f"and counts as a loss. Press the button to confirm, or "
                                     f"just ignore this message.",
                        view=resign_view(g.id, interaction.user.id))

    async def on_resign_button(self, interaction: discord.Interaction, game_id: int, user_id: int) -> None:
        """The Resign confirmation was pressed."""
        try:
            if interaction.user.id != user_id:
                raise NotAllowed("This button belongs to someone else's /resign.")
            await interaction.response.defer()
            g = await self.manager.resign(game_id, interaction.user.id)
            label = texts.game_label(g.kind, g.id)
            try:
                await boards.post_final(self.bot, g, g.position, headline=f"<@{interaction.user.id}> resigned",
                                        ping=g.opponent_of(interaction.user.id))
            except discord.HTTPException:
                log.warning("cannot post the final board of game %s", g.id, exc_info=True)
            except Exception:  # noqa: BLE001 - the resignation is committed: say so below
                log.exception("the final board of game %s failed", g.id)
            await interaction.edit_original_response(content=f"You resigned {label}.", view=None)
        except Exception as e:  # noqa: BLE001
            await report_error(interaction, e)

    resign.autocomplete("game")(game_autocomplete)

    @app_commands.command(name="board", description="Show a game's current board (only to you)")
    @app_commands.describe(game="The game's number (not needed in its thread or with one game)")
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """/board [game] -- the current board, to the caller only."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        g = await self._game_for(interaction, game)
        position = g.position
        png = await boards.render(self.bot, g, position)
        headline = (f"move {position.ply}: last `{position.last_move}`" if position.ply and position.last_move
                    else texts.moves_played(position.ply))
        content, _ = boards.board_text(g, position, headline=headline)
        if g.status == "active":
            content += f"\nThread: <#{g.channel_for_posts}>"
        await ephemeral(interaction, content, file=boards.board_file(g, position, png))

    board.autocomplete("game")(game_autocomplete)

    @app_commands.command(name="games", description="Your games in progress and whose turn it is")
    @app_commands.describe(all="Yes: every game in progress in this server, with links to watch them")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction, all: bool = False) -> None:  # noqa: A002 - the option's name
        """/games [all] -- the caller's games in progress, theirs to move first; with
        ``all:true`` every game in progress in this server (issue 9)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        if all:
            await self._server_games(interaction)
            return
        active = await self.manager.active_games(interaction.user.id, interaction.guild_id)
        if not active:
            await ephemeral(interaction, "You have no games in progress. Start one with `/challenge`.")
            return
        uid = interaction.user.id
        mine = [g for g in active if g.to_move_user == uid]
        lines = [f"You are playing {len(active)} game{'s' if len(active) != 1 else ''}; "
                 f"your move in {len(mine)}:"]
        away: dict[int, str] = {}
        for g in sorted(active, key=lambda g: (g.to_move_user != uid, g.deadline or 0, g.id))[:MAX_GAMES_LISTED]:
            opponent = g.opponent_of(uid)
            if opponent not in away:
                away[opponent] = await boards.vacation_note(self.bot, opponent)
            turn = "**your move**" if g.to_move_user == uid else "their move"
            due = f", due <t:{int(g.deadline)}:R>" if g.deadline else ""
            line = (f"• **{texts.game_label(g.kind, g.id)}** vs <@{opponent}> — {turn}{due}, "
                    f"{texts.moves_played(g.ply)} — <#{g.channel_for_posts}>")
            if away[opponent] and g.to_move_user == opponent:
                line += " (on vacation)"
            lines.append(line)
        notes = "".join(f"\n{n}" for n in away.values() if n)[:1000]
        text = texts.fit_lines(lines, limit=2000 - len(notes), hidden=max(0, len(active) - MAX_GAMES_LISTED),
                               more="… and {n} more: pick them with the `game:` suggestions of /board.")
        await ephemeral(interaction, text + notes)

    async def _server_games(self, interaction: discord.Interaction) -> None:
        """The ``/games all:true`` answer: the server's games in progress, the most recently
        moved first, each with its players, whose move, the deadline and its thread -- within
        Discord's 2000 characters."""
        games = await self.manager.server_games(interaction.guild_id)
        if not games:
            await ephemeral(interaction, "No games are in progress in this server. Start one with "
                                         "`/challenge`.")
            return
        lines = [f"{texts.count(len(games), 'game')} in progress in this server — open a thread "
                 f"to watch:"]
        for g in games[:MAX_GAMES_LISTED]:
            due = f", due <t:{int(g.deadline)}:R>" if g.deadline else ""
            lines.append(f"• **{texts.game_label(g.kind, g.id)}** <@{g.players[1]}> vs "
                         f"<@{g.players[2]}> — <@{g.to_move_user}>'s move{due}, "
                         f"{texts.count(g.ply, 'move')} played — <#{g.channel_for_posts}>")
        text = texts.fit_lines(lines, hidden=max(0, len(games) - MAX_GAMES_LISTED),
                               more="… and {n} more, not shown.")
        await ephemeral(interaction, text)

    @app_commands.command(name="history", description="A game's record as a text file, with a replay once it is over")
    @app_commands.describe(game="The game's number")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, game: int) -> None:
        """/history game:<id> -- the text record, plus a GIF replay once over."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        g = await self.manager.resolve_game(interaction.user.id, game_id=game, guild_id=interaction.guild_id)
        names = {seat: await self.bot.display_name(uid, g.guild_id) for seat, uid in g.players.items()}
        record = await self.manager.record_text(g.id, names)
        label = texts.game_label(g.kind, g.id)
        files = [discord.File(io.BytesIO(record.encode()), filename=f"stonecast-{g.id}.txt")]
        text = f"The record of **{label}** ({texts.moves_played(g.ply)})."
        if g.status != "active" and g.ply == 0:
            text += " It ended before the first move, so there is no replay."
        elif g.status != "active":
            moves = [m.move for m in await self.manager.moves(g.id)]
            gif = await self.bot.renderer.render_gif(g.kind, g.options, moves, names)
            files.append(discord.File(io.BytesIO(gif), filename=f"stonecast-{g.id}.gif"))
            text += " The animation replays it move by move."
        await ephemeral(interaction, text, files=files)

    history.autocomplete("game")(game_autocomplete)

    @app_commands.command(name="abort", description="End a game without a result (moderators)")
    @app_commands.describe(game="The game's number")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def abort(self, interaction: discord.Interaction, game: int) -> None:
        """/abort game:<id> -- end a game without result (Manage Server only)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        if not interaction.permissions.manage_guild:
            raise NotAllowed("Only members with the Manage Server permission can abort games.")
        try:
            g = await self.manager.resolve_game(interaction.user.id, game_id=game, guild_id=interaction.guild_id)
        except NotFound:  # a moderator aborts any game here, not only their own
            raise NotFound(f"No game in this server is numbered {game}: pick a game in progress "
                           f"from the suggestions of `game:`.") from None
        g = await self.manager.abort(g.id, interaction.user.id)
        label = texts.game_label(g.kind, g.id)
        try:
            channel = self.bot.get_partial_messageable(g.channel_for_posts, guild_id=g.guild_id)
            players = [g.players[seat] for seat in sorted(g.players)]
            await channel.send(f"**{label}** was aborted by <@{interaction.user.id}>: no result and "
                               f"no rating change.\n" + " ".join(f"<@{uid}>" for uid in players),
                               allowed_mentions=discord.AllowedMentions(
                                   users=[discord.Object(uid) for uid in players], roles=False,
                                   everyone=False))
        except discord.HTTPException:
            log.warning("cannot announce the abort of game %s", g.id, exc_info=True)
        await ephemeral(interaction, f"{label} is aborted.")

    @abort.autocomplete("game")
    async def abort_autocomplete(self, interaction: discord.Interaction, current: str
                                 ) -> list[app_commands.Choice[int]]:
        """Suggest the server's games in progress -- only to members who may abort them."""
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            return []
        pairs = await self.manager.complete_server_game(interaction.guild_id, current,
                                                        name_of=self.bot.cached_name)
        return [app_commands.Choice(name=label[:100], value=gid) for gid, label in pairs]
