"""Descriptions (alt text) of every picture and file the bot attaches (issue 19).

One function per kind of attachment builds its description from data -- the game, the
position (:class:`engine.Position`'s public surface: ply, last move and its mover, whose turn,
phase, colours, stones, scores, outcome) and the players' display names as the picture shows
them (:meth:`bot.front.client.StonecastBot.player_names`, "deleted player" included); the words are
:mod:`bot.texts`'s. :func:`bot.front.boards.attachment` attaches them: the one place a
``discord.File`` is made, refusing one without a description.

Each description fits Discord's 1,024 characters for an attachment's description
(:data:`bot.texts.ATTACHMENT_DESCRIPTION`), so a screen reader can follow a game from the
pictures alone: board, replay, review chart and the /rules start position.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ai.review import pct
from bot import texts

from .boards import move_effect

if TYPE_CHECKING:
    import engine
    from bot.manager import Game

__all__ = ["board", "record", "replay", "review", "rules"]


def _stones(position: engine.Position) -> dict[str, int]:
    """Colour -> how many stones of it stand on the board, black first."""
    placed = list(position.stones.values())
    return {colour: placed.count(colour) for colour in ("black", "white")}


def _players(position: engine.Position, names: Mapping[int, str]) -> str:
    """Both players with their colours in ``position`` (:func:`bot.texts.players_alt`)."""
    colours = {seat: position.colour(seat) for seat in (1, 2)}
    return texts.players_alt(*(texts.seat_alt(names[seat], colours[seat]) for seat in (1, 2)),
                             colours_known=all(colours.values()))


def _result(position: engine.Position, names: Mapping[int, str]) -> str | None:
    """The result sentence (:func:`bot.texts.result_text`) once ``position`` is over, else None."""
    outcome = position.outcome
    return None if outcome is None else texts.result_text(position.kind, outcome, dict(names))


def board(game: Game, position: engine.Position, names: Mapping[int, str]) -> str:
    """The description of a picture of ``position`` in ``game`` (a board post, the your-turn
    DM, /board, /next, the preview before Confirm, a conditional line's end): the game and its
    options, both players (``names``: seat -> display name) with their colours, the move
    number, the last move with who played it and what it did, then the result -- or whose turn
    it is and the phase (Coil's Phase I/II, Io's bound and free stones) -- the stones on the
    board and the scores where the game keeps them. At most 1,024 characters."""
    seat, turn = position.last_mover, position.to_move
    last = texts.last_move_alt(position.ply, names[seat] if seat else None, position.last_move,
                               move_effect(position))
    phase = texts.phase_caption(position)
    scores = position.scores
    return texts.board_alt(
        texts.game_alt(texts.game_label(game.kind, game.id), game.options),
        _players(position, names), last,
        to_move=None if turn is None else texts.seat_alt(names[turn], position.colour(turn)),
        phase=phase.replace(" · ", ", ") if phase else None,
        result=_result(position, names), aborted=game.status == "aborted",
        stones=_stones(position),
        scores=None if scores is None else [(names[s], scores[s]) for s in (1, 2)])


def rules(position: engine.Position) -> str:
    """The description of the /rules picture of ``position`` (a game's start): the game, its
    options and the stones the board starts with."""
    return texts.rules_alt(texts.game_alt(position.title, position.options), _stones(position))


def replay(game: Game, names: Mapping[int, str]) -> str:
    """The description of the /history replay (an animated GIF) of finished ``game``: the
    game, its players with their colours, how many moves it shows and the result."""
    position = game.position
    return texts.replay_alt(texts.game_alt(texts.game_label(game.kind, game.id), game.options), _players(position, names),
                            position.ply, _result(position, names))


def record(game: Game) -> str:
    """The description of the /history text record of ``game``."""
    return texts.record_alt(texts.game_label(game.kind, game.id), game.ply)


def review(game: Game, data: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """The description of the /review chart of finished ``game`` from the review ``data``
    (the dict of :class:`ai.review.GameReview`: ``plies`` with seat 1's chances ``after``
    each move, ``swings`` in the mover's chances): the game and players, the leader (who was
    ahead after more moves), the result and every swing with its mover and the move the search
    preferred. Swings that do not fit 1,024 characters are left out."""
    position = game.position
    plies = data.get("plies") or []
    ahead = {1: sum(p["after"] > 0.5 for p in plies), 2: sum(p["after"] < 0.5 for p in plies)}
    leader = None
    if ahead[1] != ahead[2]:
        seat = 1 if ahead[1] > ahead[2] else 2
        leader = (names[seat], ahead[seat])
    swings = [(sw["ply"], names[sw["seat"]], sw["move"], pct(sw["before"]), pct(sw["after"]), sw["preferred"])
              for sw in data.get("swings") or []]
    return texts.review_alt(texts.game_alt(texts.game_label(game.kind, game.id), game.options), _players(position, names),
                            names[1], len(plies), leader, _result(position, names), swings)
