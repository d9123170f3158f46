"""End to end (issue 12): playing Stonecast itself -- a whole game at level 1, a restart while it
is the computer's turn, two people playing it at once, Rematch, the record by level -- and
/review of a finished game with its chart, through the fake Discord."""

import asyncio
import io
import re

import pytest
from botplay import SMALL, until
from fakediscord.fixtures import *  # noqa: F403
from fakediscord.harness import BotHarness
from PIL import Image

from bot import texts

# Searches in the tests are tiny: a handful of playouts per move, and per reviewed position.
COMPUTER = {"playouts": 8, "review_options": {"level": 1, "playouts": 8, "seed": 1}}


@pytest.fixture
async def harness(fake, sqlite_db):  # noqa: F811 - this file's bot has tiny searches
    """The real bot, with tiny searches, on a fresh database."""
    h = BotHarness(fake, sqlite_db(), computer_options=dict(COMPUTER))
    await h.start()
    try:
        yield h
    finally:
        await h.stop()
    assert not fake.unknown_routes, fake.unknown_routes


async def play_computer(fake, harness, user, kind="coil", *, first="me", level=1, options=None):
    """/challenge <kind> opponent:@Stonecast; returns (game, the exchange)."""
    opts = SMALL[kind] if options is None else options
    ex = await fake.slash(user, f"challenge {kind}",
                          {"opponent": fake.bot_user, **opts, "first": first, "level": level})
    assert ex.reply.ephemeral, ex.reply.content
    assert "against the computer has started" in ex.reply.content, ex.reply.content
    gid = int(ex.reply.content.split("#", 1)[1].split(",", 1)[0])
    return await harness.manager.get_game(gid), ex


async def computer_moved(harness, game_id: int, ply: int):
    """The game once it is past ``ply`` (or over) and the board of its last move is posted."""
    fake = harness.fake

    async def check():
        g = await harness.manager.get_game(game_id)
        if g.ply > ply or g.status != "active":
            if len(boards_in(fake, g.thread_id)) >= 1 + g.ply:
                return g
        return None
    return await until(check, f"the move after ply {ply}", timeout=30)


def boards_in(fake, channel_id):
    """Board posts (with a PNG) in a channel, oldest first."""
    return [m for m in fake.channel_messages(channel_id) if m.attachments]


async def test_a_whole_game_against_the_computer_at_level_1(fake, harness):
    game, ex = await play_computer(fake, harness, fake.alice, "coil")
    assert not game.rated and game.ai_level == 1 and game.ai_seat == 2
    assert game.players == {1: fake.alice.id, 2: fake.bot_user.id}
    assert game.thread_id is not None, "the game has its own thread at once"
    [opening] = [m for m in fake.channel_messages(fake.general) if m.id == game.thread_id]
    assert "playing the computer at level 1" in opening.content
    [first_board] = boards_in(fake, game.thread_id)
    assert first_board.pings == {fake.alice.id}
    typing_before = len(fake.typing)
    plies = 0
    while game.status == "active":
        assert game.position.to_move == 1, "the computer never leaves the human waiting"
        assert game.deadline is not None, "the human's clock runs"
        move = next(iter(game.position.legal_moves()))
        ex = await fake.slash(fake.alice, "move", {"move": move}, channel=game.thread_id)
        assert ex.reply.ephemeral and "Illegal" not in ex.reply.content, ex.reply.content
        after = await harness.manager.get_game(game.id)
        if after.status == "active" and after.ply == game.ply + 1:  # the computer still thinks
            assert after.deadline is None, "the computer's turn has no deadline"
        game = await computer_moved(harness, game.id, game.ply + 1)
        plies = game.ply
        if game.status == "active":
            last = boards_in(fake, game.thread_id)[-1]
            assert last.pings == {fake.alice.id}, "the computer's board pings the human"
    assert game.status == "finished" and plies >= 2
    assert len(fake.typing) > typing_before, "the thread showed the computer typing"
    assert all(c == game.thread_id for c in fake.typing[typing_before:])
    moves = await harness.manager.moves(game.id)
    assert {m.seat for m in moves} == {1, 2}
    boards = boards_in(fake, game.thread_id)
    assert len(boards) == 1 + len(moves), "one board per move, the computer's too"
    assert all(fake.bot_user.id not in b.pings for b in boards), "the computer is never pinged"
    # unrated: no rating for anyone; the record against level 1 counts it
    records = await harness.manager.computer_records(fake.alice.id)
    assert [(r.level, r.wins + r.losses + r.draws) for r in records] == [(1, 1)]
    ex = await fake.slash(fake.alice, "profile", {})
    assert "level 1" in ex.reply.content.lower(), ex.reply.content


async def test_the_computer_moves_first_when_it_has_seat_1(fake, harness):
    game, _ = await play_computer(fake, harness, fake.bob, "io", first="opponent")
    assert game.ai_seat == 1 and (game.ply == 1 or game.deadline is None)
    [first_board] = [m for m in fake.channel_messages(game.thread_id) if m.attachments][:1]
    assert first_board.pings == frozenset() and f"Next: <@{fake.bot_user.id}> (level 1)" in first_board.content
    game = await computer_moved(harness, game.id, 0)
    assert game.ply == 1 and game.position.to_move == 2 and game.deadline is not None
    assert boards_in(fake, game.thread_id)[-1].pings == {fake.bob.id}


async def test_a_restart_on_the_computers_turn_moves_once_after_it(fake, sqlite_db):
    # a search that never finishes in time: the bot is stopped while the computer thinks
    h = BotHarness(fake, sqlite_db("s.db"), computer_options={"playouts": None})
    await h.start()
    try:
        game, _ = await play_computer(fake, h, fake.alice, "io", first="opponent", level=5)
        assert h.bot.computer.thinking(game.id)
        await h.stop()
        h.computer_options = dict(COMPUTER)
        await h.start()   # the first maintenance pass finds the computer's turn in the database
        game = await computer_moved(h, game.id, 0)
        await asyncio.sleep(0.5)
        await fake.quiet()
        assert (await h.manager.get_game(game.id)).ply == 1, "it moved exactly once"
        assert len(await h.manager.moves(game.id)) == 1
        assert len(boards_in(fake, game.thread_id)) == 2  # the first board and the computer's
        # another pass finds nothing to do
        assert await h.maintenance.wake_computer() == 0
    finally:
        await h.stop()


async def test_two_people_play_the_computer_at_once(fake, harness):
    (ga, _), (gb, _) = await asyncio.gather(
        play_computer(fake, harness, fake.alice, "io"),
        play_computer(fake, harness, fake.bob, "coil"))
    for round_ in range(2):
        ma = next(iter(ga.position.legal_moves()))
        mb = next(iter(gb.position.legal_moves()))
        await asyncio.gather(
            fake.slash(fake.alice, "move", {"move": ma}, channel=ga.thread_id),
            fake.slash(fake.bob, "move", {"move": mb}, channel=gb.thread_id))
        ga = await computer_moved(harness, ga.id, 2 * round_ + 1)
        gb = await computer_moved(harness, gb.id, 2 * round_ + 1)
        assert ga.ply == gb.ply == 2 * round_ + 2
    assert [m.seat for m in await harness.manager.moves(ga.id)] == [1, 2, 1, 2]
    assert [m.seat for m in await harness.manager.moves(gb.id)] == [1, 2, 1, 2]


async def test_challenging_another_bot_is_still_refused(fake, harness):
    ex = await fake.slash(fake.alice, "challenge io", {"opponent": fake.otherbot, "size": 5})
    assert ex.posts == [] and "Bots other than Stonecast cannot play" in ex.reply.content
    ex = await fake.slash(fake.alice, "challenge io", {"opponent": fake.bob, "size": 5, "level": 2})
    assert ex.posts == [] and "only applies when you challenge" in ex.reply.content


async def test_rematch_and_resign_against_the_computer(fake, harness):
    game, _ = await play_computer(fake, harness, fake.alice, "io", level=2)
    ex = await fake.slash(fake.alice, "resign", {"game": game.id}, channel=game.thread_id)
    confirm = [m for m in [ex.reply, *ex.followups] if any("resign" in c for c in m.custom_ids)]
    if confirm:
        button = next(c for c in confirm[0].custom_ids if "resign" in c and "cancel" not in c)
        ex = await fake.click(fake.alice, confirm[0], button)
    game = await harness.manager.get_game(game.id)
    assert game.status == "finished" and game.winner == 2
    final = boards_in(fake, game.thread_id)[-1]
    rematch = next(c for c in final.custom_ids if "rematch" in c)
    ex = await fake.click(fake.alice, final, rematch)
    assert "against the computer has started" in ex.reply.content, ex.reply.content
    gid = int(ex.reply.content.split("#", 1)[1].split(",", 1)[0])
    new = await harness.manager.get_game(gid)
    assert new.status == "active" and new.ai_level == 2 and new.ai_seat == 1, "seats swapped"
    await computer_moved(harness, gid, 0)
    ex = await fake.click(fake.alice, final, rematch)
    assert "already" in ex.reply.content


async def test_review_of_a_finished_game_with_its_chart(fake, harness, tmp_path):
    from botplay import start_game
    game, _, _ = await start_game(fake, harness, "coil", fake.alice, fake.bob)
    ex = await fake.slash(fake.alice, "review", {"game": game.id})
    assert "still being played" in ex.reply.content
    while game.status == "active":
        user = fake.alice if game.position.to_move == 1 else fake.bob
        move = next(iter(game.position.legal_moves()))
        await fake.slash(user, "move", {"move": move}, channel=game.thread_id)
        game = await harness.manager.get_game(game.id)
    ex = await fake.slash(fake.carol, "review", {"game": game.id})
    msg = await until(lambda: _chart(fake, ex), "the review's chart", timeout=30)
    assert "Review of" in msg.content and "preferred" in msg.content, msg.content
    # each swing names its mover (issue 19): "move 6, Alice's `e5`: 68% → 29%"
    swings = [line for line in msg.content.splitlines() if line.startswith("• move ")]
    assert swings and all(re.match(r"• move \d+, (Alice|Bob)'s `[^`]+`: \d+% → \d+%", line)
                          for line in swings), msg.content
    assert " -- " not in msg.content
    png = msg.attachments[0].data
    Image.open(io.BytesIO(png)).verify()
    (tmp_path / "review.png").write_bytes(png)
    import os
    if os.environ.get("STONECAST_SAVE_REVIEW"):
        with open(os.environ["STONECAST_SAVE_REVIEW"], "wb") as f:
            f.write(png)
    assert await harness.manager.cached_review(game.id) is not None, "cached once done"
    # a second /review answers from the cache at once
    ex = await fake.slash(fake.bob, "review", {"game": game.id})
    assert await _chart(fake, ex), "the cached review answers straight away"


async def _chart(fake, ex):
    """The review's message with its chart, once it is there."""
    for m in [ex.reply, *ex.followups]:
        current = fake.messages.get(m.id, m)
        if current.attachments and current.attachments[0].filename.endswith(".png"):
            return current
    return None


async def test_a_failing_search_is_retried_a_level_lower_then_the_game_is_aborted(fake, harness):
    from bot.workers.search_pool import SearchFailed
    levels = []

    async def failing(game, level):
        levels.append(level)
        raise SearchFailed("RuntimeError: the search broke")

    harness.bot.computer._search = failing
    game, _ = await play_computer(fake, harness, fake.alice, "io", first="opponent", level=3)

    async def aborted():
        g = await harness.manager.get_game(game.id)
        return g if g.status == "aborted" else None
    game = await until(aborted, "the game to be aborted", timeout=30)
    await fake.quiet()
    assert levels == [3, 2], "tried once more a level lower"
    [note] = [m for m in fake.channel_messages(game.thread_id) if "Sorry" in m.content]
    assert "could not work out a move" in note.content and note.pings == {fake.alice.id}
    assert await harness.manager.computer_turns() == [], "never left hanging"


async def test_a_full_queue_gets_a_clear_answer(fake, sqlite_db):
    h = BotHarness(fake, sqlite_db("q.db"), computer_options={"playouts": None, "max_queue": 1,
                                                               "workers": 1})
    await h.start()
    try:
        await play_computer(fake, h, fake.alice, "io", first="opponent", level=5)  # running
        await play_computer(fake, h, fake.bob, "io", first="opponent", level=5)    # queued
        game, ex = await play_computer(fake, h, fake.carol, "io", first="opponent", level=5)
        assert "too many games to think about" in ex.reply.content
        assert not h.bot.computer.thinking(game.id)
        assert [g.id for g in await h.manager.computer_turns()][-1] == game.id, "the next pass asks again"
    finally:
        await h.stop()


async def test_one_review_of_a_game_at_a_time_with_its_progress(fake, sqlite_db):
    from botplay import start_game
    h = BotHarness(fake, sqlite_db("r.db"),
                   computer_options={"review_options": {"level": 1, "playouts": 600, "seed": 1}})
    await h.start()
    try:
        game, _, _ = await start_game(fake, h, "coil", fake.alice, fake.bob)
        while game.status == "active":
            user = fake.alice if game.position.to_move == 1 else fake.bob
            await fake.slash(user, "move", {"move": next(iter(game.position.legal_moves()))},
                             channel=game.thread_id)
            game = await h.manager.get_game(game.id)
        first = await fake.slash(fake.alice, "review", {"game": game.id})
        assert "Reviewing" in first.reply.content and not first.reply.ephemeral, first.reply.content
        second = await fake.slash(fake.bob, "review", {"game": game.id})
        assert second.reply.ephemeral and "being reviewed already" in second.reply.content
        msg = await until(lambda: _chart(fake, first), "the first review's chart", timeout=60)
        assert msg.edits >= 2, "the progress was edited in before the chart"
    finally:
        await h.stop()


async def test_a_game_aborted_before_its_first_move_has_nothing_to_review(fake, harness):
    from botplay import start_game
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    await fake.slash(fake.mod, "abort", {"game": game.id})
    assert (await harness.manager.get_game(game.id)).status == "aborted"
    ex = await fake.slash(fake.alice, "review", {"game": game.id})
    assert ex.reply.ephemeral and "nothing to review" in ex.reply.content, ex.reply.content


# ---- issue 19 item 8: the computer's level is shown wherever it plays -----------------------

def _names_given_to_the_renderer(harness) -> list[dict]:
    """Record the players' names each board image is rendered with."""
    seen: list[dict] = []
    render = harness.bot.renderer.render

    async def recording(position, *, players=None, **kwargs):
        seen.append(dict(players or {}))
        return await render(position, players=players, **kwargs)

    harness.bot.renderer.render = recording
    return seen


async def test_the_computers_level_is_on_the_board_games_and_the_record(fake, harness):
    from bot.rules.records import read_record
    names = _names_given_to_the_renderer(harness)
    game, _ = await play_computer(fake, harness, fake.alice, "io", level=3)
    computer = "Stonecast (level 3)"
    assert names and all(n[2] == computer and n[1] == "Alice" for n in names), names
    [thread] = [t for t in fake.threads() if int(t["id"]) == game.thread_id]
    assert thread["name"].endswith(f"Alice vs {computer}"), thread["name"]
    mine = await fake.slash(fake.alice, "games", {})
    line = next(x for x in mine.reply.content.splitlines() if texts.game_label(game.kind, game.id) in x)
    assert f"<@{fake.bot_user.id}> (level 3)" in line, line
    every = await fake.slash(fake.bob, "games", {"all": True})
    line = next(x for x in every.reply.content.splitlines() if texts.game_label(game.kind, game.id) in x)
    assert f"<@{fake.bot_user.id}> (level 3)" in line, line
    await fake.slash(fake.alice, "move", {"move": next(iter(game.position.legal_moves()))},
                     channel=game.thread_id)
    game = await computer_moved(harness, game.id, 1)
    assert names[-1][2] == computer, "the computer's own board names its level too"
    ex = await fake.slash(fake.alice, "history", {"game": game.id})
    [record] = {a.id: a for m in [ex.reply, *ex.followups] for a in m.attachments
                if a.filename.endswith(".txt")}.values()
    text = record.data.decode()
    assert f"Seat 2: Stonecast ({fake.bot_user.id}), " in text, "the name field keeps its one form"
    assert "Computer: seat 2, level 3" in text, text
    parsed = read_record(text)
    assert parsed.computer == (2, 3) and parsed.moves == tuple(m.move for m in await harness.manager.moves(game.id))


async def test_no_board_says_the_computer_is_thinking_once_it_has_moved(fake, harness):
    game, _ = await play_computer(fake, harness, fake.bob, "io", level=2)
    await fake.slash(fake.bob, "move", {"move": next(iter(game.position.legal_moves()))},
                     channel=game.thread_id)
    game = await computer_moved(harness, game.id, 1)
    await fake.quiet()
    first, waiting, answered = boards_in(fake, game.thread_id)
    assert waiting.pings == frozenset(), "the board that leaves the computer to move pings nobody"
    assert f"<@{fake.bot_user.id}> (level 2)" in waiting.content, waiting.content
    for board in (first, waiting, answered):
        current = fake.messages.get(board.id, board)
        assert "thinking" not in current.content, current.content
    assert answered.pings == {fake.bob.id}, "the computer's move asks the human in a new message"


async def test_the_profile_of_the_computer_shows_its_own_results_by_level(fake, harness):
    game, _ = await play_computer(fake, harness, fake.alice, "io", level=2)
    ex = await fake.slash(fake.alice, "resign", {"game": game.id}, channel=game.thread_id)
    confirm = [m for m in [ex.reply, *ex.followups] if any("resign" in c for c in m.custom_ids)]
    if confirm:
        button = next(c for c in confirm[0].custom_ids if "resign" in c and "cancel" not in c)
        await fake.click(fake.alice, confirm[0], button)
    assert (await harness.manager.get_game(game.id)).winner == 2
    ex = await fake.slash(fake.bob, "profile", {"member": fake.bot_user})
    assert "As the computer at level 2: 1 won, 0 lost, 0 drawn" in ex.reply.content, ex.reply.content
    assert "Against the computer" not in ex.reply.content, ex.reply.content
    ex = await fake.slash(fake.bob, "profile", {"member": fake.alice})
    assert "Against the computer at level 2: 0 won, 1 lost, 0 drawn" in ex.reply.content, ex.reply.content
