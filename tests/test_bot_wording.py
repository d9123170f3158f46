"""What the bot says, end to end through the fake Discord (issue 9): input a player could
paste (item 14), the first Whirlwind turn (item 6), what a move did (item 11), and one naming
of challenges, games and move counts in everything the bot sends (item 15)."""

import random
import re

import pytest
from botplay import SMALL, board_post, play_move, start_game
from fakediscord.fixtures import *  # noqa: F403

import engine


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


TITLES = "|".join(sorted((k.title for k in engine.GAMES.values()), key=len, reverse=True))
_NUMBER = re.compile(r"(?<![<\w])#(\d+)")  # "#12", not a channel mention "<#12>"
_NAMED = re.compile(rf"(?:{TITLES}) #\d+$")


def naming_faults(text: str) -> list[str]:
    """Ways ``text`` breaks the one naming (issue 9, item 15): a challenge or game named by a
    bare number, a number after "#" that is not a game's title and number, "move 0", a move
    count in another form than "N moves played"."""
    faults = [m.group(0) for m in re.finditer(r"(?i)\b(?:challenge|game)s? #\d+|\bmove 0\b|"
                                              r"\(\d+ moves?\)|\bgame:<id>", text)]
    for m in _NUMBER.finditer(text):
        if not _NAMED.search(text[: m.end()]):
            faults.append(text[max(0, m.start() - 20): m.end()])
    return faults


def test_the_naming_check_catches_the_old_wording():
    for old in ["accept challenge #2.", "Challenge #4 was answered", "There is no game #9: use",
                "**Io #2** · move 0", "The record of **Io #2** (1 move).", "(#3, #5): pass game:<id>"]:
        assert naming_faults(old), old
    assert naming_faults("**Brain Coral #12** in <#123> · 3 moves played, move 3: ok") == []


async def test_one_naming_in_everything_the_bot_says(fake, harness):
    alice, bob, mod = fake.alice, fake.bob, fake.mod
    seen: list[str] = []
    # a challenge declined, then pressed again: named by game and challenger, never by id
    ex = await fake.slash(alice, "challenge io", {"opponent": bob, "size": 5})
    [offer] = ex.posts
    buttons = list(offer.components)
    await fake.click(bob, offer, offer.custom_ids[1])
    offer.components = buttons  # a client that had not refreshed the message yet
    ex = await fake.click(bob, offer, offer.custom_ids[0])
    assert f"<@{alice.id}>'s Io challenge is no longer open" in ex.reply.content, ex.reply.content
    # two games: a new board, lists, suggestions, an ambiguous /move
    game, _, first = await start_game(fake, harness, "io", alice, bob)
    other, _, _ = await start_game(fake, harness, "whirlwind", bob, alice, first="opponent")
    ex = await fake.slash(alice, "board", {"game": game.id})
    assert "no moves yet" in ex.reply.content and "move 0" not in ex.reply.content, ex.reply.content
    ex = await fake.slash(alice, "move", {"move": "c3"})
    assert f"(Io #{game.id}, Whirlwind #{other.id}): choose one with the `game:` option" in ex.reply.content, \
        ex.reply.content
    for user in (alice, bob):
        seen += [c["name"] for c in (await fake.autocomplete(user, "board", {"game": ""}, focused="game")).choices]
    ex = await fake.autocomplete(mod, "abort", {"game": ""}, focused="game")
    names = [c["name"] for c in ex.choices]
    assert names and all(n.endswith("no moves yet") for n in names), names
    seen += names
    # play the Io game to the end, with a look at the lists on the way
    position, rng = game.position, random.Random(3)
    while position.outcome is None:
        user = fake.users[game.players[position.to_move]]
        move = position.random_move(rng)
        position = position.play(move)
        await play_move(fake, user, move, channel=game.thread_id)
        if position.ply == 1:
            ex = await fake.slash(bob, "games")
            assert "1 move played" in ex.reply.content, ex.reply.content
            ex = await fake.autocomplete(mod, "abort", {"game": str(game.id)}, focused="game")
            assert [c["name"] for c in ex.choices][0].endswith("· 1 move played"), ex.choices
            await play_move(fake, user, "a1", channel=game.thread_id)  # not your turn
    await play_move(fake, alice, "a1", game_id=game.id)  # the game is over
    ex = await fake.slash(alice, "history", {"game": game.id})
    record = ex.reply.attachments[0].data.decode()
    assert f"Seat 1: Alice ({alice.id}), White" in record.splitlines(), record
    assert f"({position.ply} moves played)" in ex.reply.content
    # rematch offered twice, and answered by the other player's press
    final = fake.channel_messages(game.thread_id)[-1]
    await fake.click(alice, final, f"stonecast:rematch:{game.id}")
    ex = await fake.click(alice, final, f"stonecast:rematch:{game.id}")
    assert f"already offered a rematch of Io #{game.id}" in ex.reply.content, ex.reply.content
    ex = await fake.click(bob, final, f"stonecast:rematch:{game.id}")
    assert "accept their challenge" in ex.reply.content, ex.reply.content
    # a moderator with an unknown game is not sent to their own games
    ex = await fake.slash(mod, "abort", {"game": 987})
    assert "/games" not in ex.reply.content and "987" in ex.reply.content, ex.reply.content
    await fake.slash(mod, "abort", {"game": other.id})
    ex = await fake.slash(bob, "move", {"move": "c3", "game": other.id})
    assert f"Whirlwind #{other.id} was aborted" in ex.reply.content, ex.reply.content
    await fake.quiet()

    seen += [m.content for m in fake.messages.values()]
    faults = {text: naming_faults(text) for text in seen if naming_faults(text)}
    assert not faults, faults
