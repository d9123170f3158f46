"""Tournament refusals: why a tournament command was refused (issue 21).

Part of :mod:`bot.texts`; merged into :data:`bot.texts.errors.REFUSALS` (keyed by the
:class:`~bot.manager.Refusal` name)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .i18n import _

if TYPE_CHECKING:
    from ..manager.values.tournaments import Tournament

__all__ = ["TOURNAMENT_REFUSALS"]


def _named(t: Tournament) -> str:
    return f"**{t.name}**"


def no_such_tournament(name: str) -> str:
    """An unknown tournament name (or one of another server: the same sentence)."""
    shown = " ".join(str(name).split())[:40]
    return _("This server has no tournament called “{name}”: pick one from the list.").format(name=shown)


def not_organiser(tournament: Tournament | None) -> str:
    """Managing a tournament without being its organiser or allowed to organise
    (``None``: creating one)."""
    if tournament is None:
        return _("Creating a tournament takes the Manage Server permission or this server's organiser role.")
    return _("Only the organiser of {tournament}, or a member who may organise tournaments here, can do "
             "that.").format(tournament=_named(tournament))


def name_length(most: int) -> str:
    """A tournament name that is empty or too long."""
    return _("A tournament's name is 1 to {most} characters long.").format(most=most)


def name_taken(name: str) -> str:
    """A name used by a live tournament of the server."""
    return _("This server already has a tournament called “{name}” in sign-up or under way: pick another "
             "name.").format(name=name)


def bad_format(formats: tuple[str, ...]) -> str:
    """An unknown format."""
    return _("Choose the format from the list: {formats}.").format(
        formats=", ".join(f.replace("_", " ") for f in formats))


def bad_field_size(least: int, most: int) -> str:
    """Size limits out of range or the wrong way round."""
    return _("The number of players runs from {least} to {most}, and the least cannot be more than the "
             "most.").format(least=least, most=most)


def bad_rounds(most: int) -> str:
    """A Swiss tournament's rounds out of range."""
    return _("A Swiss tournament has 1 to {most} rounds.").format(most=most)


def bad_division(least: int, most: int) -> str:
    """A league's division size or promotion out of range."""
    return _("A league division holds {least} to {most} players, and fewer than half of them can go up or "
             "down each season.").format(least=least, most=most)


def bad_start(most_days: int) -> str:
    """A sign-up end in the past or too far ahead."""
    return _("Sign-up can close from now up to {days} days ahead.").format(days=most_days)


def already_entered(tournament: Tournament) -> str:
    """Joining twice."""
    return _("You are already in {tournament}.").format(tournament=_named(tournament))


def not_entered(tournament: Tournament) -> str:
    """Leaving, withdrawing or removing someone not in the field."""
    return _("That player is not in {tournament}.").format(tournament=_named(tournament))


def signup_closed(tournament: Tournament) -> str:
    """Joining or leaving after the start."""
    return _("Sign-up for {tournament} is over: it has started or ended.").format(tournament=_named(tournament))


def tournament_full(tournament: Tournament, most: int) -> str:
    """Joining a full field."""
    return _("{tournament} is full: it takes {most} players.").format(tournament=_named(tournament), most=most)


def too_few_players(tournament: Tournament, count: int, least: int) -> str:
    """Starting with too few players."""
    return _("{tournament} has {count} of the {least} players it needs to start.").format(
        tournament=_named(tournament), count=count, least=least)


def not_running(tournament: Tournament) -> str:
    """Withdrawing before the start."""
    return _("{tournament} is not under way: during sign-up, leave it instead.").format(tournament=_named(tournament))


def tournament_over(tournament: Tournament) -> str:
    """Managing a finished or cancelled tournament."""
    return _("{tournament} is over already.").format(tournament=_named(tournament))


def already_withdrawn(tournament: Tournament) -> str:
    """Withdrawing twice."""
    return _("That player has already left {tournament}.").format(tournament=_named(tournament))


def computer_entered(tournament: Tournament) -> str:
    """Entering the computer twice."""
    return _("The computer already plays in {tournament}.").format(tournament=_named(tournament))


def bad_games_per_match() -> str:
    """A knockout match of another length."""
    return _("A knockout match is 1 or 2 games.")


TOURNAMENT_REFUSALS: dict[str, Callable[..., str]] = {
    "NO_SUCH_TOURNAMENT": no_such_tournament,
    "NOT_ORGANISER": not_organiser,
    "TOURNAMENT_NAME_LENGTH": name_length,
    "TOURNAMENT_NAME_TAKEN": name_taken,
    "BAD_FORMAT": bad_format,
    "BAD_FIELD_SIZE": bad_field_size,
    "BAD_ROUNDS": bad_rounds,
    "BAD_GAMES_PER_MATCH": bad_games_per_match,
    "BAD_DIVISION": bad_division,
    "BAD_START": bad_start,
    "ALREADY_ENTERED": already_entered,
    "NOT_ENTERED": not_entered,
    "SIGNUP_CLOSED": signup_closed,
    "TOURNAMENT_FULL": tournament_full,
    "TOO_FEW_PLAYERS": too_few_players,
    "TOURNAMENT_NOT_RUNNING": not_running,
    "TOURNAMENT_OVER": tournament_over,
    "ALREADY_WITHDRAWN": already_withdrawn,
    "COMPUTER_ENTERED": computer_entered,
}
