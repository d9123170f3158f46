"""Pytest fixtures for end-to-end bot tests. Use with ``from fakediscord.fixtures import *``.

* ``fake`` -- a started :class:`FakeDiscord` with discord.py pointed at it.
* ``harness`` -- a started :class:`BotHarness` (the real bot on a fresh SQLite file, a copy of
  the session's migrated one). At its end it asserts the bot called no unknown route and sent
  nothing Discord refuses (``fake.refusals``, see ``limits.py``) and attached no file without
  a description (``fake.undescribed``, issue 19).
"""

import pytest

from .harness import BotHarness
from .server import FakeDiscord

__all__ = ["fake", "harness"]


@pytest.fixture
async def fake():
    """A started fake Discord with discord.py pointed at it."""
    f = FakeDiscord()
    await f.start()
    restore = f.patch_discord()
    try:
        yield f
    finally:
        restore()
        await f.stop()


@pytest.fixture
async def harness(fake, sqlite_db):
    """The real bot on a fresh database (a copy of the session's SQLite file at the schema's
    head: ``sqlite_db`` of tests/conftest.py), running against ``fake``."""
    h = BotHarness(fake, sqlite_db())
    await h.start()
    try:
        yield h
    finally:
        await h.stop()
    assert not fake.unknown_routes, f"the bot called routes the fake does not know: {fake.unknown_routes}"
    assert not fake.refusals, f"Discord would refuse what the bot sent: {fake.refusals}"
    assert not fake.undescribed, f"attachments without a description (alt text): {fake.undescribed}"
