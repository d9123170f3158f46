"""Every process ``python -m bot`` starts (render workers, the computer's search workers,
multiprocessing's resource tracker) ends soon after the bot's own process, however it died (issue 9, item 1; DESIGN.md, Shape)."""

import asyncio
import multiprocessing
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from fakediscord.fixtures import *  # noqa: F403

from bot.workers import procs

ROOT = Path(__file__).resolve().parents[1]
GONE_WITHIN = 10.0  # seconds after the bot's SIGKILL

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def live_group_members(pgid: int) -> dict[int, str]:
    """pid -> command line of every process in process group ``pgid`` that is not a zombie."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:  # gone meanwhile
            continue
        fields = stat.rsplit(")", 1)[1].split()  # state, ppid, pgrp, ...
        if fields[0] != "Z" and int(fields[2]) == pgid:
            found[int(entry)] = cmdline.strip()
    return found


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "STONECAST_"))}
    env.update(extra)
    return env


async def test_helpers_end_soon_after_the_bot_is_killed(fake, tmp_path):
    env = _env(DISCORD_TOKEN=fake.token, STONECAST_DB=str(tmp_path / "stonecast.db"),
               STONECAST_GUILD=str(fake.guild_id), STONECAST_API_URL=f"{fake.base_url}/api/v10")
    with open(tmp_path / "out.txt", "wb") as out, open(tmp_path / "err.txt", "wb") as err:
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=ROOT, env=env,
                                                    stdout=out, stderr=err, start_new_session=True)
    pgid = proc.pid  # a new session: the bot leads its own process group
    try:
        deadline = time.monotonic() + 60
        while not (fake.identifies and fake.sync_calls and fake._gateway is not None):
            assert proc.returncode is None, (tmp_path / "err.txt").read_text()
            assert time.monotonic() < deadline, "the bot did not start"
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # the gateway's READY and GUILD_CREATE
        ex = await fake.slash(fake.alice, "rules", {"game": "io"}, timeout=60)
        assert ex.reply.png() is not None  # drawn by the render pool
        helpers = {pid: cmd for pid, cmd in live_group_members(pgid).items() if pid != proc.pid}
        assert any("resource_tracker" in cmd for cmd in helpers.values()), helpers
        renderers = sum("spawn_main" in cmd for cmd in helpers.values())
        assert renderers >= 1, helpers
        # the computer thinks (issue 12): a search worker, killed with the bot mid-search
        ex = await fake.slash(fake.alice, "challenge io", {"opponent": fake.bot_user, "size": 5,
                                                           "first": "opponent", "level": 5}, timeout=60)
        assert "against the computer has started" in ex.reply.content, ex.reply.content
        while sum("spawn_main" in cmd for cmd in live_group_members(pgid).values()) <= renderers:
            assert time.monotonic() < deadline, "no search worker started"
            await asyncio.sleep(0.05)
        helpers = {pid: cmd for pid, cmd in live_group_members(pgid).items() if pid != proc.pid}

        os.kill(proc.pid, signal.SIGKILL)  # the bot alone: nothing tells its helpers
        killed = time.monotonic()
        await proc.wait()
        while (alive := live_group_members(pgid)) and time.monotonic() - killed < GONE_WITHIN:
            await asyncio.sleep(0.02)
        took = time.monotonic() - killed
        assert not alive, f"still running {took:.1f} s after the bot's SIGKILL: {alive}"
        print(f"\nthe last of {len(helpers)} helpers ended {took:.3f} s after the bot's SIGKILL")
    finally:
        try:
            os.killpg(pgid, signal.SIGKILL)  # whatever this test started and left
        except ProcessLookupError:
            pass


def _grandchild(pid_file: str, use_prctl: bool, use_pidfd: bool) -> None:
    if not use_prctl:
        procs.PR_SET_PDEATHSIG = 0  # not an option: prctl fails and only the watcher thread acts
    if not use_pidfd:
        del os.pidfd_open  # the portable fallback: watching os.getppid()
    procs.die_with_parent(os.getppid())
    Path(pid_file).write_text(str(os.getpid()))
    time.sleep(60)


def _middle(pid_file: str, use_prctl: bool, use_pidfd: bool) -> None:
    child = multiprocessing.get_context("spawn").Process(target=_grandchild, args=(pid_file, use_prctl, use_pidfd))
    child.start()
    child.join()


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize(("use_prctl", "use_pidfd"), [(True, True), (False, True), (False, False)],
                         ids=["prctl", "pidfd-watcher", "getppid-watcher"])
def test_die_with_parent_each_mechanism_alone(tmp_path, use_prctl, use_pidfd):
    if use_pidfd and not hasattr(os, "pidfd_open"):
        pytest.skip("no pidfds here")
    pid_file = tmp_path / "grandchild.pid"
    middle = multiprocessing.get_context("spawn").Process(target=_middle, args=(str(pid_file), use_prctl, use_pidfd))
    middle.start()
    grandchild = None
    try:
        deadline = time.monotonic() + 60
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline and middle.is_alive(), "the grandchild did not start"
            time.sleep(0.02)
        grandchild = int(pid_file.read_text())
        assert _alive(grandchild)
        os.kill(middle.pid, signal.SIGKILL)
        middle.join()
        killed = time.monotonic()
        while _alive(grandchild) and time.monotonic() - killed < GONE_WITHIN:
            time.sleep(0.02)
        assert not _alive(grandchild)
    finally:
        for pid in (middle.pid, grandchild):
            if pid is not None and _alive(pid):
                os.kill(pid, signal.SIGKILL)
