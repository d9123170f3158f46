"""Persistent buttons: their custom ids carry the challenge or game id, so they keep working
after a restart (discord.py ``DynamicItem``s registered in ``setup_hook``).

Custom ids:

* ``stonecast:accept:<challenge>``, ``stonecast:decline:<challenge>``,
  ``stonecast:cancel:<challenge>`` -- on a challenge message;
* ``stonecast:resign:<game>:<user>`` -- the confirmation shown by ``/resign`` to ``user``;
* ``stonecast:rematch:<game>`` -- on a final board: the same challenge with seats swapped;
* ``stonecast:forget:<user>`` -- the confirmation shown by ``/privacy delete`` to ``user``;
* ``stonecast:join:<tournament>`` -- Join on a tournament's announcement (issue 21).
* ``stonecast:analysis:<action>:<board>:<user>`` -- ◀ ▶ Play Undo Engine Share Text on
  ``user``'s analysis board (issue 23; the board is stored, so they work after a restart).

The buttons route the press to the cog that handles them through the bot's typed
:class:`ButtonRoutes` (``buttons``: the challenges, play and privacy cogs enter themselves
there when they load, and leave when they unload), never by a cog's name. Every button is a
:class:`bot.front.languages.LocalisedItem`: its press is answered in the presser's language;
its label is worded when the button is made (the language of the message it goes on). Whose
button a Resign or a data deletion confirmation is, the button itself checks (``interaction_check``: anyone else is told so at
once); every other check (who may press, whether the challenge is still open) is the
manager's, and its refusal comes back as an ephemeral message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import discord

from bot import texts
from bot.texts import i18n

from .languages import LocalisedItem
from .replies import ephemeral


class ChallengeButtons(Protocol):
    """What the Accept / Decline / Cancel and Rematch buttons need of the cog handling them
    (:class:`bot.front.cogs.challenges.ChallengesCog`)."""

    async def on_challenge_button(self, interaction: discord.Interaction[Any], action: str,
                                  challenge_id: int) -> None:
        """Accept, decline or cancel (``action``) challenge ``challenge_id`` for the presser."""

    async def on_rematch_button(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Challenge the other player of finished game ``game_id`` again, seats swapped."""


class ResignButtons(Protocol):
    """What the Resign button needs of the cog handling it (:class:`bot.front.cogs.play.PlayCog`)."""

    async def on_resign_button(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Resign game ``game_id`` for the presser."""


class ForgetButtons(Protocol):
    """What the "Delete my data" button needs of the cog handling it
    (:class:`bot.front.cogs.privacy.PrivacyCog`)."""

    async def on_forget_button(self, interaction: discord.Interaction[Any]) -> None:
        """Delete what is stored about the presser."""


class JoinButtons(Protocol):
    """What the Join button needs of the cog handling it
    (:class:`bot.front.cogs.tournaments.TournamentsCog`)."""

    async def may_see_tournament(self, interaction: discord.Interaction[Any], tournament_id: int) -> bool:
        """Whether tournament ``tournament_id`` is of the server the press comes from (else
        the presser is told there is no such tournament)."""

    async def on_join_button(self, interaction: discord.Interaction[Any], tournament_id: int) -> None:
        """Enter the presser in tournament ``tournament_id``."""


class AnalysisButtons(Protocol):
    """What an analysis board's buttons need of the cog handling them
    (:class:`bot.front.cogs.analysis.AnalysisCog`)."""

    async def on_analysis_button(self, interaction: discord.Interaction[Any], action: str,
                                 board_id: int) -> None:
        """Do ``action`` (a key of :data:`bot.texts.ANALYSIS_LABELS`) on board ``board_id``."""


@dataclass
class ButtonRoutes:
    """Where a press of this module's buttons goes: one typed slot per handling cog, filled by
    the cog in its ``cog_load`` and emptied in its ``cog_unload``. The bot holds one
    (:attr:`bot.front.client.StonecastBot.buttons`)."""

    challenges: ChallengeButtons | None = None
    play: ResignButtons | None = None
    privacy: ForgetButtons | None = None
    tournaments: JoinButtons | None = None
    analysis: AnalysisButtons | None = None

    @staticmethod
    def of(interaction: discord.Interaction[Any]) -> ButtonRoutes:
        """The routes of the bot that received ``interaction``. LookupError for a client
        without them."""
        routes = getattr(interaction.client, "buttons", None)
        if not isinstance(routes, ButtonRoutes):
            raise LookupError("this client routes no Stonecast buttons")
        return routes


H = TypeVar("H")


def _handler(handler: H | None, what: str) -> H:
    """``handler``, or LookupError naming ``what`` when its cog is not loaded (the bot is
    starting or closing)."""
    if handler is None:
        raise LookupError(f"no cog handles the {what} button now")
    return handler


#: A challenge button's style by its action (its label: :func:`bot.texts.button_label`, in the
#: language of the message it is on).
CHALLENGE_ACTIONS = {
    "accept": discord.ButtonStyle.success,
    "decline": discord.ButtonStyle.danger,
    "cancel": discord.ButtonStyle.secondary,
}


class ChallengeButton(LocalisedItem,
                      template=r"stonecast:(?P<action>accept|decline|cancel):(?P<id>[0-9]+)"):
    """Accept / Decline (for the opponent) or Cancel (for the challenger) on a challenge."""

    def __init__(self, action: str, challenge_id: int):
        super().__init__(discord.ui.Button(label=i18n._(texts.BUTTON_LABELS[action]), style=CHALLENGE_ACTIONS[action],
                                           custom_id=f"stonecast:{action}:{challenge_id}"))
        self.action = action
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChallengeButton:
        """Rebuild the button from its custom id (after a restart too)."""
        return cls(match["action"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the challenges cog."""
        cog = _handler(ButtonRoutes.of(interaction).challenges, self.action)
        await cog.on_challenge_button(interaction, self.action, self.challenge_id)


class ResignButton(LocalisedItem,
                   template=r"stonecast:resign:(?P<game>[0-9]+):(?P<user>[0-9]+)"):
    """The "Resign" confirmation for one player's game."""

    def __init__(self, game_id: int, user_id: int):
        super().__init__(discord.ui.Button(label=texts.button_label("resign"), style=discord.ButtonStyle.danger,
                                           custom_id=f"stonecast:resign:{game_id}:{user_id}"))
        self.game_id = game_id
        self.user_id = user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ResignButton:
        """Rebuild the button from its custom id (after a restart too)."""
        return cls(int(match["game"]), int(match["user"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Only the player who asked to resign may press it; anyone else is told so (and
        nothing happens)."""
        await super().interaction_check(interaction)  # the presser's language
        if interaction.user.id == self.user_id:
            return True
        await ephemeral(interaction, i18n._(texts.NOT_YOUR_BUTTON))
        return False

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the play cog."""
        await _handler(ButtonRoutes.of(interaction).play, "resign").on_resign_button(interaction, self.game_id)


class RematchButton(LocalisedItem,
                    template=r"stonecast:rematch:(?P<game>[0-9]+)"):
    """Rematch: either player of a finished game challenges the other, seats swapped."""

    def __init__(self, game_id: int):
        super().__init__(discord.ui.Button(label=texts.button_label("rematch"), style=discord.ButtonStyle.primary,
                                           custom_id=f"stonecast:rematch:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RematchButton:
        """Rebuild the button from its custom id (after a restart too)."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the challenges cog."""
        await _handler(ButtonRoutes.of(interaction).challenges, "rematch").on_rematch_button(interaction, self.game_id)


class ForgetButton(LocalisedItem,
                   template=r"stonecast:forget:(?P<user>[0-9]+)"):
    """The "Delete my data" confirmation of ``/privacy delete`` (issue 18), for one user."""

    def __init__(self, user_id: int):
        super().__init__(discord.ui.Button(label=i18n._(texts.PRIVACY_DELETE_LABEL), style=discord.ButtonStyle.danger,
                                           custom_id=f"stonecast:forget:{user_id}"))
        self.user_id = user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ForgetButton:
        """Rebuild the button from its custom id (after a restart too)."""
        return cls(int(match["user"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Only the player whose data it is may press it; anyone else is told so (and
        nothing is deleted)."""
        await super().interaction_check(interaction)  # the presser's language
        if interaction.user.id == self.user_id:
            return True
        await ephemeral(interaction, i18n._(texts.NOT_YOUR_PRIVACY_BUTTON))
        return False

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the privacy cog."""
        await _handler(ButtonRoutes.of(interaction).privacy, "forget").on_forget_button(interaction)


class JoinButton(LocalisedItem,
                 template=r"stonecast:join:(?P<id>[0-9]+)"):
    """Join, on a tournament's announcement: anyone in its server enters the tournament
    during sign-up (after it, the press is refused and the button taken off)."""

    def __init__(self, tournament_id: int):
        super().__init__(discord.ui.Button(label=i18n._(texts.JOIN_LABEL), style=discord.ButtonStyle.success,
                                           custom_id=f"stonecast:join:{tournament_id}"))
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> JoinButton:
        """Rebuild the button from its custom id (after a restart too)."""
        return cls(int(match["id"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Only a press in the tournament's own server goes on (a copied custom id from
        another server finds no tournament)."""
        await super().interaction_check(interaction)  # the presser's language
        cog = _handler(ButtonRoutes.of(interaction).tournaments, "join")
        return await cog.may_see_tournament(interaction, self.tournament_id)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the tournaments cog."""
        await _handler(ButtonRoutes.of(interaction).tournaments, "join").on_join_button(interaction, self.tournament_id)


def join_view(tournament_id: int) -> discord.ui.View:
    """The Join button of a tournament's announcement."""
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(tournament_id))
    return view


class AnalysisButton(LocalisedItem,
                     template=r"stonecast:analysis:(?P<action>prev|next|play|undo|engine|share|text)"
                              r":(?P<board>[0-9]+):(?P<user>[0-9]+)"):
    """One button of ``user_id``'s analysis board ``board_id`` (issue 23); only they may press it."""

    def __init__(self, action: str, board_id: int, user_id: int):
        style = discord.ButtonStyle.primary if action == "engine" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=texts.analysis_label(action), style=style,
                                           custom_id=f"stonecast:analysis:{action}:{board_id}:{user_id}"))
        self.action, self.board_id, self.user_id = action, board_id, user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> AnalysisButton:
        """Rebuild the button from its custom id (after a restart too)."""
        return cls(match["action"], int(match["board"]), int(match["user"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Only the board's owner may press it; anyone else is told so (nothing changes)."""
        await super().interaction_check(interaction)  # the presser's language
        if interaction.user.id == self.user_id:
            return True
        await ephemeral(interaction, texts.not_your_analysis())
        return False

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the analysis cog."""
        await _handler(ButtonRoutes.of(interaction).analysis, "analysis").on_analysis_button(
            interaction, self.action, self.board_id)


def analysis_view(board_id: int, user_id: int) -> discord.ui.View:
    """The buttons of an analysis board: ◀ ▶ Play Undo on one row, Engine Share Text below."""
    view = discord.ui.View(timeout=None)
    for action in texts.ANALYSIS_LABELS:
        view.add_item(AnalysisButton(action, board_id, user_id))
    return view


def challenge_view(challenge_id: int, *, open_challenge: bool = False) -> discord.ui.View:
    """Accept, Decline and Cancel buttons for a challenge message (no Decline when it is
    open to anyone)."""
    view = discord.ui.View(timeout=None)
    for action in CHALLENGE_ACTIONS:
        if action == "decline" and open_challenge:
            continue
        view.add_item(ChallengeButton(action, challenge_id))
    return view


def rematch_view(game_id: int) -> discord.ui.View:
    """The Rematch button of a final board."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id))
    return view


def resign_view(game_id: int, user_id: int) -> discord.ui.View:
    """The single confirmation button shown by ``/resign``."""
    view = discord.ui.View(timeout=None)
    view.add_item(ResignButton(game_id, user_id))
    return view


def forget_view(user_id: int) -> discord.ui.View:
    """The single confirmation button shown by ``/privacy delete``."""
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton(user_id))
    return view


DYNAMIC_ITEMS = (ChallengeButton, ResignButton, RematchButton, ForgetButton, JoinButton, AnalysisButton)
