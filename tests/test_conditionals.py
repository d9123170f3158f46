"""Conditional moves (bot/rules/conditionals.py): typed lines, their checks against a position,
the tree they form, answering the opponent's moves, storage and autocomplete."""

import json

import pytest

import engine
from bot.rules import conditionals
from bot.rules.conditionals import (
    MAX_LINES,
    MAX_STEPS,
    ConditionalError,
    ConditionalTree,
    add_line,
    check_line,
    complete_line,
    end_position,
    parse_line,
)

IO = engine.new_game("io", size=9)  # White (seat 1) to move; seat 2 prepares answers


def coil_one_stone_from_a_coil() -> engine.Position:
    """Coil, Phase II, White (seat 1) to move; Black (seat 2) surrounds g7 on five sides
    (f6 would close the coil)."""
    pos = engine.new_game("coil")
    for move in ("h7", "f7", "g8", "g6", "h8", "pass"):
        pos = pos.play(move)
    assert pos.to_move == 1 and pos.colour(2) == "black"
    return pos


# ---- parse_line ----------------------------------------------------------------------------
def test_parse_line_splits_steps_on_semicolons():
    assert parse_line("e5; d4; c3 e5; f6") == ["e5", "d4", "c3 e5", "f6"]
    assert parse_line("  e5 ;d4;  ") == ["e5", "d4"]
    assert parse_line("e5\uff1bd4") == ["e5", "d4"]  # a full-width semicolon


@pytest.mark.parametrize("text, message", [
    ("", "the line is empty"),
    (" ; ", "the line is empty"),
    ("e5;; d4", "step 2 is empty"),
    (";e5; d4", "step 1 is empty"),
    ("; ".join(["a1"] * (MAX_STEPS + 1)), f"at most {MAX_STEPS} steps"),
    (None, "must be text"),
])
def test_parse_line_refuses_empty_steps_and_long_lines(text, message):
    with pytest.raises(ConditionalError, match=message):
        parse_line(text)


# ---- check_line ----------------------------------------------------------------------------
def test_check_line_gives_canonical_steps():
    assert check_line(IO, 2, parse_line("E5; D4 b2; ｃ３")[:2]) == ["e5", "d4 b2"]
    ww = engine.new_game("whirlwind", size=8).play("b1")  # White (seat 2) to move
    # a Whirlwind pair in any order is stored in its canonical order
    assert check_line(ww, 1, ["c1, A1", "c8"]) == ["a1 c1", "c8"]


@pytest.mark.parametrize("line, message", [
    ("e5; e5 b2", r"step 2 \(your reply `e5 b2`\): e5 is occupied"),
    ("e5; d4 b2; z99; a1", r"step 3 \(their move `z99`\):"),
    ("a1; b2", r"step 1 \(their move `a1`\):"),  # White's first stone may not go in a corner
    ("e5; d4 b2; c3", r"step 3 \(their move `c3`\): a free stone must follow"),
    ("e5; d4 b2; c3 g7", "ends with their move `c3 g7`: add your reply"),
])
def test_check_line_names_the_bad_step(line, message):
    with pytest.raises(ConditionalError, match=message):
        check_line(IO, 2, parse_line(line))


def test_check_line_refuses_on_your_own_turn_and_after_the_end():
    with pytest.raises(ConditionalError, match="it is your move"):
        check_line(IO, 1, ["e5", "d4 b2"])
    with pytest.raises(ConditionalError, match="the game is over"):
        check_line(IO.resign(1), 2, ["e5", "d4 b2"])
    with pytest.raises(ConditionalError, match="seat must be 1 or 2"):
        check_line(IO, 3, ["e5", "d4 b2"])


def test_a_line_may_end_the_game_but_nothing_may_follow_the_end():
    pos = coil_one_stone_from_a_coil()
    assert check_line(pos, 2, ["a1", "f6"]) == ["a1", "f6"]
    assert end_position(pos, ["a1", "f6"]).outcome.winner == 2
    with pytest.raises(ConditionalError, match=r"step 2 \(your reply `f6`\) ends the game"):
        check_line(pos, 2, ["a1", "f6", "b1", "c1"])


# ---- the tree ------------------------------------------------------------------------------
def test_lines_that_begin_alike_share_their_beginning():
    tree = ConditionalTree()
    for text in ("e5; d4 b2; c3 g7; h8 b8", "e5; d4 b2; c1 h8; g8 b8", "d5; c4 h2"):
        tree = add_line(tree, IO, 2, text)
    assert tree.line_texts() == ["e5; d4 b2; c3 g7; h8 b8", "e5; d4 b2; c1 h8; g8 b8", "d5; c4 h2"]
    assert len(tree) == 3 and bool(tree)
    assert list(tree.branches) == ["e5", "d5"]
    reply, sub = tree.branches["e5"]
    assert reply == "d4 b2" and list(sub.branches) == ["c3 g7", "c1 h8"]
    # a line already contained changes nothing; extending a line keeps one line
    assert add_line(tree, IO, 2, "e5; d4 b2") == tree
    longer = add_line(tree, IO, 2, "d5; c4 h2; g3 b8; a7 h8")
    assert len(longer) == 3 and longer.line_texts()[-1] == "d5; c4 h2; g3 b8; a7 h8"
    assert not ConditionalTree() and len(ConditionalTree()) == 0


def test_a_second_reply_to_the_same_move_is_refused_and_changes_nothing():
    tree = add_line(ConditionalTree(), IO, 2, "e5; d4 b2; c3 g7; h8 b8")
    before = tree.to_json()
    with pytest.raises(ConditionalError, match=(
            r"step 4 \(your reply `h7 b8`\): another line already answers `c3 g7` with `h8 b8`")):
        add_line(tree, IO, 2, "e5; d4 b2; c3 g7; h7 b8")
    with pytest.raises(ConditionalError, match="already answers `e5` with `d4 b2`"):
        add_line(tree, IO, 2, "e5; f4 b2")
    assert tree.to_json() == before
    with pytest.raises(ConditionalError, match="pairs"):
        tree.merged(["e5"])


def test_at_most_max_lines_lines():
    tree = ConditionalTree()
    moves = [m for m in IO.legal_moves()]
    for move in moves[:MAX_LINES]:
        reply = next(IO.play(move).legal_moves())
        tree = tree.merged([move, reply])
    assert len(tree) == MAX_LINES
    extra = moves[MAX_LINES]
    with pytest.raises(ConditionalError, match=f"at most {MAX_LINES} lines"):
        tree.merged([extra, next(IO.play(extra).legal_moves())])


def test_respond_plays_along_a_line_and_drops_the_others():
    tree = ConditionalTree()
    for text in ("e5; d4 b2; c3 g7; h8 b8", "e5; d4 b2; c1 h8; g8 b8", "d5; c4 h2"):
        tree = add_line(tree, IO, 2, text)
    pos = IO.play("e5")
    reply, tree = tree.respond(pos.last_move, pos)
    assert reply == "d4 b2"
    assert tree.line_texts() == ["c3 g7; h8 b8", "c1 h8; g8 b8"]
    pos = pos.play(reply).play("C1, h8")
    reply, tree = tree.respond(pos.last_move, pos)
    assert reply == "g8 b8" and not tree
    # the line ran out: later moves get no reply
    assert tree.respond("a5", None) == (None, ConditionalTree())


def test_a_move_no_line_expects_clears_the_tree():
    tree = add_line(ConditionalTree(), IO, 2, "e5; d4 b2; c3 g7; h8 b8")
    assert tree.respond("d5", IO.play("d5")) == (None, ConditionalTree())


def test_a_reply_that_has_become_illegal_drops_the_line():
    tree = add_line(ConditionalTree(), IO, 2, "e5; d4 b2")
    # the same opponent's move in another position, where d4 is taken by White's stone
    elsewhere = engine.new_game("io", size=9).play("d4")
    assert tree.respond("d4", elsewhere) == (None, ConditionalTree())
    tree = add_line(ConditionalTree(), IO, 2, "d4; e5 b2")
    assert tree.respond("d4", IO.play("d4").resign(1)) == (None, ConditionalTree())
    assert tree.respond("d4", IO.play("d4"))[0] == "e5 b2"


# ---- storage -------------------------------------------------------------------------------
def test_json_round_trip():
    tree = ConditionalTree()
    for text in ("e5; d4 b2; c3 g7; h8 b8", "e5; d4 b2; c1 h8; g8 b8", "d5; c4 h2"):
        tree = add_line(tree, IO, 2, text)
    text = tree.to_json()
    assert json.loads(text) == {
        "e5": ["d4 b2", {"c3 g7": ["h8 b8", {}], "c1 h8": ["g8 b8", {}]}],
        "d5": ["c4 h2", {}],
    }
    back = ConditionalTree.from_json(text)
    assert back == tree and back.line_texts() == tree.line_texts()
    assert ConditionalTree.from_json(None) == ConditionalTree() == ConditionalTree.from_json("")


@pytest.mark.parametrize("text", [
    "not json", "[]", '{"e5": "d4"}', '{"e5": ["d4"]}', '{"e5": [1, {}]}', '{"e5": ["d4", []]}',
])
def test_damaged_storage_is_refused(text):
    with pytest.raises(ConditionalError, match="damaged"):
        ConditionalTree.from_json(text)


def test_too_deep_storage_is_refused():
    data: dict = {}
    for _ in range(MAX_STEPS // 2 + 2):
        data = {"a1": ["b1", data]}
    with pytest.raises(ConditionalError, match="damaged"):
        ConditionalTree.from_data(data)


# ---- autocomplete --------------------------------------------------------------------------
def test_complete_line_offers_the_moves_of_the_step_being_typed():
    assert complete_line(IO, 2, "")[:3] == ["b1", "c1", "d1"]  # no corner for White's first
    assert complete_line(IO, 2, "E5; d")[:3] == ["e5; d4", "e5; d5", "e5; d6"]
    # Io's two-placement turn: after the bound stone, the free stones
    assert complete_line(IO, 2, "e5; d4 b")[:2] == ["e5; d4 b1", "e5; d4 b2"]
    assert complete_line(IO, 2, "e5; d4, B2; ", limit=2) == ["e5; d4 b2; a1", "e5; d4 b2; b1"]
    assert len(complete_line(IO, 2, "", limit=5)) == 5


def test_complete_line_offers_nothing_when_the_line_cannot_go_on():
    assert complete_line(IO, 2, "e5; e5 b2; c") == []  # a bad earlier step
    assert complete_line(IO, 2, "e5;; c") == []
    assert complete_line(IO, 1, "e") == []  # seat 1 is to move
    assert complete_line(IO, 2, "e5", limit=0) == []
    assert complete_line(IO, 2, None) == []
    pos = coil_one_stone_from_a_coil()
    assert complete_line(pos, 2, "a1; f6; ") == []  # the game is over there


def test_complete_line_leaves_out_suggestions_longer_than_discord_allows(monkeypatch):
    monkeypatch.setattr(conditionals, "CHOICE_LENGTH", 10)
    assert complete_line(IO, 2, "e5; d4 b2; c") == []  # "e5; d4 b2; c1" is 13 characters
    assert complete_line(IO, 2, "e5; d", limit=2) == ["e5; d4", "e5; d5"]
