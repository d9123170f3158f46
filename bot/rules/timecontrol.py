"""Correspondence clocks (issue 13 "Time banks"): pure functions over UNIX seconds, no I/O.

Two kinds of :class:`TimeControl`:

* **per move** (today's clock): each turn gets the same allowance, e.g. 3 days.
* **bank** (Little Golem, Abstract Play): each player has a bank of time, ``initial`` at the
  start; the time a turn takes is taken from the mover's bank, then ``increment`` is added,
  never above ``maximum``: ``bank = min(maximum, left - used + increment)``. A per-move clock
  is the bank clock whose three values are equal, and is computed that way.

A turn's **deadline** is when it starts plus the mover's bank (the allowance, per move),
plus what is left of a running vacation: a vacation pauses the clock, it shifts the deadline
and does not burn the bank. When the player moves, the bank left is the time from
``max(now, vacation end)`` to the deadline (so time spent on vacation is never counted, even
when a vacation was started or ended during the turn and the manager moved the deadline by
it). When the deadline passes the player to move loses on time, as today.

The **reminder** goes out 24 hours before the deadline, or a quarter of the turn's time
(the bank the turn started with) before it when that is less, as today.

Stored form (:meth:`TimeControl.to_text`, read back by :func:`parse`): ``"move 3d"``,
``"bank 7d+1d max 10d"``; a bare whole number is the legacy ``days_per_move`` column.
"""

from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass

__all__ = [
    "DAY",
    "DEFAULT",
    "HOUR",
    "LONGEST",
    "PRESETS",
    "ClockField",
    "ClockKind",
    "ClockProblem",
    "TimeControl",
    "TimeControlError",
    "days_hours",
    "duration_text",
    "left_text",
    "parse",
]

HOUR = 3600.0
DAY = 24 * HOUR
LONGEST = 60 * DAY  # no allowance, bank or increment may be longer


class ClockKind(enum.StrEnum):
    """The two kinds of :class:`TimeControl` (module docstring); equal to their value, the
    word of the stored form (``"move"``, ``"bank"``)."""

    MOVE = "move"
    BANK = "bank"


class _Worded(enum.Enum):
    """An enum whose members are ``(value, english)``: the stored value, and the English
    that ``str()`` of an error uses (the bot words each member in the player's language)."""

    english: str

    def __new__(cls, value: str, english: str) -> _Worded:
        member = object.__new__(cls)
        member._value_ = value
        member.english = english
        return member


class ClockField(_Worded):
    """Which value of a time control an error is about; :attr:`english` names it in
    ``str(error)`` (the bot words it in the player's language from the member)."""

    PER_MOVE = ("per move", "the time per move")
    INITIAL = ("initial", "the initial bank")
    INCREMENT = ("increment", "the increment")
    MAXIMUM = ("maximum", "the maximum bank")


class ClockProblem(_Worded):
    """Why a time control was refused (:class:`TimeControlError`'s ``reason``), with the
    English sentence of ``str(error)``: ``{field}`` is a :class:`ClockField`'s English,
    durations (``{low}``, ``{high}``, ``{value}``, ``{maximum}``) are :func:`duration_text`,
    ``{text}`` is what was typed (cut to 40 characters, quoted) and ``{presets}`` the preset
    names, quoted."""

    NOT_TEXT = ("not text", "a clock must be text like '3 days a move' or 'bank 7d + 1d (max 10d)'")
    UNREADABLE = ("unreadable", "cannot read the clock {text!r}: choose one of {presets}")
    NOT_A_NUMBER = ("not a number", "{field} must be a number of days or hours")
    OUT_OF_RANGE = ("out of range", "{field} must be from {low} to {high}")
    NOT_WHOLE_HOURS = ("not whole hours", "{field} must be a whole number of hours")
    INITIAL_OVER_MAXIMUM = ("initial over maximum",
                            "the initial bank ({value}) cannot be more than the maximum ({maximum})")
    INCREMENT_OVER_MAXIMUM = ("increment over maximum",
                              "the increment ({value}) cannot be more than the maximum ({maximum})")


class TimeControlError(ValueError):
    """A time control that cannot be read or is out of range. ``reason`` (a
    :class:`ClockProblem`) says why and ``fields`` holds its values as data: ``field`` (a
    :class:`ClockField`), ``low``/``high``/``value``/``maximum`` (seconds; ``low`` may be 0),
    ``text`` (what was typed, at most 40 characters); ``str(error)`` is the English sentence
    (:attr:`ClockProblem.english`)."""

    def __init__(self, reason: ClockProblem, **fields: object) -> None:
        self.reason = reason
        self.fields: dict[str, object] = fields
        super().__init__(self._english())

    def _english(self) -> str:
        words: dict[str, object] = {}
        for key, value in self.fields.items():
            if isinstance(value, ClockField):
                words[key] = value.english
            elif key in ("low", "high", "value", "maximum") and isinstance(value, (int, float)):
                words[key] = "0" if value == 0 else duration_text(value)
            else:
                words[key] = value
        words["presets"] = ", ".join(f"'{name}'" for name in PRESET_NAMES)
        return self.reason.english.format(**words)


def days_hours(seconds: float) -> tuple[int, int]:
    """``seconds`` rounded down to the hour, as ``(days, hours)`` (hours 0-23)."""
    hours = int(seconds // HOUR)
    return divmod(hours, 24)



def duration_text(seconds: float) -> str:
    """A whole number of hours, compactly: ``"7d"``, ``"12h"``, ``"1d12h"``."""
    days, hours = days_hours(round(seconds / HOUR) * HOUR)
    if days and hours:
        return f"{days}d{hours}h"
    return f"{days}d" if days or not hours else f"{hours}h"


def left_text(seconds: float) -> str:
    """Time left as the board and /games show it, rounded down to the hour (never more than
    there is): ``"5 d 3 h left"``, ``"3 d left"``, ``"7 h left"``, ``"less than 1 h left"``."""
    days, hours = days_hours(max(0.0, seconds))
    if not days and not hours:
        return "less than 1 h left"
    parts = ([f"{days} d"] if days else []) + ([f"{hours} h"] if hours else [])
    return " ".join(parts) + " left"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class TimeControl:
    """A correspondence clock (module docstring). ``kind`` is :attr:`ClockKind.MOVE`
    (``initial`` is the allowance of every turn; ``increment`` and ``maximum`` equal it) or
    :attr:`ClockKind.BANK` (``initial`` bank, ``increment`` after each move, ``maximum``
    bank), all in seconds. Build one with :meth:`per_move`, :meth:`bank` or :func:`parse`;
    they check the ranges. The English names (:attr:`name`, :attr:`short`,
    :meth:`status_text`) are for the stored record and library users; the bot words a clock
    from these fields in the reader's language (:mod:`bot.texts.clocks`).
    """

    kind: ClockKind
    initial: float
    increment: float
    maximum: float

    # ---- building ------------------------------------------------------------------------
    @classmethod
    def per_move(cls, days: float = 0.0, hours: float = 0.0) -> TimeControl:
        """``days`` (plus ``hours``) for every move. Raises TimeControlError unless the
        total is a whole number of hours from 1 hour to :data:`LONGEST`."""
        _number(days, ClockField.PER_MOVE)
        _number(hours, ClockField.PER_MOVE)
        allowance = _checked(days * DAY + hours * HOUR, ClockField.PER_MOVE, minimum=HOUR)
        return cls(ClockKind.MOVE, allowance, allowance, allowance)

    @classmethod
    def bank(cls, initial_days: float, increment_days: float, maximum_days: float) -> TimeControl:
        """A bank clock, in days (fractions are fine if they are whole hours). Raises
        TimeControlError unless: initial and maximum at least 1 hour, increment at least 0,
        all whole hours up to :data:`LONGEST`, ``initial <= maximum`` and
        ``increment <= maximum``."""
        for value, what in ((initial_days, ClockField.INITIAL), (increment_days, ClockField.INCREMENT),
                            (maximum_days, ClockField.MAXIMUM)):
            _number(value, what)
        initial = _checked(initial_days * DAY, ClockField.INITIAL, minimum=HOUR)
        increment = _checked(increment_days * DAY, ClockField.INCREMENT, minimum=0.0)
        maximum = _checked(maximum_days * DAY, ClockField.MAXIMUM, minimum=HOUR)
        if initial > maximum:
            raise TimeControlError(ClockProblem.INITIAL_OVER_MAXIMUM, value=initial, maximum=maximum)
        if increment > maximum:
            raise TimeControlError(ClockProblem.INCREMENT_OVER_MAXIMUM, value=increment, maximum=maximum)
        return cls(ClockKind.BANK, initial, increment, maximum)

    # ---- texts ---------------------------------------------------------------------------
    def to_text(self) -> str:
        """The stored form: ``"move 3d"``, ``"bank 7d+1d max 10d"`` (:func:`parse` reads it)."""
        if self.kind == "move":
            return f"move {duration_text(self.initial)}"
        return (f"bank {duration_text(self.initial)}+{duration_text(self.increment)}"
                f" max {duration_text(self.maximum)}")

    @property
    def name(self) -> str:
        """The menu name (at most 100 characters): ``"3 days a move"``, ``"12 hours a
        move"``, ``"36 hours a move"``, ``"bank 7d + 1d (max 10d)"``."""
        if self.kind == "move":
            days, hours = days_hours(self.initial)
            if hours:
                return f"{_plural(days * 24 + hours, 'hour')} a move"
            return f"{_plural(days, 'day')} a move"
        return (f"bank {duration_text(self.initial)} + {duration_text(self.increment)}"
                f" (max {duration_text(self.maximum)})")

    @property
    def short(self) -> str:
        """The clock in a few characters, for the board panel and /games: ``"3 days a
        move"``, ``"bank 7d+1d"``."""
        if self.kind == "move":
            return self.name
        return f"bank {duration_text(self.initial)}+{duration_text(self.increment)}"

    def status_text(self, deadline: float, now: float, paused_until: float | None = None) -> str:
        """The clock of the player to move: ``"bank 7d+1d, 5 d 3 h left"``, ``"3 days a
        move, 7 h left"``; ``", paused (vacation)"`` is added while ``paused_until`` is after
        ``now``. Time left is :meth:`time_left`."""
        paused = ", paused (vacation)" if paused_until is not None and paused_until > now else ""
        return f"{self.short}, {left_text(self.time_left(deadline, now, paused_until))}{paused}"

    # ---- the clock -----------------------------------------------------------------------
    def initial_bank(self) -> float:
        """Each player's bank at the start of the game, in seconds (per move: the allowance)."""
        return self.initial

    def deadline(self, bank: float, now: float, paused_until: float | None = None) -> float:
        """Deadline of a turn starting at ``now`` for a player whose bank is ``bank`` seconds
        (per move: ignored, the allowance is used), on vacation until ``paused_until`` (or
        not, ``None``): ``now + bank + max(0, paused_until - now)``."""
        allowance = self.initial if self.kind == "move" else bank
        pause = max(0.0, paused_until - now) if paused_until is not None else 0.0
        return now + allowance + pause

    def time_left(self, deadline: float, now: float, paused_until: float | None = None) -> float:
        """Seconds left to the player to move at ``now`` (at least 0): the time from
        ``max(now, paused_until)`` to ``deadline``, so a running vacation does not count."""
        start = now if paused_until is None else max(now, paused_until)
        return max(0.0, deadline - start)

    def bank_after_move(self, deadline: float, now: float, paused_until: float | None = None) -> float:
        """The mover's bank after a move made at ``now`` in a turn whose deadline was
        ``deadline``: ``min(maximum, time left + increment)`` (per move: the allowance).
        The caller has checked that the deadline has not passed."""
        if self.kind == "move":
            return self.initial
        return min(self.maximum, self.time_left(deadline, now, paused_until) + self.increment)

    def after_move(
        self,
        deadline: float,
        now: float,
        next_bank: float,
        *,
        mover_paused_until: float | None = None,
        next_paused_until: float | None = None,
    ) -> tuple[float, float]:
        """``(mover's new bank, deadline of the next turn)`` after a move at ``now`` in a
        turn whose deadline was ``deadline``; ``next_bank`` is the bank of the player who
        moves next, the two ``*_paused_until`` are each player's vacation end (or ``None``).
        :meth:`bank_after_move` then :meth:`deadline`."""
        mover_bank = self.bank_after_move(deadline, now, mover_paused_until)
        return mover_bank, self.deadline(next_bank, now, next_paused_until)

    def reminder_window(self, bank: float) -> float:
        """Seconds before the deadline when the reminder goes out, for a turn that started
        with ``bank`` seconds (per move: the allowance): 24 hours, or a quarter of the turn's
        time when that is less."""
        allowance = self.initial if self.kind == "move" else bank
        return min(DAY, allowance / 4.0)

    def reminder_at(self, deadline: float, bank: float) -> float:
        """When the reminder of a turn goes out: ``deadline - reminder_window(bank)``. A
        vacation that moved the deadline moves the reminder with it."""
        return deadline - self.reminder_window(bank)


def _number(value: object, what: ClockField) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise TimeControlError(ClockProblem.NOT_A_NUMBER, field=what)


def _checked(seconds: float, what: ClockField, *, minimum: float) -> float:
    _number(seconds, what)
    if seconds < minimum or seconds > LONGEST:
        raise TimeControlError(ClockProblem.OUT_OF_RANGE, field=what, low=minimum, high=LONGEST)
    hours = seconds / HOUR
    if abs(hours - round(hours)) > 1e-6:
        raise TimeControlError(ClockProblem.NOT_WHOLE_HOURS, field=what)
    return float(round(hours) * HOUR)


PRESETS: dict[str, TimeControl] = {
    tc.name: tc
    for tc in (
        TimeControl.per_move(days=1),
        TimeControl.per_move(days=3),
        TimeControl.per_move(days=7),
        TimeControl.bank(3, 1, 5),
        TimeControl.bank(7, 1, 10),
        TimeControl.bank(14, 2, 21),
    )
}
"""The /challenge ``clock:`` choices, by name, in menu order."""
PRESET_NAMES = tuple(PRESETS)

DEFAULT = PRESETS["3 days a move"]
"""The clock of a challenge that names none (today's 3 days a move)."""

#: A duration as typed and stored: ``"3d"``, ``"12 hours"``, ``"1d12h"`` (what
#: :func:`duration_text` writes), days and hours each optional but not both missing.
_DURATION = r"((?:\d+\s*(?:d|days?)(?:\s*\d+\s*(?:h|hours?))?)|\d+\s*(?:h|hours?))"
_PER_MOVE = re.compile(rf"^(?:move\s+)?{_DURATION}(?:\s+(?:a|per)\s+move|\s*/\s*move)?$")
_BANK = re.compile(
    rf"^bank\s+{_DURATION}\s*\+\s*{_DURATION}\s*(?:\(\s*max\s+{_DURATION}\s*\)|max\s+{_DURATION})$"
)
_PART = re.compile(r"(\d+)\s*([dh])")


def _seconds(duration: str) -> float:
    """Seconds of a duration matched by :data:`_DURATION`."""
    return sum(int(n) * (DAY if unit == "d" else HOUR) for n, unit in _PART.findall(duration))


def parse(text: str) -> TimeControl:
    """The time control named by ``text``: a stored form (``"move 3d"``, ``"bank 7d+1d max
    10d"``, ``"move 1d12h"``), a preset name (``"bank 7d + 1d (max 10d)"``, ``"3 days a
    move"``), forms like ``"36h"`` or ``"2 days per move"``, or a bare whole number of days per move (the legacy
    ``days_per_move`` column). Case and spacing do not matter. Raises TimeControlError for
    anything else, or values out of range (:meth:`TimeControl.bank`)."""
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise TimeControlError(ClockProblem.NOT_TEXT)
    cleaned = " ".join(str(text).lower().split())
    if cleaned.isdigit():
        return TimeControl.per_move(days=int(cleaned))
    m = _PER_MOVE.match(cleaned)
    if m:
        return TimeControl.per_move(hours=_seconds(m.group(1)) / HOUR)
    m = _BANK.match(cleaned)
    if m:
        initial, increment, in_brackets, bare = m.groups()
        return TimeControl.bank(*(_seconds(d) / DAY for d in (initial, increment, in_brackets or bare)))
    raise TimeControlError(ClockProblem.UNREADABLE, text=str(text)[:40])
