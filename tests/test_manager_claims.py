"""Several processes on one database (issue 14): the computer opponent's work -- the search of
its move in a game, the review of a finished game -- is claimed with a lease (Alembic revision
0003), so one process computes each; and the outbox's lease is renewed by a long delivery pass.

Two managers on one database stand for two processes. On SQLite every manager of a file has
the same ``process_id`` (one process per file: a restarted bot takes over its predecessor's
claims at once), so the tests name them apart to see the claims themselves."""

import asyncio

import pytest
from manager_support import ALICE, CHANNEL, GUILD, FakeClock, start_game

from bot.manager import DAY, DEFAULT_LEASE, GameManager

COMPUTER = 4242


@pytest.fixture
def clock():
    return FakeClock()


async def two_managers(db, clock, n=2, **kw):
    ms = [await GameManager.open(db("claims.db"), clock=clock, **kw) for _ in range(n)]
    for k, m in enumerate(ms):
        m.process_id = f"{m.process_id}/{k}"  # SQLite: name them apart (see the module)
    return ms


async def computer_game(m):
    return (await m.start_computer_game(guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE,
                                        computer_id=COMPUTER, kind="io", options={"size": 5},
                                        first="opponent", level=1)).game


async def test_the_schema_has_the_claims_table(db):
    m = await GameManager.open(db("schema.db"))
    try:
        assert m.store.revision >= "0003"
        assert await m.store.fetchall("SELECT * FROM computer_work") == []
    finally:
        await m.close()


async def test_one_process_claims_the_computers_move_the_other_after_the_lease(db, clock):
    m1, m2 = await two_managers(db, clock)
    try:
        game = await computer_game(m1)
        assert await m1.claim_computer_work(game.id, "move")
        assert await m1.claims_repo.holder(game.id, "move") == (m1.process_id, clock.t + DEFAULT_LEASE)
        assert not await m2.claim_computer_work(game.id, "move")  # m1 searches it
        assert await m1.claim_computer_work(game.id, "move")  # its own claim: taken again
        # m1 dies mid-search: the claim stands until its lease is over, then m2 takes it
        clock.advance(DEFAULT_LEASE - 1)
        assert not await m2.claim_computer_work(game.id, "move")
        clock.advance(1)
        assert await m2.claim_computer_work(game.id, "move")
        assert not await m1.claim_computer_work(game.id, "move")
        assert not await m1.renew_computer_work(game.id, "move")  # m1 lost it
        assert not await m1.release_computer_work(game.id, "move")  # and cannot release it
        assert await m2.claims_repo.holder(game.id, "move") == (m2.process_id, clock.t + DEFAULT_LEASE)
    finally:
        await m1.close()
        await m2.close()


async def test_a_renewed_claim_outlives_its_first_lease_and_a_released_one_is_free(db, clock):
    m1, m2 = await two_managers(db, clock, lease=10)
    try:
        game = await computer_game(m1)
        assert await m1.claim_computer_work(game.id, "move")
        clock.advance(9)
        assert await m1.renew_computer_work(game.id, "move")  # a long search renews it
        clock.advance(9)
        assert not await m2.claim_computer_work(game.id, "move")  # 18 s in, still m1's
        assert await m1.release_computer_work(game.id, "move")  # done: free at once
        assert await m2.claims_repo.holder(game.id, "move") == (None, None)
        assert await m2.claim_computer_work(game.id, "move")
    finally:
        await m1.close()
        await m2.close()


async def test_a_review_is_claimed_apart_from_the_move(db, clock):
    m1, m2 = await two_managers(db, clock)
    try:
        game = await computer_game(m1)
        assert await m1.claim_computer_work(game.id, "move")
        assert await m2.claim_computer_work(game.id, "review")
        assert not await m1.claim_computer_work(game.id, "review")
        with pytest.raises(ValueError):
            await m1.claim_computer_work(game.id, "ponder")
    finally:
        await m1.close()
        await m2.close()


async def test_processes_claiming_at_once_one_gets_each_game(db, clock):
    """Four managers claim the move of eight games at the same moment (on PostgreSQL each
    in its own transaction, ``FOR UPDATE SKIP LOCKED``): every game is claimed by exactly one."""
    ms = await two_managers(db, clock, n=4)
    try:
        games = [await computer_game(ms[0]) for _ in range(8)]
        for game in games:
            got = await asyncio.gather(*(m.claim_computer_work(game.id, "move") for m in ms))
            assert sum(got) == 1, got
            owner = ms[got.index(True)]
            assert (await owner.claims_repo.holder(game.id, "move"))[0] == owner.process_id
    finally:
        for m in ms:
            await m.close()


# ---- the outbox lease, renewed by a long delivery pass -------------------------------------

async def test_renewed_outbox_rows_stay_with_their_process_past_the_first_lease(db, clock):
    m1, m2 = await two_managers(db, clock, lease=30)
    try:
        for i in range(3):
            await start_game(m1, "coil", {"size": 5}, a=10_000 + 2 * i, b=10_001 + 2 * i)
        clock.advance(4 * DAY)
        assert len(await m1.sweep()) == 3
        taken = await m1.pending_announcements()
        assert len(taken) == 3
        await m1.mark_delivered(taken[0].id)
        clock.advance(20)
        assert await m1.renew_announcements([a.id for a in taken]) == 2  # the delivered one is left
        clock.advance(20)  # 40 s after the claim: past its first lease, not the renewed one
        assert await m2.pending_announcements() == []
        clock.advance(10)
        assert [a.id for a in await m2.pending_announcements()] == [a.id for a in taken[1:]]
        assert await m1.renew_announcements([a.id for a in taken]) == 0  # m2 holds them now
    finally:
        await m1.close()
        await m2.close()


def test_a_lease_is_a_positive_number_of_seconds():
    from bot.manager.core import ManagerCore

    class _Store:
        dialect = "sqlite"

    for bad in (0, -1.0, float("nan")):
        with pytest.raises(ValueError):
            ManagerCore(_Store(), lease=bad)


async def test_revision_0003_goes_down_and_up_again_keeping_the_games(db, clock):
    """Alembic 0003 on both backends: down to 0002 drops ``computer_work`` and keeps the games
    (a manager refuses the store there: it works on the head schema only), up again makes it
    empty and the claims work."""
    from alembic import command
    from sqlalchemy.exc import DBAPIError

    from bot.store import SchemaNotAtHead, Store
    from bot.store.migrations import alembic_config, head_revision

    m = await GameManager.open(db("updown.db"), clock=clock)
    try:
        game = await computer_game(m)
        assert await m.claim_computer_work(game.id, "move")
    finally:
        await m.close()
    store = await Store.open(db("updown.db"))
    try:
        await store._alembic(lambda cfg: command.downgrade(cfg, "0002"), alembic_config())
        store.revision = await store.alembic_revision()
        assert store.revision == "0002"
        with pytest.raises(DBAPIError, match="computer_work"):  # the table is gone
            await store.fetchall("SELECT * FROM computer_work")
        assert (await store.fetchone("SELECT ai_seat FROM games WHERE id = ?", (game.id,)))[0] == 1
        with pytest.raises(SchemaNotAtHead) as refused:
            GameManager(store, clock=clock)
        assert (refused.value.revision, refused.value.head) == ("0002", head_revision())
        assert await store.upgrade() == head_revision()
        assert await store.fetchall("SELECT * FROM computer_work") == []
        m = GameManager(store, clock=clock)
        assert await m.claims_repo.holder(game.id, "move") == (None, None)
        assert await m.claim_computer_work(game.id, "move")
        assert (await m.get_game(game.id)).ai_seat == 1
    finally:
        await store.close()
