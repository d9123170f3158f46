"""Standings of tournaments and leagues (issue 21): the table's words (its header, the
tie-breaks' short names), standings as text and their picture's title and description, and
the final standings post.

Part of :mod:`bot.texts` (every sentence a player reads); split from
:mod:`bot.texts.tournaments`. Every function returns a message within Discord's 2000
characters (long lists end with "… and N more").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .common import count

if TYPE_CHECKING:
    from ..manager.values.tournaments import StandingRow, StandingsView, Tournament

__all__ = [
    "STANDINGS_MORE",
    "STANDINGS_WORDS",
    "TIE_BREAK_WORDS",
    "entrant_mention",
    "next_season_note",
    "score_text",
    "standings_alt",
    "standings_line",
    "standings_text",
    "standings_title",
    "tie_break_word",
    "tournament_final_post",
]

#: Short words for the tie-breaks in the standings' header, by the rules package's keys
#: (:class:`bot.rules.tournaments.standings.TieBreak` values): Sonneborn-Berger, Buchholz,
#: median Buchholz, the knockout round reached.
TIE_BREAK_WORDS = {"sonneborn_berger": "SB", "buchholz": "Buch", "median_buchholz": "Med",
                   "round_reached": "Round"}
#: The standings table's header words (the picture's and the text's).
STANDINGS_WORDS = {"rank": "#", "player": "Player", "rating": "Rating", "points": "Pts",
                   "left": "Left"}
#: The last line of a list cut short.
STANDINGS_MORE = "… and {n} more."


def tie_break_word(name: str) -> str:
    """The header word of a tie-break (``"Sonneborn-Berger"`` -> ``"SB"``)."""
    return TIE_BREAK_WORDS.get(name, name[:6])


def entrant_mention(user_id: int, level: int | None) -> str:
    """A player of a tournament: their mention, the computer's with its level."""
    return f"<@{user_id}>" + (f" (level {level})" if level is not None else "")


def standings_line(row: StandingRow) -> str:
    """One row of standings as text: ``"1. <@a> (1523) — **3** pts · SB 4.5 · 1 left"``."""
    breaks = "".join(f" · {tie_break_word(name)} {score_text(value)}" for name, value in row.tiebreaks)
    out = " (withdrawn)" if row.withdrawn else ""
    return (f"{row.rank}. {entrant_mention(row.user_id, row.computer_level)} ({round(row.rating)}) — "
            f"**{score_text(row.points)}** pts{breaks} · {row.left} left{out}")


def score_text(value: float) -> str:
    """A score: ``3``, ``2.5``, ``10.25``."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _standings_lines(view: StandingsView, head: list[str], limit: int = 2000) -> str:
    """``head``, then the rows of ``view`` (a league's under their division's title) as many
    as fit in ``limit`` characters, then "… and N more." naming the players left out."""
    room = limit - len(STANDINGS_MORE.format(n=9999)) - 1
    lines = list(head)
    division = None
    shown = 0
    for row in view.rows:
        new = []
        if row.division is not None and row.division != division:
            division = row.division
            new.append(f"__Division {division}__")
        new.append(standings_line(row))
        if len("\n".join(lines + new)) > room:
            break
        lines += new
        shown += 1
    if shown < len(view.rows):
        lines.append(STANDINGS_MORE.format(n=len(view.rows) - shown))
    return "\n".join(lines)[:limit]


def standings_text(view: StandingsView, after_round: int | None = None) -> str:
    """Standings as text (a post, ``after_round`` the round just completed; or
    /tournament standings): a head line, then every row that fits in one message,
    "… and N more." for the rest (the picture shows the first 32)."""
    return _standings_lines(view, [f"🏆 **{view.tournament.name}** — {_standings_state(view, after_round)}"])


def _standings_state(view: StandingsView, after_round: int | None) -> str:
    t = view.tournament
    if view.finished:
        return "final standings"
    if after_round is not None:
        return f"standings after round {after_round}"
    if t.status == "running":
        return "standings so far" if t.all_at_once else f"standings, round {t.current_round} under way"
    return "standings"


def tournament_final_post(view: StandingsView, next_season: Tournament | None = None) -> str:
    """The final standings: the winner (of each division in a league), who moves up and down,
    the next season when one started (``next_season``), then the table."""
    t = view.tournament
    winners = " and ".join(f"<@{uid}>" for uid in view.winners)
    lines = [f"🏆 **{t.name}** is over." + (f" Congratulations to {winners}!" if winners else "")]
    if view.promoted:
        lines.append(_fit_ids("Moving up: ", view.promoted))
    if view.relegated:
        lines.append(_fit_ids("Moving down: ", view.relegated))
    if next_season is not None:
        lines.append(next_season_note(next_season))
    return _standings_lines(view, lines)


def _fit_ids(head: str, ids: Sequence[int]) -> str:
    """``head`` and the mentions of ``ids``, at most 20 (then "and N more")."""
    shown = ", ".join(f"<@{uid}>" for uid in ids[:20])
    return head + shown + (f" and {len(ids) - 20} more" if len(ids) > 20 else "")


def next_season_note(t: Tournament) -> str:
    """Under a league's final standings: the next season has started."""
    return f"Season {t.season} of **{t.name}** has started: the pairings follow."


def standings_title(view: StandingsView, after_round: int | None = None) -> str:
    """The standings picture's title (``after_round`` as :func:`standings_text` takes it)."""
    return f"{view.tournament.name} — {_standings_state(view, after_round)}"


def standings_alt(view: StandingsView, shown: int) -> str:
    """The standings picture's description (alt text, ≤ 1024 characters)."""
    t = view.tournament
    return (f"Standings table of {t.name}: {count(shown, 'player')} by rank with rating, points, "
            f"tie-breaks and games left.")[:1024]
