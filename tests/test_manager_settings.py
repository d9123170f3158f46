"""Game manager: settings -- the your-turn DM switch.

Every test runs against each backend: a SQLite file and a PostgreSQL database (the
``db`` fixture of conftest.py).
"""

from __future__ import annotations

import random

import pytest
from manager_support import (
    ALICE,
    BOB,
    FakeClock,
)

import engine
from bot.manager import (
    DAY,
    GameManager,
)

HOUR = 3600.0
KIND = "coil"
OPTS = {"size": 5}
TITLE = engine.GAMES[KIND].title


@pytest.fixture
def clock():
    return FakeClock(1_704_067_200.0 + 40 * DAY)  # 2024-02-10 00:00 UTC


@pytest.fixture
async def mgr(db, clock):
    m = await GameManager.open(db("stonecast.db"), clock=clock, rng=random.Random(11))
    yield m
    await m.close()


async def test_notify_is_off_by_default_and_persists(db, clock):
    path = db("n.db")
    m = await GameManager.open(path, clock=clock)
    assert (await m.settings(ALICE)).dm is False
    assert (await m.set_notify(ALICE, True)).dm is True
    await m.set_vacation(ALICE, 3)
    assert (await m.set_notify(ALICE, True)).vacation_until is not None  # keeps the vacation
    await m.close()
    m = await GameManager.open(path, clock=clock)
    try:
        assert (await m.settings(ALICE)).dm is True
        assert (await m.set_notify(ALICE, False)).dm is False
        assert (await m.settings(BOB)).dm is False
    finally:
        await m.close()
