"""Game threads: each game's public thread, started on its challenge message when it is
accepted (:meth:`GameThreads.open_thread`), or later for a game whose process died before
recording it (:meth:`GameThreads.ensure_thread`). Split from :mod:`bot.front.announcer`,
which posts there."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Final

import discord

from bot import texts
from bot.texts import i18n

if TYPE_CHECKING:
    from bot.front.languages import Languages
    from bot.manager import Accepted, Game, GameManager
    from bot.manager.values.tournaments import TournamentLabel

log = logging.getLogger("stonecast.bot")

# Discord's error code for "A thread has already been created for this message".
THREAD_ALREADY_CREATED = 160004
# Minutes of inactivity before a game's thread is archived (Discord's longest: a week).
THREAD_ARCHIVE_MINUTES: Final = 10080


class GameThreads:
    """Starts and recovers games' threads over the Discord connection ``client``, recording
    them with ``manager``; ``names(game)`` gives seat -> the name the game shows for its
    player (:meth:`bot.front.client.StonecastBot.player_names`), for the thread's name;
    ``languages``: the thread's name and opening post speak the server's language (issue 22;
    :meth:`ensure_thread` is called in it already, by the announcer)."""

    def __init__(self, client: discord.Client, manager: GameManager,
                 names: Callable[[Game], Awaitable[dict[int, str]]], languages: Languages):
        self.client = client
        self.manager = manager
        self.names = names
        self.languages = languages

    async def thread_name(self, game: Game, label: TournamentLabel | None = None) -> str:
        """The name of ``game``'s thread, with its players' display names (and, for a
        tournament's game, ``label``'s tournament and round first: issue 21)."""
        names = await self.names(game)
        if label is not None:
            return texts.tournament_thread_name(label, game, names[1], names[2])
        return texts.thread_name(game, names[1], names[2])

    async def open_channel_thread(self, game: Game, label: TournamentLabel) -> int | None:
        """A public thread for ``game`` started in its channel without a message (a
        tournament's games have no challenge message), or the one made for it before (a
        thread of that name, found among the channel's threads: a pass that died after making
        it); ``None`` where threads cannot be made (the boards then go to the channel).
        Raises discord.HTTPException for failures other than 400/403/404."""
        name = await self.thread_name(game, label)
        channel = self.client.get_channel(game.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        earlier = next((t for t in channel.threads if t.name == name), None)
        if earlier is not None:
            return earlier.id
        try:
            thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.HTTPException as e:
            if e.status not in (400, 403, 404):
                raise
            log.info("no thread for game %s (%s); posting in the channel", game.id, e)
            return None
        return thread.id

    async def open_thread(self, accepted: Accepted, message: discord.Message | None) -> Accepted:
        """Start the new game's public thread on the challenge ``message`` (``None``: not
        possible here, e.g. the challenge was made inside a thread) and record it with the
        manager -- recorded even when there is none (the channel then), so the delivery pass
        does not make one later. Returns ``accepted`` with the game as now stored. Raises the
        manager's errors."""
        game = accepted.game
        thread_id = None
        if message is not None:
            try:
                with i18n.speaking(await self.languages.of_game(game)):
                    name = await self.thread_name(game)
                thread = await message.create_thread(name=name,
                                                     auto_archive_duration=THREAD_ARCHIVE_MINUTES)
                thread_id = thread.id
            except (discord.HTTPException, ValueError):
                log.info("no thread for game %s in channel %s; posting in the channel", game.id,
                         game.channel_id)
        return replace(accepted, game=await self.manager.set_game_thread(game.id, thread_id))

    async def open_computer_thread(self, accepted: Accepted) -> Accepted:
        """A new game against the computer has no challenge message: post the message that
        opens it in the channel (no ping), remember it as the challenge's message, and start
        the game's thread on it (:meth:`open_thread`; the channel if the post fails)."""
        game = accepted.game
        message = None
        try:
            channel = self.client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
            level = game.ai_level
            assert level is not None and game.ai_seat is not None  # a computer game has both
            with i18n.speaking(await self.languages.of_game(game)):
                content = texts.computer_started(texts.game_label(game.kind, game.id), level,
                                                 game.players[3 - game.ai_seat])
            message = await channel.send(content, allowed_mentions=discord.AllowedMentions.none())
            await self.manager.set_challenge_message(accepted.challenge.id, message.id)
        except discord.HTTPException:
            log.info("cannot post the opening of game %s in channel %s", game.id, game.channel_id)
        return await self.open_thread(accepted, message)

    async def ensure_thread(self, game: Game) -> Game:
        """The game, with its thread made or found when it is still wanted
        (:attr:`~bot.manager.Game.thread_wanted`: the process that accepted it died before
        recording it); else the game unchanged.

        A tournament's game (issue 21) gets a thread of its own in its channel
        (:meth:`open_channel_thread`), named with the tournament and round. Another game's
        thread is started on the challenge message, as :meth:`open_thread` does; when
        Discord answers that one was started there already (code 160004), that thread -- whose
        id is the message's -- is the game's. Where no thread can be made (the message is
        unknown or gone, threads are not allowed there: 400, 403, 404) the game's boards go to
        the channel. The challenge message, whose buttons the dead handler left, then says
        where the game is (best effort). Raises discord.HTTPException for other failures (5xx:
        tried again with the announcement), ValueError when the bot does not know the server
        (likewise)."""
        if not game.thread_wanted:
            return game
        label = await self.manager.game_tournament(game.id)
        if label is not None:  # a tournament's game: a thread of its own in the channel
            threaded: Game = await self.manager.set_game_thread(game.id, await self.open_channel_thread(game, label))
            return threaded
        challenge = await self.manager.get_challenge(game.challenge_id) if game.challenge_id else None
        message = None
        if challenge is not None and challenge.message_id is not None:
            message = self.client.get_partial_messageable(
                challenge.channel_id, guild_id=challenge.guild_id).get_partial_message(challenge.message_id)
        thread_id = None
        if message is not None:
            assert challenge is not None  # the message is the challenge's
            try:
                thread_id = (await message.create_thread(name=await self.thread_name(game),
                                                         auto_archive_duration=THREAD_ARCHIVE_MINUTES)).id
            except discord.HTTPException as e:
                if e.code == THREAD_ALREADY_CREATED:
                    thread_id = challenge.message_id
                elif e.status not in (400, 403, 404):
                    raise
                else:
                    log.info("no thread for game %s (%s); posting in the channel", game.id, e)
        game = await self.manager.set_game_thread(game.id, thread_id)
        log.info("game %s recovered its thread: %s", game.id, thread_id or "none, the channel")
        if message is not None:
            assert challenge is not None  # the message is the challenge's
            try:
                await message.edit(content=texts.accepted_text(challenge, game), view=None,
                                   allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                log.info("could not mark accepted challenge %s", challenge.id)
        return game
