"""Text records of games (issue 5 "Records"): write one, read one back.

A record is plain UTF-8 text: a header of ``Key: value`` lines (game, options, the players by
display name when the record was written with their Discord user id in brackets, dates, the
result in words), a ``Moves:`` line, then one numbered line per move in the engine's
canonical notation::

    Stonecast game record
    Game: Io
    Kind: io
    Options: size=9
    Game id: 12
    Seat 1: Ann (1001), White
    Seat 2: Bob (1002), Black
    Rated: yes
    Days per move: 3
    Started: 2024-05-01 12:00:00 UTC
    Ended: 2024-05-03 09:10:00 UTC
    Status: finished
    Result: Bob (1002) beats Ann (1001) by resignation

    Moves:
    1. e5
    2. d4 b2

A game against the computer (issue 19) has one more header line after the ``Seat`` lines,
``Computer: seat 2, level 3`` -- the seat the computer plays and its level (1-5); its ``Seat``
line names it like any player (``Seat 2: Stonecast (999), Black``: the name field keeps its
one form, the level is not written into it). :attr:`ParsedRecord.computer` reads it back.

:func:`parse_record` gives back ``(kind, options, moves)`` for :func:`engine.replay`;
:func:`read_record` also gives the header and the position including a resignation or timeout.
Both also read records of the earlier layout (``Seat 1: user 1001 (white)``, ``Result: seat
2 wins by resignation``, ``draw by stones (18-18)``, ``none (aborted)``).

A record has one form in every language (issue 22: players copy records into other tools and
back): :func:`format_record`, :func:`read_record` and :func:`result_text` word it in English
whatever language is spoken around them (:func:`bot.texts.i18n.speaking`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any, ParamSpec, TypeVar

import engine
from bot import texts
from bot.texts import i18n

__all__ = [
    "ParsedRecord",
    "RecordError",
    "format_record",
    "format_time",
    "parse_record",
    "read_record",
    "result_text",
]

_MOVE_LINE = re.compile(r"^(\d+)\.\s+(\S.*)$")
_RESULT_WIN = re.compile(r"^seat ([12]) wins by ([a-z ]+?)(?: \(.*\))?$")
_RESULT_DRAW = re.compile(r"^draw(?: by ([a-z ]+?))?(?: \(.*\))?$")
_SEAT = re.compile(r"^(.*\(\d+\))(?:, (?:Black|White))?$")
_COMPUTER = re.compile(r"^seat ([12]), level (\d+)$")
ABORTED = "no result: aborted by a moderator"


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _in_english(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """``fn`` run in English (the one stable form of a record), whatever is spoken around it."""
    @functools.wraps(fn)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with i18n.speaking(i18n.DEFAULT):
            return fn(*args, **kwargs)
    return run


class RecordError(ValueError):
    """Text that is not a Stonecast game record (the message says which line and why)."""


def format_time(t: float | None) -> str:
    """UNIX seconds as ``YYYY-MM-DD HH:MM:SS UTC`` (``-`` for ``None``)."""
    if t is None:
        return "-"
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _options_text(options: Mapping[str, object]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "-"


def player_label(name: str | None, user_id: int) -> str:
    """How a record names a player: ``"Ann (1001)"`` -- the display name on one line (``user``
    when unknown), then the Discord user id in brackets."""
    name = " ".join(str(name or "").split()) or "user"
    return f"{name} ({user_id})"


@_in_english
def result_text(status: str, winner: int | None, reason: str | None,
                scores: Mapping[int, int] | None = None, *,
                labels: Mapping[int, str]) -> str:
    """The ``Result:`` value in words, naming the players by ``labels`` (seat ->
    :func:`player_label`): ``"Bob (1002) beats Ann (1001) on stones (33–16)"`` (the winner's
    score first; scores only where the rules ended the game), ``"Ann (1001) and Bob (1002)
    draw on stones (18–18)"``, ``"in progress"`` or ``"no result: aborted by a moderator"``.
    Always in English, whatever language the caller speaks (issue 22: a record keeps one
    stable, parseable form; :func:`read_record` reads these words back)."""
    with texts.i18n.speaking("en"):
        return _result_words(status, winner, reason, scores, labels)


def _result_words(status: str, winner: int | None, reason: str | None, scores: Mapping[int, int] | None,
                  labels: Mapping[int, str]) -> str:
    if status == "active":
        return "in progress"
    if status == "aborted":
        return ABORTED
    ending = engine.Termination.read(reason)
    if winner is not None:
        outcome = SimpleNamespace(winner=winner, reason=ending or reason or "", scores=scores)
        return texts.result_text("", outcome, labels).rstrip(".")
    with_scores = scores and (ending is None or ending.by_rules)
    how = f" {texts.termination_phrase(ending)}" if ending is not None else ""
    extra = f" ({scores[1]}–{scores[2]})" if with_scores and scores is not None else ""
    return f"{labels[1]} and {labels[2]} draw{how}{extra}"


@_in_english
def format_record(
    *,
    kind: str,
    options: Mapping[str, object],
    game_id: int,
    players: Mapping[int, int],
    names: Mapping[int, str] | None = None,
    colours: Mapping[int, str | None],
    rated: bool,
    days_per_move: int,
    created_at: float,
    finished_at: float | None,
    status: str,
    winner: int | None,
    reason: str | None,
    scores: Mapping[int, int] | None,
    moves: Iterable[str],
    clock: str | None = None,
    computer: tuple[int, int] | None = None,
) -> str:
    """The record text of a game (see the module docstring for the layout).

    ``computer``: ``(seat, level)`` of the computer in a game against it, written as a
    ``Computer:`` line; ``None`` for a game of two people.

    ``clock``: the name of a bank clock (issue 13), written as a ``Clock:`` line in place of
    ``Days per move`` (which a bank clock does not have); ``None`` for a per-move clock.

    ``players`` maps seat -> user id, ``names`` seat -> display name (``user`` where not
    given), ``colours`` seat -> ``"black"``/``"white"``/``None``, ``moves`` the canonical
    move strings in order. Times are UNIX seconds.
    """
    labels = {seat: player_label((names or {}).get(seat), players[seat]) for seat in (1, 2)}
    title = texts.title(kind)
    lines = [
        "Stonecast game record",
        f"Game: {title}",
        f"Kind: {kind}",
        f"Options: {_options_text(options)}",
        f"Game id: {game_id}",
    ]
    for seat in (1, 2):
        colour = colours.get(seat)
        lines.append(f"Seat {seat}: {labels[seat]}" + (f", {colour.title()}" if colour else ""))
    if computer is not None:
        lines.append(f"Computer: seat {computer[0]}, level {computer[1]}")
    lines += [
        f"Rated: {'yes' if rated else 'no'}",
        f"Clock: {clock}" if clock else f"Days per move: {days_per_move}",
        f"Started: {format_time(created_at)}",
        f"Ended: {format_time(finished_at)}",
        f"Status: {status}",
        f"Result: {result_text(status, winner, reason, scores, labels=labels)}",
        "",
        "Moves:",
    ]
    lines += [f"{i}. {mv}" for i, mv in enumerate(moves, 1)]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class ParsedRecord:
    """A record read back: ``kind``, validated ``options``, ``moves`` (strings), ``headers``
    (every ``Key: value`` line, keys lower-case), and the result (``winner`` seat or None,
    ``reason`` -- an :class:`engine.Termination` read from the result in words, the word as
    written in a record of the earlier layout -- or None; ``finished`` False for a game in
    progress or aborted). ``computer``: ``(seat, level)`` of the computer in a game against
    it (the ``Computer:`` line), else None."""

    kind: str
    options: dict[str, Any]
    moves: tuple[str, ...]
    headers: dict[str, str] = field(default_factory=dict)
    finished: bool = False
    winner: int | None = None
    reason: str | None = None
    computer: tuple[int, int] | None = None

    def position(self) -> engine.Position:
        """The game's position: the moves replayed, then a resignation or timeout applied.

        Raises the engine's errors (MoveError / IllegalMove with the move number) when the
        moves do not play.
        """
        pos = engine.replay(self.kind, self.options, self.moves)
        ending = engine.Termination.read(self.reason)
        if self.finished and ending is not None and not ending.by_rules and pos.outcome is None:
            if self.winner:
                pos = pos.forfeit(3 - self.winner, ending)
        return pos


@_in_english
def read_record(text: str) -> ParsedRecord:
    """Read a record written by :func:`format_record`.

    Blank lines and lines starting with ``#`` are ignored. Raises :class:`RecordError` when
    the kind or options are missing or invalid, a ``Computer:`` line does not read, or a
    move line is malformed or out of order.
    """
    if not isinstance(text, str):
        raise RecordError("a record must be text")
    headers: dict[str, str] = {}
    moves: list[str] = []
    in_moves = False
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not in_moves:
            if line.lower() == "moves:":
                in_moves = True
            elif ":" in line:
                key, _, value = line.partition(":")
                headers[key.strip().lower()] = value.strip()
            elif n != 1 and line != "Stonecast game record":
                raise RecordError(f"line {n}: expected 'Key: value' or 'Moves:', got {line!r}")
            continue
        m = _MOVE_LINE.match(line)
        if not m:
            raise RecordError(f"line {n}: expected a numbered move like '3. e5', got {line!r}")
        if int(m.group(1)) != len(moves) + 1:
            raise RecordError(f"line {n}: move number {m.group(1)} out of order (expected {len(moves) + 1})")
        moves.append(m.group(2).strip())
    kind = headers.get("kind", "").lower()
    if kind not in engine.GAMES:
        raise RecordError(f"the record names no known game (Kind: {kind or 'missing'})")
    options: dict[str, str] = {}
    opt_text = headers.get("options", "-")
    if opt_text != "-":
        for item in opt_text.split(","):
            k, sep, v = item.partition("=")
            if not sep or not k.strip():
                raise RecordError(f"bad option {item!r} in the record")
            options[k.strip()] = v.strip()
    try:
        validated = engine.GAMES[kind].validate(options)
    except engine.OptionError as e:
        raise RecordError(f"bad options in the record: {e}") from None
    finished = headers.get("status") == "finished"
    winner = reason = None
    result = headers.get("result", "")
    if finished:
        if m := _RESULT_WIN.match(result):  # the earlier layout: "seat 2 wins by timeout"
            winner, reason = int(m.group(1)), m.group(2)
        elif m := _RESULT_DRAW.match(result):  # the earlier layout: "draw by stones (18-18)"
            reason = m.group(1)
        else:
            winner, reason = _read_result(result, headers)
    computer = None
    if "computer" in headers:
        m = _COMPUTER.match(headers["computer"])
        if not m:
            raise RecordError(f"unreadable computer {headers['computer']!r} in the record "
                              f"(expected 'seat 2, level 3')")
        computer = int(m.group(1)), int(m.group(2))
    return ParsedRecord(kind, validated, tuple(moves), headers, finished, winner, reason, computer)


def _reason_in(words: str) -> engine.Termination | None:
    """The end reason whose phrase (:func:`bot.texts.termination_phrase`) opens ``words``,
    followed by nothing or a bracket; None for no words. Raises KeyError when nothing fits."""
    if not words:
        return None
    with texts.i18n.speaking("en"):  # records are English in every language (result_text)
        phrases = {reason: texts.termination_phrase(reason) for reason in engine.Termination}
    for reason in sorted(engine.Termination, key=lambda t: -len(phrases[t])):
        phrase = phrases[reason]
        if words == phrase or words.startswith(phrase + " ("):
            return reason
    raise KeyError(words)


def _read_result(result: str, headers: Mapping[str, str]) -> tuple[int | None, str | None]:
    """``(winner seat or None, reason)`` of a finished game's result in words, the players
    named as in the ``Seat 1`` / ``Seat 2`` lines. Raises RecordError when it does not read."""
    labels = {}
    for seat in (1, 2):
        m = _SEAT.match(headers.get(f"seat {seat}", ""))
        if m:
            labels[seat] = m.group(1)
    try:
        if len(labels) == 2:
            for seat in (1, 2):
                beats = f"{labels[seat]} beats {labels[3 - seat]} "
                if result.startswith(beats):
                    return seat, _reason_in(result[len(beats):])
            draw = f"{labels[1]} and {labels[2]} draw"
            if result.startswith(draw):
                return None, _reason_in(result[len(draw):].strip())
    except KeyError:
        pass
    raise RecordError(f"unreadable result {result!r} in the record")


def parse_record(text: str) -> tuple[str, dict[str, Any], list[str]]:
    """``(kind, options, moves)`` of a record, ready for ``engine.replay(kind, options, moves)``.

    Raises :class:`RecordError` like :func:`read_record`.
    """
    rec = read_record(text)
    return rec.kind, rec.options, list(rec.moves)
