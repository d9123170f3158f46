"""Fuzzing through the fake Discord: random interactions a real client could send (issue 9, item 3).

Random slash commands with random option values (odd Unicode, mentions, ``@everyone``, long
strings, integers at their limits, random ids), random autocomplete queries and random button
presses by random members on the messages the bot posted. Every interaction must be answered,
nothing logged at ERROR, no message able to ping ``@everyone``/``@here``, and a normal game
must still play afterwards.

``STONECAST_FUZZ_COUNT`` sets the number of interactions (default 1000);
``STONECAST_FUZZ_SEED`` the seed (default fixed; ``random`` draws one). A failure names the
seed and the interaction, so ``STONECAST_FUZZ_SEED=<seed>`` replays it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from collections import Counter

import pytest
from botplay import Clock, play_move, start_game
from fakediscord.fixtures import *  # noqa: F403
from fakediscord.harness import BotHarness

FUZZ_COUNT = int(os.environ.get("STONECAST_FUZZ_COUNT", "1000"))
_seed = os.environ.get("STONECAST_FUZZ_SEED", "20261124")
FUZZ_SEED = random.SystemRandom().randrange(2**32) if _seed == "random" else int(_seed)

OPT_SUB, OPT_GROUP, OPT_STRING, OPT_INTEGER, OPT_BOOLEAN, OPT_USER, OPT_ROLE, OPT_NUMBER = 1, 2, 3, 4, 5, 6, 8, 10
CB_AUTOCOMPLETE = 8
TIMEOUT = 60.0  # seconds for one answer: Discord allows minutes for a deferred one, and a
# loaded test machine may take seconds to draw a large board
MAX_SAFE_INT = 2**53  # Discord's integer options: -2^53 .. 2^53

# Pieces of text people type or paste (joined at random by random_text).
PIECES = [
    "c3", "C3", "e5", "a1", "pass", "PASS", "c3 e5", "b1 c2", "z99", "t19", "a0", "-", "", " ",
    "ｃ３", "c\u200b3", "`c3`", "``", "played `c3`", "@everyone", "@here", "<@&{id}>", "<@{id}>",
    "<@!{id}>", "<#{id}>", "{mention}", "Ꮓ̶̧͓ā̸l̷g̵o̶", "𝕯𝖆𝖗𝖐", "✨", "👩\u200d👩\u200d👧", "围棋", "حجر",
    "\u202eevil", "e\u0301", "**bold**", "||spoiler||", "```", "\\", "'; DROP TABLE games; --",
    "%s", "{0}", "{}", "-1", "0", "99999999999999999999", "NaN", "∞", "\u3000", "\t", "ß", "İ",
]


def random_text(rng: random.Random, lo: int, hi: int, mentions: list[str]) -> str:
    """Text of ``lo``..``hi`` characters (Discord counts code points) from PIECES and random
    code points; sometimes as long as allowed."""
    parts = []
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.2:
            parts.append("".join(chr(rng.choice([rng.randint(0x20, 0x7E), rng.randint(0xA0, 0xD7FF),
                                                   rng.randint(0xE000, 0xFFFD), rng.randint(0x10000, 0x1FAFF)]))
                                 for _ in range(rng.randint(1, 8))))
        else:
            parts.append(rng.choice(PIECES).replace("{id}", str(rng.randint(1, 2**63 - 1)))
                         .replace("{mention}", rng.choice(mentions)))
    text = "".join(parts)
    if rng.random() < 0.1:
        text = (text or "x") * hi
    text = text[:hi]
    while len(text) < lo:
        text += rng.choice("abcxyz019")
    return text


def random_int(rng: random.Random, lo: int | None, hi: int | None, ids: list[int]) -> int:
    """An integer in ``lo``..``hi`` (Discord's limits when unbounded), often at an end."""
    lo = -MAX_SAFE_INT if lo is None else lo
    hi = MAX_SAFE_INT if hi is None else hi
    picks = [lo, hi, min(lo + 1, hi), max(hi - 1, lo), rng.randint(lo, hi), 0, 1, -1, *ids]
    return rng.choice([p for p in picks if lo <= p <= hi])


class Fuzzer:
    """Builds and sends random interactions; counts them by kind."""

    def __init__(self, fake, harness, rng: random.Random, clock: Clock):
        self.fake, self.harness, self.rng, self.clock = fake, harness, rng, clock
        odd = [fake.add_user(name) for name in ("Ꮓ̶̧͓ā̸l̷g̵o̶ 𝕯𝖆𝖗𝖐 ✨", "@everyone", "<@1> **x**", "a" * 32)]
        self.actors = [fake.alice, fake.bob, fake.carol, fake.mod, *odd]
        self.ghost = fake.add_user("ghost", in_guild=False)
        self.users = [*self.actors, self.ghost, fake.otherbot, fake.bot_user]
        self.commands = list(self._leaves())
        self.counts: Counter[str] = Counter()
        self.recipient: dict[int, int] = {}  # ephemeral message id -> the only user who sees it
        self.slowest = (0.0, "")  # seconds, interaction
        self.current = "(none yet)"  # the interaction being sent, for failure reports

    def _leaves(self):
        # every command a member sees in the server: the server's own and the global ones
        # (/help, /rules), which Discord offers there too
        for cmd in self.fake.guild_commands[self.fake.guild_id] + self.fake.global_commands:
            subs = [o for o in cmd.get("options") or [] if o["type"] in (OPT_SUB, OPT_GROUP)]
            if not subs:
                yield cmd["name"], cmd.get("options") or []
            for sub in subs:
                yield f"{cmd['name']} {sub['name']}", sub.get("options") or []

    def mentions(self) -> list[str]:
        return [u.mention for u in self.users] + ["@everyone", "@here"]

    async def game_ids(self) -> list[int]:
        """Ids of the games so far (some real ids for id options), else a few small numbers."""
        row = await self.harness.manager.store.fetchone("SELECT MAX(id) FROM games")
        return list(range(1, (row[0] or 4) + 2))

    def value(self, spec: dict, ids: list[int]):
        rng, t = self.rng, spec["type"]
        if spec.get("choices"):
            return rng.choice(spec["choices"])["value"]
        if t == OPT_STRING:
            return random_text(rng, spec.get("min_length") or 0, spec.get("max_length") or 100, self.mentions())
        if t == OPT_INTEGER:
            return random_int(rng, spec.get("min_value"), spec.get("max_value"), ids)
        if t == OPT_NUMBER:
            return float(random_int(rng, spec.get("min_value"), spec.get("max_value"), ids))
        if t == OPT_BOOLEAN:
            return rng.random() < 0.5
        if t == OPT_USER:
            return rng.choice(self.users)
        if t == OPT_ROLE:  # a role of the server, or @everyone (its id is the server's)
            return rng.choice([self.fake.guild_id, *self.fake.roles])
        raise AssertionError(f"the fuzzer cannot make a value of option type {t} ({spec['name']})")

    def typed(self, spec: dict, ids: list[int]) -> str:
        """What a member may have typed so far into autocomplete option ``spec``."""
        if spec["type"] in (OPT_INTEGER, OPT_NUMBER):
            return self.rng.choice(["", "-", "0", str(self.rng.choice(ids)), str(-MAX_SAFE_INT),
                                    str(MAX_SAFE_INT), str(self.rng.randint(1, 99))])
        if self.rng.random() < 0.5:  # the start of a move, as players type it
            return self.rng.choice(["", "", "a", "b", "c", "d", "e", "c3", "pass", "P", " "])
        return random_text(self.rng, 0, spec.get("max_length") or 100, self.mentions())

    def channel(self) -> int:
        threads = [int(t["id"]) for t in self.fake.threads() if int(t["id"]) in self.fake.channels]
        return self.rng.choice([self.fake.general, self.fake.nothreads, *threads, *threads])

    async def step(self) -> None:
        """Now and then let time pass (hours to weeks: reminders, timeouts, lapsed challenges)
        and run the bot's maintenance; then one interaction, or a few at once (two members
        pressing the same button, a double click)."""
        rng = self.rng
        if rng.random() < 0.02:
            self.clock.t += rng.choice([3600, 20 * 3600, 2 * 86400, 15 * 86400])
            self.current = f"clock +{self.clock.t:.0f}, maintenance"
            await self.harness.maintenance.run_maintenance()
            self.counts["clock"] += 1
        if rng.random() < 0.003:
            self.current = "restart of the bot"
            await self.harness.restart()
            self.counts["restart"] += 1
        if rng.random() < 0.005:
            threads = [int(t["id"]) for t in self.fake.threads() if int(t["id"]) in self.fake.channels]
            if threads:
                self.current = "a moderator deletes a game's thread"
                self.fake.delete_channel(rng.choice(threads))
                self.counts["thread deleted"] += 1
        if rng.random() < 0.2 and await self.play():
            return
        if rng.random() < 0.05 and await self.same_button():
            return
        if rng.random() < 0.1:
            self.current = "a burst of interactions at once"
            await asyncio.gather(*(self.one() for _ in range(rng.randint(2, 4))))
            self.counts["burst"] += 1
        else:
            await self.one()

    async def same_button(self) -> bool:
        """Two or three members (or one, twice) press the same button at once."""
        rng, fake = self.rng, self.fake
        buttons = [(m, b["custom_id"]) for m in list(fake.messages.values())
                   if not m.deleted and m.channel_id in fake.channels and not m.ephemeral
                   for b in m.buttons if "custom_id" in b and not b.get("disabled")]
        if not buttons:
            return False
        message, custom_id = rng.choice(buttons)
        users = [rng.choice(self.actors) for _ in range(rng.randint(2, 3))]
        self.current = f"{[u.name for u in users]} press {custom_id!r} on message {message.id} at once"
        exchanges = await asyncio.gather(*(fake.click(u, message, custom_id, timeout=TIMEOUT) for u in users))
        assert all(ex.callback_type is not None for ex in exchanges), f"not answered: {self.current}"
        self.counts["click"] += len(users)
        self.counts["same button"] += 1
        return True

    async def play(self) -> bool:
        """The player to move in a random game types the start of a move, picks one of the
        suggestions and sends /move (in the game's thread, or naming the game). False when no
        game waits for one of the members acting here."""
        rng, fake = self.rng, self.fake
        rows = await self.harness.manager.store.fetchall("SELECT id FROM games WHERE status = 'active'")
        games = [await self.harness.manager.get_game(r[0]) for r in rows]
        games = [g for g in games if fake.users.get(g.to_move_user) in self.actors]
        if not games:
            return False
        game = rng.choice(games)
        user = fake.users[game.to_move_user]
        in_thread = game.thread_id in fake.channels  # a moderator may have deleted it
        channel = (game.thread_id if in_thread else game.channel_id if game.channel_id in fake.channels
                   else fake.general)
        options = {"move": rng.choice(["", "", "a", "c", "e", "p"])}
        if rng.random() < 0.3 or not in_thread:
            options["game"] = game.id
        self.current = f"{user.name!r} types /move {options!r} in game {game.id}"
        ex = await fake.autocomplete(user, "move", options, focused="move", channel=channel, timeout=TIMEOUT)
        check_choices(ex, {"type": OPT_STRING})
        self.counts["autocomplete"] += 1
        if ex.choices:
            options["move"] = rng.choice(ex.choices)["value"]
        else:
            options["move"] = game.position.random_move(rng)
        self.current = f"{user.name!r} sends /move {options!r} in game {game.id}"
        ex = await fake.slash(user, "move", options, channel=channel, timeout=TIMEOUT)
        assert ex.callback_type is not None, f"not answered: {self.current}"
        self.counts["slash"] += 1
        return True

    async def one(self) -> str:
        """Send one random interaction; returns a line describing it (for failure reports)."""
        rng, fake = self.rng, self.fake
        ids = await self.game_ids()
        user = rng.choice(self.actors)
        buttons = [(m, b["custom_id"]) for m in list(fake.messages.values()) if not m.deleted and m.channel_id in fake.channels
                   for b in m.buttons if "custom_id" in b and not b.get("disabled")
                   and (not m.ephemeral or self.recipient.get(m.id) == user.id)]
        roll = rng.random()  # about 25% button presses, 35% autocomplete, 40% commands
        if buttons and roll < 0.25:
            message, custom_id = rng.choice(buttons)
            what = self.current = f"click {custom_id!r} on message {message.id} by {user.name!r}"
            ex = await fake.click(user, message, custom_id, timeout=TIMEOUT)
            kind = "click"
        else:
            typing = roll < 0.6
            name, schema = rng.choice([c for c in self.commands
                                       if not typing or any(o.get("autocomplete") for o in c[1])])
            auto = [o for o in schema if o.get("autocomplete")]
            options = {o["name"]: self.value(o, ids) for o in schema
                       if o.get("required") or rng.random() < 0.5}
            if auto and typing:
                focused = rng.choice(auto)
                options[focused["name"]] = self.typed(focused, ids)
                what = self.current = (f"autocomplete /{name} {options!r} focused {focused['name']} "
                                       f"by {user.name!r}")
                ex = await fake.autocomplete(user, name, options, focused=focused["name"],
                                             channel=self.channel(), timeout=TIMEOUT)
                kind = "autocomplete"
                check_choices(ex, focused)
                if ex.choices and rng.random() < 0.5:  # then pick a suggestion and send the command
                    options[focused["name"]] = rng.choice(ex.choices)["value"]
                    for o in schema:
                        if o.get("required") and o["name"] not in options:
                            options[o["name"]] = self.value(o, ids)
                    self.counts[kind] += 1
                    what = self.current = what + f"; then /{name} {options!r}"
                    ex = await fake.slash(user, name, options, channel=ex.channel_id, timeout=TIMEOUT)
                    kind = "slash"
            else:
                what = self.current = f"/{name} {options!r} by {user.name!r}"
                ex = await fake.slash(user, name, options, channel=self.channel(), timeout=TIMEOUT)
                kind = "slash"
        assert ex.callback_type is not None, f"not answered: {what}"
        for m in ex.messages:
            if m.ephemeral:
                self.recipient[m.id] = ex.user.id
        self.counts[kind] += 1
        self.slowest = max(self.slowest, (ex.latency, what))
        return what


def check_choices(ex, spec: dict) -> None:
    """Autocomplete answers fit Discord's limits and the option's type."""
    assert ex.callback_type == CB_AUTOCOMPLETE
    assert ex.choices is not None and len(ex.choices) <= 25
    for c in ex.choices:
        assert 1 <= len(c["name"]) <= 100, c
        if spec["type"] == OPT_STRING:
            assert isinstance(c["value"], str) and len(c["value"]) <= 100, c
        elif spec["type"] == OPT_INTEGER:
            assert isinstance(c["value"], int) and abs(c["value"]) <= MAX_SAFE_INT, c


def message_problems(message) -> list[str]:
    """What in a message the bot sent Discord would refuse (content, buttons, files)."""
    problems = []
    if len(message.content or "") > 2000:
        problems.append(f"content of {len(message.content)} characters")
    if len(message.components) > 5 or any(len(row.get("components", [])) > 5 for row in message.components):
        problems.append("more than 5 rows or 5 buttons a row")
    for b in message.buttons:
        if len(b.get("custom_id") or "") > 100 or len(b.get("label") or "") > 80:
            problems.append(f"button {b.get('custom_id')!r} {b.get('label')!r} too long")
    if len(message.attachments) > 10:
        problems.append(f"{len(message.attachments)} files")
    return [f"message {message.id} ({(message.content or '')[:60]!r}): {p}" for p in problems]


def can_ping_everyone(message) -> bool:
    """Whether Discord would let ``message`` ping @everyone/@here (or roles) as sent."""
    allowed = message.allowed_mentions
    if allowed is None:  # Discord's default parses everything in the content
        return True
    return bool({"everyone", "roles"} & set(allowed.get("parse") or [])) or bool(allowed.get("roles"))


async def play_normal_game(fake, harness) -> None:
    """Two fresh members play a small Brain Coral to its end in its thread."""
    dave, erin = fake.add_user("dave"), fake.add_user("erin")
    game, _, board = await start_game(fake, harness, "braincoral", dave, erin, first="me")
    rng = random.Random(3)
    while game.status == "active":
        position = game.position
        user = fake.users[game.players[position.to_move]]
        move = position.random_move(rng)
        ex = await play_move(fake, user, move, game_id=game.id, channel=game.thread_id)
        assert ex.reply.ephemeral and f"`{move}`" in ex.reply.content, ex.reply.content
        game = await harness.manager.get_game(game.id)
    assert game.status == "finished"


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def clocked(fake, tmp_path, clock):
    """The bot on a fresh database with a clock the test moves."""
    h = BotHarness(fake, tmp_path / "fuzz.db", clock=clock)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()


async def test_random_interactions(fake, clocked, clock, caplog):
    harness = clocked
    caplog.set_level(logging.WARNING)
    fake.settle = 0.005  # the next interaction may start while posts of the last still go out
    rng = random.Random(FUZZ_SEED)
    fuzzer = Fuzzer(fake, harness, rng, clock)
    i = -1
    try:
        while (i := sum(fuzzer.counts[k] for k in ("slash", "click", "autocomplete"))) < FUZZ_COUNT:
            await fuzzer.step()
        await harness.settle()  # the computer's searches land moves until they are done
        await harness.maintenance.run_maintenance()
        await harness.settle()
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
        assert not errors, "\n".join(f"{r.name} {r.levelname} {r.getMessage()}" for r in errors[:5])
        pinging = [m for m in fake.messages.values() if can_ping_everyone(m)]
        assert not pinging, [(m.content[:80], m.allowed_mentions) for m in pinging[:5]]
        assert not fake.unknown_routes, fake.unknown_routes
        refused = [p for m in fake.messages.values() for p in message_problems(m)]
        refused += [f"thread name {t['name']!r}" for t in fake.threads() if not 1 <= len(t["name"]) <= 100]
        assert not refused, refused[:5]
        async with harness.manager.store.transaction():  # one snapshot: no move lands between the reads
            for (gid,) in await harness.manager.store.fetchall("SELECT id FROM games"):
                stored = (await harness.manager.get_game(gid)).position.to_text()
                assert stored == (await harness.manager.replay_position(gid)).to_text(), f"game {gid}"
        fake.settle = 0.03
        await play_normal_game(fake, harness)
    except BaseException as e:
        raise AssertionError(f"fuzz seed {FUZZ_SEED} (STONECAST_FUZZ_SEED={FUZZ_SEED}), interaction "
                             f"{i + 1} of {FUZZ_COUNT}: {fuzzer.current}\n{type(e).__name__}: {e}") from e
    store = harness.manager.store
    moves = (await store.fetchone("SELECT COUNT(*) FROM moves"))[0]
    ends = Counter(f"{r[0]}/{r[1]}" for r in await store.fetchall("SELECT status, reason FROM games"))
    computer = (await store.fetchone("SELECT COUNT(*) FROM games WHERE ai_seat IS NOT NULL"))[0]
    http_errors = Counter((route.split("/")[1], status, code) for route, status, code in fake.errors)
    print(f"\nfuzz seed {FUZZ_SEED}: {i} interactions {dict(fuzzer.counts)}, "
          f"all answered; {moves} moves played, games {dict(ends)} ({computer} against the computer), messages {len(fake.messages)}, "
          f"HTTP errors the fake returned {dict(http_errors)}; slowest answer "
          f"{fuzzer.slowest[0]:.1f} s: {fuzzer.slowest[1][:200]}")


def test_random_values_stay_within_what_a_client_sends():
    rng = random.Random(1)
    for _ in range(2000):
        text = random_text(rng, 1, 40, ["<@1>"])
        assert 1 <= len(text) <= 40
        n = random_int(rng, None, None, [3])
        assert -MAX_SAFE_INT <= n <= MAX_SAFE_INT
        assert 5 <= random_int(rng, 5, 12, [3, 99]) <= 12

