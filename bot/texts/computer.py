"""The computer opponent and reviews: its name with its level, its turn, review charts.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .common import game_label

__all__ = ["COMPUTER_QUEUE_FULL", "LEVEL_DESCRIPTIONS", "LEVEL_WITHOUT_COMPUTER", "REVIEW_BUSY",
           "REVIEW_FAILED", "computer_game_sent", "computer_gave_up", "computer_name",
           "computer_started", "computer_to_move", "level_choice", "level_name", "player_ref",
           "review_progress", "review_swing", "review_text"]

if TYPE_CHECKING:
    from ..manager.values import Game

#: Each of the computer's strength levels (``ai.LEVELS``) as players read it: its name, then
#: what it does; menus show the name alone (:func:`level_name`).
LEVEL_DESCRIPTIONS: dict[int, str] = {
    1: "Beginner: a quick, noisy look; sees threats and wins in one about half the time",
    2: "Casual: a short search that sees threats and wins in one",
    3: "Club: a careful search",
    4: "Strong: a deep search",
    5: "Strongest: the deepest search; the last 12 empty cells of Io solved exactly",
}


def level_name(level: int) -> str:
    """A level's name alone, for the ``level:`` menu: ``"Club"`` (KeyError for no level)."""
    return LEVEL_DESCRIPTIONS[level].split(":")[0]


def level_choice(level: int) -> str:
    """A ``level:`` choice as the menu shows it: ``"3 Club"``."""
    return f"{level} {level_name(level)}"


LEVEL_WITHOUT_COMPUTER = ("level: sets the computer's strength: it only applies when you challenge "
                          "me (Stonecast) as the opponent. Leave it out to challenge a person.")
COMPUTER_QUEUE_FULL = (" The computer has too many games to think about right now: it will move "
                       "as soon as a place in its queue frees up (within a few minutes).")
REVIEW_BUSY = "That game is being reviewed already: its chart will appear in the message above when done."
REVIEW_FAILED = "Sorry: the review could not be finished. Please try again later."


def computer_gave_up(label: str, players: list[int]) -> str:
    """The apology posted when the computer could not find a move and its game was aborted."""
    return (f"Sorry: the computer could not work out a move in **{label}**, even at a lower level, "
            f"so the game is aborted -- no result and no rating change. Start another with "
            f"/challenge whenever you like.\n" + " ".join(f"<@{uid}>" for uid in players))


def computer_started(label: str, level: int, user_id: int) -> str:
    """The channel message that opens a game against the computer (its thread hangs on it),
    naming the level with its description (:data:`LEVEL_DESCRIPTIONS`)."""
    return (f"<@{user_id}> is playing the computer at level {level} ({LEVEL_DESCRIPTIONS[level]}): "
            f"**{label}**.")


def computer_name(name: str, level: int) -> str:
    """How boards, thread names and review charts name the computer: ``"Stonecast (level 3)"``
    (``name``: the bot's display name)."""
    return f"{name} (level {level})"


def player_ref(g: Game, user_id: int) -> str:
    """A player of game ``g`` in a list line: ``"<@id>"``, with the level when it is the
    computer (``"<@id> (level 3)"``)."""
    seat = getattr(g, "ai_seat", None)
    if seat is not None and g.players.get(seat) == user_id:
        return f"<@{user_id}> (level {g.ai_level})"
    return f"<@{user_id}>"


def computer_to_move(user_id: int, level: int, colour: str | None) -> str:
    """A board's second line when the computer (user ``user_id``) is to move. It stays true
    after the computer has moved (no "thinking…" left behind, issue 19): the live sign of
    its search is the thread's typing indicator, and its move comes as a new board."""
    as_colour = f" as {colour.title()}" if colour else ""
    return f"Next: <@{user_id}> (level {level}), the computer{as_colour}; its move follows in the game's thread."


def computer_game_sent(game: Game) -> str:
    """The caller's (ephemeral) note once their game against the computer has started."""
    where = f"<#{game.thread_id}>" if game.thread_id else f"<#{game.channel_id}>"
    return (f"Your game against the computer has started: {game_label(game.kind, game.id)}, level {game.ai_level}, "
            f"unrated. Play in {where}.")


def review_progress(label: str, done: int, total: int) -> str:
    """The edited message while a review runs: ``Reviewing… 40%``."""
    pct = 0 if total <= 0 else min(99, round(100 * done / total))
    return f"Reviewing {label}… {pct}%"


def review_swing(ply: int, name: str, move: str, before: float, after: float) -> str:
    """One swing of a review in words, naming its mover (issue 19): ``"move 6, Ann's e5:
    68% → 29%"`` -- ``before``/``after`` are the mover's chances (0..1)."""
    return f"move {ply}, {name}'s `{move}`: {round(before * 100)}% → {round(after * 100)}%"


def review_text(label: str, swings: list[tuple[str, str]]) -> str:
    """The message with a review's chart: the swings (each worded by :func:`review_swing`)
    each with the move the search preferred."""
    if not swings:
        return f"Review of **{label}**: no move swung the game much either way."
    lines = [f"Review of **{label}**: the moves that swung it most (the mover's chances):"]
    lines += [f"• {text}; the search preferred **{preferred}**" for text, preferred in swings]
    return "\n".join(lines)
