"""The turn queue and the daily digest (issue 13): which games wait for a player, most urgent
first (/next), and one direct message a day listing them for players who chose the digest.

The sweep (:meth:`bot.manager.clocks.ClocksService.sweep`) queues each due digest in the
outbox (kind ``"digest"``, anchored on the most urgent game) in the transaction that notes the
day it was sent for, so a digest goes out once a day, also across restarts and processes; its
list is read again when it is delivered, so it shows the games as they are then.
"""

from __future__ import annotations

from datetime import UTC, datetime

from .core import DAY, Service
from .values import Game  # noqa: TC001 - in the signatures

__all__ = ["TurnsService", "utc_day"]


def utc_day(t: float) -> int:
    """Days since 1970-01-01 (UTC) at UNIX time ``t``."""
    return int(t // DAY)


def _utc_hour(t: float) -> int:
    return datetime.fromtimestamp(t, UTC).hour


class TurnsService(Service):
    """/next's queue and the daily digest (queued by the clocks' sweep through
    :meth:`queue_digests`)."""

    async def waiting_games(self, user_id: int, guild_id: int | None = None) -> list[Game]:
        """Games in progress where it is ``user_id``'s move (in ``guild_id`` when given), the
        least time left first (then the oldest game)."""
        return self._waiting(await self.games_repo.active_of(user_id, guild_id), user_id)

    async def queue_digests(self, now: float) -> int:
        """Queue the daily digest of every player whose digest hour (UTC) has come today and
        who has not had today's; a player with no game waiting gets none (the day is noted
        all the same). Each in its own transaction with the note of the day. Returns how many
        were queued."""
        day, hour = utc_day(now), _utc_hour(now)
        queued = 0
        for uid in await self.settings_repo.digests_due(hour, day):
            async with self.store.transaction():
                if await self.settings_repo.mark_digest_day(uid, hour, day) != 1:
                    continue  # another process took it
                waiting = self._waiting(await self.games_repo.active_of(uid), uid)
                if waiting:
                    await self.outbox_repo.add(waiting[0].id, "digest", uid, waiting[0].ply, now)
                    queued += 1
        return queued
