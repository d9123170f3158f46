"""Moves and boards: move replies, board headlines, results, suggestions of /move.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import engine

from .common import moves_played

__all__ = ["BOARD_DELAYED", "BOARD_REFUSED", "CHOICE_STATES", "TERMINATION_PHRASES", "aborted",
           "answered_headline", "board_headline", "finished_game_choice", "game_choice",
           "is_aborted", "move_choice", "move_names_another_game", "move_reply",
           "not_your_turn_choice", "pick_game_choice", "ran_out_of_time", "resign_prompt",
           "resigned", "result_text", "server_game_choice", "termination_phrase", "thread_link",
           "turn_hint", "you_resigned"]


def turn_hint(kind: str, position: engine.Position) -> str:
    """A short reminder of what the player to move may play now (``position.turn_hint``,
    :attr:`engine.Position.turn_hint`): ``"one or two stones"``, ``"place a black stone or
    `pass`"``. ``kind`` is the game's key, kept for callers (the position knows its game)."""
    return position.turn_hint


#: How a result sentence says why a game ended, after "Ann beats Bob" (every
#: :class:`engine.Termination`; records read the phrase back, :func:`bot.rules.records.parse_record`).
TERMINATION_PHRASES: dict[engine.Termination, str] = {
    engine.Termination.COIL: "with a coil",
    engine.Termination.BOARD_FULL: "as the board filled without a coil",
    engine.Termination.STONES: "on stones",
    engine.Termination.SCORE: "on score",
    engine.Termination.CONNECTION: "by connecting their edges",
    engine.Termination.NO_MOVES: "who has no legal turn left",
    engine.Termination.RESIGNATION: "by resignation",
    engine.Termination.TIMEOUT: "on time",
}


def termination_phrase(reason: engine.Termination) -> str:
    """Why a game ended, as a result sentence says it after "Ann beats Bob": ``"with a coil"``
    (:data:`TERMINATION_PHRASES`)."""
    return TERMINATION_PHRASES[reason]


class _OutcomeLike(Protocol):
    """What :func:`result_text` reads of an outcome: an :class:`engine.Outcome`, or a stored
    result's fields (``reason`` a :class:`engine.Termination` or its word as stored)."""

    @property
    def winner(self) -> int | None: ...
    @property
    def reason(self) -> object: ...
    @property
    def scores(self) -> Mapping[int, int] | None: ...


def result_text(kind: str, outcome: _OutcomeLike, names: Mapping[int, str]) -> str:
    """The result sentence naming both players, e.g. ``"A beats B on stones (33–16)."`` --
    the winner's score first; a coral tie says the last stone placed decided it (RULES.md,
    Brain Coral / Branching Coral "Winner").

    ``outcome`` is an :class:`engine.Outcome` (RULES.md "Every game"; the reason worded by
    :func:`termination_phrase`); ``names`` maps seat -> display text (mentions are fine).
    Scores are shown unless a resignation or timeout ended the game.
    """
    reason = engine.Termination.read(outcome.reason)
    with_scores = bool(outcome.scores) and (reason is None or reason.by_rules)
    if outcome.winner is None:
        scores = (f" ({outcome.scores[1]}–{outcome.scores[2]})"
                  if with_scores and outcome.scores is not None else "")
        return f"{names[1]} and {names[2]} draw{scores}."
    winner, loser = outcome.winner, 3 - outcome.winner
    scores = ""
    if with_scores and outcome.scores is not None:  # the winner's score first, as the sentence reads
        won, lost = outcome.scores[winner], outcome.scores[loser]
        tie = "; a tie goes to the last stone placed" if won == lost else ""
        scores = f" ({won}–{lost}{tie})"
    how = termination_phrase(reason) if reason is not None else f"({outcome.reason})"
    return f"{names[winner]} beats {names[loser]} {how}{scores}."


def not_your_turn_choice(label: str, to_move: str) -> str:
    """The one /move suggestion shown while the opponent is to move:
    ``"Io #3: it is Bob's move, not yours — you will be pinged when it is your turn"``
    (``to_move`` is a display name; the caller cuts it to Discord's 100 characters)."""
    return f"{label}: it is {to_move}'s move, not yours — you will be pinged when it is your turn"


# ---- /move and /review suggestions, clock terms and the clocks of both players (issue 19) ----
def move_choice(label: str, move: str) -> str:
    """A /move suggestion naming its game, when several wait for the player: ``"Io #2 · c3"``."""
    return f"{label} · {move}"


def pick_game_choice(n: int) -> str:
    """The first /move suggestion when ``n`` games wait for the player (too many to suggest
    moves for each): submitted as it is, /move asks for ``game:``."""
    return f"{n} games wait for your move: choose one with game: first, or a move below"


def move_names_another_game(in_move: int, in_option: int) -> str:
    """/move whose chosen move was suggested for game number ``in_move`` while ``game:``
    names another, ``in_option``."""
    return (f"That move was suggested for game {in_move}, but `game:` says {in_option}: leave "
            f"`game:` out, or pick a move of game {in_option}.")


#: A ``game:`` suggestion's state: a running game waiting for the asking player or their
#: opponent, or a game that is over (by its status).
CHOICE_STATES = {"waiting": "your turn", "active": "their turn", "finished": "finished", "aborted": "aborted"}


def game_choice(label: str, opponent: str | None, state: str) -> str:
    """A ``game:`` suggestion (/board, /move, /history...): ``"Io #12 vs Bob · your turn"``
    (``opponent`` when known; ``state`` a key of :data:`CHOICE_STATES`)."""
    versus = f" vs {opponent}" if opponent else ""
    return f"{label}{versus} · {CHOICE_STATES[state]}"


def server_game_choice(label: str, first: str | None, second: str | None, ply: int) -> str:
    """A moderator's /abort suggestion: ``"Io #12 · Ann vs Bob · 14 moves played"`` (the
    players only when both names are known)."""
    players = f" · {first} vs {second}" if first and second else ""
    return f"{label}{players} · {moves_played(ply)}"


def finished_game_choice(label: str, first: str | None, second: str | None, ply: int) -> str:
    """A /review ``game:`` suggestion: ``"Io #12 · Ann vs Bob · 14 moves played"`` (the
    players only when both names are known), within Discord's 100 characters: long names
    are cut with "…"."""
    tail = f" · {moves_played(ply)}"
    if not (first and second):
        return f"{label}{tail}"
    room = max(2, (100 - len(label) - len(tail) - len(" ·  vs ")) // 2)
    first, second = (n if len(n) <= room else n[:room - 1] + "…" for n in (first, second))
    return f"{label} · {first} vs {second}{tail}"
BOARD_REFUSED = (" I could not post the board in the game's thread — check my permissions there, "
                 "and use `/board` to see it meanwhile.")
BOARD_DELAYED = (" I could not post the board in the game's thread just now; it is saved and will "
                 "follow there within a few minutes.")


def move_reply(label: str, move: str, effect: str, *, result: str | None = None,
               settled: str | None = None, to_move: int | None = None,
               replies: Sequence[tuple[int, str]] = (), you: int | None = None) -> str:
    """The mover's note after /move, to them (``you``: their user id): the move, then the
    result or who moves next. ``replies`` (issue 18): the conditional moves played at once
    after it, as (user id, move) -- the opponent's prepared reply, or the mover's own --
    named before the result; ``effect`` is then the last reply's."""
    if not replies:
        played = f"You played `{move}` in {label}{effect}."
    else:
        played = f"You played `{move}` in {label}. {_prepared_replies(replies, you)}{effect}."
    if result is not None:
        return f"{played} Game over: {result}"
    colour = f" You play {settled} from now on." if settled else ""
    if you is not None and to_move == you:
        return f"{played}{colour} It is your move again."
    return f"{played}{colour} Now it is <@{to_move}>'s move."


def _prepared_replies(replies: Sequence[tuple[int, str]], you: int | None = None) -> str:
    """``"<@Ann>'s prepared reply `d4` was played at once"`` -- several joined, each with
    whose it was (``you``: "your")."""
    def whose(uid: int) -> str:
        return "your" if uid == you else f"<@{uid}>'s"

    named = [f"{whose(uid)} prepared reply `{m}`" for uid, m in replies]
    text = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
    return f"{text[0].upper()}{text[1:]} {'was' if len(named) == 1 else 'were'} played at once"


def answered_headline(first_ply: int, last_ply: int, mover: int, move: str,
                      replies: list[tuple[int, str]], effect: str) -> str:
    """The first line of the board after a move answered at once by conditional moves
    (issue 18: the thread names every move): ``"moves 2–3: <@Ben> played `e5`; <@Ann>'s
    prepared reply `d4` was played at once"``; ``effect`` (what the last reply did) follows."""
    return (f"moves {first_ply}–{last_ply}: <@{mover}> played `{move}`; "
            f"{_prepared_replies(replies)}{effect}")


def resign_prompt(label: str, opponent: int) -> str:
    """The /resign confirmation."""
    return (f"Resign **{label}** against <@{opponent}>? The game ends and counts as a loss. "
            f"Press the button to confirm, or just ignore this message.")


def ran_out_of_time(user_id: int) -> str:
    """The headline of a board lost on time."""
    return f"<@{user_id}> ran out of time"


def resigned(user_id: int) -> str:
    """The headline of a board after a resignation."""
    return f"<@{user_id}> resigned"


def board_headline(ply: int, last_move: str | None) -> str:
    """The headline of a /board reply."""
    return f"move {ply}: last `{last_move}`" if ply and last_move else moves_played(ply)


def aborted(label: str, by: int, players: list[int]) -> str:
    """The note posted in a game's thread when a moderator aborts it, pinging its players."""
    return (f"**{label}** was aborted by <@{by}>: no result and no rating change.\n"
            + " ".join(f"<@{uid}>" for uid in players))


def you_resigned(label: str) -> str:
    """The resigning player's note."""
    return f"You resigned {label}."


def is_aborted(label: str) -> str:
    """The moderator's note after /abort."""
    return f"{label} is aborted."


def thread_link(channel_id: int) -> str:
    """The line under a /board of a game in progress: where it is played."""
    return f"\nThread: <#{channel_id}>"
