"""Game manager: one server's games stay in that server (issue 18).

Every game number that comes from Discord is looked up through
:meth:`GameManager.visible_game`: in a server only that server's games, in a DM with the bot
only the caller's own. Everything else -- unknown, impossible, another server's, someone
else's in a DM -- gets the one sentence :func:`bot.texts.no_such_game`, and nothing changes in
the database. The manager's entry points for buttons and /review take the place they are used
in (``guild_id``) and check it there.
"""

from __future__ import annotations

import random
import sqlite3

import pytest
from manager_support import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    FakeClock,
    complete_game,
    complete_server_game,
    start_game,
)

from bot import texts
from bot.manager import GameManager, NotFound

OTHER = GUILD + 1  # another server
KIND, OPTS = "io", {"size": 5}
COMPUTER = 4242


@pytest.fixture
async def mgr(sqlite_db):
    m = await GameManager.open(sqlite_db(), clock=FakeClock(), rng=random.Random(3))
    yield m
    await m.close()


def dump(mgr: GameManager) -> list[str]:
    """Every row of the SQLite file, as SQL (nothing may change after a refusal)."""
    with sqlite3.connect(mgr.store.path) as con:
        return list(con.iterdump())


async def finished_game(mgr: GameManager):
    """A game of ``GUILD`` between Alice and Bob, one move played, then resigned by Bob."""
    g = await start_game(mgr, KIND, OPTS)
    await mgr.play_move(g.id, ALICE, "c3")
    return await mgr.resign(g.id, BOB)


async def test_visible_game_sees_only_this_servers_games_or_in_a_dm_ones_own(mgr):
    g = await start_game(mgr, KIND, OPTS)
    assert (await mgr.visible_game(CAROL, g.id, guild_id=GUILD)).id == g.id  # a spectator here
    assert (await mgr.visible_game(ALICE, g.id, guild_id=None)).id == g.id   # a player in a DM
    refusal = texts.no_such_game(g.id)
    for user, guild in ((ALICE, OTHER), (CAROL, OTHER), (CAROL, None)):
        with pytest.raises(NotFound) as e:
            await mgr.visible_game(user, g.id, guild_id=guild)
        assert texts.refusal_text(e.value) == refusal
    # an unknown number gets the very same sentence: nothing tells the game exists elsewhere
    with pytest.raises(NotFound) as e:
        await mgr.visible_game(ALICE, g.id + 100, guild_id=GUILD)
    assert texts.refusal_text(e.value) == texts.no_such_game(g.id + 100)
    assert texts.refusal_text(e.value).replace(str(g.id + 100), str(g.id)) == refusal


async def test_resolve_game_in_a_dm_refuses_games_the_user_does_not_play(mgr):
    g = await start_game(mgr, KIND, OPTS)
    with pytest.raises(NotFound) as e:
        await mgr.resolve_game(CAROL, game_id=g.id)  # a DM: no server
    assert texts.refusal_text(e.value) == texts.no_such_game(g.id)
    with pytest.raises(NotFound) as e:
        await mgr.game_record(CAROL, game_id=g.id)
    assert texts.refusal_text(e.value) == texts.no_such_game(g.id)
    assert (await mgr.resolve_game(BOB, game_id=g.id)).id == g.id


async def test_unknown_and_foreign_games_get_the_same_sentence_everywhere(mgr):
    g = await start_game(mgr, KIND, OPTS)
    unknown = g.id + 1000
    answers = {}
    for number in (g.id, unknown):
        with pytest.raises(NotFound) as e:
            await mgr.resolve_game(ALICE, game_id=number, guild_id=OTHER)
        answers[number] = texts.refusal_text(e.value)
    assert answers[g.id] == texts.no_such_game(g.id)
    assert answers[unknown] == texts.no_such_game(unknown)
    with pytest.raises(NotFound) as e:
        await mgr.get_game(0)
    assert texts.refusal_text(e.value) == texts.no_such_game(0)


async def test_review_input_refuses_another_servers_game(mgr):
    g = await finished_game(mgr)
    before = dump(mgr)
    for user, guild in ((ALICE, OTHER), (CAROL, OTHER), (CAROL, None)):
        with pytest.raises(NotFound) as e:
            await mgr.review_input(g.id, user_id=user, guild_id=guild)
        assert texts.refusal_text(e.value) == texts.no_such_game(g.id)
    assert dump(mgr) == before
    assert (await mgr.review_input(g.id, user_id=CAROL, guild_id=GUILD)).game.id == g.id
    assert (await mgr.review_input(g.id, user_id=BOB, guild_id=None)).moves == ("c3",)
    assert await mgr.cached_review(g.id) is None


async def test_resign_game_refuses_another_servers_game_even_for_its_player(mgr):
    g = await start_game(mgr, KIND, OPTS)
    before = dump(mgr)
    with pytest.raises(NotFound) as e:
        await mgr.resign_game(g.id, ALICE, guild_id=OTHER)
    assert texts.refusal_text(e.value) == texts.no_such_game(g.id)
    assert dump(mgr) == before and (await mgr.get_game(g.id)).status == "active"
    end = await mgr.resign_game(g.id, ALICE, guild_id=None)  # in a DM: her own game
    assert end.game.status == "finished"


async def test_rematch_refuses_another_servers_game(mgr):
    g = await finished_game(mgr)
    before = dump(mgr)
    for user, guild in ((ALICE, OTHER), (CAROL, None)):
        with pytest.raises(NotFound) as e:
            await mgr.offer_rematch(g.id, user, COMPUTER, guild_id=guild)
        assert texts.refusal_text(e.value) == texts.no_such_game(g.id)
    assert dump(mgr) == before
    c = await mgr.offer_rematch(g.id, BOB, COMPUTER, guild_id=GUILD)
    assert c.guild_id == GUILD and c.opponent_id == ALICE


async def test_play_refuses_another_servers_game_also_for_a_confirmed_move(mgr):
    g = await start_game(mgr, KIND, OPTS)
    before = dump(mgr)
    for kw in ({}, {"expected_ply": 0}):
        with pytest.raises(NotFound) as e:
            await mgr.play(ALICE, "c3", game_id=g.id, guild_id=OTHER, **kw)
        assert texts.refusal_text(e.value) == texts.no_such_game(g.id)
    assert dump(mgr) == before
    res = await mgr.play(ALICE, "c3", game_id=g.id, guild_id=GUILD, expected_ply=0)
    assert res.game.ply == 1


async def test_suggestions_never_name_another_servers_game(mgr):
    g = await start_game(mgr, KIND, OPTS)
    for user in (ALICE, BOB):
        assert await complete_game(mgr, user, str(g.id), guild_id=OTHER, include_finished=True) == []
    assert await mgr.complete_move(ALICE, "", game_id=g.id, guild_id=OTHER) == []
    assert await mgr.complete_move(CAROL, "", game_id=g.id) == []  # a DM, not her game
    assert await mgr.waiting_game(BOB, game_id=g.id, guild_id=OTHER) is None
    assert await mgr.complete_conditional(BOB, "", game_id=g.id, guild_id=OTHER) == []
    assert await complete_server_game(mgr, OTHER, "") == []
    assert [gid for gid, _ in await complete_server_game(mgr, GUILD, "")] == [g.id]


async def test_visible_challenge_sees_only_this_servers_challenges(mgr):
    open_one = await mgr.create_challenge(guild_id=GUILD, channel_id=1, challenger_id=ALICE,
                                          opponent_id=None, kind=KIND, options=OPTS)
    to_bob = await mgr.create_challenge(guild_id=GUILD, channel_id=1, challenger_id=ALICE,
                                        opponent_id=BOB, kind="coil", options={"size": 5})
    for c in (open_one, to_bob):
        assert (await mgr.visible_challenge(CAROL, c.id, guild_id=GUILD)).id == c.id
        assert (await mgr.visible_challenge(ALICE, c.id, guild_id=None)).id == c.id
        for user, guild in ((BOB, OTHER), (CAROL, OTHER), (CAROL, None)):
            with pytest.raises(NotFound) as e:
                await mgr.visible_challenge(user, c.id, guild_id=guild)
            assert texts.refusal_text(e.value) == texts.NO_SUCH_CHALLENGE
    assert (await mgr.visible_challenge(BOB, to_bob.id, guild_id=None)).id == to_bob.id
    with pytest.raises(NotFound) as e:
        await mgr.get_challenge(to_bob.id + 100)
    assert texts.refusal_text(e.value) == texts.NO_SUCH_CHALLENGE


async def test_a_channel_named_from_elsewhere_shows_none_of_its_games(mgr):
    g = await start_game(mgr, KIND, OPTS)
    await mgr.set_game_thread(g.id, 4242)
    assert (await mgr.resolve_game(CAROL, channel_id=4242, guild_id=GUILD)).id == g.id  # a spectator
    with pytest.raises(NotFound):
        await mgr.resolve_game(CAROL, channel_id=4242, guild_id=OTHER)
    assert await mgr.complete_move(ALICE, "", channel_id=4242, guild_id=OTHER) == []
    assert await mgr.waiting_game(BOB, channel_id=4242, guild_id=OTHER) is None
