"""Refusals and failures: what a player is told when an action is refused or goes wrong.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

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
