"""/privacy: what is stored about a player, and deleting it.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .analysis import privacy_notes
from .clocks import vacation_amount
from .commands import pgettext
from .common import fit_lines, game_label, title
from .i18n import N_, _, ngettext
from .lists import join_sentences

__all__ = ["DELETED_PLAYER", "NOT_YOUR_PRIVACY_BUTTON", "PRIVACY_DELETE_LABEL", "PRIVACY_KEPT",
           "privacy_confirm", "privacy_deleted", "privacy_running_games", "privacy_text"]

if TYPE_CHECKING:
    from ..manager.privacy import Forgotten, StoredData
    from ..manager.values import GameRef

# ---- your data: /privacy (issue 18) ---------------------------------------------------------
#: How a player who had their data deleted is named in the games created before (boards,
#: /history records and replays, review charts, game suggestions).
DELETED_PLAYER = N_("deleted player")
PRIVACY_DELETE_LABEL = N_("Delete my data")
NOT_YOUR_PRIVACY_BUTTON = N_("This button belongs to someone else's /privacy delete.")
PRIVACY_KEPT = N_("Finished games stay (they are your opponents' games too), showing you as "
                  "\"deleted player\". If you play again, your new games show your name as usual; "
                  "the older ones keep showing you as deleted.")


def privacy_kept() -> str:
    """What stays after a deletion (:data:`PRIVACY_KEPT` worded)."""
    return _(PRIVACY_KEPT)
_PRIVACY_SHOWN = 8  # ratings, games and such listed by name before "and N more"


def _some(items: list[str], shown: int = _PRIVACY_SHOWN) -> str:
    """``"a, b, c"``, or the first ``shown`` and ``"and N more"``."""
    head = ", ".join(items[:shown])
    return head if len(items) <= shown else _("{items} and {n} more").format(items=head, n=len(items) - shown)


def privacy_running_games(labels: list[str]) -> str:
    """The refusal of /privacy delete while the player has games in progress (``labels``:
    ``"Io #12"``, every server)."""
    return ngettext("You still have {n} game in progress: {games}. Finish or resign it (`/resign`) first, "
                    "then ask again: a running game shows its players' names.",
                    "You still have {n} games in progress: {games}. Finish or resign them (`/resign`) first, "
                    "then ask again: a running game shows its players' names.", len(labels)).format(
        n=len(labels), games=_some(labels))


def privacy_text(d: StoredData, here: int | None = None) -> str:
    """/privacy show: what is stored about the player (``d``: a
    :class:`bot.manager.StoredData`; ``here``: the server asked from, named "this server" in
    the ratings). Fits one message (2,000 characters) in the worst case: long lists are cut to
    their first few (8, or 4 where a wordier language needs the room) and a count; the closing
    line always stays."""
    tail = join_sentences(_("`/privacy delete` deletes your name, settings, conditional lines, ratings, "
                            "challenges and direct messages."), privacy_kept())
    text = ""
    for shown in (_PRIVACY_SHOWN, _PRIVACY_SHOWN // 2):
        text = "\n".join([*_stored_lines(d, here, shown), tail])
        if len(text) <= 2000:
            return text
    return fit_lines(_stored_lines(d, here, _PRIVACY_SHOWN // 2), limit=2000 - len(tail) - 1,
                     more=_("… and {n} more.")) + "\n" + tail


def _stored_lines(d: StoredData, here: int | None, shown: int) -> list[str]:
    """:func:`privacy_text`'s lines before the closing one, long lists cut after ``shown``."""
    lines = [_("**What Stonecast stores about you** (in every server; only you see this)")]
    if d.display_name is not None:
        assert d.name_seen_at is not None  # the store keeps the name with when it was seen
        lines.append(_("• Your display name as I last saw it: **{name}** ({when}), shown on boards and "
                       "records.").format(name=d.display_name, when=f"<t:{int(d.name_seen_at)}:d>"))
    else:
        lines.append(_("• Your display name: none stored."))
    if d.settings is not None:
        s = d.settings
        dm = (_("a daily digest at {hour}:00 UTC").format(hour=f"{s.digest_hour:02d}") if s.dm_mode == "digest"
              else pgettext("setting", "on") if s.dm else pgettext("setting", "off"))
        away = (_(", on vacation until {when}").format(when=f"<t:{int(s.vacation_until)}:f>")
                if s.vacation_until else "")
        lines.append(_("• Settings: direct messages: {dm}; move confirmation {confirm}; {vacation} of vacation "
                       "left this year{away}.").format(dm=dm, confirm=pgettext("setting", "on") if s.confirm else pgettext("setting", "off"),
                                                        vacation=vacation_amount(s.vacation_left_days), away=away))
    else:
        lines.append(_("• Settings: none stored (the defaults)."))
    if d.conditional_games:
        n = len(d.conditional_games)
        lines.append(ngettext("• Conditional lines in {n} game: {games}.", "• Conditional lines in {n} games: {games}.",
                              n).format(n=n, games=_some([f'#{gid}' for gid in d.conditional_games], 12)))
    if d.notes:
        lines.append(privacy_notes(d.notes))
    if d.ratings:
        ratings = [ngettext("{game} {rating} ({n} rated game, {where})", "{game} {rating} ({n} rated games, {where})",
                          r.games).format(game=title(r.kind), rating=f"{r.rating:.0f}", n=r.games,
                                          where=_("this server") if r.guild_id == here else _("another server"))
                 for r in d.ratings]
        lines.append(_("• Ratings: {ratings}.").format(ratings=_some(ratings, shown)))
    else:
        lines.append(_("• Ratings: none."))
    if d.challenges_sent or d.challenges_received:
        lines.append(_("• Challenges that did not become a game: {sent} sent, {received} received.").format(
            sent=d.challenges_sent, received=d.challenges_received))
    if d.dms_queued or d.dms_sent:
        lines.append(_("• Direct messages to you: {sent} sent, {queued} waiting to be sent.").format(
            sent=d.dms_sent, queued=d.dms_queued))
    if d.running_games:
        lines.append(_("• Games: {running} in progress ({games}), {finished} finished, with their moves, results "
                       "and rating changes.").format(running=len(d.running_games),
                                                     games=_some(_labels(d.running_games), shown),
                                                     finished=d.finished_games))
    else:
        lines.append(_("• Games: {finished} finished, with their moves, results and rating changes.").format(
            finished=d.finished_games))
    if d.forgotten_at is not None:
        lines.append(_("• You had your data deleted on {when}: the games before then show you as "
                       "\"{deleted}\".").format(when=f"<t:{int(d.forgotten_at)}:f>", deleted=_(DELETED_PLAYER)))
    return lines


def _labels(games: Sequence[GameRef]) -> list[str]:
    """``["Io #12", ...]``: each game by its kind and number."""
    return [game_label(g.kind, g.game_id) for g in games]


def privacy_confirm(running: Sequence[GameRef]) -> str:
    """/privacy delete: the question before the button (``running``: the games in progress,
    which must end first)."""
    if running:
        return privacy_running_games(_labels(running))
    return join_sentences(*[
        _("**Delete your data?** This deletes your display name, your settings, your conditional "
          "lines, your ratings in every server, your challenges that did not become a game and "
          "the direct messages queued for you."), privacy_kept(),
        _("Messages already posted in Discord (boards, thread titles) are not edited. This cannot be undone: "
          "press **{button}** to go on, or dismiss this message to keep everything.").format(
            button=_(PRIVACY_DELETE_LABEL))])


def privacy_deleted(f: Forgotten) -> str:
    """The answer once deleted (``f``: a :class:`bot.manager.Forgotten`)."""
    parts = []
    if f.ratings:
        parts.append(ngettext("{n} rating", "{n} ratings", f.ratings).format(n=f.ratings))
    if f.challenges:
        parts.append(ngettext("{n} challenge", "{n} challenges", f.challenges).format(n=f.challenges))
    if f.dms:
        parts.append(ngettext("{n} direct message", "{n} direct messages", f.dms).format(n=f.dms))
    if f.conditionals:
        parts.insert(0, ngettext("conditional lines in {n} game", "conditional lines in {n} games",
                                 f.conditionals).format(n=f.conditionals))
    if f.names:
        parts.insert(0, _("your display name"))
    if f.settings:
        parts.insert(1 if f.names else 0, _("your settings"))
    what = ", ".join(parts) if parts else _("nothing was stored beyond your games")
    return ngettext("Done: your data is deleted ({what}). Your {n} finished game stays, showing you as "
                    "\"deleted player\". If you play again, your new games show your name.",
                    "Done: your data is deleted ({what}). Your {n} finished games stay, showing you as "
                    "\"deleted player\". If you play again, your new games show your name.",
                    f.finished_games).format(what=what, n=f.finished_games, deleted=_(DELETED_PLAYER))
