"""Game manager: a player's own data (issue 18, /privacy) -- what is stored about them, and
deleting it: names, settings, conditional lines, ratings, challenges and DMs go; finished
games stay and show the player as "deleted player"; refused while they have games running.

Every test runs against each backend (the ``db`` fixture of conftest.py).
"""

from __future__ import annotations

import random

import pytest
from manager_support import ALICE, BOB, CAROL, CHANNEL, GUILD, FakeClock, refused, start_game

from bot import texts
from bot.manager import GameManager, NotAllowed, UserError

KIND, OPTS = "coil", {"size": 5}


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
async def mgr(db, clock):
    m = await GameManager.open(db("stonecast.db"), clock=clock, rng=random.Random(3))
    yield m
    await m.close()


async def _table_rows(m: GameManager, table: str, user_id: int) -> int:
    row = await m.store.fetchone(f"SELECT COUNT(*) FROM {table} WHERE user_id = ?", (user_id,))
    return int(row[0])


async def test_show_lists_what_is_stored_and_delete_removes_it_keeping_the_games(mgr, clock):
    await mgr.remember_names({ALICE: "Ann", BOB: "Ben"})
    await mgr.set_dm_mode(ALICE, "on")
    await mgr.set_dm_mode(BOB, "on")
    game = await start_game(mgr, KIND, OPTS)  # Alice moves first: a DM to her is queued
    await mgr.play_move(game.id, ALICE, "a1")
    await mgr.add_conditional(game.id, ALICE, "b2; c3")
    sent = await mgr.create_challenge(guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE,
                                      opponent_id=CAROL, kind=KIND, options=OPTS, first="challenger")
    received = await mgr.create_challenge(guild_id=GUILD, channel_id=CHANNEL, challenger_id=CAROL,
                                          opponent_id=ALICE, kind="io", options={"size": 5},
                                          first="challenger")
    d = await mgr.stored_data(ALICE)
    assert (d.display_name, d.conditional_games, d.running_games) == ("Ann", (game.id,), (f"Coil #{game.id}",))
    assert d.settings is not None and d.settings.dm
    assert (d.challenges_sent, d.challenges_received, d.dms_queued + d.dms_sent) == (1, 1, 1)
    assert (d.ratings, d.finished_games, d.forgotten_at) == ((), 0, None) and d.stores_anything

    # refused while a game runs, naming it; nothing is deleted
    with refused(NotAllowed, f"Coil #{game.id}"):
        await mgr.forget_player(ALICE)
    assert await mgr.stored_data(ALICE) == d

    await mgr.resign_game(game.id, ALICE, guild_id=game.guild_id)  # rated: both get a rating
    await mgr.conditionals_repo.put(game.id, 1, '{"left": "over"}', 1, clock())  # a leftover line
    clock.advance(60)
    done = await mgr.forget_player(ALICE)
    assert (done.names, done.settings, done.conditionals, done.ratings, done.challenges, done.dms,
            done.finished_games) == (1, 1, 1, 1, 2, 1, 1)
    d = await mgr.stored_data(ALICE)
    assert not d.stores_anything and d.forgotten_at == clock() and d.finished_games == 1
    for table in ("player_names", "user_settings", "ratings"):
        assert await _table_rows(mgr, table, ALICE) == 0
    assert await mgr.challenges_repo.get(sent.id) is None and await mgr.challenges_repo.get(received.id) is None
    with pytest.raises(UserError):
        await mgr.accept_challenge(received.id, ALICE)
    # the game stays, moves and result; Bob keeps everything of his
    g = await mgr.get_game(game.id)
    assert g.status == "finished" and g.winner == 2 and len((await mgr.game_record(BOB, game_id=game.id)).moves) == 1
    b = await mgr.stored_data(BOB)
    assert b.display_name == "Ben" and b.settings.dm and len(b.ratings) == 1 and b.dms_queued + b.dms_sent == 1
    assert await mgr.deleted_players([g]) == {game.id: frozenset({ALICE})}
    labels = await mgr.complete_game(BOB, "", include_finished=True, name_of={ALICE: "Ann"}.get)
    assert labels == [(game.id, f"Coil #{game.id} vs {texts.DELETED_PLAYER} · finished")]


async def test_playing_again_shows_the_name_in_new_games_only(mgr, clock):
    old = await start_game(mgr, KIND, OPTS)
    await mgr.resign_game(old.id, BOB, guild_id=old.guild_id)
    await mgr.forget_player(BOB)
    clock.advance(3600)
    new = await start_game(mgr, KIND, OPTS)  # playing again is Bob's choice
    await mgr.remember_names({BOB: "Ben"})   # the bot notes his name as he plays
    await mgr.resign_game(new.id, BOB, guild_id=new.guild_id)
    old, new = await mgr.get_game(old.id), await mgr.get_game(new.id)
    assert await mgr.deleted_players([old, new]) == {old.id: frozenset({BOB})}
    d = await mgr.stored_data(BOB)
    assert d.display_name == "Ben" and d.forgotten_at is not None and d.finished_games == 2
    # a second deletion covers the new game too
    clock.advance(60)
    await mgr.forget_player(BOB)
    assert set(await mgr.deleted_players([old, new])) == {old.id, new.id}


async def test_games_in_progress_never_show_a_deleted_player(mgr, clock):
    await mgr.forget_player(CAROL)  # nothing stored: nothing to delete, the record is kept
    clock.advance(1)
    game = await start_game(mgr, KIND, OPTS, b=CAROL)
    assert await mgr.deleted_players([game]) == {}
    assert (await mgr.stored_data(CAROL)).running_games == (f"Coil #{game.id}",)


async def test_revision_0006_goes_down_and_up_again(db, clock):
    """Alembic 0006 on both backends: down one revision drops ``forgotten_players`` and keeps
    the games (a manager refuses the store there: it works on the head schema only), up
    again makes it empty: nobody is shown as deleted until a deletion."""
    from alembic import command
    from sqlalchemy.exc import DBAPIError

    from bot.store import SchemaNotAtHead, Store
    from bot.store.migrations import alembic_config, head_revision

    m = await GameManager.open(db("updown.db"), clock=clock)
    try:
        game = await start_game(m, KIND, OPTS)
        await m.resign_game(game.id, ALICE, guild_id=game.guild_id)
        await m.forget_player(ALICE)
        assert await m.deleted_players([await m.get_game(game.id)]) == {game.id: frozenset({ALICE})}
    finally:
        await m.close()
    store = await Store.open(db("updown.db"))
    try:
        await store._alembic(lambda cfg: command.downgrade(cfg, "0005"), alembic_config())
        store.revision = await store.alembic_revision()
        assert store.revision < "0006"
        with pytest.raises(DBAPIError, match="forgotten_players"):  # the table is gone
            await store.fetchall("SELECT * FROM forgotten_players")
        assert (await store.fetchone("SELECT status FROM games WHERE id = ?", (game.id,)))[0] == "finished"
        with pytest.raises(SchemaNotAtHead):
            GameManager(store, clock=clock)
        assert await store.upgrade() == head_revision() >= "0006"
        assert await store.fetchall("SELECT * FROM forgotten_players") == []
        m = GameManager(store, clock=clock)
        assert await m.deleted_players([await m.get_game(game.id)]) == {}
        assert (await m.stored_data(ALICE)).forgotten_at is None
        await m.forget_player(BOB)
        assert await m.deleted_players([await m.get_game(game.id)]) == {game.id: frozenset({BOB})}
    finally:
        await store.close()
