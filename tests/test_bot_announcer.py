"""The announcer and the pure presenter (issue 11, item 2): one way a board reaches Discord.

A whole /move through the fake Discord reads the game row and the settings of the player to
move once in the manager (plus the lookup of the game by its thread); ``bot.front.boards`` presents
values without awaiting anything or reaching into the bot.
"""

import dataclasses
import inspect
from pathlib import Path

import pytest
from botplay import board_post, play_move, start_game
from fakediscord.fixtures import *  # noqa: F403
from manager_support import StatementLog

import engine
from bot.front import boards

ROOT = Path(__file__).resolve().parent.parent


async def test_a_whole_move_reads_the_game_row_and_the_settings_once(fake, harness):
    await fake.slash(fake.bob, "notify", {"dm": "on"})  # a DM is due too: sent without reading again
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    if harness.bot._name_flush is not None:  # the players' names, noted at the challenge, are
        await harness.bot._name_flush  # written 0.5 s later: on a loaded machine, not in the move
    async with StatementLog(harness.manager) as log:
        ex = await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    assert "`c3`" in ex.reply.content and board_post(ex).pings == {fake.bob.id}
    assert [m for m in ex.posts if not m.guild_id], "the your-turn DM was sent"
    # one read of the game row is the lookup of the game by its thread (resolve_game), the
    # other play_move's own; the settings of the player to move are read once, in the move's
    # transaction -- both players' in one statement, since the mover's says whether they
    # confirm their moves (issue 13) -- and the opponent's conditional moves once (issue 13)
    # (before issue 11: 15 statements, 3 game reads, 4 settings reads)
    assert log.reads("games") == 2, log.statements
    assert log.reads("user_settings") == 1, log.statements
    assert log.reads("conditionals") == 1, log.statements
    # 10 statements besides BEGIN and COMMIT (12 with them, issue 13; the store's trace shows
    # what goes through a cursor, which COMMIT does not since the SQLAlchemy store, issue 14)
    data = [s for s in log.statements if s.split()[0].upper() not in ("BEGIN", "COMMIT")]
    assert len(data) == 10, "\n".join(data)
    assert await harness.manager.pending_announcements(board_grace=0) == []


async def test_a_board_post_and_its_dm_look_up_the_names_once(fake, harness):
    """The picture and its description come from one look-up of the players' names
    (``Announcer.picture``): the board post and the your-turn DM after it share it (before: one
    to render, one to describe each post, three in all), and a finished game's board reads the
    deleted players once (before: twice)."""
    await fake.slash(fake.bob, "notify", {"dm": "on"})
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    announcer = harness.bot.announcer
    looked_up, names = [], announcer.names

    async def counted(g):
        looked_up.append(g.id)
        return await names(g)

    announcer.names = counted
    ex = await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    [dm] = [m for m in ex.posts if not m.guild_id]
    assert dm.attachments[0].description == board_post(ex).attachments[0].description
    assert looked_up == [game.id]
    end = await harness.manager.resign_game(game.id, fake.bob.id, guild_id=game.guild_id)
    looked_up.clear()
    async with StatementLog(harness.manager) as log:
        file = await announcer.board_file(end.game, end.position)
    assert file.description.startswith("Board of Io") and looked_up == [game.id]
    assert log.reads("forgotten_players") == 1, log.statements


# ---- bot.front.boards: values in, a Post out ---------------------------------------------------
def _game(**changes):
    from bot.manager import Game

    pos = engine.new_game("io", size=5).play("c3")
    fields = dict(id=7, guild_id=1, channel_id=2, thread_id=3, kind="io", options={"size": 5},
                  players={1: 101, 2: 102}, status="active", ply=1, position_text=pos.to_text(),
                  winner=None, reason=None, rated=True, days_per_move=3, created_at=0.0,
                  updated_at=0.0, deadline=1_800_000_000.0, challenge_id=None)
    fields.update(changes)
    return Game(**fields, position=engine.from_text(fields["position_text"]))


def test_boards_is_a_pure_presenter():
    src = Path(boards.__file__).read_text()
    for name, fn in inspect.getmembers(boards, inspect.isfunction):
        if fn.__module__ == boards.__name__:
            assert not inspect.iscoroutinefunction(fn), name
            assert "bot" not in inspect.signature(fn).parameters, name
    for reach in ("await ", "async ", "manager.settings", "rating_changes(", "dm_closed", "display_name",
                  "get_partial_messageable", "fetch_user",
                  "from .client", "from .cogs", "from .announcer", "from bot.front.client",
                  "from bot.front.cogs", "from bot.front.announcer"):
        assert reach not in src, reach


def test_no_circle_between_the_client_the_announcer_and_the_cogs():
    for module in ("bot/front/boards.py", "bot/front/announcer.py", "bot/workers/rendering.py"):
        src = (ROOT / module).read_text()
        assert "from .cogs" not in src and "from bot.front.cogs" not in src and "get_cog(" not in src, module
    assert "from .client" not in (ROOT / "bot/front/boards.py").read_text()
    assert "from bot.front.client" not in (ROOT / "bot/front/boards.py").read_text()


def test_a_move_post_says_whose_move_with_the_vacation_note_and_pings_only_them():
    game = _game()
    post = boards.move_post(game, game.position, 1, b"png", vacation_until=1_800_086_400.0)
    assert post.content.startswith("**Io #7** · move 1: <@101> played `c3`")
    assert "<@102>, your move as Black" in post.content
    assert "<@102> is on vacation until <t:1800086400:f>: their clock waits." in post.content
    assert post.mentions == (102,) and post.view is None
    with pytest.raises(ValueError, match="no description"):  # issue 19: no picture undescribed
        post.send_kwargs()
    kwargs = dataclasses.replace(post, description="the board").send_kwargs("stonecast-9")
    assert kwargs["nonce"] == "stonecast-9" and kwargs["file"].filename == "stonecast-7-1.png"
    assert kwargs["file"].description == "the board"
    assert [u.id for u in kwargs["allowed_mentions"].users] == [102]
    assert kwargs["allowed_mentions"].everyone is False and kwargs["allowed_mentions"].roles is False


async def test_a_final_board_after_the_humans_last_move_never_pings_the_computer():
    # a game against the computer (seat 2): the human's move ends it (e.g. Coil's coil)
    final = _game().position.forfeit(2, engine.Termination.RESIGNATION)
    game = _game(status="finished", winner=1, reason="resignation", deadline=None,
                 position_text=final.to_text(), rated=False, ai_seat=2)
    post = boards.move_post(game, final, 1, b"png")
    assert post.mentions == ()
    # between two people the one who did not make the move is pinged
    post = boards.move_post(_game(status="finished", winner=1, reason="resignation",
                                  deadline=None, position_text=final.to_text()), final, 1, b"png")
    assert post.mentions == (102,)


async def test_a_final_post_carries_the_rating_changes_and_the_rematch_button():  # a View needs a loop
    final = _game().position.forfeit(2, engine.Termination.RESIGNATION)
    game = _game(status="finished", winner=1, reason="resignation", deadline=None,
                 position_text=final.to_text())
    post = boards.final_post(game, final, b"png", headline="<@102> resigned", ping=(101,),
                             rating_changes={101: (1500.0, 1516.0), 102: (1500.0, 1484.0)})
    assert "Ratings: <@101> 1500 → 1516 (+16) · <@102> 1500 → 1484 (−16)" in post.content
    assert post.mentions == (101,) and post.view is not None
    assert boards.vacation_note(102, None) == "" and "vacation" not in post.content
