"""End to end (issue 13): /conditional add, list (with the board at a line's end) and clear;
a line played automatically across several moves, a line dropped by another reply, the
opponent never seeing the lines."""

from pathlib import Path

from botplay import board_post, play_move, start_game
from fakediscord.fixtures import *  # noqa: F403

SHOTS = Path("/tmp/corr2")


def both_moves(mover, move, answerer, reply) -> str:
    """How a board names a move and the conditional reply played at once after it."""
    return f"<@{mover.id}> played `{move}`; <@{answerer.id}>'s prepared reply `{reply}` was played at once"


async def test_a_line_plays_itself_over_two_moves_then_another_reply_drops_the_rest(fake, harness):
    game, _, _ = await start_game(fake, harness, "coil", fake.alice, fake.bob)  # alice moves first
    thread = game.thread_id
    # autocomplete: legal moves for the step being typed, after the earlier steps
    ex = await fake.autocomplete(fake.bob, "conditional add", {"line": "a1; b"}, focused="line", channel=thread)
    values = [c["value"] for c in ex.choices]
    assert values and all(v.startswith("a1; b") for v in values) and "a1; b2" in values

    ex = await fake.slash(fake.bob, "conditional add", {"line": "a1; b2; a2; b3"}, channel=thread)
    assert ex.reply.ephemeral and ex.posts == [] and "`a1; b2; a2; b3`" in ex.reply.content
    ex = await fake.slash(fake.bob, "conditional add", {"line": "a1; b2; c3; d4"}, channel=thread)
    assert "2 lines" in ex.reply.content
    # a bad line is refused with the step named, and nothing changes
    ex = await fake.slash(fake.bob, "conditional add", {"line": "a1; a1"}, channel=thread)
    assert ex.reply.ephemeral and "step 2" in ex.reply.content
    # alice sees none of bob's lines
    ex = await fake.slash(fake.alice, "conditional list", {}, channel=thread)
    assert "no conditional moves" in ex.reply.content and "b2" not in ex.reply.content
    # bob sees his, and the board at the end of one
    ex = await fake.slash(fake.bob, "conditional list", {}, channel=thread)
    assert "1. `a1; b2; a2; b3`" in ex.reply.content and "2. `a1; b2; c3; d4`" in ex.reply.content
    ex = await fake.slash(fake.bob, "conditional list", {"board": 1}, channel=thread)
    assert ex.reply.ephemeral and ex.posts == [] and "line 1" in ex.reply.content
    SHOTS.mkdir(exist_ok=True)
    ex.reply.png().save(SHOTS / "conditional_line_end.png")

    # alice plays a1: bob's b2 is played at once, one board after it naming both moves with
    # their players (issue 18), pinging only alice
    ex = await play_move(fake, fake.alice, "a1", channel=thread)
    post = board_post(ex)
    assert "moves 1–2" in post.content
    assert both_moves(fake.alice, "a1", fake.bob, "b2") in post.content
    assert post.pings == {fake.alice.id}
    # the mover's own answer speaks to her: her move, bob's prepared reply, her move again
    assert ex.reply.content.startswith("You played `a1`")
    assert f"<@{fake.bob.id}>'s prepared reply `b2` was played at once" in ex.reply.content
    assert "It is your move again." in ex.reply.content and f"<@{fake.alice.id}>" not in ex.reply.content
    post.png().save(SHOTS / "conditional_board.png")
    g = await harness.manager.get_game(game.id)
    assert g.ply == 2 and g.to_move_user == fake.alice.id

    # ... and again: a2 is answered by b3
    ex = await play_move(fake, fake.alice, "a2", channel=thread)
    assert both_moves(fake.alice, "a2", fake.bob, "b3") in board_post(ex).content
    moves = await harness.manager.moves(game.id)
    assert [m.move for m in moves] == ["a1", "b2", "a2", "b3"]

    # a new line, then alice answers otherwise: the line is dropped, bob moves himself
    await fake.slash(fake.bob, "conditional add", {"line": "c3; d4"}, channel=thread)
    ex = await play_move(fake, fake.alice, "e1", channel=thread)
    post = board_post(ex)
    assert "move 5: " in post.content and "`e1`" in post.content and "prepared" not in post.content
    assert "prepared" not in ex.reply.content
    ex = await fake.slash(fake.bob, "conditional list", {}, channel=thread)
    assert "no conditional moves" in ex.reply.content
    # on bob's own move he cannot prepare anything; clear says there was nothing
    ex = await fake.slash(fake.bob, "conditional add", {"line": "c3; d4"}, channel=thread)
    assert "your move" in ex.reply.content
    ex = await fake.slash(fake.bob, "conditional clear", {}, channel=thread)
    assert "no conditional moves" in ex.reply.content


async def test_clear_removes_the_lines(fake, harness):
    game, _, _ = await start_game(fake, harness, "coil", fake.alice, fake.bob)
    await fake.slash(fake.bob, "conditional add", {"line": "a1; b2", "game": game.id})
    ex = await fake.slash(fake.bob, "conditional clear", {"game": game.id})
    assert "Removed your 1 conditional line" in ex.reply.content
    ex = await play_move(fake, fake.alice, "a1", game_id=game.id)
    assert "prepared" not in board_post(ex).content
    assert (await harness.manager.get_game(game.id)).to_move_user == fake.bob.id


# ---- issue 18: every move is in the thread, whichever way it was played -------------------
# Branching Coral on the smallest board: after c3 b3 b1 a1, c2 then d3 ends the game.
CORAL = ["c3", "b3", "b1", "a1"]


async def test_a_confirmed_move_whose_prepared_reply_ends_the_game(fake, harness):
    game, _, _ = await start_game(fake, harness, "branchingcoral", fake.alice, fake.bob)
    thread = game.thread_id
    for i, move in enumerate(CORAL):
        await play_move(fake, (fake.alice, fake.bob)[i % 2], move, channel=thread)
    await fake.slash(fake.bob, "conditional add", {"line": "c2; d3"}, channel=thread)
    await fake.slash(fake.alice, "settings", {"confirm": "on"})
    preview = (await play_move(fake, fake.alice, "c2", channel=thread)).reply
    confirm = next(c for c in preview.custom_ids if c.startswith("stonecast:confirm:"))
    ex = await fake.click(fake.alice, preview, confirm)
    post = board_post(ex)
    assert "moves 5–6" in post.content and both_moves(fake.alice, "c2", fake.bob, "d3") in post.content
    assert "game over" in post.content and post.pings == {fake.alice.id}  # the one who did not end it
    g = await harness.manager.get_game(game.id)
    assert g.status == "finished" and [m.move for m in await harness.manager.moves(game.id)][-2:] == ["c2", "d3"]
    # the Confirm's answer, in place of the preview: second person, then the result
    assert preview.content.startswith("You played `c2`")
    assert f"<@{fake.bob.id}>'s prepared reply `d3` was played at once" in preview.content
    assert "Game over:" in preview.content


async def test_the_outbox_board_and_dm_name_the_move_and_its_prepared_reply(fake, harness):
    await fake.slash(fake.bob, "notify", {"dm": "on"})
    game, _, _ = await start_game(fake, harness, "coil", fake.alice, fake.bob)
    await play_move(fake, fake.alice, "a1", game_id=game.id)
    await fake.slash(fake.alice, "conditional add", {"line": "b2; c3", "game": game.id})
    # bob's move is committed, then the process dies before posting it: the outbox posts it
    await harness.manager.play_move(game.id, fake.bob.id, "b2")
    harness.bot.board_grace = 0
    await harness.maintenance.sweep_clocks()
    [post] = [m for m in fake.channel_messages(game.thread_id) if "moves 2–3" in m.content]
    assert both_moves(fake.bob, "b2", fake.alice, "c3") in post.content
    assert post.pings == {fake.bob.id} and post.attachments
    # bob's your-turn DM, delivered by the outbox too, names both moves as the board does
    dm = fake.channel_messages(fake.dm_channel(fake.bob))[-1]
    assert both_moves(fake.bob, "b2", fake.alice, "c3") in dm.content and "Your move" in dm.content
    assert await harness.manager.pending_announcements(board_grace=0) == []


async def test_a_computer_move_answered_by_a_prepared_reply(fake, harness):
    import asyncio
    from types import SimpleNamespace

    go = asyncio.Event()
    moves = iter(["b2", "d4"])

    async def search(game, level):  # the computer plays b2, then d4, when told to
        await go.wait()
        return SimpleNamespace(move=next(moves))

    harness.bot.computer._search = search
    ex = await fake.slash(fake.alice, "challenge coil", {"opponent": fake.bot_user, "size": 5, "first": "me"})
    gid = int(ex.reply.content.split("#", 1)[1].split(",", 1)[0])
    await play_move(fake, fake.alice, "a1", game_id=gid)
    await fake.slash(fake.alice, "conditional add", {"line": "b2; c3", "game": gid})
    go.set()
    game = await harness.manager.get_game(gid)
    for _ in range(200):
        posts = [m for m in fake.channel_messages(game.thread_id) if "moves 2–3" in m.content]
        if posts:
            break
        await asyncio.sleep(0.05)
    [post] = posts
    computer = fake.bot_user
    assert both_moves(computer, "b2", fake.alice, "c3") in post.content
    assert post.pings == set()  # the computer is to move again: nobody is pinged
