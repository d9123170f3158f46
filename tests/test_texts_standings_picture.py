"""The standings picture's own words (bot/texts/standings_picture.py, issues 21 and 22): its
catalog in every language, and the front drawing a league's divisions under their labels."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from manager_support import GUILD
from PIL import Image
from tournament_support import create

from bot import texts
from bot.front.tourneyposts import TournamentPosts
from bot.manager import GameManager
from bot.texts import i18n
from renderers.standings import _SECTION_H

LANGUAGES = [lang for lang in i18n.SUPPORTED if lang != "en"]
TEXTS = Path(texts.__file__).parent
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def messages() -> list[str]:
    """The message ids the module words (Babel's extraction, as ``make messages``)."""
    return [m for _line, m, _c, _ctx in extract_from_file(
        "python", str(TEXTS / "standings_picture.py"), keywords={"_": None, "N_": None, "ngettext": (1, 2)})]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_of_the_picture_is_translated_with_its_placeholders(lang):
    with (TEXTS / "locale" / lang / "LC_MESSAGES" / "tournament_picture.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    assert messages() == ["Division {number}"]
    for message in messages():
        entry = catalog.get(message)
        assert entry is not None and entry.string and not entry.fuzzy, message
        assert set(PLACEHOLDER.findall(entry.string)) == set(PLACEHOLDER.findall(message)), (lang, entry.string)
    with i18n.speaking(lang):
        label = texts.division_label(12)
    assert "12" in label and "{" not in label


async def test_the_front_draws_a_leagues_divisions_under_their_labels(tmp_path):
    mgr = await GameManager.open(tmp_path / "t.db", rng=random.Random(7))
    try:
        tid = await create(mgr, "League", players=6, format="league", division_size=3, promote=1)
        await mgr.start_tournament(tid, 2000, guild_id=GUILD, may_organise=True)
        view = await mgr.tournament_standings(tid, guild_id=GUILD)
        assert {r.division for r in view.rows} == {1, 2}
        flat = SimpleNamespace(**{**view.__dict__, "rows": tuple(
            SimpleNamespace(**{**r.__dict__, "division": None}) for r in view.rows)})
    finally:
        await mgr.close()

    async def display_name(user_id: int, guild_id: int | None = None) -> str:
        return f"Player {user_id}"

    posts = TournamentPosts(SimpleNamespace(display_name=display_name))
    with_labels = Image.open(io.BytesIO(await posts.standings_png(view)))
    without = Image.open(io.BytesIO(await posts.standings_png(flat)))
    assert with_labels.height == without.height + 2 * _SECTION_H  # one label per division
