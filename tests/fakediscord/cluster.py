"""Several real bot processes against one :class:`FakeDiscord`, and games set up without Discord.

The fake runs in the driver's process (a test or ``benchmarks/scale.py``); each bot is a real
``python -m bot`` child process pointed at it over 127.0.0.1 (``STONECAST_API_URL``), with its
share of the gateway shards (``STONECAST_SHARD_COUNT``/``STONECAST_SHARD_IDS``): process k of N
runs the k-th contiguous block of shards. The fake sends each guild's events on the shard that
owns it (``fake.add_guild(shard=...)``), so every process gets the interactions of its guilds.
All processes use one database (``STONECAST_DB``): SQLite allows only one process per file.

    fake = FakeDiscord(global_rate_limit=50)
    await fake.start()
    places = [fake.add_guild(f"g{k}", shard=(k, 3)) for k in range(3)]
    ...seed_games(manager, fake, places, 1000)...   # then close that manager
    procs = BotProcesses(fake, db="...", processes=3, shard_count=3)
    await procs.start()            # waits until every shard is connected
    ...drive interactions with fake.slash(...)...
    await procs.stop()             # SIGTERM, wait; procs.rss() before for memory
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import sys
from pathlib import Path

import engine

from .server import FakeDiscord, FakeUser

ROOT = Path(__file__).resolve().parents[2]


def shard_block(k: int, processes: int, shard_count: int) -> list[int]:
    """The shard ids process ``k`` (0-based) of ``processes`` runs out of ``shard_count``:
    contiguous blocks, as even as possible (``shard_block(1, 3, 8) == [3, 4, 5]``). Raises
    ValueError when there are fewer shards than processes or ``k`` is out of range."""
    if not 0 < processes <= shard_count or not 0 <= k < processes:
        raise ValueError(f"process {k} of {processes} cannot run a share of {shard_count} shards")
    base, extra = divmod(shard_count, processes)
    start = k * base + min(k, extra)
    return list(range(start, start + base + (1 if k < extra else 0)))


def shard_ids_text(ids: list[int]) -> str:
    """``STONECAST_SHARD_IDS`` for a contiguous block: ``"3-5"``, or ``"4"`` for one shard."""
    return str(ids[0]) if len(ids) == 1 else f"{ids[0]}-{ids[-1]}"


def bot_env(fake: FakeDiscord, db: str | Path, *, shard_count: int | None = None,
            shard_ids: list[int] | None = None, render_workers: int | None = None,
            extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a ``python -m bot`` child using ``fake`` and database ``db`` (a file
    or a URL), running ``shard_ids`` of ``shard_count`` (default: every shard)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("STONECAST_")}
    env.update({
        "DISCORD_TOKEN": fake.token,
        "STONECAST_API_URL": f"{fake.base_url}/api/v10",
        "STONECAST_DB": str(db),
        "PYTHONPATH": os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
    })
    if shard_count is not None:
        env["STONECAST_SHARD_COUNT"] = str(shard_count)
    if shard_ids is not None:
        env["STONECAST_SHARD_IDS"] = shard_ids_text(shard_ids)
    if render_workers is not None:
        env["STONECAST_RENDER_WORKERS"] = str(render_workers)
    env.update(extra or {})
    return env


def _rss_kib(pid: int) -> int:
    """Resident memory of process ``pid`` in KiB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    """Every descendant of ``pid`` (from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        parents.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


class BotProcesses:
    """``processes`` real bot processes (``python -m bot``) on database ``db`` against ``fake``.

    ``shard_count`` (default ``processes``) shards are split in contiguous blocks
    (:func:`shard_block`); ``render_workers`` is each process's ``STONECAST_RENDER_WORKERS``
    (default: the bot's own default); ``extra_env`` more variables. Each process's output goes
    to ``log_dir/bot-k.log`` (default: the database's folder, or the current one for a URL).
    """

    def __init__(self, fake: FakeDiscord, db: str | Path, *, processes: int = 1,
                 shard_count: int | None = None, render_workers: int | None = None,
                 extra_env: dict[str, str] | None = None, log_dir: Path | None = None):
        self.fake = fake
        self.db = db
        self.processes = processes
        self.shard_count = processes if shard_count is None else shard_count
        self.render_workers = render_workers
        self.extra_env = extra_env
        is_url = "://" in str(db)
        self.log_dir = log_dir or (Path.cwd() if is_url else Path(db).parent)
        self.procs: list[asyncio.subprocess.Process] = []
        self.logs: list[Path] = []

    async def start(self, timeout: float = 60.0) -> None:
        """Start the processes; return once every shard has identified and the slash commands
        are synced. Raises RuntimeError (with the end of its log) if a process exits first,
        TimeoutError after ``timeout`` s."""
        for k in range(self.processes):
            ids = shard_block(k, self.processes, self.shard_count)
            env = bot_env(self.fake, self.db, shard_count=self.shard_count, shard_ids=ids,
                          render_workers=self.render_workers, extra=self.extra_env)
            log = self.log_dir / f"bot-{k}.log"
            self.logs.append(log)
            with open(log, "wb") as out:
                self.procs.append(await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot", cwd=str(ROOT), env=env,
                    stdout=out, stderr=asyncio.subprocess.STDOUT))
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        wanted = set(range(self.shard_count))
        while True:
            for k, proc in enumerate(self.procs):
                if proc.returncode is not None:
                    raise RuntimeError(f"bot process {k} exited with status {proc.returncode}:\n"
                                       + self.log_tail(k))
            connected = {gw.shard[0] for gw in self.fake._gateways
                         if gw.identified.is_set() and not gw.ws.closed}
            if connected >= wanted and self.fake.global_commands:
                return
            if loop.time() > end:
                raise TimeoutError(f"shards {sorted(wanted - connected)} did not connect:\n"
                                   + "\n".join(self.log_tail(k) for k in range(self.processes)))
            await asyncio.sleep(0.05)

    def log_tail(self, k: int, lines: int = 20) -> str:
        """The last ``lines`` lines of process ``k``'s output."""
        try:
            return "\n".join(self.logs[k].read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    @property
    def pids(self) -> list[int]:
        """The bot processes' ids, in order."""
        return [p.pid for p in self.procs]

    def rss(self) -> list[tuple[int, int]]:
        """Per bot process, resident memory in KiB: ``(the bot process, its worker processes
        together)`` -- render and search workers are its children."""
        return [(_rss_kib(pid), sum(_rss_kib(c) for c in _children(pid))) for pid in self.pids]

    async def stop(self, timeout: float = 30.0) -> list[int]:
        """SIGTERM every process (a clean stop), wait for them; SIGKILL one that outlives
        ``timeout``. Returns their exit statuses."""
        for proc in self.procs:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
        statuses = []
        for proc in self.procs:
            try:
                statuses.append(await asyncio.wait_for(proc.wait(), timeout))
            except TimeoutError:
                proc.kill()
                statuses.append(await proc.wait())
        await self.fake.quiet()
        return statuses


# ---------------------------------------------------------------- games set up without Discord

@dataclasses.dataclass
class SeededGame:
    """A game :func:`seed_games` made: its id, guild and thread, its two players (seat 1
    first) and its current position (the driver keeps it up to date as it plays)."""

    id: int
    guild_id: int
    thread_id: int
    players: tuple[FakeUser, FakeUser]
    position: engine.Position

    @property
    def to_move(self) -> FakeUser:
        """The player whose turn it is."""
        return self.players[self.position.to_move - 1]


async def seed_games(manager, fake: FakeDiscord, places: list[tuple[int, int]], n: int, *,
                     kinds: list[str] | None = None, started_ago: float = 0.0,
                     days_per_move: int = 3, prefix: str = "s") -> list[SeededGame]:
    """Make ``n`` running games through the manager's API (challenge, accept, thread, first
    board marked delivered -- as if posted long ago), each between two new members of
    ``fake``, round-robin over ``places`` (``(guild id, channel id)`` pairs) and ``kinds``
    (default: every game, default options), each in a thread made in the fake
    (:meth:`FakeDiscord.add_thread`); both players' display names stored, as the challenge
    commands do. ``started_ago``: seconds before now the games began
    (the manager's clock is set back meanwhile), so ``days_per_move`` days after that their
    first deadline falls. Nothing is sent to Discord. Returns the games in order."""
    kinds = kinds or list(engine.GAMES)
    clock = manager.clock
    manager.clock = lambda: clock() - started_ago
    games = []
    try:
        for i in range(n):
            guild_id, channel_id = places[i % len(places)]
            kind = kinds[i % len(kinds)]
            a, b = fake.add_user(f"{prefix}{i}a"), fake.add_user(f"{prefix}{i}b")
            ch = await manager.create_challenge(guild_id=guild_id, channel_id=channel_id,
                                                challenger_id=a.id, opponent_id=b.id, kind=kind,
                                                first="challenger", days_per_move=days_per_move)
            accepted = await manager.accept(ch.id, b.id)
            for user in (a, b):  # what /challenge and Accept store (the bot's remember)
                await manager.remember_name(user.id, user.name.title())
            thread = fake.add_thread(channel_id, f"{kind} #{accepted.game.id}")
            await manager.set_game_thread(accepted.game.id, thread)
            for aid in (accepted.announcement_id, accepted.dm_id):
                if aid is not None:
                    await manager.mark_delivered(aid)
            games.append(SeededGame(accepted.game.id, guild_id, thread, (a, b), accepted.position))
    finally:
        manager.clock = clock
    return games


# ---------------------------------------------------------------- routing an interaction

def gateway_of(fake: FakeDiscord, shard_id: int):
    """The fake's open gateway connection running shard ``shard_id`` (the process that runs
    it). Raises LookupError when no connection runs it."""
    for gw in fake._gateways:
        if gw.shard[0] == shard_id and gw.identified.is_set() and not gw.ws.closed:
            return gw
    raise LookupError(f"no connection runs shard {shard_id}")


async def slash_via(fake: FakeDiscord, gateway, guild_id: int, *args, **kwargs):
    """``fake.slash(*args, **kwargs)`` in guild ``guild_id`` (not the fake's first guild),
    delivered on ``gateway`` whatever shard owns the guild -- as Discord may during a shard's
    hand-over from one process to another -- so two processes can be made to race on one
    game. Returns the :class:`Exchange`."""
    lock = fake.__dict__.setdefault("_route_lock", asyncio.Lock())
    async with lock:  # one re-routing at a time
        owner = fake._guild_gateways[guild_id]
        fake._guild_gateways[guild_id] = gateway
        task = asyncio.ensure_future(fake.slash(*args, **kwargs))
        try:
            await asyncio.sleep(0)  # the interaction is handed to ``gateway`` on its first step
            await asyncio.sleep(0)
        finally:
            fake._guild_gateways[guild_id] = owner
    return await task
