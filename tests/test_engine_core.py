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


# ---- issue 20: engine errors carry data (a reason naming the rule, typed fields) --------------
def _engine_raises():
    """Every ``raise <EngineError class>(ErrorReason.NAME, field=...)`` in engine/: (where, NAME, fields)."""
    import ast
    import pathlib

    classes = {"GameError", "OptionError", "MoveError", "IllegalMove"}
    found = []
    for path in sorted((pathlib.Path(engine.__file__).parent).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                call = node.exc
                name = call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")
                if name in classes:
                    first = call.args[0] if call.args else None
                    reason = first.attr if isinstance(first, ast.Attribute) else None
                    found.append((f"{path.name}:{node.lineno}", reason, {k.arg for k in call.keywords}))
    return found


def test_every_engine_error_names_its_reason_and_gives_the_fields_its_sentence_names():
    import string

    raised = _engine_raises()
    assert len(raised) > 45
    wrong = []
    for where, reason, fields in raised:
        if reason is None or reason not in engine.ErrorReason.__members__:
            wrong.append(f"{where}: no ErrorReason")
            continue
        wanted = {f for _, f, _, _ in string.Formatter().parse(engine.ErrorReason[reason].english) if f}
        if fields != wanted:
            wrong.append(f"{where}: {reason} gives {sorted(fields)}, its sentence names {sorted(wanted)}")
    assert not wrong, "\n".join(wrong)
    used = {reason for _, reason, _ in raised}
    assert used | {"POSITION_TEXT"} == set(engine.ErrorReason.__members__)  # every reason is raised


def test_an_engine_error_carries_its_reason_and_fields_and_reads_in_english():
    import pickle

    pos = engine.new_game("io", size=5).play("c3")
    with pytest.raises(engine.IllegalMove) as e:
        pos.play("c3")
    assert e.value.reason is engine.ErrorReason.OCCUPIED and dict(e.value.fields) == {"cell": "c3"}
    assert str(e.value) == "c3 is occupied"
    again = pickle.loads(pickle.dumps(e.value))
    assert (type(again), again.reason, dict(again.fields), str(again)) == (engine.IllegalMove, e.value.reason,
                                                                          {"cell": "c3"}, "c3 is occupied")
    with pytest.raises(engine.IllegalMove) as e:
        engine.replay("io", {"size": 5}, ["c3", "c3"])
    assert (e.value.reason, e.value.move_number, e.value.move) == (engine.ErrorReason.OCCUPIED, 2, "c3")
    assert str(e.value) == "move 2 (c3): c3 is occupied"
    with pytest.raises(engine.OptionError) as e:
        engine.new_game("io", colour="red")
    assert e.value.reason is engine.ErrorReason.UNKNOWN_OPTION and e.value.fields["options"] == ("size",)
    assert str(e.value) == "Io has no option 'colour' (options: size)"
    with pytest.raises(TypeError):
        engine.IllegalMove("a sentence instead of a reason")
