"""The sample boards of issue 22: finished Coral games drawn as the bot posts them in a
German and in a Russian server -- the panel worded by :func:`bot.texts.panel_text` inside
:func:`bot.texts.i18n.speaking`, the winner's score parts too long for one line drawn whole
on two (:func:`renderers.panel._card_rows`). Games are seeded random playouts.

* ``de-braincoral-finished.png``: Brain Coral, limping 4, "größte Gruppe 9 + 5 Gruppen" /
  "gewinnt";
* ``ru-branchingcoral-finished.png``: Branching Coral, "крупнейшая группа 4 + 6 групп" /
  "победа";
* each also at 550 px wide (``-550.png``), as a phone shows it.

    .venv/bin/python docs/images/issue-22/samples.py
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from PIL import Image  # noqa: E402

import engine  # noqa: E402
import renderers  # noqa: E402
from bot import texts  # noqa: E402
from bot.texts import i18n  # noqa: E402

NAMES = {1: "Ann", 2: "さくら"}
SAMPLES = (("de", "braincoral"), ("ru", "branchingcoral"))


def main() -> None:
    """Write the samples next to this file and print each path."""
    for language, kind in SAMPLES:
        position = engine.new_game(kind).random_playout(random.Random(22))
        with i18n.speaking(language):
            png = renderers.render_png(position, players=NAMES, text=texts.panel_text(position))
        path = HERE / f"{language}-{kind}-finished.png"
        path.write_bytes(png)
        im = Image.open(io.BytesIO(png))
        small = im.resize((550, round(im.height * 550 / im.width)), Image.LANCZOS)
        small.save(HERE / f"{language}-{kind}-finished-550.png", optimize=True)
        print(path)


if __name__ == "__main__":
    main()
