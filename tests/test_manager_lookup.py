"""Game manager: look-up -- which game a command means, autocomplete, active games, replays.

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
    complete_game,
    complete_reviewable_game,
    play_random,
    refused,
    start_game,
)

import engine
from bot.manager import (
    GameManager,
    NotFound,
    UserError,
)

HOUR = 3600.0
KIND = "coil"
OPTS = {"size": 5}
TITLE = engine.GAMES[KIND].title


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
async def mgr(db, clock):
    m = await GameManager.open(db("stonecast.db"), clock=clock, rng=random.Random(7))
    yield m
    await m.close()


async def test_resolve_game(mgr):
    with refused(NotFound, "no games in progress"):
        await mgr.resolve_game(ALICE)
    g1 = await start_game(mgr, KIND, OPTS)            # Alice to move
    assert (await mgr.resolve_game(BOB)).id == g1.id  # Bob's only game
    g2 = await start_game(mgr, KIND, OPTS, a=CAROL, b=ALICE)  # Carol to move
    assert (await mgr.resolve_game(ALICE)).id == g1.id  # the one waiting for Alice
    await mgr.play_move(g2.id, CAROL, next(g2.position.legal_moves()))
    with refused(UserError, f"2 games waiting for you \\(Coil #{g1.id}, Coil #{g2.id}\\)"):
        await mgr.resolve_game(ALICE)
    assert (await mgr.resolve_game(ALICE, game_id=g2.id)).id == g2.id
    with pytest.raises(NotFound):
        await mgr.resolve_game(ALICE, game_id=g2.id, guild_id=GUILD + 1)
    await mgr.set_game_thread(g2.id, 4242)
    assert (await mgr.resolve_game(ALICE, channel_id=4242)).id == g2.id
    assert (await mgr.resolve_game(BOB, channel_id=4242)).id == g2.id
    await mgr.play_move(g1.id, ALICE, next(g1.position.legal_moves()))
    await mgr.play_move(g2.id, ALICE, next((await mgr.get_game(g2.id)).position.legal_moves()))
    with refused(UserError, "none is waiting for you"):
        await mgr.resolve_game(ALICE)


async def test_complete_move_and_game(mgr):
    g = await start_game(mgr, KIND, OPTS)
    pos = g.position
    everything = list(pos.legal_moves())
    # nothing typed: a legal pass first (Coil, Phase I), then the cells
    assert "pass" in everything
    assert await mgr.complete_move(ALICE, "") == ["pass", *[m for m in everything if m != "pass"][:24]]
    assert await mgr.complete_move(ALICE, "A") == pos.complete("a")
    assert await mgr.complete_move(ALICE, "b", game_id=g.id, limit=2) == pos.complete("b", limit=2)
    # not Bob's turn; strangers and nonsense get nothing, never an error
    assert await mgr.complete_move(BOB, "") == []
    assert await mgr.complete_move(CAROL, "", game_id=g.id) == []
    assert await mgr.complete_move(ALICE, "", game_id="zzz") == []
    assert await mgr.complete_move(ALICE, "", game_id=12345) == []
    await mgr.play_move(g.id, ALICE, everything[0])
    after = (await mgr.get_game(g.id)).position
    assert await mgr.complete_move(BOB, "") == ["pass", *after.complete("", limit=24)]
    assert await mgr.complete_move(BOB, "b") == after.complete("b")
    g2 = await start_game(mgr, KIND, OPTS, a=CAROL, b=BOB)
    labels = await complete_game(mgr, BOB, "")
    assert labels == [(g.id, f"{TITLE} #{g.id} · your turn"), (g2.id, f"{TITLE} #{g2.id} · their turn")]
    assert await complete_game(mgr, BOB, f"#{g2.id}") == [(g2.id, f"{TITLE} #{g2.id} · their turn")]
    assert await complete_game(mgr, BOB, "their") == [(g2.id, f"{TITLE} #{g2.id} · their turn")]
    assert await complete_game(mgr, ALICE, "your") == []
    await mgr.resign(g2.id, CAROL)
    assert await complete_game(mgr, BOB, "", include_finished=True) == [
        (g.id, f"{TITLE} #{g.id} · your turn"), (g2.id, f"{TITLE} #{g2.id} · finished")]
    # the manager gives data, never words: the front words the labels
    found = await mgr.complete_game(BOB, include_finished=True)
    assert [(c.game_id, c.kind, c.status, c.waiting, c.players) for c in found] == [
        (g.id, KIND, "active", True, (ALICE, BOB)), (g2.id, KIND, "finished", False, (CAROL, BOB))]


async def test_active_games(mgr):
    g1 = await start_game(mgr, KIND, OPTS)
    g2 = await start_game(mgr, KIND, OPTS, a=BOB, b=CAROL)
    assert [g.id for g in await mgr.active_games(BOB)] == [g1.id, g2.id]
    assert [g.id for g in await mgr.active_games(ALICE)] == [g1.id]
    assert await mgr.active_games(BOB, guild_id=GUILD + 1) == []
    await mgr.resign(g1.id, ALICE)
    assert [g.id for g in await mgr.active_games(BOB)] == [g2.id]


async def test_complete_move_two_placements_in_io(mgr):
    g = await start_game(mgr, "io", {"size": 5})
    first = next(g.position.legal_moves())
    res = await mgr.play_move(g.id, ALICE, first)
    pos = res.position
    # Bob's move places two stones: autocomplete offers first placements, then whole moves
    assert await mgr.complete_move(BOB, "a") == pos.complete("a")
    one = pos.complete("")[0]
    whole = await mgr.complete_move(BOB, one + " ")
    assert whole == pos.complete(one + " ") and whole and all(m.startswith(one + " ") for m in whole)
    assert all(pos.is_legal(m) for m in whole)
    res = await mgr.play_move(g.id, BOB, whole[0].replace(" ", ", ").upper())
    assert res.move == whole[0] and [m.move for m in await mgr.moves(g.id)] == [first, whole[0]]


async def test_complete_move_uses_the_cached_position(mgr, monkeypatch):
    g = await start_game(mgr, "io", {"size": 7})
    g = await play_random(mgr, g, random.Random(9), max_moves=6)
    seen_sql: list[str] = []
    for name in ("fetchone", "fetchall"):
        real = getattr(mgr.store, name)

        async def spy(sql, params=(), _real=real):
            seen_sql.append(sql)
            return await _real(sql, params)

        monkeypatch.setattr(mgr.store, name, spy)

    def no_parsing(*a, **k):
        raise AssertionError("the position should come from the cache")

    monkeypatch.setattr(engine, "from_text", no_parsing)
    monkeypatch.setattr(engine, "replay", no_parsing)
    got = await mgr.complete_move(g.to_move_user, "", game_id=g.id)
    assert got and got == g.position.complete("")
    assert seen_sql and not any("moves" in sql for sql in seen_sql)


async def test_positions_for_a_replay(mgr):
    g = await play_random(mgr, await start_game(mgr, "io", {"size": 5}), random.Random(6), max_moves=6)
    done = await mgr.resign(g.id, BOB)
    positions = await mgr.positions(g.id)
    moves = await mgr.moves(g.id)
    assert len(positions) == len(moves) + 2  # start, one per move, the resignation
    assert positions[0] == engine.new_game("io", size=5)
    assert [p.last_move for p in positions[1:-1]] == [m.move for m in moves]
    assert positions[-1] == done.position == await mgr.replay_position(g.id)


async def test_listing_gives_the_games_and_the_opponents_away(mgr, clock):
    g1 = await start_game(mgr, KIND, OPTS)
    g2 = await start_game(mgr, KIND, OPTS, a=CAROL, b=ALICE)
    await mgr.set_vacation(CAROL, 2)
    listing = await mgr.listing(ALICE, GUILD)
    assert [g.id for g in listing.games] == [g.id for g in await mgr.active_games(ALICE, GUILD)] == [g1.id, g2.id]
    assert listing.away == {CAROL: (await mgr.settings(CAROL)).vacation_until}
    assert (await mgr.listing(BOB, GUILD)).away == {}
    assert (await mgr.listing(4242)).games == []


async def test_moves_by_game_and_reviewable_games(mgr):
    """Issue 19: /move's moves of each waiting game when none is meant, and /review's games
    that are over -- this server's only (a DM: the caller's own)."""
    g1 = await start_game(mgr, KIND, OPTS)                  # Alice to move
    assert await mgr.complete_moves_by_game(ALICE, "a", guild_id=GUILD) == []  # one game: it is meant
    g2 = await start_game(mgr, KIND, OPTS, a=ALICE, b=CAROL)
    ch = await mgr.create_challenge(guild_id=GUILD + 1, channel_id=1, challenger_id=ALICE,
                                    opponent_id=BOB, kind=KIND, options=OPTS, first="challenger")
    away = await mgr.accept_challenge(ch.id, BOB)            # another server's, Alice to move
    found = await mgr.complete_moves_by_game(ALICE, "a", guild_id=GUILD, limit=3)
    assert [(g.id, moves) for g, moves in found] == [(g.id, g.position.complete("a", limit=3)) for g in (g1, g2)]
    assert [g.id for g, _ in await mgr.complete_moves_by_game(ALICE, "", guild_id=None)] == [g1.id, g2.id, away.id]
    assert await mgr.complete_moves_by_game(BOB, "", guild_id=GUILD) == []  # none waiting for him

    assert await complete_reviewable_game(mgr, ALICE, "", guild_id=GUILD) == []
    await mgr.resign_game(g2.id, CAROL, guild_id=GUILD)      # over before any move: nothing to chart
    await mgr.play_move(g1.id, ALICE, "a1")
    await mgr.resign_game(g1.id, BOB, guild_id=GUILD)
    await mgr.play_move(away.id, ALICE, "a1")
    await mgr.resign_game(away.id, BOB, guild_id=GUILD + 1)
    here = [(g1.id, f"{TITLE} #{g1.id} · 1 move played")]
    assert await complete_reviewable_game(mgr, CAROL, "", guild_id=GUILD) == here  # anyone's, here
    assert await complete_reviewable_game(mgr, ALICE, str(away.id), guild_id=GUILD) == []
    assert [gid for gid, _ in await complete_reviewable_game(mgr, ALICE, "", guild_id=None)] == [away.id, g1.id]
    assert await complete_reviewable_game(mgr, CAROL, "", guild_id=None) == []  # not hers
