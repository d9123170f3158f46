"""Game manager speed without Discord: ``play_move`` (committed to SQLite) and ``complete_move``.

Run: ``.venv/bin/python benchmarks/manager.py [rounds]``. Plays 20 games at once (every game
kind in turn, default options) on a fresh database file in a temporary folder, one random move
per game per round, and prints p50/p99 in milliseconds of a move (engine check + one committed
transaction) and of move autocompletion (cached position, the game resolved by id), then the
SQL statements of one move (sqlite3's trace callback): in all, reads of the game row and reads
of user settings. The bot's end-to-end figures (through the fake Discord) come from
``benchmarks/bot.py``.

Then the same again with ten conditional lines (issue 13) stored before every move for the
player waiting (each ``their move; my reply``, the opponent's move drawn at random, so now and
then the move played is foreseen and the reply is played in the same transaction): p50/p99 of
``play_move`` with lines, beside the figures without (target: p99 within 2x).
"""

import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bot.manager import GameManager  # noqa: E402


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else values[0]


def reads(statements: list[str], table: str) -> int:
    """SELECT statements among ``statements`` that read ``table``."""
    return sum(1 for sql in statements
               if sql.lstrip().upper().startswith("SELECT") and f" FROM {table} " in f"{sql} ")


async def store_lines(mgr: GameManager, gid: int, rng: random.Random, n: int) -> None:
    """Replace the waiting player's conditional lines in game ``gid`` by ``n`` random ones."""
    game = await mgr.get_game(gid)
    pos = game.position
    waiting = game.players[3 - pos.to_move]
    await mgr.clear_conditionals(gid, waiting)
    firsts: set[str] = set()
    for _ in range(20 * n):
        if len(firsts) >= n:
            break
        after = pos.play(pos.random_move(rng))
        if after.is_over or after.last_move in firsts:
            continue
        firsts.add(after.last_move)
        await mgr.add_conditional(gid, waiting, f"{after.last_move}; {after.random_move(rng)}")


async def main(rounds: int, lines: int = 0) -> list[float]:
    rng = random.Random(1)
    kinds = sorted(engine.GAMES)
    with tempfile.TemporaryDirectory() as tmp:
        mgr = await GameManager.open(Path(tmp) / "bench.db", rng=rng)
        games = []
        for i in range(20):
            a, b = 10_000 + 2 * i, 10_001 + 2 * i
            ch = await mgr.create_challenge(guild_id=1, channel_id=2, challenger_id=a,
                                            opponent_id=b, kind=kinds[i % len(kinds)],
                                            first="challenger")
            games.append((await mgr.accept_challenge(ch.id, b)).id)
        move_ms: list[float] = []
        counts: list[tuple[int, int, int]] = []
        complete_ms: list[float] = []
        for _ in range(rounds):
            for gid in games:
                game = await mgr.get_game(gid)
                if game.status != "active":
                    continue
                user = game.to_move_user
                if lines:
                    await store_lines(mgr, gid, rng, lines)
                t = time.perf_counter()
                await mgr.complete_move(user, "", game_id=gid)
                complete_ms.append((time.perf_counter() - t) * 1000)
                move = game.position.random_move(rng)
                statements: list[str] = []
                await mgr.store.set_trace_callback(statements.append)
                t = time.perf_counter()
                await mgr.play_move(gid, user, move)
                move_ms.append((time.perf_counter() - t) * 1000)
                await mgr.store.set_trace_callback(None)
                counts.append((len(statements), reads(statements, "games"),
                               reads(statements, "user_settings")))
        await mgr.close()
    if lines:
        print(f"with {lines} conditional lines stored: play_move p50 {pct(move_ms, 50):7.2f} ms"
              f"   p99 {pct(move_ms, 99):7.2f} ms ({len(move_ms)} moves)")
        return move_ms
    print(f"games: 20 ({', '.join(kinds)}), moves played: {len(move_ms)}")
    print(f"play_move     p50 {pct(move_ms, 50):7.2f} ms   p99 {pct(move_ms, 99):7.2f} ms")
    print(f"complete_move p50 {pct(complete_ms, 50):7.2f} ms   p99 {pct(complete_ms, 99):7.2f} ms")
    most = tuple(max(c[i] for c in counts) for i in range(3))
    print(f"SQL per play_move (most): {most[0]} statements, {most[1]} game-row reads, "
          f"{most[2]} settings reads")
    return move_ms


async def both(rounds: int) -> None:
    plain = await main(rounds)
    with_lines = await main(rounds, lines=10)
    print(f"p99 with lines / without: {pct(with_lines, 99) / pct(plain, 99):.2f}x")


if __name__ == "__main__":
    asyncio.run(both(int(sys.argv[1]) if len(sys.argv) > 1 else 30))
