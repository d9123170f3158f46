"""Languages in the database (issue 22, Alembic 0009): a player's chosen language and the
Discord locale last seen from them; a server's chosen language and guild locale. Both
backends (the ``db`` fixture); 0009 down and up with the older rows intact."""

import pytest
from manager_support import FakeClock

from bot.manager import GameManager

ANN, BEN, GUILD = 101, 102, 9001


@pytest.fixture
def clock():
    return FakeClock()


async def test_a_players_language_and_locale_are_stored_apart_and_kept_with_other_settings(db, clock):
    m = await GameManager.open(db(), clock=clock)
    try:
        assert await m.languages([ANN, BEN]) == {}
        await m.set_confirm(ANN, True)
        await m.note_locale(ANN, "pt-BR")
        await m.set_language(BEN, "ja")
        assert await m.languages([ANN, BEN]) == {ANN: (None, "pt-BR"), BEN: ("ja", None)}
        await m.set_language(ANN, "de")
        await m.note_locale(BEN, "en-US")
        await m.set_language(BEN, None)
        assert await m.languages([ANN, BEN]) == {ANN: ("de", "pt-BR"), BEN: (None, "en-US")}
        assert (await m.settings(ANN)).confirm  # the other settings are untouched
    finally:
        await m.close()


async def test_a_servers_language_and_guild_locale(db, clock):
    m = await GameManager.open(db(), clock=clock)
    try:
        assert await m.server_language(GUILD) == (None, None)
        await m.note_guild_locale(GUILD, "fr")
        await m.set_server_language(GUILD, "es")
        assert await m.server_language(GUILD) == ("es", "fr")
        await m.set_server_language(GUILD, None)
        assert await m.server_language(GUILD) == (None, "fr")
        await m.store.execute("UPDATE server_settings SET organiser_role_id = 77 WHERE guild_id = ?", (GUILD,))
        assert await m.server_language(GUILD) == (None, "fr")
    finally:
        await m.close()


@pytest.mark.parametrize("bad", ["", "german", "de DE", "x" * 40, "de'; DROP TABLE user_settings;--", 5])
async def test_a_malformed_language_is_refused_and_changes_nothing(db, clock, bad):
    m = await GameManager.open(db(), clock=clock)
    try:
        await m.set_language(ANN, "fr")
        for call in (m.set_language(ANN, bad), m.note_locale(ANN, bad), m.set_server_language(GUILD, bad)):
            with pytest.raises(ValueError, match="not a"):
                await call
        assert await m.languages([ANN]) == {ANN: ("fr", None)}
        assert await m.server_language(GUILD) == (None, None)
    finally:
        await m.close()


async def test_revision_0009_goes_down_and_up_again_with_the_older_rows_intact(db, clock):
    from alembic import command
    from sqlalchemy.exc import DBAPIError

    from bot.store import Store
    from bot.store.migrations import alembic_config, head_revision

    m = await GameManager.open(db("updown.db"), clock=clock)
    try:
        await m.set_dm_mode(ANN, "digest", 7)
        await m.set_language(ANN, "ru")
        await m.set_server_language(GUILD, "ja")
        await m.note_locale(ANN, "de")
        before = await m.settings(ANN)
    finally:
        await m.close()
    store = await Store.open(db("updown.db"))
    try:
        await store._alembic(lambda cfg: command.downgrade(cfg, "0007"), alembic_config())
        assert await store.alembic_revision() == "0007"
        with pytest.raises(DBAPIError, match="language"):
            await store.fetchall("SELECT language FROM user_settings")
        with pytest.raises(DBAPIError, match="seen_locales"):
            await store.fetchall("SELECT * FROM seen_locales")
        row = await store.fetchone("SELECT dm, digest_hour FROM user_settings WHERE user_id = ?", (ANN,))
        assert tuple(row) == (0, 7)
        assert len(await store.fetchall("SELECT * FROM server_settings")) == 1
        assert await store.upgrade() == head_revision() >= "0009"
        m = GameManager(store, clock=clock)
        assert await m.languages([ANN]) == {ANN: (None, None)}  # back to Discord's locale
        assert await m.server_language(GUILD) == (None, None)
        assert await m.settings(ANN) == before
    finally:
        await store.close()


async def test_deleting_a_players_data_forgets_their_language_and_the_locale_seen(db, clock):
    """/privacy delete (issue 18) removes the language chosen and the Discord locale noted."""
    m = await GameManager.open(db("forget.db"), clock=clock)
    try:
        await m.set_language(ANN, "fr")
        await m.note_locale(ANN, "pt-BR")
        await m.note_locale(BEN, "de")
        assert (await m.languages([ANN, BEN]))[ANN] == ("fr", "pt-BR")
        await m.forget_player(ANN)
        assert await m.languages([ANN, BEN]) == {BEN: (None, "de")}
    finally:
        await m.close()
