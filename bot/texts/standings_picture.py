"""The standings picture's own words (issue 21): the label over each league division's
section of the table.

Part of :mod:`bot.texts` (every sentence a player reads); beside :mod:`bot.texts.standings`
(the table's header words, its title and description), kept apart so that its catalog
(``locale/<lang>/LC_MESSAGES/tournament_picture.po``) is its own.
"""

from __future__ import annotations

from .i18n import _

__all__ = ["division_label"]


def division_label(number: int) -> str:
    """The label over a league division's rows in the standings picture: ``"Division 1"``
    (1 is the top division)."""
    return _("Division {number}").format(number=number)
