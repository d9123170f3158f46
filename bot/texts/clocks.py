"""Clocks and time off: clock terms, both players' banks, vacations and deadline notes.

A time control's name and the time left are worded in :mod:`bot.texts.terms`.

Part of :mod:`bot.texts` (every sentence a player reads), in the current language
(:mod:`bot.texts.i18n`); constants are English message ids, translated where they are used."""

from __future__ import annotations

from .i18n import N_, _, ngettext

__all__ = ["NOTIFY_OFF", "NOTIFY_ON", "confirm_clock", "days_with_clock",
           "deadline_notes_delayed", "deadline_notes_failed", "others_bank", "panel_bank",
           "vacation_amount", "vacation_ended", "vacation_started"]


def days_with_clock(days: int, clock: str) -> str:
    """The refusal of a challenge giving both ``days:`` and a ``clock:`` that differs
    (``clock``: its menu name, :attr:`bot.rules.timecontrol.TimeControl.name`)."""
    return ngettext("`days:{days}` and `clock:{clock}` are two different clocks: choose one. Leave "
                    "`days:` out to play with {clock}, or `clock:` out for {days} day a move.",
                    "`days:{days}` and `clock:{clock}` are two different clocks: choose one. Leave "
                    "`days:` out to play with {clock}, or `clock:` out for {days} days a move.",
                    days).format(days=days, clock=clock)


def others_bank(user_id: int, left: str) -> str:
    """On a board with a bank clock, after the mover's deadline: the time in the waiting
    player's bank (``left``: :func:`bot.texts.bank_amount`, e.g. ``"6 d"``; an English ``" left"`` at
    its end, as :func:`bot.rules.timecontrol.left_text` gives, is dropped)."""
    return " " + _("{player}'s bank: {left}.").format(player=f"<@{user_id}>", left=left.removesuffix(" left"))


def panel_bank(left: str) -> str:
    """The waiting player's bank on their card of the image's panel (``left``:
    :func:`bot.texts.bank_amount`, e.g. ``"6 d"``; a trailing English ``" left"`` is dropped): ``"bank 6 d"``."""
    return _("bank {left}").format(left=left.removesuffix(" left"))


def confirm_clock(clock: str, deadline: float) -> str:
    """The clock line of a move's preview (Confirm): the mover's clock with the time left
    (:func:`bot.texts.game_clock`) and the deadline."""
    return "\n" + _("Your clock: {clock}, due {when}.").format(clock=clock, when=f"<t:{int(deadline)}:R>")


def vacation_amount(days: float) -> str:
    """Vacation time as players read it, in whole hours: ``"14 days"``, ``"13 days and 23
    hours"``, ``"5 hours"`` (``days`` may be fractional; it is rounded to the hour)."""
    hours = max(0, round(days * 24))
    whole, extra = divmod(hours, 24)
    day_words = ngettext("{n} day", "{n} days", whole).format(n=whole)
    hour_words = ngettext("{n} hour", "{n} hours", extra).format(n=extra)
    if whole and extra:
        return _("{days} and {hours}").format(days=day_words, hours=hour_words)
    return day_words if whole or not extra else hour_words


NOTIFY_ON = N_("I will send you a direct message when it becomes your move. If your DMs are "
               "closed to server members I will quietly skip it; the thread mention stays.")
NOTIFY_OFF = N_("No more direct messages: you will be mentioned in the game's thread only.")


def vacation_started(until: float, left_days: float, *, asked: int, had: float) -> str:
    """/vacation days:n: the clocks wait until ``until``; ``had`` days were left before, of
    which ``asked`` were asked for (when that was more, the reply says so)."""
    short = ""
    if asked and left_days < 1e-6 and had < asked - 1e-6:
        short = " " + ngettext("That is all you had left ({had}), a little less than {asked} day.",
                               "That is all you had left ({had}), a little less than {asked} days.",
                               asked).format(had=vacation_amount(had), asked=asked)
    return (_("Enjoy your break: your clocks wait until {until}, and your opponents see that you are "
              "away.").format(until=f"<t:{int(until)}:f>") + short + " "
            + _("{amount} of vacation left this year.").format(amount=vacation_amount(left_days)))


def vacation_ended(given_back: float, left_days: float) -> str:
    """/vacation days:0: the clocks run again, ``given_back`` days returned."""
    return (_("Welcome back: your clocks run again. The unused part of this vacation is given back: "
              "{amount} (vacation is counted by the hour, a started hour as a whole one).").format(
        amount=vacation_amount(given_back)) + " "
            + _("{amount} of vacation left this year.").format(amount=vacation_amount(left_days)))


def deadline_notes_failed(n: int) -> str:
    """Added to the /vacation reply when ``n`` deadline notes could not be posted."""
    return " " + ngettext("I could not post the new deadline in {n} game's thread; `/games` shows it.",
                          "I could not post the new deadline in {n} games's thread; `/games` shows it.",
                          n).format(n=n)


def deadline_notes_delayed(n: int) -> str:
    """Added to the /vacation reply when ``n`` deadline notes could not be posted yet: they
    stay queued and are posted shortly (the outbox)."""
    if n == 1:
        return " " + _("The note with the new deadline could not be posted in the game's thread just now: "
                       "it will follow shortly (`/games` shows the deadline meanwhile).")
    return " " + ngettext("The notes with the new deadline could not be posted in {n} game's thread just now: "
                          "they will follow shortly (`/games` shows the deadlines meanwhile).",
                          "The notes with the new deadline could not be posted in {n} games' threads just now: "
                          "they will follow shortly (`/games` shows the deadlines meanwhile).", n).format(n=n)
