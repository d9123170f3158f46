"""Keeping a claim alive: the one renewal loop of every lease the manager hands out (outbox
rows taken by a delivery pass, the computer's search or review of a game).

A claim lasts the manager's ``lease`` seconds (:attr:`bot.manager.GameManager.lease`) unless
renewed; work that may run longer renews it every third of that while it runs, so no other
process takes it meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

__all__ = ["renewing"]

log = logging.getLogger(__name__)


@contextlib.asynccontextmanager
async def renewing(renew: Callable[[], Awaitable[object]], lease: float, *, what: str,
                   stop_when_lost: bool = False) -> AsyncIterator[None]:
    """``async with renewing(renew, lease, what=...):`` -- while the body runs, ``await
    renew()`` every ``lease / 3`` seconds (``lease`` in seconds, positive). A failing renewal
    is logged (naming the claim by ``what``, e.g. ``"the move of game 12"``) and tried again
    at the next; with ``stop_when_lost``, a renewal returning a false value (the claim is
    held by another process now) is logged and ends the renewals. The renewing task is
    cancelled when the body ends, however it ends; nothing of it propagates."""

    async def loop() -> None:
        while True:
            await asyncio.sleep(lease / 3)
            try:
                held = await renew()
            except Exception:  # noqa: BLE001 - the next renewal tries again
                log.warning("could not renew the claim on %s", what, exc_info=True)
                continue
            if stop_when_lost and not held:
                log.warning("%s was taken by another process (this one was too slow to renew "
                            "its lease)", what)
                return

    renewer = asyncio.create_task(loop(), name=f"renew the claim on {what}")
    try:
        yield
    finally:
        renewer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await renewer
