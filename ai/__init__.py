"""Stonecast's computer opponent: a move and a value for any position of the five games.

The whole public surface::

    import ai
    d = ai.choose_move(position, level=3, seconds=None, seed=None, playouts=None)
    d.move      # canonical move text, legal in `position` ("g7", "c3 e5", "pass")
    d.value     # the search's estimate that the player to move wins, 0..1
    d.playouts  # simulations run;  d.seconds: wall time used (s)
    d.line      # expected continuation, whole moves as text, starting with d.move
    ai.LEVELS   # level -> Level(seconds, playouts, ...): numbers only; the bot words each level
    ai.ratings.RATINGS  # level -> game kind -> measured Elo rating with its 95% interval (or None)

The search (``ai.mcts``) is Monte-Carlo tree search over the engine's fast
:class:`engine.state.SearchState` (``Position.search_state()``), with MCTS-Solver (Winands
et al. 2008), GRAVE statistics (Cazenave 2015, after Gelly & Silver's RAVE), decisive and
anti-decisive moves (Teytaud & Teytaud 2010; the chosen whole turn is checked at the root,
:func:`avoid_loss_in_one`; level 1 looks only at half of its moves,
``Level.sight`` 0.5, and otherwise overlooks wins and threats in one,
:func:`overlook_threats`), resistance when lost (the furthest proven loss, ``Node.dist``)
and per-game knowledge (``ai.knowledge``;
Coil's playouts see coil threats, ``CoilState.tactics``, switched on by ``Level.tactics``,
of loops of any size with ``CoilState.loops``/``Level.loops``; Coil's Phase I pass has an
explicit evaluation, ``ai.knowledge.coil_pass_value`` -- as a prior it did not win its match,
so it is off).
``ai.uct`` is the plain UCT baseline the benchmark plays against, ``ai.grave`` Ludii's
MC-GRAVE recipe (a second baseline); :class:`SearchTree` keeps a side's tree between its
moves (tree reuse). In Io and Whirlwind level 5 selects as that recipe does (no exploration
term, ref 100, bias 1e-6; in Io the bias 1e-3, a small exploration term, 0.05, and every
child visited once first) and
searches a two-stone turn's second half-move on in the first's subtree
(:data:`RECIPE_SEARCH`, :data:`IO_SEARCH`, :data:`WHIRLWIND_SEARCH`, ``Level.per_kind``).
In Coil levels 4 and 5 have budgets of their own (:data:`COIL_LEVEL_4`,
:data:`COIL_LEVEL_5`). ``ai`` imports ``engine`` only.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine import Position, SearchState

from . import endgame, knowledge
from .mcts import Node, Search, ranked_children
from .reuse import follows, turn_below

__all__ = ["COIL_LEVEL_4", "COIL_LEVEL_5", "IO_SEARCH", "KIND_SETTINGS", "LEVELS", "MAX_SECONDS",
           "RECIPE_SEARCH", "WHIRLWIND_SEARCH",
           "Decision", "Level", "SearchTree",
           "avoid_loss_in_one",
           "choose_move", "kind_setting", "level_search", "overlook_threats", "search_move",
           "win_in_one"]

_T = TypeVar("_T")

#: No search may be given more than this many seconds (level 5's ceiling).
MAX_SECONDS = 10.0


@dataclass(frozen=True)
class Level:
    """One strength level, in numbers only (the bot words it, ``bot.texts.LEVEL_DESCRIPTIONS``):
    ``seconds`` (default time cap per move), ``playouts`` (simulation budget per move, None = time only; the
    search stops at whichever comes first), and the search settings behind it -- among
    them ``sight``, the chance that a move looks at the immediate threats (see
    :func:`search_move`)."""

    seconds: float
    playouts: int | None
    noise: bool = False          # pick the move at random, weighted by visits (beginner)
    decisive_turns: int = 1      # see ai.mcts.Search; >= 1 also guards the root
    use_knowledge: bool = True   # game knowledge (ai.knowledge) as priors
    use_amaf: bool = True        # GRAVE statistics
    solver: bool = True          # MCTS-Solver back-up of proofs
    explore: float | None = None  # UCB constant added to the GRAVE value (None: the
                                 # game's own, KIND_SETTINGS, else 0.1)
    ref: int | None = None       # GRAVE: visits before a node keeps its own AMAF table
                                 # (None: the game's own, KIND_SETTINGS, else 50)
    bias: float = 1e-5           # GRAVE: how fast a child's own mean takes over from AMAF
    endgame: int = 0             # solve exactly at <= this many empty cells (Io; ai.endgame)
    endgame_nodes: int = 150_000  # node budget of that exact solve (else: search as usual)
    tree_endgame: int = 0        # solve exactly every tree node with <= this many empty
                                 # cells (Io; ai.endgame.TreeSolver), proving it at once
    tree_endgame_nodes: int = 3000  # node budget of each such solve (else: searched)
    time_share: float = 0.85     # share of the time cap for the main search (the rest: a
                                 # second half-move's own search, when one is needed); on a
                                 # one-stone turn at least 0.98
    tactics: bool = True         # the game's playout tactics, where it has them (Coil); levels 4-5
    cutoff: int = 0              # Whirlwind: playouts stop after this many turns and are
                                 # scored by chain distance (0: played out; issue 24, measured)
    loops: bool = True           # with tactics, Coil's playouts also see loops larger than a
                                 # ring of six one stone from closing (CoilState.loops)
    continue_turn: bool = False  # a two-stone turn's second half-move: the search goes on
                                 # in the chosen first half-move's subtree for the rest of
                                 # the time (as Ludii's agents do), instead of picking from
                                 # that subtree as it stands (or a small fresh search)
    keep_tree: bool = False      # tree reuse: when the caller offers a SearchTree
                                 # (choose_move's ``tree``), start from the node of the
                                 # position in the tree kept from this side's last move
                                 # and keep the new one (Io's level 5, IO_SEARCH)
    unvisited_first: bool = False  # every child visited once before any is chosen by
                                 # value (Ludii's QInit.INF; ai.mcts.Search)
    per_kind: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
                                 # game kind -> settings of this level that differ in that
                                 # game (field name -> value; :meth:`for_kind`)
    sight: float = 1.0           # chance (0..1) that a move looks at the immediate threats:
                                 # its own win in one, the opponent's win in one after its
                                 # turn (the decisive and anti-decisive checks); drawn once per
                                 # move from the search's seeded RNG. A move that does not look
                                 # searches with no checks and no solver and plays blind to
                                 # them (overlook_threats). Level 1 0.5, else 1.0

    def for_kind(self, kind: str) -> Level:
        """This level as it plays game ``kind`` (a :data:`engine.GAMES` key): its settings
        with the game's own of :attr:`per_kind` in their place (and no ``per_kind`` left,
        so applying it again changes nothing). Raises TypeError for an override that names
        no field."""
        over = self.per_kind.get(kind)
        if not over:
            return self
        return dataclasses.replace(self, **over, per_kind={})

    def changed(self, **changes: Any) -> Level:
        """This level with ``changes`` (field name -> value) in every game: a game's own
        setting of a changed field (:attr:`per_kind`) is dropped, so a variant made to
        measure one technique plays it everywhere. Raises TypeError for a name that is no
        field."""
        kinds = {k: {f: v for f, v in over.items() if f not in changes}
                 for k, over in self.per_kind.items()}
        return dataclasses.replace(self, **changes, per_kind=kinds)


#: Search settings by game kind, used where a level leaves them to the game (None): GRAVE's
#: ``ref`` (default 50) and the ``explore`` constant (default 0.1). Measured with
#: benchmarks/ai_tune.py at fixed simulations, level 5 against level 5 (see the README).
KIND_SETTINGS: dict[str, dict[str, float]] = {
    "io": {"ref": 20},
    "braincoral": {"explore": 0.05},
    "branchingcoral": {"explore": 0.05},
}
_KIND_DEFAULTS = {"ref": 50, "explore": 0.1}


def kind_setting(kind: str, name: str, own: float | None) -> float:
    """Search setting ``name`` ("ref" or "explore") for game ``kind``: ``own`` (a level's
    value) unless None, else the game's (:data:`KIND_SETTINGS`), else the default."""
    if own is not None:
        return own
    return KIND_SETTINGS.get(kind, {}).get(name, _KIND_DEFAULTS[name])

#: The base of level 5's search in Io (:data:`IO_SEARCH`) and in Whirlwind
#: (:data:`WHIRLWIND_SEARCH`; issue 24), each of which changes one part of it: Ludii's MC-GRAVE
#: selection -- no exploration term, ref 100, bias 1e-6, every child visited once before any is
#: chosen by value -- and a two-stone turn's second half-move searched on in the first's
#: subtree, the first given 70% of the time. Against the recipe at 1 s a move, level 5 with both
#: won Io 15/20 then 18/40 (33/60, 55%) and Whirlwind 12/20 then 23/40 (35/60, 58%); with either
#: alone at most 8/20 and 10/20; as it was 12/40 and 5/20
#: (benchmarks/results/grave-2026-11-26.txt). The Corals keep their own: there the selection
#: alone won Brain Coral 10/20 and Branching Coral 9/20, against 20/40 and 24/40.
RECIPE_SEARCH: Mapping[str, Any] = {"explore": 0.0, "ref": 100, "bias": 1e-6,
                                    "unvisited_first": True, "continue_turn": True,
                                    "time_share": 0.7}

#: Level 5's search in Whirlwind: :data:`RECIPE_SEARCH` but for the recipe's unvisited
#: children first -- an unvisited child is valued by its AMAF mean, as in Cazenave's GRAVE.
#: With some 90 legal points at the start, visiting each child once first
#: spent most of a node's simulations in turn on all of them: without it level 5 beat
#: level 4 59/60 (91-100%) at the ladder's budgets x0.1 (1,200 against 400 simulations;
#: with it 36/60, 47-71%) and the recipe 18/20 (70-97%) at 1 s a move (with it 12/20 on
#: the same seeds), then 32/40. In Io it made no clear difference against the recipe
#: (12/20 without, 15/20 and 18/40 with), so Io keeps it
#: (benchmarks/results/whirlwind-2026-11-26.txt).
WHIRLWIND_SEARCH: Mapping[str, Any] = {**RECIPE_SEARCH, "unvisited_first": False}

#: Level 5's search in Io: :data:`RECIPE_SEARCH` with GRAVE's bias raised from 1e-6 to 1e-3,
#: so that a well-visited child's own mean takes over from its AMAF mean. A child's AMAF
#: count is never below its visits (its own half-move counts), so the AMAF mean keeps at
#: least ``1 / (2 + bias * n)`` of the weight -- at 1e-6 half, however long the search runs.
#: In Io, where every playout fills every cell, more time then did not make level 5
#: stronger: at 4 s against the recipe at 1 s it scored 4/10 (at 1 s 33/60). With 1e-3 it
#: beat plain UCT at 4 s 17/20 (6/20 before) and the recipe at 1 s 14/20 (1e-4: 11/20), then
#: 28/40 (70%, 55-82%; before 18/40; a second run 21/40; its five runs against the recipe,
#: 83/140, 59%, 51-67%), and level 4 55/60 at the ladder's budgets x0.1
#: (benchmarks/results/recipe-scaling-2026-11-26.txt, recipe-io-seat-2026-11-27.txt,
#: recipe-io-prior-2026-11-27.txt). With that bias a child's value is mostly its own mean,
#: so without an exploration term a child whose first playouts lost is seldom tried again:
#: an exploration constant of 0.05 took level 5 from 60% against the recipe at 1 s a move
#: (108/180 over six runs) to 18/20, then 28/40 at the issue's setting (46/60, 77%, 65-86%;
#: benchmarks/results/io-search-2026-11-27.txt); a third run scored 22/40 (all three 68/100,
#: 68%, 58-76%). With the tree kept between moves as well (``keep_tree``, as the recipe
#: keeps its own), level 5 scored 29/40 and 32/40 on the same seeds: 61/80 (76%, 66-84%),
#: +203 Elo, against 22/40 for level 5 as it was in the same session; but against level 5
#: without it at a fixed 3,000 simulations a move, 30/60: no gain of its own shows there
#: (benchmarks/results/io-reuse-amaf-2026-11-27.txt). Kept as it is no weaker and costs
#: little. In the Corals the tree kept did not pay (README).
IO_SEARCH: Mapping[str, Any] = {**RECIPE_SEARCH, "bias": 1e-3, "explore": 0.05,
                                "keep_tree": True}

#: Coil's budgets at levels 4 and 5 (issue 24 item 3). With tactics, Coil's search gains little
#: from the simulations between the two levels' usual budgets: level 5 at 12,000 beat level 4
#: at 4,000 only 38/60 (63%, 51-74%) at the ladder's budgets x0.1, and in the round robin the
#: two stood 58 Elo apart. Level 4 at 2,000 and level 5 at 20,000 (most moves then end at its
#: 5 s cap) are a step of +301 Elo (51/60, 85%, 74-92%), and level 4 at 2,000 still beats
#: level 3 50/60 (83%, 72-91%) (benchmarks/results/steps-2026-11-26.txt).
COIL_LEVEL_4: Mapping[str, Any] = {"playouts": 2000}
COIL_LEVEL_5: Mapping[str, Any] = {"playouts": 20000}

#: The levels. How often each sees an immediate threat (:attr:`Level.sight`) -- a one-move
#: coil, a Whirlwind chain one turn from crossing, an Io or Coral loss in one, and its own
#: win in one: level 1 half the time (0.5: beatable, not blind), level 2 and up always (1.0:
#: from level 2 a win in one is never allowed when another turn avoids it, issue 18).
LEVELS: dict[int, Level] = {
    1: Level(0.5, 40, noise=True, use_knowledge=False, tactics=False, sight=0.5),
    2: Level(1.0, 250, tactics=False),
    3: Level(2.0, 1000, tactics=False),
    4: Level(4.0, 4000, per_kind={"coil": COIL_LEVEL_4}),
    5: Level(5.0, 12000, endgame=12, time_share=0.95,
             per_kind={"coil": COIL_LEVEL_5, "io": IO_SEARCH, "whirlwind": WHIRLWIND_SEARCH}),
}


@dataclass
class Decision:
    """What the search chose: ``move`` (canonical text, legal in the searched position),
    ``value`` (estimated chance, 0..1, that the player to move wins), ``playouts``
    (simulations run), ``seconds`` (wall time used), ``line`` (expected continuation:
    whole moves as text, starting with ``move``), ``proven`` (True when the solver proved
    ``value``: 1.0 a forced win, 0.0 a forced loss, 0.5 a forced draw)."""

    move: str
    value: float
    playouts: int
    seconds: float
    line: list[str] = field(default_factory=list)
    proven: bool = False


def _check_level(level: object) -> Level:
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise ValueError(f"level must be a whole number from 1 to {max(LEVELS)}, not {level!r}")
    return LEVELS[level]


def _check_seconds(seconds: object) -> float | None:
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds > 0:
        raise ValueError(f"seconds must be a positive number, not {seconds!r}")
    if seconds > MAX_SECONDS:
        raise ValueError(f"seconds must be at most {MAX_SECONDS:g}, not {seconds!r}")
    return float(seconds)


def _check_playouts(playouts: object) -> int | None:
    if playouts is None:
        return None
    if isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1:
        raise ValueError(f"playouts must be a whole number of at least 1, not {playouts!r}")
    return playouts


def win_in_one(state: SearchState, deadline: float | None = None) -> list[int] | None:
    """A whole turn (list of half-moves) that wins at once for the player to move, or None.

    One-half-move turns are found with ``wins_now``; where a first half-move leaves the
    turn open (a Whirlwind pair), its second half-moves are tried too, among the
    candidates ``knowledge.second_half_candidates`` allows. Stops (None) at ``deadline``
    (a ``time.perf_counter()`` value). Teytaud & Teytaud's decisive moves, at the root.
    """
    actions = state.actions()
    for a in knowledge.decisive_candidates(state, actions):
        if state.wins_now(a):
            return [a]
    seat = state.to_move
    clock = time.perf_counter
    for a in actions:
        if deadline is not None and clock() > deadline:
            return None
        s = state.copy()
        s.play(a)
        if s.winner is None and s.mid_turn and s.to_move == seat:
            for b in knowledge.second_half_candidates(s, a):
                if s.wins_now(b):
                    return [a, b]
    return None


def _turns_text(state: SearchState, half_moves: list[int]) -> list[str]:
    """Whole moves as text from a run of half-moves starting at a turn boundary of
    ``state`` (which is not changed); a trailing incomplete turn is dropped."""
    s = state.copy()
    out: list[str] = []
    turn: list[int] = []
    start = s.copy()
    for a in half_moves:
        if s.winner is not None:
            break
        s.play(a)
        turn.append(a)
        if not s.mid_turn:
            out.append(start.move_text(turn))
            turn = []
            start = s.copy()
    return out


def choose_move(position: Position, *, level: int = 3, seconds: float | None = None,
                seed: int | None = None, playouts: int | None = None,
                tree: SearchTree | None = None) -> Decision:
    """Search ``position`` and return the chosen move as a :class:`Decision`.

    ``level`` 1-5 (see :data:`LEVELS`); ``seconds`` caps the wall time (default: the
    level's budget; at most :data:`MAX_SECONDS`); the search stops within about 10% past
    its cap. ``playouts`` caps the simulations (default: the level's own cap, if any);
    given without ``seconds``, no time cap applies, so with a ``seed`` the result is
    repeatable. ``seed`` seeds the search's random numbers (default: fresh each call).

    A move that looks at the immediate threats plays a win in one and avoids a loss in one
    that can be avoided (anti-decisive moves, checked for the whole turn at the root: in
    Whirlwind the opponent's two stones too, :func:`avoid_loss_in_one`). Levels 2-5 always
    look; level 1 one move in two (:attr:`Level.sight`, drawn from
    the seeded random numbers); a move that does not look plays blind to them
    (:func:`overlook_threats`). When every move is proven lost, the move whose proven loss
    is furthest away is played (among equals, the best practical chance). Raises ValueError
    when the game is over, the level is not 1-5, or ``seconds``/``playouts`` are not
    positive numbers.

    ``tree``: a :class:`SearchTree` the caller keeps for this side of this game (the bot's
    search workers keep one per game). A level that keeps its tree in this game
    (:attr:`Level.keep_tree`: level 5 in Io) starts from the node of ``position`` in it,
    when it holds it, and leaves its own tree there; any other leaves it untouched.
    """
    lv = _check_level(level)
    seconds = _check_seconds(seconds)
    playouts = _check_playouts(playouts)
    if tree is not None and not (isinstance(position, Position)
                                 and lv.for_kind(position.kind).keep_tree):
        tree = None
    return search_move(position, lv, seconds=seconds, seed=seed, playouts=playouts, tree=tree)


class SearchTree:
    """A search tree kept between the moves of one side of one game (tree reuse, as Ludii's
    MCTS keeps it; issue 24), for :func:`search_move`'s ``tree``.

    After a move it holds the position after that move and the tree's node there; the next
    search of that side starts from the node of the position it is given -- that node, or
    one turn of the opponent's below it (``Position.last_move``, two half-moves in
    Whirlwind; of a pair held in both orders, the more visited) -- with its visits,
    statistics and proofs, when the tree has it; else afresh. ``reused`` is the visits the last search started with (0: afresh)."""

    def __init__(self) -> None:
        self.after: Position | None = None
        self.node: Node | None = None
        self.reused = 0

    def keep(self, after: Position | None, node: Node | None) -> None:
        """Remember ``node``, the tree's node for ``after`` (None: nothing to keep)."""
        if node is None or after is None:
            self.after, self.node = None, None
        else:
            self.after, self.node = after, node

    def find(self, position: Position) -> Node | None:
        """The kept node of ``position``, or None when the tree does not hold it."""
        after, node = self.after, self.node
        if after is None or node is None:
            return None
        if position == after:
            return node
        if not follows(after, position):
            return None
        assert position.last_move is not None  # follows() checked it
        below = turn_below(node, after.search_state(), position.last_move)
        return None if below is None else below[0]


def _walk(node: Node, turn: list[int]) -> Node | None:
    """The node reached from ``node`` by the half-moves of ``turn``, or None where the tree
    stops short of it."""
    for a in turn:
        if not node.children:
            return None
        nxt = next((c for c in node.children if c.action == a), None)
        if nxt is None:
            return None
        node = nxt
    return node


def level_search(state: SearchState, kind: str, lv: Level, rng: random.Random) -> Search:
    """The main search :func:`search_move` runs for level ``lv`` from ``state`` (of game
    ``kind``, a :data:`engine.GAMES` key; the playout tactics already set as the level
    wants): GRAVE MCTS with solver and decisive moves (:class:`ai.mcts.Search`) with the
    level's settings, the game's own ``ref``/``explore`` (:func:`kind_setting`), its prior
    and decisive-move candidates (:mod:`ai.knowledge`) and, where the level has it, Io's
    exact endgame inside the tree (:class:`ai.endgame.TreeSolver`). Nothing is run yet.
    ``benchmarks/ai.py`` measures the speed of this very search."""
    lv = lv.for_kind(kind)
    ref = int(kind_setting(kind, "ref", lv.ref))
    explore = kind_setting(kind, "explore", lv.explore)
    prior = knowledge.prior_for(state) if lv.use_knowledge else None
    exact = (endgame.TreeSolver(lv.tree_endgame, lv.tree_endgame_nodes)
             if lv.tree_endgame > 0 and lv.solver and endgame.solver_for(state) else None)
    return Search(state, rng=rng, decisive_turns=lv.decisive_turns, prior=prior,
                  prior_weight=knowledge.PRIOR_WEIGHT if prior else 0.0,
                  use_amaf=lv.use_amaf, solver=lv.solver, explore=explore,
                  ref=ref, bias=lv.bias, candidates=knowledge.decisive_candidates,
                  exact=exact, unvisited_first=lv.unvisited_first)


def search_move(position: Position, lv: Level, *, seconds: float | None = None,
                seed: int | None = None, playouts: int | None = None,
                tree: SearchTree | None = None) -> Decision:
    """:func:`choose_move` with the search settings of ``lv`` (any :class:`Level`, e.g. a
    variant made with :meth:`Level.changed` for measuring one technique), as it plays
    ``position``'s game (:meth:`Level.for_kind`); arguments as :func:`choose_move`, not
    checked beyond the position. Raises ValueError for a finished position.

    Sight: when ``lv.sight`` < 1, the first random number of the search (``seed``) decides
    whether this move looks at the immediate threats (probability ``lv.sight``). A move
    that looks works as described in :func:`choose_move`; one that does not searches with
    no decisive or anti-decisive check, no solver and no exact endgame, and its turn then
    goes through :func:`overlook_threats` (no win in one; a threat most moves ignore is
    ignored too). A level with ``sight`` 1 draws nothing, so its moves are as before.

    ``tree`` (a :class:`SearchTree` kept by the caller for one side of one game): the
    search starts from the node of ``position`` in the tree kept from this side's last
    move, when it is there (tree reuse), and keeps its own tree there for the next move."""
    if not isinstance(position, Position):
        raise ValueError("position must be an engine Position")
    if position.outcome is not None:
        raise ValueError("the game is over: there is no move to choose")
    t0 = time.perf_counter()
    lv = lv.for_kind(position.kind)
    if seconds is None and playouts is not None:
        budget = None
    else:
        budget = seconds if seconds is not None else lv.seconds
    if playouts is None:
        playouts = lv.playouts
    deadline = None if budget is None else t0 + budget
    rng = random.Random(seed)
    state = position.search_state()
    if lv.tactics and hasattr(state, "tactics"):
        state.tactics = True
        if lv.loops and hasattr(state, "loops"):
            state.loops = True
    if lv.cutoff and hasattr(state, "playout_cutoff"):
        state.playout_cutoff = lv.cutoff
    # Does this move look at the immediate threats (Level.sight)? Drawn first, from the
    # search's own RNG, so a seed repeats it; a level that always looks draws nothing.
    if lv.sight < 1.0 and rng.random() >= lv.sight:
        lv = dataclasses.replace(lv, decisive_turns=-1, solver=False, endgame=0)
        sees = False
    else:
        sees = True

    # Decisive move at the root: a win in one is played without searching.
    win = win_in_one(state, None if budget is None else t0 + budget * 0.5) if sees else None
    if win is not None:
        text = state.move_text(win)
        if tree is not None:
            tree.keep(None, None)
        return Decision(text, 1.0, 0, time.perf_counter() - t0, [text], True)

    solved = _solve_endgame(state, lv, None if budget is None else t0 + budget * 0.4)
    if solved is not None:
        action, value = solved
        text = state.move_text([action])
        if tree is not None:
            tree.keep(None, None)
        return Decision(text, value, 0, time.perf_counter() - t0, [text], True)

    search = level_search(state, position.kind, lv, rng)
    ref, explore, prior = search.ref, search.explore, search.prior
    if tree is not None:
        kept = tree.find(position)
        tree.reused = 0
        if kept is not None and kept.children != []:  # [] = solved exactly, nothing below
            search.adopt(kept)
            tree.reused = kept.n
    if lv.decisive_turns >= 1:
        search.guard_root(None if budget is None else t0 + budget * 0.6)
    # a one-stone turn needs no second half-move's search: the whole time but the last 2%
    # (for the whole-turn check) goes to the main search (issue 24: use the time given)
    share = lv.time_share if position.stones_this_turn == 2 else max(lv.time_share, 0.98)
    main_deadline = None if budget is None else t0 + budget * share
    search.run(playouts=playouts, deadline=main_deadline)
    value = search.value()
    lost = search.root.proven == 3 - state.to_move
    total = search.playouts
    if lost:
        # Proven lost against perfect play: resist. The furthest proven losses come first
        # (Node.dist); among them the opponent may still go wrong, so what is left of the
        # budget goes to a search by plain statistics (no proofs, no guard) of those moves
        # only -- the one that keeps the best practical chance.
        ranked = ranked_children(search.root)
        far = ranked[0].dist
        longest = [c for c in ranked if c.dist == far]
        if len(longest) > 1:
            practical = Search(state, rng=rng, decisive_turns=-1, solver=False,
                               use_amaf=lv.use_amaf, explore=explore, ref=ref, bias=lv.bias)
            practical.restrict_root([c.action for c in longest])
            practical.run(playouts=playouts, deadline=main_deadline)
            total += practical.playouts
            assert practical.root.children is not None  # restrict_root expanded it
            stats = {c.action: (c.n, c.w / c.n if c.n else 0.0) for c in practical.root.children}
            ranked.sort(key=lambda c: (c.dist, *stats.get(c.action, (0, 0.0))), reverse=True)
        root_order = ranked
        first = ranked[0]
    else:
        root_order = None
        first = _pick(search, search.root, rng, lv.noise)
    turn = [first.action]
    after = state.copy()
    after.play(first.action)
    line_half = [first.action]
    if after.winner is None and after.mid_turn:
        node = first
        if lv.continue_turn and not lost:
            # the search goes on from the first half-move's node, its subtree kept
            sub = level_search(after, position.kind, lv, rng)
            if node.kids is not None:
                sub.adopt(node)
            sub.run(playouts=max(16, playouts // 4) if playouts else None, deadline=deadline)
            total += sub.playouts
            second = _pick(sub, sub.root, rng, lv.noise)
            line_half.append(second.action)
            line_half += _follow(sub, second)
        elif node.children is None or (not lost and sum(c.n for c in node.children) < 8):
            # the second half-move needs a search of its own (what is left of the budget)
            sub = Search(after, rng=rng, decisive_turns=lv.decisive_turns, prior=prior,
                         prior_weight=search.prior_weight, use_amaf=lv.use_amaf,
                         solver=lv.solver, explore=explore, ref=ref, bias=lv.bias,
                         candidates=knowledge.decisive_candidates)
            sub_deadline = deadline
            sub.run(playouts=max(16, (playouts or 64) // 4) if playouts else None,
                    deadline=sub_deadline)
            total += sub.playouts
            second = _pick(sub, sub.root, rng, lv.noise)
            line_half.append(second.action)
            line_half += _follow(sub, second)
        else:
            # a proven loss: every second half-move is proven too, the furthest loss first
            second = _pick(search, node, rng, lv.noise)
            line_half.append(second.action)
            line_half += _follow(search, second)
        turn.append(second.action)
    else:
        line_half += _follow(search, first)
    if lv.decisive_turns >= 1:
        # Anti-decisive moves for the whole turn, at the root: never leave the opponent a
        # win in one (their whole next turn) when some turn avoids it.
        order = root_order or ranked_children(search.root)
        spare = None if budget is None else t0 + budget * 1.05
        safe = avoid_loss_in_one(state, turn, _ranked_turns(state, search, order), spare)
        if safe is not None and safe != turn:
            turn = safe
            line_half = list(safe)
    elif not sees:
        # This move does not look (Level.sight): it plays as if the immediate threats were
        # not there -- no win in one, no block -- unless every turn tried handles them.
        order = ranked_children(search.root)
        spare = None if budget is None else t0 + budget * 1.05
        blind = overlook_threats(state, turn, _ranked_turns(state, search, order), spare)
        if blind != turn:
            turn = blind
            line_half = list(blind)
            kid = next((c for c in order if c.action == blind[0]), None)
            value = kid.w / kid.n if kid is not None and kid.n else 0.5
    move = state.move_text(turn)
    if tree is not None:
        tree.keep(position.play(move), _walk(search.root, turn))
    line = _turns_text(state, line_half) or [move]
    line[0] = move
    proven = sees and (lost or search.root.proven is not None or first.proven is not None)
    return Decision(move, value, total, time.perf_counter() - t0, line[:8], proven)


def _ranked_turns(state: SearchState, search: Search, order: list[Node],
                  seconds: int = 4) -> Iterator[list[int]]:
    """Whole turns (lists of half-moves) in the search's order of preference: the root's
    children as ranked in ``order`` (:class:`ai.mcts.Node` list) and, where a first
    half-move leaves the turn open, up to ``seconds`` second half-moves each (the tree's
    ranking where it has one, else the legal order). A generator: made as consumed."""
    me = state.to_move
    for first in order:
        s = state.copy()
        s.play(first.action)
        if s.winner is not None or not s.mid_turn or s.to_move != me:
            yield [first.action]
            continue
        if first.children:
            nexts = [c.action for c in ranked_children(first)]
        else:
            nexts = s.actions()
        for b in nexts[:seconds]:
            yield [first.action, b]


def _blocking_turns(state: SearchState, threats: list[set[int]],
                    chosen: list[int]) -> Iterator[list[int]]:
    """Turns that put a stone on a point of the last of ``threats`` (the points of the
    opponent's winning turns found so far), for games where only that stops them
    (:func:`ai.knowledge.blocked_only_by_occupying`): that point alone or with a second
    stone on another threat's point, the end of the turn, or the first legal partner; and
    that point as the second stone after ``chosen``'s first."""
    me = state.to_move
    last = threats[-1]
    firsts = set(state.actions())
    for x in sorted(last, key=lambda c: -sum(c in th for th in threats)):
        if x in firsts:
            s = state.copy()
            s.play(x)
            if s.winner is not None or not s.mid_turn or s.to_move != me:
                yield [x]
            else:
                acts = s.actions()
                others = [b for b in acts if any(b in th for th in threats if x not in th)]
                for b in others + ([s.pass_action] if s.pass_action in acts else []) + acts[:2]:
                    yield [x, b]
        if len(chosen) == 2 and chosen[0] != x:
            s = state.copy()
            s.play(chosen[0])
            if s.mid_turn and s.to_move == me and x in s.actions():
                yield [chosen[0], x]


def avoid_loss_in_one(state: SearchState, chosen: list[int], alternatives: Iterable[list[int]],
                      deadline: float | None = None, limit: int = 48) -> list[int] | None:
    """A whole turn after which the opponent has no win in one (:func:`win_in_one` on their
    whole next turn, two stones in Whirlwind), trying ``chosen`` first, then the turns of
    ``alternatives`` (an iterable of half-move lists, best first) -- and, in games where a
    win is only stopped by occupying one of its points, the turns that block every
    winning turn found so far first. None when none of at most ``limit`` turns tried is
    safe (the opponent wins in one whatever is played, as far as was seen) or
    ``deadline`` (a ``time.perf_counter()`` value) passed before one was found; ``chosen``
    is always tried. Teytaud & Teytaud's anti-decisive moves, for whole turns at the root.
    """
    me = state.to_move
    occupy = knowledge.blocked_only_by_occupying(state)
    threats: list[set[int]] = []
    pending: list[list[int]] = [list(chosen)]
    seen: set[tuple[int, ...]] = set()
    rest = iter(alternatives)
    checked = 0
    clock = time.perf_counter
    turn: list[int] | None
    while checked < limit:
        if pending:
            turn = pending.pop(0)
        else:
            turn = next(rest, None)
            if turn is None:
                return None
        key = tuple(turn)
        if key in seen:
            continue
        seen.add(key)
        if occupy and any(not th.intersection(turn) for th in threats):
            continue
        if checked and deadline is not None and clock() > deadline:
            return None
        checked += 1
        s = state.copy()
        for a in turn:
            s.play(a)
        if s.winner is not None:
            if s.winner == me:
                return turn
            continue
        win = win_in_one(s)
        if win is None:
            return turn
        if occupy:
            threats.append({a for a in win if a < state.n_cells})
            pending[:0] = list(_blocking_turns(state, threats, chosen))
    return None


def overlook_threats(state: SearchState, chosen: list[int], alternatives: Iterable[list[int]],
                     deadline: float | None = None, limit: int = 6) -> list[int]:
    """The whole turn a player blind to immediate threats plays, for a move of a level that
    does not look (:attr:`Level.sight`); the opposite of the decisive-move check and of
    :func:`avoid_loss_in_one`.

    ``chosen`` (a list of half-moves) and the first ``limit`` turns of ``alternatives`` (an
    iterable of half-move lists, best first) are tried. A turn that wins at once is
    overlooked (never played unless every turn tried wins). Among the others, when at
    least half leave the opponent a win in one (:func:`win_in_one` on their whole next
    turn) -- a threat that most moves ignore, as a one-move coil or a Whirlwind chain one
    turn from crossing -- the first of those is played: the threat is not seen, so it is
    not stopped either. Otherwise (no threat, or only the odd move that would blunder into
    one) the first turn tried that does not win at once is played: ``chosen`` when it does
    not win. No further turn is tried once ``deadline`` (a ``time.perf_counter()`` value)
    has passed; ``chosen`` always is.
    """
    me = state.to_move
    ignoring: list[list[int]] = []   # turns tried that leave the opponent a win in one
    quiet: list[list[int]] = []      # turns tried that neither win nor leave one
    seen: set[tuple[int, ...]] = set()
    for turn in [list(chosen), *_take(alternatives, limit * 4)]:
        key = tuple(turn)
        if key in seen:
            continue
        seen.add(key)
        if len(seen) > limit + 1 or (len(seen) > 1 and deadline is not None
                                     and time.perf_counter() > deadline):
            break
        s = state.copy()
        for a in turn:
            s.play(a)
        if s.winner is not None:
            if s.winner != me:
                ignoring.append(turn)   # loses at once: nothing to see here either
            continue                    # a win in one: overlooked
        (ignoring if win_in_one(s) is not None else quiet).append(turn)
    if ignoring and len(ignoring) >= len(quiet):
        return ignoring[0]
    if quiet:
        return quiet[0]
    return ignoring[0] if ignoring else list(chosen)


def _take(iterable: Iterable[_T], n: int) -> list[_T]:
    """The first ``n`` items of ``iterable`` (fewer when it runs out)."""
    out: list[_T] = []
    for item in iterable:
        if len(out) >= n:
            break
        out.append(item)
    return out


def _solve_endgame(state: SearchState, lv: Level,
                   deadline: float | None) -> tuple[int, float] | None:
    """``(action, value)`` when ``state`` has at most ``lv.endgame`` empty cells, its game
    has an exact solver (:mod:`ai.endgame`) and the solve, within ``lv.endgame_nodes``
    positions and ``deadline``, finds a win (value 1.0) or at best a draw (0.5); None
    otherwise -- a proven loss too, which is left to the search (the move with the best
    practical chance)."""
    if lv.endgame <= 0:
        return None
    empties = endgame.empty_count(state)
    solver = endgame.solver_for(state)
    if solver is None or empties is None or empties > lv.endgame:
        return None
    result = solver(state, lv.endgame_nodes, deadline)
    if not result:
        return None
    action, v = max(result, key=lambda av: av[1])
    if v < 0:
        return None
    return action, 1.0 if v > 0 else 0.5


def _follow(search: Search, node: Node, limit: int = 16) -> list[int]:
    """Half-moves of the expected continuation below ``node`` (best child each time)."""
    out: list[int] = []
    while node.children and len(out) < limit:
        node = search.best_child(node)
        if node.n == 0 and node.proven is None:
            break
        out.append(node.action)
    return out


def _pick(search: Search, node: Node, rng: random.Random, noise: bool) -> Node:
    """The child to play at ``node``: the search's best, or for a noisy level a child
    drawn with probability proportional to its visits (never a proven loss, always a
    proven win)."""
    best = search.best_child(node)
    if not noise or best.proven == node.to_move:
        return best
    p = node.to_move
    assert node.children is not None  # best_child found one
    alive = [c for c in node.children if c.proven != 3 - p and c.n > 0] or [best]
    total = sum(c.n for c in alive)
    r = rng.random() * total
    for c in alive:
        r -= c.n
        if r < 0:
            return c
    return alive[-1]
