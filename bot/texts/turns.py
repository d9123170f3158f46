"""Move confirmation, /next, /settings and the daily digest.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .common import count, fit_lines, game_label
from .computer import player_ref

__all__ = ["MOVE_CANCELLED", "NOTHING_MORE_WAITING", "NOTHING_WAITING", "NOT_YOUR_CONFIRMATION",
           "NOT_YOUR_QUEUE", "confirm_prompt", "digest_text", "next_text", "position_changed",
           "settings_text"]

if TYPE_CHECKING:
    from ..manager.values import Game, UserSettings


# ---- move confirmation, /next, /settings, the daily digest (issue 13) -----------------------
def position_changed(game: Game) -> str:
    """A Confirm pressed after the game moved on (``game``: a :class:`bot.manager.Game` as now)."""
    label = game_label(game.kind, game.id)
    if game.status != "active":
        return f"{label} is over ({game.reason or 'ended'}): your move was not played."
    return (f"The position in {label} changed since you chose that move: it was not played. "
            f"Look at the board (`/board`) and move again.")


NOT_YOUR_CONFIRMATION = "These buttons belong to someone else's move."
NOT_YOUR_QUEUE = "This button belongs to someone else's /next."
MOVE_CANCELLED = "Cancelled: nothing was played. Move again with `/move` when you are ready."
NOTHING_WAITING = "No game is waiting for your move. Enjoy the break, or start one with `/challenge`."
NOTHING_MORE_WAITING = "That was the last game waiting for your move."


def confirm_prompt(label: str, move: str, effect: str) -> str:
    """Over the preview board of a move waiting for Confirm (only the mover sees it)."""
    return (f"**{label}** · the board after `{move}`{effect}. Nothing is played until you press "
            f"**Confirm**.")


def _game_link(g: Game) -> str:
    return f"https://discord.com/channels/{g.guild_id}/{g.channel_for_posts}"


def next_text(g: Game, opponent: int, clock: str, index: int, total: int) -> str:
    """/next: the game waiting for you with the least time left (``clock``: its clock and the
    time left), its number among ``total`` waiting games."""
    assert g.deadline is not None  # a game waiting for a move has a deadline
    return (f"**{game_label(g.kind, g.id)}** vs {player_ref(g, opponent)} — your move ({index} of {total} "
            f"waiting), {clock}, due <t:{int(g.deadline)}:R>.\nThread: <#{g.channel_for_posts}>")


def digest_text(lines: list[tuple[Game, int, str]]) -> str:
    """The daily digest: each game waiting (game, opponent id, clock with time left)."""
    head = f"Your daily Stonecast digest: {count(len(lines), 'game')} waiting for your move."
    body = [f"• **{game_label(g.kind, g.id)}** vs {player_ref(g, opp)} — {clock} — {_game_link(g)}"
            for g, opp, clock in lines]
    return fit_lines([head, *body], more="… and {n} more: see /games.")


def settings_text(s: UserSettings) -> str:
    """/settings: the caller's settings now (``s``: a :class:`bot.manager.UserSettings`)."""
    if s.dm_mode == "digest":
        dm = f"a daily digest at {s.digest_hour:02d}:00 UTC"
    else:
        dm = "on (one when it becomes your move)" if s.dm else "off (the thread mention only)"
    confirm = "on (Confirm or Cancel after /move)" if s.confirm else "off"
    return (f"Your settings — direct messages: {dm}; move confirmation: {confirm}.\n"
            f"Change them with `/settings dm:` (off, on, digest with `hour:`) and `/settings confirm:`.")
