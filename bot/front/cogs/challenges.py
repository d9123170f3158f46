"""/challenge and the buttons of a challenge message (Accept, Decline, Cancel) and of a final
board (Rematch).

Each handler defers first (the database and the renderer may take longer than Discord's
three seconds), makes its manager call, and turns the answer into messages. The challenge is
posted as a new message in the channel, mentioning only the opponent; replies to the person
acting are ephemeral.
"""

from __future__ import annotations

import inspect
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

import ai
import engine
from bot import texts
from bot.front.replies import ephemeral, report_error
from bot.front.views import challenge_view
from bot.manager import DEFAULT_DAYS_PER_MOVE, Challenge, Refusal, StaleAction, UserError
from bot.rules import timecontrol
from bot.texts import i18n
from bot.texts.commands import COMMAND_CONTEXT

if TYPE_CHECKING:
    from bot.front.client import StonecastBot
    from bot.manager import Game, GameManager

log = logging.getLogger("stonecast.bot")

# /challenge first: value shown to players -> the manager's term
FIRST = {"me": "challenger", "opponent": "opponent", "random": "random"}
DEFAULT_LEVEL = 3  # the computer's level when none is chosen
# the clock: presets by name; the value is the stored form, shorter (Discord counts every
# character of a command, and /challenge has five subcommands)
CLOCK_CHOICES = [app_commands.Choice(name=tc.name, value=tc.to_text()) for tc in timecontrol.PRESETS.values()]
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


def challenge_command(cog: ChallengesCog, kind: engine.GameKind) -> app_commands.Command[Any, ..., Any]:
    """``/challenge <kind>``: opponent, the game's options (from ``kind.options``), first,
    days per move and rated.

    The callback's signature is generated from the engine's option specs, so discord.py
    builds typed options with choices and min/max from them (their descriptions through
    ``app_commands.describe``); every subcommand calls :meth:`ChallengesCog.challenge`.
    """
    names = [spec.name for spec in kind.options]

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        """The subcommand's callback: collect the options, call ChallengesCog.challenge."""
        options = {name: values[name] for name in names if values.get(name) is not None}
        await cog.challenge(interaction, kind.key, values.get("opponent"), options,
                            first=values.get("first"), days=values.get("days"),
                            rated=values.get("rated"), level=values.get("level"),
                            clock=values["clock"].value if values.get("clock") is not None else None)

    kw = inspect.Parameter.KEYWORD_ONLY
    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=discord.Interaction),
              inspect.Parameter("opponent", kw, annotation=discord.Member | None, default=None)]
    descriptions: dict[str, str | _T] = {"opponent": _T("Who you play; none: anyone here may accept")}
    for spec in kind.options:
        params.append(inspect.Parameter(spec.name, kw, annotation=option_annotation(spec) | None,
                                        default=None))
        descriptions[spec.name] = fitted(f"{spec.description} (default {spec.default})", spec.description)
    params += [
        inspect.Parameter("first", kw, annotation=Literal["me", "opponent", "random"] | None, default=None),
        inspect.Parameter("days", kw, annotation=app_commands.Range[int, 1, 14] | None, default=None),
        inspect.Parameter("rated", kw, annotation=bool | None, default=None),
        inspect.Parameter("level", kw, annotation=int | None, default=None),
        inspect.Parameter("clock", kw, annotation=app_commands.Choice[str] | None, default=None),
    ]
    descriptions["clock"] = _T("Per-move time or a bank of days")
    # (Discord counts every character of a command, choices too: /challenge is near 4,000)
    descriptions["first"] = _T("Who moves first (default: drawn at random)")
    descriptions["days"] = f"Days for each move, 1 to 14 (default {DEFAULT_DAYS_PER_MOVE})"
    descriptions["rated"] = _T("Whether the game changes ratings (default yes)")
    descriptions["level"] = f"Against me: my strength (default {DEFAULT_LEVEL})"
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]  # discord.py reads the options from it
    callback = app_commands.choices(level=level_choices())(callback)
    callback = app_commands.rename(rated=_T("rated", context=COMMAND_CONTEXT))(callback)
    summary = getattr(kind, "summary", "") or ""
    description = fitted(f"{kind.title}: {summary}", summary) if summary else f"Challenge someone to {kind.title}"
    return app_commands.Command(name=kind.key, description=description,
                                callback=app_commands.choices(clock=CLOCK_CHOICES)(
                                    app_commands.describe(**descriptions)(callback)))


def level_choices() -> list[app_commands.Choice[int]]:
    """The computer's levels for ``level:`` (``ai.LEVELS``), each named by the first words of
    its description (:func:`bot.texts.level_choice`: "3 Club"): the whole descriptions, on every one of /challenge's five
    subcommands, would pass Discord's 4,000 characters for a command (/help has them whole).

    Each name is the English message id (``locale_str``, worded in English whatever language
    is current when the cogs are built), translated per Discord locale by the bot's
    translator from ``commands.po`` (:data:`bot.texts.commands.PRESETS`)."""
    with i18n.speaking(i18n.DEFAULT):
        return [app_commands.Choice(name=_T(texts.level_choice(n)), value=n) for n in ai.LEVELS]


def fitted(*candidates: str) -> str:
    """The first of ``candidates`` (longest first) within Discord's 100 characters for a
    description, so none is cut mid-word; ValueError if none fits."""
    for text in candidates:
        if 1 <= len(text) <= DESCRIPTION_LIMIT:
            return text
    raise ValueError(f"no description fits in {DESCRIPTION_LIMIT} characters: {candidates!r}")


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
    assert interaction.channel_id is not None  # a command's interaction has a channel
    return interaction.channel_id


async def post_challenge(bot: StonecastBot, c: Challenge) -> discord.Message:
    """Post challenge ``c`` in its channel with its buttons; pings only the opponent."""
    mentions = (discord.AllowedMentions.none() if c.opponent_id is None
                else discord.AllowedMentions(users=[discord.Object(c.opponent_id)]))
    channel = bot.get_partial_messageable(c.channel_id, guild_id=c.guild_id)
    with i18n.speaking(await bot.languages.of_guild(c.guild_id)):  # a public post: the server's language
        content, view = texts.challenge_text(c), challenge_view(c.id, open_challenge=c.opponent_id is None)
    message = await channel.send(content, allowed_mentions=mentions, view=view)
    await bot.manager.set_challenge_message(c.id, message.id)
    return message


class ChallengesCog(commands.Cog, name="Challenges"):
    """/challenge <game> and the challenge and rematch buttons (:mod:`bot.front.views` routes
    their presses here)."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot
        self.challenge_group = app_commands.Group(
            name=_T("challenge"), description=_T("Challenge a member of this server to a game"),
            guild_only=True)
        for kind in engine.GAMES.values():  # in menu order
            self.challenge_group.add_command(challenge_command(self, kind))

    @property
    def manager(self) -> GameManager:
        """The bot's game manager."""
        return self.bot.manager

    async def cog_load(self) -> None:
        """Register the /challenge group with the command tree; handle the challenge and
        Rematch buttons (:class:`bot.front.views.ButtonRoutes`)."""
        self.bot.tree.add_command(self.challenge_group)
        self.bot.buttons.challenges = self

    async def cog_unload(self) -> None:
        """Remove the /challenge group from the command tree, and the buttons' route."""
        self.bot.tree.remove_command(self.challenge_group.name)
        self.bot.buttons.challenges = None

    async def challenge(self, interaction: discord.Interaction, kind: str,
                        opponent: discord.Member | None, options: dict[str, Any], *, first: str | None = None,
                        days: int | None = None, rated: bool | None = None,
                        level: int | None = None, clock: str | None = None) -> None:
        """Create a challenge and post it with Accept / Decline / Cancel buttons; against the
        bot itself, start the game against the computer at once (:meth:`play_computer`)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        self.bot.remember(interaction.user)
        if opponent is not None:
            self.bot.remember(opponent)
        if opponent is not None and self.bot.user is not None and opponent.id == self.bot.user.id:
            await self.play_computer(interaction, kind, options, first=first, days=days,
                                     level=level or DEFAULT_LEVEL, clock=clock)
            return
        if level is not None:
            raise UserError(Refusal.LEVEL_WITHOUT_COMPUTER)
        c = await self.manager.create_challenge(
            guild_id=interaction.guild_id, channel_id=challenge_channel(interaction),
            challenger_id=interaction.user.id, opponent_id=opponent.id if opponent else None,
            kind=kind, options=options, first=FIRST[first or "random"],
            rated=True if rated is None else rated,
            days_per_move=days, clock=clock,
            opponent_is_bot=bool(opponent and opponent.bot))
        try:
            await post_challenge(self.bot, c)
        except discord.HTTPException:
            log.warning("cannot post challenge %s in channel %s", c.id, c.channel_id, exc_info=True)
            await self.manager.cancel_challenge(c.id, interaction.user.id)
            raise UserError(Refusal.CHALLENGE_NOT_POSTED) from None
        elsewhere = c.channel_id if c.channel_id != interaction.channel_id else None
        await ephemeral(interaction, texts.challenge_sent(opponent.id if opponent else None, elsewhere))

    async def play_computer(self, interaction: discord.Interaction, kind: str, options: dict[str, Any], *,
                            first: str | None, days: int | None, level: int,
                            clock: str | None = None) -> None:
        """The caller plays the computer: the game starts at once (one manager call), opened
        by a message in the channel with its thread, its first board posted; the computer's
        first move is queued when it moves first. Always unrated."""
        assert self.bot.user is not None  # logged in
        accepted = await self.manager.start_computer_game(
            guild_id=interaction.guild_id, channel_id=challenge_channel(interaction),
            challenger_id=interaction.user.id, computer_id=self.bot.user.id, kind=kind,
            options=options, first=FIRST[first or "random"], level=level,
            days_per_move=days, clock=clock)
        accepted = await self.bot.announcer.threads.open_computer_thread(accepted)
        note = await self.bot.announcer.publish(accepted)
        await ephemeral(interaction, texts.computer_game_sent(accepted.game) + note)

    async def on_challenge_button(self, interaction: discord.Interaction, action: str,
                                  challenge_id: int) -> None:
        """Accept, Decline or Cancel pressed on challenge ``challenge_id``."""
        try:
            await interaction.response.defer()
            # another server's challenge (or, in a DM, someone else's) is not there at all
            await self.manager.visible_challenge(interaction.user.id, challenge_id,
                                                 guild_id=interaction.guild_id)
            self.bot.remember(interaction.user)
            if action == "accept":
                await self._accept(interaction, challenge_id)
                return
            if action == "decline":
                ended = await self.manager.decline_challenge(challenge_id, interaction.user.id)
                word = texts.declined
            else:
                ended = await self.manager.cancel_challenge(challenge_id, interaction.user.id)
                word = texts.withdrawn
            with i18n.speaking(await self.bot.languages.of_guild(interaction.guild_id)):  # the public message
                content = word(ended)
            await interaction.edit_original_response(
                content=content, view=None,
                allowed_mentions=discord.AllowedMentions.none())
        except StaleAction as e:
            try:
                c, game = await self.manager.challenge_and_game(challenge_id)
            except UserError:
                await report_error(interaction, e)
                return
            await report_error(interaction, self._already_yours(interaction, c, game) or e)
            await self._retire_buttons(interaction, c, game)
        except Exception as e:  # noqa: BLE001 - every failure becomes a reply
            await report_error(interaction, e)

    @staticmethod
    def _already_yours(interaction: discord.Interaction, c: Challenge, game: Game | None) -> UserError | None:
        """For a second press of Accept by the player who accepted: where their game is."""
        if game is None or c.opponent_id != interaction.user.id:
            return None
        return UserError(Refusal.ALREADY_ACCEPTED, game=game)

    async def _retire_buttons(self, interaction: discord.Interaction, c: Challenge, game: Game | None) -> None:
        """A stale challenge message still had buttons: replace them by the challenge's state
        (for an accepted one, the same text the acceptance wrote, so a late tidy-up after a
        race never hides where the game is)."""
        lapsed = c.status == "open" and self.manager.clock() >= c.expires_at  # before the sweep
        if (c.status == "open" and not lapsed) or c.message_id != getattr(interaction.message, "id", None):
            return
        with i18n.speaking(await self.bot.languages.of_guild(c.guild_id)):  # the public message
            state = {status: i18n._(text) for status, text in texts.CHALLENGE_STATES.items()}
            if lapsed:
                state["open"] = state["expired"]
            if game is not None:
                content = texts.accepted_text(c, game)
            else:
                content = texts.challenge_ended(c, state.get(c.status, c.status.capitalize() + "."))
        try:
            await interaction.edit_original_response(
                content=content, view=None, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.info("could not tidy stale challenge %s", c.id, exc_info=True)

    async def _accept(self, interaction: discord.Interaction, challenge_id: int) -> None:
        """Accept: the game (one manager call), its thread on the challenge message (none
        when the challenge was made inside a thread), its first board."""
        accepted = await self.manager.accept(challenge_id, interaction.user.id)
        in_thread = isinstance(interaction.channel, discord.Thread)
        accepted = await self.bot.announcer.threads.open_thread(accepted, None if in_thread else interaction.message)
        note = await self.bot.announcer.publish(accepted)
        with i18n.speaking(await self.bot.languages.of_game(accepted.game)):  # the public message
            content = texts.accepted_text(accepted.challenge, accepted.game)
        await interaction.edit_original_response(
            content=content + note, view=None,
            allowed_mentions=discord.AllowedMentions.none())

    async def on_rematch_button(self, interaction: discord.Interaction, game_id: int) -> None:
        """Rematch pressed on a final board: challenge the other player, seats swapped."""
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert self.bot.user is not None  # logged in
            c = await self.manager.offer_rematch(game_id, interaction.user.id, self.bot.user.id,
                                                 guild_id=interaction.guild_id)
            if not isinstance(c, Challenge):  # against the computer: the game has started
                accepted = await self.bot.announcer.threads.open_computer_thread(c)
                note = await self.bot.announcer.publish(accepted)
                await ephemeral(interaction, texts.computer_game_sent(accepted.game) + note)
                return
            try:
                await post_challenge(self.bot, c)
            except discord.HTTPException:
                await self.manager.cancel_challenge(c.id, interaction.user.id)
                raise UserError(Refusal.REMATCH_NOT_POSTED) from None
            await ephemeral(interaction, texts.rematch_offered(c))
        except Exception as e:  # noqa: BLE001
            await report_error(interaction, e)


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.front.cogs.challenges")``)."""
    await bot.add_cog(ChallengesCog(bot))
