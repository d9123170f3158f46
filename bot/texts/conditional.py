"""Conditional moves: storing, listing and clearing prepared lines.

Part of :mod:`bot.texts` (every sentence a player reads), in the current language
(:mod:`bot.texts.i18n`); constants are English message ids, translated where they are used."""

from __future__ import annotations

from .common import fit_lines
from .i18n import N_, _, ngettext

__all__ = ["CONDITIONAL_MORE", "FROM_CONDITIONAL", "conditional_board", "conditional_cleared",
           "conditional_list", "conditional_stored"]

# ---- conditional moves (issue 13) ---------------------------------------------------------
#: Added to the headline of a move played from a conditional line.
FROM_CONDITIONAL = N_(" — played from a conditional move")


CONDITIONAL_MORE = N_("… and {n} more: see each with `/conditional list board:` and its number.")


def _numbered(head: str, lines: list[str], tail: str = "") -> str:
    """``head``, the lines numbered from 1, then ``tail``, within Discord's 2000 characters:
    lines that do not fit are left out from the end and counted by CONDITIONAL_MORE (20 lines
    of 20 steps are longer than a message)."""
    numbered = [f"{i}. `{line}`" for i, line in enumerate(lines, 1)]
    return fit_lines([head, *numbered], limit=2000 - len(tail), more=_(CONDITIONAL_MORE)) + tail


def conditional_stored(label: str, lines: list[str]) -> str:
    """The /conditional add answer: every line now stored in the game (as many as fit)."""
    n = len(lines)
    return _numbered(ngettext("Stored. Your conditional moves in {game} ({n} line; only you see them):",
                              "Stored. Your conditional moves in {game} ({n} lines; only you see them):",
                              n).format(game=label, n=n), lines)


def conditional_list(label: str, lines: list[str]) -> str:
    """The /conditional list answer (as many lines as fit)."""
    if not lines:
        return _("You have no conditional moves in {game}. Add one with /conditional add, e.g. "
                 "`e5; d4` (their move; your reply).").format(game=label)
    return _numbered(_("Your conditional moves in {game} (only you see them):").format(game=label), lines,
                     "\n" + _("Add `board:` with a line's number to see the board at its end."))


def conditional_board(label: str, index: int, line: str) -> str:
    """The text over the board at the end of a stored line."""
    return _("{game}, line {index}: `{line}` — the board if it is all played.").format(
        game=label, index=index, line=line)


def conditional_cleared(label: str, n: int) -> str:
    """The /conditional clear answer."""
    if not n:
        return _("You had no conditional moves in {game}.").format(game=label)
    return ngettext("Removed your {n} conditional line in {game}.",
                    "Removed your {n} conditional lines in {game}.", n).format(n=n, game=label)
