"""Game manager, issue 4: challenges, moves, races, resignation, limits, autocomplete.

Every test runs against a real SQLite file under ``tmp_path``.
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
    play_random,
    replay_of,
    small_options,
    start_game,
)

import engine
from bot.manager import (
    GameManager,
    GameOver,
    InvalidMove,
    LimitReached,
    Limits,
    NotAllowed,
    NotFound,
    NotYourTurn,
    StaleAction,
    UserError,
)

KIND = "coil"
OPTS = {"size": 5}
TITLE = engine.GAMES[KIND].title



@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
async def mgr(tmp_path, clock):
    m = await GameManager.open(tmp_path / "stonecast.db", clock=clock, rng=random.Random(7))
    yield m
    await m.close()


async def challenge(mgr, **kw):
    args = dict(guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB, kind=KIND,
                options=OPTS)
    args.update(kw)
    return await mgr.create_challenge(**args)


async def db_counts(mgr):
    out = {}
    for table in ("challenges", "games", "moves"):
        out[table] = (await mgr.store.fetchone(f"SELECT COUNT(*) FROM {table}"))[0]
    return out


# ---- challenges ----------------------------------------------------------------------------
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
    with pytest.raises(error, match=words):
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


async def test_first_opponent_and_random_seats(tmp_path, clock):
    ch_mgr = await GameManager.open(tmp_path / "a.db", clock=clock, rng=random.Random(1))
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
        m = await GameManager.open(tmp_path / name, clock=clock, rng=random.Random(5))
        rng_seats.append([(await m.accept_challenge((await challenge(m)).id, BOB)).players[1]
                          for _ in range(4)])
        await m.close()
    assert rng_seats[0] == rng_seats[1]


async def test_who_may_answer_a_challenge(mgr):
    ch = await challenge(mgr)
    with pytest.raises(NotAllowed, match="your own challenge"):
        await mgr.accept_challenge(ch.id, ALICE)
    with pytest.raises(NotAllowed, match="someone else"):
        await mgr.accept_challenge(ch.id, CAROL)
    with pytest.raises(NotAllowed, match="someone else"):
        await mgr.decline_challenge(ch.id, CAROL)
    with pytest.raises(NotAllowed, match="Cancel"):
        await mgr.decline_challenge(ch.id, ALICE)
    with pytest.raises(NotAllowed, match="Only the player who sent"):
        await mgr.cancel_challenge(ch.id, BOB)
    with pytest.raises(NotAllowed):
        await mgr.cancel_challenge(ch.id, CAROL)
    assert (await mgr.get_challenge(ch.id)).status == "open"
    assert (await db_counts(mgr))["games"] == 0

    declined = await mgr.decline_challenge(ch.id, BOB)
    assert declined.status == "declined"
    for act, who in ((mgr.accept_challenge, BOB), (mgr.decline_challenge, BOB),
                     (mgr.cancel_challenge, ALICE)):
        with pytest.raises(StaleAction, match="no longer open: it was declined"):
            await act(ch.id, who)

    ch2 = await challenge(mgr)
    assert (await mgr.cancel_challenge(ch2.id, ALICE)).status == "cancelled"
    with pytest.raises(StaleAction, match="cancelled"):
        await mgr.accept_challenge(ch2.id, BOB)
    assert (await db_counts(mgr))["games"] == 0


async def test_unknown_ids(mgr):
    for bad in (424242, 0, -3, "abc", None, 2**70):
        with pytest.raises(NotFound):
            await mgr.get_challenge(bad)
        with pytest.raises(NotFound):
            await mgr.get_game(bad)
    with pytest.raises(NotFound, match="That challenge does not exist"):
        await mgr.accept_challenge(424242, BOB)
    with pytest.raises(NotFound):
        await mgr.decline_challenge(424242, BOB)
    with pytest.raises(NotFound):
        await mgr.cancel_challenge(424242, ALICE)
    with pytest.raises(NotFound, match="No game is numbered 99"):
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
    with pytest.raises(StaleAction, match="expired"):
        await mgr.accept_challenge(ch.id, BOB)
    with pytest.raises(StaleAction, match="expired"):
        await mgr.decline_challenge(ch.id, BOB)
    with pytest.raises(StaleAction, match="expired"):
        await mgr.cancel_challenge(ch.id, ALICE)
    assert (await mgr.get_challenge(ch.id)).status == "open"
    expired = await mgr.expire_challenges()
    assert sorted(c.id for c in expired) == sorted([ch.id, other.id])
    assert all(c.status == "expired" for c in expired)
    assert await mgr.expire_challenges() == []
    with pytest.raises(StaleAction, match="it was expired"):
        await mgr.accept_challenge(ch.id, BOB)
    assert (await db_counts(mgr))["games"] == 0


async def test_limits(tmp_path, clock):
    mgr = await GameManager.open(tmp_path / "l.db", clock=clock, limits=Limits(open_challenges=2, active_games=2))
    try:
        await challenge(mgr)
        c2 = await challenge(mgr, opponent_id=CAROL)
        with pytest.raises(LimitReached, match="2 open challenges"):
            await challenge(mgr, opponent_id=1020)
        await mgr.cancel_challenge(c2.id, ALICE)
        c3 = await challenge(mgr, opponent_id=1020)  # cancelling frees a place
        await mgr.accept_challenge(c3.id, 1020)
        await start_game(mgr, KIND, OPTS, a=CAROL, b=ALICE)
        # Alice now plays two games: she can neither challenge nor accept another
        with pytest.raises(LimitReached, match="already playing 2 games"):
            await challenge(mgr, opponent_id=CAROL)
        ch = await challenge(mgr, challenger_id=CAROL, opponent_id=ALICE)
        with pytest.raises(LimitReached, match="You are already playing 2 games"):
            await mgr.accept_challenge(ch.id, ALICE)
        assert (await mgr.get_challenge(ch.id)).status == "open"
        # ...and a challenge whose sender filled up meanwhile cannot be accepted
        ch = await challenge(mgr, challenger_id=DAVE, opponent_id=None)
        await start_game(mgr, KIND, OPTS, a=DAVE, b=BOB)
        await start_game(mgr, KIND, OPTS, a=DAVE, b=CAROL)
        with pytest.raises(LimitReached, match="The challenger is already playing 2 games"):
            await mgr.accept_challenge(ch.id, 1010)
        assert (await mgr.get_challenge(ch.id)).status == "open"
    finally:
        await mgr.close()


# ---- moves ---------------------------------------------------------------------------------
async def test_a_move_is_committed_with_its_canonical_text(mgr, clock):
    g = await start_game(mgr, KIND, OPTS)
    first = next(g.position.legal_moves())
    clock.advance(5)
    res = await mgr.play_move(g.id, ALICE, "  " + first.upper() + " ")
    assert res.move == first and res.seat == 1 and not res.finished
    assert res.position == g.position.play(first)
    assert res.game.ply == 1 and res.game.position_text == res.position.to_text()
    assert res.game.to_move_user == BOB and res.game.updated_at == clock.t
    assert await mgr.moves(g.id) == [type((await mgr.moves(g.id))[0])(1, 1, first, clock.t)]


async def test_move_errors(mgr):
    g = await start_game(mgr, KIND, OPTS)
    first = next(g.position.legal_moves())
    with pytest.raises(NotAllowed, match="not playing"):
        await mgr.play_move(g.id, CAROL, first)
    with pytest.raises(NotYourTurn, match="not your turn"):
        await mgr.play_move(g.id, BOB, first)
    for bad in ("z99", "hello", ""):
        with pytest.raises(InvalidMove, match="Cannot read that move"):
            await mgr.play_move(g.id, ALICE, bad)
    with pytest.raises(InvalidMove):
        await mgr.play_move(g.id, ALICE, "a1 " * 100)
    await mgr.play_move(g.id, ALICE, first)
    with pytest.raises(InvalidMove, match="Illegal move: .*occupied"):
        await mgr.play_move(g.id, BOB, first)
    g2 = await mgr.get_game(g.id)
    assert g2.ply == 1 and len(await mgr.moves(g.id)) == 1


async def test_racing_moves_on_one_manager(mgr):
    g = await start_game(mgr, KIND, OPTS)
    a, b = list(g.position.legal_moves())[:2]
    results = await asyncio.gather(
        mgr.play_move(g.id, ALICE, a), mgr.play_move(g.id, ALICE, b), return_exceptions=True
    )
    wins = [r for r in results if not isinstance(r, BaseException)]
    losses = [r for r in results if isinstance(r, BaseException)]
    assert len(wins) == 1 and len(losses) == 1
    assert isinstance(losses[0], NotYourTurn)
    moves = await mgr.moves(g.id)
    assert [m.move for m in moves] == [wins[0].move]


async def test_racing_moves_from_two_processes_on_one_file(tmp_path, clock):
    path = tmp_path / "shared.db"
    m1 = await GameManager.open(path, clock=clock)
    m2 = await GameManager.open(path, clock=clock)
    try:
        g = await start_game(m1, KIND, OPTS)
        for _ in range(3):
            g = await m1.get_game(g.id)
            await m2.get_game(g.id)  # both have the position cached
            mover = g.to_move_user
            a, b = list(g.position.legal_moves())[:2]
            results = await asyncio.gather(
                m1.play_move(g.id, mover, a), m2.play_move(g.id, mover, b), return_exceptions=True
            )
            errors = [r for r in results if isinstance(r, BaseException)]
            assert len(errors) == 1 and isinstance(errors[0], NotYourTurn), results
            assert "not your turn" in str(errors[0])
        g = await m2.get_game(g.id)
        moves = await m1.moves(g.id)
        assert g.ply == 3 == len(moves)
        assert replay_of(g, moves).to_text() == g.position_text
    finally:
        await m1.close()
        await m2.close()


@pytest.mark.parametrize("kind", sorted(engine.GAMES))
async def test_position_cache_equals_replay_through_whole_games(mgr, kind):
    rng = random.Random(3)
    for i in range(3):
        g = await start_game(mgr, kind, small_options(kind))
        if i == 2:  # and one ended by resignation part-way
            g = await play_random(mgr, g, rng, max_moves=5)
            g = await mgr.resign(g.id, g.to_move_user)
        g = await play_random(mgr, g, rng)
        assert g.status == "finished"
        moves = await mgr.moves(g.id)
        assert [m.ply for m in moves] == list(range(1, g.ply + 1))
        pos, seats = engine.new_game(g.kind, **g.options), []
        for m in moves:
            seats.append(pos.to_move)
            pos = pos.play(m.move)
        assert [m.seat for m in moves] == seats
        replayed = replay_of(g, moves)
        assert replayed.to_text() == g.position_text
        assert (g.winner, g.reason) == (replayed.outcome.winner, replayed.outcome.reason)
        assert await mgr.replay_position(g.id) == g.position


async def test_finished_game_refuses_moves_and_resignation(mgr):
    g = await play_random(mgr, await start_game(mgr, KIND, OPTS), random.Random(4))
    assert g.status == "finished" and g.deadline is None and g.finished_at is not None
    for uid in (ALICE, BOB):
        with pytest.raises(GameOver, match="is over"):
            await mgr.play_move(g.id, uid, "a1")
        with pytest.raises(GameOver):
            await mgr.resign(g.id, uid)


@pytest.mark.parametrize("who, seat", [(ALICE, 1), (BOB, 2)])
async def test_resign_on_either_turn(mgr, who, seat):
    g = await start_game(mgr, KIND, OPTS)
    await mgr.play_move(g.id, ALICE, next(g.position.legal_moves()))  # Bob to move
    with pytest.raises(NotAllowed):
        await mgr.resign(g.id, CAROL)
    done = await mgr.resign(g.id, who)
    assert done.status == "finished" and done.reason == "resignation" and done.winner == 3 - seat
    assert done.position.outcome.winner == 3 - seat
    assert done.position_text == replay_of(done, await mgr.moves(g.id)).to_text()
    with pytest.raises(GameOver):
        await mgr.resign(g.id, who)


async def test_state_survives_close_and_reopen(tmp_path, clock):
    path = tmp_path / "persist.db"
    m = await GameManager.open(path, clock=clock)
    g = await start_game(m, KIND, OPTS)
    res = await m.play_move(g.id, ALICE, next(g.position.legal_moves()))
    ch = await challenge(m, opponent_id=CAROL)
    await m.close()
    m = await GameManager.open(path, clock=clock)
    try:
        g2 = await m.get_game(g.id)
        assert g2 == res.game
        assert [x.move for x in await m.moves(g.id)] == [res.move]
        assert await m.get_challenge(ch.id) == ch
        nxt = next(g2.position.legal_moves())
        res2 = await m.play_move(g.id, BOB, nxt)
        assert res2.game.ply == 2
    finally:
        await m.close()


# ---- resolving and autocomplete -----------------------------------------------------------------
async def test_resolve_game(mgr):
    with pytest.raises(NotFound, match="no games in progress"):
        await mgr.resolve_game(ALICE)
    g1 = await start_game(mgr, KIND, OPTS)            # Alice to move
    assert (await mgr.resolve_game(BOB)).id == g1.id  # Bob's only game
    g2 = await start_game(mgr, KIND, OPTS, a=CAROL, b=ALICE)  # Carol to move
    assert (await mgr.resolve_game(ALICE)).id == g1.id  # the one waiting for Alice
    await mgr.play_move(g2.id, CAROL, next(g2.position.legal_moves()))
    with pytest.raises(UserError, match=f"2 games waiting for you \\(Coil #{g1.id}, Coil #{g2.id}\\)"):
        await mgr.resolve_game(ALICE)
    assert (await mgr.resolve_game(ALICE, game_id=g2.id)).id == g2.id
    with pytest.raises(NotFound):
        await mgr.resolve_game(ALICE, game_id=g2.id, guild_id=GUILD + 1)
    await mgr.set_game_thread(g2.id, 4242)
    assert (await mgr.resolve_game(ALICE, channel_id=4242)).id == g2.id
    assert (await mgr.resolve_game(BOB, channel_id=4242)).id == g2.id
    await mgr.play_move(g1.id, ALICE, next(g1.position.legal_moves()))
    await mgr.play_move(g2.id, ALICE, next((await mgr.get_game(g2.id)).position.legal_moves()))
    with pytest.raises(UserError, match="none is waiting for you"):
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
    labels = await mgr.complete_game(BOB, "")
    assert labels == [(g.id, f"{TITLE} #{g.id} · your turn"), (g2.id, f"{TITLE} #{g2.id} · their turn")]
    assert await mgr.complete_game(BOB, f"#{g2.id}") == [(g2.id, f"{TITLE} #{g2.id} · their turn")]
    assert await mgr.complete_game(BOB, "their") == [(g2.id, f"{TITLE} #{g2.id} · their turn")]
    assert await mgr.complete_game(ALICE, "your") == []
    await mgr.resign(g2.id, CAROL)
    assert await mgr.complete_game(BOB, "", include_finished=True) == [
        (g.id, f"{TITLE} #{g.id} · your turn"), (g2.id, f"{TITLE} #{g2.id} · finished")]


async def test_active_games(mgr):
    g1 = await start_game(mgr, KIND, OPTS)
    g2 = await start_game(mgr, KIND, OPTS, a=BOB, b=CAROL)
    assert [g.id for g in await mgr.active_games(BOB)] == [g1.id, g2.id]
    assert [g.id for g in await mgr.active_games(ALICE)] == [g1.id]
    assert await mgr.active_games(BOB, guild_id=GUILD + 1) == []
    await mgr.resign(g1.id, ALICE)
    assert [g.id for g in await mgr.active_games(BOB)] == [g2.id]


async def test_open_challenge_anyone_but_the_challenger(mgr):
    ch = await challenge(mgr, opponent_id=None)
    assert ch.opponent_id is None
    with pytest.raises(NotAllowed, match="your own challenge"):
        await mgr.accept_challenge(ch.id, ALICE)
    with pytest.raises(NotAllowed, match="cannot be declined"):
        await mgr.decline_challenge(ch.id, BOB)
    g = await mgr.accept_challenge(ch.id, CAROL)
    assert set(g.players.values()) == {ALICE, CAROL}
    assert (await mgr.get_challenge(ch.id)).opponent_id == CAROL
    with pytest.raises(StaleAction):
        await mgr.accept_challenge(ch.id, BOB)


async def test_racing_accepts_of_an_open_challenge(tmp_path, clock):
    path = tmp_path / "acc.db"
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
