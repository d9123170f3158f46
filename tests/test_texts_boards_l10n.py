"""The boards group in every language (issue 22): board posts, the picture's panel and chart,
alt text, move replies, clocks and vacations, /next and the digest, conditional moves.

* the group's catalog (``bot/texts/locale/<lang>/LC_MESSAGES/boards.po``) has every message
  the group's modules word, none empty or fuzzy, the same ``{placeholders}`` as English and
  the language's number of plural forms;
* a sample of the group's messages, worded inside ``i18n.speaking(lang)`` with worst-case
  inputs, differs from English, keeps its placeholders filled (no ``{name}`` left, every
  mention and label present) and fits Discord (the fake Discord's own checker);
* the engine gives its phases and turn hints as data (:class:`engine.Stage`) that texts word;
* a /history record keeps its English result whatever language the caller speaks.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from fakediscord import limits
from l10n_support import LANGUAGES, PLACEHOLDER, PLURAL_FORMS, catalog_problems

import engine
from bot import texts
from bot.rules import records
from bot.rules.timecontrol import TimeControl
from bot.texts import i18n

GROUP_MODULES = ("boards", "panel", "alt", "chart", "play", "clocks", "turns", "conditional")
TEXTS = Path(texts.__file__).parent

BIG = 2**63 - 1  # the longest snowflake: 19 digits
NAME = "Ꮓ" * 32  # Discord's longest display name
LONG_KIND = max(engine.GAMES, key=lambda k: len(texts.title(k)))
LABEL = texts.game_label(LONG_KIND, 9_999_999)
CLOCK = TimeControl.bank(30, 3, 60)
LONGEST_STEP = "t20 s19"
DEADLINE = 4_102_444_800


def _group_messages() -> dict[str | tuple[str, str], int]:
    """Every message id the group's modules word (Babel's extraction, as ``make messages``):
    a string, or (singular, plural) for a count."""
    found: dict[str | tuple[str, str], int] = {}
    for module in GROUP_MODULES:
        for lineno, message, _comments, _context in extract_from_file(
                "python", str(TEXTS / f"{module}.py"), keywords={"_": None, "N_": None, "ngettext": (1, 2)}):
            found[message if isinstance(message, str) else (message[0], message[1])] = lineno
    return found


def _catalog(lang: str):
    with (TEXTS / "locale" / lang / "LC_MESSAGES" / "boards.po").open("rb") as f:
        return read_po(f, locale=lang)


def test_the_group_words_many_messages():
    assert len(_group_messages()) > 150


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_has_every_message_translated_with_its_placeholders(lang):
    catalog = _catalog(lang)
    assert catalog.num_plurals == PLURAL_FORMS[lang]
    assert not catalog_problems(catalog, _group_messages(), lang)


def game(**kw):
    values = dict(kind=LONG_KIND, id=9_999_999, players={1: BIG, 2: BIG - 1}, to_move_user=BIG,
                  deadline=DEADLINE, time_control=CLOCK, ply=9999, channel_for_posts=BIG, thread_id=BIG,
                  channel_id=BIG, guild_id=BIG, status="active", reason=None, ai_seat=None, ai_level=None,
                  label=LABEL)
    values.update(kw)
    return SimpleNamespace(**values)


def _sample() -> dict[str, str]:
    """The group's messages with worst-case inputs, worded in the current language."""
    coil = engine.new_game("coil")
    io = engine.new_game("io", size=5)
    io = io.play(next(iter(io.legal_moves())))
    hint = texts.turn_hint("io", io)
    due = texts.due_at(DEADLINE, CLOCK.short) + texts.others_bank(BIG, "59 d 23 h left")
    won = engine.Outcome(1, engine.Termination.STONES, {1: 13, 2: 13})
    result = texts.result_text("io", won, {1: f"<@{BIG}>", 2: f"<@{BIG - 1}>"})
    steps = "; ".join([LONGEST_STEP] * 20)
    swings = [(9999, NAME, LONGEST_STEP, "71%", "12%", "a1 b2")] * 40
    players = texts.players_alt(texts.seat_alt(NAME, "white"), texts.seat_alt(NAME, "black"), colours_known=True)
    effect = texts.removing([texts.stones_at(2, "white", ["a1", "c2"]), texts.stones_at(1, "black", ["d4"])])
    return {
        "your_move": texts.your_move(BIG, "white", hint, due),
        "game_begins": texts.game_begins(texts.seat_line(BIG, "black"), texts.seat_line(BIG - 1, "white")),
        "move_played": texts.move_played(9999, BIG, LONGEST_STEP) + texts.turning_over(12) + texts.i18n._(
            texts.GAME_OVER),
        "takes_colour": texts.move_played(1, BIG, "pass") + texts.takes_colour("black", BIG - 1, "white"),
        "removing": texts.move_played(9999, BIG, LONGEST_STEP) + effect,
        "turn_dm": texts.turn_dm(LABEL, texts.move_played(9999, BIG, LONGEST_STEP), "black", f"<@{BIG}>",
                                 texts.turn_hint("coil", coil), f"https://discord.com/channels/{BIG}/{BIG}", DEADLINE),
        "reminder": texts.reminder(BIG, LABEL, DEADLINE),
        "vacation": texts.deadline_moved(texts.vacation_note(BIG, DEADLINE), DEADLINE),
        "back": texts.back_from_vacation(BIG, DEADLINE),
        "ratings": texts.ratings_line([texts.rating_change(BIG, 1500, 1520)] * 2),
        "result": result,
        "move_reply": texts.move_reply(LABEL, LONGEST_STEP, texts.turning_over(3), to_move=BIG - 1, you=BIG,
                                       replies=[(BIG - 1, LONGEST_STEP), (BIG, LONGEST_STEP)], settled="Black"),
        "move_reply_over": texts.move_reply(LABEL, LONGEST_STEP, "", result=result, you=BIG),
        "resign_prompt": texts.resign_prompt(LABEL, BIG),
        "aborted": texts.aborted(LABEL, BIG, [BIG, BIG - 1]),
        "board_headline": texts.board_headline(9999, LONGEST_STEP) + texts.thread_link(BIG),
        "move_names_another_game": texts.move_names_another_game(BIG, BIG - 1),
        "days_with_clock": texts.days_with_clock(14, CLOCK.name),
        "confirm": texts.confirm_prompt(LABEL, LONGEST_STEP, texts.turning_over(2))
        + texts.confirm_clock(CLOCK.status_text(DEADLINE, 0, DEADLINE), DEADLINE),
        "vacation_started": texts.vacation_started(DEADLINE, 0.0, asked=30, had=29.5)
        + texts.deadline_notes_failed(200) + texts.deadline_notes_delayed(200),
        "vacation_ended": texts.vacation_ended(13.96, 27.5),
        "position_changed": texts.position_changed(game(status="finished", reason="timeout")),
        "next": texts.next_text(game(), BIG, CLOCK.status_text(DEADLINE, 0), 200, 200),
        "digest": texts.digest_text([(game(), BIG, CLOCK.status_text(DEADLINE, 0))] * 200),
        "settings": texts.settings_text(SimpleNamespace(dm_mode="digest", dm=True, digest_hour=7, confirm=True)),
        "conditional_list": texts.conditional_list(LABEL, [steps] * 20),
        "conditional_stored": texts.conditional_stored(LABEL, [steps] * 20),
        "conditional_cleared": texts.conditional_cleared(LABEL, 20),
        "conditional_board": texts.conditional_board(LABEL, 20, steps),
        "board_alt": texts.board_alt(
            texts.game_alt(LABEL, {"size": 5}), players, texts.last_move_alt(9999, NAME, LONGEST_STEP, effect),
            to_move=texts.seat_alt(NAME, "black"), phase=texts.phase_caption(io), stones={"black": 3, "white": 1},
            scores=[(NAME, 3), (NAME, 1)]),
        "review_alt": texts.review_alt(texts.game_alt(LABEL, {"size": 5}), players, NAME, 9999, (NAME, 5000),
                                       result, swings),
        "replay_alt": texts.replay_alt(LABEL, players, 9999, result),
        "record_alt": texts.record_alt(LABEL, 9999),
    }


def _choices() -> list[str]:
    return [texts.pick_game_choice(25), texts.finished_game_choice(LABEL, NAME, NAME, 9999),
            texts.game_choice(LABEL, NAME, "waiting"), texts.server_game_choice(LABEL, "x" * 20, "y" * 20, 9999)]


def _panel_words() -> list[str]:
    """Every word of a few panels and a chart (strings and headline pieces)."""
    coil = engine.new_game("coil")
    io = engine.new_game("io", size=5)
    ww = engine.new_game("whirlwind")
    coral = engine.new_game("braincoral", bonus="opponent")
    words: list[str] = []
    for position in (coil, io, ww, coral):
        panel = texts.panel_text(position, clocks={1: texts.panel_due(datetime(2026, 5, 3, 14, 0)),
                                                   2: texts.panel_bank("6 d left")})
        words += [panel.options, panel.headline.before + panel.headline.after, *map(str, panel.detail),
                  panel.move, *panel.unnamed, *(c for c in panel.clocks if c)]
    chart = texts.chart_text(SimpleNamespace(kind="io", plies=[1, 2], swings=[
        SimpleNamespace(ply=2, seat=1, move="c3", preferred="d4", before=0.5, after=0.2)]), io)
    words += [chart.subtitle, *chart.heading, chart.axis, *chart.colours, chart.turning_points, chart.no_swings,
              chart.headline.subject if isinstance(chart.headline.subject, str) else "", *map(str, chart.detail),
              chart.swings[0].note, chart.swings[0].short]
    return words


def test_english_is_as_before():
    """The sample worded in English is the English text (message ids are English)."""
    with i18n.speaking("en"):
        sample = _sample()
    assert sample["your_move"].startswith(f"<@{BIG}>, your move as White (bound then free, like `c3 e5`)")
    assert sample["result"] == f"<@{BIG}> beats <@{BIG - 1}> on stones (13–13; a tie goes to the last stone placed)."
    assert sample["position_changed"].startswith(f"{LABEL} is over (timeout)")
    assert "… and " in sample["conditional_list"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sample_is_translated_filled_and_fits(lang):
    with i18n.speaking("en"):
        english, english_choices, english_panel = _sample(), _choices(), _panel_words()
    with i18n.speaking(lang):
        sample, choices, panel = _sample(), _choices(), _panel_words()
    for name, text in sample.items():
        assert text != english[name], name  # translated
        assert not PLACEHOLDER.search(text), (name, text)  # every placeholder filled
        for mention in set(re.findall(r"<[@#]\d+>|<t:\d+:\w>", english[name])):
            assert mention in text, (name, mention)  # the same mentions and stamps
        if LABEL in english[name]:
            assert LABEL in text, name  # game names are not translated
        if name.endswith("_alt"):
            assert len(text) <= texts.ATTACHMENT_DESCRIPTION, name
        else:
            limits.check_message({"content": text})
    assert "`c3 e5`" in sample["your_move"] and "`/move`" in sample["your_move"]  # code spans kept
    for choice, english_choice in zip(choices, english_choices, strict=True):
        assert choice != english_choice
        limits.check_choices([{"name": choice, "value": "1"}])
    notation = re.compile(r"(hexhex|limping) \d+|\d+×\d+")  # board shapes and sizes, as players type them
    untranslated = [e for w, e in zip(panel, english_panel, strict=True)
                    if w == e and re.search(r"[A-Za-z]{3}", e) and not notation.fullmatch(e)]
    assert not untranslated


@pytest.mark.parametrize("lang", LANGUAGES)
def test_counts_take_the_languages_plural_forms(lang):
    with i18n.speaking(lang):
        words = [texts.vacation_amount(n) for n in (1, 2, 5, 21, 22, 25)]
    assert len(set(words)) >= PLURAL_FORMS[lang]  # one, few and many differ where the language has them
    if lang == "ru":
        assert words == ["1 день", "2 дня", "5 дней", "21 день", "22 дня", "25 дней"]


def test_a_panel_reads_naturally_in_each_language():
    position = engine.new_game("coil")
    with i18n.speaking("de"):
        panel = texts.panel_text(position)
        assert panel.detail == ("Phase I · schwarzen Stein setzen oder passen",) and panel.move == "Noch keine Züge"
        assert texts.panel_due(datetime(2026, 5, 3, 14, 0)) == "fällig 3. Mai 14:00 UTC"
    with i18n.speaking("fr"):
        assert texts.panel_text(position).headline.before == "Au tour de "  # the name last
    with i18n.speaking("ja"):
        assert texts.panel_text(position).headline.after == "の手番"
        assert texts.panel_due(datetime(2026, 5, 3, 14, 0)) == "期限 5月3日 14:00 UTC"
    with i18n.speaking("ru"):
        assert texts.panel_text(position).headline.before == "Ход: "


def test_every_stage_is_worded_and_english_agrees_with_the_engine():
    """The engine says where a game stands as data (engine.Stage); texts word every member,
    and their English is the engine's English for library users."""
    assert set(texts.play.TURN_HINTS) == set(engine.Stage) == set(texts.PHASE_CAPTIONS)
    for stage in engine.Stage:
        assert texts.play.TURN_HINTS[stage] == stage.hint
        assert texts.PHASE_CAPTIONS[stage] == stage.caption
    positions = [engine.new_game(kind) for kind in engine.GAMES]
    positions += [p.play(next(iter(p.legal_moves()))) for p in positions]
    for position in positions:
        assert texts.turn_hint(position.kind, position) == position.turn_hint
        assert texts.phase_caption(position) == position.phase_caption
        with i18n.speaking("de"):
            assert texts.turn_hint(position.kind, position) != position.turn_hint


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_record_keeps_its_english_result_in_every_language(lang):
    labels = {1: records.player_label("Ann", 1001), 2: records.player_label("Bob", 1002)}
    with i18n.speaking("en"):
        english = records.result_text("finished", 2, "no moves", None, labels=labels)
    with i18n.speaking(lang):
        assert records.result_text("finished", 2, "no moves", None, labels=labels) == english
        assert records.result_text("finished", None, "stones", {1: 18, 2: 18}, labels=labels) == (
            "Ann (1001) and Bob (1002) draw on stones (18–18)")
        assert records._reason_in("who has no legal turn left") is engine.Termination.NO_MOVES
