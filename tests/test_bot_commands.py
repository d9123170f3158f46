"""End to end: command registration, autocomplete, /resign, /board, /games, /rules, /help,
the thread fallback and restarts."""

import pytest
from botplay import board_post, play_move, start_game
from fakediscord.fixtures import *  # noqa: F403

import ai
import engine
from bot import texts

OPT_SUB, OPT_STRING, OPT_INTEGER, OPT_USER = 1, 3, 4, 6
PRIVILEGED = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content


def test_engine_kinds_are_known_to_the_texts():
    for key in engine.GAMES:
        assert key in engine.MENU_ORDER and key in texts.RULES


async def test_commands_follow_the_engine_option_specs(fake, harness):
    names = {c["name"] for c in fake.guild_commands[fake.guild_id]}
    assert names == {"challenge", "move", "resign", "board", "games", "history",
                     "abort", "notify", "vacation", "leaderboard", "profile", "conditional",
                     "settings", "next", "review", "tournament", "analyze", "note"}
    # /help and /rules stay global: they also work in direct messages (issue 9); so does
    # /privacy (issue 18: the data is the player's own, in every server)
    assert {c["name"] for c in fake.global_commands} == {"rules", "help", "privacy"}
    assert fake.identifies[-1]["intents"] & PRIVILEGED == 0
    challenge = fake.command("challenge")
    subs = {o["name"]: o for o in challenge["options"]}
    assert set(subs) == set(engine.GAMES)
    for key, kind in engine.GAMES.items():
        sub = subs[key]
        assert sub["type"] == OPT_SUB
        opts = {o["name"]: o for o in sub["options"]}
        assert opts["opponent"]["type"] == OPT_USER and not opts["opponent"].get("required")
        assert [c["value"] for c in opts["first"]["choices"]] == ["me", "opponent", "random"]
        assert (opts["days"]["min_value"], opts["days"]["max_value"]) == (1, 14)
        assert opts["rated"]["type"] == 5
        # level: the computer's strength, each choice described from ai.LEVELS (issue 12)
        assert [c["value"] for c in opts["level"]["choices"]] == [1, 2, 3, 4, 5]
        assert all(texts.LEVEL_DESCRIPTIONS[c["value"]].split(":")[0] in c["name"]
                   for c in opts["level"]["choices"])
        for spec in kind.options:
            o = opts[spec.name]
            assert not o.get("required")
            assert o["type"] == (OPT_INTEGER if spec.type is int else OPT_STRING)
            if spec.choices is not None:
                assert [c["value"] for c in o["choices"]] == list(spec.choices)
            else:
                assert (o.get("min_value"), o.get("max_value")) == (spec.minimum, spec.maximum)
    move = {o["name"]: o for o in fake.command("move")["options"]}
    assert move["move"]["autocomplete"] and move["move"]["required"]
    assert move["game"]["autocomplete"] and move["game"]["type"] == OPT_INTEGER


async def test_out_of_range_option_is_refused_by_the_client_and_engine_checks_the_rest(fake, harness):
    with pytest.raises(AssertionError, match="maximum"):
        await fake.slash(fake.alice, "challenge io", {"opponent": fake.bob, "size": 99})
    if "braincoral" in engine.GAMES:
        # hexhex allows at most 11; limping at most 10: the engine's cross-option check answers
        ex = await fake.slash(fake.alice, "challenge braincoral",
                              {"opponent": fake.bob, "shape": "limping", "size": 11})
        assert ex.reply.ephemeral and ex.posts == [] and "size" in ex.reply.content.lower()


async def test_autocomplete_moves_and_games(fake, harness):
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    ex = await fake.autocomplete(fake.alice, "move", {"move": "c"}, focused="move", channel=game.thread_id)
    values = [c["value"] for c in ex.choices]
    assert values and all(v.startswith("c") for v in values) and len(values) <= 25
    assert values == [c["name"] for c in ex.choices]
    assert set(values) == set(engine.new_game("io", size=5).complete("c", limit=25))
    # outside the thread, naming the game
    ex = await fake.autocomplete(fake.alice, "move", {"move": "", "game": game.id}, focused="move")
    assert len(ex.choices) == 21  # 25 cells minus 4 corners
    # not bob's turn: no moves, one choice saying whose move it is (issue 9)
    ex = await fake.autocomplete(fake.bob, "move", {"move": "c"}, focused="move", channel=game.thread_id)
    assert [c["value"] for c in ex.choices] == ["wait"] and "Alice's move" in ex.choices[0]["name"]
    # Io's two-placement turn: after "c3 " the free placements are offered
    await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    ex = await fake.autocomplete(fake.bob, "move", {"move": "b2 "}, focused="move", channel=game.thread_id)
    assert ex.choices and all(c["value"].startswith("b2 ") for c in ex.choices)
    ex = await fake.autocomplete(fake.bob, "move", {"game": ""}, focused="game")
    assert [c["value"] for c in ex.choices] == [game.id]
    assert f"#{game.id}" in ex.choices[0]["name"]
    ex = await fake.autocomplete(fake.carol, "board", {"game": ""}, focused="game")
    assert ex.choices == []


async def test_resign_board_and_games(fake, harness):
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    other, _, _ = await start_game(fake, harness, "io", fake.bob, fake.alice, channel=fake.nothreads)
    ex = await fake.slash(fake.alice, "games")
    text = ex.reply.content
    assert ex.reply.ephemeral and f"Io #{game.id}" in text and f"Io #{other.id}" in text
    assert text.index(f"Io #{game.id}") < text.index(f"Io #{other.id}")  # waiting for alice first
    assert "your move" in text and f"<#{game.thread_id}>" in text
    ex = await fake.slash(fake.carol, "games")
    assert "no games" in ex.reply.content

    ex = await fake.slash(fake.carol, "board", {}, channel=game.thread_id)  # a spectator in the thread
    assert ex.reply.ephemeral and ex.reply.png().size[0] >= 600 and ex.posts == []
    assert f"Io #{game.id}" in ex.reply.content

    ex = await fake.slash(fake.alice, "resign", {"game": game.id})
    confirm = ex.reply
    assert confirm.ephemeral and "Resign" in confirm.content
    assert (await harness.manager.get_game(game.id)).status == "active"
    ex = await fake.click(fake.alice, confirm, confirm.custom_ids[0])
    final = board_post(ex)
    assert final.channel_id == game.thread_id and final.pings == {fake.bob.id}
    assert "resign" in final.content and "beats" in final.content
    assert confirm.components == [] and "You resigned" in confirm.content
    g = await harness.manager.get_game(game.id)
    assert g.status == "finished" and g.winner == g.seat_of(fake.bob.id) and g.reason == "resignation"
    # pressing the old confirmation again, or resigning again
    confirm.components = [{"type": 1, "components": [{"type": 2, "style": 4, "label": "Resign",
                                                      "custom_id": f"stonecast:resign:{game.id}:{fake.alice.id}"}]}]
    ex = await fake.click(fake.alice, confirm, f"stonecast:resign:{game.id}:{fake.alice.id}")
    assert ex.reply.ephemeral and "over" in ex.reply.content.lower() and ex.posts == []
    ex = await fake.slash(fake.alice, "resign", {"game": game.id})
    assert "over" in ex.reply.content.lower()
    # the finished game is still shown by /board, with its result
    ex = await fake.slash(fake.alice, "board", {"game": game.id})
    assert "beats" in ex.reply.content and ex.reply.attachments
    # only the game in the channel without threads is left
    ex = await fake.slash(fake.alice, "games")
    assert f"Io #{game.id}" not in ex.reply.content and f"<#{fake.nothreads}>" in ex.reply.content


async def test_no_thread_permission_falls_back_to_the_channel(fake, harness):
    game, challenge, board = await start_game(fake, harness, "io", fake.alice, fake.bob,
                                              channel=fake.nothreads)
    assert fake.threads() == [] and game.thread_id is None
    assert board.channel_id == fake.nothreads and board.pings == {fake.alice.id}
    ex = await play_move(fake, fake.alice, "c3", game_id=game.id)
    assert board_post(ex).channel_id == fake.nothreads


async def test_rules_and_help(fake, harness):
    for key in engine.GAMES:
        ex = await fake.slash(fake.alice, "rules", {"game": key})
        assert ex.reply.ephemeral and engine.GAMES[key].title in ex.reply.content
        assert ex.reply.png().size[0] >= 600
    ex = await fake.slash(fake.alice, "help")
    assert ex.callback_type == 4 and ex.reply.ephemeral
    [embed] = ex.reply.embeds  # the commands by topic: as one text they pass Discord's 2,000
    assert embed["title"] == texts.HELP_TITLE
    assert [f["name"] for f in embed["fields"]] == [topic for topic, _ in texts.HELP_TOPICS] + [
        texts.COMPUTER_LEVELS_TOPIC]  # then the computer's levels, with their ratings per game
    for level in ai.LEVELS:
        assert f"**Level {level}** — {texts.LEVEL_DESCRIPTIONS[level]}" in embed["fields"][-1]["value"]
    for command, _ in texts.HELP_COMMANDS:  # every command, once
        assert ex.reply.text.count(f"`{command}`") == 1, command
    assert texts.HELP_IN_DM not in ex.reply.text  # that note is for direct messages


async def test_restart_mid_game_and_old_buttons(fake, harness):
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    ex = await fake.slash(fake.alice, "challenge coil", {"opponent": fake.bob})
    [pending] = ex.posts
    ex = await fake.slash(fake.bob, "resign", {"game": game.id})
    confirm = ex.reply
    old_bot = harness.bot
    await harness.restart()
    assert harness.bot is not old_bot and old_bot.is_closed()
    assert len(fake.identifies) == 2
    # the game goes on in its thread
    ex = await fake.autocomplete(fake.bob, "move", {"move": "b"}, focused="move", channel=game.thread_id)
    assert ex.choices
    position = engine.replay("io", {"size": 5}, ["c3"])
    move = next(m for m in position.legal_moves() if m.startswith(ex.choices[0]["value"] + " "))
    ex = await play_move(fake, fake.bob, move, channel=game.thread_id)
    assert board_post(ex).pings == {fake.alice.id}, ex.reply.content
    assert (await harness.manager.get_game(game.id)).ply == 2
    # buttons sent before the restart still work
    ex = await fake.click(fake.bob, pending, pending.custom_ids[0])
    coil_board = board_post(ex)
    assert "Coil" in coil_board.content and pending.components == []
    ex = await fake.click(fake.bob, confirm, confirm.custom_ids[0])
    assert "resigned" in board_post(ex).content
    assert (await harness.manager.get_game(game.id)).reason == "resignation"


async def test_boards_rendered_in_worker_processes(fake, tmp_path):
    from fakediscord.harness import BotHarness

    harness = BotHarness(fake, tmp_path / "procs.db", render_workers=1)
    await harness.start()
    try:
        assert harness.bot.renderer.workers == 1 and harness.bot.renderer._pool is not None
        ex = await fake.slash(fake.alice, "rules", {"game": "io"})
        assert ex.reply.png().size[0] >= 600
        game, _, board = await start_game(fake, harness, "io", fake.alice, fake.bob)
        assert board.png().size[0] >= 600
        ex = await play_move(fake, fake.alice, "c3", channel=game.thread_id)
        assert board_post(ex).png().size == board.png().size
    finally:
        await harness.stop()
    assert harness.bot is None
