"""Issue 20.5: the one lease-renewal helper (:func:`bot.manager.leases.renewing`) that the
outbox delivery and the computer's claims both use."""

from __future__ import annotations

import asyncio
import logging

from bot.manager.leases import renewing

LEASE = 0.03  # seconds: a renewal every 10 ms


async def test_renews_while_the_body_runs_and_stops_after_it():
    calls = []

    async def renew():
        calls.append(1)
        return 1

    async with renewing(renew, LEASE, what="3 outbox rows"):
        while len(calls) < 3:
            await asyncio.sleep(LEASE / 3)
    done = len(calls)
    await asyncio.sleep(LEASE)
    assert done >= 3 and len(calls) == done  # none after the body ended


async def test_a_failing_renewal_is_logged_and_tried_again(caplog):
    calls = []

    async def renew():
        calls.append(1)
        if len(calls) == 1:
            raise OSError("database gone for a moment")
        return True

    with caplog.at_level(logging.WARNING, logger="bot.manager.leases"):
        async with renewing(renew, LEASE, what="the move of game 12", stop_when_lost=True):
            while len(calls) < 3:
                await asyncio.sleep(LEASE / 3)
    assert "could not renew the claim on the move of game 12" in caplog.text


async def test_a_lost_claim_ends_the_renewals_only_when_asked(caplog):
    for stop, at_most in ((True, 1), (False, None)):
        calls = []

        async def renew(calls=calls):
            calls.append(1)
            return False  # held by another process now

        with caplog.at_level(logging.WARNING, logger="bot.manager.leases"):
            async with renewing(renew, LEASE, what="the review of game 7", stop_when_lost=stop):
                await asyncio.sleep(LEASE * 2)
        if at_most:
            assert len(calls) == 1
            assert "the review of game 7 was taken by another process" in caplog.text
        else:
            assert len(calls) >= 2


async def test_an_error_in_the_body_propagates_and_the_renewals_stop():
    calls = []

    async def renew():
        calls.append(1)

    try:
        async with renewing(renew, LEASE, what="x"):
            raise KeyError("the body failed")
    except KeyError:
        pass
    else:  # pragma: no cover
        raise AssertionError("the body's error was swallowed")
    await asyncio.sleep(LEASE)
    assert calls == []
