"""The manager's side of games against the computer (issue 12): started at once and unrated,
no clock on the computer's turns, its moves version-checked, the record by level."""

import pytest
from manager_support import ALICE, CHANNEL, GUILD, FakeClock, refused

from bot.manager import DAY, GameManager, NotAllowed, StaleAction, UserError

COMPUTER = 4242


@pytest.fixture
async def mgr(db):
    m = await GameManager.open(db("m.db"), clock=FakeClock())
    try:
        yield m
    finally:
        await m.close()


async def start(mgr, first="opponent", level=2, **kw):
    return await mgr.start_computer_game(guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE,
                                         computer_id=COMPUTER, kind="io", options={"size": 5},
                                         first=first, level=level, **kw)


async def test_the_computer_never_loses_on_time(mgr):
    game = (await start(mgr)).game
    assert not game.rated and game.ai_seat == 1 and game.deadline is None
    assert [g.id for g in await mgr.computer_turns()] == [game.id]
    mgr.clock.advance(60 * DAY)
    assert await mgr.sweep() == []
    assert (await mgr.get_game(game.id)).status == "active"
    # once it has moved, the human's clock runs as in any game
    move = next(iter(game.position.legal_moves()))
    result = await mgr.computer_move(game.id, move, game.ply)
    assert result.game.deadline == pytest.approx(mgr.clock() + 3 * DAY)
    assert await mgr.computer_turns() == []


async def test_a_computer_move_from_an_older_position_is_dropped(mgr):
    game = (await start(mgr)).game
    move = next(iter(game.position.legal_moves()))
    await mgr.computer_move(game.id, move, 0)
    with pytest.raises(UserError):  # the same search's answer again: played once only
        await mgr.computer_move(game.id, move, 0)
    assert len(await mgr.moves(game.id)) == 1


async def test_bad_computer_games_are_refused_and_change_nothing(mgr):
    with refused(UserError, "level"):
        await start(mgr, level=6)
    with pytest.raises(NotAllowed):
        await mgr.start_computer_game(guild_id=GUILD, channel_id=CHANNEL, challenger_id=COMPUTER,
                                      computer_id=COMPUTER, kind="io")
    assert await mgr.computer_turns() == []


async def test_record_against_each_level_and_rematch_at_once(mgr):
    game = (await start(mgr, first="challenger", level=4)).game
    ended = await mgr.resign(game.id, ALICE)
    assert ended.status == "finished"
    [record] = (await mgr.profile(GUILD, ALICE)).computer
    assert (record.level, record.wins, record.losses, record.draws) == (4, 0, 1, 0)
    assert not record.as_computer
    # the computer's own profile: its results as the computer, not its opponents' (issue 19)
    [own] = (await mgr.profile(GUILD, COMPUTER)).computer
    assert (own.level, own.wins, own.losses, own.draws, own.as_computer) == (4, 1, 0, 0, True)
    again = await mgr.offer_rematch(game.id, ALICE, COMPUTER, guild_id=GUILD)
    assert again.game.status == "active" and again.game.ai_level == 4 and again.game.ai_seat == 1
    with pytest.raises(StaleAction):
        await mgr.offer_rematch(game.id, ALICE, COMPUTER, guild_id=GUILD)
