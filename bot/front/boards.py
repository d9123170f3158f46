"""Board messages as values: the text, the image and whom they ping, for every post about a game.

A pure presenter (issue 11): each function takes what a manager operation returned (the game,
its position, the rating changes, the vacation of the player to move) and the rendered PNG,
and gives a :class:`Post` -- message content, attachment, allowed mentions and buttons. Nothing
here awaits, reads the database or talks to Discord: :class:`bot.front.announcer.Announcer` renders,
posts, marks delivered and retries. Every board that asks someone to move mentions only that
player (DESIGN.md, Bot).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

import discord

from bot import texts

from .views import rematch_view

if TYPE_CHECKING:
    import engine
    from bot.manager import Game, MoveRecord, MoveResult

#: Discord's limit for a message's content, in characters.
MESSAGE_LIMIT = 2000


@dataclass(frozen=True)
class Post:
    """One message to send: ``content`` (cut to :data:`MESSAGE_LIMIT`), an optional board
    image (``png`` bytes attached as ``filename``), ``mentions`` (the user ids it may ping;
    nobody else, no roles, no @everyone), an optional ``view`` (buttons) and the image's
    ``description`` (alt text, :func:`bot.front.alttext.board`; the announcer sets it)."""

    content: str
    png: bytes | None = None
    filename: str = ""
    mentions: tuple[int, ...] = ()
    view: discord.ui.View | None = None
    description: str = ""

    @property
    def allowed_mentions(self) -> discord.AllowedMentions:
        """Only :attr:`mentions` may ping."""
        if not self.mentions:
            return discord.AllowedMentions.none()
        return discord.AllowedMentions(users=[discord.Object(uid) for uid in self.mentions],
                                       roles=False, everyone=False)

    def file(self) -> discord.File | None:
        """A fresh attachment for the image (a ``discord.File`` is spent by one send), with
        its description (:func:`attachment`: ValueError while there is none)."""
        return None if self.png is None else attachment(self.png, self.filename, self.description)

    def send_kwargs(self, nonce: str | None = None) -> dict[str, Any]:
        """Keyword arguments for ``Messageable.send``; ``nonce``: see :func:`outbox_nonce`."""
        kwargs: dict[str, Any] = {"content": self.content[:MESSAGE_LIMIT], "allowed_mentions": self.allowed_mentions}
        file = self.file()
        if file is not None:
            kwargs["file"] = file
        if self.view is not None:
            kwargs["view"] = self.view
        if nonce is not None:
            kwargs["nonce"] = nonce
        return kwargs


def outbox_nonce(announcement_id: int | None) -> str | None:
    """The message nonce for the post of outbox row ``announcement_id`` (``None``: no row).

    discord.py sends a nonce with ``enforce_nonce``: Discord then answers a second post with
    the same nonce by the same bot, within a few minutes, with the first message instead of a
    new one -- so a post retried after a crash (or raced by the delivery pass) appears once.
    At most 25 characters, as Discord allows.
    """
    return None if announcement_id is None else f"stonecast-{int(announcement_id)}"[:25]


def seat_line(game: Game, position: engine.Position, seat: int) -> str:
    """``"<@id> (White)"`` -- a seat's player with their colour when known."""
    return texts.seat_line(game.players[seat], position.colour(seat))


def deadline_of(game: Game, position: engine.Position) -> datetime | None:
    """The current move's deadline (UTC) while the game runs, else None (for the image's panel)."""
    if game.status != "active" or position.outcome is not None or not game.deadline:
        return None
    return datetime.fromtimestamp(game.deadline, UTC)


def panel_clock(game: Game, position: engine.Position) -> str | None:
    """The clock line of the image's panel while the game runs: the clock's short name
    (``"bank 7d+1d"``, ``"3 days a move"``); each player's own time stands on their card
    (:func:`panel_clocks`)."""
    if game.status != "active" or position.outcome is not None or game.time_control is None:
        return None
    return texts.clock_short(game.time_control)


def panel_clocks(game: Game, position: engine.Position) -> tuple[tuple[int, str], ...] | None:
    """Each player's time for their card on the image's panel (issue 19: both players' time,
    as Little Golem shows it), while the game runs, as ``((seat, clock text), ...)`` --
    hashable, for the image cache (:func:`bot.texts.panel_text` takes it as a dict): the
    mover's deadline while their clock runs (:func:`bot.texts.panel_due`; none on a move's
    preview, whose game carries no deadline), and with a bank clock the waiting player's bank
    (:func:`bot.texts.panel_bank`). The computer's seat has none. ``None`` when there is
    nothing to show."""
    if game.status != "active" or position.outcome is not None:
        return None
    due = deadline_of(game, position)
    shown: list[tuple[int, str]] = []
    for seat in (1, 2):
        if seat == game.ai_seat:
            continue
        if seat == position.to_move:
            if due is not None:
                shown.append((seat, texts.panel_due(due)))
        elif game.time_control.kind == "bank":
            shown.append((seat, texts.panel_bank(texts.bank_amount(game.bank(seat)))))
    return tuple(shown) or None


def board_filename(game: Game, position: engine.Position) -> str:
    """The attachment name of a board image: ``"stonecast-<game>-<ply>.png"``."""
    return f"stonecast-{game.id}-{position.ply}.png"


def attachment(data: bytes, filename: str, description: str) -> discord.File:
    """The one way the bot attaches a file (issue 19): ``data`` named ``filename`` with its
    ``description`` -- the alt text screen readers read (:mod:`bot.front.alttext` builds them), cut
    to Discord's :data:`bot.texts.ATTACHMENT_DESCRIPTION` characters. Raises ValueError for an
    empty description: no picture goes out undescribed."""
    if not description or not description.strip():
        raise ValueError(f"the attachment {filename!r} has no description")
    limit = texts.ATTACHMENT_DESCRIPTION
    if len(description) > limit:
        description = description[:limit - 1] + "…"
    return discord.File(io.BytesIO(data), filename=filename, description=description)


def board_file(game: Game, position: engine.Position, png: bytes, description: str) -> discord.File:
    """The attachment for a board image, named after the game and ply, with its
    ``description`` (:func:`bot.front.alttext.board`)."""
    return attachment(png, board_filename(game, position), description)


def board_text(game: Game, position: engine.Position, *, headline: str) -> tuple[str, int | None]:
    """Message content for a board post and the user id to ping (``None`` when over, or when
    the computer is to move).

    ``headline`` is the first line (what just happened). While the game goes on, the second
    line asks the player to move (with the deadline), or says the computer moves next; at
    the end it gives the result.
    """
    label = texts.game_label(game.kind, game.id)
    lines = [texts.post_head(label, headline)]
    outcome = position.outcome
    if outcome is not None:
        names = {seat: seat_line(game, position, seat) for seat in game.players}
        lines.append(texts.result_text(game.kind, outcome, names))
        return "\n".join(lines), None
    if game.status == "aborted":
        lines.append(texts.i18n._(texts.ABORTED_NO_RESULT))
        return "\n".join(lines), None
    seat = position.to_move
    assert seat is not None  # no outcome: someone is to move
    uid = game.players[seat]
    colour = position.colour(seat)
    if seat == game.ai_seat and game.ai_level is not None:  # nobody to ask: the computer moves
        lines.append(texts.computer_to_move(uid, game.ai_level, colour))
        return "\n".join(lines), None
    due = (texts.due_at(game.deadline, texts.clock_short(game.time_control))
           if game.deadline and game.status == "active" else "")
    if due and game.time_control.kind == "bank" and game.ai_seat != 3 - seat:  # issue 19
        due += texts.others_bank(game.players[3 - seat], texts.bank_amount(game.bank(3 - seat)))
    lines.append(texts.your_move(uid, colour, texts.turn_hint(game.kind, position), due))
    return "\n".join(lines), uid


def vacation_note(user_id: int, until: float | None) -> str:
    """``"<@id> is on vacation until …: their clock waits."`` while ``until`` (UNIX seconds,
    the manager's :attr:`~bot.manager.UserSettings.vacation_until`) is set, else ``""``."""
    if not until:
        return ""
    return texts.vacation_note(user_id, until)


def deadline_note(game: Game, user_id: int, vacation_until: float | None) -> Post:
    """The short note in the game's thread after ``user_id`` (the player to move) started
    (``vacation_until`` set) or ended a vacation: the move's new deadline, which the last
    board no longer shows. Pings nobody."""
    label = texts.game_label(game.kind, game.id)
    away = vacation_note(user_id, vacation_until)
    assert game.deadline is not None  # the player to move has a deadline
    if away:
        return Post(texts.post_head(label, texts.deadline_moved(away, game.deadline)))
    return Post(texts.post_head(label, texts.back_from_vacation(user_id, game.deadline)))


def board_post(game: Game, position: engine.Position, png: bytes, *, headline: str,
               vacation_until: float | None = None, ping: int | Iterable[int] | None = None,
               extra: str = "", view: discord.ui.View | None = None) -> Post:
    """The board of ``position`` as a new message in the game's thread.

    ``vacation_until``: when the player to move is away, a note says their clock waits.
    ``ping`` overrides whom to notify: a user id or several (default: the player to move; at
    the end nobody unless given); each is mentioned in the text if not already. ``extra``
    lines are appended; ``view`` adds buttons.
    """
    content, to_move = board_text(game, position, headline=headline)
    if to_move is not None:
        note = vacation_note(to_move, vacation_until)
        if note:
            content += "\n" + note
    if extra:
        content += "\n" + extra
    ping = ping if ping is not None else to_move
    pings = () if ping is None else (ping,) if isinstance(ping, int) else tuple(dict.fromkeys(ping))
    missing = [f"<@{uid}>" for uid in pings if f"<@{uid}>" not in content]
    if missing:
        content += "\n" + " ".join(missing)
    return Post(content, png, board_filename(game, position), pings, view)


def move_headline(game: Game, position: engine.Position, seat: int | None,
                  plies: Sequence[MoveRecord] = ()) -> str:
    """The first line of the board after a move: ``"move 7: <@id> played `c3`"`` -- when the
    move settled the colours (Coil's first pass, RULES.md "Coil") also who plays which -- or,
    at ply 0 (``seat`` ``None``), the players and colours of the game that begins.

    ``plies`` (issue 18): every move the board announces, in order, the last making
    ``position`` (:attr:`~bot.manager.MoveResult.plies`). When conditional replies followed
    the player's move, the line names each with its player (:func:`bot.texts.answered_headline`),
    so the thread shows the move that set them off too."""
    if seat is None or position.ply == 0:
        return texts.game_begins(seat_line(game, position, 1), seat_line(game, position, 2))
    if len(plies) > 1 and plies[-1].ply == position.ply:
        own, *replies = plies
        seat = plies[-1].seat
        headline = texts.answered_headline(own.ply, position.ply, game.players[own.seat], own.move,
                                           [(game.players[r.seat], r.move) for r in replies],
                                           move_effect(position))
        return headline + _takes_colour(game, position, seat)
    assert position.last_move is not None  # ply > 0: a move was played
    headline = texts.move_played(position.ply, game.players[seat], position.last_move)
    headline += move_effect(position)
    if game.conditional_ply is not None and game.conditional_ply == position.ply:
        headline += texts.i18n._(texts.FROM_CONDITIONAL)
    return headline + _takes_colour(game, position, seat)


def _takes_colour(game: Game, position: engine.Position, seat: int) -> str:
    """The headline's addition when the move of ``seat`` settled the colours, else ``""``."""
    if not (position.last_move_settled_colours and (colour := position.colour(seat))):
        return ""
    other = position.colour(3 - seat)
    assert other is not None  # the colours are settled: both seats have one
    return texts.takes_colour(colour, game.players[3 - seat], other)


def move_effect(position: engine.Position) -> str:
    """What the last move did beyond placing, in words, for the text of its post (a
    notification shows text, not the picture), from the engine's highlights: ``", turning
    over 5 stones"`` (Io), ``", removing 2 White stones (a1, c2) and 1 Black stone (d4)"``
    (Branching Coral), else ``""``."""
    marks = position.highlights
    if marks.removed:
        parts = []
        for colour in ("white", "black"):
            cells = sorted((c for c, col in marks.removed.items() if col == colour), key=_cell_order)
            if cells:
                parts.append(texts.stones_at(len(cells), colour, cells))
        return texts.removing(parts)
    if marks.flipped:
        return texts.turning_over(len(marks.flipped))
    return ""


def _cell_order(label: str) -> tuple[int, str]:
    """Sort key reading cells as players do: by row number, then file (``a2`` before ``a10``)."""
    digits = "".join(ch for ch in label if ch.isdigit())
    return int(digits or 0), label


def colour_settled_by(position: engine.Position, seat: int) -> str | None:
    """``"Black"`` when the move ``seat`` just played settled the colours and made them Black
    (:attr:`engine.Position.last_move_settled_colours`: Coil's first pass, RULES.md "Coil");
    ``None`` for every other move."""
    if position.last_move_settled_colours and (colour := position.colour(seat)):
        return texts.colour_name(colour)
    return None


def ratings_line(game: Game, changes: Mapping[int, tuple[float, float]]) -> str:
    """``"Ratings: <@a> 1500 → 1520 (+20) · <@b> 1500 → 1480 (−20)"`` from ``changes`` (user
    id -> (before, after), as the manager returns them), or ``""`` when there are none."""
    parts = []
    for seat in (1, 2):
        uid = game.players[seat]
        if uid in changes:
            parts.append(texts.rating_change(uid, *changes[uid]))
    return texts.ratings_line(parts) if parts else ""


def final_post(game: Game, position: engine.Position, png: bytes, *, headline: str,
               ping: int | Iterable[int], rating_changes: Mapping[int, tuple[float, float]]) -> Post:
    """The final board: result, winning structure (drawn by the renderer), rating changes and
    a Rematch button. ``ping``: the player (or players) to tell -- the one who did not end
    the game; after a loss on time both."""
    return board_post(game, position, png, headline=headline, ping=ping,
                      extra=ratings_line(game, rating_changes), view=rematch_view(game.id))


def move_post(game: Game, position: engine.Position, seat: int | None, png: bytes, *,
              vacation_until: float | None = None,
              rating_changes: Mapping[int, tuple[float, float]] | None = None,
              plies: Sequence[MoveRecord] = ()) -> Post:
    """The board after the move ``seat`` just played (``None``: the first board of a new
    game): asking the player to move (with their vacation note), or the final board when the
    move ended the game (pinging the player who did not make it, never the computer, with
    ``rating_changes``). ``plies``: every move it announces (:func:`move_headline`), when a
    conditional reply followed the player's move.
    On the computer's turn (a game against it) nobody is pinged and the post says who moves
    next (:func:`bot.texts.computer_to_move`: a line that stays true once it has moved).

    The /move and Accept handlers and the outbox's delivery of a board they could not post
    both come here, so a board posted late reads the same.
    """
    headline = move_headline(game, position, seat, plies)
    if position.outcome is not None and seat is not None:
        # the player who did not make the move -- unless that is the computer
        ping = () if game.ai_seat == 3 - seat else game.players[3 - seat]
        return final_post(game, position, png, headline=headline + texts.i18n._(texts.GAME_OVER),
                          ping=ping, rating_changes=rating_changes or {})
    return board_post(game, position, png, headline=headline, vacation_until=vacation_until)


def turn_dm_text(game: Game, position: engine.Position, seat: int | None,
                 plies: Sequence[MoveRecord] = ()) -> str:
    """The your-turn DM: what the opponent played (the board's headline, see
    :func:`move_headline`, with every move of ``plies``; at ply 0 that the game begins),
    then the game, the colour, a link to its thread and the deadline."""
    uid = game.to_move_user
    assert uid is not None and position.to_move is not None  # turn_dm checks someone is to move
    label = texts.game_label(game.kind, game.id)
    link = f"https://discord.com/channels/{game.guild_id}/{game.channel_for_posts}"
    return texts.turn_dm(label, move_headline(game, position, seat, plies), position.colour(position.to_move),
                         texts.player_ref(game, cast(int, game.opponent_of(uid))),  # uid plays
                         texts.turn_hint(game.kind, position), link, game.deadline)


def turn_dm(game: Game, position: engine.Position, seat: int | None, png: bytes,
            plies: Sequence[MoveRecord] = ()) -> Post:
    """The your-turn DM to the player to move, with the board image (the same PNG as the
    thread's post), what the opponent (``seat``; ``None`` at ply 0) played (every move of
    ``plies``, as the board names them) and a link to the thread. Pings nobody. Raises
    ValueError when nobody is to move."""
    if game.to_move_user is None:
        raise ValueError(f"nobody is to move in game {game.id}")
    return Post(turn_dm_text(game, position, seat, plies), png, board_filename(game, position))


def reminder_post(game: Game) -> Post:
    """The one reminder per turn before the deadline, mentioning only the player to move."""
    uid = game.to_move_user
    assert uid is not None and game.deadline is not None  # a reminder is for a running turn
    label = texts.game_label(game.kind, game.id)
    return Post(texts.reminder(uid, label, game.deadline), mentions=(uid,))


def abort_post(game: Game, by: int, players: Iterable[int]) -> Post:
    """The note in the game's thread after moderator ``by`` aborted it, pinging ``players``."""
    players = tuple(players)
    label = texts.game_label(game.kind, game.id)
    if game.ai_seat is not None and game.players[game.ai_seat] == by:
        return Post(texts.computer_gave_up(label, list(players)), mentions=players)
    return Post(texts.aborted(label, by, list(players)), mentions=players)


def move_reply(result: MoveResult) -> str:
    """The mover's own (ephemeral) note after /move or Confirm (:func:`bot.texts.move_reply`),
    in the second person: the move and what it did, the conditional replies played at once
    after it with whose each was (issue 13; issue 18: "it is your move again"), then the
    result, or the colour it settled and who moves next."""
    game, position = result.game, result.position
    names = {seat: f"<@{uid}>" for seat, uid in game.players.items()}
    mover = game.players[result.seat]
    return texts.move_reply(
        texts.game_label(game.kind, game.id), result.move, move_effect(position),
        result=(texts.result_text(game.kind, position.outcome, names)
                if result.finished and position.outcome is not None else None),
        settled=colour_settled_by(position, result.seat) if result.last_seat == result.seat else None,
        to_move=game.to_move_user, replies=[(game.players[r.seat], r.move) for r in result.replies],
        you=mover)
