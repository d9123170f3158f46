"""End to end: one server's games stay in that server (issue 18, finding 2).

Games are set up in the first server; then every command that names a game, every
autocomplete of those commands and every persistent button is sent at them from a second
server -- by their own players and by a stranger -- and from a DM by someone who plays none
of them (commands Discord keeps out of DMs are forged there, as a hostile client could). Each
must answer with the one refusal a number naming no game gets (``texts.no_such_game``;
``texts.NO_SUCH_CHALLENGE`` for challenges), privately, with nothing about the game (no
player's name, no post anywhere), and change nothing in the database.

The lists come from the bot itself: the commands synced to Discord that have an integer
``game`` option, and the button templates registered with discord.py. A command or button
added later without a case here fails the test by name. One bot serves every case.
"""

from __future__ import annotations

import re
import sqlite3

from botplay import play_move, start_game
from fakediscord.fixtures import *  # noqa: F403
from fakediscord.harness import BotHarness
from fakediscord.server import Msg, snowflake

from bot import texts
from bot.manager import Refusal, UserError

TOURNAMENT = "Isolation Cup"
NO_TOURNAMENT = Refusal.NO_SUCH_TOURNAMENT

OPT_SUB_COMMAND, OPT_GROUP, OPT_INTEGER = 1, 2, 4

# command -> (the game it names: "active" or "done", the other options it needs, who sends it)
# "players": sent by a player of the game (Alice) and by a stranger; "mod": by the moderator.
COMMAND_CASES = {
    "move": ("active", {"move": "c3"}, "players"),
    "resign": ("active", {}, "players"),
    "board": ("active", {}, "players"),
    "history": ("done", {}, "players"),
    "review": ("done", {}, "players"),
    "abort": ("active", {}, "mod"),
    "conditional add": ("active", {"line": "c3; d4"}, "players"),
    "conditional list": ("active", {}, "players"),
    "conditional clear": ("active", {}, "players"),
    "analyze": ("done", {}, "players"),
    "note": ("done", {"text": "a note"}, "players"),
}

# button -> (what it names, the custom id of a press by ``user``: owned buttons carry the
# presser's own id, as a forger would); every registered template must match one of them
BUTTON_CASES = {
    "accept": ("open challenge", lambda s, u: f"stonecast:accept:{s.open_challenge}"),
    "decline": ("challenge", lambda s, u: f"stonecast:decline:{s.challenge}"),
    "cancel": ("challenge", lambda s, u: f"stonecast:cancel:{s.challenge}"),
    "resign": ("active", lambda s, u: f"stonecast:resign:{s.active}:{u.id}"),
    "rematch": ("done", lambda s, u: f"stonecast:rematch:{s.done}"),
    "confirm": ("active", lambda s, u: f"stonecast:confirm:{s.active}:{s.active_ply}:{u.id}:c3"),
    "cancelmove": ("active", lambda s, u: f"stonecast:cancelmove:{s.active}:{u.id}"),
    "next": ("active", lambda s, u: f"stonecast:next:{u.id}:{s.active}"),
}
# buttons that name no game or challenge (a press by ``user``), and what guards them instead:
# /privacy delete's button acts on its owner's data in every server, and refuses anyone else
# (tests/test_bot_privacy.py presses another's)
NOT_GAME_BUTTONS = {
    "forget": lambda u: f"stonecast:forget:{u.id}",
    # an analysis board's buttons name the board and its owner, who alone may press them
    # (tests/test_bot_analysis.py presses another's); the board's game was checked when opened
    "analysis": lambda u: f"stonecast:analysis:next:1:{u.id}",
}
# buttons that name a tournament (issue 21): another server's is not there at all
TOURNAMENT_BUTTONS = {
    "join": lambda s: f"stonecast:join:{s.tournament}",
}
OPT_STRING, OPT_USER = 3, 6


class Setup:
    """The ids of what the first server holds."""

    active: int  # Io, Alice (to move) vs Bob
    active_ply: int
    done: int  # Io, one move, resigned by Bob
    open_challenge: int  # Alice's, to anyone
    challenge: int  # Alice's, to Bob
    tournament: int  # the moderator's, in sign-up, Alice in it


def game_commands(fake) -> dict[str, list[dict]]:
    """Every synced command (``"conditional add"`` for a subcommand) with an integer option
    named ``game``, with its options."""
    found: dict[str, list[dict]] = {}

    def walk(name: str, options: list[dict]) -> None:
        for o in options:
            if o["type"] in (OPT_SUB_COMMAND, OPT_GROUP):
                walk(f"{name} {o['name']}", o.get("options") or [])
        if any(o["name"] == "game" and o["type"] == OPT_INTEGER for o in options):
            found[name] = options

    for cmd in fake.guild_commands.get(fake.guild_id, []) + fake.global_commands:
        if cmd.get("type", 1) == 1:
            walk(cmd["name"], cmd.get("options") or [])
    return found


def tournament_commands(fake) -> dict[str, list[dict]]:
    """Every /tournament subcommand with a string option ``name`` naming a tournament (all
    but ``create``, whose ``name`` is the new one's), with its options."""
    found = {}
    for cmd in fake.guild_commands.get(fake.guild_id, []) + fake.global_commands:
        if cmd["name"] == "tournament":
            for sub in (o for o in cmd.get("options") or [] if o["name"] != "create"):
                if any(o["name"] == "name" and o["type"] == OPT_STRING for o in sub.get("options") or []):
                    found[sub["name"]] = sub["options"]
    return found


def refusal_text(reason: Refusal, **values) -> str:
    return texts.refusal_text(UserError(reason, **values))


def button_templates(bot) -> list[re.Pattern]:
    """The custom id template of every persistent button registered with discord.py."""
    return list(bot._connection._view_store._dynamic_items)  # discord.py keeps them there


def snapshot(path) -> list[str]:
    """The database's rows as SQL, but what the bot notes of whoever it sees: display names
    and the Discord locale (issue 22)."""
    with sqlite3.connect(path) as con:
        return [line for line in con.iterdump() if '"player_names"' not in line and '"seen_locales"' not in line]


def forged_message(fake, channel_id: int, custom_id: str) -> Msg:
    """A bot message in ``channel_id`` carrying a button with ``custom_id`` (from another
    server's game), as a forged interaction would present it."""
    channel = fake.channels[channel_id]
    msg = Msg(id=snowflake(), channel_id=channel_id,
              guild_id=int(channel["guild_id"]) if channel.get("guild_id") else None,
              author=fake.bot_user, content="a button",
              components=[{"type": 1, "components": [
                  {"type": 2, "style": 1, "label": "Press", "custom_id": custom_id}]}])
    fake.messages[msg.id] = msg
    fake.channel_log.setdefault(channel_id, []).append(msg)
    return msg


async def forged(fake, user, type_: int, command: str, options: dict, channel: int, *,
                 focused: str | None = None):
    """A command (type 2) or autocomplete (type 4) interaction sent from ``channel`` even
    where Discord would not offer the command (a server command in a DM)."""
    ex = fake._new_exchange(user, type_, channel)
    data = fake._command_data(command, options, focused)
    return await fake._run(ex, fake._interaction_payload(ex, user, channel, data, None), None)


def leaks(text: str, fake, game_ids) -> list[str]:
    """What ``text`` tells of the first server's games: a player's name or mention, a label."""
    found = []
    for user in (fake.alice, fake.bob):
        for shown in (user.name, user.name.title(), f"<@{user.id}>"):
            if shown in text:
                found.append(shown)
    found += [f"#{gid}" for gid in game_ids if re.search(rf"#{gid}\b", text)]
    return found


async def test_no_command_button_or_suggestion_reaches_another_servers_game(fake, tmp_path):
    other_guild, other_channel = fake.add_guild("second")
    harness = BotHarness(fake, tmp_path / "stonecast.db")
    await harness.start()
    try:
        await _check_isolation(fake, harness, other_guild, other_channel, tmp_path / "stonecast.db")
    finally:
        await harness.stop()


async def _check_isolation(fake, harness, other_guild, other_channel, db) -> None:
    s = Setup()
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    s.active, s.active_ply = game.id, game.ply
    done, _, _ = await start_game(fake, harness, "io", fake.bob, fake.alice)
    await play_move(fake, fake.bob, "c3", game_id=done.id)
    ex = await fake.slash(fake.alice, "resign", {"game": done.id})
    await fake.click(fake.alice, ex.reply, ex.reply.custom_ids[0])
    assert (await harness.manager.get_game(done.id)).status == "finished"
    s.done = done.id
    ex = await fake.slash(fake.alice, "challenge coil", {"size": 5})
    [msg] = ex.posts
    s.open_challenge = int(msg.custom_ids[0].rsplit(":", 1)[1])
    ex = await fake.slash(fake.alice, "challenge whirlwind", {"opponent": fake.bob})
    [msg] = ex.posts
    s.challenge = int(msg.custom_ids[0].rsplit(":", 1)[1])
    await fake.slash(fake.mod, "tournament create", {"name": TOURNAMENT, "game": "io", "format": "swiss"})
    ex = await fake.slash(fake.alice, "tournament join", {"name": TOURNAMENT})
    assert ex.reply.ephemeral and "You are in" in ex.reply.content, ex.reply.content
    [t] = await harness.manager.tournaments(fake.guild_id)
    s.tournament = t.id
    ids = {"active": s.active, "done": s.done}
    game_ids = (s.active, s.done)
    dm = fake.dm_channel_for(fake.carol)  # Carol plays none of them
    problems: list[str] = []

    def refusal_for(target: str) -> str:
        return texts.no_such_game(ids[target]) if target in ids else texts.NO_SUCH_CHALLENGE

    def check(what: str, ex, expected: str, before: list[str], message: Msg | None = None) -> None:
        try:
            reply = ex.reply
        except AssertionError:
            problems.append(f"{what}: no reply")
            return
        if reply.content != expected:
            problems.append(f"{what}: answered {reply.content!r}")
        if not reply.ephemeral:
            problems.append(f"{what}: the answer is public")
        told = leaks(reply.text, fake, game_ids)
        if told:
            problems.append(f"{what}: the answer shows {told}")
        if ex.posts:
            problems.append(f"{what}: posted {[m.content for m in ex.posts]}")
        if message is not None and message.edits:
            problems.append(f"{what}: edited the message it was pressed on")
        if snapshot(db) != before:
            problems.append(f"{what}: changed the database")

    # ---- every command with a game: option, from the other server and from a DM ----
    commands = game_commands(fake)
    uncovered = set(commands) - set(COMMAND_CASES)
    assert not uncovered, f"commands naming a game with no isolation case here: {sorted(uncovered)}"
    assert set(COMMAND_CASES) <= set(commands), "a case for a command that no longer exists"
    for name, (target, extra, senders) in COMMAND_CASES.items():
        options = {"game": ids[target], **extra}
        users = [fake.mod] if senders == "mod" else [fake.alice, fake.carol]
        for user in users:
            before = snapshot(db)
            ex = await fake.slash(user, name, options, channel=other_channel)
            check(f"/{name} by {user.name} in the other server", ex, refusal_for(target), before)
        before = snapshot(db)
        ex = await forged(fake, fake.carol if senders != "mod" else fake.mod, 2, name, options, dm)
        check(f"/{name} forged in a DM", ex, refusal_for(target), before)

    # ---- every suggestion of those commands: nothing of the first server's games ----
    for name, schema in commands.items():
        target = COMMAND_CASES[name][0]
        for opt in (o for o in schema if o.get("autocomplete")):
            typed = {"game": str(ids[target])} if opt["name"] == "game" else {"game": ids[target], opt["name"]: ""}
            for user, channel in ((fake.alice, other_channel), (fake.mod, other_channel), (fake.carol, dm)):
                ex = await forged(fake, user, 4, name, typed, channel, focused=opt["name"])
                shown = [(c["name"], c["value"]) for c in ex.choices or []]
                told = [c for c in shown if c[1] in game_ids or leaks(c[0], fake, game_ids)]
                if told:
                    problems.append(f"/{name} {opt['name']}: suggested {told} to {user.name}")

    # ---- every persistent button, pressed in the other server and in a DM ----
    templates = button_templates(harness.bot)
    uncovered = [t.pattern for t in templates
                 if not any(t.fullmatch(make(s, fake.alice)) for _, make in BUTTON_CASES.values())
                 and not any(t.fullmatch(make(fake.alice)) for make in NOT_GAME_BUTTONS.values())
                 and not any(t.fullmatch(make(s)) for make in TOURNAMENT_BUTTONS.values())]
    assert not uncovered, f"buttons with no isolation case here: {uncovered}"
    for action, (target, custom_id) in BUTTON_CASES.items():
        assert any(t.fullmatch(custom_id(s, fake.alice)) for t in templates), f"no button {action!r}"
        expected = texts.no_such_game(ids[target]) if target in ids else texts.NO_SUCH_CHALLENGE
        for user, channel in ((fake.alice, other_channel), (fake.bob, other_channel),
                              (fake.carol, other_channel), (fake.carol, dm)):
            cid = custom_id(s, user)
            msg = forged_message(fake, channel, cid)
            before = snapshot(db)
            ex = await fake.click(user, msg, cid)
            where = "a DM" if channel == dm else "the other server"
            check(f"button {cid} pressed by {user.name} in {where}", ex, expected, before, msg)

    # ---- tournaments (issue 21): every /tournament subcommand naming one, its suggestions,
    # its Join button: another server's tournament is not there at all ----
    missing = refusal_text(NO_TOURNAMENT, name=f"#{s.tournament}")

    def check_tournament(what: str, ex, expected: str, before: list[str], message: Msg | None = None) -> None:
        """As ``check``, but the answer may repeat the number typed (``#1``: a tournament's,
        which is not a game's even when a game has that number)."""
        reply = ex.reply
        if reply.content != expected or not reply.ephemeral:
            problems.append(f"{what}: answered {reply.content!r} (ephemeral: {reply.ephemeral})")
        told = [t for t in leaks(reply.text, fake, ()) if t != f"#{s.tournament}"]
        if told or ex.posts or (message is not None and message.edits) or snapshot(db) != before:
            problems.append(f"{what}: showed {told}, posted {ex.posts} or changed something")
    for sub, options in tournament_commands(fake).items():
        extra = {o["name"]: fake.bob for o in options if o["type"] == OPT_USER and o.get("required")}
        for ref in (f"#{s.tournament}", TOURNAMENT):
            expected = refusal_text(NO_TOURNAMENT, name=ref)
            for user in (fake.alice, fake.mod):
                before = snapshot(db)
                ex = await fake.slash(user, f"tournament {sub}", {"name": ref, **extra}, channel=other_channel)
                check_tournament(f"/tournament {sub} {ref} by {user.name} in the other server", ex, expected, before)
            before = snapshot(db)
            ex = await forged(fake, fake.mod, 2, f"tournament {sub}", {"name": ref, **extra}, dm)
            check_tournament(f"/tournament {sub} forged in a DM", ex, texts.NO_PRIVATE_MESSAGE, before)
        for user, channel in ((fake.alice, other_channel), (fake.carol, dm)):
            ex = await forged(fake, user, 4, f"tournament {sub}", {"name": "", **extra}, channel, focused="name")
            if ex.choices:
                problems.append(f"/tournament {sub} name: suggested {ex.choices} to {user.name}")
    ex = await fake.slash(fake.alice, "tournament list", {}, channel=other_channel)
    if TOURNAMENT in ex.reply.content:
        problems.append("/tournament list in the other server shows the first server's tournament")
    for make in TOURNAMENT_BUTTONS.values():
        for user, channel in ((fake.alice, other_channel), (fake.carol, other_channel), (fake.carol, dm)):
            msg = forged_message(fake, channel, make(s))
            before = snapshot(db)
            ex = await fake.click(user, msg, make(s))
            check_tournament(f"button {make(s)} pressed by {user.name}", ex, missing, before, msg)

    # ---- what names players, or lists games, shows none of the first server's ----
    for user, command, options in ((fake.carol, "profile", {"member": fake.alice}),
                                   (fake.alice, "profile", {}), (fake.alice, "games", {}),
                                   (fake.alice, "games", {"all": True}), (fake.alice, "next", {})):
        ex = await fake.slash(user, command, options, channel=other_channel)
        told = [t for t in leaks(ex.reply.text, fake, game_ids) if t.startswith("#")]
        if told or ex.posts:
            problems.append(f"/{command} {options} in the other server shows {told or ex.posts}")

    assert not problems, "\n".join(problems)
    game = await harness.manager.get_game(s.active)
    assert game.status == "active" and game.ply == s.active_ply
