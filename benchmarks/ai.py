"""The computer opponent's speed, memory and strength (issue 10).

Run: ``.venv/bin/python benchmarks/ai.py [--quick | --full] [options]``. Prints:

(a) per game at default size: simulations per second of the level-5 search (from the
    starting position and from a position a quarter into a random game) beside the engine's
    random playout rates (``Position.random_playout`` and ``search_state().playout``), and
    whether the search keeps at least a third of the state's playout rate;
(b) the peak memory (``ru_maxrss`` of a fresh child process) of a level-5 search;
(c) the ladder: each level against the level below, per game kind;
(d) level 5 against the plain UCT baseline (``ai.uct``) at equal time per move;
(e) ablations: level 5 against level 5 without one technique (``--ablation``), at a time
    a move or, with ``--ablation-playouts N``, at N simulations a move (no time cap);
(f) level 5 against Ludii's MC-GRAVE recipe (``ai.grave``, tree kept between moves) at equal
    time per move (``--grave-games``; 1 s in the issue);
(g) time odds: level 5 at 1 s against UCT at 4 s (``--odds-games``);
(h) the Elo round robin: levels 1-5 (each at its own time and simulation caps) and UCT at
    0.25, 1 and 4 s, every pair, per game kind (``--elo-games`` per pair and kind), fitted by
    maximum-likelihood Bradley-Terry (``choix.opt_pairwise``), anchored at UCT 1 s = 1500,
    with 95% bootstrap intervals (games resampled), and the steps between adjacent levels.

``--size N`` plays every match on boards of size N (e.g. Whirlwind 10 for shorter games),
``--shape hexhex`` the Corals on hexhex boards (e.g. with ``--size 5``; default limping).
Win rates come with 95% Wilson intervals; a draw counts half. Seats alternate between
games. Games run in worker processes (``--workers``, default 2) that die with this process.
A game ends early (adjudicated) when the search of the side to move has *proved* it wins
(MCTS-Solver): that side would play the proof out, so the result is the same.

The ladder gives each level its simulation budget (``ai.LEVELS[L].playouts``) with no time
cap, so it does not depend on the machine's load; ``--scale`` multiplies those budgets (the
full budgets make level 5 games last minutes: see the README for what was run). Parts (f)-(h)
play at real times (1 s, 4 s, the levels' own) times ``--scale`` when it is given (``--quick``:
0.1), so ``--scale 0.1`` shrinks every time of every match. ``--quick`` plays a few games of
every part but (h), whose quick form is ``--quick --elo-games 1 --kinds K``; ``--full`` the
issue's counts (parts (f)-(h) are long at full times: run them
one by one with ``--skip`` and ``--kinds``).
"""

from __future__ import annotations

import argparse
import ctypes
import math
import multiprocessing as mp
import random
import resource
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ai  # noqa: E402
import engine  # noqa: E402
from ai.grave import GraveAgent  # noqa: E402
from ai.uct import uct_turn  # noqa: E402

KINDS = ["coil", "io", "braincoral", "branchingcoral", "whirlwind"]
CORALS = ("braincoral", "branchingcoral")  # the kinds --shape applies to
#: Options of the games played in matches, by kind (``--size``, ``--shape``); set in
#: :func:`main` before the worker processes are forked, so they inherit it.
GAME_OPTIONS: dict[str, dict] = {}


def _die_with_parent() -> None:
    """Pool initializer: ask Linux to SIGTERM this worker when the parent dies
    (prctl(PR_SET_PDEATHSIG)), so an interrupted benchmark leaves no busy workers behind.
    (The bot has ``bot.workers.procs.process_pool`` for this; the benchmark keeps to ``ai``/``engine``.)"""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG
    except OSError:  # not Linux: nothing to do
        pass


def elo_gap(rate: float) -> float:
    """The Elo difference a win rate ``rate`` (0..1, draws as half) means under the logistic
    model: 400 log10(rate / (1 - rate)); +inf at 1, -inf at 0."""
    if rate >= 1:
        return math.inf
    if rate <= 0:
        return -math.inf
    return 400 * math.log10(rate / (1 - rate))


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate ``wins / n`` (draws counted as half)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


# -- (a) speed ----------------------------------------------------------------------------
def rate(fn, seconds: float) -> float:
    """Calls of ``fn`` per second of this process's CPU time (``time.process_time``), run
    for ``seconds`` of it: on a machine shared with other work the wall clock counts the
    time others had the core, the process's CPU time does not."""
    n = 0
    t0 = time.process_time()
    while True:
        fn()
        n += 1
        el = time.process_time() - t0
        if el >= seconds:
            return n / el


def search_rate(pos: engine.Position, seconds: float) -> float:
    """Simulations per second of level 5's main search (:func:`ai.level_search`: its
    settings, the game's decisive-move candidates, prior and ref/explore) from ``pos``."""
    lv = ai.LEVELS[5]
    state = pos.search_state()
    if lv.tactics and hasattr(state, "tactics"):
        state.tactics = True  # the game's playout tactics, as level 5 plays
        if lv.loops and hasattr(state, "loops"):
            state.loops = True
    s = ai.level_search(state, pos.kind, lv, random.Random(1))
    t0 = time.process_time()
    while s.root.proven is None:  # CPU time, as rate(); 100 simulations at a time
        s.run(playouts=s.playouts + 100)
        if time.process_time() - t0 >= seconds:
            break
    return s.playouts / (time.process_time() - t0)


def bench_speed(seconds: float, kinds: list[str], repeats: int = 3) -> None:
    """Print, per game at its default size, the random-playout rates, the level-5 search's
    simulations per second from the start and from a quarter in, and the ratio of the
    start rate to the faster random-playout rate (issue 24's target: at least 1/2), each
    rate the median of ``repeats`` runs of ``seconds`` with its range. "own" is the ratio
    to the playouts the search itself runs (Coil: with its tactics, as level 5 plays)."""
    print(f"(a) simulations per CPU second at default sizes (single thread, process CPU "
          f"time; median of {repeats}, range in brackets)")
    print(f"{'game':16s}{'Position.random_playout':>25s}{'state.playout':>15s}"
          f"{'search (start)':>22s}{'search (1/4 in)':>17s}{'ratio':>7s}{'own':>6s}"
          "  target >= 1/2")
    for key in kinds:
        pos = engine.new_game(key)
        rng = random.Random(1)
        st = pos.search_state()
        own = pos.search_state()
        if ai.LEVELS[5].tactics and hasattr(own, "tactics"):
            own.tactics = True
            if ai.LEVELS[5].loops and hasattr(own, "loops"):
                own.loops = True
        mid = pos
        plies = max(1, len(pos.board) // 4)
        while mid.ply < plies and mid.outcome is None:
            mid = mid.play(mid.random_move(rng))
        runs: dict[str, list[float]] = {"pos": [], "state": [], "own": [], "s0": [], "s1": []}
        for _ in range(repeats):
            runs["pos"].append(rate(lambda p=pos, r=rng: p.random_playout(r), seconds))
            runs["state"].append(rate(lambda s=st, r=rng: s.copy().playout(r), seconds))
            runs["own"].append(rate(lambda s=own, r=rng: s.copy().playout(r), seconds))
            runs["s0"].append(search_rate(pos, seconds))
            runs["s1"].append(search_rate(mid, seconds) if mid.outcome is None else float("nan"))
        med = {k: sorted(v)[len(v) // 2] for k, v in runs.items()}
        ratio = med["s0"] / max(med["pos"], med["state"])
        own_ratio = med["s0"] / med["own"]
        ok = "yes" if ratio >= 1 / 2 else "NO"
        s0 = f"{med['s0']:.0f} [{min(runs['s0']):.0f}-{max(runs['s0']):.0f}]"
        print(f"{key:16s}{med['pos']:25.0f}{med['state']:15.0f}{s0:>22s}{med['s1']:17.0f}"
              f"{ratio:7.2f}{own_ratio:6.2f}  {ok}")
    print()


# -- (b) memory ----------------------------------------------------------------------------
def _memory_child(key: str, seconds: float, q) -> None:
    pos = engine.new_game(key)
    d = ai.choose_move(pos, level=5, seconds=seconds, seed=1)
    q.put((d.playouts, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, d.seconds))


def bench_memory(seconds: float) -> None:
    """Print, per game at its default size, the peak memory of one level-5 move from the
    start (``seconds`` its time cap, or its simulation budget first), and the wall time
    that move took against the cap (issue 24: within 10% of it)."""
    print(f"(b) peak memory of a level-5 search ({seconds:g} s, fresh process, ru_maxrss), "
          f"and the move's wall time against its {seconds:g} s cap")
    ctx = mp.get_context("spawn")
    for key in KINDS:
        q = ctx.Queue()
        p = ctx.Process(target=_memory_child, args=(key, seconds, q))
        p.start()
        playouts, mb, took = q.get()
        p.join()
        over = "yes" if took <= seconds * 1.1 else "NO"
        print(f"  {key:16s}{mb:8.0f} MB after {playouts} simulations  (limit 500 MB);"
              f"  {took:5.2f} s, within the cap + 10%: {over}")
    print()


# -- games ----------------------------------------------------------------------------------
def _player_move(pos, spec, seed, agents=None):
    """One move of a player ``spec``: ("level", L, scale) or ("uct", seconds) or
    ("level_t", L, seconds) or ("level_s", L, scale: the level's own time and simulation
    caps, both times scale) or ("grave", seconds, reuse[, simulations]) -- a
    :class:`GraveAgent` kept in ``agents`` (a dict for this player in this game) so it can
    reuse its tree; with simulations (and seconds None), that many a half-move -- or
    ("variant", Level, seconds[, keep the tree]) or ("variant_p", Level, simulations[, keep
    the tree]). A level's tree is kept in ``agents`` too, where the level keeps it in this
    game (``Level.keep_tree``: level 5 in Io). Returns (move, proved_win)."""
    tree = agents.setdefault("tree", ai.SearchTree()) if agents is not None else None
    if spec[0] == "uct":
        move, _ = uct_turn(pos, seconds=spec[1], seed=seed)
        return move, False
    if spec[0] == "grave":
        agent = agents.get("grave") if agents is not None else None
        if agent is None:
            agent = GraveAgent(seed=seed, reuse=spec[2])
            if agents is not None:
                agents["grave"] = agent
        move, _ = agent.choose(pos, seconds=spec[1], playouts=spec[3] if len(spec) > 3 else None)
        return move, False
    if spec[0] == "level_s":
        _, level, scale = spec
        lv = ai.LEVELS[level].for_kind(pos.kind)  # its budget in this game
        d = ai.choose_move(pos, level=level, seed=seed,
                           seconds=min(ai.MAX_SECONDS, lv.seconds * scale),
                           playouts=max(8, int(lv.playouts * scale)) if lv.playouts else None,
                           tree=tree)
        return d.move, d.proven and d.value == 1.0
    if spec[0] == "level":
        _, level, scale = spec
        lv = ai.LEVELS[level].for_kind(pos.kind)  # its budget in this game
        if lv.playouts:
            # the level's simulation budget alone (its time cap is a safeguard for slow
            # machines): load-independent, so the ladder measures what players get
            d = ai.choose_move(pos, level=level, playouts=max(8, int(lv.playouts * scale)),
                               seed=seed, tree=tree)
        else:
            d = ai.choose_move(pos, level=level, seed=seed,
                               seconds=min(ai.MAX_SECONDS, lv.seconds * scale), tree=tree)
    elif spec[0] == "level_t":
        _, level, seconds = spec
        d = ai.choose_move(pos, level=level, seconds=seconds, seed=seed, tree=tree)
    else:  # ("variant" / "variant_p", Level, seconds / simulations[, keep the tree])
        lv, budget = spec[1], spec[2]
        if not (len(spec) > 3 and spec[3]) and not lv.for_kind(pos.kind).keep_tree:
            tree = None
        if spec[0] == "variant_p":  # a fixed simulation budget: load-independent
            d = ai.search_move(pos, lv, playouts=budget, seed=seed, tree=tree)
        else:
            d = ai.search_move(pos, lv, seconds=budget, seed=seed, tree=tree)
    return d.move, d.proven and d.value == 1.0


def play_game(task):
    """Play one game: task = (key, label, spec_a, spec_b, a_seat, seed). Returns
    (key, label, score of A: 1, 0.5 or 0, plies, adjudicated, seed)."""
    key, label, spec_a, spec_b, a_seat, seed = task
    pos = engine.new_game(key, **GAME_OPTIONS.get(key, {}))
    rng = random.Random(seed)
    adjudicated = False
    agents: dict[int, dict] = {1: {}, 2: {}}   # per seat: a player's kept state (GRAVE's tree)
    while pos.outcome is None:
        spec = spec_a if pos.to_move == a_seat else spec_b
        mover = pos.to_move
        move, proved = _player_move(pos, spec, rng.randrange(1 << 30), agents[mover])
        if proved:
            winner = mover
            adjudicated = True
            break
        pos = pos.play(move)
    else:
        winner = pos.outcome.winner or 0
    score = 0.5 if winner == 0 else (1.0 if winner == a_seat else 0.0)
    return key, label, score, pos.ply, adjudicated, seed


def run_games(tasks: list, workers: int) -> Iterator[tuple]:
    """Play ``tasks`` (see :func:`play_game`) on ``workers`` processes; yields each game's
    result as it ends."""
    ctx = mp.get_context("fork")
    with ctx.Pool(workers, initializer=_die_with_parent) as pool:
        yield from pool.imap_unordered(play_game, tasks)


def run_matches(title: str, tasks: list, workers: int, by_seat: bool = False) -> list:
    """Play ``tasks`` and print each (label, kind) score with its 95% Wilson interval;
    ``by_seat`` also splits it by the seat player A had. Returns the games' results."""
    print(title)
    results: dict[tuple[str, str], list] = {}
    seats: dict[tuple[str, str, int], list] = {}
    t0 = time.perf_counter()
    seat_of = {(t[0], t[1], t[5]): t[4] for t in tasks}
    games = []
    for key, label, score, plies, adj, seed in run_games(tasks, workers):
        games.append((key, label, score, plies, adj, seed))
        # progress on stderr (a long match can be read, or cut short, as it goes)
        print(f"  game {len(games)}/{len(tasks)}: {label} {key} seed {seed}: {score:g} "
              f"({plies} plies, {time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
        r = results.setdefault((label, key), [0.0, 0, 0])
        r[0] += score
        r[1] += 1
        r[2] += adj
        q = seats.setdefault((label, key, seat_of[(key, label, seed)]), [0.0, 0])
        q[0] += score
        q[1] += 1
    for (label, key), (wins, n, adj) in sorted(results.items()):
        lo, hi = wilson(wins, n)
        print(f"  {label:26s} {key:16s} {wins:5.1f}/{n:<3d} = {wins / n:4.0%}  "
              f"95% CI {lo:4.0%}-{hi:4.0%}  ({adj} adjudicated)")
        print(f"      Elo difference {elo_gap(wins / n):+.0f}  "
              f"95% CI {elo_gap(lo):+.0f} to {elo_gap(hi):+.0f}")
        if by_seat:
            for seat in (1, 2):
                w, m = seats.get((label, key, seat), [0.0, 0])
                if m:
                    lo, hi = wilson(w, m)
                    print(f"      as seat {seat}: {w:5.1f}/{m:<3d} = {w / m:4.0%}  "
                          f"95% CI {lo:4.0%}-{hi:4.0%}")
    print(f"  ({time.perf_counter() - t0:.0f} s)\n")
    return games


def ladder_tasks(games: int, scale: float, kinds: list[str],
                 steps: tuple[int, ...] = (2, 3, 4, 5)) -> list:
    """Ladder games: for each upper level in ``steps``, that level against the one below."""
    tasks = []
    for hi in steps:
        lo = hi - 1
        for key in kinds:
            for g in range(games):
                a_seat = 1 + g % 2
                tasks.append((key, f"L{hi} vs L{lo}", ("level", hi, scale), ("level", lo, scale),
                              a_seat, 1000 * hi + g))
    return tasks


def uct_tasks(games: int, seconds: float, kinds: list[str]) -> list:
    return [(key, "L5 vs UCT", ("level_t", 5, seconds), ("uct", seconds), 1 + g % 2, 77 + g)
            for key in kinds for g in range(games)]


#: What each technique is measured by: level 5 against level 5 without it.
VARIANTS = {
    "GRAVE": dict(use_amaf=False, explore=0.5),
    "solver": dict(solver=False),
    "decisive": dict(decisive_turns=-1),
    # no game has a prior switched on (ai.knowledge._PRIORS is empty), so for now "-knowledge"
    # is level 5 as it is: a run of it measures only the spread between runs
    "knowledge": dict(use_knowledge=False),
    "tactics": dict(tactics=False),                 # the game's playout tactics (Coil)
    "loops": dict(loops=False),       # Coil: playouts see only rings of six (issue 24 item 5)
    # level 5 as it was before it took the recipe's selection and continued search in Io
    # and Whirlwind: the fields ai.RECIPE_SEARCH sets there at level 5's own values
    "recipe": {f: getattr(ai.LEVELS[5], f) for f in ai.RECIPE_SEARCH},
    # Ludii's QInit.INF alone: an unvisited child valued by its AMAF mean instead
    "unvisited-first": dict(unvisited_first=False),
    # tree reuse (Io's level 5 keeps its tree between moves; "+tree-reuse" adds it elsewhere)
    "keep-tree": dict(keep_tree=False),
}
#: Candidates not (yet) in level 5, measured the other way round with "+name": level 5 with
#: the change against level 5 as it is (issue 24: each kept only if a match shows it).
CANDIDATES = {
    "tree-endgame": dict(tree_endgame=12),                         # Io: solve nodes <= 12 empty
    "tree-endgame-20k": dict(tree_endgame=12, tree_endgame_nodes=20_000),
    "pure-grave": dict(explore=0.0),                               # Ludii: no exploration term
    "ludii-ref-bias": dict(ref=100, bias=1e-6),                    # Ludii's GRAVE settings
    "cutoff4": dict(cutoff=4),        # Whirlwind: playouts cut after 4 turns, chain distance
    # the same at equal cost: its simulations take about half the CPU time (size 10), so with
    # --ablation-playouts it gets twice the budget ("budget_factor": of the candidate's side)
    "cutoff4-2x": dict(cutoff=4, budget_factor=2.0),
    "same": {},                                      # level 5 against itself: the seats' share
    "ludii-selection": dict(explore=0.0, ref=100, bias=1e-6),      # both of Ludii's at once
    "unvisited-first": dict(unvisited_first=True),   # Ludii's QInit.INF: each child once first
    # a two-stone turn's second half-move searched on in the first's subtree, with Ludii's
    # share of the time (70% to the first half-move)
    "continue": dict(continue_turn=True, time_share=0.7),
    # Ludii's MC-GRAVE selection whole (its settings and unvisited children first)
    "ludii": dict(explore=0.0, ref=100, bias=1e-6, unvisited_first=True),
    # no simulation budget, the time alone: how strength grows with time (with
    # --grave-ours-seconds; level 5 stops at 12,000 simulations otherwise)
    "uncapped": dict(playouts=None),
    # GRAVE's bias raised, so that a well-visited child's own mean takes over from AMAF: a
    # child's AMAF count is never below its visits, so at 1e-6 the AMAF mean keeps half the
    # weight however long the search runs (1e-3 is Io's since, ai.IO_SEARCH)
    "bias-1e-3": dict(bias=1e-3),
    "bias-1e-4": dict(bias=1e-4),
    "bias-1e-2": dict(bias=1e-2),
}


def ablation_tasks(games: int, seconds: float, kinds: list[str], names: list[str],
                   playouts: int | None = None) -> list:
    """Level 5 against a variant of itself, per technique in ``names`` (see
    :data:`VARIANTS`, :data:`CANDIDATES`), at ``seconds`` a move -- or, when ``playouts``
    is given, at that fixed simulation budget a move and no time cap (load-independent).
    "+NAME" (or "+tree-reuse") plays level 5 changed against level 5 as it is, "-NAME"
    level 5 as it is against level 5 without the technique (:func:`_level_changed`)."""
    full = _variant_spec("", seconds, playouts)
    tasks = []
    for name in names:
        if name.startswith("+"):
            a, b = _variant_spec(name, seconds, playouts), full
            label = f"L5 {name} vs L5"
        else:
            a, b = full, _variant_spec("-" + name, seconds, playouts)
            label = f"L5 vs -{name}"
        for key in kinds:
            for g in range(games):
                tasks.append((key, label, a, b, 1 + g % 2, 500 + g))
    return tasks


def _level_changed(changes: str) -> tuple[ai.Level, bool, float]:
    """Level 5 changed by ``changes``, a comma list of "+NAME" (a candidate of
    :data:`CANDIDATES`, or "+tree-reuse": the tree kept between moves) and "-NAME" (without
    a technique of :data:`VARIANTS`), e.g. "+ludii,+tree-reuse": ``(the level, whether it
    keeps its tree, the factor of its simulation budget)`` -- the factor is a candidate's
    "budget_factor" (1.0 without one), applied only at a fixed budget. Raises KeyError for
    a name in neither."""
    fields: dict = {}
    keep = False
    factor = 1.0
    for item in (x.strip() for x in changes.split(",") if x.strip()):
        if item == "+tree-reuse":
            keep = True
        elif item[0] == "+":
            change = dict(CANDIDATES[item[1:]])
            factor *= change.pop("budget_factor", 1.0)
            fields.update(change)
        elif item[0] == "-":
            fields.update(VARIANTS[item[1:]])
        else:
            raise KeyError(item)
    return ai.LEVELS[5].changed(**fields), keep, factor


def _variant_spec(changes: str, seconds: float, playouts: int | None = None) -> tuple:
    """The player spec (see :func:`_player_move`) of level 5 changed by ``changes``
    (:func:`_level_changed`): at ``seconds`` a move, or at ``playouts`` simulations a move
    (times the candidate's budget factor) when given. Raises KeyError as
    :func:`_level_changed`."""
    lv, keep, factor = _level_changed(changes)
    if playouts:
        return ("variant_p", lv, int(playouts * factor), keep)
    return ("variant", lv, seconds, keep)


def grave_tasks(games: int, seconds: float, kinds: list[str], reuse: bool = True,
                ours: str = "", playouts: int | None = None, ours_seconds: float | None = None,
                seat: int | None = None) -> list:
    """Level 5 against MC-GRAVE (:mod:`ai.grave`), both at ``seconds`` a move. ``ours``:
    "" for level 5 as it is, "+tree-reuse" for level 5 keeping its tree between moves
    (:class:`ai.SearchTree`), "+NAME" for level 5 with a candidate of :data:`CANDIDATES`,
    "-NAME" for level 5 without a technique of :data:`VARIANTS` (an ablation against the
    recipe), or several of these, comma-separated (:func:`_level_changed`). ``playouts``:
    both sides at that many simulations a move instead of ``seconds`` (load-independent;
    the recipe's are per half-move, so it gets twice them on a two-stone turn, and level 5
    a quarter more). ``ours_seconds``: level 5's own time a move, when it differs from the
    recipe's (a time-scaling match; with "+uncapped" its simulation budget does not stop
    it first). ``seat``: level 5 plays only that seat (1 or 2), in the games of the
    alternating match where it has it (the same seeds). Raises KeyError for a name in
    neither, ValueError for a seat other than 1 or 2."""
    if seat not in (None, 1, 2):
        raise ValueError("seat must be 1 or 2")
    mine = seconds if ours_seconds is None else ours_seconds
    at = "" if playouts or mine == seconds else f" at {mine:g}s"  # a fixed budget: no time
    label = f"L5{' ' + ours if ours else ''}{at} vs GRAVE{'' if reuse else '-noreuse'}"
    spec: tuple = ("level_t", 5, mine)
    theirs: tuple = ("grave", seconds, reuse)
    if playouts:
        spec = _variant_spec(ours, seconds, playouts)
        theirs = ("grave", None, reuse, playouts)
    elif ours:
        spec = _variant_spec(ours, mine)
    picks = [g for g in range(2 * games) if seat in (None, 1 + g % 2)][:games]
    return [(key, label, spec, theirs, 1 + g % 2, 300 + g) for key in kinds for g in picks]


def odds_tasks(games: int, scale: float, kinds: list[str], ours: str = "") -> list:
    """Time odds: level 5 at 1 s against UCT at 4 s (both times ``scale``); ``ours`` as
    :func:`grave_tasks`' (level 5 changed, e.g. "-recipe"). Raises KeyError for a name in
    neither :data:`CANDIDATES` nor :data:`VARIANTS`."""
    spec = _variant_spec(ours, 1.0 * scale) if ours else ("level_t", 5, 1.0 * scale)
    label = f"L5{' ' + ours if ours else ''} vs UCT at 4x time"
    return [(key, label, spec, ("uct", 4.0 * scale), 1 + g % 2, 900 + g)
            for key in kinds for g in range(games)]


#: The Elo round robin's players: name -> spec (see _player_move), before scaling.
ELO_PLAYERS = {
    **{f"L{n}": ("level_s", n) for n in range(1, 6)},
    "UCT 0.25s": ("uct", 0.25), "UCT 1s": ("uct", 1.0), "UCT 4s": ("uct", 4.0),
}
ELO_ANCHOR = ("UCT 1s", 1500.0)


def _elo_spec(name: str, scale: float) -> tuple:
    kind, x = ELO_PLAYERS[name]
    return (kind, x, scale) if kind == "level_s" else (kind, x * scale)


def elo_tasks(games: int, scale: float, kinds: list[str]) -> list:
    """Every pair of :data:`ELO_PLAYERS`, ``games`` games per pair and kind, seats
    alternating; the label is "A | B"."""
    names = list(ELO_PLAYERS)
    tasks = []
    for key in kinds:
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                for g in range(games):
                    tasks.append((key, f"{a} | {b}", _elo_spec(a, scale), _elo_spec(b, scale),
                                  1 + g % 2, 7000 + 100 * i + g))
    return tasks


def bradley_terry(names: list[str], games: list[tuple[str, str, float]],
                  anchor: tuple[str, float] = ELO_ANCHOR, alpha: float = 1e-3) -> dict[str, float]:
    """Elo ratings by maximum-likelihood Bradley-Terry (``choix.opt_pairwise``) from
    ``games`` = (player A, player B, A's score 1 / 0.5 / 0). A win is two comparisons
    A > B, a draw one each way. ``alpha`` is choix's Gaussian regularisation (variance
    1 / alpha on the log-strengths): it keeps a pair that never lost finite. Ratings are
    ``400 / ln 10`` times the log-strengths, shifted so that ``anchor``'s player has its
    rating. Raises ValueError for a name not in ``names``."""
    import choix  # the dev extra: only the Elo part needs it

    index = {n: i for i, n in enumerate(names)}
    data: list[tuple[int, int]] = []
    for a, b, score in games:
        i, j = index[a], index[b]
        if score == 1.0:
            data += [(i, j), (i, j)]
        elif score == 0.0:
            data += [(j, i), (j, i)]
        else:
            data += [(i, j), (j, i)]
    theta = choix.opt_pairwise(len(names), data, alpha=alpha)
    k = 400.0 / math.log(10.0)
    base = anchor[1] - k * theta[index[anchor[0]]]
    return {n: base + k * float(theta[index[n]]) for n in names}


def elo_table(names: list[str], games: list[tuple[str, str, float]], boots: int = 200,
              seed: int = 1) -> dict[str, tuple[float, float, float]]:
    """``name -> (rating, low, high)``: :func:`bradley_terry` and its 95% bootstrap
    interval (``boots`` resamples of the games, percentiles 2.5 and 97.5); steps between
    players are bootstrapped the same way by :func:`elo_steps`."""
    point = bradley_terry(names, games)
    samples = _elo_boot(names, games, boots, seed)
    out = {}
    for n in names:
        xs = sorted(s[n] for s in samples)
        out[n] = (point[n], xs[int(0.025 * (len(xs) - 1))], xs[int(0.975 * (len(xs) - 1))])
    return out


def _elo_boot(names, games, boots, seed):
    rng = random.Random(seed)
    return [bradley_terry(names, [games[rng.randrange(len(games))] for _ in games])
            for _ in range(boots)]


def elo_steps(names: list[str], games: list[tuple[str, str, float]], pairs: list[tuple[str, str]],
              boots: int = 200, seed: int = 1) -> dict[tuple[str, str], tuple[float, float, float]]:
    """``(upper, lower) -> (rating difference, low, high)`` with 95% bootstrap intervals."""
    point = bradley_terry(names, games)
    samples = _elo_boot(names, games, boots, seed)
    out = {}
    for hi, lo in pairs:
        xs = sorted(s[hi] - s[lo] for s in samples)
        out[(hi, lo)] = (point[hi] - point[lo], xs[int(0.025 * (len(xs) - 1))],
                         xs[int(0.975 * (len(xs) - 1))])
    return out


def crosstable(names: list[str], games: list[tuple[str, str, float]]) -> list[str]:
    """The round robin's results as text rows: a header of ``names``, then per player its
    score against each other player (games = (player A, player B, A's score 1 / 0.5 / 0));
    "-" on the diagonal and where a pair played no game. The raw data the fit is made
    from, printed beside the ratings. Raises KeyError for a name not in ``names``."""
    index = {n: i for i, n in enumerate(names)}
    score = [[0.0] * len(names) for _ in names]
    played = [[0] * len(names) for _ in names]
    for a, b, s in games:
        i, j = index[a], index[b]
        score[i][j] += s
        score[j][i] += 1.0 - s
        played[i][j] += 1
        played[j][i] += 1
    width = max(len(n) for n in names) + 1
    rows = [" " * width + "".join(f"{n:>{width}s}" for n in names)]
    for i, n in enumerate(names):
        cells = [f"{score[i][j]:g}/{played[i][j]}" if played[i][j] else "-"
                 for j in range(len(names))]
        rows.append(f"{n:<{width}s}" + "".join(f"{c:>{width}s}" for c in cells))
    return rows


def elo_report(key: str, names: list[str], games: list[tuple[str, str, float]],
               boots: int = 200) -> list[str]:
    """Part (h)'s lines for game kind ``key``: the scores of every pair
    (:func:`crosstable`), every rating with its 95% interval (:func:`elo_table`) and the
    steps between adjacent levels L1-L5 (target: at least 100 Elo each; "yes" when the
    interval's low end reaches it, "no" when its high end does not, else "open").
    ``benchmarks/elo_table.py --from`` reads these lines back."""
    table = elo_table(names, games, boots)
    lines = [f"  {key}", "    score of the row's player against the column's"]
    lines += [f"    {row}" for row in crosstable(names, games)]
    for n in names:
        r, lo, hi = table[n]
        lines.append(f"    {n:10s} {r:6.0f}  95% CI {lo:6.0f} to {hi:6.0f}")
    levels = [n for n in (f"L{k}" for k in range(1, 6)) if n in names]
    steps = elo_steps(names, games, list(zip(levels[1:], levels[:-1], strict=True)), boots)
    for (hi_n, lo_n), (d, lo, hi) in steps.items():
        ok = "yes" if lo >= 100 else ("no" if hi < 100 else "open")
        lines.append(f"    step {hi_n}-{lo_n}: {d:+5.0f}  95% CI {lo:+5.0f} to {hi:+5.0f}  "
                     f">= 100: {ok}")
    return lines


def run_elo(games_per_pair: int, scale: float, kinds: list[str], workers: int,
            boots: int = 200) -> None:
    """Play the round robin and print, per kind, its :func:`elo_report`."""
    tasks = elo_tasks(games_per_pair, scale, kinds)
    print(f"(h) Elo round robin: {', '.join(ELO_PLAYERS)}; {games_per_pair} games per pair "
          f"per kind, times x{scale:g}, {len(tasks)} games; Bradley-Terry (choix), "
          f"{ELO_ANCHOR[0]} = {ELO_ANCHOR[1]:g}, 95% bootstrap intervals ({boots} resamples)")
    t0 = time.perf_counter()
    results = list(run_games(tasks, workers))
    names = list(ELO_PLAYERS)
    for key in kinds:
        games = []
        for k, label, score, *_ in results:
            if k == key:
                a, b = label.split(" | ")
                games.append((a, b, score))
        print("\n".join(elo_report(key, names, games, boots)))
    print(f"  ({time.perf_counter() - t0:.0f} s)\n")


def set_boards(size: int | None, shape: str | None) -> str:
    """Set the matches' boards (:data:`GAME_OPTIONS`): every kind at ``size`` (None: its
    own) and the Corals in ``shape`` ("limping" or "hexhex"; None: their own). Returns the
    note for the matches' titles ("" when neither is given, else e.g. ", size 5, Corals
    hexhex")."""
    if size is not None:
        for key in KINDS:
            GAME_OPTIONS[key] = {"size": size}
    if shape is not None:
        for key in CORALS:
            GAME_OPTIONS[key] = {**GAME_OPTIONS.get(key, {}), "shape": shape}
    return (f", size {size}" if size else "") + (f", Corals {shape}" if shape else "")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="a small version (a few minutes)")
    mode.add_argument("--full", action="store_true", help="the issue's game counts")
    ap.add_argument("--ladder-games", type=int, help="games per kind per adjacent pair")
    ap.add_argument("--uct-games", type=int, help="games per kind, level 5 against UCT")
    ap.add_argument("--scale", type=float, help="multiplier of the levels' budgets in the "
                    "ladder, and of every time in parts (f)-(h) (default there 1, --quick 0.1)")
    ap.add_argument("--uct-seconds", type=float, default=0.5, help="time per move against UCT")
    ap.add_argument("--speed-seconds", type=float, help="seconds per speed measurement")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--steps", default="2,3,4,5",
                    help="ladder steps to play, by the upper level (2 = level 2 vs 1)")
    ap.add_argument("--skip", default="",
                    help="comma list of parts to skip: speed,memory,ladder,uct,grave,odds,elo")
    ap.add_argument("--grave-games", type=int, help="games per kind, level 5 against MC-GRAVE")
    ap.add_argument("--grave-seconds", type=float, default=1.0,
                    help="time per move of both sides against MC-GRAVE (times --scale)")
    ap.add_argument("--grave-ours", default="",
                    help="level 5 changed against MC-GRAVE: +tree-reuse (keeps its tree between "
                         "moves), +NAME (a candidate of --ablation), -NAME (without a "
                         "technique of --ablation), or several, comma-separated")
    ap.add_argument("--odds-ours", default="",
                    help="level 5 changed in the time-odds match, as --grave-ours (e.g. "
                         "--odds-ours=-recipe: level 5 as it was before the recipe's selection)")
    ap.add_argument("--grave-playouts", type=int,
                    help="both sides at this many simulations a move (the recipe's a half-move) "
                    "instead of --grave-seconds: load-independent")
    ap.add_argument("--grave-ours-seconds", type=float,
                    help="level 5's own time per move against MC-GRAVE (times --scale; "
                    "default: --grave-seconds), to see how its score grows with time "
                    "(with --grave-ours=+uncapped)")
    ap.add_argument("--grave-seat", type=int, choices=(1, 2),
                    help="level 5 plays only this seat against MC-GRAVE")
    ap.add_argument("--grave-noreuse", action="store_true",
                    help="also play MC-GRAVE without tree reuse")
    ap.add_argument("--odds-games", type=int, help="games per kind, level 5 1 s vs UCT 4 s")
    ap.add_argument("--elo-games", type=int, help="games per pair and kind in the round robin")
    ap.add_argument("--elo-boots", type=int, default=200, help="bootstrap resamples")
    ap.add_argument("--ablation", default="", help="comma list of techniques to measure, "
                    f"level 5 against level 5 without each ({', '.join(VARIANTS)}), or of "
                    f"candidates with '+' (level 5 with it against level 5: "
                    f"{', '.join('+' + n for n in CANDIDATES)}, +tree-reuse)")
    ap.add_argument("--ablation-games", type=int, default=10, help="games per kind per technique")
    ap.add_argument("--ablation-seconds", type=float, default=0.5, help="time per move")
    ap.add_argument("--ablation-playouts", type=int,
                    help="fixed simulations per move in the ablations instead of a time "
                    "(no time cap: the match does not depend on the machine's load)")
    ap.add_argument("--size", type=int,
                    help="board size of every game kind played in the matches (default: each "
                    "kind's own)")
    ap.add_argument("--shape", choices=("limping", "hexhex"),
                    help="board shape of the Corals in the matches (default: limping), e.g. "
                    "hexhex with --size 5")
    args = ap.parse_args(argv)
    board = set_boards(args.size, args.shape)
    kinds = [k for k in args.kinds.split(",") if k]
    if args.full:
        defaults = dict(ladder=30, uct=40, scale=0.1, speed=3.0, grave=40, odds=40, elo=10,
                        tscale=1.0)
    elif args.quick:
        # the round robin is 28 pairs a kind: even one game a pair is ~30 min for five
        # kinds at x0.1, so --quick plays it only when asked (--elo-games 1 --kinds K)
        defaults = dict(ladder=4, uct=4, scale=0.05, speed=1.0, grave=2, odds=2, elo=0,
                        tscale=0.1)
    else:
        defaults = dict(ladder=6, uct=6, scale=0.1, speed=2.0, grave=0, odds=0, elo=0,
                        tscale=1.0)
    grave = args.grave_games if args.grave_games is not None else defaults["grave"]
    odds = args.odds_games if args.odds_games is not None else defaults["odds"]
    elo = args.elo_games if args.elo_games is not None else defaults["elo"]
    tscale = args.scale if args.scale is not None else defaults["tscale"]
    ladder = args.ladder_games if args.ladder_games is not None else defaults["ladder"]
    uct = args.uct_games if args.uct_games is not None else defaults["uct"]
    scale = args.scale if args.scale is not None else defaults["scale"]
    speed = args.speed_seconds if args.speed_seconds is not None else defaults["speed"]
    skip = set(args.skip.split(","))
    t0 = time.perf_counter()
    if "speed" not in skip:
        bench_speed(speed, kinds)
    if "memory" not in skip:
        bench_memory(ai.LEVELS[5].seconds)
    if "ladder" not in skip and ladder:
        run_matches(f"(c) ladder: {ladder} games per kind per pair, budgets x{scale:g}"
                    + board,
                    ladder_tasks(ladder, scale, kinds,
                                 tuple(int(x) for x in args.steps.split(",") if x)),
                    args.workers, by_seat=True)
    if "uct" not in skip and uct:
        run_matches(f"(d) level 5 against plain UCT, {args.uct_seconds:g} s per move, "
                    f"{uct} games per kind", uct_tasks(uct, args.uct_seconds, kinds), args.workers)
    names = [n for n in args.ablation.split(",") if n]
    if names:
        budget = (f"{args.ablation_playouts} simulations per move (no time cap)"
                  if args.ablation_playouts else f"{args.ablation_seconds:g} s per move")
        run_matches(f"(e) each technique: level 5 against level 5 without it, {budget}"
                    + board,
                    ablation_tasks(args.ablation_games, args.ablation_seconds, kinds, names,
                                   args.ablation_playouts),
                    args.workers, by_seat=True)
    if "grave" not in skip and grave:
        secs = args.grave_seconds * tscale
        sims = args.grave_playouts
        mine = None if args.grave_ours_seconds is None else args.grave_ours_seconds * tscale
        tasks = grave_tasks(grave, secs, kinds, ours=args.grave_ours, playouts=sims,
                            ours_seconds=mine, seat=args.grave_seat)
        if args.grave_noreuse:
            tasks += grave_tasks(grave, secs, kinds, reuse=False, ours=args.grave_ours,
                                 playouts=sims, ours_seconds=mine, seat=args.grave_seat)
        budget = f"{sims} simulations" if sims else f"{secs:g} s"
        if mine is not None and not sims:
            budget += f" (level 5: {mine:g} s)"
        run_matches(f"(f) level 5 against MC-GRAVE (Ludii's recipe), {budget} per move, "
                    f"{grave} games per kind{board}", tasks, args.workers, by_seat=True)
    if "odds" not in skip and odds:
        run_matches(f"(g) time odds: level 5 at {tscale:g} s against UCT at {4 * tscale:g} s, "
                    f"{odds} games per kind{board}", odds_tasks(odds, tscale, kinds, args.odds_ours), args.workers,
                    by_seat=True)
    if "elo" not in skip and elo:
        run_elo(elo, tscale, kinds, args.workers, args.elo_boots)
    print(f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
