"""Refusals and failures: what a player is told when an action is refused or goes wrong.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import engine

from .analysis import ANALYSIS_REFUSALS
from .challenges import CHALLENGE_NOT_POSTED, REMATCH_NOT_POSTED, already_accepted
from .clocks import days_with_clock, vacation_amount
from .common import count, game_label, title
from .computer import LEVEL_WITHOUT_COMPUTER, REVIEW_BUSY
from .engine_errors import engine_error
from .play import move_names_another_game, result_text
from .privacy import privacy_running_games
from .tournament_refusals import TOURNAMENT_REFUSALS
from .turns import position_changed

__all__ = ["ABORT_NOT_ALLOWED", "CHECK_FAILED", "GENERIC_FAILURE", "NOT_A_MEMBER",
           "NOT_YOUR_BUTTON", "NO_PRIVATE_MESSAGE", "NO_SUCH_CHALLENGE", "REFUSALS",
           "UNREADABLE_OPTION", "no_such_game", "not_playing", "refusal_text"]

if TYPE_CHECKING:
    from ..manager.errors import UserError
    from ..manager.values import Challenge, Game
    from ..rules.timecontrol import TimeControl

# Not "nothing was changed": the failure may come after a move was committed (its board post,
# say), so the player is sent to look before trying again.
GENERIC_FAILURE = ("Something went wrong on my side. Before you try again, check the game's "
                   "thread or /games: what you asked may already have been done.")
NOT_YOUR_BUTTON = "This button belongs to someone else's /resign."
ABORT_NOT_ALLOWED = "Only members with the Manage Server permission can abort games."
NO_PRIVATE_MESSAGE = "Stonecast games live in servers: use this command in a server channel."
CHECK_FAILED = "You cannot use this command here."
NOT_A_MEMBER = "That person is not a member of this server: pick a member from the list."
UNREADABLE_OPTION = "I could not read one of the options. Please pick it from the list and try again."


def no_such_game(game_id: int | str) -> str:
    """The one refusal for a game number that names no game the caller may see where they
    are: unknown, impossible, another server's, or (in a DM with the bot) a game they do not
    play. The same sentence in every case, so it tells nothing about another server's games."""
    return f"No game is numbered {game_id} in this server: pick one from the suggestions of `game:`."


#: The one refusal for a challenge number that names no challenge the caller may see where
#: they are (unknown, another server's, or in a DM one neither sent nor addressed to them).
NO_SUCH_CHALLENGE = "That challenge does not exist."


def not_playing(label: str) -> str:
    """/resign of a game the caller does not play in."""
    return f"You are not playing in {label}."


# ---- the manager's refusals (issue 20): one wording function per bot.manager.Refusal ----------
def _sentence(text: str) -> str:
    """``text`` as one sentence: spaces collapsed, a capital first, a full stop last (for a
    refusal that quotes the engine's or a checker's own message)."""
    text = " ".join(str(text).split())
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def _label(game: Game) -> str:
    return game_label(game.kind, game.id)


def _challenge_label(ch: Challenge) -> str:
    """How a refusal names a challenge, as its players see it (never by its id):
    ``"<@1001>'s Io challenge"``."""
    return f"<@{ch.challenger_id}>'s {title(ch.kind)} challenge"


def no_such_announcement(announcement_id: int | None = None) -> str:
    """An announcement number that names none (``None``: not even a number)."""
    if announcement_id is None:
        return "That announcement does not exist."
    return f"There is no announcement #{announcement_id}."


def unknown_kind(kind: object) -> str:
    """A game name that names no game; the games there are follow."""
    names = ", ".join(engine.GAMES) or "none yet"
    return f"There is no game called {kind!r}. The games are: {names}."


def bad_option(kind: str, error: engine.EngineError) -> str:
    """A game option the engine refused (``error``: its :class:`engine.OptionError`, worded
    from its reason, :func:`bot.texts.engine_error`)."""
    return _sentence(f"Bad option for {title(kind)}: {engine_error(error)}")


def too_many_games_to_accept(count: int, most: int, challenger: bool) -> str:
    """Accepting would give the accepter (or, ``challenger``, the challenger) more than
    ``most`` active games."""
    who = "The challenger is" if challenger else "You are"
    return f"{who} already playing {count} games (the most is {most}): finish some first."


def duplicate_challenge(challenge: Challenge) -> str:
    """The same challenge is open already (``challenge``: the open one, linked)."""
    ch = challenge
    what = (f"You already challenged <@{ch.opponent_id}> to {title(ch.kind)}" if ch.opponent_id is not None
            else f"You already offered a game of {title(ch.kind)} to anyone here")
    where = (f"https://discord.com/channels/{ch.guild_id}/{ch.channel_id}/{ch.message_id}"
             if ch.message_id is not None else f"<#{ch.channel_id}>")
    return (f"{what}, and that challenge is still open: {where} (it lapses "
            f"<t:{int(ch.expires_at)}:R>). Wait for an answer, or press its Cancel button first if "
            f"you want to send one with other settings.")


def not_addressee(declining: bool) -> str:
    """An answer to a challenge addressed to someone else."""
    return f"This challenge is addressed to someone else: only they can {'decline' if declining else 'accept'} it."


def challenge_expired(challenge: Challenge, lasts_hours: float) -> str:
    """An answer to a challenge past its expiry (a challenge lasts ``lasts_hours``)."""
    return (f"{_challenge_label(challenge)} has expired (a challenge lasts {lasts_hours:g} hours): "
            f"send a new one with /challenge.")


def rematch_not_player(game: Game) -> str:
    """Rematch pressed by someone who did not play ``game`` (against the computer: its one
    player)."""
    who = "the player" if game.ai_seat is not None else "the two players"
    return f"Only {who} of {_label(game)} can ask for a rematch."


def rematch_taken(game: Game, rematch_id: int) -> str:
    """The rematch of ``game`` exists already: game number ``rematch_id``."""
    taken = game_label(game.kind, rematch_id)
    if game.ai_seat is not None:
        return (f"The rematch of {_label(game)} was started already: it is {taken}. Press Rematch "
                f"on its final board for another.")
    return (f"The rematch of {_label(game)} was already accepted: it is {taken}. Play on there, or "
            f"press Rematch on its final board for another game.")


def game_over(game: Game) -> str:
    """An action in a finished or aborted game: its result in words, players as mentions."""
    if game.status == "aborted":
        return f"{_label(game)} was aborted by a moderator: nothing more can be played in it."
    try:
        outcome = game.position.outcome
    except engine.EngineError:  # pragma: no cover - a broken cache
        outcome = None
    names = {seat: f"<@{uid}>" for seat, uid in game.players.items()}
    result = f": {result_text(game.kind, outcome, names)}" if outcome is not None else "."
    return (f"{_label(game)} is over{result} Use `/board game:{game.id}` to see the final "
            f"position, or `/challenge` to start a new game.")


def choose_game(games: list[Game], waiting: bool) -> str:
    """No game could be picked for the caller: the ``games`` (at most ten named) they could
    mean, ``waiting`` for them or merely in progress."""
    ids = ", ".join(_label(g) for g in games[:10])
    if waiting:
        return f"You have {len(games)} games waiting for you ({ids}): choose one with the `game:` option."
    return (f"You have {len(games)} games in progress and none is waiting for you ({ids}): "
            "choose one with the `game:` option.")


def vacation_short(left_days: float, days: int, most: int) -> str:
    """A vacation of ``days`` longer than the allowance left (``left_days``; ``most``: the
    whole days that can still be asked for)."""
    return (f"You have {vacation_amount(left_days)} of vacation left this year, not enough for "
            f"{count(days, 'day')}: ask for {most} or fewer.")


def bad_clock(error: Exception) -> str:
    """A clock that does not read (``error``: :class:`bot.rules.timecontrol.TimeControlError`, quoted)."""
    return _sentence(f"Bad clock: {error}")


def clock_conflict(days: int, clock: TimeControl) -> str:
    """``days:`` per move given with another ``clock`` (:func:`days_with_clock`)."""
    return days_with_clock(days, clock.name)


def too_many_challenges(count: int, most: int) -> str:
    """A challenge beyond the ``most`` open ones (``count`` open now)."""
    return f"You already have {count} open challenges (the most is {most}): cancel one or wait for an answer."


def too_many_games(count: int, most: int) -> str:
    """A new game beyond the ``most`` active ones (``count`` now)."""
    return (f"You are already playing {count} games (the most is {most}): finish some before "
            f"starting another.")


def challenge_answered(challenge: Challenge) -> str:
    """An answer to a challenge answered by someone else a moment before."""
    return f"{_challenge_label(challenge)} was answered a moment ago: it is no longer open."


def challenge_closed(challenge: Challenge) -> str:
    """An answer to a challenge no longer open (its status named)."""
    return f"{_challenge_label(challenge)} is no longer open: it was {challenge.status}."


def game_still_running(game: Game) -> str:
    """A rematch of a game still in progress."""
    return f"{_label(game)} is still in progress: finish it first."


def rematch_offered(game: Game, opponent_id: int, channel_id: int) -> str:
    """A second rematch offer by the same player: the first waits in ``channel_id``."""
    return (f"You already offered a rematch of {_label(game)}: it waits for <@{opponent_id}> to "
            f"answer in <#{channel_id}>.")


def rematch_offered_to_you(game: Game, channel_id: int) -> str:
    """A rematch offer while the opponent's waits in ``channel_id``."""
    return (f"Your opponent already offered a rematch of {_label(game)}: accept their challenge in "
            f"<#{channel_id}>.")


def not_playing_in(game: Game) -> str:
    """An action in a game the caller does not play (:func:`not_playing`)."""
    return not_playing(_label(game))


def not_playing_resign(game: Game) -> str:
    """/resign of a game the caller does not play."""
    return f"You are not playing in {_label(game)}, so you cannot resign it."


def not_your_turn(game: Game) -> str:
    """A move while the opponent is to move."""
    return f"It is not your turn in {_label(game)}: your opponent is to move."


def moved_on(game: Game) -> str:
    """The loser of a race between two moves."""
    return f"{_label(game)} moved on while you were moving: it is not your turn any more."


def ended_meanwhile(game: Game) -> str:
    """An abort of a game another process ended a moment before."""
    return f"{_label(game)} ended a moment ago."


def unreadable_move(error: engine.EngineError) -> str:
    """A move the engine cannot read (``error``: its :class:`engine.MoveError`, worded from
    its reason, :func:`bot.texts.engine_error`)."""
    return _sentence(f"Cannot read that move: {engine_error(error)}")


def illegal_move(error: engine.EngineError) -> str:
    """A move the rules forbid (``error``: the engine's :class:`engine.IllegalMove`, worded
    from its reason, :func:`bot.texts.engine_error`)."""
    return _sentence(f"Illegal move: {engine_error(error)}")


def move_for_another_game(chosen: int, game_id: int) -> str:
    """/move whose move was suggested for game ``chosen`` while ``game:`` says ``game_id``."""
    return move_names_another_game(chosen, game_id)


def not_computer_game(game: Game) -> str:
    """A computer's action in a game between people."""
    return f"{_label(game)} is not a game against the computer."


def review_running(game: Game) -> str:
    """/review of a game still in progress."""
    return f"{_label(game)} is still being played: it can be reviewed once it is over."


def review_empty(game: Game) -> str:
    """/review of a game that ended before its first move."""
    return f"{_label(game)} ended before its first move: there is nothing to review."


def bad_line(error: Exception) -> str:
    """A conditional line the checker refused (``error``: its ConditionalError, quoted)."""
    return _sentence(f"That line cannot be stored: {error}")


def no_conditionals(game: Game) -> str:
    """/conditional board without any stored line."""
    return f"You have no conditional moves stored in {_label(game)}."


def bad_line_number(lines: int) -> str:
    """A line number outside 1..``lines``."""
    return f"Pick a line from 1 to {lines} (see /conditional list)."


def vacation_used_up(allowance: float) -> str:
    """/vacation once the year's ``allowance`` (days) is used."""
    return (f"You have used your {allowance:g} vacation days for this year; the allowance starts "
            f"again on 1 January (UTC).")


def games_running(games: list[Game]) -> str:
    """/privacy delete while ``games`` are in progress (:func:`privacy_running_games`)."""
    return privacy_running_games([_label(g) for g in games])


#: Every refusal's wording: the name of a :class:`bot.manager.Refusal` -> a function of the error's values
#: (keyword parameters named as the fields; a test checks that every member has one and
#: that every raise in the manager passes exactly its parameters).
REFUSALS: dict[str, Callable[..., str]] = {
    "NO_SUCH_GAME": no_such_game,
    "NO_SUCH_CHALLENGE": lambda: NO_SUCH_CHALLENGE,
    "NO_SUCH_ANNOUNCEMENT": no_such_announcement,
    "NO_SUCH_USER": lambda: "That user does not exist.",
    "NO_GAMES": lambda: "You have no games in progress here: start one with /challenge.",
    "CHOOSE_GAME": choose_game,
    "UNKNOWN_KIND": unknown_kind,
    "BAD_OPTION": bad_option,
    "BAD_FIRST": lambda: "Choose who moves first: challenger, opponent or random.",
    "BAD_DAYS_PER_MOVE": lambda: "Days per move must be a whole number from 1 to 14.",
    "BAD_CLOCK": bad_clock,
    "CLOCK_CONFLICT": clock_conflict,
    "BAD_LEVEL": lambda: "The computer's level is a whole number from 1 to 5.",
    "LEVEL_WITHOUT_COMPUTER": lambda: LEVEL_WITHOUT_COMPUTER,
    "SELF_CHALLENGE": lambda: ("You cannot challenge yourself: pick another member, or leave "
                                     "the opponent out for an open challenge."),
    "BOT_OPPONENT": lambda: ("Bots other than Stonecast cannot play: challenge a member "
                                   "instead, or Stonecast itself to play the computer."),
    "COMPUTER_SELF": lambda: "The computer cannot play itself.",
    "TOO_MANY_CHALLENGES": too_many_challenges,
    "TOO_MANY_GAMES": too_many_games,
    "TOO_MANY_GAMES_TO_ACCEPT": too_many_games_to_accept,
    "DUPLICATE_CHALLENGE": duplicate_challenge,
    "OWN_CHALLENGE_ACCEPT": lambda: (
        "This is your own challenge: wait for an answer, or press Cancel to withdraw it."),
    "OWN_CHALLENGE_DECLINE": lambda: "This is your own challenge: press Cancel to withdraw it.",
    "NOT_ADDRESSEE": not_addressee,
    "OPEN_CHALLENGE_DECLINE": lambda: (
        "An open challenge cannot be declined: leave it and it expires by itself."),
    "NOT_CHALLENGER": lambda: "Only the player who sent this challenge can cancel it.",
    "CHALLENGE_ANSWERED": challenge_answered,
    "CHALLENGE_CLOSED": challenge_closed,
    "CHALLENGE_EXPIRED": challenge_expired,
    "CHALLENGE_NOT_POSTED": lambda: CHALLENGE_NOT_POSTED,
    "ALREADY_ACCEPTED": already_accepted,
    "REMATCH_NOT_PLAYER": rematch_not_player,
    "GAME_STILL_RUNNING": game_still_running,
    "REMATCH_TAKEN": rematch_taken,
    "REMATCH_OFFERED": rematch_offered,
    "REMATCH_OFFERED_TO_YOU": rematch_offered_to_you,
    "REMATCH_NOT_POSTED": lambda: REMATCH_NOT_POSTED,
    "NOT_PLAYING": not_playing_in,
    "NOT_PLAYING_RESIGN": not_playing_resign,
    "GAME_OVER": game_over,
    "NOT_YOUR_TURN": not_your_turn,
    "MOVED_ON": moved_on,
    "POSITION_CHANGED": position_changed,
    "ENDED_MEANWHILE": ended_meanwhile,
    "RESIGN_RACE": lambda: "The game kept changing while you resigned: please try again.",
    "BAD_MOVE_TEXT": lambda: "Type a move such as e5 (cells separated by spaces, or pass).",
    "UNREADABLE_MOVE": unreadable_move,
    "ILLEGAL_MOVE": illegal_move,
    "MOVE_TOO_LONG_TO_CONFIRM": lambda: (
        "That move is too long to confirm: turn confirmation off with /settings."),
    "MOVE_NAMES_ANOTHER_GAME": move_for_another_game,
    "ABORT_NOT_ALLOWED": lambda: ABORT_NOT_ALLOWED,
    "NOT_COMPUTER_GAME": not_computer_game,
    "REVIEW_RUNNING": review_running,
    "REVIEW_EMPTY": review_empty,
    "REVIEW_BUSY": lambda: REVIEW_BUSY,
    "BAD_LINE": bad_line,
    "NO_CONDITIONALS": no_conditionals,
    "BAD_LINE_NUMBER": bad_line_number,
    "STALE_LINE": lambda: "That line no longer fits the game: clear it with /conditional clear.",
    "BAD_VACATION_DAYS": lambda: (
        "Give the number of vacation days as a whole number, 0 to end a vacation."),
    "NOT_ON_VACATION": lambda: (
        "You are not on vacation, so there is nothing to end. To pause your clocks, give "
        "/vacation a number of days."),
    "VACATION_USED_UP": vacation_used_up,
    "VACATION_SHORT": vacation_short,
    "BAD_DM_MODE": lambda: "Choose direct messages off, on (one per turn) or digest (one a day).",
    "BAD_DIGEST_HOUR": lambda: "The digest hour is a whole hour from 0 to 23 (UTC).",
    "DIGEST_HOUR_MISSING": lambda: "Pick the hour (UTC, 0 to 23) of your daily digest with `hour:`.",
    "EMPTY_NAME": lambda: "A display name cannot be empty.",
    "GAMES_RUNNING": games_running,
    **TOURNAMENT_REFUSALS,
    **ANALYSIS_REFUSALS,
}


def refusal_text(error: UserError) -> str:
    """The sentence telling the player why ``error`` (a :class:`bot.manager.UserError`) refused
    their action: its :class:`~bot.manager.Refusal`'s wording (:data:`REFUSALS`) applied to
    its values."""
    return REFUSALS[error.reason.name](**error.values)
