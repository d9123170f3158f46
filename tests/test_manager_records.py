"""Game manager: text records of games (record_text, bot.rules.records) and reading them back.

Every test runs against each backend: a SQLite file and a PostgreSQL database (the
``db`` fixture of conftest.py).
"""

from __future__ import annotations

import random

import pytest
from manager_support import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    FakeClock,
    play_random,
    small_options,
    start_game,
)

import engine
from bot.manager import (
    DAY,
    GameManager,
    NotFound,
)
from bot.rules.records import RecordError, parse_record, read_record

HOUR = 3600.0
KIND = "coil"
OPTS = {"size": 5}
TITLE = engine.GAMES[KIND].title


@pytest.fixture
def clock():
    return FakeClock(1_704_067_200.0 + 40 * DAY)  # 2024-02-10 00:00 UTC


@pytest.fixture
async def mgr(db, clock):
    m = await GameManager.open(db("stonecast.db"), clock=clock, rng=random.Random(11))
    yield m
    await m.close()


@pytest.mark.parametrize("kind", sorted(engine.GAMES))
async def test_record_round_trip(mgr, kind):
    rng = random.Random(5)
    g = await start_game(mgr, kind, small_options(kind))
    g = await play_random(mgr, g, rng)
    text = await mgr.record_text(g.id, {1: "Ann", 2: "Bob (the second)"})
    k, options, moves = parse_record(text)
    assert (k, options) == (kind, g.options)
    assert moves == [m.move for m in await mgr.moves(g.id)]
    assert engine.replay(k, options, moves) == g.position
    lines = text.splitlines()
    assert f"Game: {engine.GAMES[kind].title}" in lines and f"Game id: {g.id}" in lines
    assert any(line.startswith(f"Seat 1: Ann ({ALICE})") for line in lines)
    assert any(line.startswith(f"Seat 2: Bob (the second) ({BOB})") for line in lines)
    labels = {1: f"Ann ({ALICE})", 2: f"Bob (the second) ({BOB})"}
    if g.winner is None:
        assert f"Result: {labels[1]} and {labels[2]} draw" in text
    else:
        assert f"Result: {labels[g.winner]} beats {labels[3 - g.winner]} " in text
    rec = read_record(text)
    assert (rec.finished, rec.winner, rec.reason) == (True, g.winner, g.reason)
    assert "Started: 2024-02-10 00:00:00 UTC" in lines
    assert lines[lines.index("Moves:") + 1].startswith("1. ")


async def test_record_of_a_resigned_and_a_running_game(mgr):
    g = await start_game(mgr, "io", {"size": 5})
    g = await play_random(mgr, g, random.Random(1), max_moves=4)
    text = await mgr.record_text(g.id)
    rec = read_record(text)
    assert rec.finished is False and rec.headers["result"] == "in progress"
    assert rec.position() == g.position
    done = await mgr.resign(g.id, BOB)
    rec = read_record(await mgr.record_text(g.id))
    assert (rec.finished, rec.winner, rec.reason) == (True, 1, "resignation")
    assert rec.position() == done.position
    assert engine.replay(*parse_record(await mgr.record_text(g.id))) == g.position


async def test_record_names_who_won_in_words_for_every_result(mgr):
    names = {1: "Ann", 2: "Bob"}
    g = await start_game(mgr, "io", {"size": 5})
    await mgr.play_move(g.id, ALICE, "c3")
    await mgr.resign(g.id, ALICE)
    text = await mgr.record_text(g.id, names)
    assert f"Result: Bob ({BOB}) beats Ann ({ALICE}) by resignation" in text.splitlines()
    assert (read_record(text).winner, read_record(text).reason) == (2, "resignation")
    g = await start_game(mgr, "io", {"size": 5})
    await mgr.abort(g.id, CAROL)
    text = await mgr.record_text(g.id, names)
    assert "Result: no result: aborted by a moderator" in text.splitlines()
    rec = read_record(text)
    assert (rec.finished, rec.winner, rec.reason) == (False, None, None)
    g = await start_game(mgr, "io", {"size": 5})
    text = await mgr.record_text(g.id, {1: "A\nB", 2: ""})
    assert f"Seat 1: A B ({ALICE}), White" in text.splitlines()  # one line per header
    assert f"Seat 2: user ({BOB}), Black" in text.splitlines()
    assert read_record(text).headers["result"] == "in progress"


def test_records_in_words_read_back_including_draws_and_tie_breaks():
    from bot.rules.records import format_record

    base = dict(kind="io", options={"size": 5}, game_id=3, players={1: 11, 2: 22},
                names={1: "Ann", 2: "Bob"}, colours={1: "white", 2: "black"}, rated=True,
                days_per_move=3, created_at=0, finished_at=60, status="finished", moves=[])
    cases = [
        (None, "stones", {1: 12, 2: 12}, "Ann (11) and Bob (22) draw on stones (12–12)"),
        (2, "stones", {1: 10, 2: 15}, "Bob (22) beats Ann (11) on stones (15–10)"),
        (1, "score", {1: 5, 2: 5}, "Ann (11) beats Bob (22) on score (5–5; a tie goes to the last stone placed)"),
        (2, "no moves", None, "Bob (22) beats Ann (11) who has no legal turn left"),
        (1, "timeout", {1: 1, 2: 9}, "Ann (11) beats Bob (22) on time"),
    ]
    for winner, reason, scores, words in cases:
        text = format_record(**base, winner=winner, reason=reason, scores=scores)
        assert f"Result: {words}" in text.splitlines()
        rec = read_record(text)
        assert (rec.finished, rec.winner, rec.reason) == (True, winner, reason), words


def test_a_record_of_a_game_against_the_computer_names_its_seat_and_level():
    from bot.rules.records import format_record
    text = format_record(kind="io", options={"size": 5}, game_id=3, players={1: 11, 2: 22},
                         names={1: "Ann", 2: "Stonecast"}, colours={1: "white", 2: "black"},
                         rated=False, days_per_move=3, created_at=0, finished_at=None,
                         status="active", winner=None, reason=None, scores=None, moves=["c3"],
                         computer=(2, 4))
    lines = text.splitlines()
    assert lines[lines.index("Seat 2: Stonecast (22), Black") + 1] == "Computer: seat 2, level 4"
    rec = read_record(text)
    assert rec.computer == (2, 4) and rec.moves == ("c3",)
    assert read_record(text.replace("Computer: seat 2, level 4\n", "")).computer is None


# A record as /history wrote it before results were written in words (issue 9, item 5).
OLD_RECORD = """Stonecast game record
Game: Io
Kind: io
Options: size=5
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
1. c3
"""


def test_records_of_the_earlier_layout_still_read():
    assert parse_record(OLD_RECORD) == ("io", {"size": 5}, ["c3"])
    rec = read_record(OLD_RECORD)
    assert (rec.finished, rec.winner, rec.reason) == (True, 2, "resignation")
    assert rec.position().outcome.winner == 2
    draw = read_record(OLD_RECORD.replace("seat 2 wins by resignation", "draw by stones (18-18)"))
    assert (draw.winner, draw.reason) == (None, "stones")
    aborted = read_record(OLD_RECORD.replace("Status: finished", "Status: aborted")
                          .replace("seat 2 wins by resignation", "none (aborted)"))
    assert aborted.finished is False


def test_bad_records_are_refused():
    good = "Kind: io\nOptions: size=5\nMoves:\n1. c3\n"
    assert parse_record(good) == ("io", {"size": 5}, ["c3"])
    for bad, words in [
        ("Kind: chess\nMoves:\n", "no known game"),
        ("Kind: io\nOptions: size=50\nMoves:\n", "bad options"),
        ("Kind: io\nMoves:\n2. c3\n", "out of order"),
        ("Kind: io\nMoves:\nc3\n", "numbered move"),
        ("Kind: io\nStatus: finished\nResult: nobody knows\nMoves:\n", "unreadable result"),
        ("Kind: io\nComputer: level 3\nMoves:\n", "unreadable computer"),
    ]:
        with pytest.raises(RecordError, match=words):
            parse_record(bad)


async def test_game_record_finds_the_game_and_reads_it_with_its_moves(mgr):
    g = await start_game(mgr, "io", {"size": 5})
    res = await mgr.play_move(g.id, ALICE, "c3")
    rec = await mgr.game_record(ALICE, game_id=g.id, guild_id=GUILD)
    assert rec.game == res.game and rec.move_texts == ["c3"]
    assert rec.moves == tuple(await mgr.moves(g.id))
    names = {1: "Ann", 2: "Bob"}
    assert rec.text(names) == await mgr.record_text(g.id, names)
    with pytest.raises(NotFound):
        await mgr.game_record(ALICE, game_id=g.id, guild_id=GUILD + 1)
