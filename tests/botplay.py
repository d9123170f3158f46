"""Helpers for end-to-end bot tests: start games and play them through the fake Discord."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from fakediscord import FakeDiscord, FakeUser, Msg

_T = TypeVar("_T")

# Small boards so whole games stay short.
SMALL = {
    "coil": {"size": 5},
    "io": {"size": 5},
    "braincoral": {"shape": "limping", "size": 2},
    "branchingcoral": {"shape": "limping", "size": 2, "bonus": "captures"},
    "whirlwind": {"size": 8, "setup": "B"},
}


async def start_game(fake: FakeDiscord, harness, kind: str, challenger: FakeUser, opponent: FakeUser,
                     *, options: dict | None = None, first: str = "me", channel: int | None = None):
    """Challenge, accept; returns (game, challenge message, the first board post)."""
    opts = SMALL[kind] if options is None else options
    ex = await fake.slash(challenger, f"challenge {kind}", {"opponent": opponent, **opts, "first": first},
                          channel=channel)
    assert ex.reply.ephemeral, ex.reply.content
    [challenge_msg] = ex.posts
    accept = next(c for c in challenge_msg.custom_ids if c.startswith("stonecast:accept:"))
    ex = await fake.click(opponent, challenge_msg, accept)
    assert ex.callback_type == 6
    [board] = [m for m in ex.posts if m.guild_id]  # not the your-turn DM, if any
    game_id = int(board.content.split("#", 1)[1].split("*", 1)[0])
    game = await harness.manager.get_game(game_id)
    return game, challenge_msg, board


async def play_move(fake: FakeDiscord, user: FakeUser, move: str, *, game_id: int | None = None,
                    channel: int | None = None):
    """/move as ``user``; returns the exchange."""
    options = {"move": move}
    if game_id is not None:
        options["game"] = game_id
    return await fake.slash(user, "move", options, channel=channel)


def board_post(ex) -> Msg:
    """The one board posted during exchange ``ex`` in the server (asserts it has a PNG); a
    your-turn DM sent with it is left out."""
    [post] = [m for m in ex.posts if m.guild_id]
    assert post.attachments and post.attachments[0].filename.endswith(".png")
    return post


class Clock:
    """An injectable clock (UNIX seconds) for the manager, moved by hand in tests."""

    def __init__(self, t: float = 1_800_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


async def until(check: Callable[[], Awaitable[_T]], what: str, *, timeout: float = 15.0,
                every: float = 0.05) -> _T:
    """Poll ``await check()`` every ``every`` seconds until it is truthy (work the bot or
    another process does in the background) and return that value; fail after ``timeout``
    seconds, saying what was awaited (``what``)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not (found := await check()):
        assert loop.time() < end, f"timed out waiting for {what}"
        await asyncio.sleep(every)
    return found


async def wait_for(predicate: Callable[[], object], timeout: float = 5.0) -> None:
    """Poll ``predicate()`` every 20 ms until it is truthy (work the bot does in the
    background: a post, a log record); fail after ``timeout`` seconds. :func:`until` for a
    plain predicate."""
    async def check() -> object:
        return predicate()
    await until(check, "the condition", timeout=timeout, every=0.02)
