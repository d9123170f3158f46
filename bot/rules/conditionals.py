"""Conditional moves (issue 13): a player's prepared answers to the opponent's moves, as a
tree. Pure: positions come from the engine, storage is the caller's (:meth:`ConditionalTree.to_json`).

A **line** is typed as steps separated by ``;``: the opponent's move, the player's reply, the
opponent's next move, the reply to it, … (``"e5; d4; c3 e5; f6"``). A step is one whole
turn, so a Whirlwind or Io two-stone turn is one step (``c3 e5``). A line starts with the
opponent's move (conditional moves are stored while the opponent is to move) and ends with
the player's reply. Each step is checked in turn against the position reached by the steps
before it, and stored in the engine's canonical text (``C3`` -> ``c3``, a Whirlwind pair in
its canonical order).

The lines of one player in one game form a :class:`ConditionalTree`: lines that begin alike
share their beginning; an opponent's move has at most one reply. When the opponent moves,
:meth:`ConditionalTree.respond` gives the reply to play (if a line starts with that move)
and the tree that remains after it; every line that did not start with that move is gone.
"""

from __future__ import annotations

import enum
import json
import unicodedata
from collections.abc import Iterator
from typing import Any

import engine

__all__ = [
    "MAX_LINES",
    "MAX_STEPS",
    "ConditionalError",
    "ConditionalTree",
    "LineProblem",
    "add_line",
    "check_line",
    "complete_line",
    "end_position",
    "parse_line",
]

MAX_STEPS = 20
"""The most steps (opponent's moves and replies together) in one line."""
MAX_LINES = 20
"""The most lines one player may store in one game."""
CHOICE_LENGTH = 100
"""Discord's limit on an autocomplete choice; longer suggestions are left out."""


class LineProblem(enum.Enum):
    """Why a conditional line cannot be stored (or a stored tree read): the reason a
    :class:`ConditionalError` carries. Each member's value is its English sentence for
    ``str(e)`` (library users, logs), with ``{field}`` placeholders for the error's fields;
    the bot words the reason itself (``bot.texts.conditional_error``), in the player's
    language. ``{step}`` is the step named by :data:`STEP_NAMES` (number and text)."""

    NOT_TEXT = "a line must be text like 'e5; d4; c3; f6'"
    EMPTY_LINE = "the line is empty: give their move and your reply, separated by ';' (e.g. 'e5; d4')"
    EMPTY_STEP = "step {number} is empty: put one move between each pair of ';'"  # fields: number
    TOO_MANY_STEPS = "a line has at most {most} steps; this one has {count}"  # fields: most, count
    BAD_SEAT = "seat must be 1 or 2"
    GAME_OVER = "the game is over: there is nothing left to prepare"
    YOUR_MOVE = "it is your move: conditional moves answer your opponent's moves, so play your move first"
    AFTER_END = "{step} ends the game, so nothing can follow it"  # fields: number, text
    BAD_STEP = "{step}: {error}"  # fields: number, text, error (the engine's EngineError)
    ENDS_WITH_THEIR_MOVE = "the line ends with their move `{text}`: add your reply to it after a ';'"
    NOT_PAIRS = "a line is pairs of their move and your reply"
    TOO_MANY_LINES = "you can store at most {most} lines in a game: clear some with /conditional clear"
    OTHER_REPLY = ("{step}: another line already answers `{move}` with `{stored}`; clear your lines "
                   "first to change it")  # fields: number, text, move, stored
    DAMAGED = "stored conditional moves are damaged"


#: How ``str(e)`` names a step (``{step}``): an odd step number is the opponent's move, an
#: even one the player's reply.
STEP_NAMES = ("step {number} (their move `{text}`)", "step {number} (your reply `{text}`)")


class ConditionalError(ValueError):
    """A line that cannot be stored, or a stored tree that cannot be read: ``reason`` (a
    :class:`LineProblem`) and ``fields`` (which step -- ``number`` from 1 and its ``text`` --,
    the engine's ``error``, the limits ``most``/``count``, ``move``/``stored``). ``str(e)``
    says in English which step is wrong and why."""

    def __init__(self, reason: LineProblem, **fields: Any) -> None:
        self.reason = reason
        self.fields = fields
        values = dict(fields)
        if "number" in fields and "text" in fields:
            values["step"] = STEP_NAMES[(fields["number"] - 1) % 2].format(**fields)
        super().__init__(reason.value.format(**values))


def _step(index: int, text: str) -> dict[str, Any]:
    """The fields naming step ``index`` (from 0) typed ``text``."""
    return {"number": index + 1, "text": text}


def _split(text: str) -> list[str]:
    # NFKC first, so a full-width semicolon separates steps too.
    return [part.strip() for part in unicodedata.normalize("NFKC", text).split(";")]


def parse_line(text: str) -> list[str]:
    """The steps of a typed line, as typed (trimmed): ``"e5; d4; c3 e5; f6"`` ->
    ``["e5", "d4", "c3 e5", "f6"]``. A ``;`` at the very end is ignored. Raises
    ConditionalError for text that is not a string, an empty line, an empty step (naming
    it), or more than :data:`MAX_STEPS` steps."""
    if not isinstance(text, str):
        raise ConditionalError(LineProblem.NOT_TEXT)
    steps = _split(text)
    if steps and not steps[-1] and len(steps) > 1:
        steps.pop()
    if not any(steps):
        raise ConditionalError(LineProblem.EMPTY_LINE)
    for i, step in enumerate(steps):
        if not step:
            raise ConditionalError(LineProblem.EMPTY_STEP, number=i + 1)
    if len(steps) > MAX_STEPS:
        raise ConditionalError(LineProblem.TOO_MANY_STEPS, most=MAX_STEPS, count=len(steps))
    return steps


def _walk(position: engine.Position, seat: int, steps: list[str]) -> tuple[list[str], engine.Position]:
    """Canonical steps and the position after them; the checks of :func:`check_line` except
    the one on the line's length."""
    if seat not in (1, 2):
        raise ConditionalError(LineProblem.BAD_SEAT)
    if position.is_over:
        raise ConditionalError(LineProblem.GAME_OVER)
    if position.to_move == seat:
        raise ConditionalError(LineProblem.YOUR_MOVE)
    canonical: list[str] = []
    for i, step in enumerate(steps):
        if position.is_over:
            raise ConditionalError(LineProblem.AFTER_END, **_step(i - 1, canonical[-1]))
        try:
            position = position.play(step)
        except engine.EngineError as exc:
            raise ConditionalError(LineProblem.BAD_STEP, **_step(i, step), error=exc) from None
        assert position.last_move is not None  # a position just played knows its move
        canonical.append(position.last_move)
    return canonical, position


def check_line(position: engine.Position, seat: int, steps: list[str]) -> list[str]:
    """``steps`` (from :func:`parse_line`) in canonical text, after checking that they can be
    played in turn from ``position``, the opponent's moves alternating with the replies of
    the player in seat ``seat`` (1 or 2), starting with the opponent's move and ending with a
    reply. Raises ConditionalError naming the first bad step and the engine's reason
    ("step 3 (their move `c3`): c3 is occupied"), or when the game is over, it is ``seat``'s
    move, a step follows the end of the game or the line ends with the opponent's move."""
    canonical, _ = _walk(position, seat, steps)
    if len(canonical) % 2:
        raise ConditionalError(LineProblem.ENDS_WITH_THEIR_MOVE, text=canonical[-1])
    return canonical


def end_position(position: engine.Position, line: list[str]) -> engine.Position:
    """The position at the end of ``line`` (canonical steps) played from ``position``, for
    showing the board of a stored line. Raises engine errors if the line does not fit."""
    for step in line:
        position = position.play(step)
    return position


class ConditionalTree:
    """One player's conditional lines in one game (module docstring). Immutable: every
    change returns a new tree. ``branches`` maps an opponent's move (canonical text) to
    ``(reply, subtree)``. An empty tree is falsy; ``len`` is the number of lines."""

    __slots__ = ("branches",)

    def __init__(self, branches: dict[str, tuple[str, ConditionalTree]] | None = None) -> None:
        self.branches: dict[str, tuple[str, ConditionalTree]] = dict(branches or {})

    def __len__(self) -> int:
        return sum(max(1, len(sub)) for _, sub in self.branches.values())

    def __bool__(self) -> bool:
        return bool(self.branches)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ConditionalTree) and self.branches == other.branches

    def __repr__(self) -> str:
        return f"ConditionalTree({self.line_texts()!r})"

    def lines(self) -> Iterator[list[str]]:
        """Every line from the root to a leaf, as canonical steps, in the order added."""
        for move, (reply, sub) in self.branches.items():
            if not sub:
                yield [move, reply]
            else:
                for rest in sub.lines():
                    yield [move, reply, *rest]

    def line_texts(self) -> list[str]:
        """The lines as /conditional list shows them: ``["e5; d4; c3 e5; f6", ...]``."""
        return ["; ".join(line) for line in self.lines()]

    def merged(self, line: list[str]) -> ConditionalTree:
        """This tree with ``line`` (canonical steps of even length, from :func:`check_line`)
        added, sharing any beginning it has with stored lines. A line already contained in
        the tree changes nothing. Raises ConditionalError when the line answers an opponent's
        move with another reply than a stored line does, or when the tree would hold more
        than :data:`MAX_LINES` lines."""
        if not line or len(line) % 2:
            raise ConditionalError(LineProblem.NOT_PAIRS)
        new = self._merged(line, 0)
        if len(new) > MAX_LINES:
            raise ConditionalError(LineProblem.TOO_MANY_LINES, most=MAX_LINES)
        return new

    def _merged(self, line: list[str], depth: int) -> ConditionalTree:
        move, reply, rest = line[0], line[1], line[2:]
        branches = dict(self.branches)
        if move in branches:
            stored, sub = branches[move]
            if stored != reply:
                raise ConditionalError(LineProblem.OTHER_REPLY, **_step(depth + 1, reply), move=move,
                                       stored=stored)
            branches[move] = (reply, sub._merged(rest, depth + 2) if rest else sub)
        else:
            branches[move] = (reply, ConditionalTree()._merged(rest, depth + 2) if rest else ConditionalTree())
        return ConditionalTree(branches)

    def respond(
        self, opponent_move: str, position: engine.Position | None = None
    ) -> tuple[str | None, ConditionalTree]:
        """``(reply, remaining tree)`` after the opponent played ``opponent_move`` (canonical
        text, e.g. the new position's ``last_move``). ``reply`` is ``None`` when no line
        starts with that move; lines that did not start with it are dropped. When
        ``position`` (the position after the opponent's move) is given and the reply is not
        legal there (or the game is over), the line is dropped: ``(None, empty tree)``."""
        if opponent_move not in self.branches:
            return None, ConditionalTree()
        reply, sub = self.branches[opponent_move]
        if position is not None and not position.is_legal(reply):
            return None, ConditionalTree()
        return reply, sub

    # ---- storage -------------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        """A JSON-ready form: ``{"e5": ["d4", {...}], ...}``."""
        return {move: [reply, sub.to_data()] for move, (reply, sub) in self.branches.items()}

    def to_json(self) -> str:
        """The stored form (compact JSON of :meth:`to_data`); :meth:`from_json` reads it."""
        return json.dumps(self.to_data(), separators=(",", ":"), ensure_ascii=True)

    @classmethod
    def from_data(cls, data: object, _depth: int = 0) -> ConditionalTree:
        """The tree of :meth:`to_data`'s form. Raises ConditionalError when ``data`` is not
        of that shape or deeper than :data:`MAX_STEPS`."""
        if not isinstance(data, dict) or _depth > MAX_STEPS:
            raise ConditionalError(LineProblem.DAMAGED)
        branches = {}
        for move, value in data.items():
            if (not isinstance(move, str) or not isinstance(value, list) or len(value) != 2
                    or not isinstance(value[0], str)):
                raise ConditionalError(LineProblem.DAMAGED)
            branches[move] = (value[0], cls.from_data(value[1], _depth + 2))
        return cls(branches)

    @classmethod
    def from_json(cls, text: str | None) -> ConditionalTree:
        """The tree stored as ``text`` (``None`` or ``""``: an empty tree). Raises
        ConditionalError for text that is not a stored tree."""
        if not text:
            return cls()
        try:
            data = json.loads(text)
        except (TypeError, ValueError):
            raise ConditionalError(LineProblem.DAMAGED) from None
        return cls.from_data(data)


def add_line(tree: ConditionalTree, position: engine.Position, seat: int, text: str) -> ConditionalTree:
    """``tree`` with the typed line ``text`` added, for /conditional add: :func:`parse_line`,
    :func:`check_line` against the current ``position`` for the player in ``seat``, then
    :meth:`ConditionalTree.merged`. Raises ConditionalError (the tree is unchanged)."""
    return tree.merged(check_line(position, seat, parse_line(text)))


def complete_line(position: engine.Position, seat: int, typed: str, limit: int = 25) -> list[str]:
    """Autocomplete of a line being typed for the player in ``seat``: whole-line suggestions
    ``"<earlier steps>; <legal move>"`` whose last step is a legal move (or first placement
    of a two-stone turn) in the position after the earlier steps that starts with what is
    typed of it (:meth:`engine.Position.complete`). Earlier steps are shown in canonical
    text. No suggestions (``[]``) when an earlier step is wrong, the game is over at that
    point, it is ``seat``'s move, or ``typed`` is not a string; suggestions longer than
    Discord's 100 characters are left out. At most ``limit``."""
    if not isinstance(typed, str) or limit <= 0:
        return []
    parts = _split(typed)
    earlier, current = parts[:-1], parts[-1]
    if any(not step for step in earlier) or len(earlier) >= MAX_STEPS:
        return []
    try:
        canonical, after = _walk(position, seat, earlier)
    except ConditionalError:
        return []
    if after.is_over:
        return []
    head = "".join(f"{step}; " for step in canonical)
    return [head + move for move in after.complete(current, limit=limit)
            if len(head) + len(move) <= CHOICE_LENGTH]
