"""The board renderer's worker pool (bot/workers/rendering.py): renders off the loop, survives a dead worker."""

from __future__ import annotations

import io
import os
import sqlite3

import pytest
from fakediscord.fixtures import *  # noqa: F403
from fakediscord.harness import BotHarness
from PIL import Image

import engine
from bot.store import StoreError
from bot.workers.rendering import BoardRenderer


async def test_a_worker_that_dies_does_not_break_every_later_board():
    # A render process killed by the OS (out of memory, a crash in a C library) breaks a
    # ProcessPoolExecutor for good; the renderer must start a fresh pool, not fail forever.
    renderer = BoardRenderer(1)
    renderer.start()
    try:
        pos = engine.new_game("io", size=5).play("c3")
        first = await renderer.render(pos)
        broken = renderer._pool
        broken.submit(os._exit, 1)  # the worker process dies
        png = await renderer.render(pos)
        assert renderer._pool is not broken
        assert Image.open(io.BytesIO(png)).size == Image.open(io.BytesIO(first)).size
        gif = await renderer.render_gif("io", {"size": 5}, ["c3"])
        assert gif[:6] in (b"GIF87a", b"GIF89a")
    finally:
        renderer.close()
    assert renderer._pool is None


async def test_a_refused_start_spawns_no_render_worker(fake, tmp_path):
    # The workers start once the store is open: a database the bot refuses (here one a newer
    # Stonecast wrote) ends the start before any process is spawned.
    db = tmp_path / "newer.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)")
        conn.execute("INSERT INTO alembic_version VALUES ('9999')")
    h = BotHarness(fake, db, render_workers=2)
    with pytest.raises(RuntimeError, match="stopped while starting") as refused:
        await h.start()
    assert isinstance(refused.value.__cause__, StoreError)
    assert h.bot is not None and h.bot.renderer._pool is None
    await h.bot.close()
