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

from .commands import pgettext
from .common import fit_lines, game_label, options_text, title
from .i18n import N_, _, ngettext
from .standings import (
    STANDINGS_MORE,
    STANDINGS_WORDS,
    TIE_BREAK_WORDS,
    next_season_note,
    score_text,
    standings_alt,
    standings_line,
    standings_text,
    standings_title,
    standings_words,
    tie_break_word,
    tournament_final_post,
    who,
)

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
    "STANDINGS_MORE",
    "STANDINGS_WORDS",
    "TIE_BREAK_WORDS",
    "TOURNAMENT_FORMATS",
    "TOURNAMENT_STATES",
    "next_season_note",
    "organiser_role_set",
    "pairing_line",
    "pairing_result",
    "score_text",
    "standings_alt",
    "standings_line",
    "standings_text",
    "standings_title",
    "standings_words",
    "tie_break_word",
    "tournament_announcement",
    "tournament_state",
    "tournament_cancelled",
    "tournament_cancelled_post",
    "tournament_computer_added",
    "tournament_created",
    "tournament_final_post",
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
JOIN_LABEL = N_("Join")
#: How each format reads in a list ("Swiss" gets its rounds from :func:`tournament_format`).
TOURNAMENT_FORMATS = {"round_robin": N_("round robin"), "double_round_robin": N_("double round robin"),
                      "swiss": N_("Swiss"), "knockout": N_("knockout"), "league": N_("league")}
#: The statuses as players read them.
TOURNAMENT_STATES = {"signup": "sign-up open", "running": "under way", "finished": "finished",
                     "cancelled": "cancelled"}  # worded by tournament_state
NO_TOURNAMENTS = N_("This server has no tournaments yet. A moderator can start one with `/tournament create`.")
NO_TOURNAMENT_GAMES = N_("You have no games in this tournament yet.")
ORGANISER_ROLE_NEEDS_MANAGE = N_("Only members with Manage Server can choose who organises tournaments here.")
ORGANISER_ROLE_CLEARED = N_("Only members with Manage Server can organise tournaments here now.")


def organiser_role_set(role_id: int) -> str:
    """/tournament role: the role that may now organise tournaments."""
    return _("Members with {role} (and anyone with Manage Server) can now organise tournaments here.").format(
        role=f"<@&{role_id}>")


def tournament_format(t: Tournament) -> str:
    """The format with its parameters: ``"Swiss, 5 rounds"``, ``"knockout, matches of 2
    games"``, ``"league, divisions of 8, 2 up and 2 down, season 3"``."""
    name = _(TOURNAMENT_FORMATS[t.format]) if t.format in TOURNAMENT_FORMATS else t.format
    if t.format == "swiss" and t.rounds:
        return ngettext("{format}, {n} round", "{format}, {n} rounds", t.rounds).format(format=name, n=t.rounds)
    if t.format == "knockout":
        return ngettext("{format}, matches of {n} game", "{format}, matches of {n} games",
                        t.games_per_match).format(format=name, n=t.games_per_match)
    if t.format == "league":
        return _("{format}, divisions of {size}, {promote} up and {promote} down, season {season}").format(
            format=name, size=t.division_size, promote=t.promote, season=t.season)
    return name


def tournament_terms(t: Tournament, clock_name: str) -> str:
    """The games' terms in one line: ``"Io (size 9) · 3 days a move · rated"``
    (``clock_name``: the clock as players read it, from the caller's TimeControl)."""
    opts = options_text(t.options)
    return f"{title(t.kind)}" + (f" ({opts})" if opts else "") + f" · {clock_name} · " + \
        (_("rated") if t.rated else _("unrated"))


def _field(t: Tournament) -> str:
    """``"3 of 4-16 players"``."""
    size = str(t.min_players) if t.min_players == t.max_players else f"{t.min_players}-{t.max_players}"
    return _("{entrants} of {size} players").format(entrants=t.entrants, size=size)


def _signup_end(t: Tournament) -> str:
    """When sign-up closes, as a sentence."""
    if t.starts_at is None:
        return _("The organiser starts it when the field is ready.")
    return _("Sign-up closes and play starts {relative} ({when}).").format(
        relative=f"<t:{int(t.starts_at)}:R>", when=f"<t:{int(t.starts_at)}:f>")


def tournament_announcement(t: Tournament, clock_name: str) -> str:
    """The sign-up post, with the Join button under it."""
    return "\n".join([
        _("🏆 **{name}** — a tournament ({format}), organised by {organiser}").format(
            name=t.name, format=tournament_format(t), organiser=f"<@{t.organiser_id}>"),
        f"{tournament_terms(t, clock_name)} · {_field(t)}", _signup_end(t),
        _("Press **{button}** below or use `/tournament join` to play; `/tournament leave` takes you out "
          "until it starts.").format(button=_(JOIN_LABEL))])


def tournament_created(t: Tournament, channel_id: int) -> str:
    """The organiser's note after /tournament create."""
    return _("**{name}** is open for sign-up; its announcement is in {channel}. Start it with "
             "`/tournament start` once enough players joined.").format(name=t.name, channel=f"<#{channel_id}>")


def tournament_joined(t: Tournament) -> str:
    """A player's note after joining."""
    return _("You are in **{name}** ({field}). Your games start when it does.").format(name=t.name, field=_field(t))


def tournament_left(t: Tournament) -> str:
    """A player's note after leaving during sign-up."""
    return _("You left **{name}**.").format(name=t.name)


def tournament_computer_added(t: Tournament, level: int) -> str:
    """The organiser's note after entering the computer."""
    return _("The computer plays in **{name}** at level {level} ({field}).").format(
        name=t.name, level=level, field=_field(t))


def tournament_removed(t: Tournament, user_id: int) -> str:
    """The organiser's note after removing a player."""
    return _("{player} is out of **{name}**.").format(player=f"<@{user_id}>", name=t.name)


def tournament_cancelled(t: Tournament) -> str:
    """The organiser's note after cancelling (the channel post is :func:`tournament_cancelled_post`)."""
    return _("**{name}** is cancelled. Games already started play on, outside the tournament's standings.").format(
        name=t.name)


def tournament_withdrew(w: Withdrawal) -> str:
    """The note to a player who withdrew (or the organiser who removed them) from a running
    tournament: the rule for their games."""
    n = len(w.forfeited)
    player, name = f"<@{w.user_id}>", w.tournament.name
    if not n:
        return _("{player} has withdrawn from **{name}**. Finished games stand; games not yet played count as "
                 "forfeits where the format has them.").format(player=player, name=name)
    return ngettext("{player} has withdrawn from **{name}**. Finished games stand; {n} running game ({games}) is "
                    "lost by forfeit. games not yet played count as forfeits where the format has them.",
                    "{player} has withdrawn from **{name}**. Finished games stand; {n} running games ({games}) are "
                    "lost by forfeit. games not yet played count as forfeits where the format has them.", n).format(
        player=player, name=name, n=n, games=", ".join(game_label(g.kind, g.id) for g in w.forfeited[:5]))


def tournament_started(t: Tournament, games: int) -> str:
    """The organiser's note after /tournament start (``games``: how many started)."""
    return ngettext("**{name}** has started: {rounds}, {n} game.",
                    "**{name}** has started: {rounds}, {n} games.", games).format(
        name=t.name, rounds=_rounds_under_way(t), n=games)


def _rounds_under_way(t: Tournament) -> str:
    """``"round 2"``, ``"round 2 of 5"`` (a Swiss), or ``"all 6 rounds at once"`` (a round
    robin or a league season: every game starts at once)."""
    if t.all_at_once:
        return ngettext("all {n} round at once", "all {n} rounds at once", t.current_round).format(n=t.current_round)
    if t.rounds:
        return _("round {round} of {rounds}").format(round=t.current_round, rounds=t.rounds)
    return _("round {round}").format(round=t.current_round)


def tournament_list_line(t: Tournament, clock_name: str) -> str:
    """One tournament of /tournament list."""
    state = tournament_state(t.status)
    if t.status == "running":
        state = _("{state}, {rounds}").format(state=state, rounds=_rounds_under_way(t))
    return _("• **{name}** — {format}; {terms}; {field}; {state}").format(
        name=t.name, format=tournament_format(t), terms=tournament_terms(t, clock_name), field=_field(t), state=state)


def tournament_list(lines: Sequence[str]) -> str:
    """/tournament list: the lines within Discord's limit."""
    if not lines:
        return _(NO_TOURNAMENTS)
    return fit_lines([_("**Tournaments in this server** ({n})").format(n=len(lines)), *lines],
                     more=_(STANDINGS_MORE))


def tournament_state(status: str) -> str:
    """A tournament's status as players read it (:data:`TOURNAMENT_STATES`' words, in the
    context "tournament status": a game is "finished" too, in another gender; an unknown one as
    given)."""
    words = {"signup": pgettext("tournament status", "sign-up open"),
             "running": pgettext("tournament status", "under way"),
             "finished": pgettext("tournament status", "finished"),
             "cancelled": pgettext("tournament status", "cancelled")}
    return words.get(status, status)


def tournament_info_text(info: TournamentInfo, clock_name: str) -> str:
    """/tournament info: the terms, the state and the field, seeded order."""
    t = info.tournament
    state = tournament_state(t.status)
    if t.status == "running":
        state = _("{state}, {rounds}").format(state=state, rounds=_rounds_under_way(t))
    head = [_("🏆 **{name}** — {format}, {state}").format(name=t.name, format=tournament_format(t), state=state),
            _("{terms} · organised by {organiser}").format(terms=tournament_terms(t, clock_name),
                                                            organiser=f"<@{t.organiser_id}>"),
            _signup_end(t) if t.status == "signup" else f"{_field(t)}."]
    field = [f"{i}. {who(e.user_id, e.computer_level)} — {round(e.seed_rating)}"
             + (_(" (withdrawn)") if e.status == "withdrawn" else "")
             for i, e in enumerate(info.entrants, 1)]
    return fit_lines(head + ([_("**Players** (by seed):"), *field] if field else [_("No players yet.")]),
                     more=_(STANDINGS_MORE))


def pairing_line(p: RoundPairing, games: dict[int, Game]) -> str:
    """One board of a round: ``"3. <@a> vs <@b> — Io #12 in <#thread>"``, a bye, or its result."""
    if p.seat2 is None:
        return _("{board}. {player} has a bye").format(board=p.board, player=f"<@{p.seat1}>")
    line = _("{board}. {first} vs {second}").format(board=p.board, first=f"<@{p.seat1}>", second=f"<@{p.seat2}>")
    game = games.get(p.game_id) if p.game_id is not None else None
    if game is not None:
        line += _(" — {game} in {thread}").format(game=game_label(game.kind, game.id),
                                                  thread=f"<#{game.channel_for_posts}>")
    if p.result is not None:
        line += " — " + pairing_result(p)
    return line


def pairing_result(p: RoundPairing) -> str:
    """A decided pairing's result: ``"1-0"``, ``"0-1"``, ``"½-½"``, ``"no result"`` (forfeits marked)."""
    word = {"seat1": "1-0", "seat2": "0-1", "draw": "½-½", "bye": _("bye"), "void": _("no result")}.get(
        p.result or "", p.result or "")
    return word + (_(" (forfeit)") if p.forfeit else "")


def tournament_round_post(t: Tournament, round_no: int, pairings: Sequence[RoundPairing], games: Sequence[Game]) -> str:
    """A round's pairings, posted when its games start."""
    by_id = {g.id: g for g in games}
    n = len([p for p in pairings if p.seat2])
    rounds = t.current_round if t.all_at_once else t.rounds if t.format == "swiss" else None
    if rounds:  # a Swiss's rounds, or a round robin's (all start at once)
        head = ngettext("🏆 **{name}** — round {round} of {rounds}: {n} game starts now",
                        "🏆 **{name}** — round {round} of {rounds}: {n} games start now", n)
    else:
        head = ngettext("🏆 **{name}** — round {round}: {n} game starts now",
                        "🏆 **{name}** — round {round}: {n} games start now", n)
    return fit_lines([head.format(name=t.name, round=round_no, rounds=rounds, n=n),
                      *(pairing_line(p, by_id) for p in pairings)], more=_(STANDINGS_MORE))


def tournament_cancelled_post(t: Tournament) -> str:
    """The channel post when a tournament is cancelled (by the organiser, or a sign-up that
    closed with too few players)."""
    return _("🏆 **{name}** is cancelled. Games already started play on, outside the tournament.").format(name=t.name)


def tournament_withdrawn_post(t: Tournament, user_id: int) -> str:
    """The channel post when a player leaves a running tournament."""
    return _("🏆 {player} has withdrawn from **{name}**. Their finished games stand; the rest are forfeits.").format(
        player=f"<@{user_id}>", name=t.name)


def tournament_games_text(t: Tournament, user_id: int, lines: Sequence[TournamentGame]) -> str:
    """/tournament mine: the caller's pairings in ``t`` (``lines``: each pairing with its
    game), round by round."""
    if not lines:
        return _(NO_TOURNAMENT_GAMES)
    rows = [_("**Your games in {name}**").format(name=t.name)]
    for line in lines:
        p, game = line.pairing, line.game
        other = p.seat2 if p.seat1 == user_id else p.seat1
        if other is None:
            rows.append(_("Round {round}: a bye").format(round=p.round))
            continue
        text = _("Round {round}: vs {opponent}").format(round=p.round, opponent=f"<@{other}>")
        if game is not None:
            text += _(" — {game} in {thread}").format(game=game_label(game.kind, game.id),
                                                      thread=f"<#{game.channel_for_posts}>")
        text += " — " + _outcome_for(p, user_id)
        rows.append(text)
    return fit_lines(rows, more=_(STANDINGS_MORE))


def _outcome_for(p: RoundPairing, user_id: int) -> str:
    """How pairing ``p`` went for ``user_id``: playing, won, lost, drawn, no result."""
    if p.result is None:
        return _("playing")
    if p.result in ("draw", "void", "bye"):
        return {"draw": _("drawn"), "void": _("no result"), "bye": _("a bye")}[p.result]
    won = (p.result == "seat1") == (user_id == p.seat1)
    return (_("won") if won else _("lost")) + (_(" (forfeit)") if p.forfeit else "")


def tournament_thread_name(label: TournamentLabel, game: Game, first: str, second: str) -> str:
    """The name of a tournament game's thread (Discord allows 100 characters): the tournament,
    its round (and season), then the game and its players."""
    season = _(" S{season}").format(season=label.season) if label.season is not None else ""
    return _("{name}{season} R{round} · {game}: {first} vs {second}").format(
        name=label.name, season=season, round=label.round, game=game_label(game.kind, game.id), first=first,
        second=second)[:100]


