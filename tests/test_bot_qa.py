"""End to end: rough edges found by playing the bot as players and moderators would
(exploratory QA), each checked here so it stays fixed."""

import asyncio
import re

from botplay import board_post, play_move, start_game
from fakediscord.fixtures import *  # noqa: F403

from bot import texts

INTERNALS = re.compile(r"seat \d|\(\d+-\d+\)|None|\{|\}|'")


async def test_acting_in_a_finished_game_names_the_result_in_words(fake, harness):
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    ex = await fake.slash(fake.alice, "resign", {"game": game.id})
    await fake.click(fake.alice, ex.reply, ex.reply.custom_ids[0])
    for ex in (await play_move(fake, fake.bob, "b2 d5", game_id=game.id),
               await fake.slash(fake.alice, "resign", {}, channel=game.thread_id)):
        text = ex.reply.content
        assert ex.reply.ephemeral and ex.posts == []
        assert f"Io #{game.id} is over" in text, text
        assert f"<@{fake.bob.id}> beats <@{fake.alice.id}> by resignation" in text, text
        assert "/board" in text and not INTERNALS.search(text), text
    ex = await fake.slash(fake.mod, "abort", {"game": game.id})
    assert "is over" in ex.reply.content and not INTERNALS.search(ex.reply.content)


async def test_counts_read_as_english_and_an_empty_game_has_no_replay(fake, harness):
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    ex = await fake.slash(fake.bob, "games")
    assert "1 move played" in ex.reply.content, ex.reply.content
    ex = await fake.slash(fake.bob, "history", {"game": game.id})
    assert "(1 move played)" in ex.reply.content, ex.reply.content
    other, _, _ = await start_game(fake, harness, "coil", fake.alice, fake.bob)
    await fake.slash(fake.mod, "abort", {"game": other.id})
    ex = await fake.slash(fake.alice, "history", {"game": other.id})
    assert "(no moves yet)" in ex.reply.content and "no replay" in ex.reply.content
    assert [a.filename for a in ex.reply.attachments] == [f"stonecast-{other.id}.txt"]


async def test_pressing_accept_twice_points_to_the_game_and_keeps_its_link(fake, harness):
    ex = await fake.slash(fake.alice, "challenge coil", {"opponent": fake.bob, "size": 5})
    [msg] = ex.posts
    ids = list(msg.custom_ids)
    first, second = await asyncio.gather(fake.click(fake.bob, msg, ids[0]), fake.click(fake.bob, msg, ids[0]))
    assert len(fake.threads()) == 1 and len(await harness.manager.active_games(fake.bob.id)) == 1
    thread = int(fake.threads()[0]["id"])
    refusal = next(m for m in first.messages + second.messages if m.ephemeral)
    assert "You already accepted" in refusal.content and "Coil #1" in refusal.content, refusal.content
    assert f"<#{thread}>" in msg.content and msg.components == []
    # a client still showing the old buttons presses Accept: the message keeps the game's link
    msg.components = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Accept",
                                                  "custom_id": ids[0]}]}]
    ex = await fake.click(fake.carol, msg, ids[0])
    assert ex.reply.ephemeral and "You already accepted" not in ex.reply.content
    assert f"Accepted by <@{fake.bob.id}>" in msg.content and f"<#{thread}>" in msg.content, msg.content


async def test_coil_pass_is_suggested_while_it_is_legal(fake, harness):
    game, _, _ = await start_game(fake, harness, "coil", fake.alice, fake.bob)
    ex = await fake.autocomplete(fake.alice, "move", {"move": ""}, focused="move", channel=game.thread_id)
    values = [c["value"] for c in ex.choices]
    assert values[0] == "pass" and len(values) == 25 and len(set(values)) == 25
    await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    ex = await play_move(fake, fake.bob, "pass", channel=game.thread_id)  # Phase II: no more passing
    board = board_post(ex)
    assert f"<@{fake.bob.id}> played `pass` and takes Black; <@{fake.alice.id}> plays White" in board.content
    assert board.pings == {fake.alice.id} and "You play Black from now on" in ex.reply.content
    for typed in ("", "p"):
        ex = await fake.autocomplete(fake.alice, "move", {"move": typed}, focused="move",
                                     channel=game.thread_id)
        assert "pass" not in [c["value"] for c in ex.choices]
    assert ex.choices == []


async def test_another_servers_game_is_out_of_reach(fake, harness):
    mgr = harness.manager
    c = await mgr.create_challenge(guild_id=fake.guild_id + 1, channel_id=1, challenger_id=fake.alice.id,
                                   opponent_id=fake.bob.id, kind="io", options={"size": 5}, first="challenger")
    elsewhere = await mgr.accept_challenge(c.id, fake.bob.id)
    ex = await fake.autocomplete(fake.alice, "move", {"move": "", "game": elsewhere.id}, focused="move")
    assert ex.choices == []
    ex = await fake.autocomplete(fake.alice, "move", {"move": "", "game": ""}, focused="game")
    assert ex.choices == []
    for command in ("move", "board", "history"):
        options = {"game": elsewhere.id} | ({"move": "c3"} if command == "move" else {})
        ex = await fake.slash(fake.alice, command, options)
        assert ex.reply.ephemeral and f"No game is numbered {elsewhere.id} in this server" in ex.reply.content
    assert (await mgr.get_game(elsewhere.id)).ply == 0


async def test_game_suggestions_name_the_opponent(fake, harness):
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    other, _, _ = await start_game(fake, harness, "coil", fake.carol, fake.bob)
    ex = await fake.autocomplete(fake.bob, "board", {"game": ""}, focused="game")
    assert [(c["name"], c["value"]) for c in ex.choices] == [
        (f"Io #{game.id} vs Alice · their turn", game.id), (f"Coil #{other.id} vs Carol · their turn", other.id)]
    ex = await fake.autocomplete(fake.bob, "move", {"move": "", "game": "car"}, focused="game")
    assert [c["value"] for c in ex.choices] == [other.id]
    ex = await fake.autocomplete(fake.mod, "board", {"game": ""}, focused="game")
    assert ex.choices == []


async def test_impossible_game_numbers_get_the_usual_answer(fake, harness):
    for number in (0, -1, 2**70):
        ex = await fake.slash(fake.alice, "board", {"game": number})
        assert ex.reply.ephemeral
        assert ex.reply.content == texts.no_such_game(number), ex.reply.content


async def test_vacation_answers_say_what_is_possible(fake, sqlite_db):
    from botplay import Clock
    from fakediscord.harness import BotHarness

    clock = Clock()
    harness = BotHarness(fake, sqlite_db("vacation.db"), clock=clock)
    await harness.start()
    try:
        ex = await fake.slash(fake.alice, "vacation", {"days": 0})
        assert "not on vacation" in ex.reply.content and "/vacation" in ex.reply.content
        await fake.slash(fake.alice, "vacation", {"days": 2})
        clock.t += 3 * 3600  # back after three hours: the unused hours are given back
        ex = await fake.slash(fake.alice, "vacation", {"days": 0})
        assert "Welcome back" in ex.reply.content, ex.reply.content
        assert "13 days and 21 hours of vacation left" in ex.reply.content, ex.reply.content
        await fake.slash(fake.alice, "vacation", {"days": 13})
        clock.t += 13 * 86400
        ex = await fake.slash(fake.alice, "vacation", {"days": 2})
        assert "21 hours of vacation left" in ex.reply.content and "ask for 1 or fewer" in ex.reply.content
        await fake.slash(fake.alice, "vacation", {"days": 1})  # the last 21 hours
        ex = await fake.slash(fake.alice, "vacation", {"days": 1})
        assert "used your 14 vacation days" in ex.reply.content and "1 January" in ex.reply.content
    finally:
        await harness.stop()


async def test_challenging_someone_outside_the_server_is_explained(fake, harness):
    stranger = fake.add_user("wanderer", in_guild=False)
    ex = await fake.slash(fake.alice, "challenge io", {"opponent": stranger})
    assert ex.reply.ephemeral and ex.posts == []
    assert "not a member of this server" in ex.reply.content, ex.reply.content
    assert await harness.manager.open_challenges(fake.alice.id) == []


async def test_a_lapsed_challenge_loses_its_buttons_when_pressed_before_the_sweep(fake, sqlite_db):
    from botplay import Clock
    from fakediscord.harness import BotHarness

    clock = Clock()
    harness = BotHarness(fake, sqlite_db("lapsed.db"), clock=clock)
    await harness.start()
    try:
        ex = await fake.slash(fake.alice, "challenge io", {"opponent": fake.bob})
        [msg] = ex.posts
        clock.t += 24 * 3600 + 1
        ex = await fake.click(fake.bob, msg, msg.custom_ids[0])
        assert ex.reply.ephemeral and "expired" in ex.reply.content
        assert msg.components == [] and "lapsed" in msg.content
        assert await harness.manager.active_games(fake.bob.id) == []
    finally:
        await harness.stop()


async def test_many_games_are_listed_in_whole_lines(fake, harness):
    mgr = harness.manager
    for i in range(20):
        c = await mgr.create_challenge(guild_id=fake.guild_id, channel_id=fake.general,
                                       challenger_id=(fake.bob if i % 2 else fake.carol).id,
                                       opponent_id=fake.alice.id, kind="branchingcoral", first="opponent")
        g = await mgr.accept_challenge(c.id, fake.alice.id)
        await mgr.set_game_thread(g.id, 10**18 + i)
    ex = await fake.slash(fake.alice, "games")
    text = ex.reply.content
    lines = text.split("\n")
    games = [line for line in lines if line.startswith("• ")]
    assert len(text) <= 2000 and all(line.endswith(">") for line in games), lines[-2:]
    [more] = [line for line in lines if line.startswith("… and")]
    assert int(more.split()[2]) + len(games) == 20, more
    ex = await fake.slash(fake.alice, "profile")
    assert "Branching Coral #10 " in ex.reply.content and ", and 10 more." in ex.reply.content


async def test_a_game_challenged_from_inside_a_thread_gets_a_thread_of_its_own(fake, harness):
    # issue 9, item 4 (until then such a game was played inside the other game's thread)
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    inner, challenge, board = await start_game(fake, harness, "coil", fake.alice, fake.carol,
                                               first="opponent", channel=game.thread_id)
    assert challenge.channel_id == fake.general
    assert inner.thread_id == challenge.id and board.channel_id == inner.thread_id
    assert board.pings == {fake.carol.id}
    # in the first game's thread carol has nothing to play; in her own she has
    ex = await fake.autocomplete(fake.carol, "move", {"move": "c"}, focused="move", channel=game.thread_id)
    assert ex.choices == []
    ex = await play_move(fake, fake.carol, "c3", channel=inner.thread_id)
    assert f"Coil #{inner.id}" in board_post(ex).content and board_post(ex).channel_id == inner.thread_id
    # in the first game's thread, /move means that game
    ex = await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    assert f"Io #{game.id}" in board_post(ex).content
    ex = await play_move(fake, fake.mod, "c3", channel=game.thread_id)
    assert f"You are not playing in Io #{game.id}" in ex.reply.content
