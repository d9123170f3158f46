"""Languages (issue 22): gettext catalogs read with Babel, and the language the bot speaks now.

Every sentence of :mod:`bot.texts` is an English message id passed through :func:`_` (or
:func:`ngettext` for counts) at the moment it is worded, with named ``str.format``
placeholders (``_("{name} to move").format(name=...)``: a translation may move them; an
f-string cannot be extracted). Text worded at import time (module constants) is marked with
:func:`N_` and passed through :func:`_` where it is used.

Which language: a context variable holds the locale of the message being worded.
:func:`speaking` sets it for a block (the front wraps each interaction in the user's language
and each public post in the server's); every ``texts`` function reads it through :func:`_`.
The default is English.

Catalogs: ``bot/texts/locale/<language>/LC_MESSAGES/*.po`` (``de``, ``fr``, ``es``,
``pt_BR``, ``ru``, ``ja``), one file per group of topics, all the files of a language merged
into one catalog when it is first used. English needs no catalog: its message ids are the
English text. A message missing, empty or fuzzy in a catalog falls back to English (and a
test fails). Extraction: ``make messages`` (Babel's ``pybabel extract`` over ``bot/``, keywords
``_``, ``N_``, ``ngettext``).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import io
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

__all__ = ["DEFAULT", "LOCALE_DIR", "SUPPORTED", "N_", "_", "babel_locale", "current_locale",
           "language_of", "ngettext", "speak_for_task", "speaking", "translations"]

#: The catalogs' folder.
LOCALE_DIR = Path(__file__).with_name("locale")
#: Supported languages, by their catalog folder name (Babel's identifiers), English first.
SUPPORTED = ("en", "de", "fr", "es", "pt_BR", "ru", "ja")
#: The language of anything not otherwise known.
DEFAULT = "en"

_current: contextvars.ContextVar[str] = contextvars.ContextVar("stonecast_language", default=DEFAULT)


def language_of(locale: object) -> str:
    """The supported language (a member of :data:`SUPPORTED`) for ``locale``: a Discord locale
    (``discord.Locale`` or its value, e.g. ``"de"``, ``"pt-BR"``, ``"es-419"``, ``"en-GB"``), a
    Babel identifier (``"pt_BR"``) or ``None``. Anything unsupported or unknown is English."""
    value = getattr(locale, "value", locale)
    return _language_of_code(value) if isinstance(value, str) else DEFAULT


@functools.lru_cache(maxsize=256)
def _language_of_code(value: str) -> str:
    """:func:`language_of` for a locale's code (``"pt-BR"``); remembered, as a command sync
    asks for each of Discord's locales once per word of every command."""
    if not value.strip():
        return DEFAULT
    code = value.strip().replace("-", "_")
    if code in SUPPORTED:
        return code
    base = code.split("_", 1)[0].lower()
    if base == "pt":
        return "pt_BR"  # Discord offers pt-BR only
    return base if base in SUPPORTED else DEFAULT


def current_locale() -> str:
    """The language being spoken now (a member of :data:`SUPPORTED`)."""
    return _current.get()


@contextlib.contextmanager
def speaking(locale: object) -> Iterator[str]:
    """Word everything inside the ``with`` block in ``locale``'s language
    (:func:`language_of`); yields that language. Nests; restores the outer language on
    exit. Per asyncio task: a task started inside inherits it."""
    token = _current.set(language_of(locale))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def speak_for_task(locale: object) -> str:
    """Word everything from now on in ``locale``'s language, until the current asyncio task
    ends (or another call): for a hook that runs first in a task devoted to one interaction
    (discord.py runs each command, autocomplete and button press in a task of its own, and its
    error handler in the same task), where no ``with`` block can enclose the handler. Tasks
    started afterwards inherit it. Returns the language. Use :func:`speaking` everywhere else."""
    _current.set(language_of(locale))
    return _current.get()


@functools.cache
def translations(language: str) -> NullTranslations:
    """The merged catalog of ``language`` (every ``.po`` file of its folder, fuzzy and empty
    entries left out), read once; English and a language without catalogs give
    :class:`NullTranslations` (message ids as they are). Raises ValueError for a language
    not in :data:`SUPPORTED`."""
    if language not in SUPPORTED:
        raise ValueError(f"unsupported language {language!r}; supported: {', '.join(SUPPORTED)}")
    merged: NullTranslations = NullTranslations()
    first = True
    for po in sorted((LOCALE_DIR / language / "LC_MESSAGES").glob("*.po")):
        part = Translations(fp=io.BytesIO(_compiled(po, language)))
        if first:
            merged, first = part, False
        else:
            assert isinstance(merged, Translations)
            merged.merge(part)
    return merged


def _compiled(po: Path, language: str) -> bytes:
    """The ``.mo`` bytes of the catalog ``po`` (Babel's ``read_po`` and ``write_mo``, fuzzy
    entries left out). Parsing a language's ``.po`` files costs about 30 ms, and every process
    the bot starts reads them all, so the result is cached beside it as ``<name>.mo`` (ignored
    by git), the way Python caches bytecode: stamped with the ``.po``'s modification time and
    used only while the two times are equal (a ``.po`` edited, or replaced by an older one,
    is compiled again), written atomically (readable by all, as the ``.po``), and skipped
    where the folder is read-only."""
    mo = po.with_suffix(".mo")
    source_time = po.stat().st_mtime_ns
    try:
        if mo.stat().st_mtime_ns == source_time:
            return mo.read_bytes()
    except OSError:
        pass
    with po.open("rb") as f:
        catalog = read_po(f, locale=language)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    data = buf.getvalue()
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{mo.name}.", dir=mo.parent)
    except OSError:  # a read-only folder: parsed again by the next process
        return data
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            os.fchmod(f.fileno(), 0o644)  # mkstemp's 0600 would hide it from other users
        os.utime(temporary, ns=(source_time, source_time))
        os.replace(temporary, mo)
    except OSError:
        Path(temporary).unlink(missing_ok=True)
    return data


def _(message: str) -> str:
    """``message`` (an English message id) in the current language."""
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` (English message ids) for the count ``n`` in the
    current language (Russian has three forms, Japanese one). The count is not inserted:
    write ``{n}`` in the message and ``.format(n=n)``."""
    return translations(_current.get()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it (module constants); translate
    it with :func:`_` where it is used."""
    return message


def babel_locale() -> Locale:
    """The current language as a :class:`babel.Locale`, for Babel's number and date
    formatting (``babel.numbers.format_decimal(x, locale=babel_locale())``)."""
    return Locale.parse(_current.get())
