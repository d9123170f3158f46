"""Conditional moves: storing, listing and clearing prepared lines.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from .common import count, fit_lines

__all__ = ["CONDITIONAL_MORE", "FROM_CONDITIONAL", "conditional_board", "conditional_cleared",
           "conditional_list", "conditional_stored"]

# ---- conditional moves (issue 13) ---------------------------------------------------------
FROM_CONDITIONAL = " — played from a conditional move"


CONDITIONAL_MORE = "… and {n} more: see each with `/conditional list board:` and its number."


def _numbered(head: str, lines: list[str], tail: str = "") -> str:
    """``head``, the lines numbered from 1, then ``tail``, within Discord's 2000 characters:
    lines that do not fit are left out from the end and counted by CONDITIONAL_MORE (20 lines
    of 20 steps are longer than a message)."""
    numbered = [f"{i}. `{line}`" for i, line in enumerate(lines, 1)]
    return fit_lines([head, *numbered], limit=2000 - len(tail), more=CONDITIONAL_MORE) + tail


def conditional_stored(label: str, lines: list[str]) -> str:
    """The /conditional add answer: every line now stored in the game (as many as fit)."""
    return _numbered(f"Stored. Your conditional moves in {label} ({count(len(lines), 'line')}; "
                     f"only you see them):", lines)


def conditional_list(label: str, lines: list[str]) -> str:
    """The /conditional list answer (as many lines as fit)."""
    if not lines:
        return (f"You have no conditional moves in {label}. Add one with /conditional add, e.g. "
                f"`e5; d4` (their move; your reply).")
    return _numbered(f"Your conditional moves in {label} (only you see them):", lines,
                     "\nAdd `board:` with a line's number to see the board at its end.")


def conditional_board(label: str, index: int, line: str) -> str:
    """The text over the board at the end of a stored line."""
    return f"{label}, line {index}: `{line}` — the board if it is all played."


def conditional_cleared(label: str, n: int) -> str:
    """The /conditional clear answer."""
    if not n:
        return f"You had no conditional moves in {label}."
    return f"Removed your {count(n, 'conditional line')} in {label}."
