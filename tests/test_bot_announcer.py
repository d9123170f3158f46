"""The announcer and the pure presenter (issue 11, item 2): one way a board reaches Discord.

A whole /move through the fake Discord reads the game row and the settings of the player to
move once in the manager (plus the lookup of the game by its thread); ``bot.boards`` presents
values without awaiting anything or reaching into the bot.
"""

import pytest
from botplay import board_post, play_move, start_game
from fakediscord.fixtures import *  # noqa: F403
from manager_support import StatementLog


async def test_a_whole_move_reads_the_game_row_and_the_settings_once(fake, harness):
    await fake.slash(fake.bob, "notify", {"dm": "on"})  # a DM is due too: sent without reading again
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    async with StatementLog(harness.manager) as log:
        ex = await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    assert "`c3`" in ex.reply.content and board_post(ex).pings == {fake.bob.id}
    assert [m for m in ex.posts if not m.guild_id], "the your-turn DM was sent"
    # one read of the game row is the lookup of the game by its thread (resolve_game), the
    # other play_move's own; the settings of the player to move are read once, in the move's
    # transaction (before issue 11: 15 statements, 3 game reads, 4 settings reads)
    assert log.reads("games") == 2, log.statements
    assert log.reads("user_settings") == 1, log.statements
    assert len(log.statements) == 11, log.statements
    assert await harness.manager.pending_announcements(board_grace=0) == []
