"""/privacy: what is stored about a player, and deleting it.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .analysis import privacy_notes
from .clocks import vacation_amount
from .common import count, fit_lines, game_label, title

__all__ = ["DELETED_PLAYER", "NOT_YOUR_PRIVACY_BUTTON", "PRIVACY_DELETE_LABEL", "PRIVACY_KEPT",
           "privacy_confirm", "privacy_deleted", "privacy_running_games", "privacy_text"]

if TYPE_CHECKING:
    from ..manager.privacy import Forgotten, StoredData
    from ..manager.values import GameRef

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


def privacy_text(d: StoredData, here: int | None = None) -> str:
    """/privacy show: what is stored about the player (``d``: a
    :class:`bot.manager.StoredData`; ``here``: the server asked from, named "this server" in
    the ratings). Fits one message (2,000 characters) in the worst case: long lists are cut to
    their first few and a count."""
    lines = ["**What Stonecast stores about you** (in every server; only you see this)"]
    if d.display_name is not None:
        assert d.name_seen_at is not None  # the store keeps the name with when it was seen
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
    if d.notes:
        lines.append(privacy_notes(d.notes))
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
        games.insert(0, f"{len(d.running_games)} in progress ({_some(_labels(d.running_games))})")
    lines.append(f"• Games: {', '.join(games)}, with their moves, results and rating changes.")
    if d.forgotten_at is not None:
        lines.append(f"• You had your data deleted on <t:{int(d.forgotten_at)}:f>: the games before "
                     f"then show you as \"{DELETED_PLAYER}\".")
    lines.append("`/privacy delete` deletes your name, settings, conditional lines, ratings, challenges "
                 "and direct messages. " + PRIVACY_KEPT)
    return fit_lines(lines)


def _labels(games: Sequence[GameRef]) -> list[str]:
    """``["Io #12", ...]``: each game by its kind and number."""
    return [game_label(g.kind, g.game_id) for g in games]


def privacy_confirm(running: Sequence[GameRef]) -> str:
    """/privacy delete: the question before the button (``running``: the games in progress,
    which must end first)."""
    if running:
        return privacy_running_games(_labels(running))
    return ("**Delete your data?** This deletes your display name, your settings, your conditional "
            "lines, your ratings in every server, your challenges that did not become a game and "
            "the direct messages queued for you. " + PRIVACY_KEPT + " Messages already posted in Discord "
            "(boards, thread titles) are not edited. This cannot be undone: press "
            f"**{PRIVACY_DELETE_LABEL}** to go on, or dismiss this message to keep everything.")


def privacy_deleted(f: Forgotten) -> str:
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
