"""Challenges: their messages, answers, thread names and rematches.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .common import game_label, options_text, title
from .i18n import N_, _
from .terms import clock_name

__all__ = ["CHALLENGE_LAPSED", "CHALLENGE_NOT_POSTED", "CHALLENGE_STATES", "REMATCH_NOT_POSTED",
           "accepted_text", "already_accepted", "challenge_ended", "challenge_sent",
           "challenge_text", "challenge_title", "declined", "first_text", "rematch_offered",
           "thread_name", "withdrawn"]

if TYPE_CHECKING:
    from ..manager.values import Challenge, Game

# ---------------------------------------------------------------- wording of the Discord side
# (moved here from the cogs, the client and the views: every sentence a player reads)

# English message ids: the front words them with ``_()`` where it sends them.
CHALLENGE_LAPSED = N_("Nobody answered in time: the challenge lapsed.")
CHALLENGE_STATES = {"declined": N_("Declined."), "cancelled": N_("Withdrawn."), "expired": CHALLENGE_LAPSED}
CHALLENGE_NOT_POSTED = N_("I am not allowed to post in this channel, so the challenge was not sent. "
                          "Try another channel, or ask a moderator to let me send messages here.")
REMATCH_NOT_POSTED = N_("I could not post the rematch challenge in the game's channel; use /challenge instead.")


def challenge_title(c: Challenge) -> str:
    """The first line of a challenge message (``c``: a :class:`bot.manager.Challenge`):
    ``"<@a> challenges <@b> to **Io** (size 9) · 3 days a move · rated"``."""
    opts = options_text(c.options)
    game = f"**{title(c.kind)}**" + (f" ({opts})" if opts else "")
    rated = _("rated") if c.rated else _("unrated")
    terms = f" · {clock_name(c.time_control)} · {rated}"
    if c.opponent_id is None:
        return _("{challenger} offers a game of {game} to anyone here").format(
            challenger=f"<@{c.challenger_id}>", game=game) + terms
    return _("{challenger} challenges {opponent} to {game}").format(
        challenger=f"<@{c.challenger_id}>", opponent=f"<@{c.opponent_id}>", game=game) + terms


def first_text(c: Challenge) -> str:
    """Who moves first in challenge ``c``, as a sentence."""
    if c.first == "challenger":
        return _("{player} moves first.").format(player=f"<@{c.challenger_id}>")
    if c.first == "opponent":
        return (_("Whoever accepts moves first.") if c.opponent_id is None
                else _("{player} moves first.").format(player=f"<@{c.opponent_id}>"))
    return _("Who moves first is drawn at random when the challenge is accepted.")


def challenge_text(c: Challenge) -> str:
    """The whole message posting open challenge ``c``: title, who moves first, what to do."""
    lines = [challenge_title(c), first_text(c)]
    expires = f"<t:{int(c.expires_at)}:R>"
    if c.opponent_id is None:
        lines.append(_("Press Accept to play — the offer lapses {expires}.").format(expires=expires))
    else:
        lines.append(_("{opponent}, accept or decline below — the challenge lapses {expires}.").format(
            opponent=f"<@{c.opponent_id}>", expires=expires))
    return "\n".join(lines)


def challenge_sent(opponent_id: int | None, channel_id: int | None) -> str:
    """The challenger's note once the challenge is posted (``channel_id`` given when it went
    to another channel than the one the command was used in)."""
    values = {"opponent": f"<@{opponent_id}>", "channel": f"<#{channel_id}>"}
    if opponent_id and channel_id is not None:
        text = _("Challenge sent to {opponent} in {channel}. You can withdraw it with its Cancel button until "
                 "it is accepted.")
    elif opponent_id:
        text = _("Challenge sent to {opponent}. You can withdraw it with its Cancel button until it is accepted.")
    elif channel_id is not None:
        text = _("Challenge sent to anyone there in {channel}. You can withdraw it with its Cancel button "
                 "until it is accepted.")
    else:
        text = _("Challenge sent to anyone in this channel. You can withdraw it with its Cancel button until "
                 "it is accepted.")
    return text.format(**values)


def challenge_ended(c: Challenge, state: str) -> str:
    """A challenge message once answered: its title and ``state`` (a sentence)."""
    return f"{challenge_title(c)}\n{state}"


def accepted_text(c: Challenge, game: Game) -> str:
    """What an accepted challenge's message says: who accepted and where the game is."""
    return challenge_title(c) + "\n" + _("Accepted by {player}: {game} is on in {channel}.").format(
        player=f"<@{c.opponent_id}>", game=f"**{game_label(game.kind, game.id)}**",
        channel=f"<#{game.channel_for_posts}>")


def already_accepted(game: Game) -> str:
    """For a second press of Accept by the player who accepted: where their game is."""
    label = f"**{game_label(game.kind, game.id)}**"
    if game.thread_id is not None:
        return _("You already accepted this challenge: {game} is on in {channel}.").format(
            game=label, channel=f"<#{game.thread_id}>")
    return _("You already accepted this challenge: {game} is on in {channel}, where its board is being "
             "posted.").format(game=label, channel=f"<#{game.channel_id}>")


def thread_name(game: Game, first: str, second: str) -> str:
    """The name of a game's thread (Discord allows 100 characters)."""
    return _("{game}: {first} vs {second}").format(game=game_label(game.kind, game.id), first=first,
                                                    second=second)[:100]


def rematch_offered(c: Challenge) -> str:
    """The note to whoever pressed Rematch."""
    return _("Rematch offered to {opponent} in {channel}.").format(opponent=f"<@{c.opponent_id}>",
                                                                    channel=f"<#{c.channel_id}>")


def declined(c: Challenge) -> str:
    """A challenge message once its opponent declined."""
    return challenge_ended(c, _("{opponent} declined.").format(opponent=f"<@{c.opponent_id}>"))


def withdrawn(c: Challenge) -> str:
    """A challenge message once its challenger withdrew it."""
    return challenge_ended(c, _("Withdrawn by {challenger}.").format(challenger=f"<@{c.challenger_id}>"))
