"""Analysis boards and private notes (issue 23): /analyze, its buttons, /note.

An **analysis board** belongs to the player who opened it (``user_id``) and is stored
(table ``analysis_sessions``, Alembic revision 0008), so it survives a restart. It holds a
start position, the game's record from there (``record``: the game's moves, none for a pasted
position or a new board), how many of those are kept (``kept``) before the player's own
moves (``own``), and the move shown (``cursor``, in moves from the start). ◀ ▶ move the
cursor (:meth:`AnalysisService.step`); Play (:meth:`AnalysisService.play`) plays a move at the
cursor -- the moves after it make way for the player's line -- and Undo
(:meth:`AnalysisService.undo`) takes the player's last move back (the game's own moves come
back once none of the player's is left). A board lapses :data:`SESSION_TTL` seconds after its
last use: pressing its buttons then is refused (:attr:`Refusal.ANALYSIS_EXPIRED`) and the row
is deleted; :meth:`AnalysisService.expire_boards` deletes every lapsed board.

**No help during a running game**: :meth:`AnalysisService.engine_input` refuses the Engine
(:attr:`Refusal.ENGINE_RUNNING_GAME`) on a board of a game in progress (at any of its moves,
or after moves played on the board), and on any position that equals or may still arise from
the current position of a game in progress in the board's server or of the caller anywhere,
by content (:func:`bot.rules.analysis.may_follow`) -- so a pasted text or a position played out
on a new board is caught like the game's own. (An earlier position of a running game pasted as
text is not refused: every game starts from the empty board, so refusing a running game's
ancestors would refuse nearly every position of that game and options.) Players may still open and step through their own
running game (Abstract Play's explore), spectators too; the Engine stays off for everyone.

**The Engine's cap**: at most :data:`ENGINE_PER_MINUTE` requests per player in any 60 seconds
(counted in this process; :attr:`Refusal.ENGINE_LIMIT` says how long to wait). The search itself
runs in the bot's workers (:meth:`bot.workers.computer.Computer.analyse`); its answer comes back
through :meth:`AnalysisService.record_engine`.

**Notes**: one private note per game and player (``game_notes``), at most :data:`NOTE_MAX`
characters (so it fits beside a board's text in one Discord message); deleted by /privacy with
the rest of the player's data (:mod:`bot.store.privacy`).
"""

from __future__ import annotations

import collections
import json
from dataclasses import dataclass
from typing import Any, cast

import engine

from ..rules.analysis import may_follow
from ..store.analysis import AnalysisRepo
from ..store.db import Row
from .core import HOUR, ManagerCore, Service
from .errors import NotAllowed, Refusal, StaleAction, UserError
from .lookup import LookupService
from .values import Game

__all__ = ["ENGINE_PER_MINUTE", "NOTE_MAX", "SESSION_TTL", "AnalysisBoard", "AnalysisService",
           "EngineLine"]

#: Seconds an analysis board lasts after its last use (a day).
SESSION_TTL = 24 * HOUR
#: Engine requests a player may make in any 60 seconds.
ENGINE_PER_MINUTE = 6
#: The longest private note, in characters.
NOTE_MAX = 500
#: The longest position text or move a board reads (longer text is refused unread).
_MAX_TEXT = 2000


@dataclass(frozen=True)
class EngineLine:
    """What the Engine said of one position (``position_text``): ``value`` (0..1, the chance
    of the side to move), ``line`` (whole moves from there, the principal variation), ``proven``
    (the MCTS-Solver proved ``value``: 1 a win, 0 a loss, 0.5 a draw) and ``plies_to_end`` (moves
    along ``line`` to the end when the line reaches it, else ``None``)."""

    position_text: str
    value: float
    line: tuple[str, ...]
    proven: bool
    plies_to_end: int | None


@dataclass(frozen=True)
class AnalysisBoard:
    """One analysis board as its owner sees it now: ``id``; owner ``user_id``; server
    ``guild_id``; the ``game`` it explores (``None``: a pasted position or a new board);
    ``start`` (the position of move 0); ``line`` (the moves from the start: the game's kept
    moves, then the player's ``own``); ``cursor`` (moves of ``line`` played to reach
    ``position``, the one shown); ``engine`` (the Engine's last answer, when it was about
    ``position``); ``note`` (the owner's note on ``game``); ``expires_at`` (UNIX seconds)."""

    id: int
    user_id: int
    guild_id: int | None
    game: Game | None
    start: engine.Position
    line: tuple[str, ...]
    own: tuple[str, ...]
    cursor: int
    position: engine.Position
    engine: EngineLine | None
    note: str | None
    expires_at: float


class AnalysisService(Service):
    """Analysis boards, their Engine gate and private notes (see the module). Uses the look-up
    service (which games a player may see, their moves)."""

    def __init__(self, core: ManagerCore, lookup: LookupService):
        super().__init__(core)
        self.lookup = lookup
        # user id -> times (UNIX seconds) of their Engine requests in the last minute
        self._engine_uses: dict[int, collections.deque[float]] = {}

    @property
    def repo(self) -> AnalysisRepo:
        """The ``analysis_sessions`` and ``game_notes`` tables, over the shared store."""
        return AnalysisRepo(self.store)

    # ---- opening a board ----------------------------------------------------------------------
    async def analyze(self, user_id: int, *, guild_id: int | None, game_id: int | None = None,
                      move: int | None = None, position: str | None = None,
                      kind: str | None = None, options: str | None = None) -> AnalysisBoard:
        """Open a board for ``user_id`` in server ``guild_id``: on game ``game_id`` (any game
        of this server, :meth:`LookupService.visible_game`) at ``move`` (moves played, default
        the last); on ``position`` (the engine's one-line text, :func:`engine.from_text`); or on
        a new board of ``kind`` with ``options`` (``"size=9,shape=hexhex"``). Raises NotFound
        (a game not seen from here), :class:`UserError` -- ANALYZE_ONE_SOURCE (none or several
        of the three), BAD_MOVE_NUMBER, BAD_POSITION_TEXT, BAD_OPTIONS_TEXT, POSITION_OVER (a finished pasted
        position), UNKNOWN_KIND, BAD_OPTION. Nothing is stored on a refusal."""
        given = [x is not None for x in (game_id, position, kind)]
        if sum(given) != 1 or (options is not None and kind is None) or (move is not None and game_id is None):
            raise UserError(Refusal.ANALYZE_ONE_SOURCE)
        game: Game | None = None
        record: list[str] = []
        if game_id is not None:
            game = await self.lookup.visible_game(user_id, game_id, guild_id=guild_id)
            start = engine.new_game(game.kind, **game.options)
            record = [m.move for m in await self.lookup.moves(game.id)]
            cursor = len(record) if move is None else move
            if isinstance(cursor, bool) or not isinstance(cursor, int) or not 0 <= cursor <= len(record):
                raise UserError(Refusal.BAD_MOVE_NUMBER, most=len(record))
        elif position is not None:
            start, cursor = self.read_position(position), 0
            if start.is_over:
                raise UserError(Refusal.POSITION_OVER)
        else:
            spec = self._kind(kind)
            read = _read_options(options)
            if read is None:
                raise UserError(Refusal.BAD_OPTIONS_TEXT, kind=spec.key)
            try:
                opts = spec.validate(read)
            except engine.OptionError as e:
                raise UserError(Refusal.BAD_OPTION, kind=spec.key, error=e) from None
            start, cursor = engine.new_game(spec.key, **opts), 0
        now = self.clock()
        async with self.store.transaction():
            await self.repo.delete_unused_since(now - SESSION_TTL)
            sid = await self.repo.insert_session(
                user_id=user_id, guild_id=guild_id, game_id=None if game is None else game.id,
                start_text=start.to_text(), record=json.dumps(record), kept=len(record), own="[]",
                cursor=cursor, now=now)
        return await self.board(sid, user_id)

    @staticmethod
    def read_position(text: Any) -> engine.Position:
        """The position written ``text`` (the engine's one-line form, surrounding spaces and
        backticks ignored). Raises :class:`UserError` BAD_POSITION_TEXT with the engine's
        error (``None``: over 2000 characters, not read)."""
        if not isinstance(text, str) or len(text) > _MAX_TEXT:
            raise UserError(Refusal.BAD_POSITION_TEXT, error=None)
        try:
            return engine.from_text(" ".join(text.strip().strip("`").split()))
        except engine.EngineError as e:
            raise UserError(Refusal.BAD_POSITION_TEXT, error=e) from None

    # ---- reading and changing a board -------------------------------------------------------
    async def board(self, session_id: int, user_id: int) -> AnalysisBoard:
        """Board ``session_id`` as its owner ``user_id`` sees it. Raises :class:`StaleAction`
        ANALYSIS_EXPIRED (lapsed or gone: a lapsed row is deleted), :class:`NotAllowed`
        NOT_YOUR_ANALYSIS (another player's)."""
        return await self._board(await self._row(session_id, user_id))

    async def step(self, session_id: int, user_id: int, delta: int) -> AnalysisBoard:
        """Move the cursor of ``user_id``'s board by ``delta`` moves (◀ -1, ▶ +1), kept
        within the line (a step past either end shows that end). Raises as :meth:`board`."""
        row = await self._row(session_id, user_id)
        line = _line(row)
        cursor = max(0, min(len(line), int(row["cursor"]) + int(delta)))
        return await self._save(row, user_id, kept=row["kept"], own=json.loads(row["own"]), cursor=cursor)

    async def play(self, session_id: int, user_id: int, move_text: str) -> AnalysisBoard:
        """Play ``move_text`` on ``user_id``'s board at the move shown, read as /move reads
        it (:meth:`engine.Position.play`: cleaned, checked by the rules); the moves after the
        cursor make way for it. Raises as :meth:`board`, and :class:`UserError`
        BAD_MOVE_TEXT, UNREADABLE_MOVE, ILLEGAL_MOVE (nothing changes)."""
        row = await self._row(session_id, user_id)
        line, cursor = _line(row), int(row["cursor"])
        here = _replay(row, cursor)
        if not isinstance(move_text, str) or not move_text.strip() or len(move_text) > self.limits.max_move_length:
            raise UserError(Refusal.BAD_MOVE_TEXT)
        try:
            after = here.play(move_text)
        except engine.MoveError as e:
            raise UserError(Refusal.UNREADABLE_MOVE, error=e) from None
        except engine.IllegalMove as e:
            raise UserError(Refusal.ILLEGAL_MOVE, error=e) from None
        kept = min(int(row["kept"]), cursor)
        own = list(line[kept:cursor]) + [cast(str, after.last_move)]  # a move was played
        return await self._save(row, user_id, kept=kept, own=own, cursor=cursor + 1)

    async def undo(self, session_id: int, user_id: int) -> AnalysisBoard:
        """Take back the last move ``user_id`` played on their board (the game's moves that
        made way come back once none of theirs is left) and show the position before it.
        Raises as :meth:`board`, and :class:`UserError` NOTHING_TO_UNDO."""
        row = await self._row(session_id, user_id)
        own = json.loads(row["own"])
        if not own:
            raise UserError(Refusal.NOTHING_TO_UNDO)
        own.pop()
        kept = int(row["kept"])
        cursor = kept + len(own)
        if not own:
            kept = len(json.loads(row["record"]))
        return await self._save(row, user_id, kept=kept, own=own, cursor=cursor)

    # ---- the Engine -----------------------------------------------------------------------------
    async def engine_input(self, session_id: int, user_id: int) -> AnalysisBoard:
        """Check an Engine request of ``user_id`` on their board and count it: the board (its
        ``position`` is what to search). Raises as :meth:`board`, and :class:`UserError`
        ENGINE_GAME_OVER (the position is finished), ENGINE_RUNNING_GAME (it equals or may
        arise from a running game's position, see the module; the game named),
        ENGINE_LIMIT (:data:`ENGINE_PER_MINUTE` reached; not counted)."""
        board = await self.board(session_id, user_id)
        if board.position.is_over:
            raise UserError(Refusal.ENGINE_GAME_OVER)
        running = {g.id: g for g in await self.lookup.active_games(user_id)}
        if board.guild_id is not None:
            running.update((g.id, g) for g in await self.lookup.server_games(board.guild_id))
        if board.game is not None and board.game.status == "active":
            running[board.game.id] = board.game  # any move of it, even one it has passed
        for g in sorted(running.values(), key=lambda g: g.id):
            if g.id == (board.game.id if board.game else None) or may_follow(board.position, g.position):
                raise NotAllowed(Refusal.ENGINE_RUNNING_GAME, game=g, playing=g.seat_of(user_id) is not None)
        now = self.clock()
        uses = self._engine_uses.setdefault(user_id, collections.deque())
        while uses and uses[0] <= now - 60:
            uses.popleft()
        if len(uses) >= ENGINE_PER_MINUTE:
            raise UserError(Refusal.ENGINE_LIMIT, most=ENGINE_PER_MINUTE, wait=max(1, int(uses[0] + 61 - now)))
        uses.append(now)
        return board

    async def record_engine(self, session_id: int, user_id: int, position: engine.Position, *,
                            value: float, line: list[str], proven: bool) -> AnalysisBoard:
        """Store the Engine's answer about ``position`` on ``user_id``'s board (shown while
        the board shows that position; Share posts it). Raises as :meth:`board`."""
        end = position
        for move in line:
            try:
                end = end.play(move)
            except engine.EngineError:
                break
        plies = len(line) if end.is_over and line else None
        answer = {"position_text": position.to_text(), "value": float(value), "line": list(line),
                  "proven": bool(proven), "plies_to_end": plies}
        row = await self._row(session_id, user_id)
        return await self._save(row, user_id, kept=row["kept"], own=json.loads(row["own"]),
                                cursor=row["cursor"], engine_json=json.dumps(answer))

    # ---- notes ----------------------------------------------------------------------------------
    async def set_note(self, user_id: int, game_id: int, text: str | None, *,
                       guild_id: int | None) -> tuple[Game, str | None]:
        """Keep ``text`` as ``user_id``'s private note on game ``game_id`` (seen from
        ``guild_id``); empty or ``None`` deletes it. Returns the game and the note kept.
        Raises NotFound, :class:`UserError` NOTE_TOO_LONG (over :data:`NOTE_MAX`)."""
        game = await self.lookup.visible_game(user_id, game_id, guild_id=guild_id)
        note = (text or "").strip()
        if len(note) > NOTE_MAX:
            raise UserError(Refusal.NOTE_TOO_LONG, length=len(note), most=NOTE_MAX)
        async with self.store.transaction():
            if note:
                await self.repo.put_note(game.id, user_id, note, self.clock())
            else:
                await self.repo.delete_note(game.id, user_id)
        return game, note or None

    async def note(self, user_id: int, game_id: int) -> str | None:
        """``user_id``'s own note on game ``game_id`` (``None``: none) -- shown to them only."""
        return await self.repo.note(game_id, user_id)

    async def expire_boards(self) -> int:
        """Delete every board unused for :data:`SESSION_TTL`; how many. Run by the bot's
        maintenance pass (:class:`bot.front.cogs.maintenance.MaintenanceCog`) in every
        process: the delete is one statement that claims each row as it removes it, so two
        processes sweeping at once delete each board once (the other counts 0), and a board
        used meanwhile is spared (its use writes ``used_at``; a use that reads a board and
        finds it deleted when it writes is refused as lapsed, changing nothing)."""
        async with self.store.transaction():
            return await self.repo.delete_unused_since(self.clock() - SESSION_TTL)

    # ---- inside -----------------------------------------------------------------------------------
    async def _row(self, session_id: int, user_id: int) -> Row:
        row = await self.repo.session(session_id)
        if row is not None and row["user_id"] != user_id:
            raise NotAllowed(Refusal.NOT_YOUR_ANALYSIS)
        if row is None or row["used_at"] + SESSION_TTL <= self.clock():
            if row is not None:
                async with self.store.transaction():
                    await self.repo.delete_unused_since(self.clock() - SESSION_TTL)
            raise StaleAction(Refusal.ANALYSIS_EXPIRED, hours=SESSION_TTL / HOUR)
        return row

    async def _save(self, row: Row, user_id: int, *, kept: int, own: list[str], cursor: int,
                    engine_json: str | None = None) -> AnalysisBoard:
        now = self.clock()
        async with self.store.transaction():
            stored = await self.repo.update_session(
                row["id"], kept=kept, own=json.dumps(own), cursor=cursor,
                engine=engine_json if engine_json is not None else row["engine"], now=now,
                lapsed=now - SESSION_TTL)
            fresh = await self.repo.session(row["id"]) if stored else None
        if fresh is None:  # it lapsed, or another process's sweep deleted it, since it was read
            raise StaleAction(Refusal.ANALYSIS_EXPIRED, hours=SESSION_TTL / HOUR)
        return await self._board(fresh)

    async def _board(self, row: Row) -> AnalysisBoard:
        game, note = None, None
        if row["game_id"] is not None:
            game = await self.lookup.get_game(row["game_id"])
            note = await self.repo.note(game.id, row["user_id"])
        line = _line(row)
        position = _replay(row, int(row["cursor"]))
        answer = json.loads(row["engine"]) if row["engine"] else None
        shown = None
        if answer is not None and answer["position_text"] == position.to_text():
            shown = EngineLine(answer["position_text"], answer["value"], tuple(answer["line"]),
                               answer["proven"], answer["plies_to_end"])
        return AnalysisBoard(row["id"], row["user_id"], row["guild_id"], game,
                             engine.from_text(row["start_text"]), tuple(line),
                             tuple(json.loads(row["own"])), int(row["cursor"]), position, shown,
                             note, row["used_at"] + SESSION_TTL)


def _line(row: Row) -> list[str]:
    """A board row's line: the record's kept moves, then the player's own."""
    return list(json.loads(row["record"]))[:int(row["kept"])] + list(json.loads(row["own"]))


def _replay(row: Row, cursor: int) -> engine.Position:
    """The position after ``cursor`` moves of a board row's line."""
    pos = engine.from_text(row["start_text"])
    for move in _line(row)[:cursor]:
        pos = pos.play(move)
    return pos


def _read_options(text: str | None) -> dict[str, str] | None:
    """``"size=9, shape=hexhex"`` as ``{"size": "9", "shape": "hexhex"}`` (validated by the
    game's :meth:`engine.GameKind.validate` afterwards); ``None`` when an item is not
    ``name=value``."""
    out: dict[str, str] = {}
    for item in (text or "").replace(";", ",").split(","):
        if not item.strip():
            continue
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            return None
        out[name.strip().lower()] = value.strip().lower()
    return out
