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

import math
import re
from dataclasses import dataclass

__all__ = [
    "DAY",
    "DEFAULT",
    "HOUR",
    "LONGEST",
    "PRESETS",
    "TimeControl",
    "TimeControlError",
    "duration_text",
    "left_text",
    "parse",
]

HOUR = 3600.0
DAY = 24 * HOUR
LONGEST = 60 * DAY  # no allowance, bank or increment may be longer


class TimeControlError(ValueError):
    """A time control that cannot be read or is out of range; the message says why."""


def _days_hours(seconds: float) -> tuple[int, int]:
    hours = int(seconds // HOUR)
    return divmod(hours, 24)


def duration_text(seconds: float) -> str:
    """A whole number of hours, compactly: ``"7d"``, ``"12h"``, ``"1d12h"``."""
    days, hours = _days_hours(round(seconds / HOUR) * HOUR)
    if days and hours:
        return f"{days}d{hours}h"
    return f"{days}d" if days or not hours else f"{hours}h"


def left_text(seconds: float) -> str:
    """Time left as the board and /games show it, rounded down to the hour (never more than
    there is): ``"5 d 3 h left"``, ``"3 d left"``, ``"7 h left"``, ``"less than 1 h left"``."""
    days, hours = _days_hours(max(0.0, seconds))
    if not days and not hours:
        return "less than 1 h left"
    parts = ([f"{days} d"] if days else []) + ([f"{hours} h"] if hours else [])
    return " ".join(parts) + " left"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class TimeControl:
    """A correspondence clock (module docstring). ``kind`` is ``"move"`` (``initial`` is the
    allowance of every turn; ``increment`` and ``maximum`` equal it) or ``"bank"``
    (``initial`` bank, ``increment`` after each move, ``maximum`` bank), all in seconds.
    Build one with :meth:`per_move`, :meth:`bank` or :func:`parse`; they check the ranges.
    """

    kind: str
    initial: float
    increment: float
    maximum: float

    # ---- building ------------------------------------------------------------------------
    @classmethod
    def per_move(cls, days: float = 0.0, hours: float = 0.0) -> TimeControl:
        """``days`` (plus ``hours``) for every move. Raises TimeControlError unless the
        total is a whole number of hours from 1 hour to :data:`LONGEST`."""
        _number(days, "the time per move")
        _number(hours, "the time per move")
        allowance = _checked(days * DAY + hours * HOUR, "the time per move", minimum=HOUR)
        return cls("move", allowance, allowance, allowance)

    @classmethod
    def bank(cls, initial_days: float, increment_days: float, maximum_days: float) -> TimeControl:
        """A bank clock, in days (fractions are fine if they are whole hours). Raises
        TimeControlError unless: initial and maximum at least 1 hour, increment at least 0,
        all whole hours up to :data:`LONGEST`, ``initial <= maximum`` and
        ``increment <= maximum``."""
        for value, what in ((initial_days, "the initial bank"), (increment_days, "the increment"),
                            (maximum_days, "the maximum bank")):
            _number(value, what)
        initial = _checked(initial_days * DAY, "the initial bank", minimum=HOUR)
        increment = _checked(increment_days * DAY, "the increment", minimum=0.0)
        maximum = _checked(maximum_days * DAY, "the maximum bank", minimum=HOUR)
        if initial > maximum:
            raise TimeControlError(
                f"the initial bank ({duration_text(initial)}) cannot be more than the maximum"
                f" ({duration_text(maximum)})")
        if increment > maximum:
            raise TimeControlError(
                f"the increment ({duration_text(increment)}) cannot be more than the maximum"
                f" ({duration_text(maximum)})")
        return cls("bank", initial, increment, maximum)

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
            days, hours = _days_hours(self.initial)
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


def _number(value: object, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise TimeControlError(f"{what} must be a number of days or hours")


def _checked(seconds: float, what: str, *, minimum: float) -> float:
    _number(seconds, what)
    if seconds < minimum or seconds > LONGEST:
        low = "0" if minimum == 0 else duration_text(minimum)
        raise TimeControlError(f"{what} must be from {low} to {duration_text(LONGEST)}")
    hours = seconds / HOUR
    if abs(hours - round(hours)) > 1e-6:
        raise TimeControlError(f"{what} must be a whole number of hours")
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

DEFAULT = PRESETS["3 days a move"]
"""The clock of a challenge that names none (today's 3 days a move)."""

_DURATION = r"(\d+)\s*(d|days?|h|hours?)"
_PER_MOVE = re.compile(rf"^(?:move\s+)?{_DURATION}(?:\s+(?:a|per)\s+move|\s*/\s*move)?$")
_BANK = re.compile(
    rf"^bank\s+{_DURATION}\s*\+\s*{_DURATION}\s*(?:\(\s*max\s+{_DURATION}\s*\)|max\s+{_DURATION})$"
)


def _seconds(number: str, unit: str) -> float:
    return int(number) * (DAY if unit.startswith("d") else HOUR)


def parse(text: str) -> TimeControl:
    """The time control named by ``text``: a stored form (``"move 3d"``, ``"bank 7d+1d max
    10d"``), a preset name (``"bank 7d + 1d (max 10d)"``, ``"3 days a move"``), forms like
    ``"36h"`` or ``"2 days per move"``, or a bare whole number of days per move (the legacy
    ``days_per_move`` column). Case and spacing do not matter. Raises TimeControlError for
    anything else, or values out of range (:meth:`TimeControl.bank`)."""
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise TimeControlError("a clock must be text like '3 days a move' or 'bank 7d + 1d (max 10d)'")
    cleaned = " ".join(str(text).lower().split())
    if cleaned.isdigit():
        return TimeControl.per_move(days=int(cleaned))
    m = _PER_MOVE.match(cleaned)
    if m:
        return TimeControl.per_move(hours=_seconds(*m.groups()) / HOUR)
    m = _BANK.match(cleaned)
    if m:
        g = m.groups()
        maximum = g[4:6] if g[4] is not None else g[6:8]
        return TimeControl.bank(*(_seconds(*pair) / DAY for pair in (g[0:2], g[2:4], maximum)))
    raise TimeControlError(
        f"cannot read the clock {str(text)[:40]!r}: choose one of "
        + ", ".join(f"'{name}'" for name in PRESETS))
