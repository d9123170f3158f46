"""Tournaments under bad input and faults (issue 21): every refusal of the manager changes
nothing; a round is started exactly once across a restart, a crash inside its transaction,
and two managers (two processes) on one database racing; the sign-up deadline; the posts'
outbox; Alembic revision 0007 down and up with the rows of 0006 intact."""

import asyncio
import random

import pytest
from manager_support import GUILD, FakeClock
from tournament_support import ORGANISER, PLAYERS, create, finish_round, post_kinds, round_games

from bot.manager import DAY, GameManager, NotAllowed, NotFound, Refusal, StaleAction, UserError


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
async def mgr(sqlite_db, clock):
    m = await GameManager.open(sqlite_db("t.db"), clock=clock, rng=random.Random(7))
    yield m
    await m.close()


async def snapshot(m: GameManager) -> list:
    """Every tournament row, entrant, pairing, post and game (what a refusal must not change)."""
    out = []
    for table in ("tournaments", "tournament_entrants", "tournament_pairings", "tournament_posts", "games"):
        out.append([tuple(r) for r in await m.store.fetchall(f"SELECT * FROM {table} ORDER BY 1, 2")])
    return out


async def refused(m: GameManager, reason: Refusal, call, error=UserError) -> UserError:
    before = await snapshot(m)
    with pytest.raises(error) as e:
        await call
    assert e.value.reason is reason
    assert await snapshot(m) == before
    return e.value


async def test_every_bad_input_is_refused_and_changes_nothing(mgr):
    m = mgr
    tid = await create(m, players=2, max_players=3)

    def make(**kw):
        args = {"guild_id": GUILD, "channel_id": 1, "organiser_id": ORGANISER, "may_organise": True,
                "name": "Another", "kind": "braincoral"} | kw
        return m.create_tournament(**args)

    await refused(m, Refusal.NOT_ORGANISER, make(may_organise=False), NotAllowed)
    await refused(m, Refusal.TOURNAMENT_NAME_LENGTH, make(name="x" * 33))
    await refused(m, Refusal.TOURNAMENT_NAME_LENGTH, make(name="   "))
    await refused(m, Refusal.TOURNAMENT_NAME_TAKEN, make(name="  winter   CUP "))
    await refused(m, Refusal.BAD_FORMAT, make(format="ladder"))
    await refused(m, Refusal.BAD_FIELD_SIZE, make(min_players=5, max_players=4))
    await refused(m, Refusal.BAD_FIELD_SIZE, make(max_players=1000))
    await refused(m, Refusal.BAD_ROUNDS, make(format="swiss", rounds=0))
    await refused(m, Refusal.BAD_GAMES_PER_MATCH, make(format="knockout", games_per_match=3))
    await refused(m, Refusal.BAD_DIVISION, make(format="league", division_size=4, promote=2))
    await refused(m, Refusal.BAD_START, make(starts_at=m.clock() - 1))
    await refused(m, Refusal.BAD_START, make(starts_at=m.clock() + 61 * DAY))
    await refused(m, Refusal.UNKNOWN_KIND, make(kind="chess"))
    await refused(m, Refusal.BAD_OPTION, make(options={"size": 99}))
    await refused(m, Refusal.BAD_CLOCK, make(clock="sometimes"))
    # joining twice, leaving when not in, a full field
    await refused(m, Refusal.ALREADY_ENTERED, m.join_tournament(tid, PLAYERS[0], guild_id=GUILD))
    await refused(m, Refusal.NOT_ENTERED, m.leave_tournament(tid, PLAYERS[5], guild_id=GUILD))
    await m.join_tournament(tid, PLAYERS[2], guild_id=GUILD)
    await refused(m, Refusal.TOURNAMENT_FULL, m.join_tournament(tid, PLAYERS[3], guild_id=GUILD))
    # the computer: a bad level, twice, or by a non-organiser
    await refused(m, Refusal.BAD_LEVEL, m.enter_computer(tid, ORGANISER, guild_id=GUILD, may_organise=True,
                                                         computer_id=4242, level=9))
    await refused(m, Refusal.NOT_ORGANISER, m.enter_computer(tid, PLAYERS[0], guild_id=GUILD, may_organise=False,
                                                             computer_id=4242, level=2), NotAllowed)
    # a non-organiser managing it; another server's tournament is unknown
    for call in (m.start_tournament(tid, PLAYERS[0], guild_id=GUILD, may_organise=False),
                 m.cancel_tournament(tid, PLAYERS[0], guild_id=GUILD, may_organise=False),
                 m.remove_entrant(tid, PLAYERS[0], PLAYERS[1], guild_id=GUILD, may_organise=False)):
        await refused(m, Refusal.NOT_ORGANISER, call, NotAllowed)
    for ref in (tid, str(tid), "Winter Cup", "nothing", 0, True):
        await refused(m, Refusal.NO_SUCH_TOURNAMENT, m.join_tournament(ref, PLAYERS[9], guild_id=GUILD + 1), NotFound)
    await refused(m, Refusal.TOURNAMENT_NOT_RUNNING, m.withdraw(tid, PLAYERS[0], guild_id=GUILD), StaleAction)
    # too few players to start
    small = await create(m, "Small", players=1, min_players=2)
    e = await refused(m, Refusal.TOO_FEW_PLAYERS, m.start_tournament(small, ORGANISER, guild_id=GUILD,
                                                                      may_organise=True))
    assert (e.count, e.least) == (1, 2)
    # after the start: no joining, leaving, second start; withdrawing twice
    await m.start_tournament(tid, ORGANISER, guild_id=GUILD, may_organise=True)
    await refused(m, Refusal.SIGNUP_CLOSED, m.join_tournament(tid, PLAYERS[3], guild_id=GUILD), StaleAction)
    await refused(m, Refusal.SIGNUP_CLOSED, m.leave_tournament(tid, PLAYERS[0], guild_id=GUILD), StaleAction)
    await refused(m, Refusal.SIGNUP_CLOSED, m.start_tournament(tid, ORGANISER, guild_id=GUILD, may_organise=True),
                  StaleAction)
    await refused(m, Refusal.NOT_ENTERED, m.withdraw(tid, PLAYERS[7], guild_id=GUILD))
    await m.withdraw(tid, PLAYERS[0], guild_id=GUILD)
    await refused(m, Refusal.ALREADY_WITHDRAWN, m.withdraw(tid, PLAYERS[0], guild_id=GUILD))
    await m.cancel_tournament(tid, ORGANISER, guild_id=GUILD, may_organise=True)
    await refused(m, Refusal.TOURNAMENT_OVER, m.cancel_tournament(tid, ORGANISER, guild_id=GUILD,
                                                                  may_organise=True), StaleAction)
    # a cancelled tournament frees its name
    assert (await make(name="Winter Cup")).name == "Winter Cup"


async def test_lists_autocomplete_and_names_stay_within_the_server(mgr):
    a = await create(mgr, "Spring Open")
    await create(mgr, "Summer Open")
    other = await mgr.create_tournament(guild_id=GUILD + 1, channel_id=5, organiser_id=1, may_organise=True,
                                        name="Spring Open", kind="io")
    assert [t.name for t in await mgr.tournaments(GUILD)] == ["Summer Open", "Spring Open"]
    assert [t.id for t in await mgr.complete_tournament(GUILD, "spring")] == [a]
    assert (await mgr.get_tournament("SPRING open", guild_id=GUILD + 1)).id == other.id
    await mgr.set_organiser_role(GUILD, 77)
    assert (await mgr.organiser_role(GUILD), await mgr.organiser_role(GUILD + 1)) == (77, None)


async def test_a_restart_mid_round_starts_the_next_round_once(tmp_path, clock):
    path = tmp_path / "restart.db"
    m = await GameManager.open(path, clock=clock)
    tid = await create(m, "Swiss", players=4, format="swiss", rounds=2)
    await m.start_tournament(tid, ORGANISER, guild_id=GUILD, may_organise=True)
    first, second = await round_games(m, tid)
    await m.resign(first.id, first.players[1])
    assert await m.advance() == []  # one game of the round still runs
    await m.close()
    m = await GameManager.open(path, clock=clock)  # a new process on the same file
    try:
        await m.resign(second.id, second.players[2])
        steps = await m.advance()
        assert [s.started.round for s in steps] == [2]
        assert await m.advance() == []
        rows = await m.store.fetchall("SELECT round, COUNT(*) FROM tournament_pairings WHERE tournament_id = ?"
                                      " GROUP BY round ORDER BY round", (tid,))
        assert [tuple(r) for r in rows] == [(1, 2), (2, 2)]
        assert len(await round_games(m, tid)) == 2
    finally:
        await m.close()


async def test_a_crash_inside_a_round_robin_start_leaves_nothing_and_the_start_is_made_again(mgr, monkeypatch):
    """Every game of every round starts in one transaction: the process dying at the
    fourth game (round 2) leaves no game, pairing or post of any round."""
    tid = await create(mgr, players=4)
    challenges = mgr.services.challenges
    real = challenges.start_game
    calls = []

    async def dies_on_the_fourth(**kw):
        calls.append(kw)
        if len(calls) == 4:
            raise RuntimeError("killed")  # the process dies mid-transaction
        return await real(**kw)

    monkeypatch.setattr(challenges, "start_game", dies_on_the_fourth)
    before = await mgr.store.fetchall("SELECT COUNT(*) FROM games")
    with pytest.raises(RuntimeError):
        await mgr.start_tournament(tid, ORGANISER, guild_id=GUILD, may_organise=True)
    t = await mgr.get_tournament(tid, guild_id=GUILD)
    assert (t.status, t.current_round) == ("signup", 0)
    assert await mgr.store.fetchall("SELECT COUNT(*) FROM games") == before
    assert await mgr.store.fetchall("SELECT * FROM tournament_pairings") == []
    assert await post_kinds(mgr, tid) == [("opened", 0)]
    monkeypatch.setattr(challenges, "start_game", real)
    started = await mgr.start_tournament(tid, ORGANISER, guild_id=GUILD, may_organise=True)
    assert len(started.games) == 6 and await post_kinds(mgr, tid) == [("opened", 0), ("round", 1), ("round", 2),
                                                                        ("round", 3)]


async def two_managers(db, clock):
    ms = [await GameManager.open(db("race.db"), clock=clock) for _ in range(2)]
    for k, m in enumerate(ms):
        m.process_id = f"{m.process_id}/{k}"  # SQLite: name them apart (as test_manager_claims does)
    return ms


async def test_two_managers_racing_start_a_double_round_robin_once(db, clock):
    """Two processes on one database (SQLite and PostgreSQL) start a 4-player double round
    robin at once: one start wins and makes all 12 games of its 6 rounds in one
    transaction, the other finds sign-up closed; each pairing and game exists once; the end
    is recorded once."""
    m1, m2 = await two_managers(db, clock)
    try:
        tid = await create(m1, players=4, format="double_round_robin")
        results = await asyncio.gather(
            m1.start_tournament(tid, ORGANISER, guild_id=GUILD, may_organise=True),
            m2.start_tournament(tid, ORGANISER, guild_id=GUILD, may_organise=True), return_exceptions=True)
        [started] = [r for r in results if not isinstance(r, BaseException)]
        assert all(r.reason is Refusal.SIGNUP_CLOSED for r in results if isinstance(r, BaseException))
        assert (len(started.games), started.last_round) == (12, 6)
        rows = await m1.store.fetchall("SELECT round, COUNT(*) FROM tournament_pairings WHERE tournament_id = ?"
                                       " GROUP BY round ORDER BY round", (tid,))
        assert [tuple(r) for r in rows] == [(r, 2) for r in range(1, 7)]
        assert (await m1.store.fetchall("SELECT COUNT(*) FROM games"))[0][0] == 12
        assert await asyncio.gather(m1.advance(), m2.advance()) == [[], []]  # every game still runs
        await finish_round(m1, tid, random.Random(1), resign_every=1)
        steps = await asyncio.gather(m1.advance(), m2.advance(), m1.advance(), m2.advance())
        assert sum(len(s) for s in steps) == 1 and [s for s in steps if s][0][0].finished
        assert [k for k, _ in await post_kinds(m1, tid)].count("final") == 1
    finally:
        for m in (m1, m2):
            await m.close()


async def test_two_managers_racing_advance_make_each_swiss_round_once(db, clock):
    m1, m2 = await two_managers(db, clock)
    try:
        tid = await create(m1, "Swiss", players=4, format="swiss", rounds=3)
        await m1.start_tournament(tid, ORGANISER, guild_id=GUILD, may_organise=True)
        await finish_round(m1, tid, random.Random(1), resign_every=1)
        steps = await asyncio.gather(m1.advance(), m2.advance(), m1.advance(), m2.advance())
        assert sum(len(s) for s in steps) == 1
        # the guard holds even without the leases: the losers of the race find it started
        svc1, svc2 = m1.services.tournaments, m2.services.tournaments
        await finish_round(m1, tid, random.Random(2), resign_every=1)
        done = await asyncio.gather(svc1._advance_one(tid, clock()), svc2._advance_one(tid, clock()))
        assert sum(d is not None for d in done) == 1
        rows = await m1.store.fetchall("SELECT round, COUNT(*) FROM tournament_pairings WHERE tournament_id = ?"
                                       " GROUP BY round ORDER BY round", (tid,))
        assert [tuple(r) for r in rows] == [(1, 2), (2, 2), (3, 2)]
        games = await m1.store.fetchall("SELECT COUNT(*) FROM games")
        assert games[0][0] == 6
    finally:
        for m in (m1, m2):
            await m.close()


async def test_one_manager_claims_a_tournament_the_other_waits_for_its_lease(db, clock):
    m1, m2 = await two_managers(db, clock)
    try:
        tid = await create(m1, players=2)
        repo1, repo2 = m1.services.tournaments.tournaments_repo, m2.services.tournaments.tournaments_repo
        assert await repo1.claim(tid, m1.process_id, clock(), clock() + m1.lease)
        assert not await repo2.claim(tid, m2.process_id, clock(), clock() + m2.lease)
        assert await m2.advance() == []  # m1 holds it (its process died mid-step, say)
        clock.advance(m1.lease)
        assert await repo2.claim(tid, m2.process_id, clock(), clock() + m2.lease)
        assert await repo2.release(tid, m2.process_id)
        assert await repo1.holder(tid) == (None, None)
    finally:
        for m in (m1, m2):
            await m.close()


async def test_the_sign_up_deadline_starts_it_or_cancels_it(mgr, clock):
    full = await create(mgr, "Starts", players=3, starts_at=clock() + DAY)
    empty = await create(mgr, "Too few", players=1, starts_at=clock() + DAY)
    assert await mgr.advance() == []
    clock.advance(DAY)
    steps = {s.tournament.id: s for s in await mgr.advance()}
    assert steps[full].started.round == 1 and len(steps[full].started.games) == 3  # 3 rounds, a bye each
    assert steps[empty].cancelled and steps[empty].tournament.status == "cancelled"
    assert await post_kinds(mgr, empty) == [("opened", 0), ("cancelled", 0)]


async def test_tournament_posts_are_delivered_at_least_once_with_what_they_need(mgr, clock):
    tid = await create(mgr, players=2)
    await mgr.start_tournament(tid, ORGANISER, guild_id=GUILD, may_organise=True)
    posts = await mgr.pending_tournament_posts()
    assert [(p.kind, p.round) for p in posts] == [("opened", 0), ("round", 1)]
    assert len(posts[1].pairings) == 1 and len(posts[1].games) == 1 and not posts[1].recheck
    assert posts[1].announcement_id is None  # the announcement is not out yet: nothing to edit
    # this manager's own claims come back, marked as perhaps posted already
    assert [(p.id, p.recheck) for p in await mgr.pending_tournament_posts()] == [(p.id, True) for p in posts]
    assert await mgr.mark_tournament_post_delivered(posts[0].id, message_id=555)
    assert not await mgr.mark_tournament_post_delivered(posts[0].id)
    assert await mgr.record_failed_tournament_post(posts[1].id, "503") == 1
    again = await mgr.pending_tournament_posts()
    assert [p.id for p in again] == [posts[1].id] and again[0].recheck
    assert again[0].announcement_id == 555  # round 1's post takes the Join button off message 555
    with pytest.raises(NotFound):
        await mgr.mark_tournament_post_delivered(10**6)
    await finish_round(mgr, tid, random.Random(1), resign_every=1)
    await mgr.advance()
    final = [p for p in await mgr.pending_tournament_posts() if p.kind == "final"]
    assert final and final[0].standings.finished and final[0].standings.winners
    assert final[0].announcement_id is None  # only the posts ending sign-up edit it
    # a cancellation in sign-up ends it too
    other = await create(mgr, "Other", players=2)
    [opened] = [p for p in await mgr.pending_tournament_posts() if p.tournament.id == other]
    await mgr.mark_tournament_post_delivered(opened.id, message_id=777)
    await mgr.cancel_tournament(other, ORGANISER, guild_id=GUILD, may_organise=True)
    [cancelled] = [p for p in await mgr.pending_tournament_posts() if p.tournament.id == other]
    assert (cancelled.kind, cancelled.announcement_id) == ("cancelled", 777)


async def test_revision_0007_goes_down_and_up_again_with_the_older_rows_intact(db, clock):
    """Alembic 0007 on both backends: down one revision drops the tournament tables and keeps
    the games (ordinary ones, and a tournament's); up again makes them empty and usable."""
    from alembic import command
    from sqlalchemy.exc import DBAPIError

    from bot.store import Store
    from bot.store.migrations import alembic_config, head_revision

    m = await GameManager.open(db("updown.db"), clock=clock)
    try:
        tid = await create(m, players=2)
        started = await m.start_tournament(tid, ORGANISER, guild_id=GUILD, may_organise=True)
        await m.forget_player(PLAYERS[30])
        games = [tuple(r) for r in await m.store.fetchall("SELECT * FROM games ORDER BY id")]
    finally:
        await m.close()
    store = await Store.open(db("updown.db"))
    try:
        await store._alembic(lambda cfg: command.downgrade(cfg, "0006"), alembic_config())
        store.revision = await store.alembic_revision()
        assert store.revision == "0006"
        with pytest.raises(DBAPIError, match="tournaments"):
            await store.fetchall("SELECT * FROM tournaments")
        assert [tuple(r) for r in await store.fetchall("SELECT * FROM games ORDER BY id")] == games
        assert len(await store.fetchall("SELECT * FROM forgotten_players")) == 1
        assert await store.upgrade() == head_revision() >= "0007"
        assert await store.fetchall("SELECT * FROM tournaments") == []
        m = GameManager(store, clock=clock)
        assert await m.game_tournament(started.games[0].id) is None  # an ordinary game now
        assert [tuple(r) for r in await store.fetchall("SELECT * FROM games ORDER BY id")] == games
        assert (await m.get_tournament(await create(m, players=2), guild_id=GUILD)).entrants == 2
    finally:
        await store.close()


async def test_a_standings_post_delivered_late_shows_the_standings_after_its_round(mgr, clock):
    # The standings after round 1 are queued when round 2 starts; Discord is out until the
    # tournament is over (round 2 and 3 played, a player removed meanwhile). The post still
    # shows the table as it stood after round 1: no later result, nobody withdrawn, not final.
    tid = await create(mgr, "Late Swiss", players=6, format="swiss", rounds=3)
    await mgr.start_tournament(tid, ORGANISER, guild_id=GUILD, may_organise=True)
    await finish_round(mgr, tid, random.Random(3))
    after_one = await mgr.tournament_standings(tid, guild_id=GUILD)
    await mgr.advance()
    removed = after_one.rows[0].user_id
    await mgr.remove_entrant(tid, ORGANISER, removed, guild_id=GUILD, may_organise=True)
    for _ in range(2):
        await finish_round(mgr, tid, random.Random(4))
        await mgr.advance()
    assert (await mgr.get_tournament(tid, guild_id=GUILD)).status == "finished"
    posts = {(p.kind, p.round): p for p in await mgr.pending_tournament_posts() if p.tournament.id == tid}
    late = posts[("standings", 1)].standings
    assert late.rows == after_one.rows and sum(r.points for r in late.rows) == 3
    assert not late.finished and not late.winners and late.tournament.current_round == 1
    assert late.tournament.status == "running"
    after_two = posts[("standings", 2)].standings  # the removal (in round 2) shows from round 2 on
    assert {r.user_id for r in after_two.rows if r.withdrawn} == {removed}
    assert sum(r.points for r in after_two.rows) == 6 and not after_two.finished
    final = posts[("final", 3)].standings
    assert final.finished and sum(r.points for r in final.rows) == 9
