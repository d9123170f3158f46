"""Who reads what (issue 22): the language of each reply, DM and public post.

* A person acting (a command, an autocomplete, a button) reads the answer in their language:
  the one they chose with ``/settings language:``, else the locale their Discord client sends
  (``interaction.locale``). :class:`LocalisedTree` (every command, autocomplete and the error
  handler) and :class:`LocalisedItem` (every persistent button) set it first in the
  interaction's task (:func:`bot.texts.i18n.speak_for_task`): no handler sets it itself.
* A DM sent in the background (your-turn DM, digest) is in the player's chosen language, else
  the locale last seen from them (stored when it changes, not at every interaction).
* A public post (boards, challenges, results, reminders, tournament posts) is in the server's
  language: the one a moderator chose with ``/settings server-language:``, else the
  ``guild_locale`` last seen; a game without a server (none yet) speaks its first player's.
* Anything unsupported is English (:func:`bot.texts.i18n.language_of`).

The choices are read from the database at most once a minute per person or server
(:data:`CHOICE_TTL`; a change made here is seen at once, one made by another process within
the minute). A failed read or write is logged and the Discord locale used.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.texts import i18n

if TYPE_CHECKING:
    from bot.manager import Game, GameManager

log = logging.getLogger("stonecast.bot")

#: Seconds a language choice read from the database is trusted before it is read again.
CHOICE_TTL = 60.0
#: Cached people and servers kept at most (the least recently read go first).
CACHE_SIZE = 50_000

_Entry = tuple[float, str | None, str | None]  # read at (monotonic), chosen, Discord locale stored


def locale_value(locale: object) -> str | None:
    """The text of a Discord locale (``discord.Locale.german`` -> ``"de"``), None for none."""
    value = getattr(locale, "value", locale)
    return value if isinstance(value, str) and value else None


class Languages:
    """The languages of people and servers, for one bot process. ``manager``: a callable
    returning the open :class:`~bot.manager.GameManager` (read when needed: the bot opens it
    in ``setup_hook``); ``clock``: monotonic seconds (tests)."""

    def __init__(self, manager: Callable[[], GameManager], clock: Callable[[], float] = time.monotonic):
        self._manager = manager
        self._clock = clock
        self._users: dict[int, _Entry] = {}
        self._guilds: dict[int, _Entry] = {}

    @staticmethod
    async def load_catalogs() -> None:
        """Read every language's catalog now, off the event loop (at start-up): reading a
        language's ``.po`` files takes 0.1-0.3 s, which no interaction should wait for."""
        await asyncio.to_thread(lambda: [i18n.translations(language) for language in i18n.SUPPORTED])

    # ---- reading ----------------------------------------------------------------------------
    async def _entry(self, table: dict[int, _Entry], key: int, *, guild: bool) -> tuple[str | None, str | None]:
        cached = table.get(key)
        if cached is not None and self._clock() - cached[0] < CHOICE_TTL:
            return cached[1], cached[2]
        try:
            manager = self._manager()
            if guild:
                chosen, seen = await manager.server_language(key)
            else:
                chosen, seen = (await manager.languages([key])).get(key, (None, None))
        except Exception:  # noqa: BLE001 - a language is a nicety: Discord's locale will do
            log.warning("could not read the language of %s %s", "server" if guild else "user", key, exc_info=True)
            return (cached[1], cached[2]) if cached is not None else (None, None)
        self._put(table, key, (self._clock(), chosen, seen))
        return chosen, seen

    @staticmethod
    def _put(table: dict[int, _Entry], key: int, entry: _Entry) -> None:
        table.pop(key, None)
        table[key] = entry
        if len(table) > CACHE_SIZE:
            del table[next(iter(table))]

    async def of_user(self, user_id: int) -> str:
        """The language (a member of :data:`bot.texts.i18n.SUPPORTED`) of ``user_id``'s DMs
        when they are not interacting: chosen, else the locale last seen, else English."""
        chosen, seen = await self._entry(self._users, user_id, guild=False)
        return i18n.language_of(chosen or seen)

    async def of_guild(self, guild_id: int | None) -> str:
        """The language of ``guild_id``'s public posts: chosen, else its guild locale last
        seen, else English (also for ``None``)."""
        if guild_id is None:
            return i18n.DEFAULT
        chosen, seen = await self._entry(self._guilds, guild_id, guild=True)
        return i18n.language_of(chosen or seen)

    async def of_game(self, game: Game) -> str:
        """The language of ``game``'s public posts: its server's (:meth:`of_guild`); a game
        without a server speaks its first human player's (:meth:`of_user`)."""
        if game.guild_id is not None:
            return await self.of_guild(game.guild_id)
        humans = [uid for seat, uid in sorted(game.players.items()) if seat != game.ai_seat]
        return await self.of_user(humans[0]) if humans else i18n.DEFAULT

    async def chosen(self, user_id: int, guild_id: int | None) -> tuple[str | None, str | None]:
        """(The language ``user_id`` chose, the one ``guild_id``'s moderators chose): ``None``
        where Discord's locale is followed (for /settings' answer)."""
        user = (await self._entry(self._users, user_id, guild=False))[0]
        server = None if guild_id is None else (await self._entry(self._guilds, guild_id, guild=True))[0]
        return user, server

    async def of_interaction(self, interaction: discord.Interaction[Any]) -> str:
        """The language of the person acting in ``interaction`` (chosen, else
        ``interaction.locale``); notes their locale and the server's ``guild_locale`` when
        they changed since last stored (one write per change, not per interaction)."""
        uid = interaction.user.id
        chosen, seen = await self._entry(self._users, uid, guild=False)
        locale = locale_value(interaction.locale)
        if locale is not None and locale != seen:
            await self._note(self._users, uid, locale, guild=False)
        guild_locale = locale_value(interaction.guild_locale) if interaction.guild_id else None
        if guild_locale is not None and interaction.guild_id is not None:
            g_chosen, g_seen = await self._entry(self._guilds, interaction.guild_id, guild=True)
            if guild_locale != g_seen:
                await self._note(self._guilds, interaction.guild_id, guild_locale, guild=True)
        return i18n.language_of(chosen or locale)

    async def speak_to(self, interaction: discord.Interaction[Any]) -> str:
        """Speak the language of the person acting (:meth:`of_interaction`) for the rest of
        the interaction's task (:func:`bot.texts.i18n.speak_for_task`); returns it."""
        try:
            language = await self.of_interaction(interaction)
        except Exception:  # noqa: BLE001 - never lose an interaction over its language
            log.warning("could not find the language of interaction %s", interaction.id, exc_info=True)
            language = i18n.language_of(interaction.locale)
        return i18n.speak_for_task(language)

    # ---- writing ----------------------------------------------------------------------------
    async def _note(self, table: dict[int, _Entry], key: int, locale: str, *, guild: bool) -> None:
        cached = table.get(key)
        try:
            manager = self._manager()
            if guild:
                await manager.note_guild_locale(key, locale)
            else:
                await manager.note_locale(key, locale)
        except Exception:  # noqa: BLE001 - tried again at the next interaction
            log.warning("could not store the locale of %s %s", "server" if guild else "user", key, exc_info=True)
            return
        self._put(table, key, (cached[0] if cached else self._clock(), cached[1] if cached else None, locale))

    def forget(self, user_id: int) -> None:
        """Drop what this process holds of ``user_id``'s language (their data was deleted,
        issue 18): read again, from nothing, when they next interact."""
        self._users.pop(user_id, None)

    async def choose(self, user_id: int, language: str | None) -> None:
        """Store ``user_id``'s chosen language (``None``: Discord's); seen at once here."""
        await self._manager().set_language(user_id, language)
        self._users.pop(user_id, None)

    async def choose_for_server(self, guild_id: int, language: str | None) -> None:
        """Store ``guild_id``'s chosen language (``None``: its guild locale)."""
        await self._manager().set_server_language(guild_id, language)
        self._guilds.pop(guild_id, None)


def languages_of(interaction: discord.Interaction[Any]) -> Languages:
    """The bot's :class:`Languages` (``interaction.client.languages``)."""
    languages: Languages = interaction.client.languages
    return languages


class LocalisedTree(app_commands.CommandTree[Any]):
    """The bot's command tree: every command, autocomplete and error message of a command is
    worded in the language of the person acting (:meth:`Languages.speak_to`, first in the
    interaction's task; discord.py's error handler runs in the same task)."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Set the interaction's language; let every interaction through."""
        await languages_of(interaction).speak_to(interaction)
        return True


class LocalisedItem(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                    template=r"stonecast:localised-base-never"):
    """The base of every persistent button: its press is handled in the language of the
    person pressing (set in :meth:`interaction_check`, which discord.py runs first in the
    press's task; a subclass with checks of its own calls ``super().interaction_check``
    first)."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Set the press's language; let it through."""
        await languages_of(interaction).speak_to(interaction)
        return True
