"""Tournament refusals: why a tournament command was refused (issue 21).

Part of :mod:`bot.texts`; merged into :data:`bot.texts.errors.REFUSALS` (keyed by the
:class:`~bot.manager.Refusal` name)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..manager.values.tournaments import Tournament

__all__ = ["TOURNAMENT_REFUSALS"]


def _named(t: Tournament) -> str:
    return f"**{t.name}**"


def no_such_tournament(name: str) -> str:
    """An unknown tournament name (or one of another server: the same sentence)."""
    shown = " ".join(str(name).split())[:40]
    return f"This server has no tournament called “{shown}”: pick one from the list."


def not_organiser(tournament: Tournament | None) -> str:
    """Managing a tournament without being its organiser or allowed to organise
    (``None``: creating one)."""
    if tournament is None:
        return ("Creating a tournament takes the Manage Server permission or this server's "
                "organiser role.")
    return (f"Only the organiser of {_named(tournament)}, or a member who may organise "
            "tournaments here, can do that.")


def name_length(most: int) -> str:
    """A tournament name that is empty or too long."""
    return f"A tournament's name is 1 to {most} characters long."


def name_taken(name: str) -> str:
    """A name used by a live tournament of the server."""
    return (f"This server already has a tournament called “{name}” in sign-up or under way: "
            "pick another name.")


def bad_format(formats: tuple[str, ...]) -> str:
    """An unknown format."""
    return "Choose the format from the list: " + ", ".join(f.replace("_", " ") for f in formats) + "."


def bad_field_size(least: int, most: int) -> str:
    """Size limits out of range or the wrong way round."""
    return (f"The number of players runs from {least} to {most}, and the least cannot be more "
            "than the most.")


def bad_rounds(most: int) -> str:
    """A Swiss tournament's rounds out of range."""
    return f"A Swiss tournament has 1 to {most} rounds."


def bad_division(least: int, most: int) -> str:
    """A league's division size or promotion out of range."""
    return (f"A league division holds {least} to {most} players, and fewer than half of them "
            "can go up or down each season.")


def bad_start(most_days: int) -> str:
    """A sign-up end in the past or too far ahead."""
    return f"Sign-up can close from now up to {most_days} days ahead."


def already_entered(tournament: Tournament) -> str:
    """Joining twice."""
    return f"You are already in {_named(tournament)}."


def not_entered(tournament: Tournament) -> str:
    """Leaving, withdrawing or removing someone not in the field."""
    return f"That player is not in {_named(tournament)}."


def signup_closed(tournament: Tournament) -> str:
    """Joining or leaving after the start."""
    return f"Sign-up for {_named(tournament)} is over: it has started or ended."


def tournament_full(tournament: Tournament, most: int) -> str:
    """Joining a full field."""
    return f"{_named(tournament)} is full: it takes {most} players."


def too_few_players(tournament: Tournament, count: int, least: int) -> str:
    """Starting with too few players."""
    return f"{_named(tournament)} has {count} of the {least} players it needs to start."


def not_running(tournament: Tournament) -> str:
    """Withdrawing before the start."""
    return f"{_named(tournament)} is not under way: during sign-up, leave it instead."


def tournament_over(tournament: Tournament) -> str:
    """Managing a finished or cancelled tournament."""
    return f"{_named(tournament)} is over already."


def already_withdrawn(tournament: Tournament) -> str:
    """Withdrawing twice."""
    return f"That player has already left {_named(tournament)}."


def computer_entered(tournament: Tournament) -> str:
    """Entering the computer twice."""
    return f"The computer already plays in {_named(tournament)}."


def bad_games_per_match() -> str:
    """A knockout match of another length."""
    return "A knockout match is 1 or 2 games."


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
