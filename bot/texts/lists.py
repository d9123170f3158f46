"""Lists of games and players: /games, /history, leaderboards and profiles.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import engine

from .common import count, game_label, moves_played, title
from .computer import player_ref

__all__ = ["GAMES_LIST_MORE", "NO_GAMES", "NO_SERVER_GAMES", "SERVER_GAMES_MORE",
           "games_list_header", "games_list_line", "history_text", "leaderboard_header",
           "no_rated_games", "profile_text", "rank_line", "server_games_header",
           "server_games_line", "unrated_here"]

if TYPE_CHECKING:
    from ..manager.values import Game, Profile, RatingRow

NO_GAMES = "You have no games in progress. Start one with `/challenge`."
NO_SERVER_GAMES = "No games are in progress in this server. Start one with `/challenge`."


def games_list_header(playing: int, your_move: int) -> str:
    """The first line of /games."""
    return f"You are playing {playing} game{'s' if playing != 1 else ''}; your move in {your_move}:"


def games_list_line(g: Game, opponent: int, *, yours: bool, away: bool) -> str:
    """One game of /games (``g`` a :class:`bot.manager.Game`; ``away``: the opponent, to
    move, is on vacation)."""
    turn = "**your move**" if yours else "their move"
    due = f", due <t:{int(g.deadline)}:R> ({g.time_control.short})" if g.deadline else ""
    line = (f"• **{game_label(g.kind, g.id)}** vs {player_ref(g, opponent)} — {turn}{due}, "
            f"{moves_played(g.ply)} — <#{g.channel_for_posts}>")
    return line + (" (on vacation)" if away else "")


GAMES_LIST_MORE = "… and {n} more: pick them with the `game:` suggestions of /board."
SERVER_GAMES_MORE = "… and {n} more, not shown."


def server_games_header(n: int) -> str:
    """The first line of ``/games all:true``."""
    return f"{count(n, 'game')} in progress in this server — open a thread to watch:"


def server_games_line(g: Game) -> str:
    """One game of ``/games all:true``: its players, whose move, the deadline, its thread."""
    due = f", due <t:{int(g.deadline)}:R> ({g.time_control.short})" if g.deadline else ""
    return (f"• **{game_label(g.kind, g.id)}** {player_ref(g, g.players[1])} vs {player_ref(g, g.players[2])} — "
            f"<@{g.to_move_user}>'s move{due}, {count(g.ply, 'move')} played — <#{g.channel_for_posts}>")


def history_text(label: str, ply: int, *, over: bool) -> str:
    """The /history reply: the record, and whether a replay comes with it."""
    text = f"The record of **{label}** ({moves_played(ply)})."
    if over and ply == 0:
        text += " It ended before the first move, so there is no replay."
    elif over:
        text += " The animation replays it move by move."
    return text


def no_rated_games(kind: str) -> str:
    """/leaderboard of a game nobody has a rating in."""
    return f"Nobody has finished a rated game of {title(kind)} here yet. Be the first: `/challenge {kind}`."


def leaderboard_header(kind: str) -> str:
    """The first line of /leaderboard."""
    return (f"**{title(kind)}** — top ratings in this server (Glicko-2; `?`: provisional, "
            f"listed after the established ones)")


def rank_line(rank: int, row: RatingRow) -> str:
    """``"3. <@id> — **1523** (4 rated games)"`` (``row``: a leaderboard row; ``1523?`` while
    provisional)."""
    return f"{rank}. <@{row.user_id}> — **{row.short_text}** ({count(row.games, 'rated game')})"


def unrated_here(kind: str) -> str:
    """/leaderboard for a caller without a rating in ``kind``."""
    return f"You have no rated {title(kind)} game here yet."


def profile_text(user_id: int, p: Profile) -> str:
    """/profile of ``user_id`` (``p``: a :class:`bot.manager.Profile`), within 2000 characters."""
    lines = [f"**Profile of <@{user_id}>**"]
    kinds = [k for k in engine.MENU_ORDER if k in p.ratings or k in p.records]
    for kind in kinds:
        rating = p.ratings.get(kind)
        record = p.records.get(kind)
        parts = []
        if rating is not None:
            parts.append(f"rating **{rating.text}** ({rating.games} rated)")
        if record is not None:
            parts.append(f"{record.wins} won, {record.losses} lost, {record.draws} drawn")
        lines.append(f"• {title(kind)}: " + "; ".join(parts))
    if not kinds:
        lines.append("No finished games yet.")
    for r in getattr(p, "computer", ()):  # as_computer: the computer's own results (its /profile)
        who = "As the computer" if getattr(r, "as_computer", False) else "Against the computer"
        lines.append(f"• {who} at level {r.level}: {r.wins} won, {r.losses} lost, {r.draws} drawn")
    if p.active_games:
        ids = ", ".join(f"{game_label(g.kind, g.id)} (<#{g.channel_for_posts}>)" for g in p.active_games[:10])
        more = len(p.active_games) - 10
        lines.append(f"Playing now: {ids}" + (f", and {more} more." if more > 0 else "."))
    return "\n".join(lines)[:2000]
