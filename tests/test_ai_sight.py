"""Level 1 sees immediate threats only some of the time (issue 19 item 9, issue 24
item 4), level 2 and up always (issue 18): a one-move coil, a Whirlwind chain one turn from crossing, an Io or Coral loss in
one, and their own win in one. ``ai.Level.sight`` is the documented chance per move (level
1 0.5, levels 2-5 1.0), drawn from the search's seeded random numbers.

Measured on a fixed set of positions of the five games where the side to move must stop a
win in one or can take one, found by brute force over seeded random games (the handling
turns are a small share of all turns: most moves ignore the threat). Every trial uses its
own seed, so the trials are independent draws; each move played is judged by brute force
over the whole turns of the position after it (two stones in Whirlwind). Simulation budgets,
never time: the same seeds give the same moves.

The bands are 99.9% normal-approximation intervals of a binomial proportion: with N trials
at rate p the count strays more than 3.29 * sqrt(p(1-p)/N) from pN once in a thousand."""

from __future__ import annotations

import dataclasses
import math
from functools import cache

import pytest
from test_ai_resist import after, whole_turns

import ai
import engine

#: Positions where the side to move has a win in one, with (winning turns, all turns).
WINS = [
    ("coil size=5 41 d5 .xox./x.xxox/.ox.xxx/o..xooxo/o..oo.x../..o.oxx./xxoxxx./x..xxx/x.o.x 2 II 2", 3, 21),
    ("coil size=5 31 a5 x...x/..xxx./x.x.xx./x.x...xx/oxxxx..../x.xxxxox/..x..x./.....x/x.x.. 2 II 2", 5, 31),
    ("coil size=5 43 b3 x.ox./oo.o.x/.x.xo../o.xo.oxx/xxoxoox.x/xoxxoo../oooxxxo/..ox.x/.x.x. 2 II 2", 1, 19),
    ("coil size=5 28 d1 x.xo./x.x.xx/oxx..../x.....o./.xx.x..../o...x.../..xxxx./..xx../.xxoo 1 II 1", 3, 34),
    ("braincoral shape=limping,size=4,bonus=own 31 h5 oxxo/x.o.o/..xo../ox.oxxx/.xxxoxox/o....x./.xx.oo/.oo.o 2", 1, 5),
    ("braincoral shape=limping,size=4,bonus=own 30 a1 ooxo/o..o./..xx.x/o..ooxo/oox.xo../...oxxx/.xxx.x/oo..x 1", 1, 5),
    ("branchingcoral shape=limping,size=4,bonus=own 30 d2 .x.o/xo.x./..xxxx/xoo..../.o..xxo./x.o...o/xo.ox./.x..o 1 0,1 c2:x,d3:o,e3:o", 1, 9),
    ("branchingcoral shape=limping,size=4,bonus=own 31 e4 o..o/.oxo./oxxxoo/.o...x./oox.x.ox/.o.x.x./ox.x.x/.x.x. 2 2,0 e3:o,f4:x", 1, 9),
    ("whirlwind size=8,setup=A 19 a8 xx.xo.oo/.ooxo.x./oooxx.x./xx..oooo/oxo..x.x/ox..xxox/xxxxxoo./o..ox.oo 2", 2, 177),
    ("whirlwind size=8,setup=A 21 g4,g8 .xxxoxxo/.o..oxxx/ooxxxxxo/xoxo.o.o/ooooxxxx/o.oxxo../xxox.oox/oxoo..o. 2", 2, 89),
    ("whirlwind size=8,setup=A 18 f8 oo..oo../.oox..xo/ooxxx.../x..xxoo./oooo...x/.x.xxxo./ox.ox.ox/o.ooxx.x 1", 2, 212),
]

#: Positions where the opponent wins in one unless the side to move stops it (and the side
#: to move has no win in one), with (turns that stop it, all turns): Coil's White facing a
#: one-move coil, Whirlwind chains one turn from crossing, Io and Coral losses in one.
BLOCKS = [
    ("coil size=5 34 c5 ....x/xx.xx./..o.xo./...ooxxo/x.x.xo..x/.xx.ox../...xxxx/x.xo.x/.ox.x 1 II 2", 1, 28),
    ("coil size=5 30 g9 x.x../..xx../xo.xo.x/..o.x.xx/.....xxo./..xxo.xx/.xx...o/.....x/xxxx. 1 II 2", 1, 32),
    ("coil size=5 33 e9 x..x./.ox.xx/xo...xx/.x.o..../x....x.../xx...xxo/x.o.xxx/ooxo.x/.oxx. 2 II 1", 1, 29),
    ("coil size=5 24 e4 xx.../x...x./.xxxxo./....xx../..x..xx../.x..x.../...xx../xxxxx./..... 1 II 2", 1, 38),
    ("coil size=5 31 i9 ...xx/xx.x../.xxx.xx/......../xxx..oxxx/xxx.x.x./.xxx.xx/.x..xx/..... 2 II 1", 1, 31),
    ("coil size=5 20 d3 ...../..o.x./.xx..../.x..x.x./.x.xxx.../....ox../o..xxx./....../..ox. 1 II 2", 1, 42),
    ("io size=5 20 c3 oox.x/ooxxx/oxxxx/.oxxx/ooooo 1 main - -", 1, 2),
    ("io size=5 20 d1 oooox/xooox/xxoxx/xxxxx/..oxo 1 main - c2", 1, 2),
    ("braincoral shape=hexhex,size=4,bonus=own 23 g6 ox.o/..xxx/.x.xo./oo.ox.o/o.xx.x/.ooox/x... 2", 1, 8),
    ("braincoral shape=hexhex,size=4,bonus=own 22 e5 o.xo/o..x./x.ooxo/.x.x..o/xo...o/x.ox./oxx. 1", 3, 9),
    ("braincoral shape=hexhex,size=4,bonus=own 23 b1 .ooo/xx..o/.xo.xx/o.ox..x/xoo.xo/ox.x./.x.. 2", 1, 3),
    ("branchingcoral shape=hexhex,size=4,bonus=own 21 b1 x..x/.ox.x/oo..x./.oxxx.o/..x..o/..ooo/.x.. 2 0,1 -", 1, 5),
    ("branchingcoral shape=limping,size=4,bonus=own 28 c1 .oo./.x.x./ox..xo/x.x...o/.x...oo./x.xxx.o/o.x.o./.oo.x 1 2,0 -", 1, 5),
    ("branchingcoral shape=limping,size=4,bonus=own 27 d1 ..x./.o.x./.x.xoo/o.ox.../..xooox./x...x.o/.xx.o./x.ox. 2 1,1 -", 1, 5),
    ("whirlwind size=8,setup=A 20 c2,a6 .x.oooxo/.o.xx.x./ooxxx.xx/xoo..ooo/xooox.xx/xxo.xooo/xxoxxooo/..oo..xx 1", 2, 108),
    ("whirlwind size=8,setup=A 18 e6,e7 xoxxo.x./.oo.oxxx/xoxxoo.o/xoox.ooo/x.oo...x/xxx.xo../xx.o.oo./ooooxxx. 1", 2, 177),
    ("whirlwind size=8,setup=A 20 f1,h2 .oxoo.oo/.o...xxx/xo.xooxo/xxxxoooo/xxooox.x/...xxx.x/.xo..ooo/o.oo.ox. 1", 25, 177),
    ("whirlwind size=8,setup=A 14 b5,b6 oo.xox../.o.xoxxx/xo.x.x.x/xo..ooo./ooo..x.x/..o.xx.x/.xoo..oo/...ox.o. 1", 43, 420),
]

#: Seeds per position for the levels that see only sometimes; levels 3-5 get a few.
SEEDS = 10
#: Simulations per move: small, so the whole measure takes seconds.
PLAYOUTS = 40
Z = 3.29  # two-sided 99.9%


def wins_at_once(state) -> bool:
    """True when the player to move has a whole turn that wins at once (brute force)."""
    me = state.to_move
    return any(after(state, t).winner == me for t in whole_turns(state))


@cache
def handles(text: str, threat: str, move: str) -> bool:
    """Whether ``move`` handles the position's threat: for "win" it wins at once; for
    "block" the mover has not lost and the opponent has no whole turn that wins at once
    (brute force)."""
    pos = engine.from_text(text)
    me = pos.to_move
    nxt = pos.play(move)
    if nxt.outcome is not None:
        return nxt.outcome.winner == me
    return threat == "block" and not wins_at_once(nxt.search_state())


def trials():
    """(position text, "win" or "block", seed) for every trial: each its own seed."""
    out = []
    for i, (text, _, _) in enumerate(WINS):
        out += [(text, "win", 1000 + 100 * i + k) for k in range(SEEDS)]
    for i, (text, _, _) in enumerate(BLOCKS):
        out += [(text, "block", 5000 + 100 * i + k) for k in range(SEEDS)]
    return out


def measure(lv: ai.Level, seeds: int = SEEDS) -> dict[str, tuple[int, int]]:
    """``{"win": (handled, trials), "block": (...), "all": (...)}`` for level settings
    ``lv`` over the fixed positions, the first ``seeds`` seeds of each."""
    counts = {"win": [0, 0], "block": [0, 0]}
    for text, threat, seed in trials():
        if (seed % 100) >= seeds:
            continue
        d = ai.search_move(engine.from_text(text), lv, playouts=PLAYOUTS, seed=seed)
        c = counts[threat]
        c[0] += handles(text, threat, d.move)
        c[1] += 1
    out = {k: (v[0], v[1]) for k, v in counts.items()}
    out["all"] = (out["win"][0] + out["block"][0], out["win"][1] + out["block"][1])
    return out


def band(p: float, n: int) -> float:
    """Half-width of the 99.9% band of a proportion p over n trials."""
    return Z * math.sqrt(p * (1 - p) / n)


def test_the_positions_are_what_they_say():
    """Each win position has a win in one; each block position has none, and the handling
    turns are the stated few among all whole turns (brute force; the Whirlwind counts, too
    slow to recount here, are checked by the levels that always see and by the blind rate
    below)."""
    for text, n_ok, n_all in WINS:
        state = engine.from_text(text).search_state()
        turns = whole_turns(state)
        ok = [t for t in turns if handles(text, "win", state.move_text(t))]
        assert (len(ok), len(turns)) == (n_ok, n_all), text
    for text, n_ok, n_all in BLOCKS:
        state = engine.from_text(text).search_state()
        assert not wins_at_once(state), text
        turns = whole_turns(state)
        assert len(turns) == n_all, text
        if not text.startswith("whirlwind"):
            ok = [t for t in turns if handles(text, "block", state.move_text(t))]
            assert len(ok) == n_ok, text
    kinds = {text.split()[0] for text, _, _ in WINS + BLOCKS}
    assert kinds == set(engine.GAMES)


def test_levels_document_their_sight():
    assert [ai.LEVELS[n].sight for n in sorted(ai.LEVELS)] == [0.5, 1.0, 1.0, 1.0, 1.0]


@pytest.fixture(scope="module")
def blind1():
    """Level 1 when it never looks: what it handles by chance."""
    return measure(dataclasses.replace(ai.LEVELS[1], sight=0.0))


def test_a_move_that_does_not_look_overlooks_wins_and_most_threats(blind1):
    won, n = blind1["win"]
    assert won == 0, blind1
    blocked, n = blind1["block"]
    assert blocked / n <= 0.15, blind1


def test_level_1_sees_about_half(blind1):
    """Level 1 handles the threat at about its sight, 0.5, plus what it handles blind by
    chance (the same trials with sight 0: the same random numbers after the draw), per kind
    of threat and overall, within the 99.9% band."""
    p = ai.LEVELS[1].sight
    got = measure(ai.LEVELS[1])
    for key in ("win", "block", "all"):
        hits, n = got[key]
        chance = blind1[key][0] / n
        expected = p + (1 - p) * chance
        assert abs(hits / n - expected) <= band(p, n), (key, got[key], expected, band(p, n))


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_levels_2_to_5_always_see(level):
    got = measure(ai.LEVELS[level], seeds=2)
    assert got["all"][0] == got["all"][1], got


def test_sight_is_repeatable_with_a_seed():
    text = BLOCKS[0][0]
    pos = engine.from_text(text)
    moves = [ai.choose_move(pos, level=1, playouts=PLAYOUTS, seed=s).move for s in range(12)]
    again = [ai.choose_move(pos, level=1, playouts=PLAYOUTS, seed=s).move for s in range(12)]
    assert moves == again
    assert {handles(text, "block", m) for m in moves} == {True, False}


def test_overlook_threats_drops_the_win_and_the_block_but_keeps_a_quiet_move():
    """``ai.overlook_threats`` directly: given the winning turn or the one blocking turn
    first, it plays another (that neither wins nor blocks); in a quiet position (the
    opening, no threat) the chosen turn stays."""
    for text, threat in ((WINS[2][0], "win"), (BLOCKS[0][0], "block")):
        state = engine.from_text(text).search_state()
        turns = whole_turns(state)
        good = [t for t in turns if handles(text, threat, state.move_text(t))]
        rest = [t for t in turns if t not in good]
        got = ai.overlook_threats(state, good[0], iter(good[1:] + rest))
        assert not handles(text, threat, state.move_text(got)), (text, got)
    quiet = engine.new_game("coil", size=5).play("d4").search_state()
    chosen = [quiet.actions()[3]]
    assert ai.overlook_threats(quiet, chosen, iter([[a] for a in quiet.actions()])) == chosen
