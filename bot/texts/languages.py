"""Languages (issue 22): the names of the languages offered and the /settings lines about them.

Each language is named in itself ("Deutsch", "日本語"): a player looks for their own language's
name, whatever language the bot speaks now. (Not re-exported by :mod:`bot.texts`, whose
``__init__`` is at the 400 lines the layout test allows: import it as
``from bot.texts import languages``.)
"""

from __future__ import annotations

from .i18n import N_, SUPPORTED, _

__all__ = ["DISCORDS_LANGUAGE", "LANGUAGE_NAMES", "SERVER_LANGUAGE_IN_DM", "SERVER_LANGUAGE_NOT_ALLOWED",
           "language_name", "language_text"]

#: Each supported language in itself, in :data:`bot.texts.i18n.SUPPORTED`'s order.
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", "es": "Español",
                  "pt_BR": "Português do Brasil", "ru": "Русский", "ja": "日本語"}
assert tuple(LANGUAGE_NAMES) == SUPPORTED

#: The choice of /settings language: and server-language: that follows Discord's locale.
DISCORDS_LANGUAGE = N_("Discord's language")
SERVER_LANGUAGE_NOT_ALLOWED = N_("Only members who may manage this server can choose its language.")
SERVER_LANGUAGE_IN_DM = N_("A server's language is chosen in that server, not in direct messages.")


def language_name(language: str) -> str:
    """``language`` (a member of :data:`bot.texts.i18n.SUPPORTED`) named in itself. KeyError
    for another."""
    return LANGUAGE_NAMES[language]


def language_text(chosen: str | None, speaking: str, server_chosen: str | None = None,
                  server_speaking: str | None = None) -> str:
    """/settings: the caller's language and, in a server, the language of its public posts.
    ``chosen``/``server_chosen``: the language picked with /settings (``None``: Discord's
    locale is followed); ``speaking``/``server_speaking``: the language used now (``None``
    server language: not in a server)."""
    if chosen is None:
        line = _("Language: {language} (your Discord language); choose another with `/settings language:`.")
    else:
        line = _("Language: {language} (your choice); `/settings language:` with “Discord's language” follows "
                 "your Discord again.")
    line = line.format(language=language_name(speaking))
    if server_speaking is None:
        return line
    if server_chosen is None:
        server = _("This server's posts: {language} (the server's Discord language).")
    else:
        server = _("This server's posts: {language} (chosen by its moderators).")
    return line + "\n" + server.format(language=language_name(server_speaking))
