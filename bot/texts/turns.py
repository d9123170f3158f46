"""Move confirmation, /next, /settings and the daily digest.

Part of :mod:`bot.texts` (every sentence a player reads), in the current language
(:mod:`bot.texts.i18n`); constants are English message ids, translated where they are used."""

from __future__ import annotations

from typing import TYPE_CHECKING

import engine

from .common import fit_lines, game_label
from .computer import player_ref
from .i18n import N_, _, ngettext

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
        return _("{game} is over ({why}): your move was not played.").format(
            game=label, why=_game_end_words(game.reason))
    return _("The position in {game} changed since you chose that move: it was not played. "
             "Look at the board (`/board`) and move again.").format(game=label)


#: Why a game is over in one or two words, by :class:`engine.Termination` (its own word in English).
END_WORDS: dict[engine.Termination, str] = {
    engine.Termination.COIL: N_("coil"),
    engine.Termination.BOARD_FULL: N_("board full"),
    engine.Termination.STONES: N_("stones"),
    engine.Termination.SCORE: N_("score"),
    engine.Termination.CONNECTION: N_("connection"),
    engine.Termination.NO_MOVES: N_("no moves"),
    engine.Termination.RESIGNATION: N_("resignation"),
    engine.Termination.TIMEOUT: N_("timeout"),
}


def _game_end_words(reason: str | None) -> str:
    """Why a game is over in a word or two (:data:`END_WORDS`); ``"ended"`` when it has no
    reason, and a word that names no :class:`engine.Termination` as it is."""
    ending = engine.Termination.read(reason)
    if ending is not None:
        return _(END_WORDS[ending])
    return reason or _("ended")


NOT_YOUR_CONFIRMATION = N_("These buttons belong to someone else's move.")
NOT_YOUR_QUEUE = N_("This button belongs to someone else's /next.")
MOVE_CANCELLED = N_("Cancelled: nothing was played. Move again with `/move` when you are ready.")
NOTHING_WAITING = N_("No game is waiting for your move. Enjoy the break, or start one with `/challenge`.")
NOTHING_MORE_WAITING = N_("That was the last game waiting for your move.")


def confirm_prompt(label: str, move: str, effect: str) -> str:
    """Over the preview board of a move waiting for Confirm (only the mover sees it)."""
    return _("**{game}** · the board after `{move}`{effect}. Nothing is played until you press "
             "**Confirm**.").format(game=label, move=move, effect=effect)


def _game_link(g: Game) -> str:
    return f"https://discord.com/channels/{g.guild_id}/{g.channel_for_posts}"


def next_text(g: Game, opponent: int, clock: str, index: int, total: int) -> str:
    """/next: the game waiting for you with the least time left (``clock``: its clock and the
    time left), its number among ``total`` waiting games."""
    assert g.deadline is not None  # a game waiting for a move has a deadline
    return (_("**{game}** vs {opponent} — your move ({index} of {total} waiting), {clock}, due {when}.").format(
        game=game_label(g.kind, g.id), opponent=player_ref(g, opponent), index=index, total=total, clock=clock,
        when=f"<t:{int(g.deadline)}:R>") + "\n" + _("Thread: {thread}").format(thread=f"<#{g.channel_for_posts}>"))


def digest_text(lines: list[tuple[Game, int, str]]) -> str:
    """The daily digest: each game waiting (game, opponent id, clock with time left)."""
    n = len(lines)
    head = ngettext("Your daily Stonecast digest: {n} game waiting for your move.",
                    "Your daily Stonecast digest: {n} games waiting for your move.", n).format(n=n)
    body = ["• " + _("**{game}** vs {opponent} — {clock} — {link}").format(
                game=game_label(g.kind, g.id), opponent=player_ref(g, opp), clock=clock, link=_game_link(g))
            for g, opp, clock in lines]
    return fit_lines([head, *body], more=_("… and {n} more: see /games."))


def settings_text(s: UserSettings) -> str:
    """/settings: the caller's settings now (``s``: a :class:`bot.manager.UserSettings`)."""
    if s.dm_mode == "digest":
        dm = _("a daily digest at {time} UTC").format(time=f"{s.digest_hour:02d}:00")
    else:
        dm = _("on (one when it becomes your move)") if s.dm else _("off (the thread mention only)")
    confirm = _("on (Confirm or Cancel after /move)") if s.confirm else _("off")
    return (_("Your settings — direct messages: {dm}; move confirmation: {confirm}.").format(dm=dm, confirm=confirm)
            + "\n" + _("Change them with `/settings dm:` (off, on, digest with `hour:`) and `/settings confirm:`."))
