"""End to end (issue 23): the analysis board through the fake Discord -- /analyze on a finished
game, its buttons (◀ ▶, Play through its form, Undo, Engine with its line drawn, Share, Text),
/note shown on /board and /analyze to its owner only, the board after a restart, and the
refusals: someone else's buttons, an illegal move in the form, a malformed position, Engine
on a running game (its own board and a pasted text of its position), a note too long, a lapsed
board. The rules behind them are tested at the manager level (tests/test_manager_analysis.py);
here, what Discord shows."""

from __future__ import annotations

import asyncio

import pytest
from botplay import Clock, play_move, start_game
from fakediscord.fixtures import *  # noqa: F403
from fakediscord.harness import BotHarness

import engine
from bot import texts
from bot.manager import NOTE_MAX, SESSION_TTL


@pytest.fixture
async def harness(fake, tmp_path):  # noqa: F811 - this file's bot has a hand clock and tiny searches
    h = BotHarness(fake, tmp_path / "stonecast.db", clock=Clock(), computer_options={"playouts": 40})
    await h.start()
    try:
        yield h
    finally:
        await h.stop()
    assert not fake.unknown_routes, fake.unknown_routes
    assert not fake.refusals, fake.refusals
    assert not fake.undescribed, fake.undescribed


def _button(msg, action: str) -> str:
    return next(c for c in msg.custom_ids if c.startswith(f"stonecast:analysis:{action}:"))


def _pixels(msg):
    return msg.png().convert("RGB").tobytes()


async def test_the_analysis_board_end_to_end(fake, harness):
    alice, bob, carol = fake.alice, fake.bob, fake.carol
    done, _, _ = await start_game(fake, harness, "io", alice, bob)
    await play_move(fake, alice, "c3", game_id=done.id)
    reply = next((await harness.manager.get_game(done.id)).position.legal_moves())
    await play_move(fake, bob, reply, game_id=done.id)
    ex = await fake.slash(alice, "resign", {"game": done.id})
    await fake.click(alice, ex.reply, ex.reply.custom_ids[0])
    running, _, _ = await start_game(fake, harness, "io", alice, bob)
    # not c3: the finished game's move-1 position would then be the running one's (no Engine)
    await play_move(fake, alice, "b2", game_id=running.id)

    # ---- /note: private, on /board and /analyze for its owner only; too long is refused
    ex = await fake.slash(alice, "note", {"game": done.id, "text": "b2 d4 was strong"})
    assert ex.reply.ephemeral and "b2 d4 was strong" in ex.reply.content
    ex = await fake.slash(alice, "note", {"game": done.id, "text": "x" * (NOTE_MAX + 1)})
    assert ex.reply.ephemeral and f"at most {NOTE_MAX}" in ex.reply.content
    assert "b2 d4 was strong" in (await fake.slash(alice, "board", {"game": done.id})).reply.content
    assert "b2 d4 was strong" not in (await fake.slash(bob, "board", {"game": done.id})).reply.content

    # ---- /analyze a finished game: private, the last move, seven buttons, the note
    ex = await fake.slash(alice, "analyze", {"game": done.id})
    board = ex.reply
    assert board.ephemeral and not ex.posts
    assert f"Io #{done.id}" in board.content and "move 2 of 2" in board.content
    assert "b2 d4 was strong" in board.content
    assert len(board.custom_ids) == 7 and board.png()
    assert "b2 d4 was strong" not in (await fake.slash(bob, "analyze", {"game": done.id})).reply.content

    # someone else's buttons: refused privately, the board untouched
    edits = board.edits
    ex = await fake.click(bob, board, _button(board, "next"))
    assert ex.reply.ephemeral and ex.reply.content == texts.NOT_YOUR_ANALYSIS_BUTTON
    assert board.edits == edits

    # ◀ ▶ step through the game's moves
    await fake.click(alice, board, _button(board, "prev"))
    assert "move 1 of 2" in board.content
    await fake.click(alice, board, _button(board, "next"))
    assert "move 2 of 2" in board.content
    await fake.click(alice, board, _button(board, "prev"))

    # Play: a form, read as /move reads pasted text; an illegal move is refused privately
    opened = await fake.click(alice, board, _button(board, "play"))
    assert opened.callback_type == 9
    ex = await fake.submit_modal(alice, opened, ["c3"])  # taken at move 1
    assert ex.reply.ephemeral and "Illegal move" in ex.reply.content
    assert "move 1 of 2" in board.content
    mine = [m for m in engine.replay("io", {"size": 5}, ["c3"]).legal_moves() if m != reply][0]
    opened = await fake.click(alice, board, _button(board, "play"))
    await fake.submit_modal(alice, opened, [f" `{mine.upper()}`. "])
    assert "move 2 of 2" in board.content and "your line: 1 move" in board.content
    # Undo takes it back; the game's own moves return
    await fake.click(alice, board, _button(board, "undo"))
    assert "move 1 of 2" in board.content and "your line" not in board.content
    ex = await fake.click(alice, board, _button(board, "undo"))
    assert ex.reply.ephemeral and "no move of yours" in ex.reply.content

    # Engine: chances and the best line, drawn as numbered markers
    before = _pixels(board)
    await fake.click(alice, board, _button(board, "engine"))
    assert texts.engine_note("thinking") in board.content  # at once, while it searches
    for _ in range(300):  # the search runs in a worker process (the first one starts now)
        if "Engine:" in board.content:
            break
        await asyncio.sleep(0.05)
    assert "Engine:" in board.content and "Best line: 1. " in board.content
    assert _pixels(board) != before
    assert "numbered markers" in board.attachments[0].description

    # Share: posted publicly with the line and who explored it, pinging no one
    ex = await fake.click(alice, board, _button(board, "share"))
    [shared] = ex.followups
    assert not shared.ephemeral and f"<@{alice.id}> shares" in shared.content
    assert "Best line" in shared.content and shared.png() and not shared.pings

    # Text: the position's text, privately; pasted back it opens the same position
    ex = await fake.click(alice, board, _button(board, "text"))
    [answer] = ex.followups
    assert answer.ephemeral
    text = answer.content.split("```\n", 1)[1].split("\n```", 1)[0]
    pasted = (await fake.slash(alice, "analyze", {"position": text})).reply
    assert "Analysis of an Io position" in pasted.content and "move 0 of 0" in pasted.content
    ex = await fake.slash(alice, "analyze", {"position": "io size=5 x"})
    assert ex.reply.ephemeral and "cannot read that position text" in ex.reply.content

    # ---- no Engine on a running game: its own board, and its position pasted by a spectator
    own = (await fake.slash(alice, "analyze", {"game": running.id})).reply
    ex = await fake.click(alice, own, _button(own, "engine"))
    assert ex.reply.ephemeral and f"your game Io #{running.id}" in ex.reply.content
    live = (await harness.manager.get_game(running.id)).position.to_text()
    spied = (await fake.slash(carol, "analyze", {"position": live})).reply
    ex = await fake.click(carol, spied, _button(spied, "engine"))
    assert ex.reply.ephemeral and "which is being played in this server" in ex.reply.content
    assert "Engine:" not in spied.content

    # ---- stored: after a restart the board's buttons still work; it lapses a day after use
    await harness.restart()
    await fake.click(alice, board, _button(board, "next"))
    assert "move 2 of 2" in board.content
    harness.manager.clock.t += SESSION_TTL
    # the maintenance pass deletes lapsed boards (nobody need press them); a press says so
    await harness.maintenance.run_maintenance()
    row = await harness.manager.store.fetchone("SELECT COUNT(*) FROM analysis_sessions")
    assert row[0] == 0
    ex = await fake.click(alice, board, _button(board, "prev"))
    assert ex.reply.ephemeral and "lapsed" in ex.reply.content
