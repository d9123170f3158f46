"""End to end (issue 5): clocks, reminders, timeouts across restarts, DMs, vacations, ratings,
rematch, open challenges, records and moderation -- through the fake Discord."""

import io
import logging

import discord
import pytest
from botplay import Clock, board_post, play_move, start_game, wait_for
from fakediscord.fixtures import fake  # noqa: F401
from fakediscord.harness import BotHarness
from PIL import Image

import engine
from bot.rules.records import parse_record

DAY = 86400.0



@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def harness(fake, sqlite_db, clock):  # noqa: F811
    h = BotHarness(fake, sqlite_db("corr.db"), clock=clock)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()
    assert not fake.unknown_routes


def posts_with(fake_discord, channel_id, text):
    return [m for m in fake_discord.channel_messages(channel_id) if text in m.content]


async def test_timeout_settled_after_restart_exactly_once(fake, harness, clock):  # noqa: F811
    game, _, first = await start_game(fake, harness, "io", fake.alice, fake.bob,
                                      options={"size": 5, "days": 1})
    assert game.days_per_move == 1 and game.deadline == pytest.approx(clock.t + DAY)
    assert f"<t:{int(game.deadline)}:R>" in first.content  # the deadline is shown
    await harness.stop()
    clock.t += 2 * DAY  # the bot was away past alice's deadline
    await harness.start()  # settles it on start
    await wait_for(lambda: posts_with(fake, game.thread_id, "ran out of time"))
    await fake.quiet(0.1)
    [final] = posts_with(fake, game.thread_id, "ran out of time")
    assert final.pings == {fake.alice.id, fake.bob.id}  # winner and loser on time (issue 9, 17)
    assert f"<@{fake.bob.id}> (Black) beats <@{fake.alice.id}> (White) on time" in final.content
    # Glicko-2 from 1500 / 350 each (the steps worked out in glicko_by_hand): 1662 and 1338
    assert "Ratings:" in final.content and "(+162)" in final.content and "(−162)" in final.content
    assert final.custom_ids == [f"stonecast:rematch:{game.id}"]
    g = await harness.manager.get_game(game.id)
    assert (g.status, g.reason, g.winner) == ("finished", "timeout", 2)
    await harness.restart()
    await harness.maintenance.sweep_clocks()
    await fake.quiet(0.1)
    assert len(posts_with(fake, game.thread_id, "ran out of time")) == 1
    ex = await fake.slash(fake.bob, "leaderboard", {"game": "io"})
    lines = ex.reply.content.splitlines()
    assert f"1. <@{fake.bob.id}> — **1662?** (1 rated game)" in lines
    assert f"2. <@{fake.alice.id}> — **1338?** (1 rated game)" in lines


async def test_reminder_sent_once(fake, harness, clock):  # noqa: F811
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob, options={"size": 5, "days": 2})
    await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    game = await harness.manager.get_game(game.id)
    # two days a move: the reminder comes when a quarter of that (12 hours) is left
    clock.t = game.deadline - 13 * 3600
    assert await harness.maintenance.sweep_clocks() == []
    clock.t = game.deadline - 11 * 3600
    [event] = await harness.maintenance.sweep_clocks()
    assert event.kind == "reminder" and event.user_id == fake.bob.id
    assert await harness.maintenance.sweep_clocks() == []
    await fake.quiet()
    [reminder] = posts_with(fake, game.thread_id, "reminder")
    assert reminder.pings == {fake.bob.id} and f"<t:{int(game.deadline)}:R>" in reminder.content


async def test_dm_notifications_and_closed_dms(fake, harness):  # noqa: F811
    ex = await fake.slash(fake.alice, "notify", {"dm": "on"})
    assert ex.reply.ephemeral and "direct message" in ex.reply.content
    await fake.slash(fake.carol, "notify", {"dm": "on"})
    # carol (DMs closed) moves first: the DM fails quietly, the thread mention remains
    game, _, first = await start_game(fake, harness, "io", fake.alice, fake.carol, first="opponent")
    assert first.pings == {fake.carol.id}
    assert [e[1:] for e in fake.errors] == [(403, 50007)]
    ex = await play_move(fake, fake.carol, "c3", channel=game.thread_id)
    # alice gets her DM, with a link to the thread
    [dm] = fake.channel_messages(fake.dm_channel(fake.alice))
    assert f"Io #{game.id}" in dm.content and str(game.thread_id) in dm.content
    assert dm in ex.messages
    # carol's next turn: no second attempt (no retry storm)
    position = engine.replay("io", {"size": 5}, ["c3"])
    move = next(iter(position.legal_moves()))
    await play_move(fake, fake.alice, move, channel=game.thread_id)
    assert [e[1:] for e in fake.errors] == [(403, 50007)]
    ex = await fake.slash(fake.alice, "notify", {"dm": "off"})
    assert "No more direct messages" in ex.reply.content


async def test_vacation_is_shown_to_opponents(fake, harness, clock):  # noqa: F811
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    ex = await fake.slash(fake.bob, "vacation", {"days": 3})
    assert ex.reply.ephemeral and "11 days of vacation left" in ex.reply.content
    ex = await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    post = board_post(ex)
    assert "on vacation until" in post.content and post.pings == {fake.bob.id}
    ex = await fake.slash(fake.alice, "games")
    assert "(on vacation)" in ex.reply.content
    ex = await fake.slash(fake.bob, "vacation", {"days": 0})
    assert "clocks run again" in ex.reply.content


async def test_win_ratings_rematch_profile_and_history(fake, harness):  # noqa: F811
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    ex = await fake.slash(fake.bob, "resign", {"game": game.id})
    ex = await fake.click(fake.bob, ex.reply, ex.reply.custom_ids[0])
    final = board_post(ex)
    assert f"<@{fake.alice.id}> 1500 → 1662 (+162)" in final.content  # Glicko-2, see glicko_by_hand
    assert f"<@{fake.bob.id}> 1500 → 1338 (−162)" in final.content
    # rematch: bob asks, the challenge goes to alice in the game's channel, seats swapped
    ex = await fake.click(fake.carol, final, f"stonecast:rematch:{game.id}")
    assert ex.reply.ephemeral and ex.posts == [] and "only the two players" in ex.reply.content.lower()
    ex = await fake.click(fake.bob, final, f"stonecast:rematch:{game.id}")
    assert ex.reply.ephemeral and "Rematch offered" in ex.reply.content
    [challenge] = ex.posts
    assert challenge.channel_id == fake.general and challenge.pings == {fake.alice.id}
    assert f"<@{fake.bob.id}> moves first" in challenge.content
    ex = await fake.click(fake.alice, challenge, challenge.custom_ids[0])
    rematch = await harness.manager.get_game(game.id + 1)
    assert rematch.players == {1: fake.bob.id, 2: fake.alice.id}
    assert board_post(ex).pings == {fake.bob.id}
    ex = await fake.slash(fake.carol, "profile", {"member": fake.alice})
    assert "rating **1662? ± 290**" in ex.reply.content and "1 won, 0 lost, 0 drawn" in ex.reply.content
    assert f"Io #{rematch.id}" in ex.reply.content
    # the record: a text file that replays in the engine, and a GIF for the finished game
    ex = await fake.slash(fake.alice, "history", {"game": game.id})
    record, gif = ex.reply.attachments
    assert record.filename.endswith(".txt") and gif.filename.endswith(".gif")
    kind, options, moves = parse_record(record.data.decode())
    assert (kind, moves) == ("io", ["c3"]) and engine.replay(kind, options, moves).ply == 1
    img = Image.open(io.BytesIO(gif.data))
    assert img.format == "GIF" and img.n_frames >= 2
    ex = await fake.slash(fake.alice, "history", {"game": rematch.id})
    assert len(ex.reply.attachments) == 1  # no replay while the game runs


async def test_open_challenge(fake, harness):  # noqa: F811
    ex = await fake.slash(fake.alice, "challenge coil", {"size": 5})
    [offer] = ex.posts
    assert offer.pings == frozenset() and "anyone" in offer.content
    assert [c.split(":")[1] for c in offer.custom_ids] == ["accept", "cancel"]
    ex = await fake.click(fake.alice, offer, offer.custom_ids[0])
    assert ex.reply.ephemeral and "your own challenge" in ex.reply.content and ex.posts == []
    ex = await fake.click(fake.carol, offer, offer.custom_ids[0])
    board = board_post(ex)
    game = (await harness.manager.active_games(fake.carol.id))[0]
    assert set(game.players.values()) == {fake.alice.id, fake.carol.id}
    assert f"Accepted by <@{fake.carol.id}>" in offer.content and offer.components == []
    assert board.channel_id == offer.id


async def test_abort_needs_manage_server(fake, harness):  # noqa: F811
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    ex = await fake.slash(fake.alice, "abort", {"game": game.id})
    assert ex.reply.ephemeral and "Manage Server" in ex.reply.content and ex.posts == []
    assert (await harness.manager.get_game(game.id)).status == "active"
    ex = await fake.slash(fake.mod, "abort", {"game": game.id})
    assert ex.reply.ephemeral and "aborted" in ex.reply.content
    [note] = ex.posts
    assert note.channel_id == game.thread_id and note.pings == {fake.alice.id, fake.bob.id}  # both told (issue 9, 17)
    assert (await harness.manager.get_game(game.id)).status == "aborted"
    ex = await play_move(fake, fake.alice, "c3", game_id=game.id)
    assert ex.reply.ephemeral and "aborted" in ex.reply.content.lower()
    ex = await fake.slash(fake.alice, "leaderboard", {"game": "io"})
    assert "Nobody has finished a rated game" in ex.reply.content


async def test_abort_suggests_the_servers_games_to_moderators_only(fake, harness):  # noqa: F811
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    ex = await fake.autocomplete(fake.mod, "abort", {"game": ""}, focused="game")
    assert [c["value"] for c in ex.choices] == [game.id]
    assert ex.choices[0]["name"].startswith(f"Io #{game.id}")
    ex = await fake.autocomplete(fake.mod, "abort", {"game": "999"}, focused="game")
    assert ex.choices == []
    ex = await fake.autocomplete(fake.carol, "abort", {"game": ""}, focused="game")
    assert ex.choices == [], "members without Manage Server are offered nothing"


# ---- the announcement outbox: failed posts and crashes before the post --------------------
def thread_errors(fake_discord, thread_id):
    return [e[1:] for e in fake_discord.errors if e[0] == f"POST /api/v10/channels/{thread_id}/messages"]


async def test_failed_timeout_post_is_delivered_by_the_next_sweep(fake, harness, clock):  # noqa: F811
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob, options={"size": 5, "days": 1})
    clock.t = game.deadline + 1
    fake.fail_posts(game.thread_id, 503)  # Discord has a bad moment
    [event] = await harness.maintenance.sweep_clocks()
    assert (event.kind, event.user_id) == ("timeout", fake.alice.id)
    assert thread_errors(fake, game.thread_id) == [(503, 0)]
    assert posts_with(fake, game.thread_id, "ran out of time") == []
    [pending] = await harness.manager.pending_announcements()
    assert (pending.kind, pending.attempts) == ("timeout", 1)
    # the next sweep settles nothing new but posts what is still owed
    assert await harness.maintenance.sweep_clocks() == []
    [final] = posts_with(fake, game.thread_id, "ran out of time")
    assert final.pings == {fake.alice.id, fake.bob.id} and final.custom_ids == [f"stonecast:rematch:{game.id}"]
    assert await harness.manager.pending_announcements() == []
    await harness.maintenance.sweep_clocks()
    assert len(posts_with(fake, game.thread_id, "ran out of time")) == 1


async def test_undelivered_timeout_is_announced_once_after_restart(fake, harness, clock):  # noqa: F811
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob, options={"size": 5, "days": 1})
    clock.t = game.deadline + 1
    # The sweep commits the timeout, then the process dies before posting it.
    [event] = await harness.manager.sweep()
    assert event.kind == "timeout"
    await harness.stop()
    assert posts_with(fake, game.thread_id, "ran out of time") == []
    await harness.start()  # delivers the outbox on start
    await wait_for(lambda: posts_with(fake, game.thread_id, "ran out of time"))
    await fake.quiet(0.1)
    [final] = posts_with(fake, game.thread_id, "ran out of time")
    assert final.pings == {fake.alice.id, fake.bob.id}
    assert f"<@{fake.bob.id}> (Black) beats <@{fake.alice.id}> (White) on time" in final.content
    await harness.restart()
    assert await harness.maintenance.sweep_clocks() == []
    await fake.quiet(0.1)
    assert len(posts_with(fake, game.thread_id, "ran out of time")) == 1
    assert await harness.manager.pending_announcements() == []


async def test_announcement_to_a_deleted_thread_is_given_up(fake, harness, clock, caplog):  # noqa: F811
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob, options={"size": 5, "days": 1})
    fake.delete_channel(game.thread_id)
    clock.t = game.deadline - 3600
    with caplog.at_level(logging.WARNING, logger="stonecast.bot"):
        [event] = await harness.maintenance.sweep_clocks()
    assert event.kind == "reminder"
    assert thread_errors(fake, game.thread_id) == [(404, 10003)]
    assert any("giving up the reminder" in r.getMessage() for r in caplog.records)
    assert await harness.manager.pending_announcements() == []
    await harness.maintenance.sweep_clocks()  # not tried again
    assert thread_errors(fake, game.thread_id) == [(404, 10003)]


async def test_announcement_failing_again_and_again_is_given_up(fake, harness, clock, caplog):  # noqa: F811
    from bot.front.cogs.maintenance import MAX_ANNOUNCE_ATTEMPTS

    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob, options={"size": 5, "days": 1})
    fake.fail_posts(game.thread_id, 503, times=MAX_ANNOUNCE_ATTEMPTS + 1)
    clock.t = game.deadline - 3600
    with caplog.at_level(logging.WARNING, logger="stonecast.bot"):
        for attempt in range(1, MAX_ANNOUNCE_ATTEMPTS):
            await harness.maintenance.sweep_clocks()
            [pending] = await harness.manager.pending_announcements()
            assert pending.attempts == attempt
        assert not any("giving up" in r.getMessage() for r in caplog.records)
        await harness.maintenance.sweep_clocks()
    assert await harness.manager.pending_announcements() == []
    assert any(f"after {MAX_ANNOUNCE_ATTEMPTS} failed posts" in r.getMessage() for r in caplog.records)
    await harness.maintenance.sweep_clocks()
    assert thread_errors(fake, game.thread_id) == [(503, 0)] * MAX_ANNOUNCE_ATTEMPTS
    assert posts_with(fake, game.thread_id, "reminder") == []


async def test_a_rate_limited_announcement_is_retried_and_never_given_up(fake, harness, clock):  # noqa: F811
    """A 429 that outlasts discord.py's retries (the bot long at Discord's global limit) is
    the bot's own load, not a broken post: the reminder stays in the outbox, uncounted, past
    MAX_ANNOUNCE_ATTEMPTS passes, and is posted once Discord lets it through."""
    from bot.front.cogs.maintenance import MAX_ANNOUNCE_ATTEMPTS

    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob, options={"size": 5, "days": 1})
    # a 429 without the headers discord.py waits on: it raises at once, as after its retries
    fake.fail_posts(game.thread_id, 429, 0, "You are being rate limited.", times=MAX_ANNOUNCE_ATTEMPTS + 1)
    clock.t = game.deadline - 3600
    for _ in range(MAX_ANNOUNCE_ATTEMPTS + 1):
        await harness.maintenance.sweep_clocks()
        [pending] = await harness.manager.pending_announcements()
        assert pending.kind == "reminder" and pending.attempts == 0
    assert thread_errors(fake, game.thread_id) == [(429, 0)] * (MAX_ANNOUNCE_ATTEMPTS + 1)
    await harness.maintenance.sweep_clocks()
    assert len(posts_with(fake, game.thread_id, "reminder")) == 1
    assert await harness.manager.pending_announcements() == []


# ---- boards in the outbox: a /move whose board post fails, a crash before the post ----------
def boards_in(fake_discord, thread_id, text):
    return [m for m in posts_with(fake_discord, thread_id, text)
            if m.attachments and m.attachments[0].filename.endswith(".png")]


async def test_failed_board_post_after_a_move_follows_with_the_next_sweep(fake, harness):  # noqa: F811
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    fake.fail_posts(game.thread_id, 503, times=1)
    ex = await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    assert thread_errors(fake, game.thread_id) == [(503, 0)]
    assert ex.posts == [] and ex.reply.ephemeral
    assert "You played `c3`" in ex.reply.content and "it is saved and will follow" in ex.reply.content
    assert (await harness.manager.get_game(game.id)).ply == 1  # the move stands
    headline = f"move 1: <@{fake.alice.id}> played `c3`"
    await harness.maintenance.sweep_clocks()  # within the grace period: the handler's to post
    assert boards_in(fake, game.thread_id, headline) == []
    harness.bot.board_grace = 0
    assert await harness.maintenance.sweep_clocks() == []
    [board] = boards_in(fake, game.thread_id, headline)
    assert board.pings == {fake.bob.id} and f"<@{fake.bob.id}>, your move" in board.content
    await harness.maintenance.sweep_clocks()
    assert len(boards_in(fake, game.thread_id, headline)) == 1
    assert await harness.manager.pending_announcements(board_grace=0) == []
    # play goes on, and a board posted by the handler is not posted again
    ex = await play_move(fake, fake.bob, next(iter((await harness.manager.get_game(game.id)).position.legal_moves())),
                         channel=game.thread_id)
    assert board_post(ex).pings == {fake.alice.id}
    await harness.maintenance.sweep_clocks()
    assert len(boards_in(fake, game.thread_id, "move 2:")) == 1


async def test_board_of_a_move_is_posted_once_after_a_restart(fake, harness, clock):  # noqa: F811
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    # The move commits, then the process dies before the /move handler posts the board.
    await harness.manager.play_move(game.id, fake.alice.id, "c3")
    await harness.stop()
    clock.t += 61  # past the grace period by the time the new process looks
    await harness.start()  # delivers the outbox on start
    headline = f"move 1: <@{fake.alice.id}> played `c3`"
    await wait_for(lambda: boards_in(fake, game.thread_id, headline))
    await fake.quiet(0.1)
    [board] = boards_in(fake, game.thread_id, headline)
    assert board.pings == {fake.bob.id}
    await harness.restart()
    await harness.maintenance.sweep_clocks()
    await fake.quiet(0.1)
    assert len(boards_in(fake, game.thread_id, headline)) == 1
    assert await harness.manager.pending_announcements(board_grace=0) == []


async def test_a_superseded_board_is_not_posted(fake, harness):  # noqa: F811
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    # two moves whose boards were never posted (say, both handlers died)
    first = await harness.manager.play_move(game.id, fake.alice.id, "c3")
    reply = next(iter(first.position.legal_moves()))
    await harness.manager.play_move(game.id, fake.bob.id, reply)
    harness.bot.board_grace = 0
    await harness.maintenance.sweep_clocks()
    assert boards_in(fake, game.thread_id, "move 1:") == []
    [board] = boards_in(fake, game.thread_id, f"move 2: <@{fake.bob.id}> played `{reply}`")
    assert board.pings == {fake.alice.id}
    assert await harness.manager.pending_announcements(board_grace=0) == []


# ---- the first board in the outbox: Accept whose board post fails, a crash before the post ---
async def challenge_bob(fake, channel=None):  # noqa: F811
    ex = await fake.slash(fake.alice, "challenge io", {"opponent": fake.bob, "size": 5, "first": "me"},
                          channel=channel)
    [challenge_msg] = ex.posts
    accept = next(c for c in challenge_msg.custom_ids if c.startswith("stonecast:accept:"))
    return challenge_msg, accept, int(accept.rsplit(":", 1)[1])


async def test_failed_first_board_after_accept_follows_with_the_next_sweep(fake, harness):  # noqa: F811
    challenge_msg, accept, challenge_id = await challenge_bob(fake)
    fake.fail_posts(challenge_msg.id, 503, times=1)  # the game's thread is made on this message
    ex = await fake.click(fake.bob, challenge_msg, accept)
    game = await harness.manager.get_game((await harness.manager.get_challenge(challenge_id)).game_id)
    assert game.thread_id == challenge_msg.id and [t["id"] for t in fake.threads()] == [str(game.thread_id)]
    assert thread_errors(fake, game.thread_id) == [(503, 0)]
    assert ex.posts == []
    [edited] = [m for m in ex.edited if m.id == challenge_msg.id]
    assert f"**Io #{game.id}** is on in <#{game.thread_id}>" in edited.content
    assert "I could not post the board in the game's thread just now" in edited.content
    assert "it is saved and will follow" in edited.content and edited.custom_ids == []
    headline = f"<@{fake.alice.id}> (White) vs <@{fake.bob.id}> (Black) — the game begins."
    await harness.maintenance.sweep_clocks()  # within the grace period: the handler's to post
    assert boards_in(fake, game.thread_id, "the game begins") == []
    harness.bot.board_grace = 0
    assert await harness.maintenance.sweep_clocks() == []
    [board] = boards_in(fake, game.thread_id, "the game begins")
    assert headline in board.content
    assert board.pings == {fake.alice.id} and f"<@{fake.alice.id}>, your move" in board.content
    await harness.maintenance.sweep_clocks()
    assert len(boards_in(fake, game.thread_id, "the game begins")) == 1
    assert await harness.manager.pending_announcements(board_grace=0) == []
    # play goes on in the thread
    ex = await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    assert board_post(ex).pings == {fake.bob.id}


async def test_first_board_is_marked_when_posted_in_the_channel_without_threads(fake, harness):  # noqa: F811
    challenge_msg, accept, challenge_id = await challenge_bob(fake, channel=fake.nothreads)
    ex = await fake.click(fake.bob, challenge_msg, accept)
    [board] = ex.posts
    game = await harness.manager.get_game((await harness.manager.get_challenge(challenge_id)).game_id)
    assert fake.threads() == [] and game.thread_id is None
    assert board.channel_id == fake.nothreads and "the game begins" in board.content
    assert board.pings == {fake.alice.id}
    assert await harness.manager.pending_board(game.id, 0) is None  # the handler marked it
    harness.bot.board_grace = 0
    await harness.maintenance.sweep_clocks()
    assert len(boards_in(fake, fake.nothreads, "the game begins")) == 1


async def test_first_board_goes_to_the_games_thread_after_a_crash_on_accept(fake, harness, clock):  # noqa: F811
    challenge_msg, _, challenge_id = await challenge_bob(fake)
    # The game commits, then the process dies before the Accept handler opens a thread or posts.
    game = await harness.manager.accept_challenge(challenge_id, fake.bob.id)
    assert game.thread_wanted and game.thread_id is None
    await harness.stop()
    clock.t += 61  # past the grace period by the time the new process looks
    await harness.start()  # delivers the outbox on start: makes the thread, posts the board there
    await wait_for(lambda: boards_in(fake, challenge_msg.id, "the game begins"))
    await fake.quiet(0.1)
    game = await harness.manager.get_game(game.id)
    assert game.thread_id == challenge_msg.id and not game.thread_wanted
    assert [t["id"] for t in fake.threads()] == [str(challenge_msg.id)]
    [board] = boards_in(fake, game.thread_id, "the game begins")
    assert f"Io #{game.id}" in board.content and board.pings == {fake.alice.id}
    assert boards_in(fake, fake.general, "the game begins") == []  # not in the challenge's channel
    # the challenge message no longer offers Accept: it says where the game is
    assert f"**Io #{game.id}** is on in <#{game.thread_id}>" in challenge_msg.content
    assert challenge_msg.custom_ids == []
    await harness.restart()
    await harness.maintenance.sweep_clocks()
    await fake.quiet(0.1)
    assert len(boards_in(fake, game.thread_id, "the game begins")) == 1
    assert await harness.manager.pending_announcements(board_grace=0) == []
    ex = await play_move(fake, fake.alice, "c3", channel=game.thread_id)  # play goes on there
    assert board_post(ex).channel_id == game.thread_id


async def test_thread_made_before_a_crash_on_accept_is_found_again(fake, harness, clock):  # noqa: F811
    challenge_msg, _, challenge_id = await challenge_bob(fake)
    game = await harness.manager.accept_challenge(challenge_id, fake.bob.id)
    # the handler made the thread, then the process died before recording it
    await harness.bot.http.start_thread_with_message(fake.general, challenge_msg.id, name="Io",
                                                     auto_archive_duration=10080, rate_limit_per_user=None)
    await harness.stop()
    clock.t += 61
    await harness.start()
    await wait_for(lambda: boards_in(fake, challenge_msg.id, "the game begins"))
    await fake.quiet(0.1)
    assert (await harness.manager.get_game(game.id)).thread_id == challenge_msg.id
    assert [t["id"] for t in fake.threads()] == [str(challenge_msg.id)]  # no second thread
    assert [e[1:] for e in fake.errors] == [(400, 160004)]  # Discord said it was there already
    assert len(boards_in(fake, challenge_msg.id, "the game begins")) == 1


async def test_first_board_stays_in_a_channel_without_threads_after_a_crash_on_accept(fake, harness, clock):  # noqa: F811
    _, _, challenge_id = await challenge_bob(fake, channel=fake.nothreads)
    game = await harness.manager.accept_challenge(challenge_id, fake.bob.id)
    await harness.stop()
    clock.t += 61
    await harness.start()
    await wait_for(lambda: boards_in(fake, fake.nothreads, "the game begins"))
    await fake.quiet(0.1)
    game = await harness.manager.get_game(game.id)
    assert game.thread_id is None and not game.thread_wanted and fake.threads() == []
    await harness.maintenance.sweep_clocks()
    assert len(boards_in(fake, fake.nothreads, "the game begins")) == 1


# ---- your-turn DMs in the outbox (issue 9, item 2); what they carry (item 20) ---------------
def dms_to(fake_discord, user):
    channel = fake_discord.dm_channel(user)
    return [] if channel is None else fake_discord.channel_messages(channel)


async def test_turn_dm_carries_the_board_and_the_opponents_move(fake, harness):  # noqa: F811
    await fake.slash(fake.alice, "notify", {"dm": "on"})
    game, _, first = await start_game(fake, harness, "io", fake.alice, fake.bob)
    [dm] = dms_to(fake, fake.alice)  # alice moves first: told at once, with the first board
    assert "the game begins" in dm.content and dm.png() is not None
    ex = await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    move = next(iter(engine.replay("io", {"size": 5}, ["c3"]).legal_moves()))
    ex = await play_move(fake, fake.bob, move, channel=game.thread_id)
    board = next(m for m in ex.posts if m.channel_id == game.thread_id)
    [_, dm] = dms_to(fake, fake.alice)
    assert dm in ex.messages and dm.pings == frozenset()
    assert f"**Io #{game.id}** · move 2: <@{fake.bob.id}> played `{move}`" in dm.content
    assert f"https://discord.com/channels/{fake.guild_id}/{game.thread_id}" in dm.content
    assert "Your move as White" in dm.content and "It is due <t:" in dm.content
    # the very image of the thread's post
    assert dm.attachments[0].data == board.attachments[0].data
    assert dm.attachments[0].filename == board.attachments[0].filename
    assert await harness.manager.pending_announcements(board_grace=0) == []


async def test_turn_dm_due_at_a_crash_is_sent_once_after_the_restart(fake, harness, clock):  # noqa: F811
    await fake.slash(fake.bob, "notify", {"dm": "on"})
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    assert dms_to(fake, fake.bob) == []  # alice's turn first
    # alice's move commits (with bob's DM queued), then the process dies before any post
    result = await harness.manager.play_move(game.id, fake.alice.id, "c3")
    assert result.dm_id is not None
    await harness.stop()
    clock.t += 61
    await harness.start()
    await wait_for(lambda: dms_to(fake, fake.bob))
    await fake.quiet(0.1)
    [dm] = dms_to(fake, fake.bob)
    assert f"move 1: <@{fake.alice.id}> played `c3`" in dm.content and dm.png() is not None
    [board] = boards_in(fake, game.thread_id, "move 1:")  # the board came first, in the thread
    assert dm.attachments[0].data == board.attachments[0].data
    await harness.restart()
    await harness.maintenance.sweep_clocks()
    await fake.quiet(0.1)
    assert len(dms_to(fake, fake.bob)) == 1
    assert await harness.manager.pending_announcements(board_grace=0) == []


async def test_closed_dm_is_given_up_at_once_by_the_delivery_pass(fake, harness):  # noqa: F811
    await fake.slash(fake.carol, "notify", {"dm": "on"})
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.carol)
    await harness.manager.play_move(game.id, fake.alice.id, "c3")  # the handler never ran
    harness.bot.board_grace = 0
    await harness.maintenance.sweep_clocks()
    assert [e[1:] for e in fake.errors] == [(403, 50007)]  # one try
    assert await harness.manager.pending_announcements(board_grace=0) == []
    [row] = await harness.manager.store.fetchall("SELECT * FROM announcements WHERE kind = 'dm'")
    assert row["attempts"] == 0 and row["last_error"].startswith("refused")
    await harness.maintenance.sweep_clocks()
    assert len(fake.errors) == 1 and dms_to(fake, fake.carol) == []


async def test_turn_dm_is_dropped_when_the_turn_passed_or_dms_were_turned_off(fake, harness):  # noqa: F811
    await fake.slash(fake.alice, "notify", {"dm": "on"})
    await fake.slash(fake.bob, "notify", {"dm": "on"})
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    first = await harness.manager.play_move(game.id, fake.alice.id, "c3")  # handlers never ran
    await harness.manager.play_move(game.id, fake.bob.id, next(iter(first.position.legal_moves())))
    await fake.slash(fake.alice, "notify", {"dm": "off"})
    before = len(dms_to(fake, fake.alice))
    harness.bot.board_grace = 0
    await harness.maintenance.sweep_clocks()
    assert dms_to(fake, fake.bob) == [] and len(dms_to(fake, fake.alice)) == before
    errors = {r["last_error"] for r in await harness.manager.store.fetchall(
        "SELECT last_error FROM announcements WHERE kind = 'dm' AND ply > 0")}
    assert errors == {"skipped: the turn ended first", "skipped: DMs turned off"}


# ---- a post retried after a crash is not duplicated (nonce with enforce_nonce) ------------
async def test_post_retried_after_a_crash_is_not_duplicated(fake, harness, clock, monkeypatch):  # noqa: F811
    await fake.slash(fake.bob, "notify", {"dm": "on"})
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    # The board and the DM are posted, then the process dies before marking them delivered.
    async def crash(*args, **kwargs):
        raise RuntimeError("the process died here")
    monkeypatch.setattr(harness.manager, "mark_delivered", crash)
    ex = await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    [board, dm] = ex.posts
    assert board.channel_id == game.thread_id and dm.channel_id == fake.dm_channel(fake.bob)
    assert board.nonce and dm.nonce and board.nonce != dm.nonce
    await harness.stop()
    clock.t += 61
    await harness.start()  # the delivery pass posts both again, with the same nonces
    await wait_for(lambda: fake.nonce_hits == 2)
    await fake.quiet(0.1)
    assert len(boards_in(fake, game.thread_id, "move 1:")) == 1
    assert len(dms_to(fake, fake.bob)) == 1
    assert await harness.manager.pending_announcements(board_grace=0) == []


async def test_the_fake_discord_enforces_nonces_like_discord(fake, harness):  # noqa: F811
    channel = harness.bot.get_partial_messageable(fake.general, guild_id=fake.guild_id)
    first = await channel.send("one", nonce="stonecast-1")
    again = await channel.send("two", nonce="stonecast-1")
    assert again.id == first.id and [m.content for m in fake.channel_messages(fake.general)] == ["one"]
    fake.nonce_window = 0.0  # "a few minutes" later the nonce is free again
    later = await channel.send("three", nonce="stonecast-1")
    assert later.id != first.id and len(fake.channel_messages(fake.general)) == 2


async def test_the_fake_discord_lists_a_channels_messages_like_discord(fake, harness):  # noqa: F811
    channel = harness.bot.get_partial_messageable(fake.general, guild_id=fake.guild_id)
    sent = [await channel.send(f"m{i}", nonce=f"stonecast-{i}") for i in range(5)]
    newest = [m async for m in channel.history(limit=3)]
    assert [m.content for m in newest] == ["m4", "m3", "m2"]
    assert all(m.nonce is None for m in newest)  # Discord does not return it when fetched
    assert [m.content async for m in channel.history(limit=10, before=sent[2])] == ["m1", "m0"]
    assert [m.content async for m in channel.history(limit=2, after=sent[1])] == ["m2", "m3"]
    with pytest.raises(discord.NotFound):
        await harness.bot.get_partial_messageable(1, guild_id=fake.guild_id).history(limit=1).__anext__()


# ---- issue 18: exactly once after any outage, longer than the nonce window too --------------
async def test_a_board_posted_before_a_crash_is_not_posted_again_after_a_long_outage(
        fake, harness, clock, monkeypatch):  # noqa: F811
    from bot.manager import BOARD_GRACE, NONCE_WINDOW

    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    waiting, _, _ = await start_game(fake, harness, "io", fake.bob, fake.carol)  # bob to move
    # The board and a vacation's deadline note are posted, then the process dies before
    # marking them delivered; it stays down longer than Discord keeps a nonce.
    async def crash(*args, **kwargs):
        raise RuntimeError("the process died here")
    monkeypatch.setattr(harness.manager, "mark_delivered", crash)
    await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    await fake.slash(fake.bob, "vacation", {"days": 2})
    await harness.stop()
    clock.t += NONCE_WINDOW + BOARD_GRACE
    fake.nonce_window = 0.0  # Discord no longer answers the nonce with the first message
    await harness.start()
    await harness.maintenance.sweep_clocks()
    await fake.quiet(0.1)
    assert len(boards_in(fake, game.thread_id, "move 1:")) == 1
    assert len(posts_with(fake, waiting.thread_id, "on vacation until")) == 1
    assert fake.nonce_hits == 0 and await harness.manager.pending_announcements(board_grace=0) == []


async def test_a_board_whose_answer_was_lost_is_posted_once(fake, harness, clock):  # noqa: F811
    """Posts fail for longer than the nonce window, and Discord made the first one anyway
    (its answer was lost): when delivery resumes, the board is in the thread once."""
    from bot.manager import NONCE_WINDOW


    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    first = await harness.manager.play_move(game.id, fake.alice.id, "c3")  # the handler never ran
    harness.bot.board_grace = 0
    fake.nonce_window = 0.0
    fake.lose_post_responses(game.thread_id)  # made, answered 503
    await harness.maintenance.sweep_clocks()
    clock.t += NONCE_WINDOW
    await harness.maintenance.sweep_clocks()
    await harness.maintenance.sweep_clocks()
    assert len(boards_in(fake, game.thread_id, "move 1:")) == 1
    assert await harness.manager.pending_announcements(board_grace=0) == []
    # a board never made is posted (once) when delivery resumes
    await harness.manager.play_move(game.id, fake.bob.id, next(iter(first.position.legal_moves())))
    fake.fail_posts(game.thread_id, 503, times=2)
    for _ in range(3):
        clock.t += NONCE_WINDOW
        await harness.maintenance.sweep_clocks()
    assert len(boards_in(fake, game.thread_id, "move 2:")) == 1


async def test_a_board_claimed_by_a_process_that_died_after_posting_is_not_posted_again(
        fake, harness, clock):  # noqa: F811
    from bot.manager import OUTBOX_LEASE

    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    await harness.manager.play_move(game.id, fake.alice.id, "c3")  # the handler never ran
    # a delivery pass claims the board and posts it, and its process dies before the mark
    [board] = await harness.manager.pending_announcements(board_grace=0)
    await harness.bot.announcer.post_announcement(board)
    assert len(boards_in(fake, game.thread_id, "move 1:")) == 1
    fake.nonce_window = 0.0
    clock.t += OUTBOX_LEASE
    harness.bot.board_grace = 0
    await harness.maintenance.sweep_clocks()  # the claim lapsed: another pass takes the row
    assert len(boards_in(fake, game.thread_id, "move 1:")) == 1 and fake.nonce_hits == 0
    assert await harness.manager.pending_announcements(board_grace=0) == []


async def test_a_message_recorded_for_one_announcement_is_not_taken_for_another(fake, harness, clock):  # noqa: F811
    """Two announcements that read alike (two reminders of one turn, queued by hand): the
    post of the first, recorded with it, is not taken for the second's when the outbox looks
    before posting it."""
    from bot.manager import NONCE_WINDOW

    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    async with harness.manager.store.transaction():
        ids = [await harness.manager.outbox_repo.add(game.id, "reminder", fake.alice.id, 0, clock.t)
               for _ in range(2)]
    clock.t += NONCE_WINDOW  # both are looked for first
    await harness.maintenance.sweep_clocks()
    reminders = posts_with(fake, game.thread_id, "reminder: your move")
    assert len(reminders) == 2 and reminders[0].content == reminders[1].content
    rows = await harness.manager.store.fetchall(
        "SELECT message_id FROM announcements WHERE id IN (?, ?) ORDER BY id", tuple(ids))
    assert [r["message_id"] for r in rows] == [m.id for m in reminders]


async def test_turn_dm_waits_for_its_board_when_the_board_fails(fake, harness):  # noqa: F811
    await fake.slash(fake.bob, "notify", {"dm": "on"})
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    await harness.manager.play_move(game.id, fake.alice.id, "c3")  # the handler never ran
    harness.bot.board_grace = 0
    fake.fail_posts(game.thread_id, 503, times=1)
    await harness.maintenance.sweep_clocks()
    assert dms_to(fake, fake.bob) == [] and boards_in(fake, game.thread_id, "move 1:") == []
    [board, dm] = await harness.manager.pending_announcements(board_grace=0)
    assert (board.kind, board.attempts, dm.kind, dm.attempts) == ("move", 1, "dm", 0)
    await harness.maintenance.sweep_clocks()  # the board, then its DM
    [board] = boards_in(fake, game.thread_id, "move 1:")
    [dm] = dms_to(fake, fake.bob)
    assert board.created_perf < dm.created_perf
