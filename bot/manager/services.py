"""The manager's services and their wiring: :func:`build_services` makes each one over one
shared :class:`~.core.ManagerCore`, in dependency order, handing each the services it uses.

The graph (an edge ``a -> b``: service ``a`` takes ``b`` in its constructor) is acyclic; the
shared services come first:

* ``settings`` (:class:`.settings.SettingsService`) -- nothing;
* ``outbox`` -> settings; ``ratings`` -> nothing; ``endings`` -> ratings, outbox;
* ``privacy`` -> settings; ``lookup`` -> settings, privacy; ``turns`` -> nothing;
* ``challenges`` -> settings, outbox, lookup;
* ``play`` -> settings, outbox, ratings, endings, lookup;
* ``conditional`` -> lookup; ``clocks`` -> settings, outbox, endings, turns;
* ``computer`` -> challenges, lookup, play; ``profiles`` -> ratings, lookup, computer;
* ``tournaments`` -> challenges, play (issue 21).
* ``analysis`` -> lookup (analysis boards and notes, issue 23).

A service calls another only through the public methods of the one it was given (tests/
test_bot_services.py checks the graph and that no service module reaches into another's
private names).
"""

from __future__ import annotations

from dataclasses import dataclass

from .analysis import AnalysisService
from .challenges import ChallengesService
from .clocks import ClocksService
from .computer import ComputerService
from .conditional import ConditionalService
from .core import ManagerCore
from .endings import EndingsService
from .lookup import LookupService
from .outbox import OutboxService
from .play import PlayService
from .privacy import PrivacyService
from .ratings import ProfileService, RatingsService
from .settings import SettingsService
from .tournaments import TournamentsService
from .turns import TurnsService

__all__ = ["Services", "build_services"]


@dataclass(frozen=True)
class Services:
    """Every service of one manager, by name (see the module docstring for who uses whom)."""

    settings: SettingsService
    outbox: OutboxService
    ratings: RatingsService
    endings: EndingsService
    privacy: PrivacyService
    lookup: LookupService
    turns: TurnsService
    challenges: ChallengesService
    play: PlayService
    conditional: ConditionalService
    clocks: ClocksService
    computer: ComputerService
    profiles: ProfileService
    tournaments: TournamentsService
    analysis: AnalysisService


def build_services(core: ManagerCore) -> Services:
    """The services over ``core``, each built after the services it takes."""
    settings = SettingsService(core)
    outbox = OutboxService(core, settings)
    ratings = RatingsService(core)
    endings = EndingsService(core, ratings, outbox)
    privacy = PrivacyService(core, settings)
    lookup = LookupService(core, settings, privacy)
    turns = TurnsService(core)
    challenges = ChallengesService(core, settings, outbox, lookup)
    play = PlayService(core, settings, outbox, ratings, endings, lookup)
    conditional = ConditionalService(core, lookup)
    clocks = ClocksService(core, settings, outbox, endings, turns)
    computer = ComputerService(core, challenges, lookup, play)
    profiles = ProfileService(core, ratings, lookup, computer)
    tournaments = TournamentsService(core, challenges, play)
    analysis = AnalysisService(core, lookup)
    return Services(settings=settings, outbox=outbox, ratings=ratings, endings=endings,
                    privacy=privacy, lookup=lookup, turns=turns, challenges=challenges, play=play,
                    conditional=conditional, clocks=clocks, computer=computer, profiles=profiles,
                    tournaments=tournaments, analysis=analysis)
