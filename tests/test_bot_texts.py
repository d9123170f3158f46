"""User-facing sentences of the bot layer (the bot/texts package)."""

import random

import engine
from bot import texts


def test_io_turn_hint_follows_the_opening():
    start = engine.new_game("io", size=7)
    assert texts.turn_hint("io", start) == "one stone, not on a corner"
    after = start.play("d4")
    assert "bound then free" in texts.turn_hint("io", after)


def test_whirlwind_first_turn_hint_asks_for_one_stone_only():
    start = engine.new_game("whirlwind", size=8)
    assert start.stones_this_turn == 1
    assert "two" not in texts.turn_hint("whirlwind", start)
    assert "one stone" in texts.turn_hint("whirlwind", start)
    after = start.play(next(start.legal_moves()))
    assert after.stones_this_turn == 2
    assert texts.turn_hint("whirlwind", after) == "one or two stones"


def test_resignation_result_has_no_scores_but_a_finished_game_does():
    names = {1: "Ann", 2: "Bob"}
    pos = engine.new_game("io", size=7).play("d4")
    resigned = pos.resign(1)
    assert texts.result_text("io", resigned.outcome, names) == "Bob beats Ann by resignation."
    end = engine.new_game("io", size=5).random_playout(random.Random(3))
    text = texts.result_text("io", end.outcome, names)
    won, lost = end.outcome.winner, 3 - end.outcome.winner
    assert f"({end.outcome.scores[won]}–{end.outcome.scores[lost]})" in text


def test_scores_read_winner_first_and_a_coral_tie_says_why():
    names = {1: "Ann", 2: "Bob"}
    io = engine.Outcome(winner=2, reason="stones", scores={1: 10, 2: 15})
    assert texts.result_text("io", io, names) == "Bob beats Ann on stones (15–10)."
    tie = engine.Outcome(winner=2, reason="score", scores={1: 5, 2: 5})
    assert texts.result_text("braincoral", tie, names) == \
        "Bob beats Ann on score (5–5; a tie goes to the last stone placed)."
    draw = engine.Outcome(winner=None, reason="stones", scores={1: 8, 2: 8})
    assert texts.result_text("io", draw, names) == "Ann and Bob draw (8–8)."


def test_record_result_line_keeps_scores_only_for_results_by_the_rules():
    from bot.rules.records import result_text as record_result

    labels = {1: "Ann (1)", 2: "Bob (2)"}
    assert record_result("finished", 2, "resignation", {1: 1, 2: 0}, labels=labels) == \
        "Bob (2) beats Ann (1) by resignation"
    assert record_result("finished", 1, "timeout", {1: 3, 2: 4}, labels=labels) == "Ann (1) beats Bob (2) on time"
    assert record_result("finished", None, "stones", {1: 18, 2: 18}, labels=labels) == \
        "Ann (1) and Bob (2) draw on stones (18–18)"
    assert record_result("finished", 1, "score", {1: 9, 2: 7}, labels=labels) == "Ann (1) beats Bob (2) on score (9–7)"
    assert record_result("aborted", None, None, labels=labels) == "no result: aborted by a moderator"


def test_turn_hint_and_titles_are_the_engines():
    for key, kind in engine.GAMES.items():
        start = kind.new()
        assert texts.turn_hint(key, start) == start.turn_hint
        assert texts.title(key) == kind.title
        assert f"Moves: {kind.move_format}." in texts.rules_text(key)
    assert texts.title("chess") == "chess"


def test_an_unknown_reason_is_shown_as_written():
    from types import SimpleNamespace

    odd = SimpleNamespace(winner=1, reason="stalemate", scores=None)
    assert texts.result_text("io", odd, {1: "Ann", 2: "Bob"}) == "Ann beats Bob (stalemate)."


def test_a_record_reads_back_its_reason_as_the_engines_termination():
    from bot.rules.records import format_record, read_record

    pos = engine.new_game("io", size=5).play("c3")
    for ending, lose in ((engine.Termination.TIMEOUT, 2), (engine.Termination.RESIGNATION, 1)):
        text = format_record(kind="io", options=pos.options, game_id=4, players={1: 11, 2: 22},
                             names={1: "Ann", 2: "Bob"}, colours={1: "white", 2: "black"}, rated=True,
                             days_per_move=3, created_at=0, finished_at=60, status="finished",
                             winner=3 - lose, reason=ending.value, scores={1: 1, 2: 0}, moves=["c3"])
        rec = read_record(text)
        assert rec.reason is ending and rec.winner == 3 - lose
        assert rec.position() == pos.forfeit(lose, ending)
        assert rec.position().outcome.reason is ending
    end = engine.new_game("whirlwind", size=8).random_playout(random.Random(1))
    text = format_record(kind="whirlwind", options=end.options, game_id=5, players={1: 11, 2: 22},
                         colours={1: "black", 2: "white"}, rated=False, days_per_move=3, created_at=0,
                         finished_at=60, status="finished", winner=end.outcome.winner,
                         reason=end.outcome.reason, scores=None, moves=[])
    assert read_record(text).reason is end.outcome.reason


def test_every_computer_level_is_worded_by_the_texts_and_ai_keeps_numbers_only():
    import dataclasses

    import ai

    assert set(texts.LEVEL_DESCRIPTIONS) == set(ai.LEVELS)
    assert not [f.name for f in dataclasses.fields(ai.Level) if f.type in ("str", str)]
    assert [texts.level_choice(n) for n in ai.LEVELS] == ["1 Beginner", "2 Casual", "3 Club", "4 Strong",
                                                          "5 Strongest"]
    assert "(Club: a careful search)" in texts.computer_started("Io #3", 3, 42)
