"""/rules and /help: the games' rules summaries in our own words, and the help embed.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from babel.dates import format_date
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

from ai import ratings as measured_ratings

from .common import title
from .computer import level_description
from .i18n import N_, _, babel_locale

__all__ = ["COMPUTER_LEVELS_TOPIC", "HELP_CELLS", "HELP_COMMANDS", "HELP_CONTINUED", "HELP_INTRO",
           "HELP_IN_DM", "HELP_OTHER_TOPIC", "HELP_TITLE", "HELP_TOPICS", "RULES",
           "computer_levels_lines", "help_embed", "help_text", "rules_text"]

# One short paragraph per game, followed by a few bullet points, then how a move is typed
# (the engine's ``move_format``, worded here). Our own words, checked against RULES.md.
RULES = {
    "coil": (
        N_("A game of bluff about who will own the black stones. Hexagonal board, empty at the start."),
        [
            N_("**Phase I** — on your turn, put a *black* stone on any empty cell, or pass. "
            "A placement that would already make a coil is not allowed here."),
            N_("The first player to pass becomes **Black**; the other becomes **White**."),
            N_("**Phase II** — White plays first; each turn you add one stone of your own colour. "
            "Passing is over."),
            N_("Black wins the moment black stones form a **coil**: a closed ring of black "
            "stones around at least one cell (whatever is inside). Rings that need the "
            "board's edge to close do not count."),
            N_("White wins if the board fills up without a coil."),
        ],
        N_("one cell (`g7`), or `pass` during Phase I"),
    ),
    "io": (
        N_("Othello-style captures on a square board, with a careful opening."),
        [
            N_("White moves first. Whenever you place a stone, every straight line of enemy "
            "stones (in any of the 8 directions) closed off by another stone of yours turns "
            "to your colour."),
            N_("**Opening** — White's first stone may go anywhere except a corner. After that each "
            "turn is two stones: a **bound** stone next to the opponent's last stone, then a "
            "**free** stone on a cell with no stones around it (never a corner). Type both: "
            "`c3 e5`."),
            N_("When no free cell is left after the bound stone, that turn is the bound stone "
            "alone and the opening is over; from then on each turn is one stone anywhere empty."),
            N_("The game ends when the board is full: more stones wins (an even board can draw)."),
        ],
        N_("`c3 e5` (bound then free) in the opening, one cell (`e5`) afterwards"),
    ),
    "braincoral": (
        N_("Grow coral without sealing off the sea. Hexagonal board; Black (seat 1) moves first."),
        [
            N_("Each turn, put one stone of your colour on an empty cell — but only if every empty "
            "cell can still reach an empty edge cell through empty cells, and every stone still "
            "touches such a reachable empty cell."),
            N_("No passing: the game ends when nobody can place."),
            N_("Score: the size of your largest group, plus the bonus chosen with the challenge "
            "(your number of groups by default, or your opponent's, or none)."),
            N_("Higher score wins; on a tie the player who placed the last stone wins."),
        ],
        N_("one cell, e.g. `d4`"),
    ),
    "branchingcoral": (
        N_("Brain Coral's sharper cousin: stones get squeezed out. Same boards; Black moves first."),
        [
            N_("You may place on an empty cell with at least two empty neighbours, provided every "
            "empty cell can still reach an empty edge cell right after you place."),
            N_("Then any stone of either colour next to yours that is left with fewer than two "
            "empty neighbours is removed — all at once."),
            N_("The game ends when nobody can place. Score: your largest group plus the chosen "
            "bonus (your groups by default, your opponent's groups, your captures, or none)."),
            N_("Higher score wins; on a tie the last player to place wins."),
        ],
        N_("one cell, e.g. `d4`"),
    ),
    "whirlwind": (
        N_("A connection race on a grid that starts half full. Black joins top to bottom, White "
        "left to right."),
        [
            N_("The board starts with black and white stones scattered in a regular diagonal "
            "pattern (set-up A, or B with the colours swapped)."),
            N_("Black moves first with a single stone; after that each turn is one or two stones "
            "of your colour: `e5` or `e5 f6`."),
            N_("After your turn, any two of your stones touching only at a corner must share a "
            "side-neighbour holding one of your stones."),
            N_("Win by finishing a side-to-side chain of your stones between your two edges. A "
            "player left with no legal turn loses."),
        ],
        N_("one or two cells: `e5` or `e5 f6`"),
    ),
}

HELP_INTRO = (
    N_("Stonecast runs correspondence games of **Coil**, **Io**, **Brain Coral**, "
    "**Branching Coral** and **Whirlwind** in Discord servers. Challenge someone, move whenever "
    "you like, and the board is posted after every move in the game's own thread.")
)

HELP_COMMANDS = [
    (N_("/challenge <game> [opponent:]"), N_("invite a member to a game, or leave the opponent out so "
     "anyone here may accept; the game's options, `first:` (me / opponent / random), `days:` "
     "per move or a `clock:` (a bank of days topped up after each move) and `rated:` are optional")),
    (N_("/challenge <game> opponent:@Stonecast [level:]"), N_("play the computer (me) at once, any "
     "hour: `level:` 1 (beginner) to 5 (strongest), 3 unless you choose; unrated")),
    (N_("/move move: [game:]"), N_("play a move; start typing and pick from the suggestions. "
     "`game:` is only needed when it is your turn in several games and you are not in the "
     "game's thread")),
    (N_("/board [game:]"), N_("see the current board (only you see it)")),
    (N_("/games [all:]"), N_("your games in progress, whose turn it is and the deadlines; `all:true` "
     "lists every game in progress here, to watch")),
    (N_("/resign [game:]"), N_("give up a game (asks for confirmation)")),
    (N_("/history game:"), N_("a game's record as a text file, and an animated replay once it is over")),
    (N_("/review game:"), N_("where a finished game was won and lost: a chart of the chances after "
     "every move, and the moves that swung it with what the search preferred")),
    (N_("/analyze game:|position:|new:"), N_("explore a finished game (`move:` to start at), a "
     "position's text or a new board, privately: step, try moves, ask the engine (never on a "
     "game in progress), share what you found")),
    (N_("/note game: [text:]"), N_("a private note on a game, shown only to you on /board and /analyze")),
    (N_("/conditional add game: line:"), N_("prepare replies to your opponent's next moves, e.g. "
     "`e5; d4; c3; f6` (their move; your reply; ...): when they play a line's move, its reply "
     "is played at once. Only you see your lines")),
    (N_("/conditional list|clear game:"), N_("your stored lines (`board:` shows the board at the end "
     "of one), or remove them all")),
    (N_("/next"), N_("your game with the least time left, then the next one (only you see them)")),
    (N_("/settings [dm:] [hour:] [confirm:]"), N_("direct messages `off`, `on` (one per turn) or a daily "
     "`digest` at an hour (UTC); `confirm:on` makes /move ask you to confirm. `/notify` still works")),
    (N_("/vacation days:"), N_("pause your clocks for a few days (14 days a year)")),
    (N_("/leaderboard game:"), N_("the best ratings of a game in this server")),
    (N_("/profile [member:]"), N_("ratings, results and current games")),
    (N_("/rules game:"), N_("a short summary of a game's rules with a picture")),
    (N_("/privacy show|delete"), N_("what Stonecast stores about you, and deleting it (your finished "
     "games stay, showing \"deleted player\")")),
    (N_("/abort game:"), N_("moderators (Manage Server): end a game without a result")),
    (N_("/help"), N_("this message")),
]


def rules_text(kind: str) -> str:
    """The /rules message body for ``kind`` (markdown)."""
    intro, points, moves = RULES[kind]
    lines = [f"**{title(kind)}** — {_(intro)}", ""]
    lines += [f"• {_(p)}" for p in points]
    lines += ["", _("Moves: {moves}.").format(moves=_(moves))]
    return "\n".join(lines)


HELP_TITLE = N_("How to play with Stonecast")
HELP_CELLS = N_("Cells are named by file letter and row number from the bottom, like `g7`. Each "
              "move has a deadline (3 days unless the challenge says otherwise): a reminder comes "
              "before it, and a player who lets it pass loses on time.")
HELP_IN_DM = N_("Here in our direct messages only `/help`, `/rules` and `/privacy` work; the other "
              "commands are used in a server Stonecast is in.")
# /help's sections: a heading and the first words of the commands under it, in order; a
# command of HELP_COMMANDS under none of them is listed under HELP_OTHER_TOPIC
HELP_TOPICS = [
    (N_("Start a game"), ("/challenge", "/rules", "/help")),
    (N_("Play your moves"), ("/move", "/board", "/next", "/conditional", "/resign")),
    (N_("Your games and results"), ("/games", "/history", "/review", "/analyze", "/note", "/leaderboard",
                                    "/profile")),
    (N_("Messages, time off and your data"), ("/settings", "/vacation", "/privacy")),
    (N_("Moderators"), ("/abort",)),
]
HELP_OTHER_TOPIC = N_("And also")
HELP_CONTINUED = N_("{topic} (continued)")
_FIELD_VALUE = 1024  # Discord's limit for an embed field's value


def help_text() -> str:
    """/help as plain markdown text (every command on a line), for places without embeds.
    Longer than Discord's 2,000 characters for a message: /help sends :func:`help_embed`."""
    lines = [_(HELP_INTRO), ""]
    lines += [f"`{_(name)}` — {_(what)}" for name, what in HELP_COMMANDS]
    lines += ["", _(HELP_CELLS)]
    return "\n".join(lines)


def help_embed(*, in_dm: bool = False, levels: list[str] | None = None) -> dict[str, Any]:
    """The /help message as a Discord embed object (for ``discord.Embed.from_dict``): the
    introduction and how cells and deadlines work as its description, then one field per
    topic of HELP_TOPICS listing its commands (``"`/board [game:]` — see the current board
    ..."``), then the computer's levels with their ratings per game (COMPUTER_LEVELS_TOPIC,
    ``levels``: its lines, default :func:`computer_levels_lines` of the measured ratings),
    all in the current language (the commands' names as the player's Discord shows them).
    A topic longer than Discord's 1,024 characters a field goes on in a field headed
    HELP_CONTINUED. ``in_dm``: asked in a direct message (says which commands work
    there)."""
    lines_by_topic: dict[str, list[str]] = {topic: [] for topic, _ in HELP_TOPICS}
    for name, what in HELP_COMMANDS:
        first = name.split()[0]
        topic = next((t for t, commands in HELP_TOPICS if first in commands), HELP_OTHER_TOPIC)
        lines_by_topic.setdefault(topic, []).append(f"`{_(name)}` — {_(what)}")
    lines_by_topic[COMPUTER_LEVELS_TOPIC] = computer_levels_lines() if levels is None else levels
    fields = []
    for topic, lines in lines_by_topic.items():
        value, name = "", _(topic)
        for line in lines:
            if value and len(value) + 1 + len(line) > _FIELD_VALUE:
                fields.append({"name": name, "value": value, "inline": False})
                value, name = "", _(HELP_CONTINUED).format(topic=_(topic))
            value = f"{value}\n{line}" if value else line[:_FIELD_VALUE]
        if value:
            fields.append({"name": name, "value": value, "inline": False})
    description = "\n\n".join([_(HELP_INTRO), _(HELP_CELLS)] + ([_(HELP_IN_DM)] if in_dm else []))
    return {"title": _(HELP_TITLE), "description": description, "fields": fields, "type": "rich"}


#: /help's section on the computer's levels (:func:`computer_levels_lines`): its heading.
COMPUTER_LEVELS_TOPIC = N_("The computer's levels")
#: What stands for a rating not measured yet in a level's line of ratings.
_NOT_MEASURED = "—"


def computer_levels_lines(ratings: Mapping[int, Mapping[str, measured_ratings.Rating | None]] | None = None,
                          measured: measured_ratings.Measurement | None = None) -> list[str]:
    """/help's section on the computer's levels, one entry per line of the section: a first
    line on the scale (its anchor at the time it had in the run; a run at a fraction of the
    levels' time says so on a second line), or that nothing is measured yet (at the end); then per level its
    words (:func:`level_description`) and, on a second line of the same entry, its rating
    in each game measured: ``"**Level 3** — Club: a careful search\\nCoil 1410 · Io 1390 ·
    ..."`` (a game measured for other levels but not this one shows ``—``). ``ratings``:
    level -> game kind -> :class:`ai.ratings.Rating` or None, default
    :data:`ai.ratings.RATINGS`; ``measured``: how, default :data:`ai.ratings.MEASURED`.
    Games measured for no level are named in a last line ("not measured yet")."""
    table = measured_ratings.RATINGS if ratings is None else ratings
    how = measured_ratings.MEASURED if measured is None else measured
    kinds = [k for k in measured_ratings.KINDS if any(row.get(k) is not None for row in table.values())]
    # the anchor as it played: a run at a fraction of the time (``scale``) gave it that fraction
    scale = {"seconds": format_decimal(measured_ratings.ANCHOR_SECONDS * how.scale, locale=babel_locale()),
             "rating": round(measured_ratings.ANCHOR_RATING)}
    lines = []
    if kinds and how.date:
        when = format_date(datetime.date.fromisoformat(how.date), format="medium", locale=babel_locale())
        lines.append(_("Each level's rating per game, on an Elo scale where a plain search given {seconds} s "
                       "a move is {rating} (measured {date}):").format(date=when, **scale))
    elif kinds:
        lines.append(_("Each level's rating per game, on an Elo scale where a plain search given {seconds} s "
                       "a move is {rating}:").format(**scale))
    if kinds and how.scale != 1.0:
        lines.append(_("Measured with each level given {share} of its usual time a move.").format(
            share=format_percent(how.scale, locale=babel_locale())))
    for level in sorted(table):
        entry = _("**Level {level}** — {description}").format(level=level, description=level_description(level))
        if kinds:
            cells = [f"{title(k)} {_elo_text(table[level].get(k))}" for k in kinds]
            entry += "\n" + " · ".join(cells)
        lines.append(entry)
    if not kinds:
        lines.append(_("Their ratings per game, on an Elo scale, are not measured yet."))
    elif len(kinds) < len(measured_ratings.KINDS):
        missing = [title(k) for k in measured_ratings.KINDS if k not in kinds]
        lines.append(_("Not measured yet in {games}.").format(games=format_list(missing, locale=babel_locale())))
    return lines


def _elo_text(rating: measured_ratings.Rating | None) -> str:
    """A rating as /help shows it: a whole number with no grouping (``1410``; ratings are
    written so in every language), or ``—`` when not measured."""
    return _NOT_MEASURED if rating is None else str(round(rating.elo))
