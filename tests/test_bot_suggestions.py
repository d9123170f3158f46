"""End to end (issue 19, "Commands"): /move's suggestions when several games wait outside
their threads, labelled by game and carrying it; /review's ``game:`` suggestions.

Each test sets up games in the fake's first server and one in a second server (the same
players), which must never be suggested from the first; a DM shows only the caller's own.
"""

from __future__ import annotations

import sys

from botplay import play_move, start_game
from fakediscord.fixtures import *  # noqa: F403
from fakediscord.harness import BotHarness

from bot import texts


async def forged(fake, user, type_: int, command: str, options: dict, channel: int, *,
                 focused: str | None = None):
    """A command (type 2) or autocomplete (type 4) interaction from ``channel``, also where
    Discord would not offer it (a server command in a DM, as a hostile client may send)."""
    ex = fake._new_exchange(user, type_, channel)
    data = fake._command_data(command, options, focused)
    return await fake._run(ex, fake._interaction_payload(ex, user, channel, data, None), None)


async def resigned(fake, harness, kind, challenger, opponent, *, moves: int, channel=None):
    """A game of ``kind`` that ``challenger`` resigns after ``moves`` moves (0 or 1)."""
    game, _, _ = await start_game(fake, harness, kind, challenger, opponent, channel=channel)
    if moves:
        await play_move(fake, challenger, "c3", game_id=game.id, channel=channel)
    ex = await fake.slash(challenger, "resign", {"game": game.id}, channel=channel)
    await fake.click(challenger, ex.reply, ex.reply.custom_ids[0])
    assert (await harness.manager.get_game(game.id)).status == "finished"
    return game


async def test_move_suggests_each_waiting_games_moves_by_game(fake, sqlite_db, monkeypatch):
    _, other_channel = fake.add_guild("second")
    harness = BotHarness(fake, sqlite_db("stonecast.db"))
    await harness.start()
    try:
        io1, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
        io2, _, _ = await start_game(fake, harness, "io", fake.alice, fake.carol)
        coil, _, _ = await start_game(fake, harness, "coil", fake.alice, fake.bob)
        away, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob, channel=other_channel)
        here = (io1, io2, coil)
        assert all(g.to_move_user == fake.alice.id for g in (*here, away))

        # in the channel (no game's thread), nothing typed: each game's moves, labelled by game
        ex = await fake.autocomplete(fake.alice, "move", {"move": ""}, focused="move")
        choices = [(c["name"], c["value"]) for c in ex.choices]
        assert 3 <= len(choices) <= 25
        for g in here:
            mine = [(n, v) for n, v in choices if v.startswith(f"#{g.id} ")]
            assert mine, f"no move suggested for {texts.game_label(g.kind, g.id)}: {choices}"
            for name, value in mine:
                assert name == texts.move_choice(texts.game_label(g.kind, g.id), value.split(" ", 1)[1])
        # shared out in turn: the first three are one move of each game
        assert {v.split(" ")[0] for _, v in choices[:3]} == {f"#{g.id}" for g in here}
        assert not [c for c in choices if f"#{away.id}" in c[0] or c[1].startswith(f"#{away.id} ")]
        # what is typed narrows each game's moves
        ex = await fake.autocomplete(fake.alice, "move", {"move": "c3"}, focused="move")
        assert {c["value"] for c in ex.choices} == {f"#{g.id} c3" for g in here}

        # the chosen value plays in its game, and only there
        ex = await fake.slash(fake.alice, "move", {"move": f"#{io2.id} c3"})
        assert ex.reply.ephemeral and "c3" in ex.reply.content, ex.reply.content
        assert [(await harness.manager.get_game(g.id)).ply for g in (*here, away)] == [0, 1, 0, 0]
        # checked again on submit: another server's game, and game: naming another game
        ex = await fake.slash(fake.alice, "move", {"move": f"#{away.id} c3"})
        assert ex.reply.content == texts.no_such_game(away.id)
        ex = await fake.slash(fake.alice, "move", {"move": f"#{io1.id} c3", "game": coil.id})
        assert ex.reply.content == texts.move_names_another_game(io1.id, coil.id)
        assert [(await harness.manager.get_game(g.id)).ply for g in (*here, away)] == [0, 1, 0, 0]

        # a suggestion picked and typed on keeps its game
        ex = await fake.autocomplete(fake.alice, "move", {"move": f"#{io1.id} c"}, focused="move")
        assert ex.choices and all(c["value"].startswith(f"#{io1.id} c") for c in ex.choices)
        # from the other server: only the game there, its moves plain (it is the only one)
        ex = await fake.autocomplete(fake.alice, "move", {"move": "c3"}, focused="move",
                                     channel=other_channel)
        assert [c["value"] for c in ex.choices] == ["c3"]

        # too many games for moves of each: a first choice says to choose the game first
        # (the module discord.py loaded as the extension)
        monkeypatch.setattr(sys.modules["bot.front.cogs.play"], "MAX_GAMES_IN_MOVES", 1)
        ex = await fake.autocomplete(fake.alice, "move", {"move": ""}, focused="move")
        first = ex.choices[0]
        assert first["name"] == texts.pick_game_choice(2)
        assert {c["value"].split(" ")[0] for c in ex.choices[1:]} == {f"#{io1.id}", f"#{coil.id}"}
        ex = await fake.slash(fake.alice, "move", {"move": first["value"]})
        assert "choose one with the `game:` option" in ex.reply.content
        assert [(await harness.manager.get_game(g.id)).ply for g in (*here, away)] == [0, 1, 0, 0]
        assert not fake.refusals, fake.refusals
    finally:
        await harness.stop()


async def test_review_suggests_this_servers_finished_games(fake, sqlite_db):
    _, other_channel = fake.add_guild("second")
    harness = BotHarness(fake, sqlite_db("stonecast.db"))
    await harness.start()
    try:
        mine = await resigned(fake, harness, "io", fake.alice, fake.bob, moves=1)
        theirs = await resigned(fake, harness, "io", fake.bob, fake.carol, moves=1)
        no_moves = await resigned(fake, harness, "io", fake.carol, fake.alice, moves=0)
        away = await resigned(fake, harness, "io", fake.alice, fake.bob, moves=1, channel=other_channel)
        running, _, _ = await start_game(fake, harness, "coil", fake.alice, fake.bob)

        ex = await fake.autocomplete(fake.alice, "review", {"game": ""}, focused="game")
        assert [c["value"] for c in ex.choices] == [theirs.id, mine.id]  # newest first
        assert ex.choices[1]["name"] == texts.finished_game_choice(texts.game_label(mine.kind, mine.id), "Alice", "Bob", 1)
        ex = await fake.autocomplete(fake.alice, "review", {"game": str(mine.id)}, focused="game")
        assert ex.choices[0]["value"] == mine.id
        # typing another server's number, or a running game's, suggests nothing of it
        for gid in (away.id, running.id, no_moves.id):
            ex = await fake.autocomplete(fake.alice, "review", {"game": str(gid)}, focused="game")
            assert gid not in [c["value"] for c in ex.choices]
        # in the other server: its own finished game only
        ex = await fake.autocomplete(fake.alice, "review", {"game": ""}, focused="game",
                                     channel=other_channel)
        assert [c["value"] for c in ex.choices] == [away.id]
        # in a DM: the caller's own games that are over, from every server
        ex = await forged(fake, fake.alice, 4, "review", {"game": ""}, fake.dm_channel_for(fake.alice),
                          focused="game")
        assert [c["value"] for c in ex.choices] == [away.id, mine.id]
        assert not fake.refusals, fake.refusals
    finally:
        await harness.stop()
