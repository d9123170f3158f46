"""Challenges: their messages, answers, thread names and rematches.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .common import game_label, options_text, title

__all__ = ["CHALLENGE_LAPSED", "CHALLENGE_NOT_POSTED", "CHALLENGE_STATES", "REMATCH_NOT_POSTED",
           "accepted_text", "already_accepted", "challenge_ended", "challenge_sent",
           "challenge_text", "challenge_title", "declined", "first_text", "rematch_offered",
           "thread_name", "withdrawn"]

if TYPE_CHECKING:
    from ..manager.values import Challenge, Game

# ---------------------------------------------------------------- wording of the Discord side
# (moved here from the cogs, the client and the views: every sentence a player reads)

CHALLENGE_LAPSED = "Nobody answered in time: the challenge lapsed."
CHALLENGE_STATES = {"declined": "Declined.", "cancelled": "Withdrawn.", "expired": CHALLENGE_LAPSED}
CHALLENGE_NOT_POSTED = ("I am not allowed to post in this channel, so the challenge was not sent. "
                        "Try another channel, or ask a moderator to let me send messages here.")
REMATCH_NOT_POSTED = "I could not post the rematch challenge in the game's channel; use /challenge instead."


def challenge_title(c: Challenge) -> str:
    """The first line of a challenge message (``c``: a :class:`bot.manager.Challenge`):
    ``"<@a> challenges <@b> to **Io** (size 9) · 3 days a move · rated"``."""
    opts = options_text(c.options)
    game = f"**{title(c.kind)}**" + (f" ({opts})" if opts else "")
    terms = f" · {c.time_control.name} · {'rated' if c.rated else 'unrated'}"
    if c.opponent_id is None:
        return f"<@{c.challenger_id}> offers a game of {game} to anyone here{terms}"
    return f"<@{c.challenger_id}> challenges <@{c.opponent_id}> to {game}{terms}"


def first_text(c: Challenge) -> str:
    """Who moves first in challenge ``c``, as a sentence."""
    if c.first == "challenger":
        return f"<@{c.challenger_id}> moves first."
    if c.first == "opponent":
        return ("Whoever accepts moves first." if c.opponent_id is None
                else f"<@{c.opponent_id}> moves first.")
    return "Who moves first is drawn at random when the challenge is accepted."


def challenge_text(c: Challenge) -> str:
    """The whole message posting open challenge ``c``: title, who moves first, what to do."""
    lines = [challenge_title(c), first_text(c)]
    if c.opponent_id is None:
        lines.append(f"Press Accept to play — the offer lapses <t:{int(c.expires_at)}:R>.")
    else:
        lines.append(f"<@{c.opponent_id}>, accept or decline below — the challenge lapses "
                     f"<t:{int(c.expires_at)}:R>.")
    return "\n".join(lines)


def challenge_sent(opponent_id: int | None, channel_id: int | None) -> str:
    """The challenger's note once the challenge is posted (``channel_id`` given when it went
    to another channel than the one the command was used in)."""
    who = f"<@{opponent_id}>" if opponent_id else "anyone in this channel"
    where = f" in <#{channel_id}>" if channel_id is not None else ""
    if where and not opponent_id:
        who = "anyone there"
    return f"Challenge sent to {who}{where}. You can withdraw it with its Cancel button until it is accepted."


def challenge_ended(c: Challenge, state: str) -> str:
    """A challenge message once answered: its title and ``state`` (a sentence)."""
    return f"{challenge_title(c)}\n{state}"


def accepted_text(c: Challenge, game: Game) -> str:
    """What an accepted challenge's message says: who accepted and where the game is."""
    return (f"{challenge_title(c)}\nAccepted by <@{c.opponent_id}>: "
            f"**{game_label(game.kind, game.id)}** is on in <#{game.channel_for_posts}>.")


def already_accepted(game: Game) -> str:
    """For a second press of Accept by the player who accepted: where their game is."""
    where = (f"in <#{game.thread_id}>" if game.thread_id is not None
             else f"in <#{game.channel_id}>, where its board is being posted")
    return f"You already accepted this challenge: **{game_label(game.kind, game.id)}** is on {where}."


def thread_name(game: Game, first: str, second: str) -> str:
    """The name of a game's thread (Discord allows 100 characters)."""
    return f"{game_label(game.kind, game.id)}: {first} vs {second}"[:100]


def rematch_offered(c: Challenge) -> str:
    """The note to whoever pressed Rematch."""
    return f"Rematch offered to <@{c.opponent_id}> in <#{c.channel_id}>."


def declined(c: Challenge) -> str:
    """A challenge message once its opponent declined."""
    return challenge_ended(c, f"<@{c.opponent_id}> declined.")


def withdrawn(c: Challenge) -> str:
    """A challenge message once its challenger withdrew it."""
    return challenge_ended(c, f"Withdrawn by <@{c.challenger_id}>.")
