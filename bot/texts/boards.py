"""Board posts: their headlines (what just happened), the line asking the player to move,
what a move did, rating changes, the your-turn DM, reminders and vacation notes.

Part of :mod:`bot.texts` (every sentence a player reads); :mod:`bot.front.boards` assembles the
posts from these pieces and the manager's values."""

from __future__ import annotations

from .common import count

__all__ = ["ABORTED_NO_RESULT", "GAME_OVER", "back_from_vacation", "colour_name",
           "deadline_moved", "due_at", "game_begins", "move_played", "post_head", "rating_change",
           "ratings_line", "reminder", "removing", "seat_line", "stones_at", "takes_colour",
           "turn_dm", "turning_over", "vacation_note", "your_move"]

#: The second line of a board whose game a moderator aborted.
ABORTED_NO_RESULT = "The game was aborted by a moderator: no result, no rating change."
#: Added to the headline of a move that ended the game.
GAME_OVER = " — game over"


def post_head(label: str, headline: str) -> str:
    """The first line of a post about a game: ``"**Io #3** · move 7: …"``."""
    return f"**{label}** · {headline}"


def colour_name(colour: str) -> str:
    """A colour as players read it (the engine's ``"white"`` -> ``"White"``)."""
    return colour.title()


def seat_line(user_id: int, colour: str | None) -> str:
    """``"<@id> (White)"`` -- a seat's player with their colour when known."""
    who = f"<@{user_id}>"
    return f"{who} ({colour_name(colour)})" if colour else who


def game_begins(first: str, second: str) -> str:
    """The headline of a game's first board (``first``/``second``: :func:`seat_line`)."""
    return f"{first} vs {second} — the game begins."


def move_played(ply: int, user_id: int, move: str) -> str:
    """The headline of the board after a move: ``"move 7: <@id> played `c3`"``."""
    return f"move {ply}: <@{user_id}> played `{move}`"


def takes_colour(colour: str, other_id: int, other_colour: str) -> str:
    """Added to the headline of the move that settled the colours (Coil's first pass):
    ``" and takes Black; <@id> plays White"``."""
    return f" and takes {colour_name(colour)}; <@{other_id}> plays {colour_name(other_colour)}"


def stones_at(n: int, colour: str, cells: list[str]) -> str:
    """``"2 White stones (a1, c2)"``, a part of :func:`removing`."""
    return f"{count(n, colour_name(colour) + ' stone')} ({', '.join(cells)})"


def removing(parts: list[str]) -> str:
    """What a move removed (Branching Coral): ``", removing 2 White stones (a1, c2) and 1
    Black stone (d4)"`` (``parts``: :func:`stones_at`)."""
    return ", removing " + " and ".join(parts)


def turning_over(n: int) -> str:
    """What a move turned over (Io): ``", turning over 5 stones"``."""
    return f", turning over {count(n, 'stone')}"


def due_at(deadline: float, clock: str) -> str:
    """The deadline after the your-move line: ``" Due <t:…:R> (bank 7d+1d)."``
    (``deadline``: UNIX seconds; ``clock``: the clock's short name)."""
    return f" Due <t:{int(deadline)}:R> ({clock})."


def your_move(user_id: int, colour: str | None, hint: str, due: str) -> str:
    """The board's line asking the player to move: ``"<@id>, your move as White (one or two
    stones): use `/move`."`` then ``due`` (:func:`due_at`, maybe with the other's bank)."""
    as_colour = f" as {colour_name(colour)}" if colour else ""
    return f"<@{user_id}>, your move{as_colour} ({hint}): use `/move`.{due}"


def vacation_note(user_id: int, until: float) -> str:
    """``"<@id> is on vacation until …: their clock waits."`` (``until``: UNIX seconds)."""
    return f"<@{user_id}> is on vacation until <t:{int(until)}:f>: their clock waits."


def _due(deadline: float) -> str:
    return f"<t:{int(deadline)}:f> (<t:{int(deadline)}:R>)"


def deadline_moved(away: str, deadline: float) -> str:
    """The note after the player to move started a vacation (``away``: :func:`vacation_note`)."""
    return f"{away} Their move is now due {_due(deadline)}."


def back_from_vacation(user_id: int, deadline: float) -> str:
    """The note after the player to move ended a vacation: their move's new deadline."""
    return f"<@{user_id}> is back from vacation: their move is now due {_due(deadline)}."


def rating_change(user_id: int, before: float, after: float) -> str:
    """``"<@id> 1500 → 1520 (+20)"``, a part of :func:`ratings_line` (a true minus sign)."""
    delta = round(after) - round(before)
    return f"<@{user_id}> {round(before)} → {round(after)} ({delta:+d})".replace("-", "−")


def ratings_line(parts: list[str]) -> str:
    """``"Ratings: <@a> 1500 → 1520 (+20) · <@b> …"`` (``parts``: :func:`rating_change`)."""
    return "Ratings: " + " · ".join(parts)


def turn_dm(label: str, headline: str, colour: str | None, opponent: str, hint: str, link: str,
            deadline: float | None) -> str:
    """The your-turn DM: the board's headline, then the game, the colour, the opponent
    (``opponent``: :func:`bot.texts.player_ref`), what may be played, a link to the thread
    and the deadline (UNIX seconds, or ``None``)."""
    as_colour = f" as {colour_name(colour)}" if colour else ""
    due = f" It is due <t:{int(deadline)}:R>." if deadline else ""
    return f"{post_head(label, headline)}\nYour move{as_colour} against {opponent} ({hint}): {link}{due}"


def reminder(user_id: int, label: str, deadline: float) -> str:
    """The one reminder per turn before the deadline, mentioning the player to move."""
    return (f"<@{user_id}>, reminder: your move in **{label}** is due <t:{int(deadline)}:R> "
            f"— after that the game is lost on time. Use `/move`, or `/vacation` if you need a break.")
