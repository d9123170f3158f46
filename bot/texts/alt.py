"""Image descriptions: the alt text of every attachment (boards, charts, replays, rules).

Part of :mod:`bot.texts` (every sentence a player reads), in the current language
(:mod:`bot.texts.i18n`)."""

from __future__ import annotations

from collections.abc import Mapping

from .boards import and_join, colour_name
from .common import fit_sentences, options_text
from .i18n import _, ngettext

__all__ = ["board_alt", "game_alt", "last_move_alt", "players_alt", "record_alt", "replay_alt",
           "review_alt", "rules_alt", "seat_alt"]


def seat_alt(name: str, colour: str | None) -> str:
    """A player as a description names them: ``"Ann (White)"``, or the name alone while
    their colour is not decided (Coil's Phase I)."""
    return _("{player} ({colour})").format(player=name, colour=colour_name(colour)) if colour else name


def players_alt(first: str, second: str, *, colours_known: bool) -> str:
    """``"Ann (White) against Bob (Black)"`` (each from :func:`seat_alt`), saying when the
    colours are not decided yet."""
    if colours_known:
        return _("{first} against {second}").format(first=first, second=second)
    return _("{first} against {second}, colours not decided yet").format(first=first, second=second)


def game_alt(label: str, options: Mapping[str, object]) -> str:
    """The game as a description opens: ``"Io #12 (size 8)"``."""
    opts = options_text(options)
    return f"{label} ({opts})" if opts else label


def last_move_alt(ply: int, mover: str | None, move: str | None, effect: str = "") -> str:
    """``"Move 14: Ann played c3 e5, turning over 2 stones."``; ``"No moves yet."`` at the start
    (``effect``: :func:`bot.texts.turning_over`, :func:`bot.texts.removing` or ``""``)."""
    if not ply or not move:
        return _("No moves yet.")
    if mover:
        return _("Move {ply}: {player} played {move}{effect}.").format(
            ply=ply, player=mover, move=move, effect=effect)
    return _("Move {ply}: the move was {move}{effect}.").format(ply=ply, move=move, effect=effect)


def _stones_alt(stones: dict[str, int]) -> str:
    """``"12 black stones and 1 white stone"`` (colour -> count; colours without stones left
    out), ``""`` for none."""
    parts = []
    for colour, n in stones.items():
        if not n:
            continue
        if colour == "black":
            parts.append(ngettext("{n} black stone", "{n} black stones", n).format(n=n))
        elif colour == "white":
            parts.append(ngettext("{n} white stone", "{n} white stones", n).format(n=n))
        else:  # no game has other stones; name the colour as it comes
            parts.append(ngettext("{n} {colour} stone", "{n} {colour} stones", n).format(n=n, colour=colour))
    return and_join(parts)


def board_alt(game: str, players: str, last: str, *, to_move: str | None = None,
              phase: str | None = None, result: str | None = None, aborted: bool = False,
              stones: dict[str, int] | None = None, scores: list[tuple[str, int]] | None = None) -> str:
    """The description of a board picture (issue 19), for screen readers: ``game`` and
    ``players`` (:func:`game_alt`, :func:`players_alt`), the ``last`` move
    (:func:`last_move_alt`), then the result (``result``: a :func:`result_text` sentence),
    ``aborted``, or whose turn it is (``to_move``: :func:`seat_alt`) and the ``phase`` with
    what may be played (:func:`bot.texts.phase_caption`); the stones on the board
    (``stones``: colour -> count) and the ``scores`` (name, score) where the game keeps them.
    At most :data:`ATTACHMENT_DESCRIPTION` characters."""
    if result is not None:
        state = _("Game over: {result}").format(result=result)
    elif aborted:
        state = _("The game was aborted by a moderator: no result.")
    elif to_move is not None:
        state = _("{player} to move.").format(player=to_move)
        if phase:
            state += " " + _("{phase}.").format(phase=phase)
    else:
        state = ""
    counted = _stones_alt(stones or {})
    on_board = _("On the board: {stones}.").format(stones=counted) if counted else _("The board is empty.")
    score = _("Score: {scores}.").format(scores=", ".join(f"{name} {n}" for name, n in scores)) if (
        scores and any(n for _name, n in scores) and result is None) else ""
    return fit_sentences([_("Board of {game}: {players}.").format(game=game, players=players),
                          last, state, on_board, score], keep=3)


def rules_alt(game: str, stones: dict[str, int]) -> str:
    """The description of the /rules picture: the starting board of ``game``
    (:func:`game_alt`) and the stones on it (colour -> count)."""
    counted = _stones_alt(stones)
    if counted:
        board = _("The starting board of {game}: {stones} stand on it.").format(game=game, stones=counted)
    else:
        board = _("The starting board of {game}: it is empty.").format(game=game)
    return fit_sentences([board + " " + _("The first player is to move.")])


def replay_alt(game: str, players: str, plies: int, result: str | None) -> str:
    """The description of a /history replay (an animated GIF): the game, its players, how
    many moves it shows one frame each, and the result."""
    return fit_sentences([_("Animated replay of {game}: {players}.").format(game=game, players=players),
                          ngettext("One frame per move, {n} move from the start to the end.",
                                   "One frame per move, {n} moves from the start to the end.", plies).format(n=plies),
                          _("Game over: {result}").format(result=result) if result else ""])


def record_alt(label: str, plies: int) -> str:
    """The description of a /history record (a text file)."""
    return ngettext("The record of {game} as plain text: the players, the result and all {n} move.",
                    "The record of {game} as plain text: the players, the result and all {n} moves.",
                    plies).format(game=label, n=plies)


def review_alt(game: str, players: str, first: str, plies: int, leader: tuple[str, int] | None,
               result: str | None, swings: list[tuple[int, str, str, str, str, str]]) -> str:
    """The description of a /review chart: ``first``'s chances (the first player's: the
    curve) after each of ``plies`` moves; the ``leader`` (name, the moves after which they
    were ahead; ``None``: nobody was ahead after more moves than the other); the ``result``;
    and each swing as (move number, mover's name, move, chances before, after, the move the
    search preferred), chances as ``"71%"``. Swings that do not fit are left out."""
    if leader:
        lead = ngettext("{player} was ahead after {ahead} of the {n} move.",
                        "{player} was ahead after {ahead} of the {n} moves.", plies).format(
            player=leader[0], ahead=leader[1], n=plies)
    else:
        lead = _("Neither player was ahead for most of the game.")
    parts = [_("Review chart of {game}: {players}.").format(game=game, players=players),
             _("A curve of {player}'s chances of winning after every move, from 0 to 100%.").format(player=first),
             lead, _("Game over: {result}").format(result=result) if result else ""]
    if not swings:
        parts.append(_("No move swung the game much either way."))
    else:
        parts.append(_("The moves that swung it, in the mover's chances:"))
        parts += [_("move {ply}, {player}'s {move}: {before} to {after}, the search preferred {preferred};").format(
                      ply=ply, player=who, move=move, before=before, after=after, preferred=preferred)
                  for ply, who, move, before, after, preferred in swings]
    text = fit_sentences(parts, keep=4)
    stop = {";": ".", ":": ".", "；": "。", "：": "。"}.get(text[-1:])  # a list cut short ends a sentence
    return text[:-1] + stop if stop else text
