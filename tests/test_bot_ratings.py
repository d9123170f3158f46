"""End to end (issue 13 "Ratings players trust"): ratings after a few games, days apart,
match Glicko-2 worked out by hand; the final boards, /leaderboard (provisional "?") and
/profile (rating ± deviation) show them."""

import pytest
from botplay import Clock, board_post, play_move, start_game
from fakediscord.fixtures import fake  # noqa: F401
from fakediscord.harness import BotHarness
from glicko_by_hand import NEW, game, grown

DAY = 86400.0


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def harness(fake, tmp_path, clock):  # noqa: F811
    h = BotHarness(fake, tmp_path / "ratings.db", clock=clock)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()
    assert not fake.unknown_routes


async def resign(fake, user, game_id):  # noqa: F811
    ex = await fake.slash(user, "resign", {"game": game_id})
    return board_post(await fake.click(user, ex.reply, ex.reply.custom_ids[0]))


async def test_three_games_rated_as_by_hand(fake, harness, clock):  # noqa: F811
    alice, bob = NEW, NEW
    # alice wins, bob wins two days later, alice wins again five days after that
    for days, loser in ((0, "bob"), (2, "alice"), (5, "bob")):
        if days:
            clock.t += days * DAY
            alice = (alice[0], grown(alice[1], alice[2], days), alice[2])
            bob = (bob[0], grown(bob[1], bob[2], days), bob[2])
        g, _, _ = await start_game(fake, harness, "coil", fake.alice, fake.bob)  # alice is seat 1
        await play_move(fake, fake.alice, "a1", game_id=g.id)
        before = (alice[0], bob[0])
        alice, bob = game(alice, bob, 2 if loser == "alice" else 1)
        final = await resign(fake, getattr(fake, loser), g.id)
        for who, b, a in ((fake.alice, before[0], alice[0]), (fake.bob, before[1], bob[0])):
            delta = f"{round(a) - round(b):+d}".replace("-", "−")
            assert f"<@{who.id}> {round(b)} → {round(a)} ({delta})" in final.content
    ex = await fake.slash(fake.bob, "leaderboard", {"game": "coil"})
    lines = ex.reply.content.splitlines()
    assert "provisional" in lines[0]
    assert lines[1] == f"1. <@{fake.alice.id}> — **{round(alice[0])}?** (3 rated games)"
    assert lines[2] == f"2. <@{fake.bob.id}> — **{round(bob[0])}?** (3 rated games)"
    ex = await fake.slash(fake.bob, "profile", {})
    assert f"rating **{round(bob[0])}? ± {round(bob[1])}** (3 rated)" in ex.reply.content
    # a week later the deviation shown has grown with the absence
    clock.t += 7 * DAY
    ex = await fake.slash(fake.bob, "profile", {})
    assert f"± {round(grown(bob[1], bob[2], 7))}**" in ex.reply.content
