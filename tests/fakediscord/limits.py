"""Discord's documented limits on what a bot sends, in one place (issue 18).

The fake Discord (``server.py``) refuses what breaks them, answering as Discord does, and
the tests that build every text the bot can send check them with the same functions.

Sources (Discord's developer documentation):

* Message resource, "Create Message": content ≤ 2,000 characters, ≤ 10 embeds, ≤ 10 files;
  an upload over the file size limit is refused with 413 / 40005 "Request entity too large".
  The default upload limit is 10 MiB a file (it was 8 MiB until 2024; interactions carry it
  as ``attachment_size_limit``).
* Message resource, "Embed Limits": title 256, description 4,096, ≤ 25 fields, field name
  256 and value 1,024 (both required), footer text 2,048, author name 256, and 6,000
  characters in all the embeds of a message together.
* Message Components: ≤ 5 action rows, ≤ 5 buttons in a row (a select menu fills a row
  alone), button label ≤ 80, ``custom_id`` ≤ 100 and unique within the message, a select
  menu has 1..25 options (label, value, description ≤ 100 each), placeholder ≤ 150.
* Interactions, "Receiving and Responding": the initial response within 3 seconds (later:
  404 / 10062 "Unknown interaction"), one initial response only (400 / 40060 "Interaction has
  already been acknowledged."), the token usable for follow-ups for 15 minutes (later: 401 /
  50027 "Invalid Webhook Token"); autocomplete: ≤ 25 choices, name and value ≤ 100.
* Channel resource, "Start Thread": thread name 1..100 characters.
* Message resource, "Attachment Object" (the request structure a message's ``attachments``
  use): an attachment's ``description`` (alt text) ≤ 1,024 characters.

A form error is answered 400 with JSON code 50035, message "Invalid Form Body" and an
``errors`` object naming the field by its path, as Discord does::

    {"code": 50035, "message": "Invalid Form Body",
     "errors": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                         "message": "Must be 2000 or fewer in length."}]}}}

discord.py shows that as ``400 Bad Request (error code: 50035): Invalid Form Body`` followed
by ``In content: Must be 2000 or fewer in length.``. Lengths are counted in code points.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000
ATTACHMENTS = 10
ATTACHMENT_DESCRIPTION = 1024  # an attachment's description (alt text)
UPLOAD_BYTES = 10 * 1024 * 1024  # default upload limit a file (10 MiB since 2024)
ACTION_ROWS = 5
ROW_BUTTONS = 5
BUTTON_LABEL = 80
CUSTOM_ID = 100
SELECT_OPTIONS = 25
SELECT_OPTION_TEXT = 100  # label, value, description
SELECT_PLACEHOLDER = 150
AUTOCOMPLETE_CHOICES = 25
CHOICE_NAME = 100
CHOICE_VALUE = 100
THREAD_NAME = 100
RESPONSE_SECONDS = 3.0  # initial interaction response
TOKEN_SECONDS = 15 * 60  # follow-ups and edits with the interaction token

INVALID_FORM_BODY = (400, 50035, "Invalid Form Body")
TOO_LARGE = (413, 40005, "Request entity too large")

BUTTON, SELECT_TYPES = 2, (3, 5, 6, 7, 8)


class LimitError(ValueError):
    """A payload Discord refuses: ``errors`` is Discord's nested ``errors`` object (see the
    module docstring); ``str()`` lists each problem as ``"path: message"``."""

    def __init__(self, errors: dict, status: int = 400, code: int = 50035,
                 message: str = "Invalid Form Body"):
        self.errors, self.status, self.code, self.message = errors, status, code, message
        super().__init__(f"{status} ({code}) {message}: " + "; ".join(flatten(errors)))


def _max_length(n: int) -> dict:
    return {"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {n} or fewer in length."}


def _length_between(lo: int, hi: int) -> dict:
    return {"code": "BASE_TYPE_BAD_LENGTH", "message": f"Must be between {lo} and {hi} in length."}


_REQUIRED = {"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}


class _Errors:
    """Collects errors into Discord's nested form: ``add(("embeds", 0, "title"), error)``."""

    def __init__(self) -> None:
        self.tree: dict = {}

    def add(self, path: Iterable[Any], error: dict) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append(error)

    def text(self, path: tuple, value: Any, limit: int, *, required: bool = False) -> None:
        """Check the string ``value`` (None: absent) at ``path`` against ``limit``."""
        if value is None or value == "":
            if required:
                self.add(path, _REQUIRED)
            return
        if len(str(value)) > limit:
            self.add(path, _max_length(limit))


def flatten(errors: dict, prefix: str = "") -> list[str]:
    """``["embeds.0.title: Must be 256 or fewer in length.", ...]`` from a nested errors object."""
    out = []
    for key, value in errors.items():
        if key == "_errors":
            out += [f"{prefix or '(body)'}: {e['message']}" for e in value]
        else:
            out += flatten(value, f"{prefix}.{key}" if prefix else key)
    return out


def embed_size(embed: dict) -> int:
    """Characters of ``embed`` counted towards Discord's 6,000: title, description, field
    names and values, footer text and author name."""
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    for f in embed.get("fields") or []:
        size += len(f.get("name") or "") + len(f.get("value") or "")
    size += len((embed.get("footer") or {}).get("text") or "")
    size += len((embed.get("author") or {}).get("name") or "")
    return size


def _check_embeds(err: _Errors, embeds: list) -> None:
    if len(embeds) > EMBEDS:
        err.add(("embeds",), _max_length(EMBEDS))
    total = 0
    for i, e in enumerate(embeds):
        p = ("embeds", i)
        err.text((*p, "title"), e.get("title"), EMBED_TITLE)
        err.text((*p, "description"), e.get("description"), EMBED_DESCRIPTION)
        fields = e.get("fields") or []
        if len(fields) > EMBED_FIELDS:
            err.add((*p, "fields"), _max_length(EMBED_FIELDS))
        for j, f in enumerate(fields):
            err.text((*p, "fields", j, "name"), f.get("name"), EMBED_FIELD_NAME, required=True)
            err.text((*p, "fields", j, "value"), f.get("value"), EMBED_FIELD_VALUE, required=True)
        if e.get("footer") is not None:
            err.text((*p, "footer", "text"), e["footer"].get("text"), EMBED_FOOTER, required=True)
        if e.get("author") is not None:
            err.text((*p, "author", "name"), e["author"].get("name"), EMBED_AUTHOR, required=True)
        total += embed_size(e)
    if total > EMBED_TOTAL:
        err.add(("embeds",), {"code": "MAX_EMBED_SIZE_EXCEEDED",
                              "message": f"Embed size exceeds maximum size of {EMBED_TOTAL}"})


def _check_components(err: _Errors, rows: list) -> None:
    if len(rows) > ACTION_ROWS:
        err.add(("components",), _max_length(ACTION_ROWS))
    seen: set[str] = set()
    for i, row in enumerate(rows):
        p = ("components", i, "components")
        children = row.get("components") or []
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        if len(children) > ROW_BUTTONS or (selects and len(children) > 1):
            err.add(p, _max_length(1 if selects else ROW_BUTTONS))
        for j, c in enumerate(children):
            cid = c.get("custom_id")
            if cid is not None:
                if len(cid) > CUSTOM_ID:
                    err.add((*p, j, "custom_id"), _max_length(CUSTOM_ID))
                if cid in seen:
                    err.add((*p, j, "custom_id"), {"code": "COMPONENT_CUSTOM_ID_DUPLICATED",
                                                   "message": "Component custom id cannot be duplicated"})
                seen.add(cid)
            if c.get("type") == BUTTON:
                err.text((*p, j, "label"), c.get("label"), BUTTON_LABEL)
            elif c.get("type") in SELECT_TYPES:
                err.text((*p, j, "placeholder"), c.get("placeholder"), SELECT_PLACEHOLDER)
                options = c.get("options")
                if c.get("type") == 3 and not 1 <= len(options or []) <= SELECT_OPTIONS:
                    err.add((*p, j, "options"), _length_between(1, SELECT_OPTIONS))
                for k, o in enumerate(options or []):
                    for key in ("label", "value", "description"):
                        err.text((*p, j, "options", k, key), o.get(key), SELECT_OPTION_TEXT,
                                 required=key != "description")


def message_errors(payload: dict, file_sizes: Iterable[int] = (), *, kept_attachments: int = 0) -> dict:
    """Discord's ``errors`` object for a message payload (create or edit: only the fields
    present are checked), empty when Discord would accept it. ``file_sizes``: bytes of each
    file uploaded with it; ``kept_attachments``: attachments it keeps from before (edits).
    Upload sizes are checked by :func:`check_message` (Discord answers them with 413)."""
    err = _Errors()
    err.text(("content",), payload.get("content"), CONTENT)
    embeds = payload.get("embeds")
    if embeds is None and payload.get("embed"):
        embeds = [payload["embed"]]
    _check_embeds(err, embeds or [])
    _check_components(err, payload.get("components") or [])
    files = list(file_sizes)
    referenced = payload.get("attachments")
    n_attachments = len(referenced) if referenced is not None else kept_attachments + len(files)
    if max(n_attachments, len(files)) > ATTACHMENTS:
        err.add(("attachments",), _max_length(ATTACHMENTS))
    for i, ref in enumerate(referenced or []):
        if isinstance(ref, dict):
            err.text(("attachments", i, "description"), ref.get("description"), ATTACHMENT_DESCRIPTION)
    return err.tree


def check_message(payload: dict, file_sizes: Iterable[int] = (), *, kept_attachments: int = 0,
                  upload_bytes: int = UPLOAD_BYTES) -> None:
    """Raise :class:`LimitError` with Discord's answer if Discord refuses ``payload`` (see
    :func:`message_errors`): 413 / 40005 for a file over ``upload_bytes``, else 400 / 50035."""
    sizes = list(file_sizes)
    if any(size > upload_bytes for size in sizes):
        raise LimitError({}, *TOO_LARGE)
    errors = message_errors(payload, sizes, kept_attachments=kept_attachments)
    if errors:
        raise LimitError(errors)


def check_choices(choices: list[dict]) -> None:
    """Raise :class:`LimitError` if Discord refuses these autocomplete choices (callback
    type 8): more than 25, or a name or value over 100 characters (a name is required)."""
    err = _Errors()
    if len(choices) > AUTOCOMPLETE_CHOICES:
        err.add(("choices",), _max_length(AUTOCOMPLETE_CHOICES))
    for i, c in enumerate(choices):
        err.text(("choices", i, "name"), c.get("name"), CHOICE_NAME, required=True)
        if isinstance(c.get("value"), str):
            err.text(("choices", i, "value"), c["value"], CHOICE_VALUE)
    if err.tree:
        raise LimitError(err.tree)


def check_thread_name(name: str | None) -> None:
    """Raise :class:`LimitError` if Discord refuses ``name`` for a thread (1..100 characters)."""
    if not name or len(name) > THREAD_NAME:
        raise LimitError({"name": {"_errors": [_length_between(1, THREAD_NAME)]}})


# ---- application commands (issue 22: localised names and descriptions) ----------------------
# Discord's locales (https://discord.com/developers/docs/reference#locales): the only keys a
# ``*_localizations`` map may have.
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
    "th", "zh-CN", "ja", "zh-TW", "ko"})
COMMAND_NAME = 32
COMMAND_DESCRIPTION = 100  # a command's, an option's
OPTION_CHOICE_NAME = 100
_NAME_PATTERN = ("Command name is invalid: must match ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$ "
                 "and use the lower-case variant of every letter")


def _deva_or_thai(c: str) -> bool:
    return "\u0900" <= c <= "\u097f" or "\ua8e0" <= c <= "\ua8ff" or "\u0e00" <= c <= "\u0e7f"


def command_name_ok(name: object) -> bool:
    """Whether Discord accepts ``name`` as a CHAT_INPUT command's or an option's name (or a
    localisation of one): 1..32 characters matching ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]$``
    each, and no letter that has a lower-case variant used in another case."""
    import unicodedata

    if not isinstance(name, str) or not 1 <= len(name) <= COMMAND_NAME:
        return False
    for c in name:
        if not (c in "-_" or unicodedata.category(c)[0] in "LN" or _deva_or_thai(c)):
            return False
        if c.lower() != c:  # it has a lower-case variant, not used
            return False
    return True


def _check_localizations(err: _Errors, path: tuple, node: dict, field: str, limit: int, *, name: bool) -> None:
    table = node.get(f"{field}_localizations")
    if table is None:
        return
    if not isinstance(table, dict):
        err.add((*path, f"{field}_localizations"), {"code": "DICT_TYPE_CONVERT", "message": "Only dictionaries may be used in a DictType"})
        return
    for locale, value in table.items():
        where = (*path, f"{field}_localizations", locale)
        if locale not in LOCALES:
            err.add(where, {"code": "LOCALE_INVALID", "message": f"Invalid locale: {locale}"})
        elif name and not command_name_ok(value):
            err.add(where, {"code": "APPLICATION_COMMAND_INVALID_NAME", "message": _NAME_PATTERN})
        elif not name and (not isinstance(value, str) or not 1 <= len(value) <= limit):
            err.add(where, _length_between(1, limit))


def _check_command_node(err: _Errors, path: tuple, node: dict, *, chat_input: bool) -> None:
    if chat_input:
        if not command_name_ok(node.get("name")):
            err.add((*path, "name"), {"code": "APPLICATION_COMMAND_INVALID_NAME", "message": _NAME_PATTERN})
        _check_localizations(err, path, node, "name", COMMAND_NAME, name=True)
        description = node.get("description")
        if not isinstance(description, str) or not 1 <= len(description) <= COMMAND_DESCRIPTION:
            err.add((*path, "description"), _length_between(1, COMMAND_DESCRIPTION))
        _check_localizations(err, path, node, "description", COMMAND_DESCRIPTION, name=False)
    for i, choice in enumerate(node.get("choices") or []):
        err.text((*path, "choices", i, "name"), choice.get("name"), OPTION_CHOICE_NAME, required=True)
        _check_localizations(err, (*path, "choices", i), choice, "name", OPTION_CHOICE_NAME, name=False)
    for i, option in enumerate(node.get("options") or []):
        _check_command_node(err, (*path, "options", i), option, chat_input=True)


def check_commands(commands: list[dict]) -> None:
    """Raise :class:`LimitError` (400 / 50035) if Discord refuses this bulk overwrite of
    application commands: a CHAT_INPUT command's or option's name (or a name localisation)
    not a valid name (:func:`command_name_ok`), a description (or its localisation) not 1..100
    characters, a choice name (or its localisation) not 1..100, a localisation under a key
    that is not one of Discord's locales (:data:`LOCALES`)."""
    err = _Errors()
    for i, command in enumerate(commands):
        _check_command_node(err, (i,), command, chat_input=command.get("type", 1) == 1)
    if err.tree:
        raise LimitError(err.tree)
