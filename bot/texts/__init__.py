"""Everything the bot says to players, by topic: one module each (listed below), all
re-exported here so callers write ``texts.<name>``. The only place a sentence a player
reads is written (DESIGN.md): services, the engine and the renderers return data.

* ``boards`` -- Board posts: headlines, the your-move line, what a move did, ratings, DMs, reminders.
* ``chart`` -- A game review's chart (computer topic): every word it draws, as a ``renderers.ChartText``.
* ``panel`` -- The board picture's panel (boards topic): every word it draws, as a ``renderers.PanelText``.
* ``common`` -- Shared pieces of wording: game titles and labels, counts, fitting lines into Discord's limits.
* ``play`` -- Moves and boards: move replies, board headlines, results, suggestions of /move.
* ``analysis`` -- Analysis boards and private notes: /analyze, its buttons and the Engine, /note.
* ``alt`` -- Image descriptions: the alt text of every attachment (boards, charts, replays, rules).
* ``challenges`` -- Challenges: their messages, answers, thread names and rematches.
* ``clocks`` -- Clocks and time off: clock terms, both players' banks, vacations and deadline notes.
* ``terms`` -- Terms of play from the rules' data: a time control's name, time left, clock errors, game options.
* ``computer`` -- The computer opponent and reviews: its name with its level, its turn, review charts.
* ``conditional`` -- Conditional moves: storing, listing and clearing prepared lines.
* ``engine_errors`` -- The engine's errors (errors topic): illegal and unreadable moves, bad options, by reason.
* ``errors`` -- Refusals and failures: what a player is told when an action is refused or goes wrong.
* ``languages`` -- The language settings: /settings language and server-language, the languages' own names.
* ``lists`` -- Lists of games and players: /games, /history, leaderboards and profiles.
* ``privacy`` -- /privacy: what is stored about a player, and deleting it.
* ``rules`` -- /rules and /help: rules summaries in our own words, the help embed; ``commands``: command words.
* ``turns`` -- Move confirmation, /next, /settings and the daily digest.
* ``tournaments`` -- Tournaments and leagues: /tournament replies, tournament posts.
* ``standings`` -- Tournament standings: the table's words, standings posts, the final standings.
* ``standings_picture`` -- The standings picture's own words: a league division's label.
* ``tournament_refusals`` -- Tournament refusals: why a tournament command was refused (issue 21).
"""

from __future__ import annotations

from . import (
    alt,
    analysis,
    boards,
    challenges,
    chart,
    clocks,
    common,
    computer,
    conditional,
    engine_errors,
    errors,
    languages,
    lists,
    panel,
    play,
    privacy,
    rules,
    standings,
    standings_picture,
    terms,
    tournaments,
    turns,
)
from .alt import *  # noqa: F403 - the names in its __all__
from .analysis import *  # noqa: F403 - the names in its __all__
from .boards import *  # noqa: F403 - the names in its __all__
from .challenges import *  # noqa: F403 - the names in its __all__
from .chart import *  # noqa: F403 - the names in its __all__
from .clocks import *  # noqa: F403 - the names in its __all__
from .common import *  # noqa: F403 - the names in its __all__
from .computer import *  # noqa: F403 - the names in its __all__
from .conditional import *  # noqa: F403 - the names in its __all__
from .engine_errors import *  # noqa: F403 - the names in its __all__
from .errors import *  # noqa: F403 - the names in its __all__
from .languages import *  # noqa: F403 - the names in its __all__
from .lists import *  # noqa: F403 - the names in its __all__
from .panel import *  # noqa: F403 - the names in its __all__
from .play import *  # noqa: F403 - the names in its __all__
from .privacy import *  # noqa: F403 - the names in its __all__
from .rules import *  # noqa: F403 - the names in its __all__
from .standings import *  # noqa: F403 - the names in its __all__
from .standings_picture import *  # noqa: F403 - the names in its __all__
from .terms import *  # noqa: F403 - the names in its __all__
from .tournaments import *  # noqa: F403 - the names in its __all__
from .turns import *  # noqa: F403 - the names in its __all__

__all__ = [
    *alt.__all__,
    *analysis.__all__,
    *boards.__all__,
    *challenges.__all__,
    *chart.__all__,
    *clocks.__all__,
    *common.__all__,
    *computer.__all__,
    *conditional.__all__,
    *engine_errors.__all__,
    *errors.__all__,
    *languages.__all__,
    *lists.__all__,
    *panel.__all__,
    *play.__all__,
    *privacy.__all__,
    *rules.__all__,
    *standings.__all__,
    *standings_picture.__all__,
    *terms.__all__,
    *tournaments.__all__,
    *turns.__all__,
]
