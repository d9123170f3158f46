"""Shared helpers for the tournament tests at the manager level (not a test module)."""

from __future__ import annotations

import random

from manager_support import CHANNEL, GUILD, play_random

from bot.manager import GameManager

KIND, OPTS = "braincoral", {"shape": "limping", "size": 2}  # 8 plies: short games
PLAYERS = tuple(range(2001, 2033))  # user ids
ORGANISER = 2000


async def create(mgr: GameManager, name: str = "Winter Cup", *, players: int = 0, **kw) -> int:
    """A tournament in sign-up made by ORGANISER (allowed) with the first ``players`` of
    PLAYERS joined; its id."""
    kw.setdefault("kind", KIND)
    kw.setdefault("options", OPTS)
    t = await mgr.create_tournament(guild_id=GUILD, channel_id=CHANNEL, organiser_id=ORGANISER,
                                    may_organise=True, name=name, **kw)
    for uid in PLAYERS[:players]:
        await mgr.join_tournament(t.id, uid, guild_id=GUILD)
    return t.id


async def round_games(mgr: GameManager, tid: int):
    """The running games of the tournament's current round."""
    info = await mgr.tournament_info(tid, guild_id=GUILD)
    games = [await mgr.get_game(p.game_id) for p in info.pairings if p.game_id is not None]
    return [g for g in games if g.status == "active"]


async def finish_round(mgr: GameManager, tid: int, rng: random.Random, *, resign_every: int = 2) -> None:
    """End every running game of the current round: most played to the end with random moves
    through the manager, every ``resign_every``-th by a resignation of seat 2."""
    for k, game in enumerate(await round_games(mgr, tid)):
        if resign_every and k % resign_every == 1:
            await mgr.resign(game.id, game.players[2])
        else:
            await play_random(mgr, game, rng)


async def play_out(mgr: GameManager, tid: int, rng: random.Random, *, most_rounds: int = 40) -> list:
    """Finish rounds and advance until the tournament is over; every advance step."""
    steps = []
    for _ in range(most_rounds):
        t = await mgr.get_tournament(tid, guild_id=GUILD)
        if t.status != "running":
            break
        await finish_round(mgr, tid, rng)
        steps += await mgr.advance()
    return steps


async def post_kinds(mgr: GameManager, tid: int) -> list[tuple[str, int]]:
    """(kind, round) of every post the tournament queued, in order."""
    rows = await mgr.services.tournaments.tournaments_repo.posts(tid)
    return [(r["kind"], r["round"]) for r in rows]
