"""Shared pieces of wording: game titles and labels, counts, fitting lines into Discord's limits.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from collections.abc import Mapping

import engine

from .i18n import N_, _, ngettext
from .terms import options_words

__all__ = ["ATTACHMENT_DESCRIPTION", "BUTTON_LABELS", "button_label", "count", "fit_lines", "fit_sentences",
           "game_label", "moves_played", "options_text", "title"]

#: The labels of the bot's buttons, by the action in their custom id (Discord allows 80
#: characters): a challenge's three, /resign's, Rematch on a final board, move confirmation's
#: two and /next's. English message ids: the front labels a button with ``_(BUTTON_LABELS[action])``.
BUTTON_LABELS = {
    "accept": N_("Accept"),
    "decline": N_("Decline"),
    "cancel": N_("Cancel challenge"),
    "resign": N_("Resign"),
    "rematch": N_("Rematch"),
    "confirm": N_("Confirm"),
    "cancelmove": N_("Cancel"),
    "next": N_("Next"),
}


def button_label(action: str) -> str:
    """The label of a button by its action (a key of :data:`BUTTON_LABELS`), in the current
    language."""
    return _(BUTTON_LABELS[action])



def title(kind: str) -> str:
    """The display title of game ``kind`` ("braincoral" -> "Brain Coral"); an unknown key is
    shown as given."""
    game = engine.GAMES.get(kind)
    return game.title if game is not None else kind


def options_text(options: Mapping[str, object]) -> str:
    """Options as players read them, in the current language: ``"size 9, setup A"``; empty
    string when none (:func:`bot.texts.options_words`, from the engine's option specs)."""
    return options_words(options)


def count(n: int, noun: str) -> str:
    """``"1 move"``, ``"3 moves"``: a number with its noun, plural when not 1. English only
    (an "s" is added): a translated sentence counts with :func:`bot.texts.i18n.ngettext`."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def moves_played(n: int) -> str:
    """How a game's progress is counted everywhere: ``"no moves yet"``, ``"1 move played"``,
    ``"14 moves played"`` (a single move is named by its number: ``"move 14"``)."""
    if n == 0:
        return _("no moves yet")
    return ngettext("{n} move played", "{n} moves played", n).format(n=n)


#: What :func:`fit_lines` says of the lines it left out.
MORE = N_("… and {n} more.")


def fit_lines(lines: list[str], *, limit: int = 2000, hidden: int = 0,
              more: str | None = None) -> str:
    """``lines`` joined by newlines within ``limit`` characters (Discord's 2000 for a
    message): whole lines are dropped from the end, never cut, and replaced by ``more``
    (default :data:`MORE` in the current language) naming how many items are not shown
    (``hidden`` of them were left out beforehand). The first line is always kept (cut only
    if it alone is too long)."""
    more = _(MORE) if more is None else more
    kept = list(lines)
    while True:
        n = hidden + len(lines) - len(kept)
        text = "\n".join(kept + ([more.format(n=n)] if n else []))
        if len(text) <= limit or len(kept) <= 1:
            return text[:limit]
        kept.pop()


def game_label(kind: str, game_id: int) -> str:
    """``"Io #12"``."""
    return f"{title(kind)} #{game_id}"


# ---- image descriptions: the alt text of every attachment (issue 19) ------------------------
#: Discord's limit for an attachment's description (alt text), in characters (Message
#: resource, attachment request structure).
ATTACHMENT_DESCRIPTION = 1024


def fit_sentences(sentences: list[str], keep: int = 1, limit: int = ATTACHMENT_DESCRIPTION) -> str:
    """``sentences`` joined by spaces within ``limit`` characters: sentences after the first
    ``keep`` are dropped from the end while too long; what is kept is cut only if it alone is
    too long (with an ellipsis)."""
    kept = [s for s in sentences if s]
    while len(" ".join(kept)) > limit and len(kept) > keep:
        kept.pop()
    text = " ".join(kept)
    return text if len(text) <= limit else text[:limit - 1] + "…"
