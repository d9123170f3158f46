"""What every game shares: option specs, game kinds, outcomes, highlights and the position base.

A :class:`Position` is immutable. ``play`` returns a new position; the old one stays valid.
Each game subclasses :class:`Position` in its own module and registers a :class:`GameKind`.
"""

from __future__ import annotations

import copy
import enum
import random
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from .errors import ErrorReason, GameError, IllegalMove, MoveError, OptionError, PositionError
from .geometry import Board, bits

if TYPE_CHECKING:
    from .state import SearchState

__all__ = [
    "GAMES",
    "MENU_ORDER",
    "GameKind",
    "Highlights",
    "OptionSpec",
    "Outcome",
    "Position",
    "Stage",
    "Termination",
    "clean_move_text",
    "from_text",
    "new_game",
    "normalise_move_text",
    "replay",
]

SEATS = (1, 2)
_WHOLE_RE = re.compile(r"^\s*[+-]?[0-9]+\s*$")



def _field(value: object) -> str | int | float | None:
    """A value as an error's field: numbers and text as they are, anything else as its repr."""
    return value if value is None or isinstance(value, (str, int, float)) else repr(value)

@dataclass(frozen=True)
class OptionSpec:
    """One option of a game, as a slash command or a form would offer it.

    * ``name`` -- ``"size"``, ``"shape"``, ``"bonus"`` or ``"setup"``.
    * ``type`` -- ``int`` or ``str``.
    * ``choices`` -- the allowed values, or ``None`` for an int range ``minimum..maximum``.
    * ``default`` -- used when the option is not given.
    * ``description`` -- one short line for players.
    * ``range_text`` -- for an int whose allowed range depends on another option (the
      Corals' size on each shape): the whole rule in words, used in the message for a value
      outside ``minimum..maximum`` instead of the bare bounds, which would mislead.
    * ``ranges`` -- the same rule as data, for programs that word it themselves (the bot, in
      the player's language): ``(other option, its value, least, most)`` for each case,
      e.g. ``("shape", "limping", 2, 10)``; empty when the range is ``minimum..maximum``.
    """

    name: str
    type: type
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    range_text: str | None = None
    ranges: tuple[tuple[str, str, int, int], ...] = ()

    def check(self, value: Any) -> Any:
        """Coerce ``value`` to this option's type and check it is allowed.

        An int option takes an int, a float with no fractional part, or text of a whole
        number (``"9"``); anything else (``9.5``, ``True``, ``"nine"``) is refused. Raises
        :class:`engine.OptionError` with a readable message otherwise.
        """
        if self.type is int:
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            elif isinstance(value, str) and _WHOLE_RE.match(value):
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(ErrorReason.OPTION_NOT_WHOLE, option=self.name, value=_field(value))
        else:
            if not isinstance(value, str):
                raise OptionError(ErrorReason.OPTION_NOT_TEXT, option=self.name,
                                  choices=tuple(map(str, self.choices or ())))
            value = value.strip()
            if self.choices is not None:  # choices match whatever the case typed
                value = next((c for c in self.choices if str(c).lower() == value.lower()), value)
        if self.choices is not None and value not in self.choices:
            raise OptionError(ErrorReason.OPTION_NOT_A_CHOICE, option=self.name,
                              choices=tuple(map(str, self.choices)), value=_field(value))
        out_of_range = (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        )
        if out_of_range and self.range_text:
            raise OptionError(ErrorReason.OPTION_OUT_OF_RANGE, option=self.name, range=self.range_text,
                              value=_field(value))
        if self.minimum is not None and value < self.minimum:
            raise OptionError(ErrorReason.OPTION_TOO_SMALL, option=self.name, minimum=self.minimum)
        if self.maximum is not None and value > self.maximum:
            raise OptionError(ErrorReason.OPTION_TOO_LARGE, option=self.name, maximum=self.maximum)
        return value


class Termination(enum.StrEnum):
    """Why a game ended (RULES.md "Every game"), as python-chess's ``Termination``.

    A ``str`` enum: each member equals its value, the reason's word in position text, records
    and the database (``Termination.BOARD_FULL == "board full"``), so those keep reading and
    writing the same text; ``Termination("board full")`` reads one back (ValueError for a word
    that names no reason). Each member's docstring names the rule that ends a game so. Each
    member also answers:

    * ``by_rules`` -- True when the game's own rules ended it; False for ``RESIGNATION`` and
      ``TIMEOUT``, which any game can end with.
    * ``on_scores`` -- True when the game was decided by comparing the seats' scores
      (``STONES``, ``SCORE``).
    * :meth:`caption` -- the line under "Ann wins" on the board picture: ``"by closing a coil"``.
    """

    _value_: str
    _caption: str

    def __new__(cls, value: str, *details: str) -> Termination:
        # a member is defined as (value, docstring, caption); Termination("coil")
        # looks one up by its value alone, which this signature also describes
        doc, caption = details
        member = str.__new__(cls, value)
        member._value_ = value
        member.__doc__ = doc
        member._caption = caption
        return member

    COIL = ("coil", 'Black\'s stones form a coil: Black wins (RULES.md "Coil", End).',
            "by closing a coil")
    BOARD_FULL = ("board full", 'The board filled without a coil: White wins (RULES.md "Coil", End).',
                  "board full, no coil")
    STONES = ("stones", 'The board is full: more stones wins, an equal count on an even board draws '
              '(RULES.md "Io", End).', "on stones")
    SCORE = ("score", 'The player to move has no legal placement: the higher score wins, a tie goes '
             'to the player who placed the last stone (RULES.md "Brain Coral", Score and Winner; '
             '"Branching Coral").', "on score")
    CONNECTION = ("connection", 'The mover\'s chain touches both of their edges: the mover wins '
                  '(RULES.md "Whirlwind", Win).', "by joining both edges")
    NO_MOVES = ("no moves", 'The player to move has no legal turn and loses (RULES.md "Whirlwind", '
                'Ruling).', "{loser} had no legal turn")
    RESIGNATION = ("resignation", 'A player resigned, on their turn or the opponent\'s: the other wins '
                   '(RULES.md "Every game").', "by resignation")
    TIMEOUT = ("timeout", 'The player to move let the deadline pass: the other wins (RULES.md '
               '"Every game"; the clock is the bot\'s, not the rules\').', "on time")

    @classmethod
    def read(cls, word: object) -> Termination | None:
        """The member for ``word`` (a member, or its word such as ``"board full"``); ``None``
        for ``None`` or anything that names no reason (a stored row or record is shown as
        written rather than refused)."""
        if not isinstance(word, str):  # a member is a str: nothing else names one
            return None
        try:
            return cls(word)
        except ValueError:
            return None

    @property
    def by_rules(self) -> bool:
        """True when the game's own rules ended it; False for a resignation or a timeout."""
        return self not in (Termination.RESIGNATION, Termination.TIMEOUT)

    @property
    def on_scores(self) -> bool:
        """True when the game was decided by comparing scores (Io's stones, the Corals' score)."""
        return self in (Termination.STONES, Termination.SCORE)

    def caption(self, loser: str) -> str:
        """The line under the headline ("Ann wins") on the board picture, e.g. ``"by closing a
        coil"``; ``loser`` (a display name) is named where the reason needs it: ``"Bo had no
        legal turn"``."""
        return self._caption.replace("{loser}", loser)


class Stage(enum.Enum):
    """Where a game stands for the player to move, as data: which phase (RULES.md, each
    game's phases and turns) and so what may be played now. A program that speaks to
    players words the member itself (the bot's texts layer does, in the player's language);
    :attr:`hint` and :attr:`caption` are the English words for library users
    (:attr:`Position.turn_hint`, :attr:`Position.phase_caption`). Each member's docstring
    names its rule."""

    hint: str
    caption: str | None

    def __new__(cls, value: str, doc: str, hint: str, caption: str | None) -> Stage:
        member = object.__new__(cls)
        member._value_ = value
        member.__doc__ = doc
        member.hint = hint
        member.caption = caption
        return member

    ONE_STONE = ("one stone", "One stone a turn, the game has one phase (the Corals).", "one stone", None)
    TWO_STONES = ("two stones", "One or two stones this turn, in a game with one phase.",
                  "one or two stones", None)
    COIL_PHASE_I = ("coil phase I", 'Coil\'s Phase I: place a black stone or pass (RULES.md "Coil").',
                    "place a black stone or `pass`", "Phase I · place a black stone or pass")
    COIL_PHASE_II = ("coil phase II", 'Coil\'s Phase II: a stone of one\'s colour (RULES.md "Coil").',
                     "place a stone of your colour", "Phase II")
    IO_FIRST_STONE = ("io first stone", 'Io\'s opening, White\'s first stone: not on a corner '
                      '(RULES.md "Io").', "one stone, not on a corner", "Opening · one stone, not in a corner")
    IO_BOUND_THEN_FREE = ("io bound then free", 'Io\'s opening after the first stone: a bound stone, '
                          'then a free one (RULES.md "Io").', "bound then free, like `c3 e5`",
                          "Opening · bound stone, then free")
    IO_MAIN = ("io main", 'Io\'s main phase: one stone a turn (RULES.md "Io").', "one stone", "Main phase")
    WHIRLWIND_FIRST_TURN = ("whirlwind first turn", 'Whirlwind\'s first turn: Black places one stone '
                            '(RULES.md "Whirlwind" Turns).', "one stone: the first turn places just one",
                            "First turn: one stone")
    WHIRLWIND_TWO_STONES = ("whirlwind two stones", 'Whirlwind after the first turn: one or two stones '
                            '(RULES.md "Whirlwind" Turns).', "one or two stones", "One or two stones a turn")


@dataclass(frozen=True)
class Outcome:
    """How a game ended.

    * ``winner`` -- seat 1 or 2, or ``None`` for a draw.
    * ``reason`` -- a :class:`Termination` (RULES.md "Every game"); its word (``"coil"``,
      ``"board full"`` ...) is accepted too and read as the member. Raises ValueError for a
      word that names no reason.
    * ``scores`` -- ``{1: n, 2: m}`` where the game has scores, else ``None``.
    """

    winner: int | None
    reason: Termination
    scores: Mapping[int, int] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.reason, Termination):
            try:
                object.__setattr__(self, "reason", Termination(self.reason))
            except ValueError:
                raise ValueError(f"unknown end reason {self.reason!r}") from None


@dataclass(frozen=True)
class Highlights:
    """Cells a renderer should mark, by label (e.g. ``"g7"``).

    * ``placed`` -- the cells the last move placed on, in order.
    * ``flipped`` -- stones turned over by the last move (Io).
    * ``removed`` -- cells emptied by the last move, mapped to the colour that stood there
      (Branching Coral captures).
    * ``winning`` -- once the game is over, the stones that won it (Coil's coil, Whirlwind's
      chain, the Corals' largest groups of both players).
    * ``enclosed`` -- Coil: the cells the coil encloses.
    * ``groups`` -- Corals: each seat's largest group (seat -> labels).
    * ``chain`` -- Whirlwind, once won by connection: every stone of the winning groups
      (``winning`` is one shortest edge-to-edge path through them).
    """

    placed: tuple[str, ...] = ()
    flipped: frozenset[str] = frozenset()
    removed: Mapping[str, str] = field(default_factory=dict)
    winning: frozenset[str] = frozenset()
    enclosed: frozenset[str] = frozenset()
    groups: Mapping[int, frozenset[str]] = field(default_factory=dict)
    chain: frozenset[str] = frozenset()


@dataclass(frozen=True)
class GameKind:
    """A game Stonecast plays: what menus, help, records and pictures need to know of it.

    * ``key`` -- ``"coil"``, ``"io"``, ``"braincoral"``, ``"branchingcoral"``, ``"whirlwind"``.
    * ``title`` -- e.g. ``"Brain Coral"``; ``summary`` -- one line for menus.
    * ``options`` -- tuple of :class:`OptionSpec`.
    * ``position_class`` -- the :class:`Position` subclass.
    * ``validate_extra`` -- optional check across options (e.g. size range per shape); takes
      the full options dict and raises OptionError.
    * ``ends`` -- the :class:`Termination` members the game's own rules end it with (RULES.md
      "Every game": Coil ``COIL``, ``BOARD_FULL``; Io ``STONES``; the Corals ``SCORE``;
      Whirlwind ``CONNECTION``, ``NO_MOVES``); :attr:`terminations` adds resignation and timeout.
    * ``places`` -- where stones stand: ``"cells"`` (hexagons or squares: Coil, Io, the
      Corals) or ``"points"`` where grid lines cross (Whirlwind, RULES.md "Whirlwind" Board).
    * ``move_format`` -- how to write a move, one phrase for players, moves in backticks
      (Markdown code): ``"one cell (`g7`), or `pass` during Phase I"`` (RULES.md "Moves and
      notation" and the game's Notation).
    * ``colours`` -- ``{1: colour, 2: colour}`` (``"black"`` / ``"white"``) fixed for the
      whole game (RULES.md "Seats"), or ``None`` where play decides them (Coil).
    """

    key: str
    title: str
    summary: str
    options: tuple[OptionSpec, ...]
    position_class: type[Position]
    validate_extra: Callable[[dict[str, Any]], None] | None = None
    ends: tuple[Termination, ...] = ()
    places: str = "cells"
    move_format: str = ""
    colours: Mapping[int, str] | None = field(default=None, hash=False)

    @property
    def terminations(self) -> tuple[Termination, ...]:
        """Every way a game of this kind can end: :attr:`ends`, then resignation and timeout
        (RULES.md "Every game")."""
        return (*self.ends, Termination.RESIGNATION, Termination.TIMEOUT)

    @property
    def menu_rank(self) -> int:
        """Where the game stands in menus, from 0 (:data:`MENU_ORDER`). Raises ValueError for
        a game not in the menu."""
        return MENU_ORDER.index(self.key)

    def validate(self, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The full options dict (defaults filled in), values coerced and checked.

        Raises :class:`engine.OptionError` for an unknown option or a bad value.
        """
        options = dict(options or {})
        known = {o.name: o for o in self.options}
        for name in options:
            if name not in known:
                raise OptionError(ErrorReason.UNKNOWN_OPTION, game=self.title, option=_field(name),
                                  options=tuple(known))
        out = {}
        for spec in self.options:
            out[spec.name] = spec.check(options[spec.name]) if spec.name in options else spec.default
        if self.validate_extra is not None:
            self.validate_extra(out)
        return out

    def new(self, **options: Any) -> Position:
        """The starting position with these options. Raises OptionError."""
        return self.position_class.initial(self.validate(options))


#: The games' keys in the order menus, help and profiles list them (the README's order):
#: Coil, Io, Brain Coral, Branching Coral, Whirlwind. :data:`GAMES` iterates in this order.
MENU_ORDER: tuple[str, ...] = ("coil", "io", "braincoral", "branchingcoral", "whirlwind")

#: Every game by key, in :data:`MENU_ORDER` (``engine`` orders it once all are registered).
GAMES: dict[str, GameKind] = {}


def register(kind: GameKind) -> GameKind:
    """Add ``kind`` to :data:`GAMES` (called by each game module)."""
    GAMES[kind.key] = kind
    kind.position_class.kind = kind.key
    return kind


def _kind(name: str) -> GameKind:
    if not isinstance(name, str):
        raise GameError(ErrorReason.GAME_NOT_TEXT)
    key = name.strip().lower().replace(" ", "").replace("_", "").replace("-", "")
    try:
        return GAMES[key]
    except KeyError:
        raise GameError(ErrorReason.UNKNOWN_GAME, name=name, games=tuple(GAMES)) from None


def new_game(name: str, **options: Any) -> Position:
    """Starting position of game ``name`` (a key of :data:`GAMES`) with ``options``.

    Raises :class:`engine.GameError` for an unknown game and :class:`engine.OptionError` for
    a bad option (both ValueError).
    """
    return _kind(name).new(**options)


def replay(kind: str, options: Mapping[str, Any] | None, moves: Iterable[str]) -> Position:
    """The position reached by playing ``moves`` (an iterable of move strings) from the start.

    Raises GameError / OptionError for bad arguments and MoveError / IllegalMove (message
    prefixed with the move number) for a move that does not play.
    """
    pos = new_game(kind, **dict(options or {}))
    for i, mv in enumerate(moves, 1):
        try:
            pos = pos.play(mv)
        except (MoveError, IllegalMove) as e:
            raise e.at_move(i, mv) from None
    return pos


_OPT_RE = re.compile(r"^[a-z]+=[A-Za-z0-9]+$")
#: The words of the endings position text records after ``!`` (those not by the rules).
_FORCED = frozenset(t.value for t in Termination if not t.by_rules)


def from_text(text: str) -> Position:
    """The position written by :meth:`Position.to_text`.

    Raises :class:`engine.PositionError` (or GameError / OptionError) for text that is not a
    valid position.
    """
    if not isinstance(text, str):
        raise PositionError("position text must be a string")
    parts = text.strip().split(" ", 4)
    if len(parts) < 5:
        raise PositionError("position text is incomplete")
    name, opts, ply_s, last, body = parts
    kind = _kind(name)
    options: dict[str, Any] = {}
    if opts != "-":
        for item in opts.split(","):
            if not _OPT_RE.match(item):
                raise PositionError(f"bad option {item!r} in position text")
            k, v = item.split("=")
            options[k] = v
    options = kind.validate(options)
    if not ply_s.isdigit():
        raise PositionError("bad ply in position text")
    forced = None
    if " !" in body:
        body, _, end = body.rpartition(" !")
        w, _, reason = end.partition(":")
        if w not in ("0", "1", "2") or reason not in _FORCED:
            raise PositionError("bad result in position text")
        forced = Outcome(int(w) or None, Termination(reason))
    try:
        pos = kind.position_class.from_body(
            options, int(ply_s), None if last == "-" else last.replace(",", " "), body
        )
    except PositionError:
        raise
    except (ValueError, IndexError, KeyError) as e:
        raise PositionError(f"position text does not describe a {kind.title} position ({e})") from None
    if forced is not None:
        pos = pos._concluded(forced)
    if pos.to_text() != text.strip():
        raise PositionError("position text is not in canonical form")
    return pos


_SPLIT = re.compile(r"[\s,]+")
# Marks around or after a move that a player may copy or type with it: the bot's own
# "played `c3`." (backticks, trailing full stop), quotes, brackets, end-of-sentence
# punctuation. They read as separators, like commas.
_DECORATION = str.maketrans({ch: " " for ch in "`'\"\u2018\u2019\u201c\u201d.;:!?()[]{}"})


def clean_move_text(text: str) -> str:
    """``text`` as a player meant it, before it is split into tokens (RULES.md "Moves and
    notation"): NFKC-folded (full-width ``ｃ３`` -> ``c3``, no-break and ideographic spaces
    -> spaces), invisible format characters removed (zero-width space and joiners, the
    byte-order mark, direction marks), and backticks, quotes, brackets and ``.;:!?`` read as
    spaces (so ``"`c3`"`` copied from the bot's "played `c3`." is ``c3``). Lower-cased.
    ``text`` must be a string."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return text.translate(_DECORATION).lower()


def normalise_move_text(text: str) -> list[str]:
    """Lower-case tokens of move text (cleaned by :func:`clean_move_text`); commas and runs
    of spaces separate. Raises MoveError for text that is not a string or names nothing."""
    if not isinstance(text, str):
        raise MoveError(ErrorReason.MOVE_NOT_TEXT)
    tokens = [t for t in _SPLIT.split(clean_move_text(text).strip()) if t]
    if not tokens:
        raise MoveError(ErrorReason.EMPTY_MOVE)
    return tokens


def _check_prefix(prefix: object) -> None:
    if not isinstance(prefix, str):
        raise TypeError(f"the move prefix to complete must be a string, not {type(prefix).__name__}")


def prefix_tokens(prefix: str) -> tuple[list[str], bool]:
    """``(tokens, trailing_space)`` of a partly typed move, for :meth:`Position.complete`.

    ``tokens`` -- the lower-case parts of ``prefix`` cleaned by :func:`clean_move_text`,
    commas reading as spaces (``"C3, e"`` -> ``["c3", "e"]``, ``"ｃ３\u200b"`` -> ``["c3"]``);
    ``trailing_space`` -- True when there is a token and the cleaned text ends with a space
    or comma (the last part is complete). Raises TypeError when ``prefix`` is not a string.
    """
    _check_prefix(prefix)
    cleaned = clean_move_text(prefix)
    tokens = [t for t in _SPLIT.split(cleaned) if t]
    return tokens, bool(tokens) and _SPLIT.match(cleaned[-1]) is not None


def first_matching(moves: Iterable[str], prefix: str, limit: int | None) -> list[str]:
    """The first ``limit`` moves of ``moves`` (all when ``None``) starting with ``prefix``."""
    out: list[str] = []
    if limit is not None and limit <= 0:
        return out
    for mv in moves:
        if mv.startswith(prefix):
            out.append(mv)
            if len(out) == limit:
                break
    return out


def rows_text(board: Board, black: int, white: int, bit: Sequence[int] | None = None) -> str:
    """The board part of position text: the rows top to bottom joined by ``/``, each row's
    cells left to right as ``x`` (black stone), ``o`` (white stone) or ``.`` (empty).

    ``black`` / ``white`` are bitboards in which cell ``c`` is ``bit[c]`` (``1 << c`` when
    ``bit`` is None). :func:`read_rows` reads the text back.
    """
    rows = []
    for r in range(board.rows - 1, -1, -1):
        marks = []
        for c in board.row_cells(r):
            b = 1 << c if bit is None else bit[c]
            marks.append("x" if black & b else "o" if white & b else ".")
        rows.append("".join(marks))
    return "/".join(rows)


def read_rows(board: Board, text: str, bit: Sequence[int] | None = None, noun: str = "cell") -> tuple[int, int]:
    """``(black, white)`` bitboards from :func:`rows_text` text (same ``bit`` convention).

    ``noun`` names a board place in messages (``"cell"``, or ``"point"`` for Whirlwind).
    Raises :class:`engine.PositionError` for a wrong number of rows, a row of the wrong
    length or a character other than ``.``, ``x`` and ``o``.
    """
    rows = text.split("/")
    if len(rows) != board.rows:
        raise PositionError(f"the board has {board.rows} rows, not {len(rows)}")
    black = white = 0
    for k, row in enumerate(rows):
        r = board.rows - 1 - k
        cells = board.row_cells(r)
        if len(row) != len(cells):
            raise PositionError(f"row {r + 1} must have {len(cells)} {noun}s, not {len(row)}")
        for ch, c in zip(row, cells, strict=True):
            b = 1 << c if bit is None else bit[c]
            if ch == "x":
                black |= b
            elif ch == "o":
                white |= b
            elif ch != ".":
                raise PositionError(f"unknown {noun} character {ch!r} (use . x o)")
    return black, white


def stones_of(black: int, white: int) -> dict[int, str]:
    """Cell number -> ``"black"`` / ``"white"`` for the bitboards ``black`` and ``white``
    (bit ``c`` = cell ``c``), in ascending cell order."""
    return {c: "black" if (black >> c) & 1 else "white" for c in bits(black | white)}


class Position:
    """An immutable game position. Subclasses implement one game each.

    Public attributes: ``kind`` (game key), ``options`` (full dict), ``board`` (a
    :class:`engine.geometry.Board`), ``ply`` (moves played), ``last_move`` (text or None).
    See the properties for the rest. Equality and hashing follow :meth:`to_text`.

    Subclass contract (the private hooks):

    * ``initial(options)`` -- classmethod, the starting position.
    * ``_turn`` -- slot: seat to move if the game were not over.
    * ``_natural_outcome()`` -- Outcome from the rules, or None (called once, cached).
    * ``legal_moves()`` -- canonical move strings (empty once over).
    * ``_parse(tokens)`` -> an internal move; raises MoveError.
    * ``_check(move)`` raises IllegalMove; ``_apply(move)`` -> new position (no checks).
    * ``_body()`` / ``from_body(options, ply, last, body)`` -- the game's part of the text.
    * ``colour(seat)``, ``phase``, ``scores``, ``highlights``, ``stones``.
    """

    __slots__ = ("options", "board", "ply", "last_move", "_turn", "_forced", "_outcome_cache")

    options: dict[str, Any]  # option name -> value (int or str), as GameKind.validate gives
    board: Board
    ply: int
    last_move: str | None
    _turn: int
    _forced: Outcome | None
    _outcome_cache: Outcome | None | Literal[False]

    kind: ClassVar[str] = ""
    #: Whether a move may have two placements (Io opening, Whirlwind) -- used by complete().
    two_placements: ClassVar[bool] = False

    # ---- construction helpers -------------------------------------------------------------
    @classmethod
    def initial(cls, options: dict[str, Any]) -> Position:  # pragma: no cover - abstract
        """The starting position for ``options`` (a full dict from :meth:`GameKind.validate`)."""
        raise NotImplementedError

    @classmethod
    def from_body(cls, options: dict[str, Any], ply: int, last: str | None, body: str) -> Position:  # pragma: no cover
        """The position whose game-specific text (after ``<kind> <options> <ply> <last>``) is
        ``body``; ``last`` is the last move's text with spaces, or None. Raises
        :class:`engine.PositionError` (or ValueError / IndexError / KeyError, which
        :func:`engine.from_text` turns into PositionError) for text no position has."""
        raise NotImplementedError

    def _init_base(self, options: dict[str, Any], board: Board, ply: int, last_move: str | None, turn: int) -> None:
        self.options = options
        self.board = board
        self.ply = ply
        self.last_move = last_move
        self._turn = turn
        self._forced = None
        self._outcome_cache = False  # False = not computed yet

    def _concluded(self, outcome: Outcome) -> Position:
        new = copy.copy(self)
        new._forced = outcome
        new._outcome_cache = False
        return new

    # ---- public surface -------------------------------------------------------------------
    @property
    def title(self) -> str:
        """The game's title, e.g. ``"Io"``."""
        return GAMES[self.kind].title

    @property
    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on, else the :class:`Outcome`."""
        if self._forced is not None:
            f = self._forced
            return Outcome(f.winner, f.reason, self.scores)
        if self._outcome_cache is False:
            self._outcome_cache = self._natural_outcome()
        return self._outcome_cache

    @property
    def is_over(self) -> bool:
        """True once the game has ended (by the rules, resignation or timeout)."""
        return self.outcome is not None

    @property
    def to_move(self) -> int | None:
        """Seat (1 or 2) whose turn it is, ``None`` once the game is over."""
        return None if self.outcome is not None else self._turn

    @property
    def last_mover(self) -> int | None:
        """Seat (1 or 2) that played the move that led here (:attr:`last_move`), ``None`` at
        the start. Seat 1 moves first and a move is one whole turn (RULES.md "Seats", "Moves
        and notation"), so the seats alternate; a resignation or timeout is not a move and
        leaves it unchanged."""
        return 3 - self._turn if self.ply > 0 else None

    def _natural_outcome(self) -> Outcome | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def colour(self, seat: int) -> str | None:  # pragma: no cover - abstract
        """``"black"`` or ``"white"`` for ``seat`` (1 or 2); None where not yet decided."""
        raise NotImplementedError

    @property
    def phase(self) -> str:
        """Short name of the current phase; ``"main"`` for games with one phase."""
        return "main"

    @property
    def stones_this_turn(self) -> int:
        """The most cells the move to play now may name: 1, or 2 on a turn that may place two
        stones (Io's opening after the first stone, Whirlwind after Black's first turn)."""
        return 1

    @property
    def stage(self) -> Stage:
        """Where the game stands for the player to move (:class:`Stage`): the phase and what
        may be played in it. Here, for a game with one phase, :attr:`Stage.ONE_STONE` or
        :attr:`Stage.TWO_STONES` (from :attr:`stones_this_turn`); games with phases say more."""
        return Stage.TWO_STONES if self.stones_this_turn == 2 else Stage.ONE_STONE

    @property
    def turn_hint(self) -> str:
        """What the player to move may play now, in English for library users (the bot words
        :attr:`stage` itself), as a short phrase for a prompt ("your move (…)"), moves in
        backticks: ``"one stone"``, ``"one or two stones"``; games with phases say more (Coil
        ``"place a black stone or `pass`"``, Io ``"bound then free, like `c3 e5`"``, Whirlwind's
        first turn). :attr:`Stage.hint` of :attr:`stage`."""
        return self.stage.hint

    @property
    def phase_caption(self) -> str | None:
        """The phase and what may be played in it, in English, as the board picture's line
        under "… to move" (``"Phase I · place a black stone or pass"``); ``None`` for a game
        with one phase (the Corals). :attr:`Stage.caption` of :attr:`stage`."""
        return self.stage.caption

    @property
    def last_move_settled_colours(self) -> bool:
        """True when the move that led here decided which seat plays which colour (Coil's
        first pass, RULES.md "Coil" Phase I); False in every other game and position."""
        return False

    @property
    def scores(self) -> dict[int, int] | None:
        """``{1: n, 2: m}`` where the game keeps scores, else ``None``."""
        return None

    @property
    def stones(self) -> dict[int, str]:  # pragma: no cover - abstract
        """Every stone on the board: cell number -> ``"black"`` / ``"white"``."""
        raise NotImplementedError

    @property
    def highlights(self) -> Highlights:
        """Cells to mark for the renderer (:class:`Highlights`)."""
        return Highlights()

    def legal_moves(self) -> Iterator[str]:  # pragma: no cover - abstract
        """Lazy iterator of the legal moves as canonical strings (nothing once over)."""
        raise NotImplementedError

    # The internal move (``_parse``'s result, ``_check``'s and ``_apply``'s argument) is each
    # game's own type (a cell number, a tuple of them, Io's (bound, free) pair); the
    # subclasses annotate it, and here, where no one type covers them all, it is Any.
    def _parse(self, tokens: list[str]) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _check(self, move: Any) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _apply(self, move: Any) -> Position:  # pragma: no cover - abstract
        raise NotImplementedError

    def _body(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def parse_move(self, text: str) -> Any:
        """The internal form of move ``text`` (not checked for legality). Raises MoveError."""
        return self._parse(normalise_move_text(text))

    def play(self, text: str) -> Position:
        """The position after move ``text`` (e.g. ``"g7"``, ``"c3 e5"``, ``"pass"``).

        Raises :class:`engine.MoveError` when the text is not a move on this board and
        :class:`engine.IllegalMove` when the rules forbid it here (including after the end).
        """
        move = self.parse_move(text)
        if self.outcome is not None:
            raise IllegalMove(ErrorReason.GAME_OVER)
        self._check(move)
        return self._apply(move)

    def is_legal(self, text: str) -> bool:
        """True when ``text`` is a legal move here (never raises for bad text)."""
        try:
            move = self.parse_move(text)
            if self.outcome is not None:
                return False
            self._check(move)
        except (MoveError, IllegalMove):
            return False
        return True

    def complete(self, prefix: str, limit: int | None = 25) -> list[str]:
        """Legal moves (or legal first placements of two-placement moves) starting with ``prefix``.

        ``prefix`` is matched case-insensitively, commas read as spaces. At most ``limit``
        results (all when ``None``, none when 0 or less), in the order of :meth:`legal_moves`.
        Raises TypeError when ``prefix`` is not a string (in every game).
        """
        tokens, _ = prefix_tokens(prefix)
        return first_matching(self.legal_moves(), " ".join(tokens), limit)

    def random_move(self, rng: random.Random | None = None) -> str:
        """A legal move chosen uniformly at random. Raises IllegalMove once the game is over."""
        moves = list(self.legal_moves())
        if not moves:
            raise IllegalMove(ErrorReason.GAME_OVER)
        return (rng or random).choice(moves)

    def _random_internal(self, rng: random.Random) -> Any:
        """Internal form of a uniformly random legal move (games override this for speed)."""
        return self.parse_move(self.random_move(rng))

    def random_playout(self, rng: random.Random | None = None) -> Position:
        """The final position of a game continued with uniformly random legal moves.

        Each move is drawn uniformly from the legal moves of its position. Returns ``self``
        when the game is already over.
        """
        rng = rng or random.Random()
        pos = self
        while pos.outcome is None:
            pos = pos._apply(pos._random_internal(rng))
        return pos

    def search_state(self) -> SearchState:
        """This position as a mutable :class:`engine.state.SearchState` for tree search.

        Each game overrides it with its fast state; this default is the slow reference
        :class:`engine.state.PositionState`. Raises nothing; a finished position gives a
        state whose ``winner`` is set and whose ``actions()`` is empty.
        """
        from .state import PositionState

        return PositionState(self)

    def resign(self, seat: int) -> Position:
        """The position with ``seat`` having resigned (RULES.md "Every game"): the other wins.

        Raises IllegalMove once the game is over and ValueError for a seat other than 1 or 2.
        """
        return self.forfeit(seat, Termination.RESIGNATION)

    def time_out(self, seat: int) -> Position:
        """The position with ``seat`` having lost on time. Raises like :meth:`resign`."""
        return self.forfeit(seat, Termination.TIMEOUT)

    def forfeit(self, seat: int, reason: Termination | str) -> Position:
        """The position with ``seat`` having lost by ``reason``, an ending not by the rules
        (``Termination.RESIGNATION`` or ``TIMEOUT``, or its word): what a stored game's
        resignation or timeout is replayed with (RULES.md "Every game").

        Raises ValueError for a seat other than 1 or 2 or a reason the rules decide (or no
        reason at all), IllegalMove once the game is over.
        """
        if seat not in SEATS:
            raise ValueError("seat must be 1 or 2")
        try:
            reason = Termination(reason)
        except ValueError:
            raise ValueError(f"unknown end reason {reason!r}") from None
        if reason.by_rules:
            raise ValueError(f"{reason.value!r} is decided by the rules, not forfeited")
        if self.outcome is not None:
            raise IllegalMove(ErrorReason.GAME_OVER)
        return self._concluded(Outcome(3 - seat, reason))

    def to_text(self) -> str:
        """One-line position text naming the game and options; :func:`engine.from_text` reads it back."""
        opts = ",".join(f"{k}={v}" for k, v in self.options.items()) or "-"
        last = self.last_move.replace(" ", ",") if self.last_move else "-"
        text = f"{self.kind} {opts} {self.ply} {last} {self._body()}"
        if self._forced is not None:
            text += f" !{self._forced.winner or 0}:{self._forced.reason}"
        return text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and other.to_text() == self.to_text()

    def __hash__(self) -> int:
        return hash(self.to_text())

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_text()!r}>"
