"""Correspondence clocks (bot/rules/timecontrol.py): per-move and bank clocks, presets, the stored
form, deadlines, reminders, texts and vacations, all with explicit times."""

import pytest

from bot.rules.timecontrol import (
    DAY,
    DEFAULT,
    HOUR,
    PRESETS,
    TimeControl,
    TimeControlError,
    duration_text,
    left_text,
    parse,
)

T0 = 1_800_000_000.0  # an arbitrary moment, in UNIX seconds
BANK = TimeControl.bank(7, 1, 10)
THREE = TimeControl.per_move(days=3)


def test_presets_are_named_for_the_menu_and_round_trip():
    assert list(PRESETS) == [
        "1 day a move", "3 days a move", "7 days a move",
        "bank 3d + 1d (max 5d)", "bank 7d + 1d (max 10d)", "bank 14d + 2d (max 21d)",
    ]
    assert DEFAULT == THREE
    for name, tc in PRESETS.items():
        assert len(name) <= 100 and tc.name == name
        assert parse(tc.to_text()) == tc and parse(name) == tc and parse(name.upper()) == tc
    assert BANK.to_text() == "bank 7d+1d max 10d" and THREE.to_text() == "move 3d"
    assert (BANK.initial, BANK.increment, BANK.maximum) == (7 * DAY, DAY, 10 * DAY)


@pytest.mark.parametrize("text, stored", [
    ("3", "move 3d"),  # the legacy days_per_move column
    ("move 36h", "move 1d12h"),
    ("2 days per move", "move 2d"),
    ("12 hours a move", "move 12h"),
    ("  Bank 2 days +12h   max 3d ", "bank 2d+12h max 3d"),
    ("bank 7d+0d max 7d", "bank 7d+0d max 7d"),
])
def test_parse_reads_stored_forms_presets_and_loose_spellings(text, stored):
    assert parse(text).to_text() == stored


def test_names_and_short_texts():
    assert TimeControl.per_move(hours=36).name == "36 hours a move"
    assert TimeControl.per_move(days=1).name == "1 day a move"
    assert BANK.short == "bank 7d+1d" and THREE.short == "3 days a move"
    assert duration_text(36 * HOUR) == "1d12h" and duration_text(5 * HOUR) == "5h"


@pytest.mark.parametrize("text, message", [
    ("bank 7d+1d", "cannot read the clock"),  # the maximum is required
    ("hello", "choose one of '1 day a move'"),
    ("0", "from 1h to 60d"),
    ("61", "from 1h to 60d"),
    ("bank 10d+1d max 7d", "initial bank (10d) cannot be more than the maximum (7d)"),
    ("bank 3d+5d max 4d", "increment (5d) cannot be more than the maximum (4d)"),
])
def test_bad_clock_texts_are_refused_with_a_reason(text, message):
    with pytest.raises(TimeControlError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse(text)


def test_builders_check_types_and_whole_hours():
    with pytest.raises(TimeControlError, match="number of days"):
        TimeControl.per_move(days="3")
    with pytest.raises(TimeControlError, match="number of days"):
        TimeControl.bank(True, 1, 10)
    with pytest.raises(TimeControlError, match="whole number of hours"):
        TimeControl.per_move(days=1.01)
    with pytest.raises(TimeControlError, match="clock must be text"):
        parse(None)


def test_per_move_clock_is_todays_clock():
    assert THREE.initial_bank() == 3 * DAY
    assert THREE.deadline(THREE.initial_bank(), T0) == T0 + 3 * DAY
    # whatever the turn took, the next turn gets 3 days again
    assert THREE.bank_after_move(T0 + 3 * DAY, T0 + 2.5 * DAY) == 3 * DAY
    assert THREE.deadline(123.0, T0) == T0 + 3 * DAY  # the bank is ignored
    assert THREE.reminder_window(THREE.initial_bank()) == 18 * HOUR  # as today: min(1 d, 3 d / 4)
    assert PRESETS["7 days a move"].reminder_window(0.0) == DAY
    assert TimeControl.per_move(hours=12).reminder_window(12 * HOUR) == 3 * HOUR


def test_bank_burns_the_time_used_adds_the_increment_and_stops_at_the_maximum():
    bank = BANK.initial_bank()
    assert bank == 7 * DAY
    deadline = BANK.deadline(bank, T0)
    assert deadline == T0 + 7 * DAY
    # a move after 2 days: 5 days left, plus 1 day
    bank = BANK.bank_after_move(deadline, T0 + 2 * DAY)
    assert bank == 6 * DAY
    # next turn starts at T0 + 3d; a move after 1 hour: 6d - 1h + 1d = 7d - 1h
    deadline = BANK.deadline(bank, T0 + 3 * DAY)
    assert deadline == T0 + 9 * DAY
    bank = BANK.bank_after_move(deadline, T0 + 3 * DAY + HOUR)
    assert bank == 7 * DAY - HOUR
    # quick moves fill the bank up to the maximum, never above
    for _ in range(5):
        start = T0 + 4 * DAY
        bank = BANK.bank_after_move(BANK.deadline(bank, start), start + 60)
    assert bank == 10 * DAY
    # a move with less than an hour left still keeps the increment
    assert BANK.bank_after_move(T0 + 1800, T0) == DAY + 1800


def test_a_game_of_bank_clock_turns_two_players():
    # Seat 1 and seat 2 each start with 7 days; seat 2 is on vacation until T0 + 4 d.
    banks = {1: BANK.initial_bank(), 2: BANK.initial_bank()}
    deadline = BANK.deadline(banks[1], T0)
    # seat 1 moves after 3 days: 4 d + 1 d; seat 2's turn starts with 1 d of vacation to go
    banks[1], deadline = BANK.after_move(deadline, T0 + 3 * DAY, banks[2], next_paused_until=T0 + 4 * DAY)
    assert banks[1] == 5 * DAY and deadline == T0 + 11 * DAY
    # seat 2 moves 3 days after the vacation: 7 d - 3 d + 1 d
    banks[2], deadline = BANK.after_move(deadline, T0 + 7 * DAY, banks[1], mover_paused_until=T0 + 4 * DAY)
    assert banks[2] == 5 * DAY and deadline == T0 + 12 * DAY
    # seat 1 lets the clock run out: at the deadline the time left is 0 (a loss on time)
    assert BANK.time_left(deadline, T0 + 12 * DAY) == 0.0
    assert THREE.after_move(T0 + 3 * DAY, T0 + DAY, 0.0) == (3 * DAY, T0 + 4 * DAY)


def test_reminder_is_a_day_before_or_a_quarter_of_a_short_bank():
    deadline = BANK.deadline(7 * DAY, T0)
    assert BANK.reminder_at(deadline, 7 * DAY) == deadline - DAY
    short = BANK.deadline(2 * DAY, T0)
    assert BANK.reminder_at(short, 2 * DAY) == short - 12 * HOUR


def test_time_left_and_status_texts():
    deadline = T0 + 5 * DAY + 3 * HOUR + 1800
    assert BANK.time_left(deadline, T0) == 5 * DAY + 3 * HOUR + 1800
    assert BANK.status_text(deadline, T0) == "bank 7d+1d, 5 d 3 h left"
    assert THREE.status_text(T0 + 7 * HOUR + 59 * 60, T0) == "3 days a move, 7 h left"
    assert THREE.status_text(T0 + 3 * DAY, T0) == "3 days a move, 3 d left"
    assert BANK.status_text(T0 + 59 * 60, T0) == "bank 7d+1d, less than 1 h left"
    assert BANK.time_left(T0, T0 + 10) == 0.0 and left_text(-5) == "less than 1 h left"


def test_a_vacation_shifts_the_deadline_and_does_not_burn_the_bank():
    # A turn that starts during a 2-day vacation: the deadline is 2 days later.
    deadline = BANK.deadline(7 * DAY, T0, paused_until=T0 + 2 * DAY)
    assert deadline == T0 + 9 * DAY
    assert BANK.reminder_at(deadline, 7 * DAY) == T0 + 8 * DAY
    # Moving during the vacation costs nothing: the whole bank plus the increment (capped).
    assert BANK.bank_after_move(deadline, T0 + DAY, paused_until=T0 + 2 * DAY) == 8 * DAY
    # Moving a day after it ended: one day used.
    assert BANK.bank_after_move(deadline, T0 + 3 * DAY, paused_until=T0 + 2 * DAY) == 7 * DAY
    # While paused the time left stands still and the status says so.
    assert BANK.time_left(deadline, T0 + DAY, paused_until=T0 + 2 * DAY) == 7 * DAY
    assert BANK.status_text(deadline, T0 + DAY, paused_until=T0 + 2 * DAY) == (
        "bank 7d+1d, 7 d left, paused (vacation)")
    # A vacation in the past changes nothing.
    assert BANK.deadline(7 * DAY, T0, paused_until=T0 - DAY) == T0 + 7 * DAY
    assert BANK.status_text(T0 + DAY, T0, paused_until=T0 - 1) == "bank 7d+1d, 1 d left"


def test_a_vacation_taken_mid_turn_moves_the_deadline_and_keeps_the_bank():
    # The turn starts at T0 with 7 days; after 1 day the player takes 3 days of vacation and
    # the manager moves the deadline 3 days later (as it does today). Moving 1 day after the
    # vacation, they have used 2 days: 5 left, plus 1.
    deadline = BANK.deadline(7 * DAY, T0) + 3 * DAY
    assert BANK.bank_after_move(deadline, T0 + 5 * DAY, paused_until=T0 + 4 * DAY) == 6 * DAY
