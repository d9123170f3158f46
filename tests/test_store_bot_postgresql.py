"""The bot on PostgreSQL (issue 14): ``STONECAST_DB`` as a URL, a whole game through the fake
Discord on a PostgreSQL database (across a restart), two ``python -m bot`` processes on one
database (no SQLite file lock), and ``python -m bot backup`` pointing to ``pg_dump``."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from pathlib import Path

import pytest
from botplay import SMALL, board_post, play_move
from fakediscord.fixtures import *  # noqa: F403
from fakediscord.harness import BotHarness
from test_bot_main import ROOT, _env, _run

import engine
from bot.config import Config, ConfigError, db_target_from_env


def test_stonecast_db_takes_a_path_or_a_postgresql_url():
    url = "postgresql://stonecast:secret@db.example.org:5432/stonecast"
    c = Config.from_env({"DISCORD_TOKEN": "abc", "STONECAST_DB": f" {url} "})
    assert c.db_path == url and c.uses_postgresql
    assert db_target_from_env({"STONECAST_DB": "postgres://h/db"}) == "postgres://h/db"
    c = Config.from_env({"DISCORD_TOKEN": "abc", "STONECAST_DB": "/x/y.db"})
    assert c.db_path == Path("/x/y.db") and not c.uses_postgresql
    with pytest.raises(ConfigError, match="a SQLite file path or a postgresql:// URL, not a mysql:// URL"):
        db_target_from_env({"STONECAST_DB": "mysql://h/db"})


def test_backup_of_a_postgresql_database_points_to_pg_dump():
    r = subprocess.run([sys.executable, "-m", "bot", "backup", "out.db"], cwd=ROOT,
                       env=_env(STONECAST_DB="postgresql://u:p@127.0.0.1:9/none"),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    [line] = r.stderr.strip().splitlines()
    assert line.startswith("stonecast: STONECAST_DB is a PostgreSQL database: back it up with pg_dump")
    assert not (ROOT / "out.db").exists()


async def test_a_whole_game_through_the_fake_discord_on_postgresql(fake, pg_server):
    url = pg_server.create()
    harness = BotHarness(fake, url)
    await harness.start()
    try:
        assert harness.manager.store.dialect == "postgresql"
        alice, bob, kind = fake.alice, fake.bob, "coil"
        ex = await fake.slash(alice, f"challenge {kind}", {"opponent": bob, **SMALL[kind], "first": "me"})
        [challenge] = ex.posts
        cid = challenge.custom_ids[0].rsplit(":", 1)[1]
        ex = await fake.click(bob, challenge, f"stonecast:accept:{cid}")
        first = board_post(ex)
        game = await harness.manager.get_game(int(first.attachments[0].filename.split("-")[1]))
        assert game.players == {1: alice.id, 2: bob.id} and game.thread_id == challenge.id
        position = engine.new_game(kind, **SMALL[kind])
        rng = random.Random(5)
        moves = 0
        while position.outcome is None:
            user = fake.users[game.players[position.to_move]]
            move = position.random_move(rng)
            position = position.play(move)
            ex = await play_move(fake, user, move, channel=game.thread_id)
            moves += 1
            assert f"`{move}`" in ex.reply.content, ex.reply.content
            assert f"played `{move}`" in board_post(ex).content
            if moves == 3:  # a restart on the same database: the game goes on
                await harness.restart()
        game = await harness.manager.get_game(game.id)
        assert game.status == "finished" and game.ply == moves == position.ply
        assert game.winner == position.outcome.winner
        assert engine.from_text(game.position_text) == position
        assert await harness.manager.pending_announcements(board_grace=0) == []
    finally:
        await harness.stop()
    assert not fake.unknown_routes


async def test_two_processes_run_on_one_postgresql_database(fake, pg_server):
    env = _env(DISCORD_TOKEN=fake.token, STONECAST_DB=pg_server.create(),
               STONECAST_GUILD=str(fake.guild_id), STONECAST_API_URL=f"{fake.base_url}/api/v10")
    both = lambda: len(fake.identifies) >= 2  # noqa: E731
    results = await asyncio.gather(_run(env, until=both, timeout=60), _run(env, until=both, timeout=60))
    for rc, _out, err in results:
        assert rc == 0 and "Traceback" not in err, err
    assert len(fake.identifies) == 2
