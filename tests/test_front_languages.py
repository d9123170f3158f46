"""Who reads what (issue 22): the language of each interaction, DM and public post
(bot.front.languages), the commands' translator (bot.front.translator) and the fake
Discord's checks of localised commands (fakediscord.limits.check_commands)."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import discord
import pytest
from discord.app_commands import TranslationContextLocation as Where
from fakediscord import limits

from bot.front import translator
from bot.front.languages import CHOICE_TTL, Languages
from bot.texts import i18n

ANN, BEN, GUILD = 101, 102, 9001


class FakeManager:
    """The manager's language operations over two dicts; counts reads and writes."""

    def __init__(self) -> None:
        self.users: dict[int, tuple[str | None, str | None]] = {}
        self.guilds: dict[int, tuple[str | None, str | None]] = {}
        self.reads = self.writes = 0

    async def languages(self, user_ids):
        self.reads += 1
        return {u: self.users[u] for u in user_ids if u in self.users}

    async def server_language(self, guild_id):
        self.reads += 1
        return self.guilds.get(guild_id, (None, None))

    async def note_locale(self, user_id, locale):
        self.writes += 1
        self.users[user_id] = (self.users.get(user_id, (None, None))[0], locale)

    async def note_guild_locale(self, guild_id, locale):
        self.writes += 1
        self.guilds[guild_id] = (self.guilds.get(guild_id, (None, None))[0], locale)

    async def set_language(self, user_id, language):
        self.users[user_id] = (language, self.users.get(user_id, (None, None))[1])

    async def set_server_language(self, guild_id, language):
        self.guilds[guild_id] = (language, self.guilds.get(guild_id, (None, None))[1])


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def interaction(user_id: int, locale: str, guild_id: int | None = GUILD, guild_locale: str | None = "en-US"):
    return SimpleNamespace(id=1, user=SimpleNamespace(id=user_id), locale=discord.Locale(locale),
                           guild_id=guild_id, guild_locale=discord.Locale(guild_locale) if guild_locale else None)


@pytest.fixture
def languages():
    manager, clock = FakeManager(), Clock()
    langs = Languages(lambda: manager, clock=clock)
    langs.fake, langs.clock = manager, clock  # for the tests
    return langs


async def test_a_user_reads_their_discord_locale_until_they_choose_a_language(languages):
    assert await languages.of_interaction(interaction(ANN, "de")) == "de"
    assert await languages.of_interaction(interaction(BEN, "ko")) == "en"  # unsupported: English
    await languages.choose(ANN, "ja")
    assert await languages.of_interaction(interaction(ANN, "de")) == "ja"
    await languages.choose(ANN, None)
    assert await languages.of_interaction(interaction(ANN, "pt-BR")) == "pt_BR"


async def test_a_locale_is_stored_only_when_it_changes_and_serves_background_dms(languages):
    fake = languages.fake
    for _ in range(5):
        await languages.of_interaction(interaction(ANN, "fr", guild_locale="es-ES"))
    assert fake.writes == 2  # the user's locale and the server's, once each
    assert fake.reads == 2  # one read each, then the cache
    assert await languages.of_user(ANN) == "fr"  # a DM when Ann is not interacting
    assert await languages.of_guild(GUILD) == "es"
    await languages.of_interaction(interaction(ANN, "ru", guild_locale="es-ES"))
    assert fake.writes == 3 and fake.users[ANN] == (None, "ru")
    assert await languages.of_user(ANN) == "ru"
    assert await languages.of_user(BEN) == "en"  # never seen: English
    assert await languages.of_guild(None) == "en"


async def test_a_choice_made_by_another_process_is_read_again_after_the_ttl(languages):
    assert await languages.of_guild(GUILD) == "en"
    languages.fake.guilds[GUILD] = ("fr", None)  # another process's /settings server-language
    assert await languages.of_guild(GUILD) == "en"  # cached
    languages.clock.t += CHOICE_TTL + 1
    assert await languages.of_guild(GUILD) == "fr"


async def test_a_server_choice_beats_its_guild_locale_and_a_game_without_server_speaks_its_player(languages):
    await languages.of_interaction(interaction(ANN, "de", guild_locale="ja"))
    assert await languages.of_guild(GUILD) == "ja"
    await languages.choose_for_server(GUILD, "ru")
    game = SimpleNamespace(guild_id=GUILD, players={1: ANN, 2: BEN}, ai_seat=None)
    assert await languages.of_game(game) == "ru"
    dm_game = SimpleNamespace(guild_id=None, players={1: 77, 2: ANN}, ai_seat=1)
    assert await languages.of_game(dm_game) == "de"  # the human player's last locale


async def test_speak_to_sets_the_language_for_the_rest_of_the_task_and_survives_a_failing_store(languages):
    import asyncio

    async def handler():
        await languages.speak_to(interaction(ANN, "es-419"))
        await asyncio.sleep(0)
        return i18n.current_locale()

    assert await asyncio.create_task(handler()) == "es"
    assert i18n.current_locale() == "en"  # the caller's context is untouched

    def broken():
        raise RuntimeError("database down")

    languages._manager = broken
    assert await languages.of_interaction(interaction(BEN, "ja")) == "ja"  # Discord's locale still


# ---- the translator ---------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "ok"), [
    ("zug", True), ("partie-neu", True), ("jugada_2", True), ("ход", True), ("手番", True),
    ("サーバー言語", True), ("चाल", True), ("เดิน", True), ("é", True),
    ("Zug", False), ("ХОД", False), ("two words", False), ("", False), ("x" * 33, False),
    ("zug!", False), ("a.b", False), ("l'ordinateur", False),
])
def test_a_command_name_follows_discords_rule(name, ok):
    assert (translator.name_problem(name) is None) is ok
    assert limits.command_name_ok(name) is ok  # the fake Discord agrees


@pytest.fixture
def catalog(tmp_path, monkeypatch):
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "commands.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: de\\n"\n\n'
        'msgid "move"\nmsgstr "zug"\n\n'
        'msgid "board"\nmsgstr "Brett"\n\n'  # upper case: Discord refuses it
        'msgid "resign"\nmsgstr "auf geben"\n\n'  # a space
        'msgid "Play a move"\nmsgstr "Einen Zug spielen"\n\n'
        'msgid "Too long"\nmsgstr "' + "x" * 101 + '"\n\n'
        'msgctxt "option"\nmsgid "game"\nmsgstr "partie"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    yield
    i18n.translations.cache_clear()


def test_the_translator_gives_valid_translations_and_none_for_the_rest(catalog, caplog):
    caplog.set_level(logging.WARNING, "stonecast.bot")
    de = discord.Locale.german
    assert translator.localise("move", de, Where.command_name) == "zug"
    assert translator.localise("Play a move", de, Where.command_description) == "Einen Zug spielen"
    assert translator.localise("game", de, Where.parameter_name, context="option") == "partie"
    assert translator.localise("move", discord.Locale.american_english, Where.command_name) is None
    assert translator.localise("move", discord.Locale.korean, Where.command_name) is None
    assert translator.localise("untranslated", de, Where.command_name) is None
    assert caplog.records == []
    assert translator.localise("board", de, Where.command_name) is None
    assert translator.localise("resign", de, Where.parameter_name) is None
    assert translator.localise("Too long", de, Where.choice_name) is None
    assert [r.getMessage().split(":")[-1].strip() for r in caplog.records] == [
        "'B' is not lower-case", "' ' is not a letter, a digit, '-' or '_'", "101 characters, not 1 to 100"]


async def test_the_translator_fills_the_synced_payload(catalog):
    from discord import app_commands

    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))

    @tree.command(name=app_commands.locale_str("move"), description=app_commands.locale_str("Play a move"))
    @app_commands.rename(game=app_commands.locale_str("game", context="option"))
    async def move(interaction: discord.Interaction, game: int) -> None:  # pragma: no cover - not run
        """A command to translate."""

    payload = await move.get_translated_payload(tree, translator.CommandTranslator())
    assert payload["name_localizations"] == {"de": "zug"}
    assert payload["description_localizations"] == {"de": "Einen Zug spielen"}
    assert payload["options"][0]["name_localizations"] == {"de": "partie"}
    limits.check_commands([payload])  # Discord accepts it


# ---- the fake Discord refuses what Discord refuses -------------------------------------------------

def command(**kw):
    c = {"name": "move", "description": "Play a move", "type": 1,
         "options": [{"name": "game", "description": "The game", "type": 4,
                      "choices": [{"name": "Coil", "value": 1}]}]}
    c.update(kw)
    return c


@pytest.mark.parametrize(("change", "field"), [
    (lambda c: c.update(name_localizations={"de": "Zug"}), "0.name_localizations.de"),
    (lambda c: c.update(name_localizations={"de": "zwei wörter"}), "0.name_localizations.de"),
    (lambda c: c.update(name_localizations={"de": "x" * 33}), "0.name_localizations.de"),
    (lambda c: c.update(name_localizations={"german": "zug"}), "0.name_localizations.german"),
    (lambda c: c.update(description_localizations={"fr": "x" * 101}), "0.description_localizations.fr"),
    (lambda c: c.update(description_localizations={"fr": ""}), "0.description_localizations.fr"),
    (lambda c: c["options"][0].update(name_localizations={"ja": "ゲーム 番号"}), "0.options.0.name_localizations.ja"),
    (lambda c: c["options"][0].update(description_localizations={"ru": "я" * 101}),
     "0.options.0.description_localizations.ru"),
    (lambda c: c["options"][0]["choices"][0].update(name_localizations={"es-ES": "x" * 101}),
     "0.options.0.choices.0.name_localizations.es-ES"),
    (lambda c: c.update(name="Move"), "0.name"),
])
def test_the_fake_refuses_bad_localisations_naming_the_field(change, field):
    c = command()
    change(c)
    with pytest.raises(limits.LimitError) as e:
        limits.check_commands([c])
    assert e.value.status == 400 and e.value.code == 50035
    assert [line.split(":")[0] for line in limits.flatten(e.value.errors)] == [field]


def test_the_fake_accepts_good_localisations():
    c = command(name_localizations={"de": "zug", "ja": "手", "pt-BR": "jogada", "es-419": "jugada"},
                description_localizations={"ru": "Сделать ход"})
    c["options"][0]["choices"][0]["name_localizations"] = {"fr": "Coil (jeu)"}
    limits.check_commands([c])


def test_every_persistent_button_answers_in_the_pressers_language():
    from bot.front.cogs.turns import DYNAMIC_ITEMS as TURN_ITEMS
    from bot.front.languages import LocalisedItem
    from bot.front.views import DYNAMIC_ITEMS

    assert all(issubclass(item, LocalisedItem) for item in (*DYNAMIC_ITEMS, *TURN_ITEMS))


def test_a_buttons_label_is_worded_in_the_language_of_its_message(tmp_path, monkeypatch):
    from bot import texts
    from bot.front import views

    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "boards.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n\n'
        f'msgid "{texts.BUTTON_LABELS["rematch"]}"\nmsgstr "Revanche"\n\n'
        f'msgid "{texts.BUTTON_LABELS["accept"]}"\nmsgstr "Accepter"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    try:
        with i18n.speaking("fr"):
            rematch, challenge = views.rematch_view(7), views.challenge_view(7)
        english = views.rematch_view(7)
    finally:
        i18n.translations.cache_clear()
    assert [b.item.label for b in rematch.children] == ["Revanche"]
    assert [b.item.label for b in challenge.children][0] == "Accepter"
    assert [b.item.label for b in english.children] == [texts.BUTTON_LABELS["rematch"]]


async def test_a_deleted_players_language_is_forgotten_here_too(languages):
    await languages.choose(ANN, "ja")
    assert await languages.of_user(ANN) == "ja"
    languages.fake.users.pop(ANN)  # /privacy delete removed their settings row
    languages.forget(ANN)
    assert await languages.of_user(ANN) == "en"


async def test_every_catalog_is_read_at_start_up_off_the_event_loop(monkeypatch):
    import threading

    readers = set()
    real = i18n._compiled  # reads one catalog file (its .po, or the .mo compiled from it)

    def counted(*args, **kwargs):
        readers.add(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(i18n, "_compiled", counted)
    i18n.translations.cache_clear()
    try:
        await Languages.load_catalogs()
        assert i18n.translations.cache_info().currsize == len(i18n.SUPPORTED)
    finally:
        i18n.translations.cache_clear()
    assert readers == {False}  # read, and never on the event loop's thread
