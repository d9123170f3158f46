"""Board posts: their headlines (what just happened), the line asking the player to move,
what a move did, rating changes, the your-turn DM, reminders and vacation notes.

Part of :mod:`bot.texts` (every sentence a player reads); :mod:`bot.front.boards` assembles the
posts from these pieces and the manager's values. Constants are English message ids
(:func:`bot.texts.i18n.N_`): pass them through :func:`bot.texts.i18n._` where they are used."""

from __future__ import annotations

from .i18n import N_, _, ngettext

__all__ = ["ABORTED_NO_RESULT", "GAME_OVER", "back_from_vacation", "colour_name",
           "deadline_moved", "due_at", "game_begins", "move_played", "post_head", "rating_change",
           "ratings_line", "reminder", "removing", "seat_line", "stones_at", "takes_colour",
           "turn_dm", "turning_over", "vacation_note", "your_move"]

#: The second line of a board whose game a moderator aborted.
ABORTED_NO_RESULT = N_("The game was aborted by a moderator: no result, no rating change.")
#: Added to the headline of a move that ended the game.
GAME_OVER = N_(" — game over")

#: The stone colours as players read them, by the engine's colour word.
_COLOURS = {"white": N_("White"), "black": N_("Black")}


def colour_name(colour: str) -> str:
    """A colour as players read it (the engine's ``"white"`` -> ``"White"``); a word the
    engine does not use is shown title-cased."""
    word = _COLOURS.get(colour)
    return _(word) if word is not None else colour.title()


def post_head(label: str, headline: str) -> str:
    """The first line of a post about a game: ``"**Io #3** · move 7: …"``."""
    return f"**{label}** · {headline}"


def seat_line(user_id: int, colour: str | None) -> str:
    """``"<@id> (White)"`` -- a seat's player with their colour when known."""
    who = f"<@{user_id}>"
    return _("{player} ({colour})").format(player=who, colour=colour_name(colour)) if colour else who


def game_begins(first: str, second: str) -> str:
    """The headline of a game's first board (``first``/``second``: :func:`seat_line`)."""
    return _("{first} vs {second} — the game begins.").format(first=first, second=second)


def move_played(ply: int, user_id: int, move: str) -> str:
    """The headline of the board after a move: ``"move 7: <@id> played `c3`"``."""
    return _("move {ply}: {player} played `{move}`").format(ply=ply, player=f"<@{user_id}>", move=move)


def takes_colour(colour: str, other_id: int, other_colour: str) -> str:
    """Added to the headline of the move that settled the colours (Coil's first pass):
    ``" and takes Black; <@id> plays White"`` (``other_colour`` is the other of the two)."""
    text = (_(" and takes Black; {player} plays White") if colour == "black"
            else _(" and takes White; {player} plays Black"))
    return text.format(player=f"<@{other_id}>")


def stones_at(n: int, colour: str, cells: list[str]) -> str:
    """``"2 White stones (a1, c2)"``, a part of :func:`removing`."""
    if colour == "white":
        stones = ngettext("{n} White stone", "{n} White stones", n)
    else:
        stones = ngettext("{n} Black stone", "{n} Black stones", n)
    return _("{stones} ({cells})").format(stones=stones.format(n=n), cells=", ".join(cells))


def and_join(parts: list[str]) -> str:
    """``"a and b and c"`` in the current language (each pair through ``"{first} and
    {second}"``); ``""`` for no parts."""
    if not parts:
        return ""
    text = parts[0]
    for part in parts[1:]:
        text = _("{first} and {second}").format(first=text, second=part)
    return text


def removing(parts: list[str]) -> str:
    """What a move removed (Branching Coral): ``", removing 2 White stones (a1, c2) and 1
    Black stone (d4)"`` (``parts``: :func:`stones_at`)."""
    return _(", removing {stones}").format(stones=and_join(parts))


def turning_over(n: int) -> str:
    """What a move turned over (Io): ``", turning over 5 stones"``."""
    return ngettext(", turning over {n} stone", ", turning over {n} stones", n).format(n=n)


def due_at(deadline: float, clock: str) -> str:
    """The deadline after the your-move line: ``" Due <t:…:R> (bank 7d+1d)."``
    (``deadline``: UNIX seconds; ``clock``: the clock's short name)."""
    return " " + _("Due {when} ({clock}).").format(when=f"<t:{int(deadline)}:R>", clock=clock)


#: The board's your-move line, by the mover's colour (None: not decided yet).
_YOUR_MOVE = {
    None: N_("{player}, your move ({hint}): use `/move`."),
    "white": N_("{player}, your move as White ({hint}): use `/move`."),
    "black": N_("{player}, your move as Black ({hint}): use `/move`."),
}


def your_move(user_id: int, colour: str | None, hint: str, due: str) -> str:
    """The board's line asking the player to move: ``"<@id>, your move as White (one or two
    stones): use `/move`."`` then ``due`` (:func:`due_at`, maybe with the other's bank;
    ``hint``: :func:`bot.texts.turn_hint`)."""
    text = _(_YOUR_MOVE.get(colour, _YOUR_MOVE[None]))
    return text.format(player=f"<@{user_id}>", hint=hint) + due


def vacation_note(user_id: int, until: float) -> str:
    """``"<@id> is on vacation until …: their clock waits."`` (``until``: UNIX seconds)."""
    return _("{player} is on vacation until {until}: their clock waits.").format(
        player=f"<@{user_id}>", until=f"<t:{int(until)}:f>")


def _due(deadline: float) -> str:
    return f"<t:{int(deadline)}:f> (<t:{int(deadline)}:R>)"


def deadline_moved(away: str, deadline: float) -> str:
    """The note after the player to move started a vacation (``away``: :func:`vacation_note`)."""
    return away + " " + _("Their move is now due {when}.").format(when=_due(deadline))


def back_from_vacation(user_id: int, deadline: float) -> str:
    """The note after the player to move ended a vacation: their move's new deadline."""
    return _("{player} is back from vacation: their move is now due {when}.").format(
        player=f"<@{user_id}>", when=_due(deadline))


def rating_change(user_id: int, before: float, after: float) -> str:
    """``"<@id> 1500 → 1520 (+20)"``, a part of :func:`ratings_line` (a true minus sign)."""
    delta = round(after) - round(before)
    return f"<@{user_id}> {round(before)} → {round(after)} ({delta:+d})".replace("-", "−")


def ratings_line(parts: list[str]) -> str:
    """``"Ratings: <@a> 1500 → 1520 (+20) · <@b> …"`` (``parts``: :func:`rating_change`)."""
    return _("Ratings: {changes}").format(changes=" · ".join(parts))


#: The your-turn DM's second line, by the player's colour (None: not decided yet).
_TURN_DM = {
    None: N_("Your move against {opponent} ({hint}): {link}"),
    "white": N_("Your move as White against {opponent} ({hint}): {link}"),
    "black": N_("Your move as Black against {opponent} ({hint}): {link}"),
}


def turn_dm(label: str, headline: str, colour: str | None, opponent: str, hint: str, link: str,
            deadline: float | None) -> str:
    """The your-turn DM: the board's headline, then the game, the colour, the opponent
    (``opponent``: :func:`bot.texts.player_ref`), what may be played, a link to the thread
    and the deadline (UNIX seconds, or ``None``)."""
    line = _(_TURN_DM.get(colour, _TURN_DM[None])).format(opponent=opponent, hint=hint, link=link)
    due = " " + _("It is due {when}.").format(when=f"<t:{int(deadline)}:R>") if deadline else ""
    return f"{post_head(label, headline)}\n{line}{due}"


def reminder(user_id: int, label: str, deadline: float) -> str:
    """The one reminder per turn before the deadline, mentioning the player to move."""
    return _("{player}, reminder: your move in **{game}** is due {when} — after that the game is "
             "lost on time. Use `/move`, or `/vacation` if you need a break.").format(
        player=f"<@{user_id}>", game=label, when=f"<t:{int(deadline)}:R>")
