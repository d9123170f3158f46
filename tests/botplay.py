"""Helpers for end-to-end bot tests: start games and play them through the fake Discord."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from fakediscord import FakeDiscord, FakeUser, Msg

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


async def wait_for(predicate: Callable[[], object], timeout: float = 5.0) -> None:
    """Poll ``predicate()`` every 20 ms until it is truthy (work the bot does in the
    background: a post, a log record); fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, "timed out waiting"
        await asyncio.sleep(0.02)
