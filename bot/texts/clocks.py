"""Clocks and time off: clock terms, both players' banks, vacations and deadline notes.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from .common import count

__all__ = ["NOTIFY_OFF", "NOTIFY_ON", "confirm_clock", "days_with_clock",
           "deadline_notes_delayed", "deadline_notes_failed", "others_bank", "panel_bank",
           "vacation_amount", "vacation_ended", "vacation_started"]


def days_with_clock(days: int, clock: str) -> str:
    """The refusal of a challenge giving both ``days:`` and a ``clock:`` that differs
    (``clock``: its menu name, :attr:`bot.rules.timecontrol.TimeControl.name`)."""
    return (f"`days:{days}` and `clock:{clock}` are two different clocks: choose one. Leave `days:` "
            f"out to play with {clock}, or `clock:` out for {count(days, 'day')} a move.")


def others_bank(user_id: int, left: str) -> str:
    """On a board with a bank clock, after the mover's deadline: the time in the waiting
    player's bank (``left``: :func:`bot.rules.timecontrol.left_text`, e.g. ``"6 d left"``)."""
    return f" <@{user_id}>'s bank: {left.removesuffix(' left')}."


def panel_bank(left: str) -> str:
    """The waiting player's bank on their card of the image's panel (``left``:
    :func:`bot.rules.timecontrol.left_text`, e.g. ``"6 d left"``): ``"bank 6 d"``."""
    return f"bank {left.removesuffix(' left')}"


def confirm_clock(clock: str, deadline: float) -> str:
    """The clock line of a move's preview (Confirm): the mover's clock with the time left
    (:meth:`bot.manager.Game.clock_text`) and the deadline."""
    return f"\nYour clock: {clock}, due <t:{int(deadline)}:R>."


def vacation_amount(days: float) -> str:
    """Vacation time as players read it, in whole hours: ``"14 days"``, ``"13 days and 23
    hours"``, ``"5 hours"`` (``days`` may be fractional; it is rounded to the hour)."""
    hours = max(0, round(days * 24))
    whole, extra = divmod(hours, 24)
    if whole and extra:
        return f"{count(whole, 'day')} and {count(extra, 'hour')}"
    return count(whole, "day") if whole or not extra else count(extra, "hour")


NOTIFY_ON = ("I will send you a direct message when it becomes your move. If your DMs are "
             "closed to server members I will quietly skip it; the thread mention stays.")
NOTIFY_OFF = "No more direct messages: you will be mentioned in the game's thread only."


def vacation_started(until: float, left_days: float, *, asked: int, had: float) -> str:
    """/vacation days:n: the clocks wait until ``until``; ``had`` days were left before, of
    which ``asked`` were asked for (when that was more, the reply says so)."""
    short = ""
    if asked and left_days < 1e-6 and had < asked - 1e-6:
        short = f" That is all you had left ({vacation_amount(had)}), a little less than {asked} days."
    return (f"Enjoy your break: your clocks wait until <t:{int(until)}:f>, and your opponents "
            f"see that you are away.{short} {vacation_amount(left_days)} of vacation left this year.")


def vacation_ended(given_back: float, left_days: float) -> str:
    """/vacation days:0: the clocks run again, ``given_back`` days returned."""
    return (f"Welcome back: your clocks run again. The unused part of this vacation is given "
            f"back: {vacation_amount(given_back)} (vacation is counted by the hour, a started hour "
            f"as a whole one). {vacation_amount(left_days)} of vacation left this year.")


def deadline_notes_failed(n: int) -> str:
    """Added to the /vacation reply when ``n`` deadline notes could not be posted."""
    return f" I could not post the new deadline in {count(n, 'game')}'s thread; `/games` shows it."


def deadline_notes_delayed(n: int) -> str:
    """Added to the /vacation reply when ``n`` deadline notes could not be posted yet: they
    stay queued and are posted shortly (the outbox)."""
    if n == 1:
        return (" The note with the new deadline could not be posted in the game's thread just now: "
                "it will follow shortly (`/games` shows the deadline meanwhile).")
    return (f" The notes with the new deadline could not be posted in {n} games' threads just now: "
            f"they will follow shortly (`/games` shows the deadlines meanwhile).")
