"""Every player in their own language, end to end through the fake Discord (issue 22): the
``locale`` of each interaction and the server's ``guild_locale`` are set on the fake.

* a German user's /settings, /help and an error come in German; an English user's in English;
* a board posted in a French server has a French headline and its panel is worded in French
  (every board image is worded inside the post's language, checked at the render pool);
* a Japanese name and a Japanese panel draw with no missing glyph;
* /settings language: overrides Discord's locale; server-language: is for Manage Server only
  and moves the server's posts to another language; a your-turn DM speaks its player's language;
* /history's record is the same bytes in every language, and reads back.

The sentences of the texts layer are compared with the texts functions worded in the language
(``i18n.speaking``), and checked to differ from the English: those checks wait for the
catalogs of the texts groups (l10n-boards, l10n-errors, l10n-help)."""

from __future__ import annotations

import pytest
from botplay import board_post, play_move, start_game
from fakediscord.fixtures import fake, harness  # noqa: F401

from bot import texts
from bot.rules.records import parse_record
from bot.texts import i18n
from renderers import fonts


@pytest.fixture
def renders(harness):  # noqa: F811
    """Every board the bot renders: (the language spoken when it was worded, its PanelText,
    the players' names)."""
    seen: list[tuple[str, object, dict]] = []
    renderer = harness.bot.renderer
    real = renderer.render

    async def spy(position, players=None, text=None):
        seen.append((i18n.current_locale(), text, dict(players or {})))
        return await real(position, players=players, text=text)

    renderer.render = spy
    return seen


def worded(language: str, fn, *args, **kwargs):
    with i18n.speaking(language):
        return fn(*args, **kwargs)


def panel_strings(text) -> list[str]:
    """Every string of a PanelText (its headline's pieces that are words, not seats)."""
    pieces = [text.title, text.options, text.move, *text.subs, *text.unnamed,
              text.headline.before, text.headline.after, *(p for p in text.detail if isinstance(p, str))]
    if isinstance(text.headline.subject, str):
        pieces.append(text.headline.subject)
    return [p for p in pieces if p]


async def test_each_reader_in_their_language(fake, harness, renders):  # noqa: F811
    fake.alice.locale, fake.guild_locale = "de", "fr"
    # /settings: the language lines, in the caller's language
    ex = await fake.slash(fake.alice, "settings", {})
    assert "Sprache: Deutsch (deine Discord-Sprache)" in ex.reply.content
    assert "Beiträge dieses Servers: Français (die Discord-Sprache des Servers)" in ex.reply.content
    assert await harness.manager.languages([fake.alice.id]) == {fake.alice.id: (None, "de")}
    assert await harness.manager.server_language(fake.guild_id) == (None, "fr")
    ex = await fake.slash(fake.bob, "settings", {})
    assert "Language: English (your Discord language)" in ex.reply.content

    # /help and an error: German for Alice, English for Bob
    ex = await fake.slash(fake.alice, "help")
    [embed] = ex.reply.embeds
    german = worded("de", texts.help_embed)
    assert embed["title"] == german["title"]
    assert [f["name"] for f in embed["fields"]] == [f["name"] for f in german["fields"]]
    refused_de = (await play_move(fake, fake.alice, "a1")).reply.content  # no game yet
    refused_en = (await play_move(fake, fake.bob, "a1")).reply.content
    assert refused_de and refused_en

    # a board in the French server: headline and panel worded in French
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    del renders[:]
    ex = await play_move(fake, fake.alice, "c3", game_id=game.id)
    board = board_post(ex)
    assert worded("fr", texts.move_played, 1, fake.alice.id, "c3") in board.content
    assert renders and {language for language, _, _ in renders} == {"fr"}
    position = (await harness.manager.get_game(game.id)).position
    french = worded("fr", texts.panel_text, position).move
    assert renders[0][1].move == french

    # /history: one record, whoever asks
    alice_record = (await fake.slash(fake.alice, "history", {"game": game.id})).reply.attachments[0].data
    bob_record = (await fake.slash(fake.bob, "history", {"game": game.id})).reply.attachments[0].data
    assert alice_record == bob_record
    kind, _, moves = parse_record(alice_record.decode())
    assert (kind, moves) == ("io", ["c3"])

    # the translations themselves (they wait for the texts groups' catalogs)
    english = texts.help_embed()
    assert german["title"] != english["title"] or german["description"] != english["description"]
    assert refused_de != refused_en
    assert worded("fr", texts.move_played, 1, fake.alice.id, "c3") != texts.move_played(1, fake.alice.id, "c3")
    assert french != texts.panel_text(position).move


async def test_choices_override_locales_and_japanese_draws(fake, harness, renders):  # noqa: F811
    sakura = fake.add_user("さくら")
    sakura.locale = "ja"
    fake.guild_locale = "ja"
    # a player's choice beats their Discord locale; the Discord choice follows it again
    ex = await fake.slash(fake.alice, "settings", {"language": "ru"})
    assert "Язык: Русский (выбран вами)" in ex.reply.content
    ex = await fake.slash(fake.alice, "settings", {"language": "discord"})
    assert "Language: English (your Discord language)" in ex.reply.content
    # server-language: Manage Server only; a refusal changes nothing
    ex = await fake.slash(fake.bob, "settings", {"server-language": "es"})
    assert ex.reply.content == texts.languages.SERVER_LANGUAGE_NOT_ALLOWED
    assert (await harness.manager.server_language(fake.guild_id))[0] is None

    # a Japanese server: the name and the panel's words draw with every glyph
    game, _, _ = await start_game(fake, harness, "coil", sakura, fake.bob)
    assert renders and all(language == "ja" for language, _, _ in renders)
    for _, text, names in renders:
        for string in [*panel_strings(text), *names.values()]:
            assert all(fonts.drawable(c) for c in string), string
    assert "さくら" in renders[-1][2].values()

    # the moderators choose Spanish: the next board is worded in Spanish; Bob's DM in Russian
    ex = await fake.slash(fake.mod, "settings", {"server-language": "es"})
    assert "Publicaciones de este servidor" not in ex.reply.content  # the moderator reads English
    assert "This server's posts: Español (chosen by its moderators)." in ex.reply.content
    fake.bob.locale = "ru"
    await fake.slash(fake.bob, "settings", {"dm": "on"})
    del renders[:]
    mover = sakura if game.to_move_user == sakura.id else fake.bob
    ex = await play_move(fake, mover, "a1", game_id=game.id)
    spoken = [language for language, _, _ in renders]
    assert spoken and spoken[0] == "es"
    if mover is sakura:  # Bob's your-turn DM, its board worded in his language
        assert any(m.guild_id is None for m in ex.posts) and "ru" in spoken
