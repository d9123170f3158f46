"""The levels' measured strength: each level's rating per game kind on an Elo scale, with
its 95% interval, and how it was measured. Numbers only, like :data:`ai.LEVELS`: the bot
words them (``bot.texts.computer_levels_lines`` for /help) and
``benchmarks/elo_table.py`` prints the README's table from them.

The ratings come from ``benchmarks/ai.py``'s part (h), the Elo round robin (issue 24 item
3): levels 1-5 (each at its own time and simulation caps) and plain UCT (:mod:`ai.uct`) at
0.25, 1 and 4 s a move play every pair, seats alternating, in every game kind; the results
are fitted by maximum-likelihood Bradley-Terry (``choix``), anchored at UCT 1 s = 1500, with
95% bootstrap intervals. Only the levels' rows are kept here.

To publish a new run: replace :data:`RATINGS`' ``None`` entries (or old figures) with
``Rating(elo, low, high)`` from its output -- ``python benchmarks/elo_table.py --from
OUTPUT`` prints the literal from a saved output of part (h) -- and fill :data:`MEASURED`;
then ``python benchmarks/elo_table.py --write`` renews the README's table (a test checks
that the README and this module agree).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import MENU_ORDER

__all__ = ["ANCHOR_RATING", "ANCHOR_SECONDS", "KINDS", "MEASURED", "RATINGS", "Measurement",
           "Rating", "measured_kinds"]

#: The game kinds rated, in the engine's menu order.
KINDS: tuple[str, ...] = tuple(MENU_ORDER)
#: The scale's anchor: plain UCT (:mod:`ai.uct`) at this many seconds a move ...
ANCHOR_SECONDS = 1.0
#: ... has this rating.
ANCHOR_RATING = 1500.0


@dataclass(frozen=True)
class Rating:
    """One level's strength in one game: ``elo`` (the maximum-likelihood rating, Elo points
    on the anchored scale) and its 95% interval ``low`` .. ``high`` (same units;
    ``low <= elo <= high``)."""

    elo: float
    low: float
    high: float


@dataclass(frozen=True)
class Measurement:
    """How :data:`RATINGS` was measured: ``date`` (ISO ``"YYYY-MM-DD"``, None while nothing
    is measured), ``games_per_pair`` (games of each pair of players in each game kind),
    ``scale`` (the multiplier of every time cap, ``benchmarks/ai.py --scale``: 1.0 = the
    levels as players meet them), ``command`` (the command line that played it) and ``method`` (the fit, in
    a few words, for the README)."""

    date: str | None
    games_per_pair: int | None
    scale: float
    command: str | None
    method: str = ("maximum-likelihood Bradley–Terry (choix), anchored at UCT 1 s = 1500, "
                   "95% bootstrap intervals")


#: The run behind :data:`RATINGS` (issue 24 item 3's round robin, at a tenth of every
#: player's time, 12 games a pair, level 5 as it plays since issue 24's recipe change in Io
#: and Whirlwind and without unvisited children first in Whirlwind; its output:
#: benchmarks/results/elo-2026-11-26.txt, third run). Coil's column comes from the same
#: round robin in Coil alone (``--kinds coil``), played again after levels 4 and 5 took
#: Coil's own budgets (:data:`ai.COIL_LEVEL_4`, :data:`ai.COIL_LEVEL_5`; fourth run there),
#: and Io's from it in Io alone (``--kinds io``), played again after level 5 took Io's own
#: GRAVE bias and exploration term (:data:`ai.IO_SEARCH`; 27 November,
#: benchmarks/results/io-search-2026-11-27.txt, section 8).
MEASURED = Measurement(
    date="2026-11-26",
    games_per_pair=12,
    scale=0.1,
    command=(".venv/bin/python benchmarks/ai.py --skip speed,memory,ladder,uct,grave,odds "
             "--elo-games 12 --scale 0.1 --workers 2 --elo-boots 300"),
)

#: level (1-5, as :data:`ai.LEVELS`) -> game kind (:data:`KINDS`) -> its rating, or None
#: while that level is not measured in that game.
RATINGS: dict[int, dict[str, Rating | None]] = {
    1: {"coil": Rating(-248, -963, -55), "io": Rating(-351, -1107, -224), "braincoral": Rating(-347, -760, -198), "branchingcoral": Rating(627, -398, 812), "whirlwind": Rating(1338, 1121, 1504)},
    2: {"coil": Rating(1608, 1444, 1852), "io": Rating(980, 209, 1125), "braincoral": Rating(968, 449, 1151), "branchingcoral": Rating(1028, 760, 1172), "whirlwind": Rating(1744, 1580, 2061)},
    3: {"coil": Rating(1958, 1799, 2231), "io": Rating(1500, 1324, 1685), "braincoral": Rating(1463, 1298, 1610), "branchingcoral": Rating(1362, 1153, 1492), "whirlwind": Rating(2095, 1958, 2456)},
    4: {"coil": Rating(2286, 2021, 2774), "io": Rating(1960, 1784, 2830), "braincoral": Rating(1995, 1833, 2347), "branchingcoral": Rating(1729, 1596, 1888), "whirlwind": Rating(3349, 3222, 3661)},
    5: {"coil": Rating(2512, 2276, 2984), "io": Rating(2423, 2234, 3419), "braincoral": Rating(2129, 1953, 2519), "branchingcoral": Rating(1869, 1720, 2057), "whirlwind": Rating(3628, 3412, 4520)},
}


def measured_kinds(ratings: dict[int, dict[str, Rating | None]] | None = None) -> list[str]:
    """The game kinds (of :data:`KINDS`, in its order) that have a rating for at least one
    level in ``ratings`` (default :data:`RATINGS`); [] while nothing is measured."""
    table = RATINGS if ratings is None else ratings
    return [k for k in KINDS if any(row.get(k) is not None for row in table.values())]
