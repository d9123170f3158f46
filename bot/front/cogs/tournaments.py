"""/tournament (issue 21): create, join, leave, list, info, standings, mine, start, remove,
cancel, withdraw, add-computer and role; the Join button of an announcement.

Each handler defers privately, makes one call of the tournaments service
(:class:`bot.manager.tournaments.TournamentsService`) and answers in words of
:mod:`bot.texts`; a refusal (:class:`bot.manager.UserError`) becomes a private message
(:func:`bot.front.replies.report_error`). What the service queued for everyone (the
announcement, a round's pairings, standings) is posted by :class:`bot.front.tourneyposts.TournamentPosts`
(:attr:`TournamentsCog.posts`), at once after the command and by the maintenance loop after
that; a round's games get their threads and first boards from the games' delivery pass.

Who may organise (create, start, remove, cancel, add the computer) is the front's to say:
Manage Server, or the server's organiser role (``/tournament role``, Manage Server only);
the service also lets a tournament's own organiser manage it. The ``name:`` option suggests
this server's tournaments only, and names are looked up within the server only.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from bot import texts
from bot.front.boards import attachment
from bot.front.cogs.challenges import CLOCK_CHOICES, level_choices
from bot.front.cogs.common import GAME_CHOICES
from bot.front.replies import ephemeral, report_error
from bot.front.tourneyposts import IMAGE_ROWS, TournamentPosts, clock_name
from bot.manager import Refusal, StaleAction, UserError
from bot.manager.values.tournaments import FORMATS
from bot.texts.commands import COMMAND_CONTEXT, GAME_KIND_CONTEXT
from bot.texts.i18n import _

if TYPE_CHECKING:
    from bot.front.client import StonecastBot
    from bot.manager import GameManager

log = logging.getLogger("stonecast.bot")

FORMAT_CHOICES = [app_commands.Choice(name=texts.TOURNAMENT_FORMATS[f], value=f) for f in FORMATS]
SIZE = app_commands.Range[int, 2, 24]
PLAYERS = app_commands.Range[int, 2, 256]


def may_organise(interaction: discord.Interaction[Any], role_id: int | None) -> bool:
    """Whether the caller has Manage Server, or the server's organiser role ``role_id``."""
    member = interaction.user
    if not isinstance(member, discord.Member):
        return False
    if member.guild_permissions.manage_guild:
        return True
    return role_id is not None and any(r.id == role_id for r in member.roles)


@app_commands.guild_only()
class TournamentsCog(commands.GroupCog, name="Tournaments", group_name=_T("tournament"),
                     group_description=_T("Tournaments and leagues in this server")):
    """/tournament and the Join button (:mod:`bot.front.views` routes its presses here)."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot
        self.posts = TournamentPosts(bot)
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def manager(self) -> GameManager:
        """The bot's game manager."""
        return self.bot.manager

    async def cog_load(self) -> None:
        """Handle the Join button (:class:`bot.front.views.ButtonRoutes`)."""
        self.bot.buttons.tournaments = self

    async def cog_unload(self) -> None:
        """Leave the buttons' routes; wait for posts under way."""
        self.bot.buttons.tournaments = None
        for task in tuple(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        """Every refusal privately, worded by texts (the tree's handler does the same)."""
        await report_error(interaction, error)

    # ------------------------------------------------------------------ helpers

    async def _start(self, interaction: discord.Interaction[Any]) -> int:
        """Defer privately; the server's id. Raises NoPrivateMessage in a DM (Discord offers
        /tournament only in servers; a forged interaction gets the same answer)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        self.bot.remember(interaction.user)
        return interaction.guild_id

    async def _organiser(self, interaction: discord.Interaction[Any], guild_id: int) -> bool:
        return may_organise(interaction, await self.manager.organiser_role(guild_id))

    def post_soon(self, *, games: bool = False) -> None:
        """Post what the outbox holds now, in the background (the games' first boards first
        when ``games``, so the pairings link their threads); the maintenance loop posts
        whatever this misses."""
        async def run() -> None:
            try:
                if games:
                    await self.bot.announcer.outbox.deliver(board_grace=0.0)
                await self.posts.deliver()
            except Exception:  # noqa: BLE001 - the maintenance loop tries again
                log.exception("posting tournament news failed")

        self._background(run())

    @commands.Cog.listener()
    async def on_game_over(self, game_id: int) -> None:
        """A game ended (the announcer's ``game_over`` event): advance its tournament, if it
        is in one, at once -- the next round starts as soon as the last game of a round ends
        -- and post what that queued (in the background; the maintenance loop does it too)."""
        async def run() -> None:
            try:
                changed = await self.manager.advance(game_id=game_id)
                if changed:
                    await self.bot.announcer.outbox.deliver(board_grace=0.0)
                    await self.posts.deliver()
            except Exception:  # noqa: BLE001 - the maintenance loop tries again
                log.exception("advancing the tournament of game %s failed", game_id)

        self._background(run())

    def _background(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def name_autocomplete(self, interaction: discord.Interaction[Any], current: str
                                ) -> list[app_commands.Choice[str]]:
        """This server's tournaments whose name contains what is typed (none in a DM)."""
        if interaction.guild_id is None:
            return []
        try:
            found = await self.manager.complete_tournament(interaction.guild_id, current, limit=25)
        except Exception:  # noqa: BLE001
            log.exception("tournament autocomplete failed")
            return []
        return [app_commands.Choice(name=f"{t.name} ({texts.tournament_state(t.status)})"[:100],
                                    value=f"#{t.id}") for t in found[:25]]

    # ------------------------------------------------------------------ commands

    @app_commands.command(name=_T("create"), description=_T("Open a tournament for sign-up (organisers)"))
    @app_commands.describe(
        name=_T("Its name (up to 32 characters)"), game=_T("The game played"), format=_T("How players meet"),
        size=_T("Board size (the game's own default when left out)"), shape=_T("Coral board shape"),
        bonus=_T("Coral bonus rule"), setup=_T("Whirlwind starting pattern"), clock=_T("Per-move time or a bank"),
        days=_T("Days for each move, 1 to 14"), rated=_T("Whether games change ratings (default yes)"),
        rounds=_T("Swiss: the rounds"), games_per_match=_T("Knockout: games per match, 1 or 2"),
        division_size=_T("League: players per division"), promote=_T("League: players up and down each season"),
        min_players=_T("Fewest players to start"), max_players=_T("Most players"),
        signup_hours=_T("Hours until sign-up closes and play starts (none: start by hand)"))
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, clock=CLOCK_CHOICES)
    @app_commands.rename(game=_T("game", context=GAME_KIND_CONTEXT), rated=_T("rated", context=COMMAND_CONTEXT))
    async def create(self, interaction: discord.Interaction, name: str, game: app_commands.Choice[str],
                     format: app_commands.Choice[str], size: SIZE | None = None,
                     shape: str | None = None, bonus: str | None = None, setup: str | None = None,
                     clock: app_commands.Choice[str] | None = None,
                     days: app_commands.Range[int, 1, 14] | None = None, rated: bool = True,
                     rounds: app_commands.Range[int, 1, 20] | None = None,
                     games_per_match: app_commands.Range[int, 1, 2] = 1,
                     division_size: app_commands.Range[int, 3, 16] = 8,
                     promote: app_commands.Range[int, 1, 7] = 2, min_players: PLAYERS = 2,
                     max_players: PLAYERS = 16,
                     signup_hours: app_commands.Range[int, 1, 1440] | None = None) -> None:
        """Create a tournament in this channel (its announcement follows there)."""
        guild_id = await self._start(interaction)
        options = {k: v for k, v in (("size", size), ("shape", shape), ("bonus", bonus), ("setup", setup))
                   if v is not None}
        starts_at = None if signup_hours is None else self.manager.clock() + signup_hours * 3600.0
        assert interaction.channel_id is not None  # a command's interaction has a channel
        t = await self.manager.create_tournament(
            guild_id=guild_id, channel_id=interaction.channel_id, organiser_id=interaction.user.id,
            may_organise=await self._organiser(interaction, guild_id), name=name, kind=game.value,
            options=options, clock=clock.value if clock else None, days_per_move=days, rated=rated,
            format=format.value, rounds=rounds, games_per_match=games_per_match,
            division_size=division_size, promote=promote, min_players=min_players,
            max_players=max_players, starts_at=starts_at)
        self.post_soon()
        await ephemeral(interaction, texts.tournament_created(t, t.channel_id))

    @app_commands.command(name=_T("join"), description=_T("Enter a tournament during sign-up"))
    @app_commands.describe(name=_T("The tournament"))
    @app_commands.autocomplete(name=name_autocomplete)
    async def join(self, interaction: discord.Interaction, name: str) -> None:
        """Join during sign-up."""
        guild_id = await self._start(interaction)
        info = await self.manager.join_tournament(name, interaction.user.id, guild_id=guild_id)
        await ephemeral(interaction, texts.tournament_joined(info.tournament))

    @app_commands.command(name=_T("leave"), description=_T("Leave a tournament during sign-up"))
    @app_commands.describe(name=_T("The tournament"))
    @app_commands.autocomplete(name=name_autocomplete)
    async def leave(self, interaction: discord.Interaction, name: str) -> None:
        """Leave during sign-up."""
        guild_id = await self._start(interaction)
        info = await self.manager.leave_tournament(name, interaction.user.id, guild_id=guild_id)
        await ephemeral(interaction, texts.tournament_left(info.tournament))

    @app_commands.command(name=_T("list"), description=_T("This server's tournaments"))
    async def list(self, interaction: discord.Interaction) -> None:
        """The server's tournaments, live ones first."""
        guild_id = await self._start(interaction)
        found = await self.manager.tournaments(guild_id)
        await ephemeral(interaction, texts.tournament_list([texts.tournament_list_line(t, clock_name(t.clock))
                                                            for t in found]))

    @app_commands.command(name=_T("info"), description=_T("A tournament's terms and players"))
    @app_commands.describe(name=_T("The tournament"))
    @app_commands.autocomplete(name=name_autocomplete)
    async def info(self, interaction: discord.Interaction, name: str) -> None:
        """The terms, the state and the field."""
        guild_id = await self._start(interaction)
        info = await self.manager.tournament_info(name, guild_id=guild_id)
        await ephemeral(interaction, texts.tournament_info_text(info, clock_name(info.tournament.clock)))

    @app_commands.command(name=_T("standings"), description=_T("A tournament's standings, with a picture"))
    @app_commands.describe(name=_T("The tournament"))
    @app_commands.autocomplete(name=name_autocomplete)
    async def standings(self, interaction: discord.Interaction, name: str) -> None:
        """The standings as text and picture."""
        guild_id = await self._start(interaction)
        view = await self.manager.tournament_standings(name, guild_id=guild_id)
        kwargs: dict[str, Any] = {}
        if view.rows:
            png = await self.posts.standings_png(view)
            kwargs["file"] = attachment(png, f"standings-{view.tournament.id}.png",
                                        texts.standings_alt(view, min(len(view.rows), IMAGE_ROWS)))
        await ephemeral(interaction, texts.standings_text(view), **kwargs)

    @app_commands.command(name=_T("mine"), description=_T("Your games in a tournament"))
    @app_commands.describe(name=_T("The tournament"))
    @app_commands.autocomplete(name=name_autocomplete)
    async def mine(self, interaction: discord.Interaction, name: str) -> None:
        """The caller's pairings and games."""
        guild_id = await self._start(interaction)
        t = await self.manager.get_tournament(name, guild_id=guild_id)
        games = await self.manager.my_tournament_games(t.id, interaction.user.id, guild_id=guild_id)
        await ephemeral(interaction, texts.tournament_games_text(t, interaction.user.id, games))

    @app_commands.command(name=_T("start"), description=_T("Start a tournament now (organisers)"))
    @app_commands.describe(name=_T("The tournament"))
    @app_commands.autocomplete(name=name_autocomplete)
    async def start(self, interaction: discord.Interaction, name: str) -> None:
        """Seed the field and start round 1."""
        guild_id = await self._start(interaction)
        started = await self.manager.start_tournament(name, interaction.user.id, guild_id=guild_id,
                                                      may_organise=await self._organiser(interaction, guild_id))
        self.post_soon(games=True)
        await ephemeral(interaction, texts.tournament_started(started.tournament, len(started.games)))

    @app_commands.command(name=_T("remove"), description=_T("Take a player out of a tournament (organisers)"))
    @app_commands.describe(name=_T("The tournament"), player=_T("Who leaves it"))
    @app_commands.autocomplete(name=name_autocomplete)
    async def remove(self, interaction: discord.Interaction, name: str, player: discord.Member) -> None:
        """Remove a player (withdrawn while it runs)."""
        guild_id = await self._start(interaction)
        info = await self.manager.remove_entrant(name, interaction.user.id, player.id, guild_id=guild_id,
                                                 may_organise=await self._organiser(interaction, guild_id))
        self.post_soon(games=True)
        await ephemeral(interaction, texts.tournament_removed(info.tournament, player.id))

    @app_commands.command(name=_T("cancel"), description=_T("Cancel a tournament (organisers)"))
    @app_commands.describe(name=_T("The tournament"))
    @app_commands.autocomplete(name=name_autocomplete)
    async def cancel(self, interaction: discord.Interaction, name: str) -> None:
        """Cancel it; running games play on."""
        guild_id = await self._start(interaction)
        t = await self.manager.cancel_tournament(name, interaction.user.id, guild_id=guild_id,
                                                 may_organise=await self._organiser(interaction, guild_id))
        self.post_soon()
        await ephemeral(interaction, texts.tournament_cancelled(t))

    @app_commands.command(name=_T("withdraw"), description=_T("Leave a tournament under way"))
    @app_commands.describe(name=_T("The tournament"))
    @app_commands.autocomplete(name=name_autocomplete)
    async def withdraw(self, interaction: discord.Interaction, name: str) -> None:
        """Withdraw: finished games stand, the running one is forfeited."""
        guild_id = await self._start(interaction)
        w = await self.manager.withdraw(name, interaction.user.id, guild_id=guild_id)
        self.post_soon(games=True)
        await ephemeral(interaction, texts.tournament_withdrew(w))

    @app_commands.command(name=_T("add-computer"), description=_T("Enter the computer (organisers)"))
    @app_commands.describe(name=_T("The tournament"), level=_T("Its strength"))
    @app_commands.autocomplete(name=name_autocomplete)
    @app_commands.choices(level=level_choices())
    async def add_computer(self, interaction: discord.Interaction, name: str, level: int = 3) -> None:
        """Enter the computer at a level."""
        guild_id = await self._start(interaction)
        assert self.bot.user is not None  # logged in
        info = await self.manager.enter_computer(name, interaction.user.id, guild_id=guild_id,
                                                 may_organise=await self._organiser(interaction, guild_id),
                                                 computer_id=self.bot.user.id, level=level)
        await ephemeral(interaction, texts.tournament_computer_added(info.tournament, level))

    @app_commands.command(name=_T("role"), description=_T("Who may organise tournaments here (Manage Server)"))
    @app_commands.describe(role=_T("The organiser role; leave out to clear it"))
    @app_commands.default_permissions(manage_guild=True)
    async def role(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        """Set or clear the server's organiser role (Manage Server only: Discord shows the
        command to those members by default, and a server may change that, so it is checked
        here too)."""
        guild_id = await self._start(interaction)
        if not may_organise(interaction, None):
            await ephemeral(interaction, _(texts.ORGANISER_ROLE_NEEDS_MANAGE))
            return
        await self.manager.set_organiser_role(guild_id, role.id if role else None)
        await ephemeral(interaction, texts.organiser_role_set(role.id) if role else _(texts.ORGANISER_ROLE_CLEARED))

    # ------------------------------------------------------------------ the Join button

    async def may_see_tournament(self, interaction: discord.Interaction[Any], tournament_id: int) -> bool:
        """Whether tournament ``tournament_id`` is this server's; else the presser is told
        there is no such tournament (privately) and nothing happens."""
        try:
            if interaction.guild_id is None:
                raise UserError(Refusal.NO_SUCH_TOURNAMENT, name=f"#{tournament_id}")
            await self.manager.get_tournament(f"#{tournament_id}", guild_id=interaction.guild_id)
        except Exception as e:  # noqa: BLE001 - every failure becomes a reply
            await report_error(interaction, e)
            return False
        return True

    async def on_join_button(self, interaction: discord.Interaction[Any], tournament_id: int) -> None:
        """Join pressed: enter the presser; after sign-up, refuse and take the button off."""
        try:
            guild_id = await self._start(interaction)
            info = await self.manager.join_tournament(f"#{tournament_id}", interaction.user.id, guild_id=guild_id)
            await ephemeral(interaction, texts.tournament_joined(info.tournament))
        except StaleAction as e:
            await report_error(interaction, e)
            if interaction.message is not None:
                try:
                    await interaction.message.edit(view=None)
                except discord.HTTPException:
                    log.info("could not take the Join button off tournament %s's announcement", tournament_id)
        except Exception as e:  # noqa: BLE001 - every failure becomes a reply
            await report_error(interaction, e)


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.front.cogs.tournaments")``)."""
    await bot.add_cog(TournamentsCog(bot))
