"""Both players' time on a game's clock, as data for the panel (issue 19: "Show both players'
time, as Little Golem does").

The bot builds a :class:`Clocks` (``bot.boards.panel_clocks``) and passes it to
:func:`renderers.render_png` as ``clocks=``; plain frozen values, so it crosses to the render
worker processes and keys the bot's image cache. The mover's single ``clock`` line is drawn
as before; drawing a clock per player from this value is the panel's next step.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

__all__ = ["Clocks", "SeatClock"]


@dataclass(frozen=True)
class SeatClock:
    """One player's time. ``bank``: seconds in their bank -- for the player waiting, what
    their next turn starts with; for the player to move, what their turn started with (a
    per-move clock: the allowance). ``deadline``: for the player to move while their clock
    runs, when their turn ends (UTC, timezone-aware); ``None`` for the player waiting."""

    bank: float
    deadline: datetime | None = None


@dataclass(frozen=True)
class Clocks:
    """Both players' time: ``control`` is the clock's short name (``"bank 7d+1d"``, ``"3 days
    a move"``), ``seats`` seat 1's and seat 2's :class:`SeatClock`, ``None`` for a player
    without a clock (the computer)."""

    control: str
    seats: tuple[SeatClock | None, SeatClock | None]

    def of(self, seat: int) -> SeatClock | None:
        """The :class:`SeatClock` of ``seat`` (1 or 2). Raises IndexError for another seat."""
        if seat not in (1, 2):
            raise IndexError(f"there is no seat {seat}")
        return self.seats[seat - 1]
