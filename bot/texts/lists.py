"""Lists of games and players: /games, /history, leaderboards and profiles.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import engine

from .commands import command_word
from .common import game_label, moves_played, title
from .computer import player_ref
from .i18n import N_, _, current_locale, ngettext

__all__ = ["GAMES_LIST_MORE", "NO_GAMES", "NO_SERVER_GAMES", "SERVER_GAMES_MORE",
           "games_list_header", "games_list_line", "history_text", "leaderboard_header",
           "no_rated_games", "profile_text", "rank_line", "server_games_header",
           "server_games_line", "unrated_here"]

if TYPE_CHECKING:
    from ..manager.values import Game, Profile, RatingRow

NO_GAMES = N_("You have no games in progress. Start one with `/challenge`.")
NO_SERVER_GAMES = N_("No games are in progress in this server. Start one with `/challenge`.")


def games_list_header(playing: int, your_move: int) -> str:
    """The first line of /games."""
    return ngettext("You are playing {n} game; your move in {yours}:",
                    "You are playing {n} games; your move in {yours}:", playing).format(n=playing, yours=your_move)


def games_list_line(g: Game, opponent: int, *, yours: bool, away: bool) -> str:
    """One game of /games (``g`` a :class:`bot.manager.Game`; ``away``: the opponent, to
    move, is on vacation)."""
    turn = _("**your move**") if yours else _("their move")
    due = _(", due {when} ({clock})").format(when=f"<t:{int(g.deadline)}:R>", clock=g.time_control.short) \
        if g.deadline else ""
    line = _("• **{game}** vs {opponent} — {turn}{due}, {progress} — {thread}").format(
        game=game_label(g.kind, g.id), opponent=player_ref(g, opponent), turn=turn, due=due,
        progress=moves_played(g.ply), thread=f"<#{g.channel_for_posts}>")
    return line + (_(" (on vacation)") if away else "")


GAMES_LIST_MORE = N_("… and {n} more: pick them with the `game:` suggestions of /board.")
SERVER_GAMES_MORE = N_("… and {n} more, not shown.")


def server_games_header(n: int) -> str:
    """The first line of ``/games all:true``."""
    return ngettext("{n} game in progress in this server — open a thread to watch:",
                    "{n} games in progress in this server — open a thread to watch:", n).format(n=n)


def server_games_line(g: Game) -> str:
    """One game of ``/games all:true``: its players, whose move, the deadline, its thread."""
    due = _(", due {when} ({clock})").format(when=f"<t:{int(g.deadline)}:R>", clock=g.time_control.short) \
        if g.deadline else ""
    return ngettext("• **{game}** {first} vs {second} — {mover}'s move{due}, {n} move played — {thread}",
                    "• **{game}** {first} vs {second} — {mover}'s move{due}, {n} moves played — {thread}",
                    g.ply).format(game=game_label(g.kind, g.id), first=player_ref(g, g.players[1]),
                                  second=player_ref(g, g.players[2]), mover=f"<@{g.to_move_user}>", due=due,
                                  n=g.ply, thread=f"<#{g.channel_for_posts}>")


def history_text(label: str, ply: int, *, over: bool) -> str:
    """The /history reply: the record, and whether a replay comes with it."""
    text = _("The record of **{game}** ({progress}).").format(game=label, progress=moves_played(ply))
    if over and ply == 0:
        return join_sentences(text, _("It ended before the first move, so there is no replay."))
    if over:
        return join_sentences(text, _("The animation replays it move by move."))
    return text


#: Languages that write sentences one after another without a space (Japanese).
UNSPACED = frozenset({"ja"})


def join_sentences(*sentences: str) -> str:
    """``sentences`` (each worded whole) one after another as the current language writes
    them: with a space, or none in Japanese (:data:`UNSPACED`); empty ones left out."""
    return ("" if current_locale() in UNSPACED else " ").join(s for s in sentences if s)


def no_rated_games(kind: str) -> str:
    """/leaderboard of a game nobody has a rating in."""
    return _("Nobody has finished a rated game of {game} here yet. Be the first: {command}.").format(
        game=title(kind), command=f"`/{command_word('challenge')} {kind}`")  # the command as the reader's Discord names it


def leaderboard_header(kind: str) -> str:
    """The first line of /leaderboard."""
    return _("**{game}** — top ratings in this server (Glicko-2; `?`: provisional, "
             "listed after the established ones)").format(game=title(kind))


def rank_line(rank: int, row: RatingRow) -> str:
    """``"3. <@id> — **1523** (4 rated games)"`` (``row``: a leaderboard row; ``1523?`` while
    provisional)."""
    return ngettext("{rank}. {player} — **{rating}** ({n} rated game)",
                    "{rank}. {player} — **{rating}** ({n} rated games)", row.games).format(
        rank=rank, player=f"<@{row.user_id}>", rating=row.short_text, n=row.games)


def unrated_here(kind: str) -> str:
    """/leaderboard for a caller without a rating in ``kind``."""
    return _("You have no rated {game} game here yet.").format(game=title(kind))


def profile_text(user_id: int, p: Profile) -> str:
    """/profile of ``user_id`` (``p``: a :class:`bot.manager.Profile`), within 2000 characters."""
    lines = [_("**Profile of {player}**").format(player=f"<@{user_id}>")]
    kinds = [k for k in engine.MENU_ORDER if k in p.ratings or k in p.records]
    for kind in kinds:
        rating = p.ratings.get(kind)
        record = p.records.get(kind)
        parts = []
        if rating is not None:
            parts.append(_("rating **{rating}** ({n} rated)").format(rating=rating.text, n=rating.games))
        if record is not None:
            parts.append(_record(record.wins, record.losses, record.draws))
        lines.append(_("• {game}: {parts}").format(game=title(kind), parts="; ".join(parts)))
    if not kinds:
        lines.append(_("No finished games yet."))
    for r in getattr(p, "computer", ()):  # as_computer: the computer's own results (its /profile)
        line = (_("• As the computer at level {level}: {record}") if getattr(r, "as_computer", False)
                else _("• Against the computer at level {level}: {record}"))
        lines.append(line.format(level=r.level, record=_record(r.wins, r.losses, r.draws)))
    if p.active_games:
        ids = ", ".join(f"{game_label(g.kind, g.id)} (<#{g.channel_for_posts}>)" for g in p.active_games[:10])
        more = len(p.active_games) - 10
        lines.append(_("Playing now: {games}, and {n} more.").format(games=ids, n=more) if more > 0
                     else _("Playing now: {games}.").format(games=ids))
    return "\n".join(lines)[:2000]


def _record(wins: int, losses: int, draws: int) -> str:
    """``"3 won, 1 lost, 0 drawn"``."""
    return _("{wins} won, {losses} lost, {draws} drawn").format(wins=wins, losses=losses, draws=draws)
