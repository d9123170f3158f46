"""What the bot says, end to end through the fake Discord (issue 9): input a player could
paste (item 14), the first Whirlwind turn (item 6), what a move did (item 11), and one naming
of challenges, games and move counts in everything the bot sends (item 15)."""

import random

import pytest
from botplay import SMALL, board_post, play_move, start_game
from fakediscord.fixtures import *  # noqa: F403


async def test_pasted_and_full_width_moves_play_and_complete(fake, harness):
    alice, bob = fake.alice, fake.bob
    game, _, _ = await start_game(fake, harness, "io", alice, bob)
    ex = await fake.autocomplete(alice, "move", {"move": "ｃ"}, focused="move", channel=game.thread_id)
    assert ex.choices and all(c["value"].startswith("c") for c in ex.choices)
    ex = await fake.autocomplete(alice, "move", {"move": "`c3\u200b"}, focused="move", channel=game.thread_id)
    assert [c["value"] for c in ex.choices] == ["c3"]
    ex = await play_move(fake, alice, "`c3`\u200b.", channel=game.thread_id)
    assert "You played `c3`" in ex.reply.content, ex.reply.content
    post = board_post(ex)
    assert "played `c3`" in post.content
    position = (await harness.manager.get_game(game.id)).position
    bound = next(m for m in position.legal_moves())
    a, b = bound.split()
    full_width = "".join(chr(ord(ch) + 0xFEE0) for ch in f"{a} {b}").replace(chr(0x20 + 0xFEE0), "\u3000")
    ex = await play_move(fake, bob, f"\u00a0{full_width}\ufeff", channel=game.thread_id)
    assert f"You played `{bound}`" in ex.reply.content, ex.reply.content


async def test_whirlwind_first_board_asks_black_for_one_stone(fake, harness):
    game, _, first = await start_game(fake, harness, "whirlwind", fake.alice, fake.bob)
    assert "one or two" not in first.content and "one stone" in first.content, first.content
    move = next(game.position.legal_moves())
    post = board_post(await play_move(fake, fake.alice, move, channel=game.thread_id))
    assert "one or two stones" in post.content, post.content


@pytest.mark.parametrize(("kind", "options", "words"), [
    ("io", SMALL["io"], "turning over"),
    ("branchingcoral", {"shape": "hexhex", "size": 3}, "removing"),
])
async def test_the_post_says_what_a_move_did(fake, harness, kind, options, words):
    game, _, _ = await start_game(fake, harness, kind, fake.alice, fake.bob, options=options)
    position = game.position
    rng = random.Random(5)
    while position.outcome is None:
        user = fake.users[game.players[position.to_move]]
        move = position.random_move(rng)
        position = position.play(move)
        ex = await play_move(fake, user, move, channel=game.thread_id)
        post = board_post(ex)
        marks = position.highlights
        if marks.flipped:
            n = len(marks.flipped)
            assert f"played `{move}`, turning over {n} stone" in post.content, post.content
            assert f"turning over {n} stone" in ex.reply.content
            return
        if marks.removed:
            assert f"played `{move}`, removing " in post.content, post.content
            for cell, colour in marks.removed.items():
                assert cell in post.content and colour.title() in post.content
            return
        assert words not in post.content
    pytest.fail(f"no {kind} move {words} anything")
