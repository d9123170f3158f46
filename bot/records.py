"""Text records of games (issue 5 "Records"): write one, read one back.

A record is plain UTF-8 text: a header of ``Key: value`` lines (game, options, players by
Discord user id, dates, result), a ``Moves:`` line, then one numbered line per move in the
engine's canonical notation::

    Stonecast game record
    Game: Io
    Kind: io
    Options: size=9
    Game id: 12
    Seat 1: user 1001 (white)
    Seat 2: user 1002 (black)
    Rated: yes
    Days per move: 3
    Started: 2024-05-01 12:00:00 UTC
    Ended: 2024-05-03 09:10:00 UTC
    Status: finished
    Result: seat 2 wins by resignation

    Moves:
    1. e5
    2. d4 b2

:func:`parse_record` gives back ``(kind, options, moves)`` for :func:`engine.replay`;
:func:`read_record` also gives the header and the position including a resignation or timeout.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

import engine

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


class RecordError(ValueError):
    """Text that is not a Stonecast game record (the message says which line and why)."""


def format_time(t: float | None) -> str:
    """UNIX seconds as ``YYYY-MM-DD HH:MM:SS UTC`` (``-`` for ``None``)."""
    if t is None:
        return "-"
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _options_text(options: Mapping[str, object]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "-"


def result_text(status: str, winner: int | None, reason: str | None,
                scores: Mapping[int, int] | None = None) -> str:
    """The ``Result:`` value: ``seat 1 wins by coil``, ``draw by stones (18-18)``,
    ``in progress`` or ``none (aborted)``; scores only where the rules ended the game."""
    if status == "active":
        return "in progress"
    if status == "aborted":
        return "none (aborted)"
    # scores mean something only when the rules ended the game, not a resignation or timeout
    extra = f" ({scores[1]}-{scores[2]})" if scores and reason not in ("resignation", "timeout") else ""
    if winner is None:
        return f"draw by {reason}{extra}" if reason else f"draw{extra}"
    return f"seat {winner} wins by {reason}{extra}"


def format_record(
    *,
    kind: str,
    options: Mapping[str, object],
    game_id: int,
    players: Mapping[int, int],
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
) -> str:
    """The record text of a game (see the module docstring for the layout).

    ``players`` maps seat -> user id, ``colours`` seat -> ``"black"``/``"white"``/``None``,
    ``moves`` the canonical move strings in order. Times are UNIX seconds.
    """
    title = engine.GAMES[kind].title if kind in engine.GAMES else kind
    lines = [
        "Stonecast game record",
        f"Game: {title}",
        f"Kind: {kind}",
        f"Options: {_options_text(options)}",
        f"Game id: {game_id}",
    ]
    for seat in (1, 2):
        colour = colours.get(seat)
        lines.append(f"Seat {seat}: user {players[seat]}" + (f" ({colour})" if colour else ""))
    lines += [
        f"Rated: {'yes' if rated else 'no'}",
        f"Days per move: {days_per_move}",
        f"Started: {format_time(created_at)}",
        f"Ended: {format_time(finished_at)}",
        f"Status: {status}",
        f"Result: {result_text(status, winner, reason, scores)}",
        "",
        "Moves:",
    ]
    lines += [f"{i}. {mv}" for i, mv in enumerate(moves, 1)]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class ParsedRecord:
    """A record read back: ``kind``, validated ``options``, ``moves`` (strings), ``headers``
    (every ``Key: value`` line, keys lower-case), and the result (``winner`` seat or None,
    ``reason`` or None; ``finished`` False for a game in progress or aborted)."""

    kind: str
    options: dict
    moves: tuple[str, ...]
    headers: dict[str, str] = field(default_factory=dict)
    finished: bool = False
    winner: int | None = None
    reason: str | None = None

    def position(self) -> engine.Position:
        """The game's position: the moves replayed, then a resignation or timeout applied.

        Raises the engine's errors (MoveError / IllegalMove with the move number) when the
        moves do not play.
        """
        pos = engine.replay(self.kind, self.options, self.moves)
        if self.finished and self.reason in ("resignation", "timeout") and pos.outcome is None:
            loser = 3 - self.winner if self.winner else None
            if loser is not None:
                pos = pos.resign(loser) if self.reason == "resignation" else pos.time_out(loser)
        return pos


def read_record(text: str) -> ParsedRecord:
    """Read a record written by :func:`format_record`.

    Blank lines and lines starting with ``#`` are ignored. Raises :class:`RecordError` when
    the kind or options are missing or invalid, or a move line is malformed or out of order.
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
        if m := _RESULT_WIN.match(result):
            winner, reason = int(m.group(1)), m.group(2)
        elif m := _RESULT_DRAW.match(result):
            reason = m.group(1)
        else:
            raise RecordError(f"unreadable result {result!r} in the record")
    return ParsedRecord(kind, validated, tuple(moves), headers, finished, winner, reason)


def parse_record(text: str) -> tuple[str, dict, list[str]]:
    """``(kind, options, moves)`` of a record, ready for ``engine.replay(kind, options, moves)``.

    Raises :class:`RecordError` like :func:`read_record`.
    """
    rec = read_record(text)
    return rec.kind, rec.options, list(rec.moves)
