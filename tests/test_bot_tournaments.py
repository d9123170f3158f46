"""End to end (issue 21): tournaments through the real discord.py client and the fake Discord.

A 4-player round robin from /tournament create to the final standings -- its 6 games of 3
rounds started at once, the Join button taken off the announcement at the start -- with the
issue's "Bad input" refusals on the way (each private, changing nothing), a player with
closed DMs among the four; and a 6-player, 3-round Swiss, its rounds paired as the last game of the
previous one ends. Games are short: Brain Coral on the smallest board, played to the end or
resigned.
"""

from __future__ import annotations

import random
import shutil

from botplay import SMALL, play_move, until
from fakediscord.fixtures import *  # noqa: F403
from fakediscord.harness import BotHarness

import engine
from bot import texts
from bot.manager import Refusal, UserError

KIND = "braincoral"


def refusal(reason: Refusal, **values) -> str:
    """The private answer a refusal gets."""
    return texts.refusal_text(UserError(reason, **values))


async def refused(fake, user, command: str, options: dict, expected: str | None = None, *,
                  contains: str | None = None):
    """Run ``/tournament <command>`` as ``user``; assert it is answered privately (with
    ``expected``, or text containing ``contains``) and posts nothing."""
    ex = await fake.slash(user, f"tournament {command}", options)
    assert ex.reply.ephemeral, ex.reply.content
    if expected is not None:
        assert ex.reply.content == expected, ex.reply.content
    if contains is not None:
        assert contains in ex.reply.content, ex.reply.content
    assert ex.posts == [], [m.content for m in ex.posts]
    return ex


async def round_games(harness, fake, tid: int, round_no: int) -> list:
    """The games of round ``round_no``, once each has its thread and first board."""
    async def ready():
        info = await harness.manager.tournament_info(tid, guild_id=fake.guild_id)
        games = [await harness.manager.get_game(p.game_id) for p in info.pairings
                 if p.game_id is not None and p.round == round_no]
        if not games or not all(g.thread_id and fake.channel_log.get(g.thread_id) for g in games):
            return None
        if not any(f"— round {round_no}" in m.content for m in channel_posts(fake)):
            return None
        return games

    return await until(ready, f"round {round_no}'s games")


async def play_out(fake, harness, game, rng: random.Random, *, resign: bool = False) -> None:
    """Play ``game`` to its end through /move (random moves), or resign it at once."""
    if resign:
        user = fake.users[game.players[game.position.to_move]]
        ex = await fake.slash(user, "resign", {"game": game.id})
        await fake.click(user, ex.reply, ex.reply.custom_ids[0])
        return
    position = game.position
    while position.outcome is None:
        user = fake.users[game.players[position.to_move]]
        move = position.random_move(rng)
        position = position.play(move)
        ex = await play_move(fake, user, move.upper(), game_id=game.id)
        assert ex.reply.ephemeral and f"`{move}`" in ex.reply.content, ex.reply.content


async def _posts_with(fake, words: str) -> list:
    return [m for m in channel_posts(fake) if words in m.content]


def channel_posts(fake) -> list:
    """The bot's posts in #general (not in threads), oldest first."""
    return [m for m in fake.channel_log.get(fake.general, []) if m.source == "channel"]


async def test_a_round_robin_from_sign_up_to_final_standings(fake, harness):
    dave, eve = fake.add_user("dave"), fake.add_user("eve")
    players = [fake.alice, fake.bob, fake.carol, dave]  # carol's DMs are closed
    name = "Spring Coral Cup"
    create = {"name": name, "game": KIND, "format": "round_robin", **SMALL[KIND],
              "min_players": 4, "max_players": 4}
    # ---- creating: organisers only, a name that fits, not taken
    await refused(fake, fake.alice, "create", create, contains="organis")
    await refused(fake, fake.mod, "create", {**create, "name": "x" * 33},
                  refusal(Refusal.TOURNAMENT_NAME_LENGTH, most=32))
    ex = await fake.slash(fake.mod, "tournament create", create)
    assert ex.reply.ephemeral and name in ex.reply.content, ex.reply.content
    await fake.quiet(0.3)
    [announcement] = [m for m in channel_posts(fake) if name in m.content]
    assert announcement.custom_ids and announcement.custom_ids[0].startswith("stonecast:join:")
    tid = int(announcement.custom_ids[0].rsplit(":", 1)[1])
    await refused(fake, fake.mod, "create", {**create, "name": name.upper()},
                  refusal(Refusal.TOURNAMENT_NAME_TAKEN, name=name.upper()))
    # ---- joining: the button and the command; twice, full
    ex = await fake.click(fake.alice, announcement, announcement.custom_ids[0])
    assert ex.reply.ephemeral and name in ex.reply.content
    ex = await fake.click(fake.alice, announcement, announcement.custom_ids[0])
    assert ex.reply.ephemeral and "already" in ex.reply.content
    for user in (fake.bob, fake.carol, dave):
        ex = await fake.slash(user, "tournament join", {"name": f"#{tid}"})
        assert ex.reply.ephemeral and "You are in" in ex.reply.content, ex.reply.content
    await refused(fake, fake.bob, "join", {"name": name}, contains="already")
    await refused(fake, eve, "join", {"name": name}, contains="full")
    # the name's suggestions: this server's tournaments
    ex = await fake.autocomplete(fake.alice, "tournament info", {"name": "spring"}, focused="name")
    assert [c["value"] for c in ex.choices] == [f"#{tid}"]
    ex = await fake.slash(fake.alice, "tournament info", {"name": name})
    assert all(f"<@{u.id}>" in ex.reply.content for u in players)
    # ---- managing: the organiser only
    await refused(fake, fake.alice, "start", {"name": name}, contains="organis")
    await refused(fake, fake.alice, "cancel", {"name": name}, contains="organis")
    ex = await fake.slash(fake.mod, "tournament start", {"name": name})
    assert ex.reply.ephemeral and "all 3 rounds at once, 6 games" in ex.reply.content, ex.reply.content
    # ---- sign-up is over: the announcement loses its Join button (its words stay)
    async def button_gone():
        return fake.messages[announcement.id].components == []
    await until(button_gone, "the Join button to go")
    await fake.quiet(0.5)  # the rounds' posts
    assert fake.messages[announcement.id].content == announcement.content
    await refused(fake, eve, "join", {"name": name}, contains="over")

    # ---- all 6 games of the 3 rounds start at once, each in a thread named with its round
    by_round = {round_no: await round_games(harness, fake, tid, round_no) for round_no in (1, 2, 3)}
    for round_no, games in by_round.items():
        assert len(games) == 2 and all(g.status == "active" for g in games), (round_no, games)
        for game in games:
            thread = fake.channels[game.thread_id]
            assert thread["name"].startswith(f"{name} R{round_no} · "), thread["name"]
            first = fake.channel_log[game.thread_id][0]
            assert "#" in first.content and first.attachments, "the first board is in the thread"
        [pairings] = [m for m in channel_posts(fake) if f"— round {round_no} of 3" in m.content]
        assert all(f"<#{g.thread_id}>" in pairings.content for g in games), "the pairings link the threads"
    # ---- played in any order: round 3 first; the standings count each game as it ends
    rng = random.Random(5)
    for game in by_round[3]:
        await play_out(fake, harness, game, rng)
    ex = await fake.slash(fake.bob, "tournament standings", {"name": name})
    assert ex.reply.ephemeral and "standings so far" in ex.reply.content, ex.reply.content
    view = await harness.manager.tournament_standings(tid, guild_id=fake.guild_id)
    assert sum(r.points for r in view.rows) == 2 and sum(r.left for r in view.rows) == 8
    for i, game in enumerate(by_round[1] + by_round[2]):
        await play_out(fake, harness, game, rng, resign=(i == 2))
    assert not any("standings after round" in m.content for m in channel_posts(fake))
    # the last game's end advanced the tournament at once: its final standings
    final = await until(lambda: _posts_with(fake, "is over"), "the final standings")
    t = await harness.manager.get_tournament(tid, guild_id=fake.guild_id)
    assert t.status == "finished"
    assert len(final) == 1 and final[0].attachments, "the final standings, with their picture"
    view = await harness.manager.tournament_standings(tid, guild_id=fake.guild_id)
    assert f"<@{view.rows[0].user_id}>" in final[0].content.split("\n")[0], "the winner is named"
    assert final[0].png().size[0] == 1100
    # carol (DMs closed) played every round: her games and the channel's posts reached her
    carol_games = await harness.manager.my_tournament_games(tid, fake.carol.id, guild_id=fake.guild_id)
    assert len([g for g in carol_games if g.game is not None]) == 3
    ex = await fake.slash(fake.carol, "tournament mine", {"name": name})
    assert ex.reply.ephemeral and ex.reply.content.count("Round ") == 3
    ex = await fake.slash(fake.bob, "tournament standings", {"name": name})
    assert ex.reply.ephemeral and ex.reply.attachments and "final standings" in ex.reply.content
    assert engine.GAMES[KIND].title in announcement.content


async def test_a_six_player_swiss_pairs_each_round_as_the_last_game_ends(fake, tmp_path, sqlite_template):
    """The server's organiser role lets a member without Manage Server organise; 3 rounds
    of 3 games; each round is paired (no rematch) once the last game of the one before
    ended; standings after each round with Buchholz tie-breaks; the final standings name the
    winner."""
    organisers = fake.add_role("Organisers")  # before the bot connects: its server lists it
    others = [fake.add_user(n) for n in ("dave", "eve", "frank")]
    others[0].roles.append(organisers)
    shutil.copyfile(sqlite_template, tmp_path / "stonecast.db")
    harness = BotHarness(fake, tmp_path / "stonecast.db")
    await harness.start()
    try:
        await _swiss(fake, harness, organisers, others)
    finally:
        await harness.stop()
    assert not fake.refusals and not fake.unknown_routes and not fake.undescribed


async def _swiss(fake, harness, organisers: int, others: list) -> None:
    players = [fake.alice, fake.bob, fake.carol, *others]
    dave = others[0]
    name = "Autumn Swiss"
    options = {"name": name, "game": KIND, "format": "swiss", "rounds": 3, **SMALL[KIND], "max_players": 6,
               "rated": False}
    await refused(fake, dave, "create", options, contains="organis")
    await refused(fake, fake.alice, "role", {"role": organisers}, texts.ORGANISER_ROLE_NEEDS_MANAGE)
    ex = await fake.slash(fake.mod, "tournament role", {"role": organisers})
    assert ex.reply.ephemeral and f"<@&{organisers}>" in ex.reply.content
    # a tournament cancelled in sign-up: its announcement loses the Join button
    ex = await fake.slash(dave, "tournament create", {**options, "name": "Called Off"})
    assert ex.reply.ephemeral, ex.reply.content
    [called_off] = await until(lambda: _posts_with(fake, "**Called Off** — a tournament"), "the announcement")
    assert called_off.custom_ids
    ex = await fake.slash(dave, "tournament cancel", {"name": "Called Off"})
    assert ex.reply.ephemeral, ex.reply.content
    await until(lambda: _posts_with(fake, "**Called Off** is cancelled"), "the cancellation")
    assert fake.messages[called_off.id].components == []
    ex = await fake.slash(dave, "tournament create", options)
    assert ex.reply.ephemeral, ex.reply.content
    for user in players:
        ex = await fake.slash(user, "tournament join", {"name": name})
        assert "You are in" in ex.reply.content, ex.reply.content
    tid = (await harness.manager.get_tournament(name, guild_id=fake.guild_id)).id
    ex = await fake.slash(dave, "tournament start", {"name": name})
    assert "round 1" in ex.reply.content, ex.reply.content
    rng = random.Random(11)
    met: set[frozenset[int]] = set()
    for round_no in (1, 2, 3):
        games = await round_games(harness, fake, tid, round_no)
        assert len(games) == 3
        for g in games:
            pair = frozenset(g.players.values())
            assert pair not in met, "no rematch"
            met.add(pair)
            assert fake.channels[g.thread_id]["name"].startswith(f"{name} R{round_no} · ")
        # one game played out, the others resigned: the last to end pairs the next round
        for i, game in enumerate(games):
            await play_out(fake, harness, game, rng, resign=i > 0)
    final = await until(lambda: _posts_with(fake, "is over"), "the final standings")
    view = await harness.manager.tournament_standings(tid, guild_id=fake.guild_id)
    assert view.finished and len(view.rows) == 6
    assert [key for key, _ in view.rows[0].tiebreaks][:2] == ["buchholz", "median_buchholz"]
    assert f"<@{view.rows[0].user_id}>" in final[0].content.split("\n")[0]
    for round_no in (1, 2):
        [post] = await _posts_with(fake, f"standings after round {round_no}")
        assert " · Buch " in post.content and " · Med " in post.content and post.attachments
    assert sum(r.points for r in view.rows) == 9  # 9 games, each worth 1
