"""Brain Coral and Branching Coral, position by position against RULES.md.

Diagrams are position texts: rows top to bottom, ``x`` Black, ``o`` White, ``.`` empty.
limping 2 has rows (bottom to top) ``a1 b1 c1`` / ``a2 b2 c2 d2`` / ``b3 c3 d3`` / ``c4 d4``;
limping 3 has ``a1-d1`` / ``a2-e2`` / ``a3-f3`` / ``b4-f4`` / ``c5-f5`` / ``d6-f6``.
"""

import random

import pytest

import engine
from engine import IllegalMove, MoveError, OptionError, PositionError, hex_board


# ---- slow, obviously correct reference versions --------------------------------------------
def slow_drains(board, empty: set[int]) -> bool:
    """Every empty cell reaches an empty perimeter cell through empty cells (one flood each)."""
    for start in empty:
        seen, stack, ok = {start}, [start], False
        while stack:
            c = stack.pop()
            if len(board.neighbours[c]) < 6:
                ok = True
                break
            for d in board.neighbours[c]:
                if d in empty and d not in seen:
                    seen.add(d)
                    stack.append(d)
        if not ok:
            return False
    return True


def slow_legal(pos, c: int) -> bool:
    board = pos.board
    stones = {i for i in range(len(board)) if ((pos.black | pos.white) >> i) & 1}
    if c in stones:
        return False
    empty = set(range(len(board))) - stones - {c}
    if pos.branching:
        if sum(1 for d in board.neighbours[c] if d in empty or d == c) < 2:
            return False
        return slow_drains(board, empty)
    if not slow_drains(board, empty):
        return False
    return all(any(d in empty for d in board.neighbours[s]) for s in stones | {c})


def slow_groups(board, bits: int) -> list[set[int]]:
    cells = {i for i in range(len(board)) if (bits >> i) & 1}
    groups = []
    while cells:
        start = cells.pop()
        group, stack = {start}, [start]
        while stack:
            c = stack.pop()
            for d in board.neighbours[c]:
                if d in cells:
                    cells.discard(d)
                    group.add(d)
                    stack.append(d)
        groups.append(group)
    return groups


def pos_text(key, body, size=2, shape="limping", bonus="own", ply=10, last="-"):
    return f"{key} shape={shape},size={size},bonus={bonus} {ply} {last} {body}"


def brain(body, **kw):
    return engine.from_text(pos_text("braincoral", body, **kw))


def branching(body, **kw):
    return engine.from_text(pos_text("branchingcoral", body, **kw))


# ---- options ------------------------------------------------------------------------------
def test_kinds_and_defaults():
    b = engine.GAMES["braincoral"]
    assert b.title == "Brain Coral"
    assert engine.GAMES["branchingcoral"].title == "Branching Coral"
    p = engine.new_game("braincoral")
    assert p.options == {"shape": "limping", "size": 4, "bonus": "own"}
    assert len(p.board) == 48 and p.to_move == 1 and p.colour(1) == "black" and p.colour(2) == "white"
    assert p.phase == "main" and p.scores == {1: 0, 2: 0}


@pytest.mark.parametrize("key", ["braincoral", "branchingcoral"])
def test_size_ranges_per_shape(key):
    for size in range(2, 11):
        assert len(engine.new_game(key, shape="limping", size=size).board) == 3 * size * size
    for size in range(3, 12):
        assert len(engine.new_game(key, shape="hexhex", size=size).board) == 3 * size * size - 3 * size + 1
    for shape, size in (("limping", 1), ("limping", 11), ("hexhex", 2), ("hexhex", 12), ("limping", 12)):
        with pytest.raises(OptionError):
            engine.new_game(key, shape=shape, size=size)
    with pytest.raises(OptionError, match="hexhex board must be from 3 to 11"):
        engine.new_game(key, shape="hexhex", size=2)
    with pytest.raises(OptionError):
        engine.new_game(key, shape="square")


def test_bonus_choices():
    engine.new_game("branchingcoral", bonus="captures")
    for bonus in ("own", "opponent", "none"):
        engine.new_game("braincoral", bonus=bonus)
    with pytest.raises(OptionError):
        engine.new_game("braincoral", bonus="captures")


# ---- Brain Coral placement ----------------------------------------------------------------
def test_brain_perimeter_stone_needs_an_empty_neighbour():
    # a1 is a perimeter cell whose neighbours b1, a2, b2 are all stones.
    p = brain("../.../xo../.x. 1")
    a1 = p.board.cell("a1")
    assert p.board.perimeter >> a1 & 1
    with pytest.raises(IllegalMove, match="no empty neighbour"):
        p.play("a1")
    assert "a1" not in set(p.legal_moves())
    assert "c1" in set(p.legal_moves())


def test_brain_stone_left_without_empty_neighbour_is_refused():
    # b3's only empty neighbour is b2 (a2, c3, c4 are stones; b3 is on the edge).
    p = brain("x./xx./x.../... 1")
    with pytest.raises(IllegalMove, match="stone on b3 with no empty neighbour"):
        p.play("b2")


def test_brain_cutting_off_an_empty_region_is_refused():
    # c2 (interior) drains only through c3; a stone on c3 would enclose it.
    p = brain("../..x/.x.x/.xo 1")
    c3 = p.board.cell("c3")
    assert not p.board.perimeter >> c3 & 1
    with pytest.raises(IllegalMove, match="cut empty cells off"):
        p.play("c3")
    assert slow_legal(p, p.board.cell("c3")) is False
    assert "b3" in set(p.legal_moves())


def test_brain_legality_does_not_depend_on_colour():
    rng = random.Random(4)
    p = engine.new_game("braincoral", size=3)
    for _ in range(12):
        p = p.play(p.random_move(rng))
    swapped = p._make(p.options, p.board, p.ply, p.last_move, 3 - p._turn, p.white, p.black, (0, 0), (0, 0))
    assert list(swapped.legal_moves()) == list(p.legal_moves())


def test_pass_and_bad_text():
    p = engine.new_game("braincoral")
    with pytest.raises(IllegalMove, match="passing"):
        p.play("pass")
    for bad in ("z99", "hello", "a1 b1", "", "a9"):
        with pytest.raises(MoveError):
            p.play(bad)
    q = p.play("C3")
    with pytest.raises(IllegalMove, match="occupied"):
        q.play("c3")


# ---- end and score (Brain Coral) ------------------------------------------------------------
# Hand-checked final position (limping 2), Black placed last (ply 9, White to move).
# Black c3 / a2 d2 / a1 c1: groups {a1,a2} {c1,d2} {c3}; White c4 d4 / b2 c2: groups {c4,d4} {b2,c2}.
# Empty b3, d3, b1 have no empty neighbour, so nothing can be placed.
END_BLACK_LAST = "oo/.x./xoox/x.x 2"
# Black c3 d3 / a2 / b1: groups {c3,d3} {a2} {b1}; White c4 b3 / c2 c1: {b3,c4} {c1,c2}.
# White placed last (ply 8). b2 would strand b3, a1 would enclose b2, d2/d4 have no empty neighbour.
END_WHITE_LAST = "o./oxx/x.o./.xo 1"


@pytest.mark.parametrize(
    "body,ply,bonus,scores,winner",
    [
        (END_BLACK_LAST, 9, "own", {1: 5, 2: 4}, 1),
        (END_BLACK_LAST, 9, "opponent", {1: 4, 2: 5}, 2),
        (END_BLACK_LAST, 9, "none", {1: 2, 2: 2}, 1),  # tie: Black placed last
        (END_WHITE_LAST, 8, "own", {1: 5, 2: 4}, 1),
        (END_WHITE_LAST, 8, "opponent", {1: 4, 2: 5}, 2),
        (END_WHITE_LAST, 8, "none", {1: 2, 2: 2}, 2),  # tie: White placed last
    ],
)
def test_brain_end_score_bonus_and_tie(body, ply, bonus, scores, winner):
    p = brain(body, ply=ply, bonus=bonus)
    assert list(p.legal_moves()) == []
    assert not any(slow_legal(p, c) for c in range(len(p.board)))
    assert p.outcome == engine.Outcome(winner, "score", scores)
    assert p.scores == scores and p.to_move is None
    with pytest.raises(IllegalMove):
        p.play("b1")
    h = p.highlights
    assert h.groups[1] | h.groups[2] == h.winning
    assert len(h.groups[1]) == 2 and len(h.groups[2]) == 2


def test_scores_follow_groups_during_play():
    rng = random.Random(11)
    for key, bonuses in (("braincoral", ("own", "opponent", "none")),
                         ("branchingcoral", ("own", "opponent", "captures", "none"))):
        for bonus in bonuses:
            p = engine.new_game(key, size=3, bonus=bonus)
            while p.outcome is None:
                p = p.play(p.random_move(rng))
                bg, wg = slow_groups(p.board, p.black), slow_groups(p.board, p.white)
                big = (max(map(len, bg), default=0), max(map(len, wg), default=0))
                extra = {"own": (len(bg), len(wg)), "opponent": (len(wg), len(bg)),
                         "captures": p.captures, "none": (0, 0)}[bonus]
                assert p.scores == {1: big[0] + extra[0], 2: big[1] + extra[1]}
            s = p.scores
            assert p.outcome.winner == (1 if s[1] > s[2] else 2 if s[2] > s[1] else 3 - p._turn)


# ---- Branching Coral ------------------------------------------------------------------------
def test_branching_needs_two_empty_neighbours():
    # limping 2: a1's neighbours are b1 (stone), a2 (stone) and b2 (empty): only one empty.
    p = branching(".o/.../x..o/.x. 1 0,0 -")
    with pytest.raises(IllegalMove, match="two empty neighbours"):
        p.play("a1")
    assert "a1" not in set(p.legal_moves())
    # b2 has five empty neighbours: fine, and a perimeter cell needs two as well.
    assert p.is_legal("b2")


def test_branching_connectivity_is_checked_before_captures():
    # f5 has two empty neighbours (e4, e5). Right after it, e4 and e5 (both interior) are cut
    # off; the capture of f6 would reopen them, but the check comes first.
    p = branching(".oo/oo../.oo.x/x..xo./xxx../.o.. 1 0,1 -", size=3, ply=16)
    f5 = p.board.cell("f5")
    with pytest.raises(IllegalMove, match="cut empty cells off"):
        p.play("f5")
    assert not slow_legal(p, f5)
    board = p.board
    empty = {i for i in range(len(board)) if not ((p.black | p.white) >> i) & 1} - {f5}
    assert slow_drains(board, empty | {board.cell("f6")})  # would drain after the capture


def test_branching_captures_both_colours_together():
    # Black plays b3: neighbours c3 (x), a3 (x) and c4 (o) are left with fewer than two empty
    # neighbours and go together. Removed one by one, c3 would keep two (c4, b2).
    p = branching(".oo/oo../.oo.x/x.xx.x/x.x../.o.. 1 0,0 -", size=3, ply=14, last="d5")
    q = p.play("b3")
    assert q.highlights.removed == {"c3": "black", "a3": "black", "c4": "white"}
    assert q.highlights.placed == ("b3",)
    labels = q.board.labels
    assert {labels[c] for c in q.stones} == {labels[c] for c in p.stones} - {"c3", "a3", "c4"} | {"b3"}
    assert q.captures == (1, 0)  # only the white stone counts for Black
    # scores with the captures bonus count opponent stones only
    for bonus, expect in (("captures", 1), ("none", 0)):
        r = engine.from_text(q.to_text().replace("bonus=own", f"bonus={bonus}"))
        big = max(map(len, slow_groups(r.board, r.black)))
        assert r.scores[1] == big + expect
    # removed stones round-trip and vanish after the next move
    assert engine.from_text(q.to_text()) == q
    assert q.play(q.random_move(random.Random(1))).highlights.removed == {}


# ---- cross-checks of the fast code ----------------------------------------------------------
@pytest.mark.parametrize("key", ["braincoral", "branchingcoral"])
@pytest.mark.parametrize("shape,size", [("limping", 2), ("limping", 4), ("hexhex", 3), ("hexhex", 4)])
def test_fast_legality_matches_slow(key, shape, size):
    rng = random.Random(hash((key, shape, size)) & 0xFFFF)
    for _ in range(3):
        p = engine.new_game(key, shape=shape, size=size)
        while True:
            fast = list(p.legal_moves())
            slow = [p.board.labels[c] for c in range(len(p.board)) if slow_legal(p, c)]
            assert fast == slow, p.to_text()
            if p.outcome is not None:
                assert not slow
                break
            p = p.play(rng.choice(fast))


@pytest.mark.parametrize("key", ["braincoral", "branchingcoral"])
def test_fast_legality_on_random_boards(key):
    """Random stone sets that keep every empty cell draining (not necessarily reachable)."""
    board = hex_board("limping", 4)
    rng = random.Random(7)
    checked = 0
    cls = engine.GAMES[key].position_class
    opts = {"shape": "limping", "size": 4, "bonus": "own"}
    while checked < 60:
        black = white = 0
        for c in range(len(board)):
            v = rng.random()
            if v < 0.25:
                black |= 1 << c
            elif v < 0.5:
                white |= 1 << c
        empty = board.full & ~(black | white)
        if not slow_drains(board, set(board.cells_of(empty))):
            continue
        if key == "braincoral" and any(not board.nmask[c] & empty for c in board.cells_of(~empty & board.full)):
            continue  # Brain Coral boards keep an empty neighbour next to every stone
        p = cls._make(opts, board, 5, None, 1, black, white, (0, 0), (0, 0))
        fast = {c for c in range(len(board)) if (empty >> c) & 1 and p._legal(c, empty)}
        slow = {c for c in range(len(board)) if slow_legal(p, c)}
        assert fast == slow
        checked += 1


def test_brain_illegal_cells_stay_illegal():
    """The playout drops refused cells for good: check that filling never revives one."""
    rng = random.Random(3)
    for _ in range(20):
        p = engine.new_game("braincoral", size=3)
        while p.outcome is None:
            illegal = {c for c in range(len(p.board)) if not slow_legal(p, c)}
            p = p.play(p.random_move(rng))
            assert not any(slow_legal(p, c) for c in illegal)


def test_branching_captures_match_slow():
    rng = random.Random(5)
    for _ in range(10):
        p = engine.new_game("branchingcoral", size=4)
        while p.outcome is None:
            c = p.board.cell(p.random_move(rng))
            occ = p.black | p.white | (1 << c)
            empty_after = p.board.full & ~occ
            expect = {s for s in p.board.neighbours[c] if (occ >> s) & 1
                      and sum(1 for t in p.board.neighbours[s] if (empty_after >> t) & 1) < 2}
            q = p.play(p.board.labels[c])
            assert {p.board.cell(lab) for lab in q.highlights.removed} == expect
            assert q.black | q.white == occ & ~sum(1 << s for s in expect)
            p = q


@pytest.mark.parametrize("key", ["braincoral", "branchingcoral"])
def test_random_playout_reaches_a_true_end(key):
    rng = random.Random(9)
    start = engine.new_game(key)
    for _ in range(30):
        end = start.random_playout(rng)
        assert end.outcome is not None and end.outcome.reason == "score"
        assert not any(slow_legal(end, c) for c in range(len(end.board)))
        again = engine.from_text(end.to_text())
        assert again.outcome == end.outcome and again.ply == end.ply


# ---- position text ----------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["braincoral", "branchingcoral"])
def test_text_round_trip(key):
    rng = random.Random(2)
    p = engine.new_game(key, shape="hexhex", size=4)
    while p.outcome is None:
        q = engine.from_text(p.to_text())
        assert q == p and list(q.legal_moves()) == list(p.legal_moves())
        assert q.highlights == p.highlights and q.scores == p.scores
        p = p.play(p.random_move(rng))
    q = engine.from_text(p.to_text())
    assert q.outcome == p.outcome and q.highlights == p.highlights


@pytest.mark.parametrize("body", [
    "oo/.x./xoox 2",            # missing row
    "oo/.x./xoox/x.xx 2",       # row too long
    "oo/.x./xoox/x.q 2",        # unknown mark
    "oo/.x./xoox/x.x 3",        # bad seat
    "oo/.x./xoox/x.x",          # no seat
    "xx/xxx/x.xx/xxx 1",        # stranded empty cell / stones without empty neighbour
])
def test_bad_bodies(body):
    with pytest.raises(PositionError):
        brain(body)


def test_bad_branching_bodies():
    for tail in ("1 0 -", "1 a,b -", "1 0,0 zz:x", "1 0,0 a1:q", "1 0,0 c4:x", "1 0,0"):
        with pytest.raises(PositionError):
            branching(f"o./.../...o/... {tail}")
