"""Tournament standings (issue 21): the standings table's words, standings as text and as a
picture's title and description, and the final standings post.

Part of :mod:`bot.texts` (every sentence a player reads), split from
:mod:`bot.texts.tournaments` (which re-exports every public name here). Every function returns
a message within Discord's 2000 characters (long lists end with "… and N more").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from babel.numbers import format_decimal

from .i18n import N_, _, babel_locale, ngettext
from .lists import join_sentences

if TYPE_CHECKING:
    from ..manager.values.tournaments import StandingRow, StandingsView, Tournament

__all__ = ["STANDINGS_MORE", "STANDINGS_WORDS", "TIE_BREAK_WORDS", "next_season_note",
           "score_text", "standings_alt", "standings_line", "standings_text", "standings_title",
           "standings_words", "tie_break_word", "tournament_final_post", "who"]


#: Short words for the tie-breaks in the standings' header, by the rules package's keys
#: (:class:`bot.rules.tournaments.standings.TieBreak` values): Sonneborn-Berger, Buchholz,
#: median Buchholz, the knockout round reached.
TIE_BREAK_WORDS = {"sonneborn_berger": N_("SB"), "buchholz": N_("Buch"), "median_buchholz": N_("Med"),
                   "round_reached": N_("Round")}


#: The standings table's header words (the picture's and the text's).
STANDINGS_WORDS = {"rank": "#", "player": N_("Player"), "rating": N_("Rating"), "points": N_("Pts"),
                   "left": N_("Left")}


STANDINGS_MORE = N_("… and {n} more.")


def standings_words() -> dict[str, str]:
    """:data:`STANDINGS_WORDS` in the current language (the standings picture's header)."""
    return {key: _(word) if word != "#" else word for key, word in STANDINGS_WORDS.items()}


def tie_break_word(name: str) -> str:
    """The header word of a tie-break (``"Sonneborn-Berger"`` -> ``"SB"``)."""
    word = TIE_BREAK_WORDS.get(name)
    return _(word) if word is not None else name[:6]


def who(user_id: int, level: int | None) -> str:
    """A tournament player: their mention, and the computer's level (``"<@id> (level 3)"``)."""
    if level is None:
        return f"<@{user_id}>"
    return _("{player} (level {level})").format(player=f"<@{user_id}>", level=level)


def standings_line(row: StandingRow) -> str:
    """One row of standings as text: ``"1. <@a> (1523) — **3** pts · SB 4.5 · 1 left"``."""
    breaks = "".join(f" · {tie_break_word(name)} {score_text(value)}" for name, value in row.tiebreaks)
    out = _(" (withdrawn)") if row.withdrawn else ""
    return _("{rank}. {player} ({rating}) — **{points}** pts{tiebreaks} · {left} left{withdrawn}").format(
        rank=row.rank, player=who(row.user_id, row.computer_level), rating=round(row.rating),
        points=score_text(row.points), tiebreaks=breaks, left=row.left, withdrawn=out)


def score_text(value: float) -> str:
    """A score: ``3``, ``2.5``, ``10.25``."""
    if float(value).is_integer():
        return str(int(value))
    return format_decimal(round(value, 2), locale=babel_locale())


def _standings_lines(view: StandingsView, head: list[str], limit: int = 2000) -> str:
    """``head``, then the rows of ``view`` (a league's under their division's title) as many
    as fit in ``limit`` characters, then "… and N more." naming the players left out."""
    more = _(STANDINGS_MORE)
    room = limit - len(more.format(n=9999)) - 1
    lines = list(head)
    division = None
    shown = 0
    for row in view.rows:
        new = []
        if row.division is not None and row.division != division:
            division = row.division
            new.append(_("__Division {division}__").format(division=division))
        new.append(standings_line(row))
        if len("\n".join(lines + new)) > room:
            break
        lines += new
        shown += 1
    if shown < len(view.rows):
        lines.append(more.format(n=len(view.rows) - shown))
    return "\n".join(lines)[:limit]


def standings_text(view: StandingsView, after_round: int | None = None) -> str:
    """Standings as text (a post, ``after_round`` the round just completed; or
    /tournament standings): a head line, then every row that fits in one message,
    "… and N more." for the rest (the picture shows the first 32)."""
    return _standings_lines(view, ["🏆 " + _standings_head(f"**{view.tournament.name}**", view, after_round)])


def _standings_head(name: str, view: StandingsView, after_round: int | None) -> str:
    """``"<name> — standings after round 3"`` (``name``: the tournament's name as shown)."""
    t = view.tournament
    if view.finished:
        return _("{name} — final standings").format(name=name)
    if after_round is not None:
        return _("{name} — standings after round {round}").format(name=name, round=after_round)
    if t.status == "running" and t.all_at_once:  # a round robin's rounds end in any order
        return _("{name} — standings so far").format(name=name)
    if t.status == "running":
        return _("{name} — standings, round {round} under way").format(name=name, round=t.current_round)
    return _("{name} — standings").format(name=name)


def tournament_final_post(view: StandingsView, next_season: Tournament | None = None) -> str:
    """The final standings: the winner (of each division in a league), who moves up and down,
    the next season when one started (``next_season``), then the table."""
    t = view.tournament
    winners = _(" and ").join(f"<@{uid}>" for uid in view.winners)
    head = _("🏆 **{name}** is over.").format(name=t.name)
    if winners:
        head = join_sentences(head, _("Congratulations to {winners}!").format(winners=winners))
    lines = [head]
    if view.promoted:
        lines.append(_("Moving up: {players}").format(players=_fit_ids(view.promoted)))
    if view.relegated:
        lines.append(_("Moving down: {players}").format(players=_fit_ids(view.relegated)))
    if next_season is not None:
        lines.append(next_season_note(next_season))
    return _standings_lines(view, lines)


def _fit_ids(ids: Sequence[int]) -> str:
    """The mentions of ``ids``, at most 20 (then "and N more")."""
    shown = ", ".join(f"<@{uid}>" for uid in ids[:20])
    return _("{items} and {n} more").format(items=shown, n=len(ids) - 20) if len(ids) > 20 else shown


def next_season_note(t: Tournament) -> str:
    """Under a league's final standings: the next season has started."""
    return _("Season {season} of **{name}** has started: the pairings follow.").format(season=t.season, name=t.name)


def standings_title(view: StandingsView, after_round: int | None = None) -> str:
    """The standings picture's title (``after_round`` as :func:`standings_text` takes it)."""
    return _standings_head(view.tournament.name, view, after_round)


def standings_alt(view: StandingsView, shown: int) -> str:
    """The standings picture's description (alt text, ≤ 1024 characters)."""
    t = view.tournament
    return ngettext("Standings table of {name}: {n} player by rank with rating, points, tie-breaks and games left.",
                    "Standings table of {name}: {n} players by rank with rating, points, tie-breaks and games left.",
                    shown).format(name=t.name, n=shown)[:1024]
