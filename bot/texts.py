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
    "**Branching Coral** and **Whirlwind** in Discord servers. Challenge someone, move whenever "
    "you like, and the board is posted after every move in the game's own thread."
)

HELP_COMMANDS = [
    ("/challenge <game> [opponent:]", "invite a member to a game, or leave the opponent out so "
     "anyone here may accept; the game's options, `first:` (me / opponent / random), `days:` "
     "per move or a `clock:` (a bank of days topped up after each move) and `rated:` are optional"),
    ("/challenge <game> opponent:@Stonecast [level:]", "play the computer (me) at once, any "
     "hour: `level:` 1 (beginner) to 5 (strongest), 3 unless you choose; unrated"),
    ("/move move: [game:]", "play a move; start typing and pick from the suggestions. "
     "`game:` is only needed when it is your turn in several games and you are not in the "
     "game's thread"),
    ("/board [game:]", "see the current board (only you see it)"),
    ("/games [all:]", "your games in progress, whose turn it is and the deadlines; `all:true` "
     "lists every game in progress here, to watch"),
    ("/resign [game:]", "give up a game (asks for confirmation)"),
    ("/history game:", "a game's record as a text file, and an animated replay once it is over"),
    ("/review game:", "where a finished game was won and lost: a chart of the chances after "
     "every move, and the moves that swung it with what the search preferred"),
    ("/conditional add game: line:", "prepare replies to your opponent's next moves, e.g. "
     "`e5; d4; c3; f6` (their move; your reply; ...): when they play a line's move, its reply "
     "is played at once. Only you see your lines"),
    ("/conditional list|clear game:", "your stored lines (`board:` shows the board at the end "
     "of one), or remove them all"),
    ("/next", "your game with the least time left, then the next one (only you see them)"),
    ("/settings [dm:] [hour:] [confirm:]", "direct messages `off`, `on` (one per turn) or a daily "
     "`digest` at an hour (UTC); `confirm:on` makes /move ask you to confirm. `/notify` still works"),
    ("/vacation days:", "pause your clocks for a few days (14 days a year)"),
    ("/leaderboard game:", "the best ratings of a game in this server"),
    ("/profile [member:]", "ratings, results and current games"),
    ("/rules game:", "a short summary of a game's rules with a picture"),
    ("/privacy show|delete", "what Stonecast stores about you, and deleting it (your finished "
     "games stay, showing \"deleted player\")"),
    ("/abort game:", "moderators (Manage Server): end a game without a result"),
    ("/help", "this message"),
]

# Not "nothing was changed": the failure may come after a move was committed (its board post,
# say), so the player is sent to look before trying again.
GENERIC_FAILURE = ("Something went wrong on my side. Before you try again, check the game's "
                   "thread or /games: what you asked may already have been done.")


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


HELP_TITLE = "How to play with Stonecast"
HELP_CELLS = ("Cells are named by file letter and row number from the bottom, like `g7`. Each "
              "move has a deadline (3 days unless the challenge says otherwise): a reminder comes "
              "before it, and a player who lets it pass loses on time.")
HELP_IN_DM = ("Here in our direct messages only `/help`, `/rules` and `/privacy` work; the other "
              "commands are used in a server Stonecast is in.")
# /help's sections: a heading and the first words of the commands under it, in order; a
# command of HELP_COMMANDS under none of them is listed under HELP_OTHER_TOPIC
HELP_TOPICS = [
    ("Start a game", ("/challenge", "/rules", "/help")),
    ("Play your moves", ("/move", "/board", "/next", "/conditional", "/resign")),
    ("Your games and results", ("/games", "/history", "/review", "/leaderboard", "/profile")),
    ("Messages, time off and your data", ("/settings", "/vacation", "/privacy")),
    ("Moderators", ("/abort",)),
]
HELP_OTHER_TOPIC = "And also"
HELP_CONTINUED = "{topic} (continued)"
_FIELD_VALUE = 1024  # Discord's limit for an embed field's value


def help_text() -> str:
    """/help as plain markdown text (every command on a line), for places without embeds.
    Longer than Discord's 2,000 characters for a message: /help sends :func:`help_embed`."""
    lines = [HELP_INTRO, ""]
    lines += [f"`{name}` — {what}" for name, what in HELP_COMMANDS]
    lines += ["", HELP_CELLS]
    return "\n".join(lines)


def help_embed(*, in_dm: bool = False) -> dict:
    """The /help message as a Discord embed object (for ``discord.Embed.from_dict``): the
    introduction and how cells and deadlines work as its description, then one field per
    topic of HELP_TOPICS listing its commands (``"`/board [game:]` — see the current board
    ..."``). A topic longer than Discord's 1,024 characters a field goes on in a field
    headed HELP_CONTINUED. ``in_dm``: asked in a direct message (says which commands work
    there)."""
    lines_by_topic: dict[str, list[str]] = {topic: [] for topic, _ in HELP_TOPICS}
    for name, what in HELP_COMMANDS:
        first = name.split()[0]
        topic = next((t for t, commands in HELP_TOPICS if first in commands), HELP_OTHER_TOPIC)
        lines_by_topic.setdefault(topic, []).append(f"`{name}` — {what}")
    fields = []
    for topic, lines in lines_by_topic.items():
        value, name = "", topic
        for line in lines:
            if value and len(value) + 1 + len(line) > _FIELD_VALUE:
                fields.append({"name": name, "value": value, "inline": False})
                value, name = "", HELP_CONTINUED.format(topic=topic)
            value = f"{value}\n{line}" if value else line[:_FIELD_VALUE]
        if value:
            fields.append({"name": name, "value": value, "inline": False})
    description = "\n\n".join([HELP_INTRO, HELP_CELLS] + ([HELP_IN_DM] if in_dm else []))
    return {"title": HELP_TITLE, "description": description, "fields": fields, "type": "rich"}


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


def days_with_clock(days: int, clock: str) -> str:
    """The refusal of a challenge giving both ``days:`` and a ``clock:`` that differs
    (``clock``: its menu name, :attr:`bot.timecontrol.TimeControl.name`)."""
    return (f"`days:{days}` and `clock:{clock}` are two different clocks: choose one. Leave `days:` "
            f"out to play with {clock}, or `clock:` out for {count(days, 'day')} a move.")


def others_bank(user_id: int, left: str) -> str:
    """On a board with a bank clock, after the mover's deadline: the time in the waiting
    player's bank (``left``: :func:`bot.timecontrol.left_text`, e.g. ``"6 d left"``)."""
    return f" <@{user_id}>'s bank: {left.removesuffix(' left')}."


def confirm_clock(clock: str, deadline: float) -> str:
    """The clock line of a move's preview (Confirm): the mover's clock with the time left
    (:meth:`bot.manager.Game.clock_text`) and the deadline."""
    return f"\nYour clock: {clock}, due <t:{int(deadline)}:R>."


def vacation_amount(days: float) -> str:
    """Vacation time as players read it, in whole hours: ``"14 days"``, ``"13 days and 23
    hours"``, ``"5 hours"`` (``days`` may be fractional; it is rounded to the hour)."""
    hours = max(0, round(days * 24))
    whole, extra = divmod(hours, 24)
    if whole and extra:
        return f"{count(whole, 'day')} and {count(extra, 'hour')}"
    return count(whole, "day") if whole or not extra else count(extra, "hour")


# ---------------------------------------------------------------- wording of the Discord side
# (moved here from the cogs, the client and the views: every sentence a player reads)

CHALLENGE_LAPSED = "Nobody answered in time: the challenge lapsed."
CHALLENGE_STATES = {"declined": "Declined.", "cancelled": "Withdrawn.", "expired": CHALLENGE_LAPSED}
CHALLENGE_NOT_POSTED = ("I am not allowed to post in this channel, so the challenge was not sent. "
                        "Try another channel, or ask a moderator to let me send messages here.")
REMATCH_NOT_POSTED = "I could not post the rematch challenge in the game's channel; use /challenge instead."
BOARD_REFUSED = (" I could not post the board in the game's thread — check my permissions there, "
                 "and use `/board` to see it meanwhile.")
BOARD_DELAYED = (" I could not post the board in the game's thread just now; it is saved and will "
                 "follow there within a few minutes.")
NOT_YOUR_BUTTON = "This button belongs to someone else's /resign."
NO_GAMES = "You have no games in progress. Start one with `/challenge`."
NO_SERVER_GAMES = "No games are in progress in this server. Start one with `/challenge`."
LEVEL_WITHOUT_COMPUTER = ("level: sets the computer's strength: it only applies when you challenge "
                          "me (Stonecast) as the opponent. Leave it out to challenge a person.")
COMPUTER_QUEUE_FULL = (" The computer has too many games to think about right now: it will move "
                       "as soon as a place in its queue frees up (within a few minutes).")
REVIEW_BUSY = "That game is being reviewed already: its chart will appear in the message above when done."
REVIEW_FAILED = "Sorry: the review could not be finished. Please try again later."
ABORT_NOT_ALLOWED = "Only members with the Manage Server permission can abort games."
NO_PRIVATE_MESSAGE = "Stonecast games live in servers: use this command in a server channel."
CHECK_FAILED = "You cannot use this command here."
NOT_A_MEMBER = "That person is not a member of this server: pick a member from the list."
UNREADABLE_OPTION = "I could not read one of the options. Please pick it from the list and try again."


def challenge_title(c) -> str:
    """The first line of a challenge message (``c``: a :class:`bot.manager.Challenge`):
    ``"<@a> challenges <@b> to **Io** (size 9) · 3 days a move · rated"``."""
    opts = options_text(c.options)
    game = f"**{title(c.kind)}**" + (f" ({opts})" if opts else "")
    terms = f" · {c.time_control.name} · {'rated' if c.rated else 'unrated'}"
    if c.opponent_id is None:
        return f"<@{c.challenger_id}> offers a game of {game} to anyone here{terms}"
    return f"<@{c.challenger_id}> challenges <@{c.opponent_id}> to {game}{terms}"


def first_text(c) -> str:
    """Who moves first in challenge ``c``, as a sentence."""
    if c.first == "challenger":
        return f"<@{c.challenger_id}> moves first."
    if c.first == "opponent":
        return ("Whoever accepts moves first." if c.opponent_id is None
                else f"<@{c.opponent_id}> moves first.")
    return "Who moves first is drawn at random when the challenge is accepted."


def challenge_text(c) -> str:
    """The whole message posting open challenge ``c``: title, who moves first, what to do."""
    lines = [challenge_title(c), first_text(c)]
    if c.opponent_id is None:
        lines.append(f"Press Accept to play — the offer lapses <t:{int(c.expires_at)}:R>.")
    else:
        lines.append(f"<@{c.opponent_id}>, accept or decline below — the challenge lapses "
                     f"<t:{int(c.expires_at)}:R>.")
    return "\n".join(lines)


def challenge_sent(opponent_id: int | None, channel_id: int | None) -> str:
    """The challenger's note once the challenge is posted (``channel_id`` given when it went
    to another channel than the one the command was used in)."""
    who = f"<@{opponent_id}>" if opponent_id else "anyone in this channel"
    where = f" in <#{channel_id}>" if channel_id is not None else ""
    if where and not opponent_id:
        who = "anyone there"
    return f"Challenge sent to {who}{where}. You can withdraw it with its Cancel button until it is accepted."


def challenge_ended(c, state: str) -> str:
    """A challenge message once answered: its title and ``state`` (a sentence)."""
    return f"{challenge_title(c)}\n{state}"


def accepted_text(c, game) -> str:
    """What an accepted challenge's message says: who accepted and where the game is."""
    return (f"{challenge_title(c)}\nAccepted by <@{c.opponent_id}>: "
            f"**{game_label(game.kind, game.id)}** is on in <#{game.channel_for_posts}>.")


def already_accepted(game) -> str:
    """For a second press of Accept by the player who accepted: where their game is."""
    where = (f"in <#{game.thread_id}>" if game.thread_id is not None
             else f"in <#{game.channel_id}>, where its board is being posted")
    return f"You already accepted this challenge: **{game_label(game.kind, game.id)}** is on {where}."


def thread_name(game, first: str, second: str) -> str:
    """The name of a game's thread (Discord allows 100 characters)."""
    return f"{game_label(game.kind, game.id)}: {first} vs {second}"[:100]


def rematch_offered(c) -> str:
    """The note to whoever pressed Rematch."""
    return f"Rematch offered to <@{c.opponent_id}> in <#{c.channel_id}>."


def move_reply(label: str, move: str, effect: str, *, result: str | None = None,
               settled: str | None = None, to_move: int | None = None,
               replies: list[tuple[int, str]] = (), you: int | None = None) -> str:
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


def _prepared_replies(replies: list[tuple[int, str]], you: int | None = None) -> str:
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


def computer_gave_up(label: str, players: list[int]) -> str:
    """The apology posted when the computer could not find a move and its game was aborted."""
    return (f"Sorry: the computer could not work out a move in **{label}**, even at a lower level, "
            f"so the game is aborted -- no result and no rating change. Start another with "
            f"/challenge whenever you like.\n" + " ".join(f"<@{uid}>" for uid in players))


def computer_started(label: str, level: int, description: str, user_id: int) -> str:
    """The channel message that opens a game against the computer (its thread hangs on it)."""
    return (f"<@{user_id}> is playing the computer at level {level} ({description}): **{label}**.")


def computer_name(name: str, level: int) -> str:
    """How boards, thread names and review charts name the computer: ``"Stonecast (level 3)"``
    (``name``: the bot's display name)."""
    return f"{name} (level {level})"


def player_ref(g, user_id: int) -> str:
    """A player of game ``g`` in a list line: ``"<@id>"``, with the level when it is the
    computer (``"<@id> (level 3)"``)."""
    seat = getattr(g, "ai_seat", None)
    if seat is not None and g.players.get(seat) == user_id:
        return f"<@{user_id}> (level {g.ai_level})"
    return f"<@{user_id}>"


def computer_to_move(user_id: int, level: int, colour: str | None) -> str:
    """A board's second line when the computer (user ``user_id``) is to move. It stays true
    after the computer has moved (no "thinking…" left behind, issue 19): the live sign of
    its search is the thread's typing indicator, and its move comes as a new board."""
    as_colour = f" as {colour.title()}" if colour else ""
    return f"Next: <@{user_id}> (level {level}), the computer{as_colour}; its move follows in the game's thread."


def computer_game_sent(game) -> str:
    """The caller's (ephemeral) note once their game against the computer has started."""
    where = f"<#{game.thread_id}>" if game.thread_id else f"<#{game.channel_id}>"
    return (f"Your game against the computer has started: {game.label}, level {game.ai_level}, "
            f"unrated. Play in {where}.")


def review_progress(label: str, done: int, total: int) -> str:
    """The edited message while a review runs: ``Reviewing… 40%``."""
    pct = 0 if total <= 0 else min(99, round(100 * done / total))
    return f"Reviewing {label}… {pct}%"


def review_swing(ply: int, name: str, move: str, before: float, after: float) -> str:
    """One swing of a review in words, naming its mover (issue 19): ``"move 6, Ann's e5:
    68% → 29%"`` -- ``before``/``after`` are the mover's chances (0..1)."""
    return f"move {ply}, {name}'s `{move}`: {round(before * 100)}% → {round(after * 100)}%"


def review_text(label: str, swings: list[tuple[str, str]]) -> str:
    """The message with a review's chart: the swings (each worded by :func:`review_swing`)
    each with the move the search preferred."""
    if not swings:
        return f"Review of **{label}**: no move swung the game much either way."
    lines = [f"Review of **{label}**: the moves that swung it most (the mover's chances):"]
    lines += [f"• {text}; the search preferred **{preferred}**" for text, preferred in swings]
    return "\n".join(lines)


def no_such_game(game_id: int | str) -> str:
    """The one refusal for a game number that names no game the caller may see where they
    are: unknown, impossible, another server's, or (in a DM with the bot) a game they do not
    play. The same sentence in every case, so it tells nothing about another server's games."""
    return f"No game is numbered {game_id} in this server: pick one from the suggestions of `game:`."


#: The one refusal for a challenge number that names no challenge the caller may see where
#: they are (unknown, another server's, or in a DM one neither sent nor addressed to them).
NO_SUCH_CHALLENGE = "That challenge does not exist."


def games_list_header(playing: int, your_move: int) -> str:
    """The first line of /games."""
    return f"You are playing {playing} game{'s' if playing != 1 else ''}; your move in {your_move}:"


def games_list_line(g, opponent: int, *, yours: bool, away: bool) -> str:
    """One game of /games (``g`` a :class:`bot.manager.Game`; ``away``: the opponent, to
    move, is on vacation)."""
    turn = "**your move**" if yours else "their move"
    due = f", due <t:{int(g.deadline)}:R> ({g.time_control.short})" if g.deadline else ""
    line = (f"• **{game_label(g.kind, g.id)}** vs {player_ref(g, opponent)} — {turn}{due}, "
            f"{moves_played(g.ply)} — <#{g.channel_for_posts}>")
    return line + (" (on vacation)" if away else "")


GAMES_LIST_MORE = "… and {n} more: pick them with the `game:` suggestions of /board."
SERVER_GAMES_MORE = "… and {n} more, not shown."


def server_games_header(n: int) -> str:
    """The first line of ``/games all:true``."""
    return f"{count(n, 'game')} in progress in this server — open a thread to watch:"


def server_games_line(g) -> str:
    """One game of ``/games all:true``: its players, whose move, the deadline, its thread."""
    due = f", due <t:{int(g.deadline)}:R> ({g.time_control.short})" if g.deadline else ""
    return (f"• **{game_label(g.kind, g.id)}** {player_ref(g, g.players[1])} vs {player_ref(g, g.players[2])} — "
            f"<@{g.to_move_user}>'s move{due}, {count(g.ply, 'move')} played — <#{g.channel_for_posts}>")


def history_text(label: str, ply: int, *, over: bool) -> str:
    """The /history reply: the record, and whether a replay comes with it."""
    text = f"The record of **{label}** ({moves_played(ply)})."
    if over and ply == 0:
        text += " It ended before the first move, so there is no replay."
    elif over:
        text += " The animation replays it move by move."
    return text


NOTIFY_ON = ("I will send you a direct message when it becomes your move. If your DMs are "
             "closed to server members I will quietly skip it; the thread mention stays.")
NOTIFY_OFF = "No more direct messages: you will be mentioned in the game's thread only."


def vacation_started(until: float, left_days: float, *, asked: int, had: float) -> str:
    """/vacation days:n: the clocks wait until ``until``; ``had`` days were left before, of
    which ``asked`` were asked for (when that was more, the reply says so)."""
    short = ""
    if asked and left_days < 1e-6 and had < asked - 1e-6:
        short = f" That is all you had left ({vacation_amount(had)}), a little less than {asked} days."
    return (f"Enjoy your break: your clocks wait until <t:{int(until)}:f>, and your opponents "
            f"see that you are away.{short} {vacation_amount(left_days)} of vacation left this year.")


def vacation_ended(given_back: float, left_days: float) -> str:
    """/vacation days:0: the clocks run again, ``given_back`` days returned."""
    return (f"Welcome back: your clocks run again. The unused part of this vacation is given "
            f"back: {vacation_amount(given_back)} (vacation is counted by the hour, a started hour "
            f"as a whole one). {vacation_amount(left_days)} of vacation left this year.")


def deadline_notes_failed(n: int) -> str:
    """Added to the /vacation reply when ``n`` deadline notes could not be posted."""
    return f" I could not post the new deadline in {count(n, 'game')}'s thread; `/games` shows it."


def deadline_notes_delayed(n: int) -> str:
    """Added to the /vacation reply when ``n`` deadline notes could not be posted yet: they
    stay queued and are posted shortly (the outbox)."""
    if n == 1:
        return (" The note with the new deadline could not be posted in the game's thread just now: "
                "it will follow shortly (`/games` shows the deadline meanwhile).")
    return (f" The notes with the new deadline could not be posted in {n} games' threads just now: "
            f"they will follow shortly (`/games` shows the deadlines meanwhile).")


def no_rated_games(kind: str) -> str:
    """/leaderboard of a game nobody has a rating in."""
    return f"Nobody has finished a rated game of {title(kind)} here yet. Be the first: `/challenge {kind}`."


def leaderboard_header(kind: str) -> str:
    """The first line of /leaderboard."""
    return (f"**{title(kind)}** — top ratings in this server (Glicko-2; `?`: provisional, "
            f"listed after the established ones)")


def rank_line(rank: int, row) -> str:
    """``"3. <@id> — **1523** (4 rated games)"`` (``row``: a leaderboard row; ``1523?`` while
    provisional)."""
    return f"{rank}. <@{row.user_id}> — **{row.short_text}** ({count(row.games, 'rated game')})"


def unrated_here(kind: str) -> str:
    """/leaderboard for a caller without a rating in ``kind``."""
    return f"You have no rated {title(kind)} game here yet."


def profile_text(user_id: int, p) -> str:
    """/profile of ``user_id`` (``p``: a :class:`bot.manager.Profile`), within 2000 characters."""
    lines = [f"**Profile of <@{user_id}>**"]
    kinds = [k for k in GAME_ORDER if k in p.ratings or k in p.records]
    for kind in kinds:
        rating = p.ratings.get(kind)
        record = p.records.get(kind)
        parts = []
        if rating is not None:
            parts.append(f"rating **{rating.text}** ({rating.games} rated)")
        if record is not None:
            parts.append(f"{record.wins} won, {record.losses} lost, {record.draws} drawn")
        lines.append(f"• {title(kind)}: " + "; ".join(parts))
    if not kinds:
        lines.append("No finished games yet.")
    for r in getattr(p, "computer", ()):  # as_computer: the computer's own results (its /profile)
        who = "As the computer" if getattr(r, "as_computer", False) else "Against the computer"
        lines.append(f"• {who} at level {r.level}: {r.wins} won, {r.losses} lost, {r.draws} drawn")
    if p.active_games:
        ids = ", ".join(f"{game_label(g.kind, g.id)} (<#{g.channel_for_posts}>)" for g in p.active_games[:10])
        more = len(p.active_games) - 10
        lines.append(f"Playing now: {ids}" + (f", and {more} more." if more > 0 else "."))
    return "\n".join(lines)[:2000]


def declined(c) -> str:
    """A challenge message once its opponent declined."""
    return challenge_ended(c, f"<@{c.opponent_id}> declined.")


def withdrawn(c) -> str:
    """A challenge message once its challenger withdrew it."""
    return challenge_ended(c, f"Withdrawn by <@{c.challenger_id}>.")


def not_playing(label: str) -> str:
    """/resign of a game the caller does not play in."""
    return f"You are not playing in {label}."


def you_resigned(label: str) -> str:
    """The resigning player's note."""
    return f"You resigned {label}."


def is_aborted(label: str) -> str:
    """The moderator's note after /abort."""
    return f"{label} is aborted."


def thread_link(channel_id: int) -> str:
    """The line under a /board of a game in progress: where it is played."""
    return f"\nThread: <#{channel_id}>"


# ---- conditional moves (issue 13) ---------------------------------------------------------
FROM_CONDITIONAL = " — played from a conditional move"


CONDITIONAL_MORE = "… and {n} more: see each with `/conditional list board:` and its number."


def _numbered(head: str, lines: list[str], tail: str = "") -> str:
    """``head``, the lines numbered from 1, then ``tail``, within Discord's 2000 characters:
    lines that do not fit are left out from the end and counted by CONDITIONAL_MORE (20 lines
    of 20 steps are longer than a message)."""
    numbered = [f"{i}. `{line}`" for i, line in enumerate(lines, 1)]
    return fit_lines([head, *numbered], limit=2000 - len(tail), more=CONDITIONAL_MORE) + tail


def conditional_stored(label: str, lines: list[str]) -> str:
    """The /conditional add answer: every line now stored in the game (as many as fit)."""
    return _numbered(f"Stored. Your conditional moves in {label} ({count(len(lines), 'line')}; "
                     f"only you see them):", lines)


def conditional_list(label: str, lines: list[str]) -> str:
    """The /conditional list answer (as many lines as fit)."""
    if not lines:
        return (f"You have no conditional moves in {label}. Add one with /conditional add, e.g. "
                f"`e5; d4` (their move; your reply).")
    return _numbered(f"Your conditional moves in {label} (only you see them):", lines,
                     "\nAdd `board:` with a line's number to see the board at its end.")


def conditional_board(label: str, index: int, line: str) -> str:
    """The text over the board at the end of a stored line."""
    return f"{label}, line {index}: `{line}` — the board if it is all played."


def conditional_cleared(label: str, n: int) -> str:
    """The /conditional clear answer."""
    if not n:
        return f"You had no conditional moves in {label}."
    return f"Removed your {count(n, 'conditional line')} in {label}."


# ---- move confirmation, /next, /settings, the daily digest (issue 13) -----------------------
def position_changed(game) -> str:
    """A Confirm pressed after the game moved on (``game``: a :class:`bot.manager.Game` as now)."""
    label = game_label(game.kind, game.id)
    if game.status != "active":
        return f"{label} is over ({game.reason or 'ended'}): your move was not played."
    return (f"The position in {label} changed since you chose that move: it was not played. "
            f"Look at the board (`/board`) and move again.")


NOT_YOUR_CONFIRMATION = "These buttons belong to someone else's move."
NOT_YOUR_QUEUE = "This button belongs to someone else's /next."
MOVE_CANCELLED = "Cancelled: nothing was played. Move again with `/move` when you are ready."
NOTHING_WAITING = "No game is waiting for your move. Enjoy the break, or start one with `/challenge`."
NOTHING_MORE_WAITING = "That was the last game waiting for your move."


def confirm_prompt(label: str, move: str, effect: str) -> str:
    """Over the preview board of a move waiting for Confirm (only the mover sees it)."""
    return (f"**{label}** · the board after `{move}`{effect}. Nothing is played until you press "
            f"**Confirm**.")


def _game_link(g) -> str:
    return f"https://discord.com/channels/{g.guild_id}/{g.channel_for_posts}"


def next_text(g, opponent: int, clock: str, index: int, total: int) -> str:
    """/next: the game waiting for you with the least time left (``clock``: its clock and the
    time left), its number among ``total`` waiting games."""
    return (f"**{game_label(g.kind, g.id)}** vs {player_ref(g, opponent)} — your move ({index} of {total} "
            f"waiting), {clock}, due <t:{int(g.deadline)}:R>.\nThread: <#{g.channel_for_posts}>")


def digest_text(lines: list[tuple[object, int, str]]) -> str:
    """The daily digest: each game waiting (game, opponent id, clock with time left)."""
    head = f"Your daily Stonecast digest: {count(len(lines), 'game')} waiting for your move."
    body = [f"• **{game_label(g.kind, g.id)}** vs {player_ref(g, opp)} — {clock} — {_game_link(g)}"
            for g, opp, clock in lines]
    return fit_lines([head, *body], more="… and {n} more: see /games.")


def settings_text(s) -> str:
    """/settings: the caller's settings now (``s``: a :class:`bot.manager.UserSettings`)."""
    if s.dm_mode == "digest":
        dm = f"a daily digest at {s.digest_hour:02d}:00 UTC"
    else:
        dm = "on (one when it becomes your move)" if s.dm else "off (the thread mention only)"
    confirm = "on (Confirm or Cancel after /move)" if s.confirm else "off"
    return (f"Your settings — direct messages: {dm}; move confirmation: {confirm}.\n"
            f"Change them with `/settings dm:` (off, on, digest with `hour:`) and `/settings confirm:`.")


# ---- your data: /privacy (issue 18) ---------------------------------------------------------
#: How a player who had their data deleted is named in the games created before (boards,
#: /history records and replays, review charts, game suggestions).
DELETED_PLAYER = "deleted player"
PRIVACY_DELETE_LABEL = "Delete my data"
NOT_YOUR_PRIVACY_BUTTON = "This button belongs to someone else's /privacy delete."
PRIVACY_KEPT = ("Finished games stay (they are your opponents' games too), showing you as "
                f"\"{DELETED_PLAYER}\". If you play again, your new games show your name as usual; "
                "the older ones keep showing you as deleted.")
_PRIVACY_SHOWN = 8  # ratings, games and such listed by name before "and N more"


def _some(items: list[str], shown: int = _PRIVACY_SHOWN) -> str:
    """``"a, b, c"``, or the first ``shown`` and ``"and N more"``."""
    head = ", ".join(items[:shown])
    return head if len(items) <= shown else f"{head} and {len(items) - shown} more"


def privacy_running_games(labels: list[str]) -> str:
    """The refusal of /privacy delete while the player has games in progress (``labels``:
    ``"Io #12"``, every server)."""
    return (f"You still have {count(len(labels), 'game')} in progress: {_some(labels)}. "
            "Finish or resign them (`/resign`) first, then ask again: a running game shows its "
            "players' names.")


def privacy_text(d, here: int | None = None) -> str:
    """/privacy show: what is stored about the player (``d``: a
    :class:`bot.manager.StoredData`; ``here``: the server asked from, named "this server" in
    the ratings). Fits one message (2,000 characters) in the worst case: long lists are cut to
    their first few and a count."""
    lines = ["**What Stonecast stores about you** (in every server; only you see this)"]
    if d.display_name is not None:
        lines.append(f"• Your display name as I last saw it: **{d.display_name}** "
                     f"(<t:{int(d.name_seen_at)}:d>), shown on boards and records.")
    else:
        lines.append("• Your display name: none stored.")
    if d.settings is not None:
        s = d.settings
        dm = (f"a daily digest at {s.digest_hour:02d}:00 UTC" if s.dm_mode == "digest"
              else "on" if s.dm else "off")
        away = f", on vacation until <t:{int(s.vacation_until)}:f>" if s.vacation_until else ""
        lines.append(f"• Settings: direct messages: {dm}; move confirmation {'on' if s.confirm else 'off'}; "
                     f"{vacation_amount(s.vacation_left_days)} of vacation left this year{away}.")
    else:
        lines.append("• Settings: none stored (the defaults).")
    if d.conditional_games:
        lines.append(f"• Conditional lines in {count(len(d.conditional_games), 'game')}: "
                     f"{_some([f'#{gid}' for gid in d.conditional_games], 12)}.")
    if d.ratings:
        shown = [f"{title(r.kind)} {r.rating:.0f} ({count(r.games, 'rated game')}, "
                 f"{'this server' if r.guild_id == here else 'another server'})" for r in d.ratings]
        lines.append(f"• Ratings: {_some(shown)}.")
    else:
        lines.append("• Ratings: none.")
    if d.challenges_sent or d.challenges_received:
        lines.append(f"• Challenges that did not become a game: {d.challenges_sent} sent, "
                     f"{d.challenges_received} received.")
    if d.dms_queued or d.dms_sent:
        lines.append(f"• Direct messages to you: {d.dms_sent} sent, {d.dms_queued} waiting to be sent.")
    games = [f"{d.finished_games} finished"]
    if d.running_games:
        games.insert(0, f"{len(d.running_games)} in progress ({_some(list(d.running_games))})")
    lines.append(f"• Games: {', '.join(games)}, with their moves, results and rating changes.")
    if d.forgotten_at is not None:
        lines.append(f"• You had your data deleted on <t:{int(d.forgotten_at)}:f>: the games before "
                     f"then show you as \"{DELETED_PLAYER}\".")
    lines.append("`/privacy delete` deletes your name, settings, conditional lines, ratings, challenges "
                 "and direct messages. " + PRIVACY_KEPT)
    return fit_lines(lines)


def privacy_confirm(running: list[str]) -> str:
    """/privacy delete: the question before the button (``running``: labels of the games in
    progress, which must end first)."""
    if running:
        return privacy_running_games(running)
    return ("**Delete your data?** This deletes your display name, your settings, your conditional "
            "lines, your ratings in every server, your challenges that did not become a game and "
            "the direct messages queued for you. " + PRIVACY_KEPT + " Messages already posted in Discord "
            "(boards, thread titles) are not edited. This cannot be undone: press "
            f"**{PRIVACY_DELETE_LABEL}** to go on, or dismiss this message to keep everything.")


def privacy_deleted(f) -> str:
    """The answer once deleted (``f``: a :class:`bot.manager.Forgotten`)."""
    parts = [count(n, noun) for n, noun in ((f.ratings, "rating"), (f.challenges, "challenge"),
                                            (f.dms, "direct message")) if n]
    if f.conditionals:
        parts.insert(0, f"conditional lines in {count(f.conditionals, 'game')}")
    if f.names:
        parts.insert(0, "your display name")
    if f.settings:
        parts.insert(1 if f.names else 0, "your settings")
    what = ", ".join(parts) if parts else "nothing was stored beyond your games"
    return (f"Done: your data is deleted ({what}). Your {count(f.finished_games, 'finished game')} "
            f"stay, showing you as \"{DELETED_PLAYER}\". If you play again, your new games show your name.")


# ---- image descriptions: the alt text of every attachment (issue 19) ------------------------
#: Discord's limit for an attachment's description (alt text), in characters (Message
#: resource, attachment request structure).
ATTACHMENT_DESCRIPTION = 1024


def fit_sentences(sentences: list[str], keep: int = 1, limit: int = ATTACHMENT_DESCRIPTION) -> str:
    """``sentences`` joined by spaces within ``limit`` characters: sentences after the first
    ``keep`` are dropped from the end while too long; what is kept is cut only if it alone is
    too long (with an ellipsis)."""
    kept = [s for s in sentences if s]
    while len(" ".join(kept)) > limit and len(kept) > keep:
        kept.pop()
    text = " ".join(kept)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def seat_alt(name: str, colour: str | None) -> str:
    """A player as a description names them: ``"Ann (White)"``, or the name alone while
    their colour is not decided (Coil's Phase I)."""
    return f"{name} ({colour.title()})" if colour else name


def players_alt(first: str, second: str, *, colours_known: bool) -> str:
    """``"Ann (White) against Bob (Black)"`` (each from :func:`seat_alt`), saying when the
    colours are not decided yet."""
    return f"{first} against {second}" + ("" if colours_known else ", colours not decided yet")


def game_alt(label: str, options: dict) -> str:
    """The game as a description opens: ``"Io #12 (size 8)"``."""
    opts = options_text(options)
    return f"{label} ({opts})" if opts else label


def last_move_alt(ply: int, mover: str | None, move: str | None, effect: str = "") -> str:
    """``"Move 14: Ann played c3 e5, turning over 2 stones."``; ``"No moves yet."`` at the start."""
    if not ply or not move:
        return "No moves yet."
    who = f"{mover} played" if mover else "the move was"
    return f"Move {ply}: {who} {move}{effect}."


def _stones_alt(stones: dict[str, int]) -> str:
    """``"12 black stones and 1 white stone"`` (colour -> count; colours without stones left
    out), ``""`` for none."""
    return " and ".join(count(n, f"{colour} stone") for colour, n in stones.items() if n)


def board_alt(game: str, players: str, last: str, *, to_move: str | None = None,
              phase: str | None = None, result: str | None = None, aborted: bool = False,
              stones: dict[str, int] | None = None, scores: list[tuple[str, int]] | None = None) -> str:
    """The description of a board picture (issue 19), for screen readers: ``game`` and
    ``players`` (:func:`game_alt`, :func:`players_alt`), the ``last`` move
    (:func:`last_move_alt`), then the result (``result``: a :func:`result_text` sentence),
    ``aborted``, or whose turn it is (``to_move``: :func:`seat_alt`) and the ``phase`` with
    what may be played; the stones on the board (``stones``: colour -> count) and the
    ``scores`` (name, score) where the game keeps them. At most
    :data:`ATTACHMENT_DESCRIPTION` characters."""
    if result is not None:
        state = f"Game over: {result}"
    elif aborted:
        state = "The game was aborted by a moderator: no result."
    elif to_move is not None:
        state = f"{to_move} to move." + (f" {phase}." if phase else "")
    else:
        state = ""
    counted = _stones_alt(stones or {})
    on_board = f"On the board: {counted}." if counted else "The board is empty."
    score = ("Score: " + ", ".join(f"{name} {n}" for name, n in scores) + ".") if (
        scores and any(n for _, n in scores) and result is None) else ""
    return fit_sentences([f"Board of {game}: {players}.", last, state, on_board, score], keep=3)


def rules_alt(game: str, stones: dict[str, int]) -> str:
    """The description of the /rules picture: the starting board of ``game``
    (:func:`game_alt`) and the stones on it (colour -> count)."""
    counted = _stones_alt(stones)
    on_board = f"{counted} stand on it" if counted else "it is empty"
    return fit_sentences([f"The starting board of {game}: {on_board}. The first player is to move."])


def replay_alt(game: str, players: str, plies: int, result: str | None) -> str:
    """The description of a /history replay (an animated GIF): the game, its players, how
    many moves it shows one frame each, and the result."""
    return fit_sentences([f"Animated replay of {game}: {players}.",
                          f"One frame per move, {count(plies, 'move')} from the start to the end.",
                          f"Game over: {result}" if result else ""])


def record_alt(label: str, plies: int) -> str:
    """The description of a /history record (a text file)."""
    return f"The record of {label} as plain text: the players, the result and all {count(plies, 'move')}."


def review_alt(game: str, players: str, first: str, plies: int, leader: tuple[str, int] | None,
               result: str | None, swings: list[tuple[int, str, str, str, str, str]]) -> str:
    """The description of a /review chart: ``first``'s chances (the first player's: the
    curve) after each of ``plies`` moves; the ``leader`` (name, the moves after which they
    were ahead; ``None``: nobody was ahead after more moves than the other); the ``result``;
    and each swing as (move number, mover's name, move, chances before, after, the move the
    search preferred), chances as ``"71%"``. Swings that do not fit are left out."""
    lead = (f"{leader[0]} was ahead after {leader[1]} of the {count(plies, 'move')}."
            if leader else "Neither player was ahead for most of the game.")
    parts = [f"Review chart of {game}: {players}.",
             f"A curve of {first}'s chances of winning after every move, from 0 to 100%.", lead,
             f"Game over: {result}" if result else ""]
    if not swings:
        parts.append("No move swung the game much either way.")
    else:
        parts.append("The moves that swung it, in the mover's chances:")
        parts += [f"move {ply}, {who}'s {move}: {before} to {after}, the search preferred {preferred};"
                  for ply, who, move, before, after, preferred in swings]
    text = fit_sentences(parts, keep=4)
    return text[:-1] + "." if text.endswith((";", ":")) else text
