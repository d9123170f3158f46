"""Game manager: challenges -- sending, answering, expiry, limits, rematches.

Every test runs against each backend: a SQLite file and a PostgreSQL database (the
``db`` fixture of conftest.py).
"""

from __future__ import annotations

import asyncio
import random

import pytest
from manager_support import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    FakeClock,
    challenge,
    refused,
    start_game,
)

import engine
from bot.manager import (
    GameManager,
    LimitReached,
    Limits,
    NotAllowed,
    NotFound,
    StaleAction,
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


async def db_counts(mgr):
    out = {}
    for table in ("challenges", "games", "moves"):
        out[table] = (await mgr.store.fetchone(f"SELECT COUNT(*) FROM {table}"))[0]
    return out


async def test_challenge_is_stored_with_validated_options(mgr, clock):
    ch = await challenge(mgr, options={"size": "6"}, first="opponent", rated=False, days_per_move=5)
    assert ch.status == "open" and ch.kind == KIND
    assert ch.options == engine.GAMES[KIND].validate({"size": 6})
    assert ch.first == "opponent" and ch.rated is False and ch.days_per_move == 5
    assert ch.created_at == clock.t and ch.expires_at == clock.t + 24 * 3600
    assert await mgr.get_challenge(ch.id) == ch
    await mgr.set_challenge_message(ch.id, 555)
    assert (await mgr.get_challenge(ch.id)).message_id == 555


@pytest.mark.parametrize(
    "kw, error, words",
    [
        (dict(opponent_id=ALICE), NotAllowed, "yourself"),
        (dict(opponent_is_bot=True), NotAllowed, "Bots"),
        (dict(kind="chess"), UserError, "no game called"),
        (dict(options={"size": 99}), UserError, "size must be at most"),
        (dict(options={"colour": "red"}), UserError, "no option"),
        (dict(first="me"), UserError, "challenger, opponent or random"),
        (dict(days_per_move=0), UserError, "1 to 14"),
        (dict(days_per_move=15), UserError, "1 to 14"),
    ],
)
async def test_bad_challenges_are_refused_and_change_nothing(mgr, kw, error, words):
    with refused(error, words):
        await challenge(mgr, **kw)
    assert (await db_counts(mgr))["challenges"] == 0


async def test_accept_creates_the_game_in_one_go(mgr, clock):
    ch = await challenge(mgr, first="challenger")
    clock.advance(60)
    game = await mgr.accept_challenge(ch.id, BOB)
    assert game.players == {1: ALICE, 2: BOB}
    assert game.status == "active" and game.ply == 0 and game.challenge_id == ch.id
    assert game.position == engine.new_game(KIND, **OPTS)
    assert game.to_move_user == ALICE and game.opponent_of(ALICE) == BOB
    assert game.seat_of(BOB) == 2 and game.seat_of(CAROL) is None
    assert game.channel_for_posts == CHANNEL
    ch = await mgr.get_challenge(ch.id)
    assert ch.status == "accepted" and ch.game_id == game.id
    await mgr.set_game_thread(game.id, 777)
    assert (await mgr.get_game(game.id)).channel_for_posts == 777


async def test_first_opponent_and_random_seats(db, clock):
    ch_mgr = await GameManager.open(db("a.db"), clock=clock, rng=random.Random(1))
    try:
        g = await ch_mgr.accept_challenge((await challenge(ch_mgr, first="opponent")).id, BOB)
        assert g.players == {1: BOB, 2: ALICE}
        seats = set()
        for _ in range(4):
            g = await ch_mgr.accept_challenge((await challenge(ch_mgr, first="random")).id, BOB)
            seats.add(g.players[1])
        # the injected rng decides: with seed 1 both orders come up within four games
        assert seats == {ALICE, BOB}
    finally:
        await ch_mgr.close()
    # the same seed gives the same seats
    rng_seats = []
    for name in ("b.db", "c.db"):
        m = await GameManager.open(db(name), clock=clock, rng=random.Random(5))
        rng_seats.append([(await m.accept_challenge((await challenge(m)).id, BOB)).players[1]
                          for _ in range(4)])
        await m.close()
    assert rng_seats[0] == rng_seats[1]


async def test_who_may_answer_a_challenge(mgr):
    ch = await challenge(mgr)
    with refused(NotAllowed, "your own challenge"):
        await mgr.accept_challenge(ch.id, ALICE)
    with refused(NotAllowed, "someone else"):
        await mgr.accept_challenge(ch.id, CAROL)
    with refused(NotAllowed, "someone else"):
        await mgr.decline_challenge(ch.id, CAROL)
    with refused(NotAllowed, "Cancel"):
        await mgr.decline_challenge(ch.id, ALICE)
    with refused(NotAllowed, "Only the player who sent"):
        await mgr.cancel_challenge(ch.id, BOB)
    with pytest.raises(NotAllowed):
        await mgr.cancel_challenge(ch.id, CAROL)
    assert (await mgr.get_challenge(ch.id)).status == "open"
    assert (await db_counts(mgr))["games"] == 0

    declined = await mgr.decline_challenge(ch.id, BOB)
    assert declined.status == "declined"
    for act, who in ((mgr.accept_challenge, BOB), (mgr.decline_challenge, BOB),
                     (mgr.cancel_challenge, ALICE)):
        with refused(StaleAction, "no longer open: it was declined"):
            await act(ch.id, who)

    ch2 = await challenge(mgr)
    assert (await mgr.cancel_challenge(ch2.id, ALICE)).status == "cancelled"
    with refused(StaleAction, "cancelled"):
        await mgr.accept_challenge(ch2.id, BOB)
    assert (await db_counts(mgr))["games"] == 0


async def test_unknown_ids(mgr):
    for bad in (424242, 0, -3, "abc", None, 2**70):
        with pytest.raises(NotFound):
            await mgr.get_challenge(bad)
        with pytest.raises(NotFound):
            await mgr.get_game(bad)
    with refused(NotFound, "That challenge does not exist"):
        await mgr.accept_challenge(424242, BOB)
    with pytest.raises(NotFound):
        await mgr.decline_challenge(424242, BOB)
    with pytest.raises(NotFound):
        await mgr.cancel_challenge(424242, ALICE)
    with refused(NotFound, "No game is numbered 99"):
        await mgr.play_move(99, ALICE, "a1")
    with pytest.raises(NotFound):
        await mgr.resign(99, ALICE)
    with pytest.raises(NotFound):
        await mgr.moves(99)
    with pytest.raises(NotFound):
        await mgr.set_game_thread(99, 1)
    with pytest.raises(NotFound):
        await mgr.set_challenge_message(99, 1)
    # a game id typed as text still works
    g = await start_game(mgr, KIND, OPTS)
    assert (await mgr.get_game(f"#{g.id}")).id == g.id


async def test_challenges_expire_after_24_hours(mgr, clock):
    ch = await challenge(mgr)
    other = await challenge(mgr, opponent_id=CAROL)
    clock.advance(24 * 3600 - 1)
    assert await mgr.expire_challenges() == []
    clock.advance(1)
    # refused even before the sweep has marked it
    with refused(StaleAction, "expired"):
        await mgr.accept_challenge(ch.id, BOB)
    with refused(StaleAction, "expired"):
        await mgr.decline_challenge(ch.id, BOB)
    with refused(StaleAction, "expired"):
        await mgr.cancel_challenge(ch.id, ALICE)
    assert (await mgr.get_challenge(ch.id)).status == "open"
    expired = await mgr.expire_challenges()
    assert sorted(c.id for c in expired) == sorted([ch.id, other.id])
    assert all(c.status == "expired" for c in expired)
    assert await mgr.expire_challenges() == []
    with refused(StaleAction, "it was expired"):
        await mgr.accept_challenge(ch.id, BOB)
    assert (await db_counts(mgr))["games"] == 0


async def test_limits(db, clock):
    mgr = await GameManager.open(db("l.db"), clock=clock, limits=Limits(open_challenges=2, active_games=2))
    try:
        await challenge(mgr)
        c2 = await challenge(mgr, opponent_id=CAROL)
        with refused(LimitReached, "2 open challenges"):
            await challenge(mgr, opponent_id=1020)
        await mgr.cancel_challenge(c2.id, ALICE)
        c3 = await challenge(mgr, opponent_id=1020)  # cancelling frees a place
        await mgr.accept_challenge(c3.id, 1020)
        await start_game(mgr, KIND, OPTS, a=CAROL, b=ALICE)
        # Alice now plays two games: she can neither challenge nor accept another
        with refused(LimitReached, "already playing 2 games"):
            await challenge(mgr, opponent_id=CAROL)
        ch = await challenge(mgr, challenger_id=CAROL, opponent_id=ALICE)
        with refused(LimitReached, "You are already playing 2 games"):
            await mgr.accept_challenge(ch.id, ALICE)
        assert (await mgr.get_challenge(ch.id)).status == "open"
        # ...and a challenge whose sender filled up meanwhile cannot be accepted
        ch = await challenge(mgr, challenger_id=DAVE, opponent_id=None)
        await start_game(mgr, KIND, OPTS, a=DAVE, b=BOB)
        await start_game(mgr, KIND, OPTS, a=DAVE, b=CAROL)
        with refused(LimitReached, "The challenger is already playing 2 games"):
            await mgr.accept_challenge(ch.id, 1010)
        assert (await mgr.get_challenge(ch.id)).status == "open"
    finally:
        await mgr.close()


async def test_open_challenge_anyone_but_the_challenger(mgr):
    ch = await challenge(mgr, opponent_id=None)
    assert ch.opponent_id is None
    with refused(NotAllowed, "your own challenge"):
        await mgr.accept_challenge(ch.id, ALICE)
    with refused(NotAllowed, "cannot be declined"):
        await mgr.decline_challenge(ch.id, BOB)
    g = await mgr.accept_challenge(ch.id, CAROL)
    assert set(g.players.values()) == {ALICE, CAROL}
    assert (await mgr.get_challenge(ch.id)).opponent_id == CAROL
    with pytest.raises(StaleAction):
        await mgr.accept_challenge(ch.id, BOB)


async def test_racing_accepts_of_an_open_challenge(db, clock):
    path = db("acc.db")
    m1 = await GameManager.open(path, clock=clock)
    m2 = await GameManager.open(path, clock=clock)
    try:
        ch = await challenge(m1, opponent_id=None)
        results = await asyncio.gather(m1.accept_challenge(ch.id, BOB), m2.accept_challenge(ch.id, CAROL),
                                       return_exceptions=True)
        errors = [r for r in results if isinstance(r, BaseException)]
        assert len(errors) == 1 and isinstance(errors[0], StaleAction), results
        assert (await db_counts(m1))["games"] == 1
    finally:
        await m1.close()
        await m2.close()


@pytest.mark.parametrize("presser", [ALICE, BOB])
async def test_rematch_swaps_seats(mgr, presser):
    g = await start_game(mgr, "io", {"size": 7}, rated=False, days_per_move=5)
    assert g.players == {1: ALICE, 2: BOB}
    with refused(StaleAction, "still in progress"):
        await mgr.rematch(g.id, presser)
    await mgr.resign(g.id, ALICE)
    with pytest.raises(NotAllowed):
        await mgr.rematch(g.id, CAROL)
    with pytest.raises(NotFound):
        await mgr.rematch(9999, ALICE)
    ch = await mgr.rematch(g.id, presser)
    other = BOB if presser == ALICE else ALICE
    assert (ch.challenger_id, ch.opponent_id) == (presser, other)
    assert (ch.kind, ch.options, ch.rated, ch.days_per_move) == ("io", g.options, False, 5)
    assert ch.rematch_of == g.id and ch.channel_id == g.channel_id and ch.guild_id == g.guild_id
    with refused(StaleAction, "already offered"):
        await mgr.rematch(g.id, presser)
    with refused(StaleAction, "already offered a rematch of Io #.*: accept their challenge"):
        await mgr.rematch(g.id, other)
    new = await mgr.accept_challenge(ch.id, other)
    assert new.players == {1: BOB, 2: ALICE}
    assert new.kind == "io" and new.options == g.options and new.days_per_move == 5
    # the old game's Rematch button does not start a second rematch once one is being played
    for who in (ALICE, BOB):
        with refused(StaleAction, f"Io #{new.id}"):
            await mgr.rematch(g.id, who)
    assert await mgr.open_challenges(ALICE) == []


async def test_racing_rematch_presses_offer_one_rematch(mgr):
    # a double click on Rematch, or both players pressing it at once: one offer, one refusal
    g = await start_game(mgr, "io", {"size": 5})
    await mgr.resign(g.id, ALICE)
    for pressers in ((ALICE, ALICE), (ALICE, BOB)):
        results = await asyncio.gather(*(mgr.rematch(g.id, who) for who in pressers),
                                       return_exceptions=True)
        offers = [r for r in results if not isinstance(r, BaseException)]
        assert len(offers) == 1, results
        assert [type(r) for r in results if isinstance(r, BaseException)] == [StaleAction]
        open_now = await mgr.open_challenges(BOB)
        assert [c.id for c in open_now] == [offers[0].id]
        await mgr.cancel_challenge(offers[0].id, offers[0].challenger_id)


async def test_open_challenge_is_refused_to_the_challenger(mgr):
    ch = await mgr.create_challenge(guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE,
                                    opponent_id=None, kind=KIND, options=OPTS, first="challenger")
    with refused(NotAllowed, "your own challenge"):
        await mgr.accept_challenge(ch.id, ALICE)
    g = await mgr.accept_challenge(ch.id, CAROL)
    assert g.players == {1: ALICE, 2: CAROL}


# ---- what accepting returns for the first board (issue 11) ------------------------------------
async def test_accept_returns_what_the_first_board_needs(mgr, clock):
    await mgr.set_notify(ALICE, True)
    await mgr.set_vacation(ALICE, 1)
    c = await challenge(mgr, first="challenger")
    acc = await mgr.accept(c.id, BOB)
    assert acc.game == await mgr.get_game(acc.game.id) and acc.game.ply == 0
    assert acc.challenge == await mgr.get_challenge(c.id)
    assert acc.challenge.status == "accepted" and acc.challenge.game_id == acc.game.id
    assert acc.position == acc.game.position and acc.ping_id == ALICE == acc.game.to_move_user
    assert acc.announcement_id == await mgr.pending_board(acc.game.id, 0)
    assert acc.dm_due and acc.dm_id == await mgr.pending_dm(acc.game.id, 0)
    assert acc.vacation_until == clock.t + 86400.0
    assert acc.to_move_settings == await mgr.settings(ALICE)
    # the player to move in seat 1 when the one who accepts moves first: no DM asked for
    c = await challenge(mgr, challenger_id=CAROL, opponent_id=DAVE, first="opponent")
    acc = await mgr.accept(c.id, DAVE)
    assert acc.ping_id == DAVE and acc.dm_id is None and not acc.dm_due and acc.vacation_until is None


async def test_challenge_and_game_reads_the_game_of_an_accepted_challenge(mgr):
    c = await challenge(mgr)
    assert await mgr.challenge_and_game(c.id) == (c, None)
    game = await mgr.accept_challenge(c.id, BOB)
    got, g = await mgr.challenge_and_game(c.id)
    assert got == await mgr.get_challenge(c.id) and got.status == "accepted" and g == game
    with pytest.raises(NotFound):
        await mgr.challenge_and_game(99)
