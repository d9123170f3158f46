"""Game knowledge the engine answers once (issue 11, item 3): end reasons as
``engine.Termination``, and what each ``GameKind`` / ``Position`` says of itself -- menu order,
move format, turn hint, phase caption, "this move settled the colours", board family, seat
colours -- plus the rule that the renderers use only the engine's public API."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import engine
from engine import Termination

ROOT = Path(__file__).resolve().parent.parent
T = Termination


def _play_until(pos: engine.Position, want, seed: int = 1, limit: int = 400) -> engine.Position:
    """The first position of a seeded random game from ``pos`` for which ``want`` holds."""
    rng = random.Random(seed)
    for _ in range(limit):
        if want(pos):
            return pos
        pos = pos.play(pos.random_move(rng))
    raise AssertionError("no such position in the random game")


# ---- Termination ------------------------------------------------------------------------

def test_one_member_per_reason_of_rules_every_game():
    # RULES.md "Every game": Coil coil / board full; Io stones; the Corals score; Whirlwind
    # connection / no moves; any game resignation / timeout.
    assert [t.value for t in Termination] == [
        "coil", "board full", "stones", "score", "connection", "no moves", "resignation", "timeout"]
    assert [t.name for t in Termination] == [
        "COIL", "BOARD_FULL", "STONES", "SCORE", "CONNECTION", "NO_MOVES", "RESIGNATION", "TIMEOUT"]


@pytest.mark.parametrize("member", list(Termination), ids=lambda t: t.name)
def test_each_member_has_a_docstring_naming_its_rule(member):
    doc = member.__doc__
    assert doc and doc != Termination.__doc__
    assert 'RULES.md "' in doc


def test_a_member_is_its_word_so_text_records_and_rows_keep_working():
    assert T.BOARD_FULL == "board full" and isinstance(T.BOARD_FULL, str)
    assert f"{T.NO_MOVES}" == "no moves" and str(T.NO_MOVES) == "no moves"
    assert Termination("board full") is T.BOARD_FULL
    assert Termination.read("timeout") is T.TIMEOUT
    assert Termination.read(T.COIL) is T.COIL
    assert Termination.read("stalemate") is None and Termination.read(None) is None
    with pytest.raises(ValueError):
        Termination("stalemate")


def test_by_rules_and_on_scores():
    assert [t for t in Termination if not t.by_rules] == [T.RESIGNATION, T.TIMEOUT]
    assert [t for t in Termination if t.on_scores] == [T.STONES, T.SCORE]


def test_the_picture_caption_of_every_reason():
    # Today's wording, kept where it was seen: under "Ann wins" on the board picture (the
    # bot's phrase after "Ann beats Bob" is worded in bot.texts: tests/test_bot_texts.py).
    assert not hasattr(T.COIL, "phrase")
    assert {t.value: t.caption("Bo") for t in Termination} == {
        "coil": "by closing a coil",
        "board full": "board full, no coil",
        "stones": "on stones",
        "score": "on score",
        "connection": "by joining both edges",
        "no moves": "Bo had no legal turn",
        "resignation": "by resignation",
        "timeout": "on time",
    }
    assert T.NO_MOVES.caption("{x} {loser}") == "{x} {loser} had no legal turn"


def test_outcome_reads_a_word_as_its_member_and_refuses_an_unknown_one():
    out = engine.Outcome(2, "stones", {1: 3, 2: 4})
    assert out.reason is T.STONES
    assert engine.Outcome(1, T.COIL).reason is T.COIL
    with pytest.raises(ValueError, match="unknown end reason 'stalemate'"):
        engine.Outcome(1, "stalemate")


@pytest.mark.parametrize("key", engine.MENU_ORDER)
def test_a_game_ends_only_with_its_own_terminations(key):
    kind = engine.GAMES[key]
    seen = set()
    for seed in range(12):
        end = kind.new().random_playout(random.Random(seed))
        assert type(end.outcome.reason) is Termination
        seen.add(end.outcome.reason)
    assert seen <= set(kind.ends)
    start = kind.new()
    assert start.resign(1).outcome.reason is T.RESIGNATION
    assert start.time_out(2).outcome.reason is T.TIMEOUT


def test_each_game_names_the_endings_of_its_rules():
    ends = {key: kind.ends for key, kind in engine.GAMES.items()}
    assert ends == {
        "coil": (T.COIL, T.BOARD_FULL),
        "io": (T.STONES,),
        "braincoral": (T.SCORE,),
        "branchingcoral": (T.SCORE,),
        "whirlwind": (T.CONNECTION, T.NO_MOVES),
    }
    for kind in engine.GAMES.values():
        assert kind.terminations == (*kind.ends, T.RESIGNATION, T.TIMEOUT)
        assert all(t.by_rules for t in kind.ends)


def test_position_text_keeps_the_word_of_a_resignation_and_reads_back_the_member():
    pos = engine.new_game("io", size=5).play("c3").resign(2)
    assert pos.to_text().endswith(" !1:resignation")
    back = engine.from_text(pos.to_text())
    assert back.outcome.reason is T.RESIGNATION and back == pos
    timed = engine.new_game("coil", size=5).time_out(1)
    assert timed.to_text().endswith(" !2:timeout")
    assert engine.from_text(timed.to_text()).outcome.reason is T.TIMEOUT
    # An ending by the rules is never written after "!": the board shows it.
    with pytest.raises(engine.PositionError):
        engine.from_text(timed.to_text().replace("!2:timeout", "!2:board full"))


def test_forfeit_takes_resignation_or_timeout_only():
    start = engine.new_game("whirlwind", size=8)
    assert start.forfeit(1, T.RESIGNATION) == start.resign(1)
    assert start.forfeit(2, "timeout") == start.time_out(2)
    assert start.forfeit(2, "timeout").outcome == engine.Outcome(1, T.TIMEOUT)
    with pytest.raises(ValueError, match="decided by the rules"):
        start.forfeit(1, T.CONNECTION)
    with pytest.raises(ValueError, match="unknown end reason"):
        start.forfeit(1, "nap")
    with pytest.raises(ValueError, match="seat"):
        start.forfeit(3, T.RESIGNATION)
    with pytest.raises(engine.IllegalMove):
        start.resign(1).forfeit(2, T.TIMEOUT)


# ---- GameKind ---------------------------------------------------------------------------

def test_menu_order_is_public_and_is_the_order_of_games():
    assert engine.MENU_ORDER == ("coil", "io", "braincoral", "branchingcoral", "whirlwind")
    assert tuple(engine.GAMES) == engine.MENU_ORDER
    assert [engine.GAMES[k].menu_rank for k in engine.MENU_ORDER] == [0, 1, 2, 3, 4]


def test_titles_and_move_formats():
    assert {k: g.title for k, g in engine.GAMES.items()} == {
        "coil": "Coil", "io": "Io", "braincoral": "Brain Coral",
        "branchingcoral": "Branching Coral", "whirlwind": "Whirlwind"}
    assert {k: g.move_format for k, g in engine.GAMES.items()} == {
        "coil": "one cell (`g7`), or `pass` during Phase I",
        "io": "`c3 e5` (bound then free) in the opening, one cell (`e5`) afterwards",
        "braincoral": "one cell, e.g. `d4`",
        "branchingcoral": "one cell, e.g. `d4`",
        "whirlwind": "one or two cells: `e5` or `e5 f6`",
    }


@pytest.mark.parametrize("key", engine.MENU_ORDER)
def test_seat_colours_are_those_of_every_position_or_none_for_coil(key):
    kind = engine.GAMES[key]
    pos = _play_until(kind.new(), lambda p: p.ply >= 6 or p.is_over)
    if key == "coil":  # RULES.md "Seats": in Coil colours are decided in play
        assert kind.colours is None
        return
    assert kind.colours == {1: pos.colour(1), 2: pos.colour(2)}
    assert kind.colours == {1: kind.new().colour(1), 2: kind.new().colour(2)}
    # RULES.md "Seats": in Io seat 1 is White, in Whirlwind and the Corals seat 1 is Black.
    assert kind.colours[1] == ("white" if key == "io" else "black")


def test_game_kinds_stay_hashable():
    assert len({kind for kind in engine.GAMES.values()}) == len(engine.GAMES)


def test_board_family_and_where_stones_stand():
    assert {k: (g.new().board.family, g.places) for k, g in engine.GAMES.items()} == {
        "coil": ("hex", "cells"),
        "io": ("square", "cells"),
        "braincoral": ("hex", "cells"),
        "branchingcoral": ("hex", "cells"),
        "whirlwind": ("square", "points"),
    }
    assert engine.new_game("braincoral", shape="hexhex", size=4).board.family == "hex"
    assert isinstance(engine.hex_board("limping", 4), engine.HexBoard)
    assert engine.hex_board("limping", 4).family == "hex"
    assert engine.square_board(9).family == "square"
    assert engine.file_letter(0) == "a" and engine.file_letter(26) == "aa"


# ---- Position: what the player to move may play ----------------------------------------

def test_coil_turn_hint_phase_caption_and_settled_colours():
    start = engine.new_game("coil", size=5)
    assert start.turn_hint == "place a black stone or `pass`"
    assert start.phase_caption == "Phase I · place a black stone or pass"
    assert not start.last_move_settled_colours
    placed = start.play("c3")
    assert not placed.last_move_settled_colours  # a black stone in Phase I decides nothing
    passed = placed.play("pass")  # the first pass: seat 2 becomes Black (RULES.md "Coil")
    assert passed.colour(2) == "black"
    assert passed.last_move_settled_colours
    assert passed.turn_hint == "place a stone of your colour"
    assert passed.phase_caption == "Phase II"
    later = passed.play("a1")
    assert not later.last_move_settled_colours
    assert later.turn_hint == "place a stone of your colour"


def test_io_turn_hint_and_caption_follow_the_opening():
    start = engine.new_game("io", size=7)
    assert start.turn_hint == "one stone, not on a corner"
    assert start.phase_caption == "Opening · one stone, not in a corner"
    after = start.play("d4")
    assert after.turn_hint == "bound then free, like `c3 e5`"
    assert after.phase_caption == "Opening · bound stone, then free"
    main = _play_until(after, lambda p: p.phase == "main")
    assert main.turn_hint == "one stone"
    assert main.phase_caption == "Main phase"


def test_whirlwind_first_turn_places_one_stone_then_one_or_two():
    start = engine.new_game("whirlwind", size=8)
    assert start.turn_hint == "one stone: the first turn places just one"
    assert start.phase_caption == "First turn: one stone"
    after = start.play(next(start.legal_moves()))
    assert after.turn_hint == "one or two stones"
    assert after.phase_caption == "One or two stones a turn"


@pytest.mark.parametrize("key", ["braincoral", "branchingcoral"])
def test_corals_have_one_stone_a_turn_and_no_phase_caption(key):
    pos = engine.new_game(key)
    for _ in range(5):
        assert pos.turn_hint == "one stone"
        assert pos.phase_caption is None
        pos = pos.play(pos.random_move(random.Random(pos.ply)))


@pytest.mark.parametrize("key", ["io", "braincoral", "branchingcoral", "whirlwind"])
def test_only_coil_has_a_move_that_settles_the_colours(key):
    rng = random.Random(7)
    pos = engine.new_game(key)
    while not pos.is_over:
        assert not pos.last_move_settled_colours
        pos = pos.play(pos.random_move(rng))
    assert not pos.last_move_settled_colours


# ---- renderers and ai use the engine's public API only ---------------------------------

def _engine_imports(path: Path) -> list[str]:
    """Every ``import engine...`` / ``from engine... import`` in ``path``, as written."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.split(".")[0] == "engine"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] == "engine":
                out.append(node.module)
    return out


def test_renderers_and_ai_import_nothing_but_the_engine_package():
    files = [p for folder in ("renderers", "ai") if (ROOT / folder).is_dir()
             for p in sorted((ROOT / folder).rglob("*.py"))]
    assert any(p.parent.name == "renderers" for p in files)
    private = {str(p.relative_to(ROOT)): [m for m in _engine_imports(p) if m != "engine"] for p in files}
    assert {f: ms for f, ms in private.items() if ms} == {}
    assert "engine" in _engine_imports(ROOT / "renderers" / "layout.py")


GAME_KEYS = frozenset(engine.GAMES)


def _switches(path: Path, tables_allowed: frozenset[str] = frozenset()) -> list[str]:
    """Comparisons with a game key written out (``kind == "coil"``, ``"io" in …``) and dict
    literals keyed by game keys (per-game tables, except those assigned to a name in
    ``tables_allowed``), as ``line: source``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    allowed = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Assign)
               and any(isinstance(t, ast.Name) and t.id in tables_allowed for t in node.targets)}
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
        elif isinstance(node, ast.Dict) and id(node) not in allowed:
            parts = [k for k in node.keys if k is not None]
        else:
            continue
        if any(isinstance(p, ast.Constant) and p.value in GAME_KEYS for p in parts):
            hits.append(f"{node.lineno}: {ast.unparse(node)[:60]}")
    return hits


@pytest.mark.parametrize("module", ["renderers", "bot/texts", "bot/rules/records.py"])
def test_renderers_texts_and_records_do_not_switch_on_game_names(module):
    paths = sorted((ROOT / module).rglob("*.py")) if (ROOT / module).is_dir() else [ROOT / module]
    # texts.RULES stays: the /rules summaries are the bot's own words, one per game.
    found = {str(p.relative_to(ROOT)): _switches(p, frozenset({"RULES"})) for p in paths}
    assert {f: hits for f, hits in found.items() if hits} == {}


def test_an_ended_position_pickles_with_its_termination():
    # Positions travel to the render and search worker processes by pickle.
    import pickle

    for pos in (engine.new_game("coil", size=5).random_playout(random.Random(1)),
                engine.new_game("io", size=5).resign(1)):
        back = pickle.loads(pickle.dumps(pos))
        assert back == pos and back.outcome.reason is pos.outcome.reason
