"""The schema of Stonecast's database and its forward migrations (``PRAGMA user_version``).

:data:`MIGRATIONS` lists the steps; :meth:`bot.store.Store.migrate` applies each in its own
transaction together with the version bump, so a database is always at exactly one version.
A step is never edited once released: a change of schema is a new step.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class Store(Protocol):
    """What a migration's data step uses of :class:`bot.store.db.Store` (which imports this
    module: a protocol here keeps the store's imports free of cycles)."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any]:
        """Every row of a query."""

__all__ = ["LATEST_VERSION", "MIGRATIONS", "Migration"]


@dataclass(frozen=True)
class Migration:
    """One forward step of the schema: from ``version - 1`` to ``version``.

    ``statements`` run in order inside one transaction that also sets ``PRAGMA user_version``;
    then ``data``, when given, a coroutine function taking the store, for what SQL alone cannot
    do (version 7 recomputes the ratings), in the same transaction.
    """

    version: int
    description: str
    statements: tuple[str, ...]
    data: Callable[[Store], Awaitable[None]] | None = None


# Version 1: the playable bot (issue 4) -- challenges, games, moves, user settings.
_V1 = (
    """
    CREATE TABLE challenges (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id      INTEGER NOT NULL,
        channel_id    INTEGER NOT NULL,
        message_id    INTEGER,
        challenger_id INTEGER NOT NULL,
        opponent_id   INTEGER,
        kind          TEXT    NOT NULL,
        options       TEXT    NOT NULL,          -- JSON object, validated by the engine
        first         TEXT    NOT NULL CHECK (first IN ('challenger', 'opponent', 'random')),
        rated         INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1)),
        status        TEXT    NOT NULL DEFAULT 'open'
                      CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
        created_at    REAL    NOT NULL,
        expires_at    REAL    NOT NULL,
        game_id       INTEGER REFERENCES games(id),
        CHECK (opponent_id IS NULL OR opponent_id <> challenger_id)
    )
    """,
    "CREATE INDEX challenges_by_challenger ON challenges(challenger_id, status)",
    "CREATE INDEX challenges_by_status ON challenges(status, expires_at)",
    """
    CREATE TABLE games (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id      INTEGER NOT NULL,
        channel_id    INTEGER NOT NULL,
        thread_id     INTEGER,
        kind          TEXT    NOT NULL,
        options       TEXT    NOT NULL,          -- JSON object, validated by the engine
        player1_id    INTEGER NOT NULL,          -- seat 1 (moves first)
        player2_id    INTEGER NOT NULL,          -- seat 2
        status        TEXT    NOT NULL DEFAULT 'active'
                      CHECK (status IN ('active', 'finished', 'aborted')),
        ply           INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),  -- moves played = version
        position_text TEXT    NOT NULL,          -- cache: equals replaying the moves
        winner        INTEGER CHECK (winner IN (1, 2)),             -- NULL: draw or no result
        reason        TEXT,
        rated         INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1)),
        created_at    REAL    NOT NULL,
        updated_at    REAL    NOT NULL,
        finished_at   REAL,
        challenge_id  INTEGER REFERENCES challenges(id),
        CHECK (player1_id <> player2_id)
    )
    """,
    "CREATE INDEX games_by_player1 ON games(player1_id, status)",
    "CREATE INDEX games_by_player2 ON games(player2_id, status)",
    "CREATE INDEX games_by_thread ON games(thread_id)",
    """
    CREATE TABLE moves (
        game_id   INTEGER NOT NULL REFERENCES games(id),
        ply       INTEGER NOT NULL CHECK (ply >= 1),   -- 1 for the first move
        seat      INTEGER NOT NULL CHECK (seat IN (1, 2)),
        move      TEXT    NOT NULL,                    -- canonical engine notation
        played_at REAL    NOT NULL,
        PRIMARY KEY (game_id, ply)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE user_settings (
        user_id INTEGER PRIMARY KEY,
        dm      INTEGER NOT NULL DEFAULT 0 CHECK (dm IN (0, 1))
    )
    """,
)

# Version 2: correspondence play (issue 5) -- clocks, vacations, ratings, rematches.
_V2 = (
    "ALTER TABLE challenges ADD COLUMN days_per_move INTEGER NOT NULL DEFAULT 3"
    " CHECK (days_per_move BETWEEN 1 AND 14)",
    "ALTER TABLE challenges ADD COLUMN rematch_of INTEGER REFERENCES games(id)",
    "ALTER TABLE games ADD COLUMN days_per_move INTEGER NOT NULL DEFAULT 3"
    " CHECK (days_per_move BETWEEN 1 AND 14)",
    "ALTER TABLE games ADD COLUMN deadline REAL",        # NULL once the game is over
    "ALTER TABLE games ADD COLUMN reminded_ply INTEGER",  # ply at which the reminder went out
    "ALTER TABLE games ADD COLUMN aborted_by INTEGER",
    # Games already running get the default clock from their last move.
    "UPDATE games SET deadline = updated_at + 3 * 86400 WHERE status = 'active'",
    "CREATE INDEX games_by_deadline ON games(status, deadline)",
    "ALTER TABLE user_settings ADD COLUMN vacation_until REAL",
    "ALTER TABLE user_settings ADD COLUMN vacation_year INTEGER",
    "ALTER TABLE user_settings ADD COLUMN vacation_used REAL NOT NULL DEFAULT 0",  # days
    """
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        kind     TEXT    NOT NULL,
        user_id  INTEGER NOT NULL,
        rating   REAL    NOT NULL DEFAULT 1500,
        games    INTEGER NOT NULL DEFAULT 0,     -- rated games finished
        PRIMARY KEY (guild_id, kind, user_id)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX ratings_by_rating ON ratings(guild_id, kind, rating DESC)",
    """
    CREATE TABLE rating_changes (
        game_id INTEGER NOT NULL REFERENCES games(id),
        user_id INTEGER NOT NULL,
        before  REAL    NOT NULL,
        after   REAL    NOT NULL,
        PRIMARY KEY (game_id, user_id)
    ) WITHOUT ROWID
    """,
)

# Version 3: the announcement outbox (issue 5) -- what the clock sweep decided and the bot must
# still post. A row is written in the same transaction as the change it announces (a timeout,
# a reminder marked as sent), so a process that dies before posting finds it again on start.
# Nothing is backfilled: what a version-2 bot settled it also announced (or lost for good).
_V3 = (
    """
    CREATE TABLE announcements (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id      INTEGER NOT NULL REFERENCES games(id),
        kind         TEXT    NOT NULL CHECK (kind IN ('reminder', 'timeout')),
        user_id      INTEGER NOT NULL,   -- reminder: the player to move; timeout: who lost on time
        ply          INTEGER NOT NULL,   -- the game's ply when the row was written
        created_at   REAL    NOT NULL,
        attempts     INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),  -- failed posts so far
        last_error   TEXT,               -- why the last post failed (or why it was given up)
        delivered_at REAL                -- NULL: still to post; set once posted or given up
    )
    """,
    "CREATE INDEX announcements_pending ON announcements(id) WHERE delivered_at IS NULL",
)

# Version 4: finding the game of a channel used without threads (resolve_game's fallback)
# no longer scans every game.
_V4 = ("CREATE INDEX games_by_channel ON games(channel_id, thread_id)",)

# Version 5: board posts go through the outbox too (kind 'move': the board after a move, or
# the first board at ply 0), so a process that dies between committing a move and posting its
# board posts it later. SQLite cannot alter a CHECK constraint: the table is rebuilt with the
# wider one and every row copied (ids kept, and the AUTOINCREMENT high-water mark with them).
_V5 = (
    """
    CREATE TABLE announcements_v5 (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id      INTEGER NOT NULL REFERENCES games(id),
        kind         TEXT    NOT NULL CHECK (kind IN ('reminder', 'timeout', 'move')),
        user_id      INTEGER NOT NULL,   -- reminder, move: the player to ping; timeout: who lost on time
        ply          INTEGER NOT NULL,   -- the game's ply when the row was written
        created_at   REAL    NOT NULL,
        attempts     INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),  -- failed posts so far
        last_error   TEXT,               -- why the last post failed (or why it was given up)
        delivered_at REAL                -- NULL: still to post; set once posted or given up
    )
    """,
    "INSERT INTO announcements_v5 (id, game_id, kind, user_id, ply, created_at, attempts,"
    " last_error, delivered_at) SELECT id, game_id, kind, user_id, ply, created_at, attempts,"
    " last_error, delivered_at FROM announcements",
    "DELETE FROM sqlite_sequence WHERE name = 'announcements_v5'",
    "INSERT INTO sqlite_sequence (name, seq) SELECT 'announcements_v5', seq FROM sqlite_sequence"
    " WHERE name = 'announcements'",
    "DROP TABLE announcements",  # its partial index goes with it
    "ALTER TABLE announcements_v5 RENAME TO announcements",
    "CREATE INDEX announcements_pending ON announcements(id) WHERE delivered_at IS NULL",
)

# Version 6 (issue 9): your-turn DMs go through the outbox too (kind 'dm', written in the
# transaction that made it that player's turn), and a game remembers that its thread is still
# to be made: ``thread_wanted`` is 1 from the Accept that creates the game until its thread (or
# the channel, where threads are not allowed) is recorded, so a process that dies in between
# leaves the delivery pass enough to make the thread, or find the one already made, before it
# posts the first board. The column's default is 1 for the games inserted from now on; the
# games already there had their thread settled by the bot that created them.
_V6 = (
    """
    CREATE TABLE announcements_v6 (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id      INTEGER NOT NULL REFERENCES games(id),
        kind         TEXT    NOT NULL CHECK (kind IN ('reminder', 'timeout', 'move', 'dm')),
        user_id      INTEGER NOT NULL,   -- reminder, move: the player to ping; timeout: who lost
                                         -- on time; dm: the player to move, to write to
        ply          INTEGER NOT NULL,   -- the game's ply when the row was written
        created_at   REAL    NOT NULL,
        attempts     INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),  -- failed posts so far
        last_error   TEXT,               -- why the last post failed (or why it was given up)
        delivered_at REAL                -- NULL: still to post; set once posted or given up
    )
    """,
    "INSERT INTO announcements_v6 (id, game_id, kind, user_id, ply, created_at, attempts,"
    " last_error, delivered_at) SELECT id, game_id, kind, user_id, ply, created_at, attempts,"
    " last_error, delivered_at FROM announcements",
    "DELETE FROM sqlite_sequence WHERE name = 'announcements_v6'",
    "INSERT INTO sqlite_sequence (name, seq) SELECT 'announcements_v6', seq FROM sqlite_sequence"
    " WHERE name = 'announcements'",
    "DROP TABLE announcements",
    "ALTER TABLE announcements_v6 RENAME TO announcements",
    "CREATE INDEX announcements_pending ON announcements(id) WHERE delivered_at IS NULL",
    "ALTER TABLE games ADD COLUMN thread_wanted INTEGER NOT NULL DEFAULT 1"
    " CHECK (thread_wanted IN (0, 1))",
    "UPDATE games SET thread_wanted = 0",
)

# Version 7 (issue 13): correspondence play at its best.
# * Conditional moves: ``conditionals`` holds each player's prepared lines in a game (a
#   :class:`bot.rules.conditionals.ConditionalTree` as JSON, stored while the opponent is to move); a
#   move played from one has its own move row flagged ``conditional``, and the game remembers
#   the latest such ply for its board ("played from a conditional move").
# * Clocks: challenges and games name their clock (``TimeControl.to_text()``: "move 3d", "bank
#   7d+1d max 10d"); a game keeps each player's bank in seconds (the bank of the player to move
#   is the one their turn started with). Existing rows get "move <days_per_move>d".
# * Glicko-2: ratings get a deviation, a volatility and when they last changed; rating changes
#   keep the deviations. Recomputed by :func:`_recompute_ratings` (replaying every rated game).
# * Settings: move confirmation; the daily digest (its UTC hour, NULL: none; the UTC day the
#   last one went out). The outbox takes kind 'digest' (anchored on one of the games listed).
_V7 = (
    """
    CREATE TABLE conditionals (
        game_id    INTEGER NOT NULL REFERENCES games(id),
        seat       INTEGER NOT NULL CHECK (seat IN (1, 2)),   -- whose replies these are
        tree       TEXT    NOT NULL,                          -- ConditionalTree.to_json()
        ply        INTEGER NOT NULL,                          -- the game's ply when written
        updated_at REAL    NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID
    """,
    "ALTER TABLE moves ADD COLUMN conditional INTEGER NOT NULL DEFAULT 0 CHECK (conditional IN (0, 1))",
    "ALTER TABLE games ADD COLUMN conditional_ply INTEGER",  # latest ply played from a conditional
    "ALTER TABLE challenges ADD COLUMN clock TEXT NOT NULL DEFAULT 'move 3d'",
    "UPDATE challenges SET clock = 'move ' || days_per_move || 'd'",
    "ALTER TABLE games ADD COLUMN clock TEXT NOT NULL DEFAULT 'move 3d'",
    "ALTER TABLE games ADD COLUMN bank1 REAL",  # seconds; NULL once over is fine
    "ALTER TABLE games ADD COLUMN bank2 REAL",
    "UPDATE games SET clock = 'move ' || days_per_move || 'd', bank1 = days_per_move * 86400.0,"
    " bank2 = days_per_move * 86400.0",
    "ALTER TABLE ratings ADD COLUMN rd REAL NOT NULL DEFAULT 350",
    "ALTER TABLE ratings ADD COLUMN volatility REAL NOT NULL DEFAULT 0.06",
    "ALTER TABLE ratings ADD COLUMN last_played REAL",
    "ALTER TABLE rating_changes ADD COLUMN rd_before REAL",
    "ALTER TABLE rating_changes ADD COLUMN rd_after REAL",
    "ALTER TABLE user_settings ADD COLUMN confirm INTEGER NOT NULL DEFAULT 0 CHECK (confirm IN (0, 1))",
    "ALTER TABLE user_settings ADD COLUMN digest_hour INTEGER CHECK (digest_hour BETWEEN 0 AND 23)",
    "ALTER TABLE user_settings ADD COLUMN digest_day INTEGER",  # days since 1970-01-01 (UTC)
    """
    CREATE TABLE announcements_v7 (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id      INTEGER NOT NULL REFERENCES games(id),
        kind         TEXT    NOT NULL CHECK (kind IN ('reminder', 'timeout', 'move', 'dm', 'digest')),
        user_id      INTEGER NOT NULL,   -- reminder, move: the player to ping; timeout: who lost
                                         -- on time; dm, digest: the player to write to
        ply          INTEGER NOT NULL,   -- the game's ply when the row was written
        created_at   REAL    NOT NULL,
        attempts     INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),  -- failed posts so far
        last_error   TEXT,               -- why the last post failed (or why it was given up)
        delivered_at REAL                -- NULL: still to post; set once posted or given up
    )
    """,
    "INSERT INTO announcements_v7 (id, game_id, kind, user_id, ply, created_at, attempts,"
    " last_error, delivered_at) SELECT id, game_id, kind, user_id, ply, created_at, attempts,"
    " last_error, delivered_at FROM announcements",
    "DELETE FROM sqlite_sequence WHERE name = 'announcements_v7'",
    "INSERT INTO sqlite_sequence (name, seq) SELECT 'announcements_v7', seq FROM sqlite_sequence"
    " WHERE name = 'announcements'",
    "DROP TABLE announcements",
    "ALTER TABLE announcements_v7 RENAME TO announcements",
    "CREATE INDEX announcements_pending ON announcements(id) WHERE delivered_at IS NULL",
)


async def _recompute_ratings(store: Store) -> None:
    """Version 7's data step: every rating recomputed with Glicko-2 by replaying the rated
    finished games of each server and game in the order they ended (``finished_at``, then
    id), one game a rating period (:func:`bot.rules.glicko2.rate_game`); each game's rating changes
    are rewritten with the Glicko-2 values. Runs inside the migration's transaction."""
    from ..rules import glicko2  # pure

    games = await store.fetchall(
        "SELECT id, guild_id, kind, player1_id, player2_id, winner, finished_at FROM games"
        " WHERE status = 'finished' AND rated = 1 ORDER BY finished_at, id")
    table: dict[tuple[int, str, int], glicko2.Rating] = {}
    await store.execute("DELETE FROM rating_changes")
    for g in games:
        keys = [(g["guild_id"], g["kind"], g["player1_id"]), (g["guild_id"], g["kind"], g["player2_id"])]
        before = [table.get(k, glicko2.Rating()) for k in keys]
        after = glicko2.rate_game(before[0], before[1], g["winner"], g["finished_at"])
        for k, b, a in zip(keys, before, after, strict=True):
            table[k] = a
            await store.execute(
                "INSERT INTO rating_changes (game_id, user_id, before, after, rd_before, rd_after)"
                " VALUES (?, ?, ?, ?, ?, ?)", (g["id"], k[2], b.rating, a.rating, b.rd_at(g["finished_at"]), a.rd))
    await store.execute("DELETE FROM ratings")
    for (guild, kind, user), r in table.items():
        await store.execute(
            "INSERT INTO ratings (guild_id, kind, user_id, rating, games, rd, volatility, last_played)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (guild, kind, user, r.rating, r.games, r.rd, r.volatility,
                                                 r.last_played))


# Version 8 (issue 12): games against the computer and cached reviews. ``ai_seat`` is the seat
# the bot itself plays (NULL: two people) and ``ai_level`` its strength (ai.LEVELS, 1-5); the
# reviews table keeps one finished game's review (``ai.review.GameReview.to_dict`` as JSON),
# written once the search over the whole game is done.
_V8 = (
    "ALTER TABLE games ADD COLUMN ai_seat INTEGER CHECK (ai_seat IS NULL OR ai_seat IN (1, 2))",
    "ALTER TABLE games ADD COLUMN ai_level INTEGER"
    " CHECK (ai_level IS NULL OR ai_level BETWEEN 1 AND 5)",
    """
    CREATE TABLE reviews (
        game_id    INTEGER PRIMARY KEY REFERENCES games(id),
        review     TEXT    NOT NULL,     -- JSON: ai.review.GameReview.to_dict()
        created_at REAL    NOT NULL
    )
    """,
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "challenges, games, moves, user settings", _V1),
    Migration(2, "clocks, vacations, ratings, rematches", _V2),
    Migration(3, "announcement outbox", _V3),
    Migration(4, "index of games by channel", _V4),
    Migration(5, "board posts in the outbox (announcement kind 'move')", _V5),
    Migration(6, "your-turn DMs in the outbox (kind 'dm'); a game's thread still to be made", _V6),
    Migration(7, "conditional moves, bank clocks, Glicko-2 ratings, confirmation and digest settings",
              _V7, _recompute_ratings),
    Migration(8, "games against the computer (ai_seat, ai_level); cached reviews", _V8),
)
LATEST_VERSION = MIGRATIONS[-1].version
