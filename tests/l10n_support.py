"""What the per-group catalog tests share (issue 22): the languages, their plural forms, and
the check of one ``.po`` catalog against the messages a group of texts modules words."""

from __future__ import annotations

import re
from collections.abc import Iterable

from babel.messages.catalog import Catalog

from bot.texts import i18n

#: Every supported language but English (whose message ids are the text).
LANGUAGES = [lang for lang in i18n.SUPPORTED if lang != "en"]
#: How many plural forms each language's catalogs must give.
PLURAL_FORMS = {"de": 2, "fr": 2, "es": 2, "pt_BR": 2, "ru": 3, "ja": 1}
#: A ``str.format`` placeholder: ``{name}``.
PLACEHOLDER = re.compile(r"\{(\w*)\}")

Message = str | tuple[str, str]  # a message id, or (singular, plural)


def catalog_problems(catalog: Catalog, messages: Iterable[Message], lang: str) -> list[tuple[object, ...]]:
    """Each of ``messages`` missing from ``catalog`` (``lang``'s) or fuzzy there, with the
    wrong number of plural forms, or with a form empty or naming other placeholders than the
    English; an empty list when every message is translated whole."""
    problems: list[tuple[object, ...]] = []
    for message in messages:
        key = message[0] if isinstance(message, tuple) else message
        entry = catalog.get(key)
        if entry is None or entry.fuzzy:
            problems.append(("missing or fuzzy", key))
            continue
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if isinstance(message, tuple) != isinstance(entry.id, tuple) or len(forms) != (
                PLURAL_FORMS[lang] if isinstance(message, tuple) else 1):
            problems.append(("plural forms", key))
        wanted = set(PLACEHOLDER.findall(" ".join(message) if isinstance(message, tuple) else message))
        for form in forms:
            if not form.strip():
                problems.append(("empty", key))
            elif set(PLACEHOLDER.findall(form)) != wanted:
                problems.append(("placeholders", key, form))
    return problems
