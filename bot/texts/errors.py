"""Refusals and failures: what a player is told when an action is refused or goes wrong.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from babel.numbers import format_decimal

import engine

from ..rules.timecontrol import TimeControlError
from .analysis import ANALYSIS_REFUSALS
from .challenge_refusals import CHALLENGE_REFUSALS
from .clocks import days_with_clock, vacation_amount
from .common import game_label, title
from .computer import LEVEL_WITHOUT_COMPUTER, REVIEW_BUSY
from .engine_errors import conditional_error, engine_error
from .i18n import N_, _, babel_locale, current_locale, ngettext
from .play import move_names_another_game, result_text
from .privacy import privacy_running_games
from .terms import clock_error, clock_name
from .tournament_refusals import TOURNAMENT_REFUSALS
from .turns import position_changed

__all__ = ["ABORT_NOT_ALLOWED", "CHECK_FAILED", "GENERIC_FAILURE", "NOT_A_MEMBER",
           "NOT_YOUR_BUTTON", "NO_PRIVATE_MESSAGE", "NO_SUCH_CHALLENGE", "REFUSALS",
           "UNREADABLE_OPTION", "no_such_game", "not_playing", "refusal_text"]

if TYPE_CHECKING:
    from ..manager.errors import UserError
    from ..manager.values import Game
    from ..rules.conditionals import ConditionalError
    from ..rules.timecontrol import TimeControl

# Not "nothing was changed": the failure may come after a move was committed (its board post,
# say), so the player is sent to look before trying again.
# These constants are English message ids: the front words them with ``_()`` where it sends them.
GENERIC_FAILURE = N_("Something went wrong on my side. Before you try again, check the game's "
                     "thread or /games: what you asked may already have been done.")
NOT_YOUR_BUTTON = N_("This button belongs to someone else's /resign.")
ABORT_NOT_ALLOWED = N_("Only members with the Manage Server permission can abort games.")
NO_PRIVATE_MESSAGE = N_("Stonecast games live in servers: use this command in a server channel.")
CHECK_FAILED = N_("You cannot use this command here.")
NOT_A_MEMBER = N_("That person is not a member of this server: pick a member from the list.")
UNREADABLE_OPTION = N_("I could not read one of the options. Please pick it from the list and try again.")


def no_such_game(game_id: int | str) -> str:
    """The one refusal for a game number that names no game the caller may see where they
    are: unknown, impossible, another server's, or (in a DM with the bot) a game they do not
    play. The same sentence in every case, so it tells nothing about another server's games."""
    return _("No game is numbered {number} in this server: pick one from the suggestions of `game:`.").format(
        number=game_id)


#: The one refusal for a challenge number that names no challenge the caller may see where
#: they are (unknown, another server's, or in a DM one neither sent nor addressed to them).
NO_SUCH_CHALLENGE = N_("That challenge does not exist.")


def not_playing(label: str) -> str:
    """/resign of a game the caller does not play in."""
    return _("You are not playing in {game}.").format(game=label)


# ---- the manager's refusals (issue 20): one wording function per bot.manager.Refusal ----------
#: The full stop of a language that does not end a sentence with ".".
FULL_STOPS = {"ja": "。"}


def _sentence(text: str) -> str:
    """``text`` as one sentence: spaces collapsed, a capital first, a full stop last (for a
    refusal that quotes the engine's or a checker's own message; Japanese: "。")."""
    text = " ".join(str(text).split())
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?。！？" else text + FULL_STOPS.get(current_locale(), ".")


def _label(game: Game) -> str:
    return game_label(game.kind, game.id)


def no_such_announcement(announcement_id: int | None = None) -> str:
    """An announcement number that names none (``None``: not even a number)."""
    if announcement_id is None:
        return _("That announcement does not exist.")
    return _("There is no announcement #{number}.").format(number=announcement_id)


def unknown_kind(kind: object) -> str:
    """A game name that names no game; the games there are follow."""
    names = ", ".join(engine.GAMES) or _("none yet")
    return _("There is no game called {name}. The games are: {games}.").format(name=repr(kind), games=names)


def bad_option(kind: str, error: engine.EngineError) -> str:
    """A game option the engine refused (``error``: its :class:`engine.OptionError`, worded
    from its reason, :func:`bot.texts.engine_error`)."""
    return _sentence(_("Bad option for {game}: {error}").format(game=title(kind), error=engine_error(error, kind)))


def game_over(game: Game) -> str:
    """An action in a finished or aborted game: its result in words, players as mentions."""
    if game.status == "aborted":
        return _("{game} was aborted by a moderator: nothing more can be played in it.").format(game=_label(game))
    try:
        outcome = game.position.outcome
    except engine.EngineError:  # pragma: no cover - a broken cache
        outcome = None
    names = {seat: f"<@{uid}>" for seat, uid in game.players.items()}
    values = {"game": _label(game), "number": game.id}
    if outcome is None:
        return _("{game} is over. Use `/board game:{number}` to see the final position, or `/challenge` "
                 "to start a new game.").format(**values)
    return _("{game} is over: {result} Use `/board game:{number}` to see the final position, or "
             "`/challenge` to start a new game.").format(result=result_text(game.kind, outcome, names), **values)


def choose_game(games: list[Game], waiting: bool) -> str:
    """No game could be picked for the caller: the ``games`` (at most ten named) they could
    mean, ``waiting`` for them or merely in progress."""
    ids = ", ".join(_label(g) for g in games[:10])
    n = len(games)
    if waiting:
        text = ngettext("You have {n} game waiting for you ({games}): choose one with the `game:` option.",
                        "You have {n} games waiting for you ({games}): choose one with the `game:` option.", n)
    else:
        text = ngettext("You have {n} game in progress and none is waiting for you ({games}): choose one "
                        "with the `game:` option.",
                        "You have {n} games in progress and none is waiting for you ({games}): choose one "
                        "with the `game:` option.", n)
    return text.format(n=n, games=ids)


def vacation_short(left_days: float, days: int, most: int) -> str:
    """A vacation of ``days`` longer than the allowance left (``left_days``; ``most``: the
    whole days that can still be asked for)."""
    return ngettext("You have {left} of vacation left this year, not enough for {n} day: ask for {most} "
                    "or fewer.",
                    "You have {left} of vacation left this year, not enough for {n} days: ask for {most} "
                    "or fewer.", days).format(left=vacation_amount(left_days), n=days, most=most)


def bad_clock(error: Exception) -> str:
    """A clock that does not read (``error``: :class:`bot.rules.timecontrol.TimeControlError`,
    worded by :func:`bot.texts.clock_error`; another error is quoted as it is)."""
    reason = clock_error(error) if isinstance(error, TimeControlError) else error
    return _sentence(_("Bad clock: {error}").format(error=reason))


def clock_conflict(days: int, clock: TimeControl) -> str:
    """``days:`` per move given with another ``clock`` (:func:`days_with_clock`)."""
    return days_with_clock(days, clock_name(clock))


def not_playing_in(game: Game) -> str:
    """An action in a game the caller does not play (:func:`not_playing`)."""
    return not_playing(_label(game))


def not_playing_resign(game: Game) -> str:
    """/resign of a game the caller does not play."""
    return _("You are not playing in {game}, so you cannot resign it.").format(game=_label(game))


def not_your_turn(game: Game) -> str:
    """A move while the opponent is to move."""
    return _("It is not your turn in {game}: your opponent is to move.").format(game=_label(game))


def moved_on(game: Game) -> str:
    """The loser of a race between two moves."""
    return _("{game} moved on while you were moving: it is not your turn any more.").format(game=_label(game))


def ended_meanwhile(game: Game) -> str:
    """An abort of a game another process ended a moment before."""
    return _("{game} ended a moment ago.").format(game=_label(game))


def unreadable_move(error: engine.EngineError) -> str:
    """A move the engine cannot read (``error``: its :class:`engine.MoveError`, worded from
    its reason, :func:`bot.texts.engine_error`)."""
    return _sentence(_("Cannot read that move: {error}").format(error=engine_error(error)))


def illegal_move(error: engine.EngineError) -> str:
    """A move the rules forbid (``error``: the engine's :class:`engine.IllegalMove`, worded
    from its reason, :func:`bot.texts.engine_error`)."""
    return _sentence(_("Illegal move: {error}").format(error=engine_error(error)))


def move_for_another_game(chosen: int, game_id: int) -> str:
    """/move whose move was suggested for game ``chosen`` while ``game:`` says ``game_id``."""
    return move_names_another_game(chosen, game_id)


def not_computer_game(game: Game) -> str:
    """A computer's action in a game between people."""
    return _("{game} is not a game against the computer.").format(game=_label(game))


def review_running(game: Game) -> str:
    """/review of a game still in progress."""
    return _("{game} is still being played: it can be reviewed once it is over.").format(game=_label(game))


def review_empty(game: Game) -> str:
    """/review of a game that ended before its first move."""
    return _("{game} ended before its first move: there is nothing to review.").format(game=_label(game))


def bad_line(error: ConditionalError) -> str:
    """A conditional line the checker refused (``error``: its ConditionalError, worded from its
    reason, :func:`bot.texts.conditional_error`)."""
    return _sentence(_("That line cannot be stored: {error}").format(error=conditional_error(error)))


def no_conditionals(game: Game) -> str:
    """/conditional board without any stored line."""
    return _("You have no conditional moves stored in {game}.").format(game=_label(game))


def bad_line_number(lines: int) -> str:
    """A line number outside 1..``lines``."""
    return _("Pick a line from 1 to {lines} (see /conditional list).").format(lines=lines)


def vacation_used_up(allowance: float) -> str:
    """/vacation once the year's ``allowance`` (days) is used."""
    return ngettext("You have used your {allowance} vacation day for this year; the allowance starts again "
                    "on 1 January (UTC).",
                    "You have used your {allowance} vacation days for this year; the allowance starts again "
                    "on 1 January (UTC).", int(allowance) if allowance == int(allowance) else 2
                    ).format(allowance=format_decimal(allowance, locale=babel_locale()))


def games_running(games: list[Game]) -> str:
    """/privacy delete while ``games`` are in progress (:func:`privacy_running_games`)."""
    return privacy_running_games([_label(g) for g in games])


#: Every refusal's wording: the name of a :class:`bot.manager.Refusal` -> a function of the error's values
#: (keyword parameters named as the fields; a test checks that every member has one and
#: that every raise in the manager passes exactly its parameters).
REFUSALS: dict[str, Callable[..., str]] = {
    "NO_SUCH_GAME": no_such_game,
    "NO_SUCH_CHALLENGE": lambda: _(NO_SUCH_CHALLENGE),
    "NO_SUCH_ANNOUNCEMENT": no_such_announcement,
    "NO_SUCH_USER": lambda: _("That user does not exist."),
    "NO_GAMES": lambda: _("You have no games in progress here: start one with /challenge."),
    "CHOOSE_GAME": choose_game,
    "UNKNOWN_KIND": unknown_kind,
    "BAD_OPTION": bad_option,
    "BAD_DAYS_PER_MOVE": lambda: _("Days per move must be a whole number from 1 to 14."),
    "BAD_CLOCK": bad_clock,
    "CLOCK_CONFLICT": clock_conflict,
    "BAD_LEVEL": lambda: _("The computer's level is a whole number from 1 to 5."),
    "LEVEL_WITHOUT_COMPUTER": lambda: _(LEVEL_WITHOUT_COMPUTER),
    "NOT_PLAYING": not_playing_in,
    "NOT_PLAYING_RESIGN": not_playing_resign,
    "GAME_OVER": game_over,
    "NOT_YOUR_TURN": not_your_turn,
    "MOVED_ON": moved_on,
    "POSITION_CHANGED": position_changed,
    "ENDED_MEANWHILE": ended_meanwhile,
    "RESIGN_RACE": lambda: _("The game kept changing while you resigned: please try again."),
    "BAD_MOVE_TEXT": lambda: _("Type a move such as e5 (cells separated by spaces, or pass)."),
    "UNREADABLE_MOVE": unreadable_move,
    "ILLEGAL_MOVE": illegal_move,
    "MOVE_TOO_LONG_TO_CONFIRM": lambda: _("That move is too long to confirm: turn confirmation off with /settings."),
    "MOVE_NAMES_ANOTHER_GAME": move_for_another_game,
    "ABORT_NOT_ALLOWED": lambda: _(ABORT_NOT_ALLOWED),
    "NOT_COMPUTER_GAME": not_computer_game,
    "REVIEW_RUNNING": review_running,
    "REVIEW_EMPTY": review_empty,
    "REVIEW_BUSY": lambda: _(REVIEW_BUSY),
    "BAD_LINE": bad_line,
    "NO_CONDITIONALS": no_conditionals,
    "BAD_LINE_NUMBER": bad_line_number,
    "STALE_LINE": lambda: _("That line no longer fits the game: clear it with /conditional clear."),
    "BAD_VACATION_DAYS": lambda: _("Give the number of vacation days as a whole number, 0 to end a vacation."),
    "NOT_ON_VACATION": lambda: _("You are not on vacation, so there is nothing to end. To pause your clocks, "
                                 "give /vacation a number of days."),
    "VACATION_USED_UP": vacation_used_up,
    "VACATION_SHORT": vacation_short,
    "BAD_DM_MODE": lambda: _("Choose direct messages off, on (one per turn) or digest (one a day)."),
    "BAD_DIGEST_HOUR": lambda: _("The digest hour is a whole hour from 0 to 23 (UTC)."),
    "DIGEST_HOUR_MISSING": lambda: _("Pick the hour (UTC, 0 to 23) of your daily digest with `hour:`."),
    "EMPTY_NAME": lambda: _("A display name cannot be empty."),
    "GAMES_RUNNING": games_running,
    **CHALLENGE_REFUSALS,
    **TOURNAMENT_REFUSALS,
    **ANALYSIS_REFUSALS,
}


def refusal_text(error: UserError) -> str:
    """The sentence telling the player why ``error`` (a :class:`bot.manager.UserError`) refused
    their action: its :class:`~bot.manager.Refusal`'s wording (:data:`REFUSALS`) applied to
    its values."""
    return REFUSALS[error.reason.name](**error.values)
