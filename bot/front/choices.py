"""Autocomplete labels for ``game:`` options: the manager's :class:`~bot.manager.GameChoice`
values worded by the texts layer, matched against what the user typed and cut to Discord's
25 choices.

Pure functions (no Discord, no store): ``name_of(user id)`` gives the name the bot knows for
a player (``None``: unknown); a player who had their data deleted is never named
(:data:`bot.texts.DELETED_PLAYER`, issue 18).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from bot import texts
from bot.manager import GameChoice
from bot.texts.i18n import _

#: Discord's most choices in one autocomplete answer.
MAX_CHOICES = 25

NameOf = Callable[[int], str | None]


def _name(choice: GameChoice, user_id: int, name_of: NameOf | None) -> str | None:
    """The name a label shows for player ``user_id`` of ``choice``."""
    if user_id in choice.deleted:
        return _(texts.DELETED_PLAYER)
    return name_of(user_id) if name_of is not None else None


def _names(choice: GameChoice, name_of: NameOf | None) -> tuple[str | None, str | None]:
    """The names a label shows for seats 1 and 2 of ``choice``."""
    return _name(choice, choice.players[0], name_of), _name(choice, choice.players[1], name_of)


def _matching(labelled: Iterable[tuple[GameChoice, str]], prefix: str, limit: int) -> list[tuple[int, str]]:
    """``(game id, label)`` of the choices whose number starts with ``prefix`` (``#`` and
    case ignored) or whose label contains it, in order, at most ``limit`` (and 25)."""
    p = (prefix or "").strip().lower().lstrip("#")
    out = [(c.game_id, label) for c, label in labelled
           if not p or str(c.game_id).startswith(p) or p in label.lower()]
    return out[:max(0, min(limit, MAX_CHOICES))]


def game_choices(user_id: int, choices: Sequence[GameChoice], prefix: str, *, limit: int = MAX_CHOICES,
                 name_of: NameOf | None = None) -> list[tuple[int, str]]:
    """``user_id``'s games (:meth:`bot.manager.GameManager.complete_game`) as ``(game id,
    label)``: ``"Io #12 vs Bob · your turn"`` (:func:`bot.texts.game_choice`)."""
    def label(c: GameChoice) -> str:
        opponent = c.opponent_of(user_id)
        state = "waiting" if c.waiting else c.status
        return texts.game_choice(texts.game_label(c.kind, c.game_id),
                                 None if opponent is None else _name(c, opponent, name_of), state)

    return _matching(((c, label(c)) for c in choices), prefix, limit)


def server_game_choices(choices: Sequence[GameChoice], prefix: str, *, limit: int = MAX_CHOICES,
                        name_of: NameOf | None = None) -> list[tuple[int, str]]:
    """A server's games in progress (:meth:`bot.manager.GameManager.complete_server_game`) as
    ``(game id, label)`` for /abort: ``"Io #12 · Ann vs Bob · 14 moves played"``."""
    return _matching(((c, texts.server_game_choice(texts.game_label(c.kind, c.game_id),
                                                   *_names(c, name_of), c.ply)) for c in choices),
                     prefix, limit)


def reviewable_game_choices(choices: Sequence[GameChoice], prefix: str, *, limit: int = MAX_CHOICES,
                            name_of: NameOf | None = None) -> list[tuple[int, str]]:
    """The games /review can chart (:meth:`bot.manager.GameManager.complete_reviewable_game`)
    as ``(game id, label)``: ``"Io #12 · Ann vs Bob · 14 moves played"``
    (:func:`bot.texts.finished_game_choice`); the number typed, when it names one, first."""
    p = (prefix or "").strip().lower().lstrip("#")
    ordered = sorted(choices, key=lambda c: str(c.game_id) != p)  # stable: else newest first
    return _matching(((c, texts.finished_game_choice(texts.game_label(c.kind, c.game_id),
                                                     *_names(c, name_of), c.ply)) for c in ordered),
                     prefix, limit)
