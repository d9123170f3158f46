"""Shared helpers for the manager and store tests (not a test module)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections.abc import Iterator

import pytest

import engine
from bot import texts
from bot.manager import Game, GameManager, UserError


class FakeClock:
    """An injectable clock: ``clock()`` returns ``t``; ``advance(seconds)`` moves it on."""

    def __init__(self, t: float = 1_700_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> float:
        self.t += seconds
        return self.t


GUILD, CHANNEL = 900, 901
ALICE, BOB, CAROL, DAVE = 1001, 1002, 1003, 1004


async def start_game(mgr: GameManager, kind: str, options: dict | None = None, *, a: int = ALICE,
                     b: int = BOB, first: str = "challenger", **kw) -> Game:
    """A game between ``a`` (seat 1 with first="challenger") and ``b`` through a challenge.

    Its first board (queued in the outbox by the accept) is marked delivered, as the bot's
    Accept handler does once it posted it; a manager standing in for one that queued no first
    board (schemas before version 5) leaves nothing to mark."""
    ch = await mgr.create_challenge(guild_id=GUILD, channel_id=CHANNEL, challenger_id=a,
                                    opponent_id=b, kind=kind, options=options, first=first, **kw)
    game = await mgr.accept_challenge(ch.id, b)
    board = await mgr.pending_board(game.id, 0)
    if board is not None:
        await mgr.mark_delivered(board)
    return game


async def play_random(mgr: GameManager, game: Game, rng: random.Random, max_moves: int = 10**6,
                      stop=lambda pos: False) -> Game:
    """Play uniformly random legal moves through the manager until the game ends, ``stop(pos)``
    holds, or ``max_moves`` were played. Returns the game row afterwards."""
    game = await mgr.get_game(game.id)
    for _ in range(max_moves):
        pos = game.position
        if pos.outcome is not None or stop(pos):
            break
        res = await mgr.play_move(game.id, game.to_move_user, pos.random_move(rng))
        game = res.game
    return game


def replay_of(game: Game, moves) -> engine.Position:
    """The engine's replay of a stored move list (plus resignation / timeout)."""
    pos = engine.replay(game.kind, game.options, [m.move for m in moves])
    if game.status == "finished" and game.reason in ("resignation", "timeout"):
        loser = 3 - game.winner
        pos = pos.resign(loser) if game.reason == "resignation" else pos.time_out(loser)
    return pos


def small_options(kind: str) -> dict:
    """The smallest board a game allows (every int option at its minimum), for fast games;
    the defaults when that combination is not valid."""
    spec = engine.GAMES[kind]
    opts = {o.name: o.minimum for o in spec.options if o.type is int and o.minimum is not None}
    try:
        return spec.validate(opts)
    except engine.OptionError:
        return spec.validate({})


class StatementLog:
    """``async with StatementLog(mgr) as log:`` -- every SQL statement the manager's connection
    sends inside the block, in order (:meth:`bot.store.Store.set_trace_callback`), in
    ``log.statements``. ``log.reads(table)`` counts the SELECTs from ``table``."""

    def __init__(self, mgr: GameManager):
        self.conn = mgr.store
        self.statements: list[str] = []

    async def __aenter__(self) -> StatementLog:
        await self.conn.set_trace_callback(self.statements.append)
        return self

    async def __aexit__(self, *exc) -> None:
        await self.conn.set_trace_callback(None)

    def reads(self, table: str) -> int:
        """SELECT statements that read ``table``."""
        return sum(1 for s in self.statements
                   if s.lstrip().upper().startswith("SELECT") and f" FROM {table} " in f"{s} ")


# The small Coil board most manager tests play on, and helpers over it.
KIND = "coil"
OPTS = {"size": 5}


async def game_for(mgr: GameManager, **kw) -> Game:
    """A new accepted Coil (size 5) game between ALICE and BOB (see :func:`start_game`)."""
    return await start_game(mgr, KIND, OPTS, **kw)


async def first_move(mgr: GameManager, game: Game):
    """Play the first legal move of ``game`` for whoever is to move; the MoveResult."""
    game = await mgr.get_game(game.id)
    return await mgr.play_move(game.id, game.to_move_user, next(game.position.legal_moves()))


async def challenge(mgr: GameManager, **kw):
    """ALICE challenges BOB to Coil (size 5) here; ``kw`` overrides any argument."""
    args = dict(guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB, kind=KIND,
                options=OPTS)
    args.update(kw)
    return await mgr.create_challenge(**args)


def pause_inside_move(manager) -> tuple[asyncio.Event, asyncio.Event]:
    """Make ``manager``'s next moves stop inside their transaction (where they read the
    players' settings) until the second event is set; the first is set when one gets there.
    Returns ``(inside, release)``."""
    inside, release = asyncio.Event(), asyncio.Event()
    real = manager.settings_repo.of_users

    async def paused(user_ids):
        inside.set()
        await release.wait()
        return await real(user_ids)

    manager.settings_repo.of_users = paused
    return inside, release


@contextlib.contextmanager
def refused(error: type[UserError], match: str) -> Iterator[pytest.ExceptionInfo[UserError]]:
    """``pytest.raises(error)`` whose refusal, as the player reads it
    (:func:`bot.texts.refusal_text`: the manager's errors carry data, not sentences), matches
    the regular expression ``match``."""
    with pytest.raises(error) as info:
        yield info
    said = texts.refusal_text(info.value)
    assert re.search(match, said), f"{match!r} is not in the refusal {said!r}"


# ---- autocomplete as the cogs ask it: the manager's choices, worded by the front ----------------
async def complete_game(mgr: GameManager, user_id: int, prefix: str, *, include_finished: bool = False,
                        guild_id: int | None = None, name_of=None, limit: int = 25) -> list[tuple[int, str]]:
    """``(game id, label)`` of ``user_id``'s games matching ``prefix``, as /board's ``game:`` shows them."""
    from bot.front import choices

    found = await mgr.complete_game(user_id, include_finished=include_finished, guild_id=guild_id)
    return choices.game_choices(user_id, found, prefix, limit=limit, name_of=name_of)


async def complete_reviewable_game(mgr: GameManager, user_id: int, prefix: str, *, guild_id: int | None = None,
                                   name_of=None) -> list[tuple[int, str]]:
    """``(game id, label)`` of the games /review offers ``user_id`` for ``prefix``."""
    from bot.front import choices

    found = await mgr.complete_reviewable_game(user_id, prefix, guild_id=guild_id)
    return choices.reviewable_game_choices(found, prefix, name_of=name_of)


async def complete_server_game(mgr: GameManager, guild_id: int, prefix: str, *, name_of=None) -> list[tuple[int, str]]:
    """``(game id, label)`` of the games /abort offers in ``guild_id`` for ``prefix``."""
    from bot.front import choices

    return choices.server_game_choices(await mgr.complete_server_game(guild_id), prefix, name_of=name_of)
