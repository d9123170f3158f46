"""Tournaments and leagues (issue 21): the /tournament replies, the tournament posts (the
announcement with its Join button, a round's pairings, standings, the final standings), the
standings table's words and the thread name of a tournament game.

Part of :mod:`bot.texts` (every sentence a player reads). Refusals are worded in
:mod:`bot.texts.tournament_refusals`. Every function returns a message within Discord's 2000
characters (long lists end with "… and N more").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .common import count, fit_lines, game_label, options_text, title
from .standings import STANDINGS_MORE, entrant_mention

if TYPE_CHECKING:
    from ..manager.values import Game
    from ..manager.values.tournaments import (
        RoundPairing,
        Tournament,
        TournamentGame,
        TournamentInfo,
        TournamentLabel,
        Withdrawal,
    )

__all__ = [
    "JOIN_LABEL",
    "NO_TOURNAMENTS",
    "NO_TOURNAMENT_GAMES",
    "ORGANISER_ROLE_CLEARED",
    "ORGANISER_ROLE_NEEDS_MANAGE",
    "TOURNAMENT_FORMATS",
    "TOURNAMENT_STATES",
    "organiser_role_set",
    "pairing_line",
    "pairing_result",
    "tournament_announcement",
    "tournament_cancelled",
    "tournament_cancelled_post",
    "tournament_computer_added",
    "tournament_created",
    "tournament_format",
    "tournament_games_text",
    "tournament_info_text",
    "tournament_joined",
    "tournament_left",
    "tournament_list",
    "tournament_list_line",
    "tournament_removed",
    "tournament_round_post",
    "tournament_started",
    "tournament_terms",
    "tournament_thread_name",
    "tournament_withdrawn_post",
    "tournament_withdrew",
]

#: The label of the announcement's Join button (Discord allows 80 characters).
JOIN_LABEL = "Join"
#: How each format reads in a list ("Swiss" gets its rounds from :func:`tournament_format`).
TOURNAMENT_FORMATS = {"round_robin": "round robin", "double_round_robin": "double round robin",
                "swiss": "Swiss", "knockout": "knockout", "league": "league"}
#: The statuses as players read them.
TOURNAMENT_STATES = {"signup": "sign-up open", "running": "under way", "finished": "finished",
                "cancelled": "cancelled"}
NO_TOURNAMENTS = "This server has no tournaments yet. A moderator can start one with `/tournament create`."
NO_TOURNAMENT_GAMES = "You have no games in this tournament yet."
ORGANISER_ROLE_NEEDS_MANAGE = "Only members with Manage Server can choose who organises tournaments here."
ORGANISER_ROLE_CLEARED = "Only members with Manage Server can organise tournaments here now."


def organiser_role_set(role_id: int) -> str:
    """/tournament role: the role that may now organise tournaments."""
    return f"Members with <@&{role_id}> (and anyone with Manage Server) can now organise tournaments here."


def tournament_format(t: Tournament) -> str:
    """The format with its parameters: ``"Swiss, 5 rounds"``, ``"knockout, matches of 2
    games"``, ``"league, divisions of 8, 2 up and 2 down, season 3"``."""
    name = TOURNAMENT_FORMATS.get(t.format, t.format)
    if t.format == "swiss" and t.rounds:
        return f"{name}, {count(t.rounds, 'round')}"
    if t.format == "knockout":
        return f"{name}, matches of {count(t.games_per_match, 'game')}"
    if t.format == "league":
        return f"{name}, divisions of {t.division_size}, {t.promote} up and {t.promote} down, season {t.season}"
    return name


def tournament_terms(t: Tournament, clock_name: str) -> str:
    """The games' terms in one line: ``"Io (size 9) · 3 days a move · rated"``
    (``clock_name``: the clock as players read it, from the caller's TimeControl)."""
    opts = options_text(t.options)
    return f"{title(t.kind)}" + (f" ({opts})" if opts else "") + f" · {clock_name} · " + \
        ("rated" if t.rated else "unrated")


def _field(t: Tournament) -> str:
    """``"3 of 4-16 players"``."""
    size = str(t.min_players) if t.min_players == t.max_players else f"{t.min_players}-{t.max_players}"
    return f"{t.entrants} of {size} players"


def _signup_end(t: Tournament) -> str:
    """When sign-up closes, as a sentence."""
    if t.starts_at is None:
        return "The organiser starts it when the field is ready."
    return f"Sign-up closes and play starts <t:{int(t.starts_at)}:R> (<t:{int(t.starts_at)}:f>)."


def tournament_announcement(t: Tournament, clock_name: str) -> str:
    """The sign-up post, with the Join button under it."""
    return (f"🏆 **{t.name}** — a tournament ({tournament_format(t)}), organised by <@{t.organiser_id}>\n"
            f"{tournament_terms(t, clock_name)} · {_field(t)}\n{_signup_end(t)}\n"
            f"Press **{JOIN_LABEL}** below or use `/tournament join` to play; `/tournament leave` "
            f"takes you out until it starts.")


def tournament_created(t: Tournament, channel_id: int) -> str:
    """The organiser's note after /tournament create."""
    return (f"**{t.name}** is open for sign-up; its announcement is in <#{channel_id}>. Start it "
            f"with `/tournament start` once enough players joined.")


def tournament_joined(t: Tournament) -> str:
    """A player's note after joining."""
    return f"You are in **{t.name}** ({_field(t)}). Your games start when it does."


def tournament_left(t: Tournament) -> str:
    """A player's note after leaving during sign-up."""
    return f"You left **{t.name}**."


def tournament_computer_added(t: Tournament, level: int) -> str:
    """The organiser's note after entering the computer."""
    return f"The computer plays in **{t.name}** at level {level} ({_field(t)})."


def tournament_removed(t: Tournament, user_id: int) -> str:
    """The organiser's note after removing a player."""
    return f"<@{user_id}> is out of **{t.name}**."


def tournament_cancelled(t: Tournament) -> str:
    """The organiser's note after cancelling (the channel post is :func:`tournament_cancelled_post`)."""
    return f"**{t.name}** is cancelled. Games already started play on, outside the tournament's standings."


def tournament_withdrew(w: Withdrawal) -> str:
    """The note to a player who withdrew (or the organiser who removed them) from a running
    tournament: the rule for their games."""
    lost = (f" {count(len(w.forfeited), 'running game')} "
            f"({', '.join(game_label(g.kind, g.id) for g in w.forfeited[:5])}) "
            f"{'is' if len(w.forfeited) == 1 else 'are'} lost by forfeit.") if w.forfeited else ""
    return (f"<@{w.user_id}> has withdrawn from **{w.tournament.name}**. Finished games stand;{lost} "
            f"games not yet played count as forfeits where the format has them.")


def tournament_started(t: Tournament, games: int) -> str:
    """The organiser's note after /tournament start (``games``: how many started)."""
    return f"**{t.name}** has started: {_rounds_under_way(t)}, {count(games, 'game')}."


def _rounds_under_way(t: Tournament) -> str:
    """``"round 2"`` (of 5, a Swiss), or ``"all 6 rounds at once"`` (a round robin)."""
    if t.all_at_once:
        return f"all {count(t.current_round, 'round')} at once"
    return f"round {t.current_round}" + (f" of {t.rounds}" if t.rounds else "")


def tournament_list_line(t: Tournament, clock_name: str) -> str:
    """One tournament of /tournament list."""
    state = TOURNAMENT_STATES.get(t.status, t.status)
    if t.status == "running":
        state += f", {_rounds_under_way(t)}"
    return f"• **{t.name}** — {tournament_format(t)}; {tournament_terms(t, clock_name)}; {_field(t)}; {state}"


def tournament_list(lines: Sequence[str]) -> str:
    """/tournament list: the lines within Discord's limit."""
    if not lines:
        return NO_TOURNAMENTS
    return fit_lines([f"**Tournaments in this server** ({len(lines)})", *lines], more=STANDINGS_MORE)


def tournament_info_text(info: TournamentInfo, clock_name: str) -> str:
    """/tournament info: the terms, the state and the field, seeded order."""
    t = info.tournament
    state = TOURNAMENT_STATES.get(t.status, t.status)
    if t.status == "running":
        state += f", {_rounds_under_way(t)}"
    head = [f"🏆 **{t.name}** — {tournament_format(t)}, {state}",
            f"{tournament_terms(t, clock_name)} · organised by <@{t.organiser_id}>",
            _signup_end(t) if t.status == "signup" else f"{_field(t)}."]
    field = [f"{i}. {entrant_mention(e.user_id, e.computer_level)} — {round(e.seed_rating)}"
             + (" (withdrawn)" if e.status == "withdrawn" else "")
             for i, e in enumerate(info.entrants, 1)]
    return fit_lines(head + (["**Players** (by seed):", *field] if field else ["No players yet."]),
                     more=STANDINGS_MORE)


def pairing_line(p: RoundPairing, games: dict[int, Game]) -> str:
    """One board of a round: ``"3. <@a> vs <@b> — Io #12 in <#thread>"``, a bye, or its result."""
    if p.seat2 is None:
        return f"{p.board}. <@{p.seat1}> has a bye"
    line = f"{p.board}. <@{p.seat1}> vs <@{p.seat2}>"
    game = games.get(p.game_id) if p.game_id is not None else None
    if game is not None:
        line += f" — {game_label(game.kind, game.id)} in <#{game.channel_for_posts}>"
    if p.result is not None:
        line += " — " + pairing_result(p)
    return line


def pairing_result(p: RoundPairing) -> str:
    """A decided pairing's result: ``"1-0"``, ``"0-1"``, ``"½-½"``, ``"no result"`` (forfeits marked)."""
    word = {"seat1": "1-0", "seat2": "0-1", "draw": "½-½", "bye": "bye", "void": "no result"}.get(
        p.result or "", p.result or "")
    return word + (" (forfeit)" if p.forfeit else "")


def tournament_round_post(t: Tournament, round_no: int, pairings: Sequence[RoundPairing], games: Sequence[Game]) -> str:
    """A round's pairings, posted when its games start (a round robin's rounds all at once)."""
    by_id = {g.id: g for g in games}
    of = f" of {t.rounds}" if t.format == "swiss" and t.rounds else ""
    if t.all_at_once and t.current_round:
        of = f" of {t.current_round}"
    head = f"🏆 **{t.name}** — round {round_no}{of}: {count(len([p for p in pairings if p.seat2]), 'game')} start now"
    return fit_lines([head, *(pairing_line(p, by_id) for p in pairings)], more=STANDINGS_MORE)


def tournament_cancelled_post(t: Tournament) -> str:
    """The channel post when a tournament is cancelled (by the organiser, or a sign-up that
    closed with too few players)."""
    return f"🏆 **{t.name}** is cancelled. Games already started play on, outside the tournament."


def tournament_withdrawn_post(t: Tournament, user_id: int) -> str:
    """The channel post when a player leaves a running tournament."""
    return (f"🏆 <@{user_id}> has withdrawn from **{t.name}**. Their finished games stand; the rest "
            f"are forfeits.")


def tournament_games_text(t: Tournament, user_id: int, lines: Sequence[TournamentGame]) -> str:
    """/tournament mine: the caller's pairings in ``t`` (``lines``: each pairing with its
    game), round by round."""
    if not lines:
        return NO_TOURNAMENT_GAMES
    rows = [f"**Your games in {t.name}**"]
    for line in lines:
        p, game = line.pairing, line.game
        other = p.seat2 if p.seat1 == user_id else p.seat1
        if other is None:
            rows.append(f"Round {p.round}: a bye")
            continue
        text = f"Round {p.round}: vs <@{other}>"
        if game is not None:
            text += f" — {game_label(game.kind, game.id)} in <#{game.channel_for_posts}>"
        text += " — " + _outcome_for(p, user_id)
        rows.append(text)
    return fit_lines(rows, more=STANDINGS_MORE)


def _outcome_for(p: RoundPairing, user_id: int) -> str:
    """How pairing ``p`` went for ``user_id``: playing, won, lost, drawn, no result."""
    if p.result is None:
        return "playing"
    if p.result in ("draw", "void", "bye"):
        return {"draw": "drawn", "void": "no result", "bye": "a bye"}[p.result]
    won = (p.result == "seat1") == (user_id == p.seat1)
    return ("won" if won else "lost") + (" (forfeit)" if p.forfeit else "")


def tournament_thread_name(label: TournamentLabel, game: Game, first: str, second: str) -> str:
    """The name of a tournament game's thread (Discord allows 100 characters): the tournament,
    its round (and season), then the game and its players."""
    season = f" S{label.season}" if label.season is not None else ""
    return f"{label.name}{season} R{label.round} · {game_label(game.kind, game.id)}: {first} vs {second}"[:100]


