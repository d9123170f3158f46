"""The errors group in every language (issue 22): refusals, the engine's and the conditional
checker's errors, tournament refusals, challenges, the computer and the shared pieces, worded
in each supported language from ``bot/texts/locale/<lang>/LC_MESSAGES/errors.po``.

Each language's catalog holds every message of the group's modules (none fuzzy or empty, the
same placeholders); a sample of messages built with worst-case values comes out translated,
with every placeholder filled, and fits Discord's limits (``fakediscord.limits``, the fake
Discord's own checker)."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from fakediscord import limits

import engine
from bot import texts
from bot.manager.errors import Refusal, UserError
from bot.rules import conditionals
from bot.rules.timecontrol import TimeControl
from bot.texts import i18n
from bot.texts.engine_errors import LINE_PROBLEMS, conditional_error

ROOT = Path(__file__).resolve().parents[1]
#: The group's modules (bot/texts/), whose messages are in errors.po.
MODULES = ("errors", "engine_errors", "challenge_refusals", "tournament_refusals", "common",
           "challenges", "computer")
LANGUAGES = [lang for lang in i18n.SUPPORTED if lang != "en"]
FORMS = {"de": 2, "fr": 2, "es": 2, "pt_BR": 2, "ru": 3, "ja": 1}
PLACEHOLDER = re.compile(r"\{([a-z_]+)(?:![rs])?\}")

BIG = 2**63 - 1  # the longest snowflake: 19 digits
GAME_ID = 9_999_999
LONG_KIND = max(engine.GAMES, key=lambda k: len(texts.title(k)))
LABEL = texts.game_label(LONG_KIND, GAME_ID)
NAME = "Ꮓ" * 32


def group_messages() -> dict[str | tuple[str, str], int]:
    """Every message id the group's modules mark (``_``, ``N_``, ``ngettext``), as Babel's
    extraction reads them: ``{msgid or (singular, plural): 0}``."""
    keywords = {"_": None, "N_": None, "ngettext": (1, 2)}
    found: dict[str | tuple[str, str], int] = {}
    for module in MODULES:
        for _line, message, _comments, _context in extract_from_file(
                "python", ROOT / "bot" / "texts" / f"{module}.py", keywords=keywords):
            found[message if isinstance(message, str) else tuple(message)] = 0
    return found


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_holds_every_message_of_the_group_translated(lang):
    path = ROOT / "bot" / "texts" / "locale" / lang / "LC_MESSAGES" / "errors.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    assert catalog.num_plurals == FORMS[lang]
    wanted = group_messages()
    assert len(wanted) > 200
    for msgid in wanted:
        key = msgid if isinstance(msgid, str) else msgid[0]
        message = catalog.get(key)
        assert message is not None, (lang, msgid)
        assert not message.fuzzy, (lang, msgid)
        if isinstance(msgid, tuple):
            assert tuple(message.id) == msgid, (lang, msgid)
            forms = list(message.string)
            assert len(forms) == FORMS[lang], (lang, msgid)
            expected = placeholders(msgid[0]) | placeholders(msgid[1])
        else:
            forms = [message.string]
            expected = placeholders(msgid)
        for form in forms:
            assert form, (lang, msgid)
            assert placeholders(form) == expected, (lang, msgid, form)


# ---- a sample of the group's messages, with worst-case values ---------------------------------
def game(**kw):
    values = dict(kind=LONG_KIND, id=GAME_ID, players={1: BIG, 2: BIG - 1}, status="active",
                  ai_seat=None, ai_level=5, thread_id=BIG, channel_id=BIG, channel_for_posts=BIG,
                  guild_id=BIG)
    values.update(kw)
    return SimpleNamespace(**values)


def challenge(**kw):
    values = dict(kind=LONG_KIND, options={"shape": "hexhex", "size": 11, "bonus": "own"},
                  time_control=TimeControl.bank(30, 3, 60), rated=True, challenger_id=BIG,
                  opponent_id=BIG - 1, first="opponent", expires_at=4_102_444_800, channel_id=BIG,
                  guild_id=BIG, message_id=BIG, status="declined")
    values.update(kw)
    return SimpleNamespace(**values)


def engine_errors():
    """Real errors of the engine and of the conditional checker."""
    with pytest.raises(engine.IllegalMove) as occupied:
        engine.new_game("io", size=5).play("c3").play("c3")
    with pytest.raises(engine.OptionError) as size:
        engine.new_game("braincoral", size=99)
    with pytest.raises(conditionals.ConditionalError) as line:
        conditionals.check_line(engine.new_game("io", size=9), 2, ["e5", "d4 b2", "c3"])
    return occupied.value, size.value, line.value


def sample() -> list[tuple[str, str, tuple[str, ...]]]:
    """``(what, text, values that must appear in it)`` for a sample of the group's messages,
    worded in the current language."""
    occupied, size, line = engine_errors()
    tournament = SimpleNamespace(name="T" * 40)
    mention, label = f"<@{BIG}>", LABEL
    refusals = [
        (UserError(Refusal.NO_SUCH_GAME, game_id=GAME_ID), (str(GAME_ID), "`game:`")),
        (UserError(Refusal.ILLEGAL_MOVE, error=occupied), ("c3",)),
        (UserError(Refusal.BAD_OPTION, kind="braincoral", error=size), ("size", "99", "limping", "hexhex")),
        (UserError(Refusal.BAD_LINE, error=line), ("`c3`",)),
        (UserError(Refusal.CHOOSE_GAME, games=[game()] * 12, waiting=True), (label, "`game:`")),
        (UserError(Refusal.CHOOSE_GAME, games=[game()] * 21, waiting=False), ("21", label)),
        (UserError(Refusal.TOO_MANY_CHALLENGES, count=22, most=25), ("22", "25")),
        (UserError(Refusal.DUPLICATE_CHALLENGE, challenge=challenge()),
         (f"<@{BIG - 1}>", f"https://discord.com/channels/{BIG}/{BIG}/{BIG}", "<t:4102444800:R>")),
        (UserError(Refusal.CHALLENGE_CLOSED, challenge=challenge()), (mention,)),
        (UserError(Refusal.CHALLENGE_EXPIRED, challenge=challenge(), lasts_hours=48), (mention, "48")),
        (UserError(Refusal.REMATCH_TAKEN, game=game(), rematch_id=GAME_ID - 1), (label,)),
        (UserError(Refusal.GAME_OVER, game=game(status="aborted")), (label,)),
        (UserError(Refusal.NOT_YOUR_TURN, game=game()), (label,)),
        (UserError(Refusal.VACATION_USED_UP, allowance=30), ("30",)),
        (UserError(Refusal.BAD_VACATION_DAYS), ()),
        (UserError(Refusal.SELF_CHALLENGE), ()),
        (UserError(Refusal.NO_SUCH_TOURNAMENT, name="x" * 100), ("x" * 40,)),
        (UserError(Refusal.TOURNAMENT_FULL, tournament=tournament, most=64), ("**" + "T" * 40 + "**", "64")),
        (UserError(Refusal.TOO_FEW_PLAYERS, tournament=tournament, count=3, least=4), ("3", "4")),
    ]
    out = [(e.reason.name, texts.refusal_text(e), values) for e, values in refusals]
    c, g = challenge(), game()
    out += [
        ("challenge_text", texts.challenge_text(c), (mention, f"<@{BIG - 1}>", "<t:4102444800:R>")),
        ("open challenge", texts.challenge_text(challenge(opponent_id=None, first="random")), (mention,)),
        ("challenge_sent", texts.challenge_sent(None, BIG), (f"<#{BIG}>",)),
        ("accepted_text", texts.accepted_text(c, g), (label, f"<#{BIG}>")),
        ("declined", texts.declined(c), (f"<@{BIG - 1}>",)),
        ("computer_started", texts.computer_started(label, 5, BIG), (mention, "5", label)),
        ("computer_to_move", texts.computer_to_move(BIG, 3, "white"), (mention, "3")),
        ("computer_gave_up", texts.computer_gave_up(label, [BIG, BIG - 1]), (label, mention)),
        ("computer_game_sent", texts.computer_game_sent(g), (label, f"<#{BIG}>")),
        ("review_text", texts.review_text(label, [(texts.review_swing(9999, NAME, "t20 s19", 1.0, 0.0),
                                                   "t20 s19")] * 3), (label, NAME, "`t20 s19`", "9999")),
        ("moves_played", texts.moves_played(22), ("22",)),
        ("fit_lines", texts.fit_lines(["x" * 1500] * 3), ("2",)),
        ("generic failure", i18n._(texts.GENERIC_FAILURE), ("/games",)),
        ("lapsed", i18n._(texts.CHALLENGE_LAPSED), ()),
    ]
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_sample_of_the_group_is_translated_filled_and_fits(lang):
    english = {what: text for what, text, _values in sample()}
    with i18n.speaking(lang):
        worded = sample()
        labels = {action: i18n._(label) for action, label in texts.BUTTON_LABELS.items()}
        thread = texts.thread_name(game(), NAME, NAME)
    for what, text, values in worded:
        assert text != english[what], (lang, what, text)
        assert not PLACEHOLDER.search(text), (lang, what, text)  # every placeholder filled
        for value in values:
            assert value in text, (lang, what, value, text)
        limits.check_message({"content": text})
        assert len(text) <= 1900, (lang, what)  # room for what a caller adds
    for action, label in labels.items():
        assert label and label != texts.BUTTON_LABELS[action] and len(label) <= 80, (lang, action, label)
    limits.check_thread_name(thread)


def test_counts_take_each_languages_plural_forms():
    counts = (1, 2, 5, 21, 22, 25)
    with i18n.speaking("ru"):
        ru = [texts.moves_played(n) for n in counts]
    with i18n.speaking("fr"):
        fr = [texts.moves_played(n) for n in (0, 1, 2)]
    with i18n.speaking("ja"):
        ja = texts.moves_played(2)
    assert ru == ["сыгран 1 ход", "сыграно 2 хода", "сыграно 5 ходов", "сыгран 21 ход", "сыграно 22 хода",
                  "сыграно 25 ходов"]
    assert fr == ["aucun coup pour l'instant", "1 coup joué", "2 coups joués"]
    assert ja == "2 手まで進行"
    assert [texts.moves_played(n) for n in (0, 1, 2)] == ["no moves yet", "1 move played", "2 moves played"]


def test_a_conditional_error_carries_its_reason_and_fields_and_is_worded_in_texts():
    _occupied, _size, line = engine_errors()
    assert line.reason is conditionals.LineProblem.BAD_STEP
    assert line.fields["number"] == 3 and line.fields["text"] == "c3"
    assert isinstance(line.fields["error"], engine.EngineError)
    # the engine's English for library users, as before
    assert str(line).startswith("step 3 (their move `c3`): a free stone must follow")
    assert conditional_error(line) == str(line)
    with i18n.speaking("de"):
        german = conditional_error(line)
    assert german.startswith("Schritt 3 (Zug des Gegners `c3`): solange es ein freies Feld gibt")
    assert set(LINE_PROBLEMS) == set(conditionals.LineProblem)
    for problem in conditionals.LineProblem:  # the texts' English is the checker's
        assert LINE_PROBLEMS[problem] == problem.value, problem


def test_an_options_range_is_worded_from_the_engines_data():
    _occupied, size, _line = engine_errors()
    spec = next(o for o in engine.GAMES["braincoral"].options if o.name == "size")
    assert spec.ranges == (("shape", "limping", 2, 10), ("shape", "hexhex", 3, 11))
    refusal = UserError(Refusal.BAD_OPTION, kind="braincoral", error=size)
    assert texts.refusal_text(refusal) == ("Bad option for Brain Coral: size must be from 2 to 10 on a "
                                           "limping board, or from 3 to 11 on a hexhex board, not 99.")
    with i18n.speaking("fr"):
        assert texts.refusal_text(refusal) == ("Option invalide pour Brain Coral : size doit aller de 2 à 10 "
                                               "sur un plateau limping, ou de 3 à 11 sur un plateau hexhex, "
                                               "pas 99.")


def test_a_japanese_sentence_ends_with_a_japanese_full_stop():
    occupied, _size, _line = engine_errors()
    with i18n.speaking("ja"):
        text = texts.refusal_text(UserError(Refusal.ILLEGAL_MOVE, error=occupied))
    assert text == "反則手です：c3 にはすでに石があります。"
