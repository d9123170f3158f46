"""Challenge and rematch refusals: why a challenge, an answer to one or a rematch was refused.

Part of :mod:`bot.texts`; merged into :data:`bot.texts.errors.REFUSALS` (keyed by the
:class:`~bot.manager.Refusal` name)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from babel.numbers import format_decimal

from .challenges import CHALLENGE_NOT_POSTED, REMATCH_NOT_POSTED, already_accepted
from .common import game_label, title
from .i18n import N_, _, babel_locale, ngettext

if TYPE_CHECKING:
    from ..manager.values import Challenge, Game

__all__ = ["CHALLENGE_REFUSALS"]


def _label(game: Game) -> str:
    return game_label(game.kind, game.id)


def _challenge(ch: Challenge) -> dict[str, str]:
    """The placeholders naming a challenge as its players see it (never by its id):
    ``{challenger}`` (a mention) and ``{game}`` (its game's title)."""
    return {"challenger": f"<@{ch.challenger_id}>", "game": title(ch.kind)}


def too_many_games_to_accept(count: int, most: int, challenger: bool) -> str:
    """Accepting would give the accepter (or, ``challenger``, the challenger) more than
    ``most`` active games."""
    if challenger:
        text = ngettext("The challenger is already playing {count} game (the most is {most}): finish some first.",
                        "The challenger is already playing {count} games (the most is {most}): finish some first.",
                        count)
    else:
        text = ngettext("You are already playing {count} game (the most is {most}): finish some first.",
                        "You are already playing {count} games (the most is {most}): finish some first.", count)
    return text.format(count=count, most=most)


def duplicate_challenge(challenge: Challenge) -> str:
    """The same challenge is open already (``challenge``: the open one, linked)."""
    ch = challenge
    where = (f"https://discord.com/channels/{ch.guild_id}/{ch.channel_id}/{ch.message_id}"
             if ch.message_id is not None else f"<#{ch.channel_id}>")
    values = {"game": title(ch.kind), "where": where, "expires": f"<t:{int(ch.expires_at)}:R>"}
    if ch.opponent_id is not None:
        return _("You already challenged {opponent} to {game}, and that challenge is still open: {where} "
                 "(it lapses {expires}). Wait for an answer, or press its Cancel button first if you want "
                 "to send one with other settings.").format(opponent=f"<@{ch.opponent_id}>", **values)
    return _("You already offered a game of {game} to anyone here, and that challenge is still open: "
             "{where} (it lapses {expires}). Wait for an answer, or press its Cancel button first if you "
             "want to send one with other settings.").format(**values)


def not_addressee(declining: bool) -> str:
    """An answer to a challenge addressed to someone else."""
    if declining:
        return _("This challenge is addressed to someone else: only they can decline it.")
    return _("This challenge is addressed to someone else: only they can accept it.")


def challenge_expired(challenge: Challenge, lasts_hours: float) -> str:
    """An answer to a challenge past its expiry (a challenge lasts ``lasts_hours``)."""
    return ngettext("{challenger}'s {game} challenge has expired (a challenge lasts {hours} hour): "
                    "send a new one with /challenge.",
                    "{challenger}'s {game} challenge has expired (a challenge lasts {hours} hours): "
                    "send a new one with /challenge.", int(lasts_hours) if lasts_hours == int(lasts_hours) else 2
                    ).format(hours=format_decimal(lasts_hours, locale=babel_locale()), **_challenge(challenge))


def rematch_not_player(game: Game) -> str:
    """Rematch pressed by someone who did not play ``game`` (against the computer: its one
    player)."""
    if game.ai_seat is not None:
        return _("Only the player of {game} can ask for a rematch.").format(game=_label(game))
    return _("Only the two players of {game} can ask for a rematch.").format(game=_label(game))


def rematch_taken(game: Game, rematch_id: int) -> str:
    """The rematch of ``game`` exists already: game number ``rematch_id``."""
    values = {"game": _label(game), "rematch": game_label(game.kind, rematch_id)}
    if game.ai_seat is not None:
        return _("The rematch of {game} was started already: it is {rematch}. Press Rematch on its final "
                 "board for another.").format(**values)
    return _("The rematch of {game} was already accepted: it is {rematch}. Play on there, or press Rematch "
             "on its final board for another game.").format(**values)


def too_many_challenges(count: int, most: int) -> str:
    """A challenge beyond the ``most`` open ones (``count`` open now)."""
    return ngettext("You already have {count} open challenge (the most is {most}): cancel one or wait for an answer.",
                    "You already have {count} open challenges (the most is {most}): cancel one or wait for an answer.",
                    count).format(count=count, most=most)


def too_many_games(count: int, most: int) -> str:
    """A new game beyond the ``most`` active ones (``count`` now)."""
    return ngettext("You are already playing {count} game (the most is {most}): finish some before starting "
                    "another.",
                    "You are already playing {count} games (the most is {most}): finish some before starting "
                    "another.", count).format(count=count, most=most)


def challenge_answered(challenge: Challenge) -> str:
    """An answer to a challenge answered by someone else a moment before."""
    return _("{challenger}'s {game} challenge was answered a moment ago: it is no longer open.").format(
        **_challenge(challenge))


#: A challenge no longer open, by its status.
CLOSED = {
    "accepted": N_("{challenger}'s {game} challenge is no longer open: it was accepted."),
    "declined": N_("{challenger}'s {game} challenge is no longer open: it was declined."),
    "cancelled": N_("{challenger}'s {game} challenge is no longer open: it was cancelled."),
    "expired": N_("{challenger}'s {game} challenge is no longer open: it was expired."),
}


def challenge_closed(challenge: Challenge) -> str:
    """An answer to a challenge no longer open (its status named)."""
    values = _challenge(challenge)
    if challenge.status in CLOSED:
        return _(CLOSED[challenge.status]).format(**values)
    return _("{challenger}'s {game} challenge is no longer open.").format(**values)


def game_still_running(game: Game) -> str:
    """A rematch of a game still in progress."""
    return _("{game} is still in progress: finish it first.").format(game=_label(game))


def rematch_offered(game: Game, opponent_id: int, channel_id: int) -> str:
    """A second rematch offer by the same player: the first waits in ``channel_id``."""
    return _("You already offered a rematch of {game}: it waits for {opponent} to answer in {channel}.").format(
        game=_label(game), opponent=f"<@{opponent_id}>", channel=f"<#{channel_id}>")


def rematch_offered_to_you(game: Game, channel_id: int) -> str:
    """A rematch offer while the opponent's waits in ``channel_id``."""
    return _("Your opponent already offered a rematch of {game}: accept their challenge in {channel}.").format(
        game=_label(game), channel=f"<#{channel_id}>")


CHALLENGE_REFUSALS: dict[str, Callable[..., str]] = {
    "BAD_FIRST": lambda: _("Choose who moves first: challenger, opponent or random."),
    "SELF_CHALLENGE": lambda: _("You cannot challenge yourself: pick another member, or leave the opponent "
                                "out for an open challenge."),
    "BOT_OPPONENT": lambda: _("Bots other than Stonecast cannot play: challenge a member instead, or "
                              "Stonecast itself to play the computer."),
    "COMPUTER_SELF": lambda: _("The computer cannot play itself."),
    "TOO_MANY_CHALLENGES": too_many_challenges,
    "TOO_MANY_GAMES": too_many_games,
    "TOO_MANY_GAMES_TO_ACCEPT": too_many_games_to_accept,
    "DUPLICATE_CHALLENGE": duplicate_challenge,
    "OWN_CHALLENGE_ACCEPT": lambda: _("This is your own challenge: wait for an answer, or press Cancel to "
                                      "withdraw it."),
    "OWN_CHALLENGE_DECLINE": lambda: _("This is your own challenge: press Cancel to withdraw it."),
    "NOT_ADDRESSEE": not_addressee,
    "OPEN_CHALLENGE_DECLINE": lambda: _("An open challenge cannot be declined: leave it and it expires by itself."),
    "NOT_CHALLENGER": lambda: _("Only the player who sent this challenge can cancel it."),
    "CHALLENGE_ANSWERED": challenge_answered,
    "CHALLENGE_CLOSED": challenge_closed,
    "CHALLENGE_EXPIRED": challenge_expired,
    "CHALLENGE_NOT_POSTED": lambda: _(CHALLENGE_NOT_POSTED),
    "ALREADY_ACCEPTED": already_accepted,
    "REMATCH_NOT_PLAYER": rematch_not_player,
    "GAME_STILL_RUNNING": game_still_running,
    "REMATCH_TAKEN": rematch_taken,
    "REMATCH_OFFERED": rematch_offered,
    "REMATCH_OFFERED_TO_YOU": rematch_offered_to_you,
    "REMATCH_NOT_POSTED": lambda: _(REMATCH_NOT_POSTED),
}
