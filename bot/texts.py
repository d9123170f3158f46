"""Everything the bot says to players: help, rules summaries, results and turn hints.

Written in the project's own words (RULES.md is the authority on the rules; the summaries
here only help a newcomer start playing).
"""

from __future__ import annotations

import engine

#: The games' keys in menu order (:data:`engine.MENU_ORDER`).
GAME_ORDER = engine.MENU_ORDER

#: Game key -> display title (:attr:`engine.GameKind.title`).
TITLES = {key: kind.title for key, kind in engine.GAMES.items()}

# One short paragraph per game, followed by a few bullet points. Our own words, checked
# against RULES.md.
RULES = {
    "coil": (
        "A game of bluff about who will own the black stones. Hexagonal board, empty at the start.",
        [
            "**Phase I** — on your turn, put a *black* stone on any empty cell, or pass. "
            "A placement that would already make a coil is not allowed here.",
            "The first player to pass becomes **Black**; the other becomes **White**.",
            "**Phase II** — White plays first; each turn you add one stone of your own colour. "
            "Passing is over.",
            "Black wins the moment black stones form a **coil**: a closed ring of black "
            "stones around at least one cell (whatever is inside). Rings that need the "
            "board's edge to close do not count.",
            "White wins if the board fills up without a coil.",
        ],
    ),
    "io": (
        "Othello-style captures on a square board, with a careful opening.",
        [
            "White moves first. Whenever you place a stone, every straight line of enemy "
            "stones (in any of the 8 directions) closed off by another stone of yours turns "
            "to your colour.",
            "**Opening** — White's first stone may go anywhere except a corner. After that each "
            "turn is two stones: a **bound** stone next to the opponent's last stone, then a "
            "**free** stone on a cell with no stones around it (never a corner). Type both: "
            "`c3 e5`.",
            "When no free cell is left after the bound stone, that turn is the bound stone "
            "alone and the opening is over; from then on each turn is one stone anywhere empty.",
            "The game ends when the board is full: more stones wins (an even board can draw).",
        ],
    ),
    "braincoral": (
        "Grow coral without sealing off the sea. Hexagonal board; Black (seat 1) moves first.",
        [
            "Each turn, put one stone of your colour on an empty cell — but only if every empty "
            "cell can still reach an empty edge cell through empty cells, and every stone still "
            "touches such a reachable empty cell.",
            "No passing: the game ends when nobody can place.",
            "Score: the size of your largest group, plus the bonus chosen with the challenge "
            "(your number of groups by default, or your opponent's, or none).",
            "Higher score wins; on a tie the player who placed the last stone wins.",
        ],
    ),
    "branchingcoral": (
        "Brain Coral's sharper cousin: stones get squeezed out. Same boards; Black moves first.",
        [
            "You may place on an empty cell with at least two empty neighbours, provided every "
            "empty cell can still reach an empty edge cell right after you place.",
            "Then any stone of either colour next to yours that is left with fewer than two "
            "empty neighbours is removed — all at once.",
            "The game ends when nobody can place. Score: your largest group plus the chosen "
            "bonus (your groups by default, your opponent's groups, your captures, or none).",
            "Higher score wins; on a tie the last player to place wins.",
        ],
    ),
    "whirlwind": (
        "A connection race on a grid that starts half full. Black joins top to bottom, White "
        "left to right.",
        [
            "The board starts with black and white stones scattered in a regular diagonal "
            "pattern (set-up A, or B with the colours swapped).",
            "Black moves first with a single stone; after that each turn is one or two stones "
            "of your colour: `e5` or `e5 f6`.",
            "After your turn, any two of your stones touching only at a corner must share a "
            "side-neighbour holding one of your stones.",
            "Win by finishing a side-to-side chain of your stones between your two edges. A "
            "player left with no legal turn loses.",
        ],
    ),
}

#: How to write a move, per game (:attr:`engine.GameKind.move_format`).
MOVE_FORMAT = {key: kind.move_format for key, kind in engine.GAMES.items()}

#: End reason -> how a result sentence says it (:attr:`engine.Termination.phrase`).
REASONS = {t.value: t.phrase for t in engine.Termination}

HELP_INTRO = (
    "Stonecast runs correspondence games of **Coil**, **Io**, **Brain Coral**, "
    "**Branching Coral** and **Whirlwind** in this server. Challenge someone, move whenever "
    "you like, and the board is posted after every move in the game's own thread."
)

HELP_COMMANDS = [
    ("/challenge <game> [opponent:]", "invite a member to a game, or leave the opponent out so "
     "anyone here may accept; the game's options, `first:` (me / opponent / random), `days:` "
     "per move and `rated:` are optional"),
    ("/move move: [game:]", "play a move; start typing and pick from the suggestions. "
     "`game:` is only needed when it is your turn in several games and you are not in the "
     "game's thread"),
    ("/board [game:]", "see the current board (only you see it)"),
    ("/games [all:]", "your games in progress, whose turn it is and the deadlines; `all:true` "
     "lists every game in progress here, to watch"),
    ("/resign [game:]", "give up a game (asks for confirmation)"),
    ("/history game:", "a game's record as a text file, and an animated replay once it is over"),
    ("/notify dm:", "`on` for a direct message whenever it becomes your move"),
    ("/vacation days:", "pause your clocks for a few days (14 days a year)"),
    ("/leaderboard game:", "the best ratings of a game in this server"),
    ("/profile [member:]", "ratings, results and current games"),
    ("/rules game:", "a short summary of a game's rules with a picture"),
    ("/abort game:", "moderators (Manage Server): end a game without a result"),
    ("/help", "this message"),
]

GENERIC_FAILURE = ("Something went wrong on my side and nothing was changed by it. "
                   "Please try again in a moment.")


def title(kind: str) -> str:
    """The display title of game ``kind`` ("braincoral" -> "Brain Coral"); an unknown key is
    shown as given."""
    game = engine.GAMES.get(kind)
    return game.title if game is not None else kind


def options_text(options: dict) -> str:
    """Options as players read them: ``"size 9, setup a"``; empty string when none."""
    return ", ".join(f"{k} {v}" for k, v in options.items())


def count(n: int, noun: str) -> str:
    """``"1 move"``, ``"3 moves"``: a number with its noun, plural when not 1."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def moves_played(n: int) -> str:
    """How a game's progress is counted everywhere: ``"no moves yet"``, ``"1 move played"``,
    ``"14 moves played"`` (a single move is named by its number: ``"move 14"``)."""
    return "no moves yet" if n == 0 else f"{count(n, 'move')} played"


def fit_lines(lines: list[str], *, limit: int = 2000, hidden: int = 0,
              more: str = "… and {n} more.") -> str:
    """``lines`` joined by newlines within ``limit`` characters (Discord's 2000 for a
    message): whole lines are dropped from the end, never cut, and replaced by ``more``
    naming how many items are not shown (``hidden`` of them were left out beforehand).
    The first line is always kept (cut only if it alone is too long)."""
    kept = list(lines)
    while True:
        n = hidden + len(lines) - len(kept)
        text = "\n".join(kept + ([more.format(n=n)] if n else []))
        if len(text) <= limit or len(kept) <= 1:
            return text[:limit]
        kept.pop()


def game_label(kind: str, game_id: int) -> str:
    """``"Io #12"``."""
    return f"{title(kind)} #{game_id}"


def rules_text(kind: str) -> str:
    """The /rules message body for ``kind`` (markdown)."""
    intro, points = RULES[kind]
    lines = [f"**{title(kind)}** — {intro}", ""]
    lines += [f"• {p}" for p in points]
    lines += ["", f"Moves: {engine.GAMES[kind].move_format}."]
    return "\n".join(lines)


def help_text() -> str:
    """The /help message body (markdown)."""
    lines = [HELP_INTRO, ""]
    lines += [f"`{name}` — {what}" for name, what in HELP_COMMANDS]
    lines += ["", "Cells are named by file letter and row number from the bottom, like `g7`. "
              "Each move has a deadline (3 days unless the challenge says otherwise): a reminder "
              "comes before it, and a player who lets it pass loses on time."]
    return "\n".join(lines)


def turn_hint(kind: str, position) -> str:
    """A short reminder of what the player to move may play now (``position.turn_hint``,
    :attr:`engine.Position.turn_hint`): ``"one or two stones"``, ``"place a black stone or
    `pass`"``. ``kind`` is the game's key, kept for callers (the position knows its game)."""
    return position.turn_hint


def result_text(kind: str, outcome, names: dict[int, str]) -> str:
    """The result sentence naming both players, e.g. ``"A beats B on stones (33–16)."`` --
    the winner's score first; a coral tie says the last stone placed decided it (RULES.md,
    Brain Coral / Branching Coral "Winner").

    ``outcome`` is an :class:`engine.Outcome` (RULES.md "Every game"; the reason worded by
    :attr:`engine.Termination.phrase`); ``names`` maps seat -> display text (mentions are fine).
    Scores are shown unless a resignation or timeout ended the game.
    """
    reason = engine.Termination.read(outcome.reason)
    with_scores = bool(outcome.scores) and (reason is None or reason.by_rules)
    if outcome.winner is None:
        scores = f" ({outcome.scores[1]}–{outcome.scores[2]})" if with_scores else ""
        return f"{names[1]} and {names[2]} draw{scores}."
    winner, loser = outcome.winner, 3 - outcome.winner
    scores = ""
    if with_scores:  # the winner's score first, as the sentence reads
        won, lost = outcome.scores[winner], outcome.scores[loser]
        tie = "; a tie goes to the last stone placed" if won == lost else ""
        scores = f" ({won}–{lost}{tie})"
    how = reason.phrase if reason is not None else f"({outcome.reason})"
    return f"{names[winner]} beats {names[loser]} {how}{scores}."


def not_your_turn_choice(label: str, to_move: str) -> str:
    """The one /move suggestion shown while the opponent is to move:
    ``"Io #3: it is Bob's move, not yours — you will be pinged when it is your turn"``
    (``to_move`` is a display name; the caller cuts it to Discord's 100 characters)."""
    return f"{label}: it is {to_move}'s move, not yours — you will be pinged when it is your turn"


def vacation_amount(days: float) -> str:
    """Vacation time as players read it, in whole hours: ``"14 days"``, ``"13 days and 23
    hours"``, ``"5 hours"`` (``days`` may be fractional; it is rounded to the hour)."""
    hours = max(0, round(days * 24))
    whole, extra = divmod(hours, 24)
    if whole and extra:
        return f"{count(whole, 'day')} and {count(extra, 'hour')}"
    return count(whole, "day") if whole or not extra else count(extra, "hour")
