"""Commands in the user's language (issue 22): discord.py's ``app_commands.Translator`` over the
texts layer's catalogs.

The cogs mark every command, subcommand, option and choice name and description with
``app_commands.locale_str`` (its English text is the message id; ``extras={"context": ...}``
gives a gettext context, for a name that is also a word elsewhere). :class:`CommandTranslator`
is installed in ``setup_hook`` (``tree.set_translator``); when the commands are synced,
discord.py asks it for every string in each of Discord's locales, and it answers with the
catalog's translation (:func:`localise`) or ``None`` (Discord then shows the English):

* for a locale no catalog serves (``en-US``, ``ko``, ...) or a message not translated;
* for the words that stay as they are written in every language
  (:data:`bot.texts.commands.UNTRANSLATED_COMMAND_WORDS`: the game subcommands ``coil`` ...,
  the games' titles, the Coral shapes, Whirlwind's set-ups), even where a catalog has the
  same English as a word of its own (the boards' "coil", Coil's loop: de "Spirale");
* for a translated NAME that Discord would refuse (:func:`name_problem`: lower-case,
  1..32 characters of ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]$``) or a description or
  choice name over 100 characters (:func:`text_problem`) -- logged, and
  ``tests/test_texts_commands_l10n.py`` fails on it.
"""

from __future__ import annotations

import logging
import unicodedata
import weakref

import discord
from babel.support import NullTranslations
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.texts import i18n
from bot.texts.commands import UNTRANSLATED_COMMAND_WORDS

log = logging.getLogger("stonecast.bot")

#: Where a string is a NAME (Discord's name rule applies).
NAME_LOCATIONS = frozenset({Where.command_name, Where.group_name, Where.parameter_name})
NAME_LENGTH = 32
TEXT_LENGTH = 100  # a description, a choice name


def _deva_or_thai(c: str) -> bool:
    return "\u0900" <= c <= "\u097f" or "\ua8e0" <= c <= "\ua8ff" or "\u0e00" <= c <= "\u0e7f"


def name_problem(name: str) -> str | None:
    """Why Discord would refuse ``name`` as a command's or option's name (or its
    localisation), ``None`` if it would not: 1..32 characters, each a letter, a digit, ``-``,
    ``_``, or of the Devanagari or Thai script, and every letter that has a lower-case variant
    written in it (Discord: ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``)."""
    if not 1 <= len(name) <= NAME_LENGTH:
        return f"{len(name)} characters, not 1 to {NAME_LENGTH}"
    for c in name:
        if not (c in "-_" or unicodedata.category(c)[0] in "LN" or _deva_or_thai(c)):
            return f"{c!r} is not a letter, a digit, '-' or '_'"
        if c.lower() != c:
            return f"{c!r} is not lower-case"
    return None


def text_problem(text: str) -> str | None:
    """Why Discord would refuse ``text`` as a description or a choice name (1..100
    characters), ``None`` if it would not."""
    if not 1 <= len(text) <= TEXT_LENGTH:
        return f"{len(text)} characters, not 1 to {TEXT_LENGTH}"
    return None


def localise(message: str, locale: object, location: Where, context: str | None = None) -> str | None:
    """``message`` (English, a message id) in ``locale``'s language for the place
    ``location`` of a command, or ``None`` when Discord should show the English (see the
    module docstring). ``context``: the message's gettext context, if any."""
    language = i18n.language_of(locale)
    if language == i18n.DEFAULT or message in UNTRANSLATED_COMMAND_WORDS:
        return None
    catalog = i18n.translations(language)
    remembered = _MEMO.setdefault(catalog, {})
    key = (message, location, context)
    if key not in remembered:
        remembered[key] = _localised(catalog, language, message, location, context)
    return remembered[key]


#: Each catalog's translations already worked out (:func:`localise`): every command sync asks
#: again for each word in each of Discord's locales, and a catalog does not change once read.
_MEMO: weakref.WeakKeyDictionary[object, dict[tuple[str, Where, str | None], str | None]] = (
    weakref.WeakKeyDictionary())


def _localised(catalog: NullTranslations, language: str, message: str, location: Where,
               context: str | None) -> str | None:
    """:func:`localise` from ``catalog``, ``language``'s."""
    text = str(catalog.pgettext(context, message) if context else catalog.gettext(message))
    if text == message:
        return None
    problem = name_problem(text) if location in NAME_LOCATIONS else text_problem(text)
    if problem is not None:
        log.warning("the %s translation of %r for %s is not used: %s", language, message,
                    location.name, problem)
        return None
    return text


class CommandTranslator(app_commands.Translator):
    """Translates the commands' names, descriptions and choices through the catalogs
    (:func:`localise`)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        """``string`` in ``locale``'s language, or None (Discord shows the English)."""
        extra = string.extras.get("context")
        return localise(string.message, locale, context.location, extra if isinstance(extra, str) else None)
