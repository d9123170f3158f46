"""Moves and boards: move replies, board headlines, results, suggestions of /move.

Part of :mod:`bot.texts` (every sentence a player reads), in the current language
(:mod:`bot.texts.i18n`); constants are English message ids, translated where they are used."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import engine

from .common import moves_played
from .i18n import N_, _, ngettext

__all__ = ["BOARD_DELAYED", "BOARD_REFUSED", "CHOICE_STATES", "TERMINATION_PHRASES", "aborted",
           "answered_headline", "board_headline", "finished_game_choice", "game_choice",
           "is_aborted", "move_choice", "move_names_another_game", "move_reply",
           "not_your_turn_choice", "pick_game_choice", "ran_out_of_time", "resign_prompt",
           "resigned", "result_text", "server_game_choice", "termination_phrase", "thread_link",
           "turn_hint", "you_resigned"]

#: What the player to move may play, by the engine's :class:`engine.Stage` (RULES.md, each
#: game's turns); moves players type stay in backticks.
TURN_HINTS: dict[engine.Stage, str] = {
    engine.Stage.ONE_STONE: N_("one stone"),
    engine.Stage.TWO_STONES: N_("one or two stones"),
    engine.Stage.COIL_PHASE_I: N_("place a black stone or `pass`"),
    engine.Stage.COIL_PHASE_II: N_("place a stone of your colour"),
    engine.Stage.IO_FIRST_STONE: N_("one stone, not on a corner"),
    engine.Stage.IO_BOUND_THEN_FREE: N_("bound then free, like `c3 e5`"),
    engine.Stage.IO_MAIN: N_("one stone"),
    engine.Stage.WHIRLWIND_FIRST_TURN: N_("one stone: the first turn places just one"),
    engine.Stage.WHIRLWIND_TWO_STONES: N_("one or two stones"),
}


def turn_hint(kind: str, position: engine.Position) -> str:
    """A short reminder of what the player to move may play now (:data:`TURN_HINTS` by
    :attr:`engine.Position.stage`): ``"one or two stones"``, ``"place a black stone or
    `pass`"``. ``kind`` is the game's key, kept for callers (the position knows its game)."""
    return _(TURN_HINTS[position.stage])


#: How a result sentence says why a game ended, after "Ann beats Bob" (every
#: :class:`engine.Termination`; records read the English phrase back, in English whatever the
#: reader's language: :func:`bot.rules.records.parse_record`).
TERMINATION_PHRASES: dict[engine.Termination, str] = {
    engine.Termination.COIL: N_("with a coil"),
    engine.Termination.BOARD_FULL: N_("as the board filled without a coil"),
    engine.Termination.STONES: N_("on stones"),
    engine.Termination.SCORE: N_("on score"),
    engine.Termination.CONNECTION: N_("by connecting their edges"),
    engine.Termination.NO_MOVES: N_("who has no legal turn left"),
    engine.Termination.RESIGNATION: N_("by resignation"),
    engine.Termination.TIMEOUT: N_("on time"),
}


def termination_phrase(reason: engine.Termination) -> str:
    """Why a game ended, as a result sentence says it after "Ann beats Bob": ``"with a coil"``
    (:data:`TERMINATION_PHRASES`, in the current language)."""
    return _(TERMINATION_PHRASES[reason])


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
        return _("{first} and {second} draw{scores}.").format(first=names[1], second=names[2], scores=scores)
    winner, loser = outcome.winner, 3 - outcome.winner
    scores = ""
    if with_scores and outcome.scores is not None:  # the winner's score first, as the sentence reads
        won, lost = outcome.scores[winner], outcome.scores[loser]
        if won == lost:
            scores = " " + _("({won}–{lost}; a tie goes to the last stone placed)").format(won=won, lost=lost)
        else:
            scores = f" ({won}–{lost})"
    how = termination_phrase(reason) if reason is not None else f"({outcome.reason})"
    return _("{winner} beats {loser} {how}{scores}.").format(
        winner=names[winner], loser=names[loser], how=how, scores=scores)


def not_your_turn_choice(label: str, to_move: str) -> str:
    """The one /move suggestion shown while the opponent is to move:
    ``"Io #3: it is Bob's move, not yours — you will be pinged when it is your turn"``
    (``to_move`` is a display name; the caller cuts it to Discord's 100 characters)."""
    return _("{game}: it is {player}'s move, not yours — you will be pinged when it is your turn").format(
        game=label, player=to_move)


# ---- /move and /review suggestions, clock terms and the clocks of both players (issue 19) ----
def move_choice(label: str, move: str) -> str:
    """A /move suggestion naming its game, when several wait for the player: ``"Io #2 · c3"``."""
    return f"{label} · {move}"


def pick_game_choice(n: int) -> str:
    """The first /move suggestion when ``n`` games wait for the player (too many to suggest
    moves for each): submitted as it is, /move asks for ``game:``."""
    return ngettext("{n} game waits for your move: choose one with game: first, or a move below",
                    "{n} games wait for your move: choose one with game: first, or a move below", n).format(n=n)


def move_names_another_game(in_move: int, in_option: int) -> str:
    """/move whose chosen move was suggested for game number ``in_move`` while ``game:``
    names another, ``in_option``."""
    return _("That move was suggested for game {suggested}, but `game:` says {named}: leave "
             "`game:` out, or pick a move of game {named}.").format(suggested=in_move, named=in_option)


#: A ``game:`` suggestion's state: a running game waiting for the asking player or their
#: opponent, or a game that is over (by its status).
CHOICE_STATES = {"waiting": N_("your turn"), "active": N_("their turn"), "finished": N_("finished"),
                 "aborted": N_("aborted")}


def game_choice(label: str, opponent: str | None, state: str) -> str:
    """A ``game:`` suggestion (/board, /move, /history...): ``"Io #12 vs Bob · your turn"``
    (``opponent`` when known; ``state`` a key of :data:`CHOICE_STATES`)."""
    game = _("{game} vs {opponent}").format(game=label, opponent=opponent) if opponent else label
    return f"{game} · {_(CHOICE_STATES[state])}"


def server_game_choice(label: str, first: str | None, second: str | None, ply: int) -> str:
    """A moderator's /abort suggestion: ``"Io #12 · Ann vs Bob · 14 moves played"`` (the
    players only when both names are known)."""
    players = " · " + _("{first} vs {second}").format(first=first, second=second) if first and second else ""
    return f"{label}{players} · {moves_played(ply)}"


def finished_game_choice(label: str, first: str | None, second: str | None, ply: int) -> str:
    """A /review ``game:`` suggestion: ``"Io #12 · Ann vs Bob · 14 moves played"`` (the
    players only when both names are known), within Discord's 100 characters: long names
    are cut with "…"."""
    tail = f" · {moves_played(ply)}"
    if not (first and second):
        return f"{label}{tail}"
    versus = _("{first} vs {second}")
    room = max(2, (100 - len(label) - len(tail) - len(" · ") - len(versus.format(first="", second=""))) // 2)
    first, second = (n if len(n) <= room else n[:room - 1] + "…" for n in (first, second))
    return f"{label} · {versus.format(first=first, second=second)}{tail}"
#: Added to a move's reply when its board could not be posted in the thread (each after a space).
BOARD_REFUSED = N_(" I could not post the board in the game's thread — check my permissions there, "
                   "and use `/board` to see it meanwhile.")
BOARD_DELAYED = N_(" I could not post the board in the game's thread just now; it is saved and will "
                   "follow there within a few minutes.")


def move_reply(label: str, move: str, effect: str, *, result: str | None = None,
               settled: str | None = None, to_move: int | None = None,
               replies: Sequence[tuple[int, str]] = (), you: int | None = None) -> str:
    """The mover's note after /move, to them (``you``: their user id): the move, then the
    result or who moves next. ``replies`` (issue 18): the conditional moves played at once
    after it, as (user id, move) -- the opponent's prepared reply, or the mover's own --
    named before the result; ``effect`` is then the last reply's."""
    if not replies:
        played = _("You played `{move}` in {game}{effect}.").format(move=move, game=label, effect=effect)
    else:
        played = _("You played `{move}` in {game}. {replies}{effect}.").format(
            move=move, game=label, replies=_prepared_replies(replies, you), effect=effect)
    if result is not None:
        return played + " " + _("Game over: {result}").format(result=result)
    colour = " " + _("You play {colour} from now on.").format(colour=settled) if settled else ""
    if you is not None and to_move == you:
        return f"{played}{colour} " + _("It is your move again.")
    return f"{played}{colour} " + _("Now it is {player}'s move.").format(player=f"<@{to_move}>")


def _prepared_replies(replies: Sequence[tuple[int, str]], you: int | None = None) -> str:
    """``"<@Ann>'s prepared reply `d4` was played at once"`` -- several joined, each with
    whose it was (``you``: "your")."""
    def reply(uid: int, m: str) -> str:
        if uid == you:
            return _("your prepared reply `{move}`").format(move=m)
        return _("{player}'s prepared reply `{move}`").format(player=f"<@{uid}>", move=m)

    named = [reply(uid, m) for uid, m in replies]
    if len(named) == 1:
        text = _("{reply} was played at once").format(reply=named[0])
    else:
        text = _("{replies} were played at once").format(
            replies=_("{first} and {second}").format(first=", ".join(named[:-1]), second=named[-1]))
    return text[:1].upper() + text[1:]


def answered_headline(first_ply: int, last_ply: int, mover: int, move: str,
                      replies: list[tuple[int, str]], effect: str) -> str:
    """The first line of the board after a move answered at once by conditional moves
    (issue 18: the thread names every move): ``"moves 2–3: <@Ben> played `e5`; <@Ann>'s
    prepared reply `d4` was played at once"``; ``effect`` (what the last reply did) follows."""
    return _("moves {first}–{last}: {player} played `{move}`; {replies}{effect}").format(
        first=first_ply, last=last_ply, player=f"<@{mover}>", move=move, replies=_prepared_replies(replies),
        effect=effect)


def resign_prompt(label: str, opponent: int) -> str:
    """The /resign confirmation."""
    return _("Resign **{game}** against {opponent}? The game ends and counts as a loss. "
             "Press the button to confirm, or just ignore this message.").format(
        game=label, opponent=f"<@{opponent}>")


def ran_out_of_time(user_id: int) -> str:
    """The headline of a board lost on time."""
    return _("{player} ran out of time").format(player=f"<@{user_id}>")


def resigned(user_id: int) -> str:
    """The headline of a board after a resignation."""
    return _("{player} resigned").format(player=f"<@{user_id}>")


def board_headline(ply: int, last_move: str | None) -> str:
    """The headline of a /board reply."""
    if ply and last_move:
        return _("move {ply}: last `{move}`").format(ply=ply, move=last_move)
    return moves_played(ply)


def aborted(label: str, by: int, players: list[int]) -> str:
    """The note posted in a game's thread when a moderator aborts it, pinging its players."""
    return (_("**{game}** was aborted by {moderator}: no result and no rating change.").format(
        game=label, moderator=f"<@{by}>") + "\n" + " ".join(f"<@{uid}>" for uid in players))


def you_resigned(label: str) -> str:
    """The resigning player's note."""
    return _("You resigned {game}.").format(game=label)


def is_aborted(label: str) -> str:
    """The moderator's note after /abort."""
    return _("{game} is aborted.").format(game=label)


def thread_link(channel_id: int) -> str:
    """The line under a /board of a game in progress: where it is played."""
    return "\n" + _("Thread: {thread}").format(thread=f"<#{channel_id}>")
