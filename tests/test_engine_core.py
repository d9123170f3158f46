"""The engine's shared surface: options, errors and the position text envelope."""

import pytest

import engine
from engine import GameError, OptionError, OptionSpec, PositionError


def test_option_spec_checks_ranges_and_choices():
    size = OptionSpec("size", int, 7, "board size", minimum=5, maximum=12)
    assert size.check("9") == 9
    with pytest.raises(OptionError, match="at least 5"):
        size.check(4)
    with pytest.raises(OptionError, match="at most 12"):
        size.check(13)
    with pytest.raises(OptionError, match="whole number"):
        size.check("big")
    with pytest.raises(OptionError):
        size.check(True)
    shape = OptionSpec("shape", str, "limping", "board shape", choices=("limping", "hexhex"))
    assert shape.check(" HexHex ") == "hexhex"
    with pytest.raises(OptionError, match="one of limping, hexhex"):
        shape.check("square")


def test_unknown_game_and_option_are_typed_errors():
    with pytest.raises(GameError, match="unknown game"):
        engine.new_game("chess")
    with pytest.raises(OptionError, match="no option"):
        engine.new_game("coil", colour="red")
    assert issubclass(GameError, ValueError) and issubclass(OptionError, ValueError)


def test_game_names_are_forgiving():
    assert engine.new_game("Brain Coral").kind == "braincoral"
    assert engine.new_game("branching_coral").kind == "branchingcoral"


@pytest.mark.parametrize("kind", sorted(engine.GAMES))
def test_options_filled_with_defaults(kind):
    pos = engine.new_game(kind)
    assert set(pos.options) == {o.name for o in engine.GAMES[kind].options}
    for spec in engine.GAMES[kind].options:
        assert pos.options[spec.name] == spec.default


def test_default_options_match_rules():
    assert engine.new_game("coil").options == {"size": 7}
    assert engine.new_game("io").options == {"size": 9}
    assert engine.new_game("braincoral").options == {"shape": "limping", "size": 4, "bonus": "own"}
    assert engine.new_game("branchingcoral").options == {"shape": "limping", "size": 4, "bonus": "own"}
    assert engine.new_game("whirlwind").options == {"size": 14, "setup": "A"}


@pytest.mark.parametrize(
    "text",
    ["", "coil", "coil size=7 0 -", "coil size=99 0 - x", "coil size=7 zero - x", "coil size;7 0 - x"],
)
def test_bad_position_text(text):
    with pytest.raises(engine.EngineError):
        engine.from_text(text)
    with pytest.raises(PositionError):
        engine.from_text(text if text.startswith("coil size=7 ") else "coil size=7 0 - nonsense")


def test_replay_names_the_failing_move():
    with pytest.raises(engine.MoveError, match=r"move 2 \(z99\)"):
        engine.replay("coil", {"size": 5}, ["c3", "z99"])


def test_games_are_listed_in_the_issue_order():
    assert list(engine.GAMES) == ["coil", "io", "braincoral", "branchingcoral", "whirlwind"]


def test_string_choices_accept_any_case():
    assert engine.new_game("whirlwind", setup="b").options["setup"] == "B"
    assert engine.new_game("braincoral", shape="HEXHEX").options["shape"] == "hexhex"


@pytest.mark.parametrize("kind", sorted(engine.GAMES))
def test_complete_refuses_a_prefix_that_is_not_text(kind):
    """complete() raises TypeError for a non-string prefix in every game and every phase
    (Io's opening and Whirlwind have their own completion), whatever the limit."""
    start = engine.new_game(kind)
    positions = [start, start.play(next(start.legal_moves()))]
    for pos in positions:
        assert pos.complete("") and pos.complete(" ") == pos.complete("")  # text still works
        for bad in (None, 3, b"c3", ["c3"]):
            for limit in (25, None, 0):
                with pytest.raises(TypeError, match="must be a string"):
                    pos.complete(bad, limit=limit)


def test_io_completion_in_the_opening_refuses_a_prefix_that_is_not_text():
    pos = engine.new_game("io").play("e5")
    assert pos.phase == "opening" and pos.complete("d")  # the opening's own completion
    with pytest.raises(TypeError, match="not NoneType"):
        pos.complete(None)


@pytest.mark.parametrize("kind", sorted(engine.GAMES))
def test_position_text_with_a_wrong_board_names_the_problem(kind):
    text = engine.new_game(kind).to_text()
    head, _, rest = text.partition(" - ")  # "<kind> <options> 0" and the body
    rows, _, tail = rest.partition(" ")
    first, _, others = rows.partition("/")
    with pytest.raises(PositionError, match="rows, not"):
        engine.from_text(f"{head} - {others} {tail}")
    with pytest.raises(PositionError, match=f"must have {len(first)} "):
        engine.from_text(f"{head} - {first}./{others} {tail}")
    with pytest.raises(PositionError, match="character 'q'"):
        engine.from_text(f"{head} - q{first[1:]}/{others} {tail}")


@pytest.mark.parametrize("typed", ["g7 ", "g7,", " G7", "g7 ,"])
def test_trailing_separators_do_not_change_one_placement_completion(typed):
    pos = engine.new_game("coil")
    assert pos.complete(typed) == pos.complete("g7") == ["g7"]


# Text a player could type or paste for c3 (issue 9, item 14): a zero-width space, full-width
# letters, the bot's own "played `c3`." copied, a no-break space, a byte-order mark.
PASTED_C3 = ["c3\u200b", "\u200bc3", "ｃ３", "`c3`", "`c3`.", "\u00a0c3\u00a0", "\ufeffC3", "c\u200d3",
             "'c3'", "c3!"]


@pytest.mark.parametrize("typed", PASTED_C3)
@pytest.mark.parametrize("kind", ["braincoral", "io", "whirlwind"])
def test_moves_typed_with_invisible_or_decorated_characters_read_as_meant(kind, typed):
    pos = engine.new_game(kind)
    assert pos.play(typed).last_move == pos.play("c3").last_move
    assert pos.complete(typed) == pos.complete("c3")


def test_two_cell_moves_copied_with_decoration_read_as_meant():
    pos = engine.new_game("whirlwind").play("c3")
    legal = next(m for m in pos.legal_moves() if " " in m)
    a, b = legal.split()
    assert pos.play(f"`{a} {b}`.").last_move == legal
    assert pos.play(f"{a}\u3000{b}").last_move == legal  # ideographic space
    assert pos.play(f"{a}，{b}").last_move == legal  # full-width comma
    assert pos.complete(f"`{a}\u00a0") == pos.complete(f"{a} ")


@pytest.mark.parametrize("text", ["\u200b", "``", "`.`", "\ufeff \u200b"])
def test_decoration_alone_is_an_empty_move(text):
    with pytest.raises(engine.MoveError, match="empty move"):
        engine.new_game("io").play(text)
