"""End to end (issue 13): /conditional add, list (with the board at a line's end) and clear;
a line played automatically across several moves, a line dropped by another reply, the
opponent never seeing the lines."""

from pathlib import Path

from botplay import board_post, play_move, start_game
from fakediscord.fixtures import *  # noqa: F403

from bot import texts

SHOTS = Path("/tmp/corr2")


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

    # alice plays a1: bob's b2 is played at once, one board after it, pinging alice
    ex = await play_move(fake, fake.alice, "a1", channel=thread)
    post = board_post(ex)
    assert "move 2" in post.content and "`b2`" in post.content and texts.FROM_CONDITIONAL in post.content
    assert post.pings == {fake.alice.id}
    assert "had prepared a reply: `b2`" in ex.reply.content
    post.png().save(SHOTS / "conditional_board.png")
    g = await harness.manager.get_game(game.id)
    assert g.ply == 2 and g.to_move_user == fake.alice.id

    # ... and again: a2 is answered by b3
    ex = await play_move(fake, fake.alice, "a2", channel=thread)
    assert "`b3`" in board_post(ex).content and texts.FROM_CONDITIONAL in board_post(ex).content
    moves = await harness.manager.moves(game.id)
    assert [m.move for m in moves] == ["a1", "b2", "a2", "b3"]

    # a new line, then alice answers otherwise: the line is dropped, bob moves himself
    await fake.slash(fake.bob, "conditional add", {"line": "c3; d4"}, channel=thread)
    ex = await play_move(fake, fake.alice, "e1", channel=thread)
    post = board_post(ex)
    assert "`e1`" in post.content and texts.FROM_CONDITIONAL not in post.content
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
    assert texts.FROM_CONDITIONAL not in board_post(ex).content
    assert (await harness.manager.get_game(game.id)).to_move_user == fake.bob.id
