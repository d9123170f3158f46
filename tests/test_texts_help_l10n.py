"""The help group's texts in every language (issue 22): /help, /rules, the lists, /privacy and
the tournament texts are translated in each supported language, keep their placeholders
filled and fit Discord's limits with worst-case inputs (the checker of the fake Discord,
``fakediscord.limits``, as tests/test_texts_fit.py uses it); and every command, option and
choice of the real command tree is translated in ``commands.po`` within Discord's rules for
localised names (lower case, 1-32 letters, digits, ``-`` or ``_``) and descriptions (<= 100).
"""

from __future__ import annotations

import asyncio
import re
import unicodedata
from types import SimpleNamespace

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fakediscord import limits
from test_texts_fit import BIG, CLOCK, GAME_ID, LONG_KIND, NAME, fits, game, standing, tournament

import engine
from bot import texts
from bot.front.cogs import EXTENSIONS
from bot.texts import i18n
from bot.texts.commands import (
    COMMAND_CONTEXT,
    GAME_KIND_CONTEXT,
    UNTRANSLATED_COMMAND_WORDS,
    command_word,
)

LANGUAGES = [lang for lang in i18n.SUPPORTED if lang != "en"]
PLACEHOLDER = re.compile(r"\{\w*\}")


def words(make) -> dict[str, str]:
    """``make()`` worded in English and in every other language, by language."""
    out = {}
    for lang in i18n.SUPPORTED:
        with i18n.speaking(lang):
            out[lang] = make()
    return out


def translated(make, *, fit=fits) -> dict[str, str]:
    """Word ``make()`` in every language: each differs from English, has no ``{placeholder}``
    left and fits Discord (``fit``); returns the texts by language."""
    texts_by_lang = words(make)
    english = texts_by_lang["en"]
    for lang, text in texts_by_lang.items():
        flat = text if isinstance(text, str) else repr(text)
        assert not PLACEHOLDER.search(flat), (lang, flat)
        fit(text)
        if lang != "en":
            assert text != english, (lang, flat[:200])
    return texts_by_lang


# ---- /help and /rules ----------------------------------------------------------------------
def test_help_is_translated_and_fits_in_every_language():
    for in_dm in (False, True):
        by_lang = translated(lambda dm=in_dm: texts.help_embed(in_dm=dm), fit=lambda e: fits(embeds=[e]))
        for lang, embed in by_lang.items():
            # every command once (a line each, starting with its syntax), every topic translated
            lines = [line for f in embed["fields"] for line in f["value"].split("\n")]
            assert sum(line.startswith("`/") for line in lines) == len(texts.HELP_COMMANDS), lang
            if lang != "en":
                assert not {f["name"] for f in embed["fields"]} & {f["name"] for f in by_lang["en"]["fields"]}, lang


def _ratings(elo_of):
    """A table of every level and game kind of ``ai.ratings`` with ``elo_of(level, kind)``
    (a number, or None for "not measured")."""
    from ai.ratings import KINDS, Rating

    return {level: {k: None if elo_of(level, k) is None else Rating(elo_of(level, k), -99_999, 99_999)
                    for k in KINDS} for level in range(1, 6)}


def test_help_shows_the_computer_s_levels_and_their_ratings_in_every_language():
    """Issue 24 item 3: /help's computer section gives each level's words and its rating per
    game (or says they are not measured yet), translated and within Discord's limits in every
    language -- with the longest ratings (-9999 everywhere) and a measurement date."""
    from ai.ratings import KINDS, MEASURED, Measurement

    measured = Measurement("2026-12-31", 10, 1.0, "benchmarks/ai.py --elo-games 10")
    longest = _ratings(lambda level, kind: -9999.4)
    for in_dm in (False, True):
        by_lang = translated(lambda dm=in_dm: texts.help_embed(  # noqa: B023 - called at once
            in_dm=dm, levels=texts.computer_levels_lines(longest, measured)), fit=lambda e: fits(embeds=[e]))
        for lang, embed in by_lang.items():
            shown = "\n".join(f["value"] for f in embed["fields"])
            assert shown.count("-9999") == 5 * len(KINDS), lang
            with i18n.speaking(lang):
                for level in range(1, 6):
                    assert i18n._(texts.LEVEL_DESCRIPTIONS[level]) in shown, (lang, level)
    # nothing measured (as on main until the round robin runs): the levels' words, and a note
    blank = translated(lambda: "\n".join(texts.computer_levels_lines(_ratings(lambda level, kind: None),
                                                                      MEASURED)))
    for lang, text in blank.items():
        with i18n.speaking(lang):
            assert text.endswith(i18n._("Their ratings per game, on an Elo scale, are not measured yet.")), lang
            assert not any(texts.title(k) in text for k in KINDS if k != "io"), lang  # no ratings line
    # some games measured: the others named as not measured yet
    some = translated(lambda: "\n".join(texts.computer_levels_lines(
        _ratings(lambda level, kind: 1000.0 + 100 * level if kind in ("coil", "io") else None), measured)))
    assert "\nCoil 1100 · Io 1100\n" in some["en"] and "Coil 1500 · Io 1500" in some["de"]
    assert some["en"].endswith("Not measured yet in Brain Coral, Branching Coral, and Whirlwind.")
    assert "(measured Dec 31, 2026):" in some["en"] and "(gemessen am 31.12.2026):" in some["de"]


def test_help_s_levels_come_from_the_measured_data(monkeypatch):
    """/help reads ``ai.ratings``: a rating dropped into the data module shows, a game not
    measured for one level shows a dash there."""
    from ai import ratings

    table = _ratings(lambda level, kind: 1234.6 if (level, kind) != (1, "whirlwind") and kind == "whirlwind"
                     else None)
    monkeypatch.setattr(ratings, "RATINGS", table)
    monkeypatch.setattr(ratings, "MEASURED", ratings.Measurement("2026-12-01", 10, 1.0, "x"))
    value = texts.help_embed()["fields"][-1]["value"]
    assert value.startswith("Each level's rating per game, on an Elo scale where a plain search given 1 s a move "
                            "is 1500 (measured Dec 1, 2026):")
    assert "\nWhirlwind —\n**Level 2**" in value and "\nWhirlwind 1235\n**Level 3**" in value
    assert value.endswith("Not measured yet in Coil, Io, Brain Coral, and Branching Coral.")


@pytest.mark.parametrize("kind", engine.MENU_ORDER)
def test_rules_are_translated_and_fit_in_every_language(kind):
    by_lang = translated(lambda: texts.rules_text(kind))
    for lang, text in by_lang.items():
        assert text.startswith(f"**{texts.title(kind)}** — "), lang  # game names stay as written
        assert text.count("\n• ") == by_lang["en"].count("\n• "), lang
        assert all(code in text for code in re.findall(r"`[^`]+`", by_lang["en"])), lang


def test_help_names_the_commands_as_each_language_names_them():
    """/help writes ``/zug zug: [partie:]`` in German: every ``/command`` and ``option:`` of a
    translated syntax line is the name Discord shows in that language (commands.po)."""
    for lang in LANGUAGES:
        with i18n.speaking(lang):
            names = localised_names()
            for syntax, _what in texts.HELP_COMMANDS:
                line = i18n._(syntax)
                for token in re.findall(r"/([^\s|\[\]<>]+)", line) + re.findall(r"([^\s\[\]<>:@|]+):", line):
                    assert token in names, (lang, line, token)
                for alternatives in re.findall(r"[^\s/\[\]]+(?:\|[^\s\[\]]+)+", line):  # list|clear, a:|b:|c:
                    assert {word.removesuffix(":") for word in alternatives.split("|")} <= names, (lang, line)


def test_every_command_a_translation_mentions_is_named_as_that_language_names_it():
    """``/tournament start`` in a German sentence is ``/turnier starten``: every ``/command``
    a translated message of this group mentions is a translated command name, and each command
    and subcommand the English names appears in its translated form."""
    from babel.messages.pofile import read_po

    english = _english_command_names()
    mention = re.compile(r"(?<![\w<>])/([^\s`/|\[\]<>:.,;)»“\"」）]+)(?: ([^\s`|\[\]<>:.,;)»“\"」）]+))?")
    for lang in LANGUAGES:
        with i18n.speaking(lang):
            localised = {w: command_word(w, COMMAND_CONTEXT if w in ("move", "rated") else None) for w in english}
            kind_option = command_word("game", GAME_KIND_CONTEXT)
        with (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "help.po").open("rb") as f:
            for m in read_po(f, locale=lang):
                ids = m.id if isinstance(m.id, tuple) else (m.id,)
                if any(command not in english for msgid in ids for command, _sub in mention.findall(msgid)):
                    continue  # a command this bot does not have (yet): nothing to compare with
                wanted = {localised[w] for msgid in ids for pair in mention.findall(msgid) for w in pair
                          if w in english and f"{w}:" not in msgid}  # commands and subcommands, not options
                for text in (m.string if isinstance(m.string, tuple) else (m.string,)):
                    assert all(command in localised.values() for command, _sub in mention.findall(text)), (lang, text)
                    assert kind_option not in re.findall(r"/[-\w]+", text), (lang, text)
                    assert wanted <= set(re.findall(r"[-\w]+", text)), (lang, sorted(wanted), text)
    with i18n.speaking("de"):
        assert "`/herausfordern io`" in texts.no_rated_games("io")


# ---- lists, profiles, privacy ----------------------------------------------------------------
def test_lists_and_profiles_are_translated_and_fit():
    g = game()
    translated(lambda: texts.fit_lines([texts.games_list_header(200, 200)] + [
        texts.games_list_line(g, BIG, yours=True, away=True) for _ in range(200)],
        more=i18n._(texts.GAMES_LIST_MORE)))
    translated(lambda: texts.fit_lines([texts.server_games_header(200)] + [texts.server_games_line(g)] * 200,
                                       more=i18n._(texts.SERVER_GAMES_MORE)))
    translated(lambda: texts.history_text(texts.game_label(LONG_KIND, GAME_ID), 9999, over=True))
    row = SimpleNamespace(user_id=BIG, short_text="9999?", games=99_999)
    translated(lambda: "\n".join([texts.leaderboard_header(LONG_KIND), texts.rank_line(1, row),
                                  texts.unrated_here(LONG_KIND), texts.no_rated_games(LONG_KIND)]))
    rating = SimpleNamespace(text="9999 ± 999?", games=99_999)
    record = SimpleNamespace(wins=99_999, losses=99_999, draws=99_999)
    computer = [SimpleNamespace(level=lv, wins=99_999, losses=99_999, draws=99_999, as_computer=lv % 2 == 0)
                for lv in range(1, 6)]
    p = SimpleNamespace(ratings=dict.fromkeys(engine.GAMES, rating), records=dict.fromkeys(engine.GAMES, record),
                        computer=computer, active_games=[game()] * 200)
    translated(lambda: texts.profile_text(BIG, p))
    translated(lambda: i18n._(texts.NO_GAMES))


def test_counts_take_each_language_s_plural_forms():
    got = {}
    for n in (1, 2, 5, 21):
        with i18n.speaking("ru"):
            got[n] = texts.games_list_header(n, 0)
    assert got == {1: "Вы играете 1 партию; ваш ход в 0:", 2: "Вы играете 2 партии; ваш ход в 0:",
                   5: "Вы играете 5 партий; ваш ход в 0:", 21: "Вы играете 21 партию; ваш ход в 0:"}
    with i18n.speaking("fr"):
        assert texts.server_games_header(0).startswith("0 partie en cours")  # French: 0 is singular
    with i18n.speaking("de"):
        assert texts.server_games_header(0).startswith("0 laufende Partien")


def test_privacy_texts_are_translated_and_fit():
    from bot.manager import Forgotten, GameRef, StoredData, StoredRating, UserSettings

    big = 10**18
    data = StoredData(
        user_id=big, display_name="W" * 100, name_seen_at=1.7e9,
        settings=UserSettings(True, 1.8e9, 13.958, True, 23),
        conditional_games=tuple(range(10**6, 10**6 + 200)),
        ratings=tuple(StoredRating(big + i, kind, 2999.5, 350.0, 10**6) for i in range(50) for kind in engine.GAMES),
        challenges_sent=10**6, challenges_received=10**6, dms_queued=10**9, dms_sent=10**9,
        running_games=tuple(GameRef("branchingcoral", 10**6 + i) for i in range(200)), finished_games=10**6,
        forgotten_at=1.7e9)
    shown = translated(lambda: texts.privacy_text(data, big))
    for lang, text in shown.items():
        with i18n.speaking(lang):
            assert text.endswith(i18n._(texts.PRIVACY_KEPT)), lang
            assert i18n._(texts.DELETED_PLAYER) in text, lang
    translated(lambda: texts.privacy_confirm(data.running_games))
    translated(lambda: texts.privacy_confirm([]))
    translated(lambda: texts.privacy_deleted(Forgotten(big, 1.7e9, 1, 1, 10**6, 250, 10**6, 10**9, 10**6)))
    translated(lambda: texts.privacy_deleted(Forgotten(big, 1.7e9, 0, 0, 0, 0, 0, 0, 1)))


# ---- tournaments --------------------------------------------------------------------------
def test_tournament_texts_are_translated_and_fit():
    from bot.manager.values.tournaments import RoundPairing

    for fmt in ("round_robin", "double_round_robin", "swiss", "knockout", "league"):
        t = tournament(format=fmt)
        translated(lambda: texts.tournament_announcement(t, CLOCK.name))  # noqa: B023 - called at once
        for status in ("signup", "running", "finished", "cancelled"):
            translated(lambda: texts.tournament_list_line(tournament(format=fmt, status=status), CLOCK.name))  # noqa: B023
    t = tournament(format="swiss")
    for make in (lambda: texts.tournament_created(t, BIG), lambda: texts.tournament_joined(t),
                 lambda: texts.tournament_left(t), lambda: texts.tournament_computer_added(t, 5),
                 lambda: texts.tournament_removed(t, BIG), lambda: texts.tournament_cancelled(t),
                 lambda: texts.tournament_started(t, 9999), lambda: texts.tournament_cancelled_post(t),
                 lambda: texts.tournament_withdrawn_post(t, BIG), lambda: texts.next_season_note(t),
                 lambda: texts.organiser_role_set(BIG), lambda: i18n._(texts.NO_TOURNAMENTS),
                 lambda: texts.tournament_announcement(tournament(starts_at=None), CLOCK.name)):
        translated(make)
    entrants = [SimpleNamespace(user_id=BIG, computer_level=5, seed_rating=9999.0, status="withdrawn")] * 256
    translated(lambda: texts.tournament_info_text(SimpleNamespace(tournament=t, entrants=entrants), CLOCK.name))
    pairings = [RoundPairing(GAME_ID, 9999, b, BIG, BIG - 1, GAME_ID, "seat1", True) for b in range(1, 129)]
    translated(lambda: texts.tournament_round_post(t, 9999, pairings, [game()]))
    rows = tuple(standing(rank) for rank in range(1, 257))
    view = SimpleNamespace(tournament=t, rows=rows, finished=True, winners=(BIG, BIG - 1),
                           promoted=(BIG,) * 30, relegated=(BIG,) * 7)
    translated(lambda: texts.standings_text(view))
    translated(lambda: texts.tournament_final_post(view, t))
    translated(lambda: texts.standings_alt(view, 32), fit=lambda s: len(s) <= texts.ATTACHMENT_DESCRIPTION)
    translated(lambda: texts.standings_title(SimpleNamespace(tournament=t, finished=False), 3),
               fit=lambda s: len(s) <= 100)
    line = SimpleNamespace(pairing=pairings[0], game=game())
    translated(lambda: texts.tournament_games_text(t, BIG, [line] * 400))
    translated(lambda: texts.tournament_withdrew(SimpleNamespace(tournament=t, user_id=BIG, forfeited=(game(),) * 50)))
    label = SimpleNamespace(tournament_id=GAME_ID, name="Ꮓ" * 32, round=9999, season=9999)
    for lang in i18n.SUPPORTED:  # the longest: cut to Discord's 100 characters
        with i18n.speaking(lang):
            limits.check_thread_name(texts.tournament_thread_name(label, game(), NAME, NAME))
    short = SimpleNamespace(tournament_id=1, name="Spring Open", round=2, season=3)
    translated(lambda: texts.tournament_thread_name(short, game(), "Ann", "Ben"), fit=limits.check_thread_name)
    translated(texts.standings_words, fit=lambda w: all(len(v) <= 12 for v in w.values()))


def test_a_score_is_written_the_language_s_way():
    with i18n.speaking("de"):
        assert (texts.score_text(2.5), texts.score_text(3.0), texts.score_text(10.25)) == ("2,5", "3", "10,25")
    assert (texts.score_text(2.5), texts.score_text(10.25)) == ("2.5", "10.25")


# ---- the command tree --------------------------------------------------------------------
#: Discord's rule for a localised command or option name (CHAT_INPUT): 1-32 of letters,
#: numbers, ``-``, ``_`` (and Devanagari and Thai marks), lower case where the script has case.
NAME_LIMIT, DESCRIPTION_LIMIT = 32, 100
NAME_LOCATIONS = {"command_name", "group_name", "parameter_name"}


def valid_name(name: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lower case."""
    return (1 <= len(name) <= NAME_LIMIT and name == name.lower()
            and all(c in "-_" or unicodedata.category(c)[0] in "LN" or unicodedata.category(c) == "Mc"
                    for c in name))


class Recorder(app_commands.Translator):
    """Records every string discord.py asks to translate: where it stands, its English, its
    gettext context (the ``locale_str``'s ``context`` extra, as the bot's translator reads it)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, str, str | None]] = []

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        extra = string.extras.get("context")
        self.seen.append((context.location.name, string.message, extra if isinstance(extra, str) else None))
        return None


def _command_tree() -> tuple[list[tuple[str, str, str | None]], list[dict]]:
    """The bot's real command tree: every (location, English string) discord.py would
    translate, and the commands' payloads (for sibling names)."""
    async def build():
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
        from bot.front.views import ButtonRoutes
        bot.buttons = ButtonRoutes()  # type: ignore[attr-defined]  # what StonecastBot provides the cogs
        for ext in EXTENSIONS:
            if not ext.endswith(".maintenance"):  # no commands; needs the bot's loop settings
                await bot.load_extension(ext)
        recorder = Recorder()
        await bot.tree.set_translator(recorder)
        payloads = [await c.get_translated_payload(bot.tree, recorder) for c in bot.tree.get_commands()]
        return recorder.seen, payloads
    return asyncio.run(build())


_TREE: list = []


def command_tree() -> tuple[list[tuple[str, str, str | None]], list[dict]]:
    if not _TREE:
        _TREE.append(_command_tree())
    return _TREE[0]


def _english_command_names() -> set[str]:
    return {m for loc, m, _values in command_tree()[0] if loc in NAME_LOCATIONS}


def localised_names() -> set[str]:
    """Every command, subcommand and option name in the current language."""
    seen, _ = command_tree()
    return {command_word(m, ctx) for loc, m, ctx in seen if loc in NAME_LOCATIONS}


def catalog_ids(lang: str) -> set[str]:
    """The message ids ``lang``'s catalogs translate (not fuzzy, not empty)."""
    from babel.messages.pofile import read_po

    ids = set()
    for po in (i18n.LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po"):
        with po.open("rb") as f:
            for m in read_po(f, locale=lang):
                if m.id and m.string and not m.fuzzy and all(m.string if isinstance(m.string, tuple) else [m.string]):
                    ids.add(m.id if isinstance(m.id, str) else m.id[0])
    return ids


def test_every_command_word_is_translated_within_discord_s_rules():
    seen, _ = command_tree()
    seen = sorted(set(seen), key=repr)  # once per string, not once per Discord locale
    names = _english_command_names()
    assert {"move", "challenge", "tournament", "add-computer", "opponent", "me"} <= {m for _, m, _v in seen}
    for lang in LANGUAGES:
        translated_ids = catalog_ids(lang)
        with i18n.speaking(lang):
            for location, message, ctx in seen:
                if message in UNTRANSLATED_COMMAND_WORDS:
                    continue
                word = command_word(message, ctx)
                assert message in translated_ids, (lang, location, message)  # ("info" may stay "info")
                assert PLACEHOLDER.findall(word) == PLACEHOLDER.findall(message), (lang, message)
                if location in NAME_LOCATIONS or (location == "choice_name" and message in names):
                    assert valid_name(word), (lang, location, message, word)
                else:
                    assert 1 <= len(word) <= DESCRIPTION_LIMIT, (lang, location, message, word)


def test_game_names_a_game_in_progress_or_one_of_the_games_as_each_language_says():
    """English ``game:`` is a game's number in /move and one of the five games in /rules;
    German says ``partie:`` and ``spiel:`` (the kind's ``game`` has the context "game kind").
    The English stays ``game``."""
    seen, _ = command_tree()
    assert ("parameter_name", "game", GAME_KIND_CONTEXT) in seen and ("parameter_name", "game", None) in seen
    assert command_word("game", GAME_KIND_CONTEXT) == "game" == command_word("game")
    with i18n.speaking("de"):
        assert (command_word("game"), command_word("game", GAME_KIND_CONTEXT)) == ("partie", "spiel")
        assert i18n._("/rules game:") == "/regeln spiel:" and i18n._("/board [game:]") == "/brett [partie:]"
    with i18n.speaking("fr"):
        assert (command_word("game"), command_word("game", GAME_KIND_CONTEXT)) == ("partie", "jeu")


def test_translated_names_stay_unique_among_siblings():
    """Two commands, subcommands or options of one command may not share a localised name."""
    _, payloads = command_tree()

    def siblings(items: list[dict]):
        yield [(item["name"], item) for item in items]
        for item in items:
            children = [o for o in item.get("options", []) if isinstance(o, dict) and "name" in o]
            if children:
                yield from siblings(children)

    seen, _ = command_tree()
    assert {(m, ctx) for _, m, ctx in seen if ctx} == {("move", COMMAND_CONTEXT), ("rated", COMMAND_CONTEXT),
                                                       ("game", GAME_KIND_CONTEXT)}
    for lang in LANGUAGES:
        with i18n.speaking(lang):
            for names in siblings(payloads):  # noqa: B007
                # a context is the same for every use of a name but "game" (kind or number): both
                # readings are checked (the kinds' choices make a "game" option a kind)
                contexts = {"move": lambda m: command_word(m, COMMAND_CONTEXT),
                            "rated": lambda m: command_word(m, COMMAND_CONTEXT)}
                if any(n == "game" and item.get("choices") and {c["value"] for c in item["choices"]} <= set(engine.GAMES)
                       for n, item in names):
                    contexts["game"] = lambda m: command_word(m, GAME_KIND_CONTEXT)
                localised = [n if n in UNTRANSLATED_COMMAND_WORDS else contexts.get(n, i18n._)(n) for n, _item in names]
                assert len(set(localised)) == len(localised), (lang, names, localised)


def test_a_word_of_commands_and_sentences_has_a_translation_for_each():
    """"move" is a command (de ``zug``, lower case) and a word of the board texts (``Zug``);
    "finished" is a tournament (fr ``terminé``) and a game (``terminée``): each is looked up in
    its own context, so the catalogs of the groups may word it their own way."""
    from bot.texts.commands import pgettext

    with i18n.speaking("de"):
        assert command_word("move", COMMAND_CONTEXT) == "zug" and command_word("rated", COMMAND_CONTEXT) == "gewertet"
        assert pgettext(COMMAND_CONTEXT, "move") == "zug"
    with i18n.speaking("pt_BR"):
        assert command_word("rated", COMMAND_CONTEXT) == "ranqueada"  # a name: no space
    with i18n.speaking("fr"):
        assert texts.tournament_state("finished") == "terminé"
        assert pgettext("setting", "off") == "non"
    assert command_word("move", COMMAND_CONTEXT) == "move" and texts.tournament_state("finished") == "finished"
    assert texts.tournament_state("paused") == "paused"  # unknown: as given
