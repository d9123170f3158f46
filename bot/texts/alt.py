"""Image descriptions: the alt text of every attachment (boards, charts, replays, rules).

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from collections.abc import Mapping

from .common import count, fit_sentences, options_text

__all__ = ["board_alt", "game_alt", "last_move_alt", "players_alt", "record_alt", "replay_alt",
           "review_alt", "rules_alt", "seat_alt"]


def seat_alt(name: str, colour: str | None) -> str:
    """A player as a description names them: ``"Ann (White)"``, or the name alone while
    their colour is not decided (Coil's Phase I)."""
    return f"{name} ({colour.title()})" if colour else name


def players_alt(first: str, second: str, *, colours_known: bool) -> str:
    """``"Ann (White) against Bob (Black)"`` (each from :func:`seat_alt`), saying when the
    colours are not decided yet."""
    return f"{first} against {second}" + ("" if colours_known else ", colours not decided yet")


def game_alt(label: str, options: Mapping[str, object]) -> str:
    """The game as a description opens: ``"Io #12 (size 8)"``."""
    opts = options_text(options)
    return f"{label} ({opts})" if opts else label


def last_move_alt(ply: int, mover: str | None, move: str | None, effect: str = "") -> str:
    """``"Move 14: Ann played c3 e5, turning over 2 stones."``; ``"No moves yet."`` at the start."""
    if not ply or not move:
        return "No moves yet."
    who = f"{mover} played" if mover else "the move was"
    return f"Move {ply}: {who} {move}{effect}."


def _stones_alt(stones: dict[str, int]) -> str:
    """``"12 black stones and 1 white stone"`` (colour -> count; colours without stones left
    out), ``""`` for none."""
    return " and ".join(count(n, f"{colour} stone") for colour, n in stones.items() if n)


def board_alt(game: str, players: str, last: str, *, to_move: str | None = None,
              phase: str | None = None, result: str | None = None, aborted: bool = False,
              stones: dict[str, int] | None = None, scores: list[tuple[str, int]] | None = None) -> str:
    """The description of a board picture (issue 19), for screen readers: ``game`` and
    ``players`` (:func:`game_alt`, :func:`players_alt`), the ``last`` move
    (:func:`last_move_alt`), then the result (``result``: a :func:`result_text` sentence),
    ``aborted``, or whose turn it is (``to_move``: :func:`seat_alt`) and the ``phase`` with
    what may be played; the stones on the board (``stones``: colour -> count) and the
    ``scores`` (name, score) where the game keeps them. At most
    :data:`ATTACHMENT_DESCRIPTION` characters."""
    if result is not None:
        state = f"Game over: {result}"
    elif aborted:
        state = "The game was aborted by a moderator: no result."
    elif to_move is not None:
        state = f"{to_move} to move." + (f" {phase}." if phase else "")
    else:
        state = ""
    counted = _stones_alt(stones or {})
    on_board = f"On the board: {counted}." if counted else "The board is empty."
    score = ("Score: " + ", ".join(f"{name} {n}" for name, n in scores) + ".") if (
        scores and any(n for _, n in scores) and result is None) else ""
    return fit_sentences([f"Board of {game}: {players}.", last, state, on_board, score], keep=3)


def rules_alt(game: str, stones: dict[str, int]) -> str:
    """The description of the /rules picture: the starting board of ``game``
    (:func:`game_alt`) and the stones on it (colour -> count)."""
    counted = _stones_alt(stones)
    on_board = f"{counted} stand on it" if counted else "it is empty"
    return fit_sentences([f"The starting board of {game}: {on_board}. The first player is to move."])


def replay_alt(game: str, players: str, plies: int, result: str | None) -> str:
    """The description of a /history replay (an animated GIF): the game, its players, how
    many moves it shows one frame each, and the result."""
    return fit_sentences([f"Animated replay of {game}: {players}.",
                          f"One frame per move, {count(plies, 'move')} from the start to the end.",
                          f"Game over: {result}" if result else ""])


def record_alt(label: str, plies: int) -> str:
    """The description of a /history record (a text file)."""
    return f"The record of {label} as plain text: the players, the result and all {count(plies, 'move')}."


def review_alt(game: str, players: str, first: str, plies: int, leader: tuple[str, int] | None,
               result: str | None, swings: list[tuple[int, str, str, str, str, str]]) -> str:
    """The description of a /review chart: ``first``'s chances (the first player's: the
    curve) after each of ``plies`` moves; the ``leader`` (name, the moves after which they
    were ahead; ``None``: nobody was ahead after more moves than the other); the ``result``;
    and each swing as (move number, mover's name, move, chances before, after, the move the
    search preferred), chances as ``"71%"``. Swings that do not fit are left out."""
    lead = (f"{leader[0]} was ahead after {leader[1]} of the {count(plies, 'move')}."
            if leader else "Neither player was ahead for most of the game.")
    parts = [f"Review chart of {game}: {players}.",
             f"A curve of {first}'s chances of winning after every move, from 0 to 100%.", lead,
             f"Game over: {result}" if result else ""]
    if not swings:
        parts.append("No move swung the game much either way.")
    else:
        parts.append("The moves that swung it, in the mover's chances:")
        parts += [f"move {ply}, {who}'s {move}: {before} to {after}, the search preferred {preferred};"
                  for ply, who, move, before, after, preferred in swings]
    text = fit_sentences(parts, keep=4)
    return text[:-1] + "." if text.endswith((";", ":")) else text
