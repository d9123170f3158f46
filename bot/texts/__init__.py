"""Everything the bot says to players, by topic: one module each (listed below), all
re-exported here so callers write ``texts.<name>``. The only place a sentence a player
reads is written (DESIGN.md): services, the engine and the renderers return data.

* ``boards`` -- Board posts: headlines, the your-move line, what a move did, ratings, DMs, reminders.
* ``common`` -- Shared pieces of wording: game titles and labels, counts, fitting lines into Discord's limits.
* ``play`` -- Moves and boards: move replies, board headlines, results, suggestions of /move.
* ``alt`` -- Image descriptions: the alt text of every attachment (boards, charts, replays, rules).
* ``challenges`` -- Challenges: their messages, answers, thread names and rematches.
* ``clocks`` -- Clocks and time off: clock terms, both players' banks, vacations and deadline notes.
* ``computer`` -- The computer opponent and reviews: its name with its level, its turn, review charts.
* ``conditional`` -- Conditional moves: storing, listing and clearing prepared lines.
* ``errors`` -- Refusals and failures: what a player is told when an action is refused or goes wrong.
* ``lists`` -- Lists of games and players: /games, /history, leaderboards and profiles.
* ``privacy`` -- /privacy: what is stored about a player, and deleting it.
* ``rules`` -- /rules and /help: the games' rules summaries in our own words, and the help embed.
* ``turns`` -- Move confirmation, /next, /settings and the daily digest.
"""

from __future__ import annotations

from .alt import (  # noqa: F401
    _stones_alt,
    board_alt,
    game_alt,
    last_move_alt,
    players_alt,
    record_alt,
    replay_alt,
    review_alt,
    rules_alt,
    seat_alt,
)
from .boards import (  # noqa: F401
    ABORTED_NO_RESULT,
    GAME_OVER,
    back_from_vacation,
    colour_name,
    deadline_moved,
    due_at,
    game_begins,
    move_played,
    post_head,
    rating_change,
    ratings_line,
    reminder,
    removing,
    seat_line,
    stones_at,
    takes_colour,
    turn_dm,
    turning_over,
    vacation_note,
    your_move,
)
from .challenges import (  # noqa: F401
    CHALLENGE_LAPSED,
    CHALLENGE_NOT_POSTED,
    CHALLENGE_STATES,
    REMATCH_NOT_POSTED,
    accepted_text,
    already_accepted,
    challenge_ended,
    challenge_sent,
    challenge_text,
    challenge_title,
    declined,
    first_text,
    rematch_offered,
    thread_name,
    withdrawn,
)
from .clocks import (  # noqa: F401
    NOTIFY_OFF,
    NOTIFY_ON,
    confirm_clock,
    days_with_clock,
    deadline_notes_delayed,
    deadline_notes_failed,
    others_bank,
    panel_bank,
    vacation_amount,
    vacation_ended,
    vacation_started,
)
from .common import (  # noqa: F401
    ATTACHMENT_DESCRIPTION,
    BUTTON_LABELS,
    count,
    fit_lines,
    fit_sentences,
    game_label,
    moves_played,
    options_text,
    title,
)
from .computer import (  # noqa: F401
    COMPUTER_QUEUE_FULL,
    LEVEL_WITHOUT_COMPUTER,
    REVIEW_BUSY,
    REVIEW_FAILED,
    computer_game_sent,
    computer_gave_up,
    computer_name,
    computer_started,
    computer_to_move,
    player_ref,
    review_progress,
    review_swing,
    review_text,
)
from .conditional import (  # noqa: F401
    CONDITIONAL_MORE,
    FROM_CONDITIONAL,
    _numbered,
    conditional_board,
    conditional_cleared,
    conditional_list,
    conditional_stored,
)
from .errors import (  # noqa: F401
    ABORT_NOT_ALLOWED,
    CHECK_FAILED,
    GENERIC_FAILURE,
    NO_PRIVATE_MESSAGE,
    NO_SUCH_CHALLENGE,
    NOT_A_MEMBER,
    NOT_YOUR_BUTTON,
    REFUSALS,
    UNREADABLE_OPTION,
    no_such_game,
    not_playing,
    refusal_text,
)
from .lists import (  # noqa: F401
    GAMES_LIST_MORE,
    NO_GAMES,
    NO_SERVER_GAMES,
    SERVER_GAMES_MORE,
    games_list_header,
    games_list_line,
    history_text,
    leaderboard_header,
    no_rated_games,
    profile_text,
    rank_line,
    server_games_header,
    server_games_line,
    unrated_here,
)
from .play import (  # noqa: F401
    BOARD_DELAYED,
    BOARD_REFUSED,
    TERMINATION_PHRASES,
    _prepared_replies,
    aborted,
    answered_headline,
    board_headline,
    finished_game_choice,
    is_aborted,
    move_choice,
    move_names_another_game,
    move_reply,
    not_your_turn_choice,
    pick_game_choice,
    ran_out_of_time,
    resign_prompt,
    resigned,
    result_text,
    termination_phrase,
    thread_link,
    turn_hint,
    you_resigned,
)
from .privacy import (  # noqa: F401
    _PRIVACY_SHOWN,
    DELETED_PLAYER,
    NOT_YOUR_PRIVACY_BUTTON,
    PRIVACY_DELETE_LABEL,
    PRIVACY_KEPT,
    _some,
    privacy_confirm,
    privacy_deleted,
    privacy_running_games,
    privacy_text,
)
from .rules import (  # noqa: F401
    _FIELD_VALUE,
    HELP_CELLS,
    HELP_COMMANDS,
    HELP_CONTINUED,
    HELP_IN_DM,
    HELP_INTRO,
    HELP_OTHER_TOPIC,
    HELP_TITLE,
    HELP_TOPICS,
    RULES,
    help_embed,
    help_text,
    rules_text,
)
from .turns import (  # noqa: F401
    MOVE_CANCELLED,
    NOT_YOUR_CONFIRMATION,
    NOT_YOUR_QUEUE,
    NOTHING_MORE_WAITING,
    NOTHING_WAITING,
    _game_link,
    confirm_prompt,
    digest_text,
    next_text,
    position_changed,
    settings_text,
)
