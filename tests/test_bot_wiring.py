"""discord.py's own conventions in the bot's wiring (issue 11, item 4): cogs loaded as
extensions, the maintenance loop a ``tasks.Loop`` owned by a cog and ended with it, the Resign
owner checked by the button, no private discord.py attributes."""

import ast
import inspect
import pathlib
import re

from fakediscord.fixtures import *  # noqa: F403

import bot
from bot.front.cogs import EXTENSIONS

BOT_DIR = pathlib.Path(bot.__file__).parent / "front"


async def test_cogs_are_extensions_loaded_by_name(fake, harness):
    assert set(harness.bot.extensions) == set(EXTENSIONS)
    assert {"Challenges", "Play", "History", "Admin", "Players", "Info", "Maintenance"} <= set(harness.bot.cogs)
    for name in EXTENSIONS:
        module = harness.bot.extensions[name]
        assert inspect.iscoroutinefunction(module.setup), name


def test_the_client_imports_no_cog():
    tree = ast.parse((BOT_DIR / "client.py").read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not any(m and (m.startswith("cogs.") or m.startswith("bot.front.cogs.")) for m in imported), imported


async def test_the_maintenance_loop_is_the_cogs_and_ends_with_it(fake, harness):
    loop = harness.maintenance.maintenance
    assert loop.is_running()
    task = loop.get_task()
    await harness.stop()
    assert task.done() and not loop.is_running()


async def test_the_resign_button_turns_away_everyone_but_its_owner(fake, harness):
    from botplay import start_game

    game, _challenge, _board = await start_game(fake, harness, "io", fake.alice, fake.bob)
    ex = await fake.slash(fake.alice, "resign", {"game": game.id})
    [button] = ex.reply.custom_ids
    ex = await fake.click(fake.bob, ex.reply, button)
    assert ex.reply.ephemeral and "belongs to someone else" in ex.reply.content
    assert (await harness.manager.get_game(game.id)).status == "active"


def test_no_private_discord_attributes_are_set_on_callbacks():
    # discord.py's own decorators (app_commands.describe) carry option descriptions
    for path in (BOT_DIR / "cogs").glob("*.py"):
        assert not re.search(r"\.__discord_app_commands", path.read_text()), path


# ---- explicit wiring (issue 20, item 3) ---------------------------------------------------

def test_the_pieces_built_at_start_are_not_there_before_it():
    from bot.config import Config
    from bot.front.client import NotStarted, StonecastBot

    unstarted = StonecastBot(Config(token="t"))
    for piece in ("manager", "announcer", "computer"):
        try:
            getattr(unstarted, piece)
        except NotStarted as e:
            assert "start" in str(e), piece
        else:
            raise AssertionError(f"{piece} before the start")
    unstarted.board_grace = 0.0  # kept for the announcer setup_hook builds
    assert unstarted.board_grace == 0.0


async def test_setup_hook_wires_the_pieces_with_what_each_uses(fake, harness):
    bot_ = harness.bot
    manager = bot_.manager
    assert bot_.announcer.manager is manager and bot_.computer.manager is manager
    assert bot_.announcer.computer is bot_.computer and bot_.announcer.renderer is bot_.renderer
    assert bot_.announcer.outbox.manager is manager and bot_.announcer.threads.manager is manager
    bot_.board_grace = 0.0
    assert bot_.announcer.outbox.board_grace == 0.0
    assert not hasattr(bot_.announcer, "bot") and not hasattr(bot_.computer, "bot")


async def test_cogs_are_found_by_class_and_the_buttons_by_typed_routes(fake, harness):
    from bot.front.cogs.challenges import ChallengesCog
    from bot.front.cogs.play import PlayCog
    from bot.front.cogs.privacy import PrivacyCog
    from bot.front.cogs.turns import TurnsCog

    bot_ = harness.bot
    assert isinstance(bot_.cog(TurnsCog), TurnsCog)
    routes = bot_.buttons
    assert (routes.challenges, routes.play, routes.privacy) == (
        bot_.cog(ChallengesCog), bot_.cog(PlayCog), bot_.cog(PrivacyCog))
    await bot_.unload_extension("bot.front.cogs.play")
    assert routes.play is None
    try:
        bot_.cog(PlayCog)
    except LookupError as e:
        assert "PlayCog" in str(e)
    else:
        raise AssertionError("an unloaded cog was found")
    await bot_.load_extension("bot.front.cogs.play")
    assert routes.play is bot_.cog(PlayCog)
