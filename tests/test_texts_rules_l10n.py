"""The rules' terms in every language (issue 22): a time control's name, the time left, why a
clock was refused and a game's options, worded in ``bot/texts/terms.py`` from the rules' data
(:class:`bot.rules.timecontrol.TimeControl`'s fields, :class:`~bot.rules.timecontrol.
TimeControlError`'s reason, the engine's option specs), translated in ``rules.po``.

* the catalog (``bot/texts/locale/<lang>/LC_MESSAGES/rules.po``) has every message of
  ``terms.py``, none empty or fuzzy, the same ``{placeholders}`` as English, the language's
  number of plural forms, and agrees with any other catalog holding the same message id;
* English comes out exactly as the rules' own English (``TimeControl.name``/``short``/
  ``status_text``, ``left_text``, ``str(TimeControlError)``, the old ``options_text``);
* every clock problem, clock field, engine option and option value is worded;
* a sample with worst-case inputs, worded inside ``i18n.speaking(lang)``, is translated, has
  its placeholders filled, keeps no English unit and fits Discord (the fake Discord's checker);
* what players type and the stored record stay English and parseable in every language.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from fakediscord import limits
from l10n_support import LANGUAGES, PLACEHOLDER, PLURAL_FORMS, catalog_problems

import engine
from bot import texts
from bot.rules import timecontrol
from bot.rules.timecontrol import DAY, HOUR, ClockField, ClockProblem, TimeControl, TimeControlError
from bot.texts import errors, i18n, terms

TEXTS = Path(texts.__file__).parent
BIG = 2**63 - 1
LONG_KIND = max(engine.GAMES, key=lambda k: len(texts.title(k)))
LABEL = texts.game_label(LONG_KIND, 9_999_999)
DEADLINE = 4_102_444_800
#: The longest names: a bank of 59 d 23 h topped up by as much, up to 60 d; 1,439 hours a move.
LONGEST_BANK = TimeControl.bank(59 + 23 / 24, 59 + 23 / 24, 60)
LONGEST_MOVE = TimeControl.per_move(hours=59 * 24 + 23)
CLOCKS = [*timecontrol.PRESETS.values(), TimeControl.per_move(hours=1), TimeControl.per_move(hours=36),
          TimeControl.per_move(days=1), TimeControl.bank(0.5, 0, 1), TimeControl.bank(2.5, 0.5, 3),
          LONGEST_BANK, LONGEST_MOVE]
#: Clocks refused, one per problem, with what was typed or built.
BAD_CLOCKS = {
    ClockProblem.NOT_TEXT: lambda: timecontrol.parse(None),  # type: ignore[arg-type]
    ClockProblem.UNREADABLE: lambda: timecontrol.parse("x" * 400),
    ClockProblem.NOT_A_NUMBER: lambda: TimeControl.bank(True, 1, 10),
    ClockProblem.OUT_OF_RANGE: lambda: timecontrol.parse("bank 3d+61d max 5d"),
    ClockProblem.NOT_WHOLE_HOURS: lambda: TimeControl.per_move(days=1.01),
    ClockProblem.INITIAL_OVER_MAXIMUM: lambda: timecontrol.parse("bank 10d+1d max 7d"),
    ClockProblem.INCREMENT_OVER_MAXIMUM: lambda: timecontrol.parse("bank 3d+5d max 4d"),
}


def refusal(problem: ClockProblem) -> TimeControlError:
    with pytest.raises(TimeControlError) as info:
        BAD_CLOCKS[problem]()
    return info.value


def _messages() -> dict[str | tuple[str, str], int]:
    """Every message id ``terms.py`` words (Babel's extraction, as ``make messages``)."""
    return {message if isinstance(message, str) else (message[0], message[1]): lineno
            for lineno, message, _c, _x in extract_from_file(
                "python", str(TEXTS / "terms.py"), keywords={"_": None, "N_": None, "ngettext": (1, 2)})}


def _catalog(lang: str, group: str = "rules"):
    with (TEXTS / "locale" / lang / "LC_MESSAGES" / f"{group}.po").open("rb") as f:
        return read_po(f, locale=lang)


def test_terms_word_their_messages():
    assert len(_messages()) >= 30


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_has_every_message_translated_with_its_placeholders(lang):
    catalog = _catalog(lang)
    assert catalog.num_plurals == PLURAL_FORMS[lang]
    problems = catalog_problems(catalog, _messages(), lang)
    stale = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id} - {
        m[0] if isinstance(m, tuple) else m for m in _messages()}
    assert not problems and not stale


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_message_shared_with_another_catalog_reads_the_same(lang):
    """The catalogs of a language are merged into one: a message id in two files must not be
    translated two ways (the later file would silently win)."""
    ours = {m.id: m.string for m in _catalog(lang) if m.id}
    for po in (TEXTS / "locale" / lang / "LC_MESSAGES").glob("*.po"):
        if po.stem != "rules":
            clashes = [(m.id, m.string, ours[m.id]) for m in _catalog(lang, po.stem)
                       if m.id in ours and m.string != ours[m.id]]
            assert not clashes, po.name


def test_english_is_the_rules_own_english():
    for clock in CLOCKS:
        assert texts.clock_name(clock) == clock.name
        assert texts.clock_short(clock) == clock.short
        for left in (0, 59 * 60, HOUR, 7 * HOUR, 3 * DAY, 5 * DAY + 3 * HOUR + 59, 59 * DAY + 23 * HOUR):
            assert texts.time_left(left) == timecontrol.left_text(left)
            assert texts.bank_amount(left) == timecontrol.left_text(left).removesuffix(" left")
            for paused in (None, 0.0, DAY):
                assert texts.clock_status(clock, left, 0.0, paused) == clock.status_text(left, 0.0, paused)
        for seconds in (HOUR, 12 * HOUR, 36 * HOUR, 7 * DAY):
            assert texts.duration(seconds) == timecontrol.duration_text(seconds)
    for problem in ClockProblem:
        error = refusal(problem)
        assert error.reason is problem and texts.clock_error(error) == str(error)
    for kind, game in engine.GAMES.items():
        for options in (game.validate(), dict(reversed(list(game.validate().items())))):
            assert texts.options_text(options) == ", ".join(f"{k} {v}" for k, v in options.items()), kind
    assert texts.options_text({}) == "" and texts.options_text({"komi": 7}) == "komi 7"


def test_english_of_the_refusals_is_unchanged():
    assert str(refusal(ClockProblem.NOT_TEXT)) == \
        "a clock must be text like '3 days a move' or 'bank 7d + 1d (max 10d)'"
    assert str(refusal(ClockProblem.OUT_OF_RANGE)) == "the increment must be from 0 to 60d"
    assert str(refusal(ClockProblem.INITIAL_OVER_MAXIMUM)) == \
        "the initial bank (10d) cannot be more than the maximum (7d)"
    assert str(refusal(ClockProblem.UNREADABLE)).startswith("cannot read the clock 'xxxxxxxxxx")
    assert errors.bad_clock(refusal(ClockProblem.NOT_WHOLE_HOURS)) == \
        "Bad clock: the time per move must be a whole number of hours."


def test_a_refusal_carries_its_reason_and_values_as_data():
    error = refusal(ClockProblem.OUT_OF_RANGE)
    assert error.fields == {"field": ClockField.INCREMENT, "low": 0.0, "high": timecontrol.LONGEST}
    error = refusal(ClockProblem.INITIAL_OVER_MAXIMUM)
    assert error.fields == {"value": 10 * DAY, "maximum": 7 * DAY}
    assert refusal(ClockProblem.UNREADABLE).fields == {"text": "x" * 40}
    assert TimeControl.bank(7, 1, 10).kind is timecontrol.ClockKind.BANK == "bank"


def test_every_problem_field_option_and_value_is_worded():
    assert set(terms.CLOCK_PROBLEMS) == set(ClockProblem)
    assert set(terms.CLOCK_FIELDS) == set(ClockField)
    for kind, game in engine.GAMES.items():
        for spec in game.options:
            worded = spec.name in terms.OPTION_FORMS or all(
                (spec.name, value) in terms.OPTION_VALUES for value in spec.choices or ())
            assert worded and (spec.name in terms.OPTION_FORMS or spec.choices), (kind, spec.name)


def game(**kw):
    values = dict(kind=LONG_KIND, id=9_999_999, players={1: BIG, 2: BIG - 1}, deadline=DEADLINE,
                  time_control=LONGEST_BANK, status="active")
    values.update(kw)
    return SimpleNamespace(**values)


def _sample() -> dict[str, str]:
    """The terms with worst-case inputs, worded in the current language, as players see them."""
    options = {"shape": "hexhex", "size": 11, "bonus": "captures"}
    return {
        "clock_name": texts.clock_name(LONGEST_BANK),
        "clock_name_move": texts.clock_name(LONGEST_MOVE),
        "clock_name_day": texts.clock_name(TimeControl.per_move(days=1)),
        "clock_short": texts.clock_short(TimeControl.bank(1.5, 0.5, 2)),
        "time_left": texts.time_left(5 * DAY + 3 * HOUR),
        "time_left_short": texts.time_left(10),
        "paused": texts.game_clock(game(), 0.0, DEADLINE),
        "options": texts.options_text(options),
        "options_setup": texts.options_text({"size": 24, "setup": "B"}),
        "due": texts.due_at(DEADLINE, texts.clock_short(LONGEST_BANK))
        + texts.others_bank(BIG, texts.bank_amount(59 * DAY + 23 * HOUR)),
        "panel_bank": texts.panel_bank(texts.bank_amount(6 * DAY)),
        "confirm": texts.confirm_clock(texts.game_clock(game(), 0.0), DEADLINE),
        "conflict": errors.clock_conflict(14, LONGEST_BANK),
        **{f"refusal {p.name}": errors.bad_clock(refusal(p)) for p in ClockProblem},
    }


#: English words that a translated sample must not keep ("max" is German and French too).
ENGLISH = r"bank|left|less than|a move|paused|vacation|size|shape|setup|bonus own|must|cannot"
#: The English unit letters, where the language writes its units otherwise (Spanish and
#: Portuguese write "d" and "h" too, French and German "h").
UNITS = {"de": r"|\d+ ?d", "fr": r"|\d+ ?d", "ru": r"|\d+ ?d|\d+ ?h", "ja": r"|\d+ ?d|\d+ ?h"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_terms_are_translated_filled_and_fit(lang):
    english = _sample()
    with i18n.speaking(lang):
        sample = _sample()
        assert texts.clock_name(LONGEST_BANK) != LONGEST_BANK.name
    for key, text in sample.items():
        assert text != english[key], key
        assert not PLACEHOLDER.search(text), (key, text)
        english_words = re.compile(rf"\b({ENGLISH}{UNITS.get(lang, '')})\b")
        assert not english_words.findall(re.sub(r"'[^']*\d[^']*'", "", text)), (key, text)  # quoted: typed clocks
        limits.check_message({"content": text})
    assert f"<@{BIG}>" in sample["due"] and "hexhex" in sample["options"] and "B" in sample["options_setup"]
    # a clock's name is a menu name and a challenge title's part: 100 characters at most
    assert max(len(sample["clock_name"]), len(sample["clock_name_move"])) <= 100


@pytest.mark.parametrize("lang", i18n.SUPPORTED)
def test_what_players_type_and_the_record_stay_english(lang):
    with i18n.speaking(lang):
        for clock in CLOCKS:
            assert timecontrol.parse(clock.to_text()) == clock
            assert timecontrol.parse(clock.name) == clock  # the record's Clock: line
            assert clock.name == texts.clock_name(clock) or lang != "en"
        assert timecontrol.parse("bank 7d+1d max 10d") == TimeControl.bank(7, 1, 10)


def test_units_read_as_each_language_writes_them():
    clock = TimeControl.bank(7, 1, 10)
    expected = {"de": "Zeitkonto 7 T + 1 T", "fr": "banque 7 j + 1 j", "es": "reserva 7 d + 1 d",
                "pt_BR": "banco 7 d + 1 d", "ru": "запас 7 дн. + 1 дн.", "ja": "バンク7日＋1日"}
    for lang, short in expected.items():
        with i18n.speaking(lang):
            assert texts.clock_short(clock) == short
    with i18n.speaking("ru"):
        assert [texts.clock_name(TimeControl.per_move(days=n)) for n in (1, 3, 5, 21)] == [
            "1 день на ход", "3 дня на ход", "5 дней на ход", "21 день на ход"]
    with i18n.speaking("de"):
        assert texts.options_text({"shape": "hexhex", "size": 11}) == "Form hexhex, Größe 11"
        assert texts.time_left(2 * DAY + 4 * HOUR) == "noch 2 T 4 h"
