"""The slash commands' words that are not written as literals in the cogs (issue 22): option
names (Python parameter names), the choices of ``Literal`` options, and the names and
descriptions built from the engine, the clock presets and the computer's levels.

The cogs mark their own names and descriptions with ``locale_str`` (imported as ``_T``), and
discord.py turns every other name, description and choice of a command into a ``locale_str``
(``auto_locale_strings``); the bot's ``app_commands.Translator`` (``bot.front.translator``)
translates each through the catalogs, in the gettext context a ``locale_str`` names (its
``context=`` extra) if any; :func:`command_word` does the same for the texts and the tests. The strings below are those discord.py builds at run time: they are
marked here with :func:`N_` only so that extraction finds them (catalog ``commands.po``).
``tests/test_texts_help_l10n.py`` walks the real command tree and fails on any name,
description or choice missing from a language's catalog (so a changed engine description,
preset or level shows up there), and checks Discord's rules for localised names.

Left in English on purpose (not here): the game subcommands and choices (``coil``, ``Brain
Coral``: game names stay as their designers wrote them), the Coral board shapes ``limping`` and
``hexhex`` (the designer's terms, also typed in /challenge's descriptions) and Whirlwind's
set-ups ``A``/``B``; nor the languages /settings offers, each named in itself (``Deutsch``).

Part of :mod:`bot.texts` (every sentence a player reads).
"""

from __future__ import annotations

from .i18n import N_, _, current_locale, translations
from .languages import LANGUAGE_NAMES

__all__ = ["COMMAND_CONTEXT", "COMMAND_WORDS", "GAME_KIND_CONTEXT", "UNTRANSLATED_COMMAND_WORDS", "command_word",
           "pgettext"]

#: The ``msgctxt`` of a command or option NAME whose English is also a message of the texts
#: ("move", "rated"), given as ``locale_str(..., context=COMMAND_CONTEXT)``: a name must be lower
#: case without spaces, a sentence's word need not be (de ``zug`` / ``Zug``, pt ``ranqueada`` /
#: ``valendo rating``).
COMMAND_CONTEXT = "slash command"
#: The ``msgctxt`` of the option name ``game`` where it picks one of the five games (/rules,
#: /leaderboard, /tournament create: ``locale_str("game", context=GAME_KIND_CONTEXT)``) rather
#: than a game in progress by its number: English says "game" for both, most languages do not
#: (de ``spiel`` / ``partie``, fr ``jeu`` / ``partie``).
GAME_KIND_CONTEXT = "game kind"

#: Option names (lower case, Discord's rules for names apply to their translations too).
OPTION_NAMES = (
    N_("opponent"), N_("size"), N_("first"), N_("days"), N_("rated"), N_("level"), N_("clock"),
    N_("shape"), N_("bonus"), N_("setup"), N_("game"), N_("all"), N_("move"), N_("line"), N_("board"),
    N_("dm"), N_("hour"), N_("confirm"), N_("member"), N_("name"), N_("format"), N_("rounds"),
    N_("games_per_match"), N_("division_size"), N_("promote"), N_("min_players"), N_("max_players"),
    N_("signup_hours"), N_("player"), N_("role"),
    # /analyze and /note (issue 23)
    N_("position"), N_("new"), N_("options"), N_("text"),
)
#: Choices of ``Literal`` options: /challenge ``first:`` (``opponent`` is also an option name,
#: so its translation is lower case), /settings ``dm:`` and ``confirm:``, /notify ``dm:``, and
#: the Coral bonuses.
CHOICES = (
    N_("me"), N_("random"), N_("off"), N_("on"), N_("digest"),
    N_("own"), N_("none"), N_("captures"),
)
#: The clock presets (``bot.rules.timecontrol.PRESETS``' names) and the computer's levels
#: (:func:`bot.texts.level_choice`).
PRESETS = (
    N_("1 day a move"), N_("3 days a move"), N_("7 days a move"), N_("bank 3d + 1d (max 5d)"),
    N_("bank 7d + 1d (max 10d)"), N_("bank 14d + 2d (max 21d)"),
    N_("1 Beginner"), N_("2 Casual"), N_("3 Club"), N_("4 Strong"), N_("5 Strongest"),
)
#: Descriptions built at run time: /challenge's subcommands (the engine's summaries and
#: option descriptions with their defaults), its ``days:`` and ``level:``, /vacation's ``days:``.
DESCRIPTIONS = (
    N_("Coil: Place black stones until someone passes and takes Black; Black then wins by closing a loop."),
    N_("Io: Othello-style captures after a bound-and-free opening; the full board's majority wins."),
    N_("Brain Coral: Place stones so that every empty cell still drains to the edge; biggest group wins."),
    N_("Branching Coral: Brain Coral with breathing room: stones need two empty neighbours or are captured."),
    N_("Whirlwind: Connect your two edges with one or two stones a turn; diagonal links need support."),
    N_("side of the hexagonal board (cells per edge) (default 7)"),
    N_("number of cells along each side of the square board (default 9)"),
    N_("board shape: limping (sides m+1 and m) or hexhex (default limping)"),
    N_("board size: limping 2-10, hexhex 3-11 (default 4)"),
    N_("bonus point per group: own, opponent or none (default own)"),
    N_("bonus: per own group, per opponent group, per captured stone, or none (default own)"),
    N_("board size, even, 8-24 (12-20 recommended) (default 14)"),
    N_("starting pattern: A or B (colours swapped) (default A)"),
    N_("Days for each move, 1 to 14 (default 3)"),
    N_("Against me: my strength (default 3)"),
    N_("How many days, up to your 14 a year (0 ends a running vacation and gives the rest back)"),
)
#: Every command word marked here.
COMMAND_WORDS = OPTION_NAMES + CHOICES + PRESETS + DESCRIPTIONS
#: What the command tree shows as written in every language (the bot's translator and
#: :func:`command_word` leave them alone): the game subcommands' names, the games' titles as
#: choices, the Coral shapes, Whirlwind's set-ups, and /settings' languages, each named in itself.
UNTRANSLATED_COMMAND_WORDS = frozenset({"coil", "io", "braincoral", "branchingcoral", "whirlwind", "Coil", "Io",
                                        "Brain Coral", "Branching Coral", "Whirlwind", "limping", "hexhex",
                                        "A", "B", *LANGUAGE_NAMES.values()})


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language as its catalogs translate it in ``context`` (a
    ``msgctxt``: the same English word meaning another thing), else as :func:`_` does. Beyond
    :mod:`bot.texts.i18n`'s API (which has no contexts); extraction finds it by Babel's
    default ``pgettext`` keyword."""
    word = translations(current_locale()).pgettext(context, message)
    return word if isinstance(word, str) and word != message else _(message)


def command_word(message: str, context: str | None = None) -> str:
    """A command's name, description or choice (``message``, the English of its
    ``locale_str``; ``context``: the ``locale_str``'s ``context`` extra) in the current
    language, as the bot's ``app_commands.Translator`` looks it up; English, anything
    untranslated and the words of :data:`UNTRANSLATED_COMMAND_WORDS` (game names: the
    boards' "coil" is Coil's loop, not the game) are ``message`` itself."""
    if message in UNTRANSLATED_COMMAND_WORDS:
        return message
    return pgettext(context, message) if context else _(message)
