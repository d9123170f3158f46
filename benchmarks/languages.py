"""What languages cost (issue 22): ``python benchmarks/languages.py``.

Printed, each against English:

* ``start-up`` -- wall time of a fresh interpreter importing the bot (``bot.front.client``),
  English only, then also loading every language's catalog (median of 5 processes, ms);
  and the command sync's translation: every command's payload built without a translator
  (English) and through :class:`bot.front.translator.CommandTranslator` (every string in each of
  Discord's 32 locales; ms);
* ``catalogs`` -- per language: time to read and merge its ``.po`` files (first use, ms), the
  messages it holds, and the memory it keeps (tracemalloc, KiB); English has no catalog;
* ``render`` -- median wall time of ``renderers.render_png`` of the same middle-game Coil
  position with an English panel and English names, and with a Japanese panel (CJK words,
  drawn with the Noto Sans CJK fallback) and Japanese names (ms, 15 runs each).

Bounded: about half a minute on a 2-core machine.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
import renderers  # noqa: E402
from bot import texts  # noqa: E402
from bot.texts import i18n  # noqa: E402
from renderers import Headline, Name  # noqa: E402

PROCESSES = 5
RENDERS = 15


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def startup() -> None:
    english = "import bot.front.client"
    every = ("import bot.front.client\nfrom bot.texts import i18n\n"
             "[i18n.translations(lang) for lang in i18n.SUPPORTED]")
    for label, code in (("English", english), ("all catalogs", every)):
        times = []
        for _ in range(PROCESSES):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
            times.append(time.perf_counter() - t)
        print(f"start-up   import, {label:<13} {_median_ms(times):8.0f} ms")


async def _payloads(translate: bool) -> float:
    from bot.config import Config
    from bot.front.client import StonecastBot

    bot = StonecastBot(Config(token="x" * 24), sync_only=True, render_workers=0)
    try:
        await bot._load_cogs()
        translator = bot.tree.translator
        t = time.perf_counter()
        for command in bot.tree.get_commands():
            if translate and translator is not None:
                await command.get_translated_payload(bot.tree, translator)
            else:
                command.to_dict(bot.tree)
        return time.perf_counter() - t
    finally:
        for name in tuple(bot.extensions):
            await bot.unload_extension(name)
        await bot.http.close()


def sync() -> None:
    english = asyncio.run(_payloads(False))
    translated = asyncio.run(_payloads(True))
    print(f"start-up   command payloads, English {english * 1000:6.1f} ms; translated into 32 locales "
          f"{translated * 1000:6.1f} ms (once per sync)")


def catalogs() -> None:
    i18n.translations.cache_clear()
    total_kib = 0.0
    for language in i18n.SUPPORTED:
        tracemalloc.start()
        t = time.perf_counter()
        catalog = i18n.translations(language)
        took = time.perf_counter() - t
        kept, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        messages = len(getattr(catalog, "_catalog", {}))
        total_kib += kept / 1024
        print(f"catalogs   {language:<6} load {took * 1000:6.1f} ms, {messages:5d} messages, {kept / 1024:7.1f} KiB kept")
    print(f"catalogs   all languages {total_kib:7.1f} KiB kept (English: none)")


def render() -> None:
    rng = random.Random(22)
    position = engine.new_game("coil")
    for _ in range(30):
        position = position.play(position.random_move(rng))
    english = texts.panel_text(position, clocks={1: "due 30 Dec 23:59 UTC", 2: "3 d 4 h left"})
    japanese = dataclasses.replace(
        english, options="ヘックス 7", headline=Headline("", Name(position.to_move or 1), "の手番です"),
        detail=("石を一つ置いてください",), subs=("黒", "白"), move="第30手: e5",
        clocks=("期限 12月30日 23:59 UTC", "残り 3日4時間"))
    cases = (("English", english, {1: "Ann", 2: "Bob"}), ("Japanese", japanese, {1: "さくら", 2: "たろう"}))
    results = {}
    for label, words, names in cases:
        renderers.render_png(position, players=names, text=words)  # warm the caches
        times = []
        for _ in range(RENDERS):
            t = time.perf_counter()
            renderers.render_png(position, players=names, text=words)
            times.append(time.perf_counter() - t)
        results[label] = _median_ms(times)
        print(f"render     Coil panel, {label:<9} {results[label]:7.1f} ms")
    print(f"render     CJK / English: {results['Japanese'] / results['English']:.2f}")


if __name__ == "__main__":
    startup()
    sync()
    catalogs()
    render()
