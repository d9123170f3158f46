"""Alt text (issue 19, item 5): every picture and file the bot attaches says what it shows.

The descriptions are built from data (:mod:`bot.front.alttext`, worded in :mod:`bot.texts`):
unit tests per game and state, the worst case against Discord's 1,024 characters, the one
place a ``discord.File`` is made, the fake Discord's check of the limit, and one board
through the fake end to end (every other end-to-end test checks a description is there:
the fake's strict mode).
"""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

import aiohttp
import pytest
from botplay import board_post, play_move, start_game
from fakediscord import limits
from fakediscord.fixtures import *  # noqa: F403

import engine
from bot import texts
from bot.front import alttext, boards
from bot.manager import Game

ROOT = Path(__file__).resolve().parent.parent
NAMES = {1: "Annabel", 2: "Bartholomew"}
LONG_NAMES = {1: "Ꮓ" * 32, 2: "W" * 32}  # Discord's longest display names
LIMIT = 1024  # Discord: an attachment's description


def game_of(position: engine.Position, **changes) -> Game:
    """A game row showing ``position`` (players 101 and 102, game #7)."""
    fields = dict(id=7, guild_id=1, channel_id=2, thread_id=3, kind=position.kind,
                  options=dict(position.options), players={1: 101, 2: 102}, status="active",
                  ply=position.ply, position_text=position.to_text(), winner=None, reason=None,
                  rated=True, days_per_move=3, created_at=0.0, updated_at=0.0,
                  deadline=1_800_000_000.0, challenge_id=None)
    if position.outcome is not None:
        fields.update(status="finished", winner=position.outcome.winner,
                      reason=position.outcome.reason.value, deadline=None)
    fields.update(changes)
    return Game(**fields, position=engine.from_text(fields["position_text"]))


def describe(position: engine.Position, names=NAMES, **changes) -> str:
    return alttext.board(game_of(position, **changes), position, names)


def play(kind: str, moves, **options) -> engine.Position:
    return engine.replay(kind, options, moves)


def random_game(kind: str, seed: int, plies: int | None = None, **options) -> engine.Position:
    """``plies`` random moves (or to the end) from the start of ``kind``."""
    rng, position = random.Random(seed), engine.new_game(kind, **options)
    while position.outcome is None and (plies is None or position.ply < plies):
        position = position.play(position.random_move(rng))
    return position


# ---- Position.last_mover (the engine's data the description names the mover from) -------------
@pytest.mark.parametrize("kind", list(engine.GAMES))
def test_last_mover_is_the_seat_that_played_the_last_move(kind):
    rng = random.Random(5)
    position = engine.new_game(kind)
    assert position.last_mover is None
    while position.outcome is None:
        seat = position.to_move
        position = position.play(position.random_move(rng))
        assert position.last_mover == seat
    mid = random_game(kind, 6, plies=3)  # a resignation is not a move: the mover stays
    assert mid.resign(mid.to_move).last_mover == mid.last_mover


# ---- the board's description, per game and state --------------------------------------------
@pytest.mark.parametrize("kind", list(engine.GAMES))
def test_a_board_in_play_names_game_options_move_mover_and_whose_turn(kind):
    position = random_game(kind, 1, plies=3)
    text = describe(position)
    mover, turn = NAMES[position.last_mover], NAMES[position.to_move]
    assert text.startswith(f"Board of {texts.title(kind)} #7 ({texts.options_text(position.options)})")
    assert f"Move 3: {mover} played {position.last_move}" in text
    colour = position.colour(position.to_move)
    assert f"{turn} ({colour.title()}) to move" in text if colour else f"{turn} to move" in text
    assert "Game over" not in text
    placed = list(position.stones.values())
    for colour in ("black", "white"):
        n = placed.count(colour)
        assert (texts.count(n, f"{colour} stone") in text) if n else f"{colour} stone" not in text
    assert ("The board is empty." in text) == (not placed)


@pytest.mark.parametrize("kind", list(engine.GAMES))
def test_a_finished_board_gives_the_result_with_names_and_no_turn(kind):
    position = random_game(kind, 2)
    text = describe(position)
    assert "Game over: " + texts.result_text(kind, position.outcome, NAMES) in text
    assert " to move" not in text
    assert f"Move {position.ply}: {NAMES[position.last_mover]} played {position.last_move}" in text


def test_coil_phase_one_says_colours_are_open_and_phase_two_names_them():
    text = describe(play("coil", ["c3"], size=5))
    assert "Annabel against Bartholomew, colours not decided yet" in text
    assert "Move 1: Annabel played c3." in text
    assert "Bartholomew to move. Phase I, place a black stone or pass." in text
    assert "On the board: 1 black stone." in text
    # Bartholomew passes: he is Black, Annabel White, and White plays first in Phase II
    text = describe(play("coil", ["c3", "pass"], size=5))
    assert "Annabel (White) against Bartholomew (Black)." in text
    assert "Move 2: Bartholomew played pass." in text
    assert "Annabel (White) to move. Phase II." in text


def test_io_says_bound_then_free_and_what_the_move_turned_over():
    start = describe(engine.new_game("io", size=5))
    assert "No moves yet." in start and "Annabel (White) to move. Opening, one stone, not in a corner." in start
    assert "The board is empty." in start and "Score" not in start
    text = describe(play("io", ["c3"], size=5))
    assert "Move 1: Annabel played c3." in text
    assert "Bartholomew (Black) to move. Opening, bound stone, then free." in text
    flips = next(p for p in (random_game("io", s, plies=12, size=5) for s in range(50))
                 if p.highlights.flipped)
    assert f"turning over {texts.count(len(flips.highlights.flipped), 'stone')}" in describe(flips)


def test_a_coral_result_gives_the_scores_and_a_game_in_play_the_score_now():
    for kind in ("braincoral", "branchingcoral"):
        position = random_game(kind, 3)
        scores = position.outcome.scores
        winner = position.outcome.winner or 1
        text = describe(position)
        assert f"({scores[winner]}–{scores[3 - winner]}" in text and "on score" in text
        mid = random_game(kind, 3, plies=4)
        assert f"Score: Annabel {mid.scores[1]}, Bartholomew {mid.scores[2]}." in describe(mid)


def test_resignation_aborted_and_deleted_player():
    position = random_game("whirlwind", 4, plies=5)
    resigned = position.resign(1)
    text = describe(resigned, names={1: texts.DELETED_PLAYER, 2: "Bartholomew"})
    assert "Game over: Bartholomew beats deleted player by resignation." in text
    assert f"Move 5: deleted player played {position.last_move}" in text
    text = describe(position, status="aborted")
    assert "aborted by a moderator: no result" in text and " to move" not in text


def test_branching_coral_names_the_removed_stones():
    found = None
    for seed in range(200):
        rng, position = random.Random(seed), engine.new_game("branchingcoral")
        while position.outcome is None and not position.highlights.removed:
            position = position.play(position.random_move(rng))
        if position.highlights.removed:
            found = position
            break
    assert found is not None
    cells = sorted(found.highlights.removed)
    text = describe(found)
    assert ", removing " in text and all(c in text for c in cells)


def _longest_options(kind: str) -> dict:
    """The valid options of ``kind`` whose text is longest (every choice and size tried)."""
    spec, best = engine.GAMES[kind], {}
    values = [o.choices if o.choices else range(o.minimum, o.maximum + 1) for o in spec.options]
    for combo in itertools.product(*values):
        try:
            options = spec.validate(dict(zip([o.name for o in spec.options], combo, strict=True)))
        except engine.OptionError:
            continue
        if len(texts.options_text(options)) >= len(texts.options_text(best)):
            best = options
    return best


def _at_move_9999(position: engine.Position) -> engine.Position:
    """``position`` numbered as move 9,999 (its position text with the ply changed)."""
    kind, opts, _, rest = position.to_text().split(" ", 3)
    return engine.from_text(f"{kind} {opts} 9999 {rest}")


@pytest.mark.parametrize("kind", list(engine.GAMES))
def test_the_worst_case_fits_discords_1024_characters_with_every_fact(kind):
    options = _longest_options(kind)
    rng = random.Random(9)
    position = engine.new_game(kind, **options)
    for _ in range(7):
        position = position.play(position.random_move(rng))
    for shown in (position, position.random_playout(rng), position.resign(position.to_move)):
        shown = _at_move_9999(shown)
        text = alttext.board(game_of(shown, id=9_999_999), shown, LONG_NAMES)
        assert len(text) <= LIMIT, (len(text), text)
        assert "Move 9999: " in text and f"#9999999 ({texts.options_text(options)})" in text
        assert text.endswith(".") and "…" not in text  # nothing was cut
        assert ("On the board: " in text) and ("Game over: " in text) == (shown.outcome is not None)


def test_the_wording_fits_with_every_part_at_its_longest():
    name = "Ꮓ" * 32
    removed = ", removing 3 White stones (k10, k11, j11) and 3 Black stones (j10, j12, k12)"
    text = texts.board_alt(
        texts.game_alt(texts.game_label("branchingcoral", 9_999_999),
                       {"shape": "limping", "size": 10, "bonus": "captures"}),
        texts.players_alt(texts.seat_alt(name, "black"), texts.seat_alt(name, "white"), colours_known=True),
        texts.last_move_alt(9999, name, "t20 s19", removed),
        to_move=texts.seat_alt(name, "white"), phase="Phase I, place a black stone or pass",
        stones={"black": 9999, "white": 9999}, scores=[(name, 9999), (name, 9999)])
    assert len(text) <= LIMIT and "Score: " in text and text.endswith(".")


def test_rules_replay_and_record_descriptions():
    assert alttext.rules(engine.new_game("coil", size=5)) == (
        "The starting board of Coil (size 5): it is empty. The first player is to move.")
    assert "20 black stones and 20 white stones stand on it" in alttext.rules(engine.new_game("whirlwind"))
    final = random_game("io", 2, size=5)
    game = game_of(final)
    text = alttext.replay(game, NAMES)
    assert text.startswith("Animated replay of Io #7 (size 5): Annabel (White) against Bartholomew (Black).")
    assert f"{final.ply} moves" in text and texts.result_text("io", final.outcome, NAMES) in text
    assert alttext.record(game) == (f"The record of Io #7 as plain text: the players, the result and all "
                                    f"{final.ply} moves.")


def _review(plies: int, swings: int, names=NAMES, move: str = "c3") -> dict:
    curve = [0.5 + 0.4 * ((i % 7) - 2) / 7 for i in range(plies)]
    return {"kind": "io", "options": {"size": 5}, "start": 0.5,
            "plies": [{"ply": i + 1, "seat": 1 + i % 2, "move": move, "preferred": move,
                       "before": 0.5, "after": v} for i, v in enumerate(curve)],
            "swings": [{"ply": 6 + i, "seat": 1 + i % 2, "move": move, "preferred": "d4 e5",
                        "before": 0.68, "after": 0.29} for i in range(swings)]}


def test_a_review_description_names_the_leader_the_swings_and_the_preferred_moves():
    game = game_of(random_game("io", 2, size=5))
    data = _review(20, 2)
    ahead = sum(p["after"] > 0.5 for p in data["plies"])
    text = alttext.review(game, data, NAMES)
    assert text.startswith("Review chart of Io #7 (size 5): Annabel (White) against Bartholomew (Black).")
    assert "Annabel's chances of winning after every move" in text
    assert f"Annabel was ahead after {ahead} of the 20 moves." in text
    assert "move 6, Annabel's c3: 68% to 29%, the search preferred d4 e5;" in text
    assert text.endswith("move 7, Bartholomew's c3: 68% to 29%, the search preferred d4 e5.")
    assert "No move swung" in alttext.review(game, _review(20, 0), NAMES)
    # the worst case: long names, many two-stone swings -- swings left out, never cut
    text = alttext.review(game_of(game.position, id=9_999_999), _review(9999, 40, LONG_NAMES, "t20 s19"),
                          LONG_NAMES)
    assert len(text) <= LIMIT and text.endswith("d4 e5.") and "…" not in text


# ---- the one place a file is made ------------------------------------------------------------
def test_an_attachment_needs_a_description_and_is_cut_to_discords_limit():
    with pytest.raises(ValueError, match="no description"):
        boards.attachment(b"png", "a.png", " ")
    assert boards.attachment(b"png", "a.png", "x" * 2000).description == "x" * 1023 + "…"
    assert boards.attachment(b"png", "a.png", "a board").description == "a board"


def test_no_file_is_made_anywhere_else():
    made = {str(p.relative_to(ROOT)): len(re.findall(r"discord\.File\(|\bFile\(", p.read_text()))
            for p in (ROOT / "bot").rglob("*.py")}
    assert {p: n for p, n in made.items() if n} == {"bot/front/boards.py": 1}


# ---- the fake Discord: Discord's limit, and the project's rule ---------------------------------
def test_the_fake_refuses_a_description_over_1024_characters():
    assert limits.ATTACHMENT_DESCRIPTION == LIMIT
    ok = {"attachments": [{"id": 0, "filename": "a.png", "description": "d" * LIMIT}]}
    assert limits.message_errors(ok, [10]) == {}
    too_long = {"attachments": [{"id": 0, "filename": "a.png", "description": "d" * (LIMIT + 1)}]}
    with pytest.raises(limits.LimitError) as e:
        limits.check_message(too_long, [10])
    assert limits.flatten(e.value.errors) == ["attachments.0.description: Must be 1024 or fewer in length."]


async def _upload(fake, description: str | None) -> int:
    """Post one PNG to the fake's general channel over HTTP, as discord.py does; the status."""
    ref = {"id": 0, "filename": "a.png"} | ({} if description is None else {"description": description})
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"attachments": [ref]}), content_type="application/json")
    form.add_field("files[0]", b"\x89PNG\r\n\x1a\n", filename="a.png", content_type="image/png")
    async with aiohttp.ClientSession(base_url=fake.base_url,
                                     headers={"Authorization": f"Bot {fake.token}"}) as http:
        async with http.post(f"/api/v10/channels/{fake.general}/messages", data=form) as resp:
            return resp.status


async def test_the_strict_fake_stores_descriptions_and_lists_files_without_one(fake):
    assert await _upload(fake, "a board") == 200
    assert fake.channel_messages(fake.general)[-1].attachments[0].description == "a board"
    assert fake.undescribed == []
    assert await _upload(fake, None) == 200  # Discord takes it; the project does not
    assert fake.undescribed == ["a.png"]
    fake.strict, fake.undescribed = False, []
    assert await _upload(fake, "") == 200 and fake.undescribed == []


# ---- end to end: a posted board carries its description --------------------------------------
async def test_a_posted_board_and_the_board_command_carry_the_description(fake, harness):
    game, _, first = await start_game(fake, harness, "io", fake.alice, fake.bob)
    described = first.attachments[0].description
    assert described.startswith(f"Board of Io #{game.id} (size 5): Alice (White) against Bob (Black).")
    assert "No moves yet. Alice (White) to move" in described
    post = board_post(await play_move(fake, fake.alice, "c3", channel=game.thread_id))
    text = post.attachments[0].description
    assert "Move 1: Alice played c3." in text and "Bob (Black) to move. Opening, bound stone, then free." in text
    ex = await fake.slash(fake.bob, "board", {"game": game.id})
    assert ex.reply.attachments[0].description == text
    ex = await fake.slash(fake.bob, "rules", {"game": "coil"})
    assert ex.reply.attachments[0].description.startswith("The starting board of Coil")
