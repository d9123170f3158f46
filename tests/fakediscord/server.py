"""A small fake Discord: REST API and gateway on 127.0.0.1, for driving the real discord.py client.

The fake keeps just enough state for a bot to run against it: one guild with text channels,
threads the bot creates, DM channels, every message the bot sends (content, embeds,
components, flags, allowed mentions and attachment bytes), the application commands it syncs,
and the interactions the test driver sends through the gateway.

Test driver::

    fake = FakeDiscord()
    await fake.start()
    restore = fake.patch_discord()        # points discord.py at the fake (REST base + gateway)
    ...start the bot with fake.token...
    ex = await fake.slash(fake.alice, "challenge io", {"opponent": fake.bob, "size": 5})
    ex.reply.content, ex.reply.ephemeral, ex.reply.custom_ids, ex.reply.png()
    ex = await fake.click(fake.bob, ex.reply, "stonecast:accept:1")
    ex = await fake.autocomplete(fake.bob, "move", {"move": "c"}, focused="move")
    ex.choices                            # [{"name": ..., "value": ...}, ...]

Each driver call returns an :class:`Exchange` once the bot has finished answering the
interaction (immediate reply, or a deferral followed by its completion) and the bot has been
quiet for a short settle time (shorter once the handler tasks discord.py started for it have
ended, when the bot runs in the test's event loop: ``HANDLER_TASKS``). Unknown routes answer
404 and are recorded in ``fake.unknown_routes`` so tests fail loudly.

Shards: ``GET /gateway/bot`` recommends ``fake.recommended_shards`` (1); an IDENTIFY's
``shard: [id, count]`` is echoed in its READY, the guild is sent (GUILD_CREATE) only on the
shard that owns it (``fake.guild_shard(count)``, Discord's ``(guild_id >> 22) % count``), and
interactions go through that shard's connection. ``fake.identifies`` records every IDENTIFY.
More guilds (``fake.add_guild``) are spread over the shards the same way, so bot processes
running different shards each get their own guilds' events (``tests/fakediscord/cluster.py``).

Discord's limits (``limits.py``): message content, embeds, attachments and upload size,
components, autocomplete choices and thread names beyond what Discord accepts are refused
with Discord's status, JSON code, message and ``errors`` object (400 / 50035 "Invalid Form
Body"; 413 / 40005 for a file over ``fake.upload_bytes``), on channel posts, message edits,
interaction callbacks, follow-ups and webhook message edits. An initial interaction response
later than ``fake.response_window`` seconds (3) after dispatch is refused with 404 / 10062, a
second one with 400 / 40060, a follow-up or edit after ``fake.token_window`` (15 minutes) with
401 / 50027. Refusals are recorded in ``fake.refusals`` too; while ``fake.strict`` (default)
a driver call during which the bot was refused raises AssertionError. So does one during which
the bot attached a file without a description (alt text, ``Attachment.description``): Discord
takes it, the project does not (issue 19); those are listed in ``fake.undescribed``.

Global rate limit (off by default): ``FakeDiscord(global_rate_limit=50)`` allows that many
requests per second per bot token, as Discord does
(https://discord.com/developers/docs/topics/rate-limits#global-rate-limit), over every client
using the token (several bot processes share it). A request past the limit is answered 429
with ``X-RateLimit-Global: true``, ``X-RateLimit-Scope: global``, ``Retry-After`` and the JSON
body ``{"message", "retry_after", "global": true}``; ``fake.rate_limited`` counts them.
Interaction endpoints (callbacks, follow-ups, the original response) are exempt, as on Discord.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import logging
import re
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

from . import limits

log = logging.getLogger("fakediscord")

DISCORD_EPOCH_MS = 1420070400000
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# Permission bits (https://discord.com/developers/docs/topics/permissions).
P_MANAGE_GUILD = 1 << 5
P_VIEW_CHANNEL = 1 << 10
P_SEND_MESSAGES = 1 << 11
P_EMBED_LINKS = 1 << 14
P_ATTACH_FILES = 1 << 15
P_READ_HISTORY = 1 << 16
P_USE_APP_COMMANDS = 1 << 31
P_CREATE_PUBLIC_THREADS = 1 << 35
P_SEND_IN_THREADS = 1 << 38
MEMBER_PERMISSIONS = (P_VIEW_CHANNEL | P_SEND_MESSAGES | P_EMBED_LINKS | P_ATTACH_FILES
                      | P_READ_HISTORY | P_USE_APP_COMMANDS | P_CREATE_PUBLIC_THREADS
                      | P_SEND_IN_THREADS)

# Application command option types.
OPT_SUB_COMMAND, OPT_GROUP, OPT_STRING, OPT_INTEGER, OPT_BOOLEAN, OPT_USER = 1, 2, 3, 4, 5, 6
OPT_CHANNEL, OPT_ROLE, OPT_MENTIONABLE, OPT_NUMBER = 7, 8, 9, 10

# Interaction callback types.
CB_MESSAGE, CB_DEFER, CB_DEFER_UPDATE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL = 4, 5, 6, 7, 8, 9

FLAG_EPHEMERAL = 64
FLAG_LOADING = 128

_ids = itertools.count(1)


def snowflake() -> int:
    """A fresh Discord snowflake: milliseconds since the Discord epoch << 22, plus a counter."""
    return ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (next(_ids) & 0x3FFFFF)


def _iso(t: float | None = None) -> str:
    return datetime.fromtimestamp(time.time() if t is None else t, UTC).isoformat()


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py only decodes bodies whose content type is exactly "application/json"
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"})


class FakeHTTPError(Exception):
    """Raised inside a route handler to answer a Discord-style JSON error."""

    def __init__(self, status: int, code: int, message: str, errors: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.errors = errors  # Discord's nested "errors" object of a 50035 (Invalid Form Body)


@dataclass(eq=False)
class FakeUser:
    """A Discord user in the fake guild. ``dms_closed``: DMs to them fail with 50007.
    ``in_guild=False``: a user who is not (or no longer) a member -- picked in a user option,
    Discord resolves the user but sends no member object for them."""

    id: int
    name: str
    bot: bool = False
    dms_closed: bool = False
    permissions: int = MEMBER_PERMISSIONS
    in_guild: bool = True
    roles: list[int] = field(default_factory=list)  # role ids (FakeDiscord.add_role) besides @everyone
    locale: str = "en-US"  # the Discord client's language (``interaction.locale``, issue 22)

    @property
    def mention(self) -> str:
        """``<@id>``."""
        return f"<@{self.id}>"

    def payload(self) -> dict:
        """The Discord API object for this."""
        return {"id": str(self.id), "username": self.name, "global_name": self.name.title(),
                "discriminator": "0", "avatar": None, "bot": self.bot, "public_flags": 0,
                "flags": 0}

    def member_payload(self, with_user: bool = True) -> dict:
        """The guild member object (with or without the nested user)."""
        data = {"roles": [str(r) for r in self.roles], "joined_at": _iso(1_600_000_000), "deaf": False, "mute": False,
                "flags": 0, "pending": False, "nick": None, "avatar": None,
                "permissions": str(self.permissions), "communication_disabled_until": None}
        if with_user:
            data["user"] = self.payload()
        return data


@dataclass
class Attachment:
    """A file the bot uploaded, with its ``description`` (alt text; ``None``: none given)."""

    id: int
    filename: str
    data: bytes
    content_type: str | None
    url: str
    description: str | None = None

    def payload(self) -> dict:
        """The Discord API object for this."""
        data = {"id": str(self.id), "filename": self.filename, "size": len(self.data),
                "url": self.url, "proxy_url": self.url, "content_type": self.content_type}
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass(eq=False)
class Msg:
    """A message the bot created (channel post, interaction reply or follow-up), as last edited.

    ``pings``: the user ids this message notified when it was created -- mentions in the
    content filtered by allowed_mentions; always empty for edits that complete a deferred
    response and for ephemeral messages (Discord only pings in newly created messages).
    ``source``: "channel", "callback" (interaction response), "followup" or "deferred".
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list = field(default_factory=list)
    components: list = field(default_factory=list)
    flags: int = 0
    attachments: list[Attachment] = field(default_factory=list)
    allowed_mentions: dict | None = None
    source: str = "channel"
    interaction_id: int | None = None
    webhook_id: int | None = None
    pings: frozenset[int] = frozenset()
    created_at: float = field(default_factory=time.time)
    created_perf: float = field(default_factory=time.perf_counter)
    edited_at: float | None = None
    edits: int = 0
    deleted: bool = False
    nonce: str | None = None

    @property
    def ephemeral(self) -> bool:
        """Whether only the interaction's user sees it (flag 64)."""
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether it is a deferred reply still "thinking" (flag 128)."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def buttons(self) -> list[dict]:
        """Every button, flattened out of its action rows."""
        out = []
        for row in self.components:
            for comp in row.get("components", []):
                if comp.get("type") == 2:
                    out.append(comp)
        return out

    @property
    def custom_ids(self) -> list[str]:
        """The custom ids of its buttons, in order."""
        return [b["custom_id"] for b in self.buttons if "custom_id" in b]

    @property
    def text(self) -> str:
        """Content plus embed titles, descriptions and fields, for loose assertions."""
        parts = [self.content or ""]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            for f in e.get("fields", []):
                parts += [f.get("name") or "", f.get("value") or ""]
            if e.get("footer"):
                parts.append(e["footer"].get("text") or "")
        return "\n".join(p for p in parts if p)

    def png(self, index: int = 0):
        """The ``index``-th attachment as an opened PIL image; asserts it is really a PNG."""
        from PIL import Image

        att = self.attachments[index]
        assert att.data[:8] == PNG_SIGNATURE, f"{att.filename} is not a PNG"
        img = Image.open(io.BytesIO(att.data))
        img.load()
        return img

    def payload(self) -> dict:
        """The Discord API object for this."""
        mentioned = [int(m) for m in re.findall(r"<@!?(\d+)>", self.content or "")]
        data = {
            "id": str(self.id), "channel_id": str(self.channel_id),
            "author": self.author.payload(), "content": self.content or "",
            "timestamp": _iso(self.created_at),
            "edited_timestamp": _iso(self.edited_at) if self.edited_at else None,
            "tts": False, "mention_everyone": False,
            "mentions": [{"id": str(u), "username": "user", "discriminator": "0", "avatar": None}
                         for u in mentioned],
            "mention_roles": [], "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds, "pinned": False,
            "type": 0 if self.source == "channel" else 20,
            "flags": self.flags, "components": self.components,
        }
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.guild_id:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id:
            data["webhook_id"] = str(self.webhook_id)
        return data


@dataclass(eq=False)
class Exchange:
    """One interaction the driver sent and everything the bot did in answer.

    * ``callback_type`` -- the interaction callback type the bot used first (4, 5, 6, 7, 8).
    * ``messages`` -- every message created while the exchange was open, in order
      (interaction reply, follow-ups, posts in channels and threads, DMs).
    * ``edited`` -- messages edited (not created) during the exchange.
    * ``choices`` -- autocomplete results (callback type 8).
    * ``errors`` -- error responses the fake returned to the bot meanwhile (e.g. a 403).
    * ``started``, ``acknowledged``, ``finished`` -- ``time.perf_counter()`` when it was sent,
      when the bot's first callback came, when its response was complete.
    """

    id: int
    token: str
    user: FakeUser
    type: int
    channel_id: int
    message: Msg | None = None
    callback_type: int | None = None
    original: Msg | None = None
    messages: list[Msg] = field(default_factory=list)
    edited: list[Msg] = field(default_factory=list)
    choices: list[dict] | None = None
    modal: dict | None = None  # the form the bot opened (callback type 9)
    errors: list[tuple[str, int, int]] = field(default_factory=list)
    started: float = field(default_factory=time.perf_counter)
    acknowledged: float | None = None  # when the bot's first callback (reply, deferral) came
    finished: float | None = None
    completed: asyncio.Event = field(default_factory=asyncio.Event)
    followups_seen: int = 0

    @property
    def reply(self) -> Msg:
        """The interaction's own answer: the first message it created (reply or follow-up),
        else the message it updated (callback types 6 and 7 on a button's message)."""
        for m in self.messages:
            if m.interaction_id == self.id:
                return m
        if self.original is not None and not self.original.loading:
            return self.original
        raise AssertionError(f"the bot sent no reply to interaction {self.id}")

    @property
    def followups(self) -> list[Msg]:
        """Follow-up messages sent for this interaction."""
        return [m for m in self.messages if m.source == "followup" and m.interaction_id == self.id]

    @property
    def posts(self) -> list[Msg]:
        """Messages posted to channels or threads (not interaction replies)."""
        return [m for m in self.messages if m.source == "channel"]

    @property
    def latency(self) -> float:
        """Seconds from dispatch to completion of the interaction response."""
        return (self.finished or time.perf_counter()) - self.started


class _Gateway:
    """One gateway connection (a bot's websocket)."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool):
        self.ws = ws
        self.shard = (0, 1)  # [id, count] from the IDENTIFY
        self.seq = 0
        self.compressor = zlib.compressobj() if compress else None
        self.identified = asyncio.Event()
        self.lock = asyncio.Lock()

    async def send(self, payload: dict) -> None:
        """Send one gateway payload (zlib-stream compressed when asked for)."""
        raw = json.dumps(payload)
        async with self.lock:
            if self.ws.closed:
                return
            if self.compressor is not None:
                data = self.compressor.compress(raw.encode()) + self.compressor.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(raw)

    async def dispatch(self, event: str, data: dict) -> None:
        """Send a dispatch event (op 0) with the next sequence number."""
        self.seq += 1
        await self.send({"op": 0, "t": event, "s": self.seq, "d": data})


#: Names discord.py gives the asyncio tasks that run an interaction's handler (a slash
#: command, a button or dynamic item, a modal, the ``on_interaction`` event). When a bot runs
#: in the test's own event loop (``BotHarness``) and these end within ``settle`` seconds of the
#: answer, the driver call waits only ``HANDLED_SETTLE`` of silence after them; otherwise (a
#: long handler, a bot in another process) ``settle`` of silence.
HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-", "discord.py: on_interaction")
#: The silence (seconds) awaited after an interaction whose handler tasks have ended: what
#: they started in the background (a computer move, a typing indicator) is not waited for
#: beyond it, as before (``BotHarness.settle`` waits for the computer).
HANDLED_SETTLE = 0.005


class FakeDiscord:
    """The fake Discord service. See the module docstring for the driver API."""

    def __init__(self, *, settle: float = 0.03, timeout: float = 10.0,
                 global_rate_limit: int | None = None):
        self.settle = settle
        self.timeout = timeout
        # Discord's global limit: requests per second per bot token (None: not enforced), the
        # current one-second window (start, requests let through) and the 429s answered
        self.global_rate_limit = global_rate_limit
        self._window = (0.0, 0)
        self.rate_limited = 0
        self.token = "fake-bot-token"
        self.app_id = snowflake()
        self.bot_user = FakeUser(self.app_id, "stonecast", bot=True)
        self.guild_id = snowflake()
        self.guild_name = "Test Guild"
        self.guilds: dict[int, str] = {self.guild_id: self.guild_name}  # every guild: id -> name
        self.alice = FakeUser(snowflake(), "alice")
        self.bob = FakeUser(snowflake(), "bob")
        self.carol = FakeUser(snowflake(), "carol", dms_closed=True)
        self.mod = FakeUser(snowflake(), "moderator", permissions=MEMBER_PERMISSIONS | P_MANAGE_GUILD)
        self.otherbot = FakeUser(snowflake(), "otherbot", bot=True)
        self.users: dict[int, FakeUser] = {
            u.id: u for u in (self.bot_user, self.alice, self.bob, self.carol, self.mod, self.otherbot)}
        self.channels: dict[int, dict] = {}
        self.roles: dict[int, dict] = {}  # the first guild's roles besides @everyone (add_role)
        self.general = self._add_text_channel("general")
        self.nothreads = self._add_text_channel("no-threads")
        self.threads_forbidden: set[int] = {self.nothreads}
        self.post_failures: dict[int, list[tuple[int, int, str]]] = {}  # see fail_posts
        self.lost_responses: dict[int, int] = {}  # channel id -> posts made but answered 503 (lose_post_responses)
        # enforce_nonce: a post whose nonce the same author used within this many seconds
        # returns that earlier message and creates none (Discord: "the past few minutes")
        self.nonce_window = 300.0
        self.nonces: dict[tuple[int, str], Msg] = {}  # (author id, nonce) -> first message
        self.nonce_hits = 0  # posts answered with an earlier message
        self.messages: dict[int, Msg] = {}
        self.typing: list[int] = []  # channel ids, one per typing indicator the bot started
        self.channel_log: dict[int, list[Msg]] = {}
        self.guild_locale = "en-US"  # the server's language (``guild_locale``, issue 22)
        self.global_commands: list[dict] = []
        self.guild_commands: dict[int, list[dict]] = {}
        self.sync_calls: list[tuple[int | None, int]] = []
        self.exchanges: dict[str, Exchange] = {}
        self.unknown_routes: list[str] = []
        self.errors: list[tuple[str, int, int]] = []
        self.identifies: list[dict] = []
        self.recommended_shards = 1  # GET /gateway/bot's "shards"
        self.thread_members: dict[int, set[int]] = {}
        self.attachments: dict[int, Attachment] = {}
        self.requests = 0
        self.route_counts: dict[str, int] = {}  # REST requests by route (handler name), 429s included
        self._last_activity = time.perf_counter()
        self._open: list[Exchange] = []
        self._spawned: list[asyncio.Future[Any]] = []  # tasks created while an interaction is open
        self._unlog_tasks: Callable[[], None] | None = None
        self._gateway: _Gateway | None = None  # the connection owning the first guild
        self._guild_gateways: dict[int, _Gateway] = {}  # guild id -> the connection owning it
        self._post_waiters: dict[int, list[tuple[Any, asyncio.Future]]] = {}
        self._gateways: list[_Gateway] = []
        self._connected = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        self._init_limits()

    # ------------------------------------------------------------------ setup

    def add_user(self, name: str, **kwargs: Any) -> FakeUser:
        """A new member of the guild (``bot=True``, ``dms_closed=True``, ``permissions=...``)."""
        user = FakeUser(snowflake(), name, **kwargs)
        self.users[user.id] = user
        return user

    def add_role(self, name: str) -> int:
        """A role of the first guild (no permissions of its own); returns its id. Add roles
        before the bot connects (its GUILD_CREATE lists them); give it to a member with
        ``user.roles.append(role_id)``."""
        rid = snowflake()
        self.roles[rid] = {"id": str(rid), "name": name, "permissions": "0", "position": len(self.roles) + 1,
                           "color": 0, "hoist": False, "managed": False, "mentionable": True, "flags": 0}
        return rid

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> tuple[int, int]:
        """Another guild the bot is in, with one text channel; returns ``(guild id, channel
        id)``. ``shard=(k, count)``: an id that Discord's ``(guild_id >> 22) % count`` puts on
        shard ``k``. Add guilds before the bot connects (their GUILD_CREATE is sent then)."""
        gid = snowflake()
        if shard is not None:
            k, count = shard
            gid += ((k - (gid >> 22)) % count) << 22  # a few milliseconds later: on shard k
        self.guilds[gid] = name
        return gid, self._add_text_channel("general", gid)

    def add_thread(self, channel_id: int, name: str) -> int:
        """A public thread under text channel ``channel_id``, made without telling the bot
        (no THREAD_CREATE): as if created long ago and since archived, as Discord archives
        idle threads; a post in it unarchives it. For benchmarks that set up many games
        without Discord. Returns its id."""
        parent = self.channels[channel_id]
        tid = snowflake()
        self.channels[tid] = {
            "id": str(tid), "type": 11, "guild_id": parent["guild_id"], "parent_id": str(channel_id),
            "owner_id": str(self.bot_user.id), "name": name, "last_message_id": None,
            "rate_limit_per_user": 0, "message_count": 0, "member_count": 1,
            "total_message_sent": 0, "flags": 0,
            "thread_metadata": {"archived": True, "auto_archive_duration": 10080,
                                "archive_timestamp": _iso(), "locked": False, "invitable": True,
                                "create_timestamp": _iso()}}
        self.thread_members[tid] = {self.bot_user.id}
        return tid

    def _add_text_channel(self, name: str, guild_id: int | None = None) -> int:
        cid = snowflake()
        self.channels[cid] = {"id": str(cid), "type": 0, "guild_id": str(guild_id or self.guild_id),
                              "name": name, "position": len(self.channels), "parent_id": None,
                              "topic": None, "nsfw": False, "rate_limit_per_user": 0,
                              "permission_overwrites": [], "last_message_id": None}
        return cid

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        """Serve on 127.0.0.1 on a free port."""
        app = web.Application(client_max_size=64 * 1024 * 1024, middlewares=[self._middleware])
        app.router.add_get("/gateway", self._gateway_handler)
        app.router.add_get("/gateway/", self._gateway_handler)
        app.router.add_get("/attachments/{aid}/{filename}", self._get_attachment)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        self._log_tasks()

    def _log_tasks(self) -> None:
        """Note in ``_spawned`` every asyncio task created in this event loop while an
        interaction is open (its handlers among them, ``HANDLER_TASKS``), through a task
        factory that :meth:`stop` removes."""
        loop = asyncio.get_running_loop()
        previous = loop.get_task_factory()

        def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Future[Any]:
            task = (previous(loop, coro, **kwargs) if previous is not None
                    else asyncio.Task(coro, loop=loop, **kwargs))
            if self._open:
                self._spawned.append(task)
            return task

        loop.set_task_factory(factory)
        self._unlog_tasks = lambda: loop.set_task_factory(previous)

    async def stop(self) -> None:
        """Close every gateway connection and the server."""
        for gw in self._gateways:
            if not gw.ws.closed:
                await gw.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self._unlog_tasks is not None:
            self._unlog_tasks()
            self._unlog_tasks = None

    def patch_discord(self):
        """Point discord.py at this fake; returns a function that undoes it."""
        import discord.gateway
        import discord.http
        import yarl

        old_base = discord.http.Route.BASE
        old_gw = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = f"{self.base_url}/api/v10"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{self.port}/gateway")

        def restore():
            """Undo :meth:`patch_discord`."""
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gw

        return restore

    # ------------------------------------------------------------------ gateway

    def guild_payload(self, guild_id: int | None = None) -> dict:
        """GUILD_CREATE data of ``guild_id`` (default: the first guild). Without the members
        intent only the bot's own member is sent."""
        gid = guild_id or self.guild_id
        roles = [{"id": str(gid), "name": "@everyone", "permissions": str(MEMBER_PERMISSIONS),
                  "position": 0, "color": 0, "hoist": False, "managed": False,
                  "mentionable": False, "flags": 0}]
        if gid == self.guild_id:
            roles += list(self.roles.values())
        mine = [c for c in self.channels.values() if c.get("guild_id") == str(gid)]
        channels = [c for c in mine if c["type"] in (0, 2, 4, 5)]
        threads = [c for c in mine if c["type"] in (11, 12)
                   and not c["thread_metadata"]["archived"]]
        name = self.guild_name if gid == self.guild_id else self.guilds[gid]
        return {"id": str(gid), "name": name, "icon": None,
                "owner_id": str(self.mod.id), "roles": roles, "channels": channels,
                "threads": threads, "members": [self.bot_user.member_payload()],
                "member_count": len(self.users), "large": False, "unavailable": False,
                "features": [], "emojis": [], "stickers": [], "presences": [],
                "voice_states": [], "stage_instances": [], "guild_scheduled_events": [],
                "joined_at": _iso(1_600_000_000), "mfa_level": 0, "verification_level": 0,
                "explicit_content_filter": 0, "default_message_notifications": 0,
                "premium_tier": 0, "preferred_locale": self.guild_locale, "nsfw_level": 0,
                "system_channel_flags": 0}

    async def _gateway_handler(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        gw = _Gateway(ws, compress=request.query.get("compress") == "zlib-stream")
        self._gateways.append(gw)
        await gw.send({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT and msg.type != WSMsgType.BINARY:
                    continue
                payload = json.loads(msg.data)
                op, d = payload.get("op"), payload.get("d")
                if op == 1:  # heartbeat
                    await gw.send({"op": 11, "d": None, "s": None, "t": None})
                elif op == 2:  # identify
                    if d.get("token") != self.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    self.identifies.append(d)
                    shard_id, shard_count = gw.shard = tuple(d.get("shard") or (0, 1))
                    owned = [g for g in self.guilds if self.guild_shard(shard_count, g) == shard_id]
                    owns_guild = self.guild_id in owned
                    if owns_guild:
                        self._gateway = gw
                    for g in owned:
                        self._guild_gateways[g] = gw
                    await gw.dispatch("READY", {
                        "v": 10, "user": self.bot_user.payload() | {"verified": True, "mfa_enabled": False},
                        "guilds": [{"id": str(g), "unavailable": True} for g in owned],
                        "session_id": f"session-{snowflake()}",
                        "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
                        "application": {"id": str(self.app_id), "flags": 0},
                        "private_channels": [], "relationships": [], "presences": [],
                        "guild_join_requests": [], "shard": [shard_id, shard_count]})
                    for g in owned:
                        await gw.dispatch("GUILD_CREATE", self.guild_payload(g))
                    if owns_guild:
                        self._connected.set()
                    gw.identified.set()
                elif op == 6:  # resume: not supported, ask for a fresh identify
                    await gw.send({"op": 9, "d": False, "s": None, "t": None})
        finally:
            if self._gateway is gw:
                self._gateway = None
                self._connected.clear()
            for g, owner in list(self._guild_gateways.items()):
                if owner is gw:
                    del self._guild_gateways[g]
        return ws

    def guild_shard(self, shard_count: int, guild_id: int | None = None) -> int:
        """The shard that carries a guild's events (default: the first guild's) when the bot
        runs ``shard_count`` shards: Discord's ``(guild_id >> 22) % shard_count``."""
        return ((guild_id or self.guild_id) >> 22) % shard_count

    async def dispatch(self, event: str, data: dict, guild_id: int | None = None) -> None:
        """Send a gateway event to the connected bot, on the shard owning ``guild_id``
        (default: the first guild)."""
        if guild_id is not None and guild_id != self.guild_id:
            loop = asyncio.get_running_loop()
            end = loop.time() + self.timeout
            while guild_id not in self._guild_gateways:
                if loop.time() > end:
                    raise TimeoutError(f"no bot connection carries guild {guild_id}")
                await asyncio.sleep(0.01)
            await self._guild_gateways[guild_id].dispatch(event, data)
            return
        if self._gateway is None:
            await asyncio.wait_for(self._connected.wait(), self.timeout)
        assert self._gateway is not None
        await self._gateway.dispatch(event, data)

    # ------------------------------------------------------------------ REST plumbing

    @web.middleware
    async def _middleware(self, request: web.Request, handler):
        self.requests += 1
        self._last_activity = time.perf_counter()
        try:
            return await handler(request)
        except FakeHTTPError as e:
            self.errors.append((f"{request.method} {request.path}", e.status, e.code))
            for ex in self._open:
                ex.errors.append((f"{request.method} {request.path}", e.status, e.code))
            body = {"code": e.code, "message": e.message}
            if e.errors is not None:
                body["errors"] = e.errors
            if (e.status, e.code) in self.REFUSALS:
                self._record_refusal(request, e)
            return _json(body, status=e.status)
        finally:
            self._last_activity = time.perf_counter()

    _ROUTES: list[tuple[str, str, str]] = [
        ("GET", r"/gateway/bot", "gateway_bot"),
        ("GET", r"/gateway", "gateway"),
        ("GET", r"/users/@me", "me"),
        ("GET", r"/oauth2/applications/@me", "application"),
        ("GET", r"/applications/@me", "application"),
        ("PUT", r"/applications/(?P<app>\d+)/commands", "put_global_commands"),
        ("GET", r"/applications/(?P<app>\d+)/commands", "get_global_commands"),
        ("PUT", r"/applications/(?P<app>\d+)/guilds/(?P<gid>\d+)/commands", "put_guild_commands"),
        ("GET", r"/applications/(?P<app>\d+)/guilds/(?P<gid>\d+)/commands", "get_guild_commands"),
        ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", "callback"),
        ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", "followup"),
        ("GET", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)", "get_webhook_message"),
        ("PATCH", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)", "edit_webhook_message"),
        ("DELETE", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)", "delete_webhook_message"),
        ("GET", r"/channels/(?P<cid>\d+)", "get_channel"),
        ("POST", r"/channels/(?P<cid>\d+)/messages", "post_message"),
        ("GET", r"/channels/(?P<cid>\d+)/messages", "list_messages"),
        ("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", "get_message"),
        ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", "edit_message"),
        ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", "delete_message"),
        ("POST", r"/channels/(?P<cid>\d+)/threads", "create_thread"),
        ("POST", r"/channels/(?P<cid>\d+)/typing", "typing"),
        ("POST", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/threads", "create_thread"),
        ("PUT", r"/channels/(?P<cid>\d+)/thread-members/(?P<uid>\d+|@me)", "add_thread_member"),
        ("POST", r"/users/@me/channels", "open_dm"),
        ("GET", r"/users/(?P<uid>\d+)", "get_user"),
        ("GET", r"/guilds/(?P<gid>\d+)/members/(?P<uid>\d+)", "get_member"),
        ("GET", r"/guilds/(?P<gid>\d+)", "get_guild"),
    ]
    _COMPILED = [(m, re.compile(p + r"/?$"), h) for m, p, h in _ROUTES]

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        for method, pattern, handler in self._COMPILED:
            if method != request.method:
                continue
            m = pattern.match(path)
            if m:
                self.route_counts[handler] = self.route_counts.get(handler, 0) + 1
                if not (handler in ("callback", "followup") or handler.endswith("webhook_message")):
                    if request.headers.get("Authorization") != f"Bot {self.token}":
                        raise FakeHTTPError(401, 0, "401: Unauthorized")
                    limited = self._over_global_limit()
                    if limited is not None:
                        return limited
                result = await getattr(self, "_r_" + handler)(request, **m.groupdict())
                if result is None:
                    return web.Response(status=204)
                return _json(result)
        self.unknown_routes.append(f"{request.method} {path}")
        log.error("fake Discord: unknown route %s %s", request.method, path)
        raise FakeHTTPError(404, 0, f"404: Not Found ({request.method} {path})")

    def _over_global_limit(self) -> web.Response | None:
        """None if the bot token may make one more request now (counting it), else the 429
        Discord answers past its global limit: requests are counted in one-second windows,
        the first request after a window ends opens the next; a refused request is not
        counted, and its ``retry_after`` is the time left in the window."""
        if self.global_rate_limit is None:
            return None
        now = time.perf_counter()
        start, used = self._window
        if now - start >= 1.0:
            start, used = now, 0
        if used < self.global_rate_limit:
            self._window = (start, used + 1)
            return None
        self.rate_limited += 1
        retry_after = round(max(0.001, start + 1.0 - now), 3)
        # discord.py takes a 429 without a Via header for a Cloudflare ban (Discord's
        # answers come through Google's front end and carry one)
        return web.Response(
            body=json.dumps({"message": "You are being rate limited.", "retry_after": retry_after,
                             "global": True}).encode(),
            status=429, headers={"Content-Type": "application/json", "Via": "1.1 google",
                                 "Retry-After": str(max(1, round(retry_after + 0.5))),
                                 "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})

    async def _read_body(self, request: web.Request) -> tuple[dict, dict[int, tuple[str, bytes, str | None]]]:
        """JSON body, or multipart payload_json plus files[n] -> (filename, bytes, type)."""
        files: dict[int, tuple[str, bytes, str | None]] = {}
        if request.content_type.startswith("multipart/"):
            payload: dict = {}
            reader = await request.multipart()
            async for part in reader:
                name = part.name or ""
                if name == "payload_json":
                    payload = json.loads(await part.text())
                else:
                    m = re.fullmatch(r"files\[(\d+)\]", name)
                    if m:
                        files[int(m.group(1))] = (part.filename or f"file{m.group(1)}",
                                                  bytes(await part.read()),
                                                  part.headers.get("Content-Type"))
            return payload, files
        if request.can_read_body:
            text = await request.text()
            return (json.loads(text) if text else {}), files
        return {}, files

    # ------------------------------------------------------------------ messages

    def _mentions_pinged(self, content: str, allowed: dict | None) -> frozenset[int]:
        mentioned = {int(m) for m in re.findall(r"<@!?(\d+)>", content or "")}
        if allowed is None:
            return frozenset(mentioned)
        if "users" in (allowed.get("parse") or []):
            return frozenset(mentioned)
        return frozenset(mentioned & {int(u) for u in allowed.get("users") or []})

    def _apply_fields(self, msg: Msg, payload: dict, files: dict, *, new: bool) -> None:
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "embeds" in payload:
            msg.embeds = payload["embeds"] or []
        elif "embed" in payload:
            msg.embeds = [payload["embed"]] if payload["embed"] else []
        if "components" in payload:
            msg.components = payload["components"] or []
        if "allowed_mentions" in payload:
            msg.allowed_mentions = payload["allowed_mentions"]
        if "flags" in payload and payload["flags"] is not None:
            msg.flags = (msg.flags & FLAG_EPHEMERAL) | (payload["flags"] & ~FLAG_LOADING) if not new \
                else payload["flags"]
        if "attachments" in payload:
            kept: list[Attachment] = []
            existing = {a.id: a for a in msg.attachments}
            for ref in payload["attachments"] or []:
                rid = int(ref["id"])
                if rid in existing:
                    if "description" in ref:
                        existing[rid].description = ref["description"]
                    kept.append(existing[rid])
                elif rid in files:
                    kept.append(self._store_file(files[rid], ref.get("description")))
            msg.attachments = kept
        elif files:
            msg.attachments = ([] if new else msg.attachments) + [self._store_file(f) for _, f in sorted(files.items())]

    def _store_file(self, f: tuple[str, bytes, str | None], description: str | None = None) -> Attachment:
        aid = snowflake()
        att = Attachment(aid, f[0], f[1], f[2], f"{self.base_url}/attachments/{aid}/{f[0]}", description)
        self.attachments[aid] = att
        if self.strict and not (description or "").strip():  # the project's rule (issue 19)
            self.undescribed.append(f[0])
            log.warning("fake Discord got the attachment %s without a description", f[0])
        return att

    def _new_message(self, channel_id: int, payload: dict, files: dict, *, source: str,
                     interaction: Exchange | None = None, pings: bool = True,
                     record: bool = True) -> Msg:
        channel = self.channels.get(channel_id)
        guild_id = int(channel["guild_id"]) if channel and channel.get("guild_id") else None
        msg = Msg(id=snowflake(), channel_id=channel_id, guild_id=guild_id, author=self.bot_user,
                  source=source, interaction_id=interaction.id if interaction else None,
                  webhook_id=self.app_id if interaction else None)
        self._apply_fields(msg, payload, files, new=True)
        if pings and not msg.ephemeral:
            msg.pings = self._mentions_pinged(msg.content, msg.allowed_mentions)
        self.messages[msg.id] = msg
        self.channel_log.setdefault(channel_id, []).append(msg)
        waiters = self._post_waiters.get(channel_id)
        if waiters:
            for pred, fut in list(waiters):
                if not fut.done() and pred(msg):
                    fut.set_result(msg)  # its done callback removes it
        if channel is not None:
            channel["last_message_id"] = str(msg.id)
            if channel["type"] in (11, 12):
                channel["message_count"] = channel.get("message_count", 0) + 1
        if record:
            for ex in self._open:
                ex.messages.append(msg)
        return msg

    def _edit(self, msg: Msg, payload: dict, files: dict) -> Msg:
        was_loading = msg.loading
        self._apply_fields(msg, payload, files, new=False)
        if was_loading:
            msg.flags &= ~FLAG_LOADING
        msg.edits += 1
        msg.edited_at = time.time()
        for ex in self._open:
            if msg in ex.messages or msg in ex.edited:
                continue
            if was_loading and msg.interaction_id == ex.id:
                ex.messages.append(msg)  # a deferred reply completed: it counts as the reply
            else:
                ex.edited.append(msg)
        return msg

    def _channel(self, cid: str | int) -> dict:
        channel = self.channels.get(int(cid))
        if channel is None:
            raise FakeHTTPError(404, 10003, "Unknown Channel")
        return channel

    def _message(self, cid: str | int, mid: str | int) -> Msg:
        msg = self.messages.get(int(mid))
        if msg is None or msg.channel_id != int(cid) or msg.deleted:
            raise FakeHTTPError(404, 10008, "Unknown Message")
        return msg

    # ------------------------------------------------------------------ REST routes

    async def _r_gateway_bot(self, request):
        return {"url": f"ws://127.0.0.1:{self.port}/gateway", "shards": self.recommended_shards,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                        "max_concurrency": 1}}

    async def _r_gateway(self, request):
        return {"url": f"ws://127.0.0.1:{self.port}/gateway"}

    async def _r_me(self, request):
        return self.bot_user.payload() | {"verified": True, "mfa_enabled": False}

    async def _r_application(self, request):
        return {"id": str(self.app_id), "name": "Stonecast", "icon": None, "description": "",
                "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
                "terms_of_service_url": None, "privacy_policy_url": None,
                "owner": self.mod.payload(), "summary": "", "verify_key": "0" * 64,
                "team": None, "guild_id": None, "primary_sku_id": None, "slug": None,
                "cover_image": None, "flags": 0, "tags": [], "install_params": None,
                "custom_install_url": None, "interactions_endpoint_url": None,
                "redirect_uris": [], "role_connections_verification_url": None,
                "approximate_guild_count": 1, "bot": self.bot_user.payload()}

    def _register_commands(self, body: list[dict], guild_id: int | None) -> list[dict]:
        try:  # names, descriptions and their localisations as Discord checks them (issue 22)
            limits.check_commands(body)
        except limits.LimitError as e:
            raise FakeHTTPError(e.status, e.code, e.message, e.errors or None) from None
        out = []
        for cmd in body:
            c = dict(cmd)
            c.setdefault("type", 1)
            c["id"] = str(snowflake())
            c["application_id"] = str(self.app_id)
            c["version"] = str(snowflake())
            if guild_id is not None:
                c["guild_id"] = str(guild_id)
            c.setdefault("description", "")
            c.setdefault("default_member_permissions", None)
            c.setdefault("dm_permission", True)
            c.setdefault("nsfw", False)
            out.append(c)
        self.sync_calls.append((guild_id, len(out)))
        return out

    async def _r_put_global_commands(self, request, app):
        body, _ = await self._read_body(request)
        self.global_commands = self._register_commands(body, None)
        return self.global_commands

    async def _r_get_global_commands(self, request, app):
        return self.global_commands

    async def _r_put_guild_commands(self, request, app, gid):
        body, _ = await self._read_body(request)
        self.guild_commands[int(gid)] = self._register_commands(body, int(gid))
        return self.guild_commands[int(gid)]

    async def _r_get_guild_commands(self, request, app, gid):
        return self.guild_commands.get(int(gid), [])

    def _exchange(self, token: str) -> Exchange:
        ex = self.exchanges.get(token)
        if ex is None:
            raise FakeHTTPError(404, 10015, "Unknown Webhook")
        return ex

    async def _r_callback(self, request, iid, token):
        ex = self._exchange(token)
        if ex.id != int(iid):
            raise FakeHTTPError(404, 10062, "Unknown interaction")
        if ex.callback_type is not None:
            raise FakeHTTPError(400, 40060, "Interaction has already been acknowledged.")
        self._check_initial_response(ex)
        body, files = await self._read_body(request)
        t = body.get("type")
        data = body.get("data") or {}
        self._check_callback(ex, t, data, files)
        ex.callback_type = t
        ex.acknowledged = time.perf_counter()
        resource: dict[str, Any] = {"type": t}
        if t == CB_MESSAGE:
            ex.original = self._new_message(ex.channel_id, data, files, source="callback", interaction=ex)
            resource["message"] = ex.original.payload()
            self._complete(ex)
        elif t == CB_DEFER:
            flags = FLAG_LOADING | (data.get("flags", 0) & FLAG_EPHEMERAL)
            ex.original = self._new_message(ex.channel_id, {"flags": flags}, {}, source="deferred",
                                            interaction=ex, pings=False, record=False)
            resource["message"] = ex.original.payload()
        elif t == CB_DEFER_UPDATE:
            if ex.message is None:
                raise FakeHTTPError(400, 50035, "Invalid Form Body: deferred update needs a message")
            ex.original = ex.message
        elif t == CB_UPDATE:
            if ex.message is None:
                raise FakeHTTPError(400, 50035, "Invalid Form Body: update needs a message")
            ex.original = self._edit(ex.message, data, files)
            resource["message"] = ex.original.payload()
            self._complete(ex)
        elif t == CB_AUTOCOMPLETE:
            ex.choices = data.get("choices", [])
            self._complete(ex)
        elif t == CB_MODAL:
            ex.modal = data
            self._complete(ex)
        else:
            raise FakeHTTPError(400, 50035, f"Invalid Form Body: callback type {t}")
        return {"interaction": {"id": str(ex.id), "type": ex.type,
                                "response_message_id": str(ex.original.id) if ex.original else None,
                                "response_message_loading": t == CB_DEFER,
                                "response_message_ephemeral": bool(ex.original and ex.original.ephemeral)},
                "resource": resource}

    def _complete(self, ex: Exchange) -> None:
        if not ex.completed.is_set():
            ex.finished = time.perf_counter()
            ex.completed.set()

    async def _r_followup(self, request, app, token):
        ex = self._exchange(token)
        if ex.callback_type is None:
            raise FakeHTTPError(404, 10015, "Unknown Webhook (interaction not acknowledged)")
        self._check_token(ex)
        body, files = await self._read_body(request)
        self._check_message(body, files)
        if ex.original is not None and ex.original.loading:
            # The first follow-up after a "thinking" deferral fills the loading message; it is an
            # edit, so its mentions do not ping (DESIGN.md, Bot).
            msg = self._edit(ex.original, {k: v for k, v in body.items() if k != "flags"}, files)
            msg.source = "followup"
        else:
            msg = self._new_message(ex.channel_id, body, files, source="followup", interaction=ex)
        self._complete(ex)
        return msg.payload()

    def _webhook_message(self, ex: Exchange, mid: str) -> Msg:
        if mid == "@original":
            if ex.original is None:
                raise FakeHTTPError(404, 10008, "Unknown Message")
            return ex.original
        msg = self.messages.get(int(mid))
        if msg is None or (msg.interaction_id != ex.id and msg is not ex.original):
            raise FakeHTTPError(404, 10008, "Unknown Message")
        return msg

    async def _r_get_webhook_message(self, request, app, token, mid):
        return self._webhook_message(self._exchange(token), mid).payload()

    async def _r_edit_webhook_message(self, request, app, token, mid):
        ex = self._exchange(token)
        self._check_token(ex)
        msg = self._webhook_message(ex, mid)
        body, files = await self._read_body(request)
        self._check_message(body, files, msg)
        msg = self._edit(msg, body, files)
        if mid == "@original":
            self._complete(ex)
        return msg.payload()

    async def _r_delete_webhook_message(self, request, app, token, mid):
        ex = self._exchange(token)
        self._webhook_message(ex, mid).deleted = True
        if mid == "@original":
            self._complete(ex)
        return None

    async def _r_get_channel(self, request, cid):
        return self._channel(cid)

    async def _r_post_message(self, request, cid):
        channel = self._channel(cid)
        failures = self.post_failures.get(int(cid))
        if failures:
            raise FakeHTTPError(*failures.pop(0))
        body, files = await self._read_body(request)
        if channel["type"] == 1:
            user = self.users[int(channel["recipients"][0]["id"])]
            if user.dms_closed:
                raise FakeHTTPError(403, 50007, "Cannot send messages to this user")
        if channel["type"] in (11, 12) and channel["thread_metadata"]["locked"]:
            raise FakeHTTPError(403, 50083, "Thread is archived")
        if channel["type"] in (11, 12):
            channel["thread_metadata"]["archived"] = False  # Discord unarchives on a post
        if not body.get("content") and not body.get("embeds") and not files and not body.get("components"):
            raise FakeHTTPError(400, 50006, "Cannot send an empty message")
        self._check_message(body, files)
        nonce = body.get("nonce")
        if nonce is not None and len(str(nonce)) > 25:
            raise FakeHTTPError(400, 50035, "Invalid Form Body: nonce must be at most 25 characters")
        key = (self.bot_user.id, str(nonce))
        if nonce is not None and body.get("enforce_nonce"):
            earlier = self.nonces.get(key)
            if earlier is not None and time.time() - earlier.created_at < self.nonce_window:
                self.nonce_hits += 1
                return earlier.payload()
        msg = self._new_message(int(cid), body, files, source="channel")
        if nonce is not None:
            msg.nonce = str(nonce)
            if body.get("enforce_nonce"):
                self.nonces[key] = msg
        self._lose_response(int(cid))
        return msg.payload()

    async def _r_typing(self, request, cid):
        self._channel(cid)
        self.typing.append(int(cid))
        return None

    # ---- GET /channels/{id}/messages (issue 18: the outbox looks for a post it may have made)

    async def _r_list_messages(self, request, cid):
        """Get Channel Messages: the channel's messages newest first, at most ``limit`` (1 to
        100, default 50), those ``before`` or ``after`` a message id or ``around`` one (at
        most one of the three, as Discord takes them). Each as Discord returns a fetched
        message: without ``nonce``, which Discord keeps only for the create response and the
        gateway's MESSAGE_CREATE (discord.py issue 2451). Unknown channel: 404 (10003)."""
        self._channel(cid)
        return [{k: v for k, v in m.payload().items() if k != "nonce"}
                for m in self._listed_messages(int(cid), request.query)]

    def _listed_messages(self, channel_id: int, query) -> list[Msg]:
        """The messages of :meth:`_r_list_messages` for ``query`` (its query string)."""
        try:
            limit = int(query.get("limit", 50))
            anchors = {k: int(query[k]) for k in ("before", "after", "around") if k in query}
        except ValueError:
            raise FakeHTTPError(400, 50035, "Invalid Form Body: limit, before, after and around "
                                            "are integers and snowflakes") from None
        if not 1 <= limit <= 100:
            raise FakeHTTPError(400, 50035, "Invalid Form Body: limit must be between 1 and 100")
        if len(anchors) > 1:
            raise FakeHTTPError(400, 50035, "Invalid Form Body: before, after and around are "
                                            "mutually exclusive")
        newest_first = sorted(self.channel_messages(channel_id), key=lambda m: m.id, reverse=True)
        if "before" in anchors:
            return [m for m in newest_first if m.id < anchors["before"]][:limit]
        if "after" in anchors:  # the oldest ones after it, listed newest first
            return [m for m in newest_first if m.id > anchors["after"]][-limit:]
        if "around" in anchors:
            older = [m for m in newest_first if m.id <= anchors["around"]][:(limit + 1) // 2]
            newer = [m for m in newest_first if m.id > anchors["around"]][-(limit // 2):] if limit > 1 else []
            return newer + older
        return newest_first[:limit]

    async def _r_get_message(self, request, cid, mid):
        return self._message(cid, mid).payload()

    async def _r_edit_message(self, request, cid, mid):
        msg = self._message(cid, mid)
        body, files = await self._read_body(request)
        self._check_message(body, files, msg)
        return self._edit(msg, body, files).payload()

    async def _r_delete_message(self, request, cid, mid):
        self._message(cid, mid).deleted = True
        return None

    async def _r_create_thread(self, request, cid, mid=None):
        parent = self._channel(cid)
        if int(cid) in self.threads_forbidden:
            raise FakeHTTPError(403, 50013, "Missing Permissions")
        if parent["type"] != 0:
            raise FakeHTTPError(400, 50024, "Cannot execute action on this channel type")
        body, _ = await self._read_body(request)
        if mid is not None:
            self._message(cid, mid)
            tid = int(mid)
            if tid in self.channels:
                raise FakeHTTPError(400, 160004, "A thread has already been created for this message")
            ttype = 11
        else:
            tid = snowflake()
            ttype = body.get("type", 12)
        name = body.get("name") or ""
        self._check_thread_name(name)
        thread = {"id": str(tid), "type": ttype, "guild_id": parent["guild_id"], "parent_id": str(cid),
                  "owner_id": str(self.bot_user.id), "name": name, "last_message_id": None,
                  "rate_limit_per_user": body.get("rate_limit_per_user") or 0,
                  "message_count": 0, "member_count": 1, "total_message_sent": 0, "flags": 0,
                  "thread_metadata": {"archived": False,
                                      "auto_archive_duration": body.get("auto_archive_duration", 1440),
                                      "archive_timestamp": _iso(), "locked": False,
                                      "invitable": body.get("invitable", True),
                                      "create_timestamp": _iso()},
                  "member": {"id": str(tid), "user_id": str(self.bot_user.id),
                             "join_timestamp": _iso(), "flags": 0}}
        self.channels[tid] = thread
        self.thread_members[tid] = {self.bot_user.id}
        await self.dispatch("THREAD_CREATE", thread | {"newly_created": True}, int(parent["guild_id"]))
        return thread

    async def _r_add_thread_member(self, request, cid, uid):
        channel = self._channel(cid)
        if channel["type"] not in (11, 12):
            raise FakeHTTPError(400, 50024, "Cannot execute action on this channel type")
        uid_int = self.bot_user.id if uid == "@me" else int(uid)
        if uid_int not in self.users:
            raise FakeHTTPError(404, 10013, "Unknown User")
        self.thread_members.setdefault(int(cid), set()).add(uid_int)
        return None

    async def _r_open_dm(self, request):
        body, _ = await self._read_body(request)
        user = self.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            raise FakeHTTPError(404, 10013, "Unknown User")
        for c in self.channels.values():
            if c["type"] == 1 and c["recipients"][0]["id"] == str(user.id):
                return c
        cid = snowflake()
        self.channels[cid] = {"id": str(cid), "type": 1, "last_message_id": None,
                              "recipients": [user.payload()]}
        return self.channels[cid]

    async def _r_get_user(self, request, uid):
        user = self.users.get(int(uid))
        if user is None:
            raise FakeHTTPError(404, 10013, "Unknown User")
        return user.payload()

    async def _r_get_member(self, request, gid, uid):
        user = self.users.get(int(uid))
        if user is None or int(gid) not in self.guilds:
            raise FakeHTTPError(404, 10007, "Unknown Member")
        return user.member_payload()

    async def _r_get_guild(self, request, gid):
        if int(gid) not in self.guilds:
            raise FakeHTTPError(404, 10004, "Unknown Guild")
        data = self.guild_payload(int(gid))
        for k in ("channels", "threads", "members", "presences", "voice_states"):
            data.pop(k)
        return data

    async def _get_attachment(self, request):
        att = self.attachments.get(int(request.match_info["aid"]))
        if att is None:
            raise web.HTTPNotFound()
        return web.Response(body=att.data, content_type=att.content_type or "application/octet-stream")

    # ------------------------------------------------------------------ Discord's limits (issue 18)
    # Everything Discord documents as invalid in what a bot sends is refused here with
    # Discord's own status, JSON code and message (the limits and their sources:
    # tests/fakediscord/limits.py). Each refusal is recorded in ``errors`` like any error
    # answer and also in ``refusals`` (route, status, code, what was wrong); while ``strict``
    # (default) a driver call during which one happened raises AssertionError, and the
    # ``harness`` fixture asserts none happened outside interactions either.

    REFUSALS = {(400, 50035), (413, 40005), (404, 10062), (400, 40060), (401, 50027)}

    def _init_limits(self) -> None:
        # seconds from dispatch within which the initial interaction response must come
        # (Discord: 3). Deliberately separate from ``timeout``, which bounds the whole answer
        # (deferral included) that a driver call waits for: give a loaded machine slack here
        # only on purpose.
        self.response_window = limits.RESPONSE_SECONDS
        self.token_window = float(limits.TOKEN_SECONDS)  # follow-ups and edits by token
        self.upload_bytes = limits.UPLOAD_BYTES  # a file, the default upload limit
        self.strict = True
        self.refusals: list[tuple[str, int, int, str]] = []
        # files uploaded without a description (alt text) while ``strict``: Discord takes
        # them, the project does not (issue 19: every picture says what it shows)
        self.undescribed: list[str] = []

    def _record_refusal(self, request: web.Request, e: FakeHTTPError) -> None:
        what = "; ".join(limits.flatten(e.errors)) if e.errors else e.message
        self.refusals.append((f"{request.method} {request.path}", e.status, e.code, what))
        log.warning("fake Discord refused %s %s: %s (%s) %s", request.method, request.path,
                    e.status, e.code, what)

    def _check_message(self, body: dict, files: dict, msg: Msg | None = None) -> None:
        """Refuse a message payload (post, edit, interaction response or follow-up) that
        breaks Discord's limits: 400 / 50035 naming the fields, 413 / 40005 for a big file.
        ``msg``: the message an edit changes (its attachments count unless replaced)."""
        kept = len(msg.attachments) if msg is not None else 0
        try:
            limits.check_message(body, [len(f[1]) for f in files.values()], kept_attachments=kept,
                                 upload_bytes=self.upload_bytes)
        except limits.LimitError as e:
            raise FakeHTTPError(e.status, e.code, e.message, e.errors or None) from None

    def _check_callback(self, ex: Exchange, t: int | None, data: dict, files: dict) -> None:
        """Refuse an interaction callback whose message (types 4, 7) or autocomplete choices
        (type 8) break Discord's limits."""
        if t in (CB_MESSAGE, CB_UPDATE):
            try:
                self._check_message(data, files, ex.message if t == CB_UPDATE else None)
            except FakeHTTPError as e:  # Discord names the fields under "data"
                e.errors = {"data": e.errors} if e.errors else None
                raise
        elif t == CB_AUTOCOMPLETE:
            try:
                limits.check_choices(data.get("choices") or [])
            except limits.LimitError as e:
                raise FakeHTTPError(e.status, e.code, e.message, {"data": e.errors}) from None

    def _check_initial_response(self, ex: Exchange) -> None:
        """Refuse an initial response later than ``response_window`` seconds after the
        interaction was dispatched (Discord: 3 s, then the interaction is unknown). The
        exchange is over then: the driver call returns and reports the refusal."""
        late = time.perf_counter() - ex.started
        if late > self.response_window:
            self._complete(ex)
            raise FakeHTTPError(404, 10062, f"Unknown interaction (answered after {late:.2f} s)")

    def _check_token(self, ex: Exchange) -> None:
        """Refuse a follow-up or webhook edit more than ``token_window`` seconds after the
        interaction (Discord: the token is valid for 15 minutes)."""
        if time.perf_counter() - ex.started > self.token_window:
            raise FakeHTTPError(401, 50027, "Invalid Webhook Token")

    def _check_thread_name(self, name: str) -> None:
        try:
            limits.check_thread_name(name)
        except limits.LimitError as e:
            raise FakeHTTPError(e.status, e.code, e.message, e.errors) from None

    # ------------------------------------------------------------------ driver

    def command(self, name: str) -> dict:
        """The synced definition of top-level command ``name`` (guild commands first)."""
        for cmd in self.guild_commands.get(self.guild_id, []) + self.global_commands:
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd
        raise AssertionError(f"command /{name} was not synced; synced: "
                             f"{[c['name'] for c in self.guild_commands.get(self.guild_id, []) + self.global_commands]}")

    def dm_command(self, name: str) -> dict:
        """The synced definition of ``name`` as Discord offers it in a DM with the bot: only a
        global command whose contexts include the bot's DM (1) -- or, without contexts, whose
        ``dm_permission`` is not false. Guild commands never show in DMs."""
        for cmd in self.global_commands:
            if cmd["name"] != name or cmd.get("type", 1) != 1:
                continue
            contexts = cmd.get("contexts")
            if (1 in contexts) if contexts is not None else cmd.get("dm_permission", True) is not False:
                return cmd
        raise AssertionError(f"Discord offers no /{name} in a direct message with the bot")

    def dm_channel_for(self, user: FakeUser) -> int:
        """The DM channel between the bot and ``user`` (opened if needed)."""
        cid = self.dm_channel(user)
        if cid is None:
            cid = snowflake()
            self.channels[cid] = {"id": str(cid), "type": 1, "last_message_id": None,
                                  "recipients": [user.payload()]}
        return cid

    def _build_options(self, schema: list[dict], values: dict, resolved: dict, *,
                       focused: str | None) -> list[dict]:
        """Typed option payloads for ``values``, validated like Discord's client would."""
        by_name = {o["name"]: o for o in schema}
        out = []
        for name, value in values.items():
            spec = by_name.get(name)
            if spec is None:
                raise AssertionError(f"no option {name!r}; options: {list(by_name)}")
            t = spec["type"]
            if name == focused:
                out.append({"name": name, "type": t, "value": str(value), "focused": True})
                continue
            if t == OPT_USER:
                user = value if isinstance(value, FakeUser) else self.users[int(value)]
                resolved.setdefault("users", {})[str(user.id)] = user.payload()
                if user.in_guild:
                    resolved.setdefault("members", {})[str(user.id)] = user.member_payload(with_user=False)
                value = str(user.id)
            elif t == OPT_ROLE:
                rid = int(value)
                role = self.roles.get(rid) or {"id": str(rid), "name": "@everyone", "permissions": str(MEMBER_PERMISSIONS),
                                               "position": 0, "color": 0, "hoist": False, "managed": False,
                                               "mentionable": False, "flags": 0}
                resolved.setdefault("roles", {})[str(rid)] = role
                value = str(rid)
            elif t == OPT_INTEGER:
                assert isinstance(value, int) and not isinstance(value, bool), f"{name} needs an int"
            elif t == OPT_NUMBER:
                value = float(value)
            elif t == OPT_BOOLEAN:
                assert isinstance(value, bool), f"{name} needs a bool"
            elif t == OPT_STRING:
                assert isinstance(value, str), f"{name} needs a str"
                if "max_length" in spec and spec["max_length"] is not None:
                    assert len(value) <= spec["max_length"], f"{name} too long for Discord"
            if spec.get("choices"):
                allowed = [c["value"] for c in spec["choices"]]
                assert value in allowed, f"Discord's client offers only {allowed} for {name}"
            if spec.get("min_value") is not None:
                assert value >= spec["min_value"], f"{name} below Discord's minimum"
            if spec.get("max_value") is not None:
                assert value <= spec["max_value"], f"{name} above Discord's maximum"
            out.append({"name": name, "type": t, "value": value})
        if focused is None:
            for spec in schema:
                if spec.get("required") and spec["name"] not in values:
                    raise AssertionError(f"option {spec['name']} is required")
        return out

    def _interaction_payload(self, ex: Exchange, user: FakeUser, channel_id: int, data: dict | None,
                             message: Msg | None) -> dict:
        channel = self.channels[channel_id]
        gid = channel.get("guild_id") or str(self.guild_id)
        payload = {
            "id": str(ex.id), "application_id": str(self.app_id), "type": ex.type,
            "token": ex.token, "version": 1, "guild_id": gid,
            "guild": {"id": gid, "locale": self.guild_locale, "features": []},
            "channel_id": str(channel_id), "channel": channel | {"permissions": str(user.permissions)},
            "member": user.member_payload(), "app_permissions": str(MEMBER_PERMISSIONS),
            "locale": user.locale, "guild_locale": self.guild_locale, "entitlements": [],
            "authorizing_integration_owners": {"0": gid}, "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if data is not None:
            payload["data"] = data
        if message is not None:
            payload["message"] = message.payload()
        if channel["type"] == 1:  # the bot's DM: no guild, a user instead of a member
            for key in ("guild_id", "guild", "member", "guild_locale"):
                payload.pop(key)
            payload["user"] = user.payload()
            payload["channel"] = channel
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
            payload["context"] = 1
        return payload

    async def _run(self, ex: Exchange, payload: dict, timeout: float | None) -> Exchange:
        self.exchanges[ex.token] = ex
        self._open.append(ex)
        refused_before, undescribed_before = len(self.refusals), len(self.undescribed)
        try:
            ex.started = time.perf_counter()
            mark = len(self._spawned)
            await self.dispatch("INTERACTION_CREATE", payload, int(payload.get("guild_id") or 0) or None)
            try:
                await asyncio.wait_for(ex.completed.wait(), timeout or self.timeout)
            except TimeoutError:
                raise AssertionError(
                    f"the bot did not finish answering the interaction (callback type "
                    f"{ex.callback_type}); unknown routes: {self.unknown_routes}; "
                    f"errors: {ex.errors}") from None
            # Handlers that end within the settle time have posted all they post: only what
            # they started in the background remains. A longer one (a review editing in its
            # progress) is left running, and the bot's silence decides, as for another process.
            handlers = [t for t in self._spawned[mark:] if t.get_name().startswith(HANDLER_TASKS)]
            ended = bool(handlers) and not (await asyncio.wait(handlers, timeout=self.settle))[1]
            await self.quiet(min(self.settle, HANDLED_SETTLE) if ended else None)
        finally:
            self._open.remove(ex)
            if not self._open:
                self._spawned.clear()
        if self.strict and len(self.refusals) > refused_before:
            raise AssertionError(f"Discord would refuse what the bot sent: {self.refusals[refused_before:]}")
        if self.strict and len(self.undescribed) > undescribed_before:
            raise AssertionError(f"attachments without a description: {self.undescribed[undescribed_before:]}")
        return ex

    async def quiet(self, settle: float | None = None) -> None:
        """Wait until the bot has made no request for ``settle`` seconds."""
        settle = self.settle if settle is None else settle
        while True:
            idle = time.perf_counter() - self._last_activity
            if idle >= settle:
                return
            await asyncio.sleep(settle - idle)

    def _new_exchange(self, user: FakeUser, type_: int, channel: int | None, message: Msg | None = None) -> Exchange:
        channel_id = channel or (message.channel_id if message else self.general)
        return Exchange(id=snowflake(), token=f"tok{snowflake()}", user=user, type=type_,
                        channel_id=channel_id, message=message)

    def _command_data(self, command: str, options: dict, focused: str | None, *, dm: bool = False) -> dict:
        parts = command.split()
        cmd = self.dm_command(parts[0]) if dm else self.command(parts[0])
        resolved: dict = {}
        schema = cmd.get("options") or []
        nested: list[dict] | None = None
        wrapper: list[dict] = []
        cursor = wrapper
        for sub in parts[1:]:
            spec = next((o for o in schema if o["name"] == sub and o["type"] in (OPT_SUB_COMMAND, OPT_GROUP)), None)
            if spec is None:
                raise AssertionError(f"/{parts[0]} has no subcommand {sub!r}")
            node = {"name": sub, "type": spec["type"], "options": []}
            cursor.append(node)
            cursor = node["options"]
            schema = spec.get("options") or []
        nested = self._build_options(schema, options, resolved, focused=focused)
        cursor.extend(nested)
        data = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": wrapper}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(self, user: FakeUser, command: str, options: dict | None = None, *,
                    channel: int | None = None, timeout: float | None = None,
                    dm: bool = False) -> Exchange:
        """Run ``/command`` (``"challenge io"`` for a subcommand) as ``user`` in ``channel``;
        ``dm=True``: in ``user``'s direct messages with the bot (only commands Discord offers
        there, see :meth:`dm_command`)."""
        if dm:
            channel = self.dm_channel_for(user)
        ex = self._new_exchange(user, 2, channel)
        data = self._command_data(command, options or {}, None, dm=dm)
        return await self._run(ex, self._interaction_payload(ex, user, ex.channel_id, data, None), timeout)

    async def autocomplete(self, user: FakeUser, command: str, options: dict, *, focused: str,
                           channel: int | None = None, timeout: float | None = None) -> Exchange:
        """Type into option ``focused`` of ``/command``; ``ex.choices`` holds the suggestions."""
        assert focused in options, "the focused option must be among the options typed"
        ex = self._new_exchange(user, 4, channel)
        data = self._command_data(command, options, focused)
        return await self._run(ex, self._interaction_payload(ex, user, ex.channel_id, data, None), timeout)

    async def click(self, user: FakeUser, message: Msg, custom_id: str, *,
                    timeout: float | None = None) -> Exchange:
        """Press the button ``custom_id`` on ``message`` as ``user``."""
        assert custom_id in message.custom_ids, f"{custom_id!r} is not on the message ({message.custom_ids})"
        button = next(b for b in message.buttons if b.get("custom_id") == custom_id)
        assert not button.get("disabled"), f"button {custom_id!r} is disabled"
        ex = self._new_exchange(user, 3, None, message)
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._run(ex, self._interaction_payload(ex, user, message.channel_id, data, message), timeout)

    async def submit_modal(self, user: FakeUser, opened: Exchange, values: list[str], *,
                           timeout: float | None = None) -> Exchange:
        """Send the form ``opened`` showed (callback type 9) as ``user``, its text inputs
        filled with ``values`` in order; the submission carries the message whose button
        opened it, as Discord's does."""
        assert opened.modal is not None, "that interaction opened no form"
        inputs: list[dict] = []

        def walk(components: list[dict]) -> None:
            for c in components:
                if c.get("type") == 4:
                    inputs.append(c)
                walk(c.get("components") or ([c["component"]] if "component" in c else []))

        walk(opened.modal.get("components") or [])
        assert len(inputs) == len(values), f"the form has {len(inputs)} inputs"
        rows = [{"type": 1, "components": [{"type": 4, "custom_id": c["custom_id"], "value": v}]}
                for c, v in zip(inputs, values, strict=True)]
        ex = self._new_exchange(user, 5, None, opened.message)
        data = {"custom_id": opened.modal["custom_id"], "components": rows}
        return await self._run(ex, self._interaction_payload(ex, user, ex.channel_id, data, opened.message), timeout)

    # ------------------------------------------------------------------ faults

    def fail_posts(self, channel_id: int, status: int = 503, code: int = 0,
                   message: str = "Service Unavailable", *, times: int = 1) -> None:
        """Answer the next ``times`` message posts to ``channel_id`` with an error (recorded in
        ``errors`` like any other). Prefer 503: discord.py itself retries 500, 502, 504 and 524
        with sleeps of seconds, while a 503 reaches the bot at once."""
        self.post_failures.setdefault(channel_id, []).extend([(status, code, message)] * times)

    def lose_post_responses(self, channel_id: int, *, times: int = 1) -> None:
        """The next ``times`` message posts to ``channel_id`` are made, but their answer is
        lost: a 503 reaches the bot instead (as when Discord creates the message and the
        response never arrives). Issue 18: the bot must not post them twice."""
        self.lost_responses[channel_id] = self.lost_responses.get(channel_id, 0) + times

    def _lose_response(self, channel_id: int) -> None:
        """Raise the 503 of a post made whose answer :meth:`lose_post_responses` loses."""
        if self.lost_responses.get(channel_id, 0) > 0:
            self.lost_responses[channel_id] -= 1
            raise FakeHTTPError(503, 0, "Service Unavailable (the message was made; the answer was lost)")

    def delete_channel(self, channel_id: int) -> None:
        """Delete a channel or thread: every later request to it answers 404 Unknown Channel."""
        del self.channels[channel_id]

    # ------------------------------------------------------------------ inspection

    def expect_post(self, channel_id: int, predicate) -> asyncio.Future:
        """A future for the first message created in ``channel_id`` from now on for which
        ``predicate(msg)`` is true (earlier messages are not looked at): register it before
        sending the interaction that posts it, then await it (``asyncio.wait_for`` for a
        time limit; cancelling it stops the watch)."""
        fut = asyncio.get_running_loop().create_future()
        waiters = self._post_waiters.setdefault(channel_id, [])
        waiters.append((predicate, fut))
        fut.add_done_callback(lambda f: (predicate, f) in waiters and waiters.remove((predicate, f)))
        return fut

    def channel_messages(self, channel_id: int) -> list[Msg]:
        """Messages created in ``channel_id`` (threads and DM channels included), oldest first."""
        return [m for m in self.channel_log.get(channel_id, []) if not m.deleted]

    def threads(self) -> list[dict]:
        """Every thread channel created so far."""
        return [c for c in self.channels.values() if c["type"] in (11, 12)]

    def dm_channel(self, user: FakeUser) -> int | None:
        """The id of the DM channel the bot opened with ``user``, if any."""
        for c in self.channels.values():
            if c["type"] == 1 and c["recipients"][0]["id"] == str(user.id):
                return int(c["id"])
        return None
