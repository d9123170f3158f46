"""Terms of play worded from the rules' data: a time control's name, the time left and why a
clock was refused (from :class:`bot.rules.timecontrol.TimeControl`'s fields and
:class:`~bot.rules.timecontrol.TimeControlError`'s reason), and a game's options (from the
engine's typed option specs, not its English descriptions).

What players type stays English notation and is not worded here: ``clock:`` texts such as
``"bank 7d+1d max 10d"`` (:func:`bot.rules.timecontrol.parse`), move text, and the record
/history exports (:mod:`bot.rules.records`). Game names, the Coral shapes ``limping`` and
``hexhex`` and Whirlwind's set-ups ``A``/``B`` are kept as their designers wrote them.

Part of :mod:`bot.texts` (every sentence a player reads), in the current language
(:mod:`bot.texts.i18n`); constants are English message ids, translated where they are used."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import engine

from ..rules.timecontrol import (
    HOUR,
    PRESET_NAMES,
    ClockField,
    ClockKind,
    ClockProblem,
    TimeControl,
    days_hours,
)
from .i18n import N_, _, ngettext

if TYPE_CHECKING:
    from ..manager import Game
    from ..rules.timecontrol import TimeControlError

__all__ = ["CLOCK_FIELDS", "CLOCK_PROBLEMS", "OPTION_FORMS", "OPTION_VALUES", "bank_amount", "clock_error",
           "clock_name", "clock_short", "clock_status", "duration", "game_clock", "option_words",
           "options_words", "time_left"]


# ---- time controls (bot.rules.timecontrol) ---------------------------------------------------
def duration(seconds: float) -> str:
    """A duration in a clock's name, to the hour, compactly: ``"7d"``, ``"12h"``, ``"1d12h"``
    (German ``"7 T"``, Japanese ``"7日"``)."""
    days, hours = days_hours(round(seconds / HOUR) * HOUR)
    if days and hours:
        return _("{days}d{hours}h").format(days=days, hours=hours)
    return _("{days}d").format(days=days) if days or not hours else _("{hours}h").format(hours=hours)


def clock_name(clock: TimeControl) -> str:
    """A time control's full name (menus, challenges, tournaments; at most 100 characters):
    ``"3 days a move"``, ``"36 hours a move"``, ``"bank 7d + 1d (max 10d)"``."""
    if clock.kind == ClockKind.MOVE:
        days, hours = days_hours(clock.initial)
        if hours:
            n = days * 24 + hours
            return ngettext("{n} hour a move", "{n} hours a move", n).format(n=n)
        return ngettext("{n} day a move", "{n} days a move", days).format(n=days)
    return _("bank {initial} + {increment} (max {maximum})").format(
        initial=duration(clock.initial), increment=duration(clock.increment), maximum=duration(clock.maximum))


def clock_short(clock: TimeControl) -> str:
    """A time control in a few words (board posts, the panel, /games): ``"3 days a move"``,
    ``"bank 7d+1d"``."""
    if clock.kind == ClockKind.MOVE:
        return clock_name(clock)
    return _("bank {initial}+{increment}").format(initial=duration(clock.initial),
                                                  increment=duration(clock.increment))


def bank_amount(seconds: float) -> str:
    """Time in a bank or left to a player, rounded down to the hour (never more than there
    is): ``"5 d 3 h"``, ``"3 d"``, ``"7 h"``, ``"less than 1 h"``."""
    days, hours = days_hours(max(0.0, seconds))
    if days and hours:
        return _("{days} d {hours} h").format(days=days, hours=hours)
    if days:
        return _("{days} d").format(days=days)
    return _("{hours} h").format(hours=hours) if hours else _("less than 1 h")


def time_left(seconds: float) -> str:
    """The time left to the player to move: ``"5 d 3 h left"``, ``"less than 1 h left"``
    (:func:`bank_amount`)."""
    return _("{amount} left").format(amount=bank_amount(seconds))


def clock_status(clock: TimeControl, deadline: float, now: float, paused_until: float | None = None) -> str:
    """The clock of the player to move: ``"bank 7d+1d, 5 d 3 h left"``, ``"3 days a move, 7
    h left"``, with ``", paused (vacation)"`` while ``paused_until`` is after ``now``
    (time left: :meth:`~bot.rules.timecontrol.TimeControl.time_left`)."""
    left = time_left(clock.time_left(deadline, now, paused_until))
    if paused_until is not None and paused_until > now:
        return _("{clock}, {left}, paused (vacation)").format(clock=clock_short(clock), left=left)
    return _("{clock}, {left}").format(clock=clock_short(clock), left=left)


def game_clock(game: Game, now: float, paused_until: float | None = None) -> str:
    """A game's clock as /next, the digest and a move's preview show it: :func:`clock_status`
    while the game runs with a deadline, else :func:`clock_short`."""
    clock = game.time_control
    if game.status != "active" or game.deadline is None:
        return clock_short(clock)
    return clock_status(clock, game.deadline, now, paused_until)


#: The value of a time control a refusal is about, by :class:`~bot.rules.timecontrol.ClockField`.
CLOCK_FIELDS: dict[ClockField, str] = {
    ClockField.PER_MOVE: N_("the time per move"),
    ClockField.INITIAL: N_("the initial bank"),
    ClockField.INCREMENT: N_("the increment"),
    ClockField.MAXIMUM: N_("the maximum bank"),
}
#: Why a clock was refused, by :class:`~bot.rules.timecontrol.ClockProblem`: ``{field}`` from
#: :data:`CLOCK_FIELDS`, durations by :func:`duration`, ``{text}`` what was typed (quoted) and
#: ``{presets}`` the presets' names as they are typed (English: ``clock:`` is input notation).
CLOCK_PROBLEMS: dict[ClockProblem, str] = {
    ClockProblem.NOT_TEXT: N_("a clock must be text like {per_move} or {bank}"),
    ClockProblem.UNREADABLE: N_("cannot read the clock {text}: choose one of {presets}"),
    ClockProblem.NOT_A_NUMBER: N_("{field} must be a number of days or hours"),
    ClockProblem.OUT_OF_RANGE: N_("{field} must be from {low} to {high}"),
    ClockProblem.NOT_WHOLE_HOURS: N_("{field} must be a whole number of hours"),
    ClockProblem.INITIAL_OVER_MAXIMUM: N_("the initial bank ({value}) cannot be more than the maximum ({maximum})"),
    ClockProblem.INCREMENT_OVER_MAXIMUM: N_("the increment ({value}) cannot be more than the maximum ({maximum})"),
}


def clock_error(error: TimeControlError) -> str:
    """Why a clock was refused (``error``'s reason and fields), lower-case first as the
    English ``str(error)``: the caller quotes it after its own words (:func:`bot.texts.bad_clock`)."""
    words: dict[str, object] = {"per_move": "'3 days a move'", "bank": "'bank 7d + 1d (max 10d)'",
                                "presets": ", ".join(f"'{name}'" for name in PRESET_NAMES)}
    for key, value in error.fields.items():
        if isinstance(value, ClockField):
            words[key] = _(CLOCK_FIELDS[value])
        elif key == "text":
            words[key] = repr(value)
        elif isinstance(value, (int, float)):
            words[key] = "0" if value == 0 else duration(value)
    return _(CLOCK_PROBLEMS[error.reason]).format(**words)


# ---- game options (engine.OptionSpec) --------------------------------------------------------
#: An option with its value, by option name (``{value}``: a number, or a value kept as the
#: designers wrote it: ``limping``, ``hexhex``, ``A``, ``B``).
OPTION_FORMS: dict[str, str] = {
    "size": N_("size {value}"),
    "shape": N_("shape {value}"),
    "setup": N_("setup {value}"),
}
#: An option whose values are words, by (option, value).
OPTION_VALUES: dict[tuple[str, str], str] = {
    ("bonus", "own"): N_("bonus own"),
    ("bonus", "opponent"): N_("bonus opponent"),
    ("bonus", "captures"): N_("bonus captures"),
    ("bonus", "none"): N_("bonus none"),
}
#: Options one after another: ``{options}`` those so far, ``{option}`` the next.
OPTIONS_JOINED = N_("{options}, {option}")


def _spec(name: str) -> engine.OptionSpec | None:
    """The engine's spec of option ``name`` (the games agree on an option's type)."""
    return next((o for game in engine.GAMES.values() for o in game.options if o.name == name), None)


def option_words(name: str, value: object) -> str:
    """One game option as players read it: ``"size 11"``, ``"shape hexhex"``, ``"bonus
    own"`` (German ``"Größe 11"``, ``"Bonus: eigene Gruppen"``); an option the engine does not
    know is shown as ``"name value"``."""
    spec = _spec(name)
    if spec is not None and spec.choices is not None and (name, value) in OPTION_VALUES:
        return _(OPTION_VALUES[(name, str(value))])
    if spec is not None and name in OPTION_FORMS:
        shown = str(int(value)) if spec.type is int and isinstance(value, int) else str(value)
        return _(OPTION_FORMS[name]).format(value=shown)
    return f"{name} {value}"


def options_words(options: Mapping[str, object]) -> str:
    """Options as players read them, in their order: ``"shape hexhex, size 11"``; empty
    when none."""
    text = ""
    for name, value in options.items():
        words = option_words(name, value)
        text = _(OPTIONS_JOINED).format(options=text, option=words) if text else words
    return text
