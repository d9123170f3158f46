"""End to end: whole games of every kind through the real discord.py client and the fake Discord."""

import random

import pytest
from botplay import SMALL, board_post, play_move
from fakediscord import PNG_SIGNATURE
from fakediscord.fixtures import *  # noqa: F403

import engine

KINDS = ["coil", "io", "braincoral", "branchingcoral", "whirlwind"]


@pytest.mark.parametrize("kind", KINDS)
async def test_whole_game(fake, harness, kind):
    alice, bob = fake.alice, fake.bob
    ex = await fake.slash(alice, f"challenge {kind}", {"opponent": bob, **SMALL[kind], "first": "me"})
    assert ex.callback_type == 5 and ex.reply.ephemeral
    assert "Challenge sent" in ex.reply.content
    [challenge] = ex.posts
    assert challenge.channel_id == fake.general and not challenge.ephemeral
    assert challenge.pings == {bob.id}, "a challenge pings the opponent only"
    assert engine.GAMES[kind].title in challenge.content
    cid = challenge.custom_ids[0].rsplit(":", 1)[1]
    assert challenge.custom_ids == [f"stonecast:accept:{cid}", f"stonecast:decline:{cid}",
                                    f"stonecast:cancel:{cid}"]

    ex = await fake.click(bob, challenge, f"stonecast:accept:{cid}")
    [thread] = fake.threads()
    assert int(thread["id"]) == challenge.id and thread["type"] == 11  # public thread on the challenge
    assert challenge.components == [] and "Accepted" in challenge.content
    first = board_post(ex)
    assert first.channel_id == challenge.id
    assert first.pings == {alice.id}, "alice moves first and only she is pinged"
    assert first.png().size[0] >= 600
    game = await harness.manager.get_game(int(first.attachments[0].filename.split("-")[1]))
    assert game.players == {1: alice.id, 2: bob.id} and game.thread_id == challenge.id

    position = engine.new_game(kind, **SMALL[kind])
    rng = random.Random(7)
    moves = 0
    while position.outcome is None:
        user = fake.users[game.players[position.to_move]]
        other = fake.users[game.players[3 - position.to_move]]
        move = position.random_move(rng)
        position = position.play(move)
        ex = await play_move(fake, user, move.upper(), channel=game.thread_id)
        moves += 1
        assert ex.callback_type == 5
        reply = ex.reply
        assert reply.ephemeral and f"`{move}`" in reply.content, reply.content
        post = board_post(ex)
        assert post.channel_id == game.thread_id and f"played `{move}`" in post.content
        assert post.attachments[0].data.startswith(PNG_SIGNATURE)
        if position.outcome is None:
            assert post.pings == {game.players[position.to_move]}
            assert f"<@{game.players[position.to_move]}>, your move" in post.content
        else:
            assert post.pings == {other.id}, "the final board pings the player who did not just move"
    final = post
    img = final.png()
    assert img.size[0] >= 600
    game = await harness.manager.get_game(game.id)
    assert game.status == "finished" and game.ply == position.ply == moves
    assert game.winner == position.outcome.winner
    expected = "draw" if position.outcome.winner is None else "beats"
    assert expected in final.content
    winner = position.outcome.winner
    if winner is not None:
        assert final.content.index(f"<@{game.players[winner]}>") < final.content.index("beats")
    assert engine.from_text(game.position_text) == position
    # the finished game refuses further moves
    ex = await play_move(fake, alice, "a1", game_id=game.id)
    assert ex.reply.ephemeral and ex.posts == []
    assert "over" in ex.reply.content.lower() or "finished" in ex.reply.content.lower()
