"""End to end (issue 9, items 4 and 16-20): challenges from game threads, vacation notes,
who is told when a game ends, duplicate challenges, /move suggestions when waiting, the
server's games, the caller's rank and /help in direct messages -- through the fake Discord."""

import asyncio
import gc
import json

import pytest
from botplay import start_game
from fakediscord.fixtures import *  # noqa: F403
from fakediscord.harness import BotHarness

import engine
from bot import texts
from bot.config import Config
from bot.front.client import StonecastBot


async def test_a_duplicate_challenge_is_refused_pointing_at_the_open_one(fake, harness):
    ex = await fake.slash(fake.alice, "challenge io", {"opponent": fake.bob, "size": 5})
    [first] = ex.posts
    assert first.pings == {fake.bob.id}
    # the same challenge again -- other options too -- pings nobody and changes nothing
    for options in ({"size": 5}, {"size": 7, "days": 2, "rated": False}):
        ex = await fake.slash(fake.alice, "challenge io", {"opponent": fake.bob, **options})
        assert ex.posts == [], "a duplicate must not ping the opponent again"
        assert ex.reply.ephemeral and "already challenged" in ex.reply.content
        assert f"/{fake.general}/{first.id}" in ex.reply.content, "points at the open challenge"
        assert "Cancel" in ex.reply.content
    assert len(await harness.manager.open_challenges(fake.alice.id)) == 1
    # another game, or another opponent, is a new challenge
    ex = await fake.slash(fake.alice, "challenge coil", {"opponent": fake.bob, "size": 5})
    assert len(ex.posts) == 1
    ex = await fake.slash(fake.alice, "challenge io", {"opponent": fake.carol, "size": 5})
    assert len(ex.posts) == 1
    # once the first is answered, the same challenge may be sent again
    decline = next(c for c in first.custom_ids if c.startswith("stonecast:decline:"))
    await fake.click(fake.bob, first, decline)
    ex = await fake.slash(fake.alice, "challenge io", {"opponent": fake.bob, "size": 5})
    assert len(ex.posts) == 1 and ex.posts[0].pings == {fake.bob.id}


async def test_a_duplicate_open_offer_is_refused(fake, harness):
    ex = await fake.slash(fake.alice, "challenge io", {"size": 5})
    assert len(ex.posts) == 1
    ex = await fake.slash(fake.alice, "challenge io", {"size": 5})
    assert ex.posts == [] and "already offered a game of Io to anyone" in ex.reply.content
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)  # not a duplicate
    assert game.status == "active"


async def test_move_suggestions_say_whose_move_it_is(fake, harness):
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)  # alice first
    ex = await fake.autocomplete(fake.alice, "move", {"move": "c"}, focused="move", channel=game.thread_id)
    assert ex.choices and all(c["value"].startswith("c") for c in ex.choices)
    # bob waits: one choice telling him so, not an empty list
    for channel, options in ((game.thread_id, {"move": ""}), (fake.general, {"move": "c", "game": game.id})):
        ex = await fake.autocomplete(fake.bob, "move", options, focused="move", channel=channel)
        [choice] = ex.choices
        assert f"Io #{game.id}" in choice["name"] and "Alice's move" in choice["name"], choice
        assert len(choice["name"]) <= 100
    # submitting it gets the usual refusal, and nothing is played
    ex = await fake.slash(fake.bob, "move", {"move": choice["value"]}, channel=game.thread_id)
    assert ex.reply.ephemeral and "not your turn" in ex.reply.content and ex.posts == []
    assert (await harness.manager.get_game(game.id)).ply == 0
    # a spectator gets no suggestions
    ex = await fake.autocomplete(fake.carol, "move", {"move": ""}, focused="move", channel=game.thread_id)
    assert ex.choices == []


async def test_a_challenge_from_a_games_thread_starts_its_game_in_a_thread_of_its_own(fake, harness):
    first_game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    old_thread = first_game.thread_id
    ex = await fake.slash(fake.alice, "challenge coil", {"opponent": fake.carol, "size": 5, "first": "me"},
                          channel=old_thread)
    [challenge] = ex.posts
    assert challenge.channel_id == fake.general, "posted in the thread's parent channel"
    assert f"<#{fake.general}>" in ex.reply.content
    assert challenge.pings == {fake.carol.id}
    ex = await fake.click(fake.carol, challenge, next(c for c in challenge.custom_ids if "accept" in c))
    [board] = ex.posts
    game = await harness.manager.get_game(int(board.content.split("#", 1)[1].split("*", 1)[0]))
    assert game.thread_id == challenge.id != old_thread and board.channel_id == game.thread_id
    new_thread = next(t for t in fake.threads() if int(t["id"]) == game.thread_id)
    assert int(new_thread["parent_id"]) == fake.general
    assert all(m.content.count("Coil") == 0 for m in fake.channel_messages(old_thread))
    # /games links each game to its own thread, and /move in the new thread plays the new game
    ex = await fake.slash(fake.alice, "games")
    assert f"**Coil #{game.id}** vs <@{fake.carol.id}>" in ex.reply.content
    line = next(x for x in ex.reply.content.splitlines() if f"Coil #{game.id}" in x)
    assert line.endswith(f"<#{game.thread_id}>")
    ex = await fake.slash(fake.alice, "move", {"move": "c3"}, channel=game.thread_id)
    assert [p.channel_id for p in ex.posts] == [game.thread_id]
    assert (await harness.manager.get_game(game.id)).ply == 1
    assert (await harness.manager.get_game(first_game.id)).ply == 0


async def test_vacation_is_bounded_charged_by_the_hour_and_notes_new_deadlines(fake, harness):
    assert fake.command("vacation")["options"][0]["max_value"] == 14  # the yearly allowance
    waiting, _, _ = await start_game(fake, harness, "io", fake.bob, fake.alice)  # bob to move
    other, _, _ = await start_game(fake, harness, "coil", fake.alice, fake.bob)  # alice to move
    ex = await fake.slash(fake.bob, "vacation", {"days": 3})
    assert ex.reply.ephemeral and "14 days" not in ex.reply.content
    assert "11 days of vacation left" in ex.reply.content
    waiting = await harness.manager.get_game(waiting.id)
    # a note with the new deadline in the game whose clock moved, pinging nobody
    [note] = ex.posts
    assert note.channel_id == waiting.thread_id and note.pings == frozenset()
    assert f"<t:{int(waiting.deadline)}:f>" in note.content and "on vacation until" in note.content
    assert fake.channel_messages(other.thread_id)[-1].attachments, "alice's game got no note"
    # ending it at once costs an hour, not a day; the note gives the deadline back
    ex = await fake.slash(fake.bob, "vacation", {"days": 0})
    assert "clocks run again" in ex.reply.content and "by the hour" in ex.reply.content
    assert "13 days and 23 hours of vacation left" in ex.reply.content
    assert (await harness.manager.settings(fake.bob.id)).vacation_left_days > 13.9
    [note] = ex.posts
    waiting = await harness.manager.get_game(waiting.id)
    assert "back from vacation" in note.content and f"<t:{int(waiting.deadline)}:f>" in note.content
    # the last, partly used day can still be asked for
    ex = await fake.slash(fake.bob, "vacation", {"days": 14})
    assert "clocks wait until" in ex.reply.content and "13 days and 23 hours" in ex.reply.content


async def test_a_deadline_note_that_fails_is_queued_and_posted_by_the_outbox(fake, harness):
    """Issue 18: the note of a vacation's new deadline is an outbox announcement: a post that
    fails is not lost -- the reply says it follows, and the delivery pass posts it, once."""
    waiting, _, _ = await start_game(fake, harness, "io", fake.bob, fake.alice)  # bob to move
    fake.fail_posts(waiting.thread_id, 503, times=1)
    ex = await fake.slash(fake.bob, "vacation", {"days": 3})
    assert ex.posts == [] and "it will follow shortly" in ex.reply.content
    assert "could not post" not in ex.reply.content
    harness.bot.board_grace = 0
    await harness.maintenance.sweep_clocks()
    await harness.maintenance.sweep_clocks()  # delivered once: not posted again
    waiting = await harness.manager.get_game(waiting.id)
    notes = [m for m in fake.channel_messages(waiting.thread_id) if "on vacation until" in m.content]
    assert len(notes) == 1 and f"<t:{int(waiting.deadline)}:f>" in notes[0].content
    assert await harness.manager.pending_announcements(board_grace=0) == []


async def test_help_and_rules_work_in_direct_messages(fake, harness):
    ex = await fake.slash(fake.alice, "help", dm=True)
    assert ex.reply.channel_id == fake.dm_channel(fake.alice)
    assert "/challenge" in ex.reply.text and "Something went wrong" not in ex.reply.text
    assert texts.HELP_IN_DM in ex.reply.embeds[0]["description"]
    ex = await fake.slash(fake.alice, "rules", {"game": "io"}, dm=True)
    assert "**Io**" in ex.reply.content and ex.reply.png().size[0] > 100
    # in the server they are there once, beside the server's commands
    names = [c["name"] for c in fake.guild_commands[fake.guild_id] + fake.global_commands]
    assert sorted(names) == sorted(set(names)) and {"help", "rules", "move"} <= set(names)
    # the other commands are not offered in DMs
    for name in ("move", "games", "challenge", "leaderboard"):
        with pytest.raises(AssertionError, match="no /"):
            fake.dm_command(name)


async def test_leaderboard_shows_the_callers_rank_below_the_top_ten(fake, harness):
    store = harness.manager.store
    players = [fake.add_user(f"player{i}") for i in range(12)]
    for i, p in enumerate(players):  # player0 best ... player11 last
        await store.execute("INSERT INTO ratings (guild_id, kind, user_id, rating, games, rd)"
                            " VALUES (?, 'io', ?, ?, 3, 60)",  # established (Glicko-2 RD 60)
                            (fake.guild_id, p.id, 1700.0 - 10 * i))
    ex = await fake.slash(players[11], "leaderboard", {"game": "io"})
    lines = ex.reply.content.splitlines()
    assert lines[1].startswith(f"1. <@{players[0].id}>") and lines[10].startswith(f"10. <@{players[9].id}>")
    assert f"<@{players[10].id}>" not in ex.reply.content
    assert lines[-1] == f"12. <@{players[11].id}> — **1590** (3 rated games) ← you"
    # inside the top ten: no extra line; unrated: said so
    ex = await fake.slash(players[3], "leaderboard", {"game": "io"})
    assert len(ex.reply.content.splitlines()) == 11 and "← you" not in ex.reply.content
    ex = await fake.slash(fake.carol, "leaderboard", {"game": "io"})
    assert "You have no rated Io game here yet." in ex.reply.content


async def test_games_all_lists_the_servers_games_to_watch(fake, harness):
    ex = await fake.slash(fake.carol, "games", {"all": True})
    assert ex.reply.ephemeral and "No games are in progress in this server" in ex.reply.content
    one, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    two, _, _ = await start_game(fake, harness, "coil", fake.bob, fake.alice)
    ex = await fake.slash(fake.carol, "games", {"all": True})  # carol plays in neither
    text = ex.reply.content
    assert text.startswith("2 games in progress in this server")
    for g in (one, two):
        line = next(x for x in text.splitlines() if f"**{texts.game_label(g.kind, g.id)}**" in x)
        assert f"<@{g.players[1]}> vs <@{g.players[2]}>" in line
        assert f"<@{g.to_move_user}>'s move" in line and line.endswith(f"<#{g.thread_id}>")
    assert ex.posts == [] and ex.reply.pings == frozenset()
    # her own /games is unchanged
    ex = await fake.slash(fake.carol, "games")
    assert "You have no games in progress" in ex.reply.content


async def test_games_all_fits_discords_2000_characters(fake, harness):
    start = engine.new_game("io", size=5).to_text()
    for i in range(200):  # far more games than one message holds (issue 18: 200)
        await harness.manager.store.execute(
            "INSERT INTO games (guild_id, channel_id, kind, options, player1_id, player2_id, status,"
            " ply, position_text, rated, created_at, updated_at, days_per_move, deadline, thread_id)"
            " VALUES (?, ?, 'io', ?, ?, ?, 'active', 0, ?, 1, 0, ?, 3, 1900000000, ?)",
            (fake.guild_id, fake.general, json.dumps({"size": 5}), 10**17 + i, 2 * 10**17 + i,
             start, i, 10**18 + i))
    ex = await fake.slash(fake.carol, "games", {"all": True})
    assert len(ex.reply.content) <= 2000 and ex.reply.content.startswith("200 games in progress")
    assert "more, not shown" in ex.reply.content.splitlines()[-1]


async def test_closing_before_ready_leaves_no_task_behind(fake, tmp_path):
    """Stopped in the seconds between connecting and "ready" (a SIGTERM at start), the bot
    leaves no discord.py task to fail later on the closed client (it made
    test_runs_and_stops_cleanly_on_sigterm flaky)."""
    errors = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    try:
        h = BotHarness(fake, tmp_path / "early.db")
        await h.start()  # ready at once (guild_ready_timeout 0.01): restart slower
        await h.stop()
        bot = StonecastBot(Config(token=fake.token, db_path=tmp_path / "early.db", guild_id=fake.guild_id),
                           render_workers=0, guild_ready_timeout=0.5)
        task = asyncio.create_task(bot.start(fake.token))
        for _ in range(200):
            if getattr(bot._connection, "_ready_task", None) is not None:
                break
            await asyncio.sleep(0.01)
        assert not bot.is_ready()
        await bot.close()
        await task
        await asyncio.sleep(0.8)  # past guild_ready_timeout
        gc.collect()
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(None)
    assert errors == []
