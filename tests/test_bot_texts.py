"""User-facing sentences of the bot layer (bot/texts.py)."""

import random

import engine
from bot import texts


def test_io_turn_hint_follows_the_opening():
    start = engine.new_game("io", size=7)
    assert texts.turn_hint("io", start.phase, start.ply) == "one stone, not on a corner"
    after = start.play("d4")
    assert "bound then free" in texts.turn_hint("io", after.phase, after.ply)


def test_resignation_result_has_no_scores_but_a_finished_game_does():
    names = {1: "Ann", 2: "Bob"}
    pos = engine.new_game("io", size=7).play("d4")
    resigned = pos.resign(1)
    assert texts.result_text("io", resigned.outcome, names) == "Bob beats Ann by resignation."
    end = engine.new_game("io", size=5).random_playout(random.Random(3))
    text = texts.result_text("io", end.outcome, names)
    assert f"({end.outcome.scores[1]}–{end.outcome.scores[2]})" in text
