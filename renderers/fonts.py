"""Fonts for every image: Roboto from the ``font-roboto`` package, cached per size and weight,
and fallback faces for scripts Roboto lacks (player names).

Roboto draws Latin, Greek and Cyrillic. For other scripts the panel uses the first installed
font of :data:`FALLBACK_FACES` that draws the whole text (the Docker image installs DejaVu
Sans and Droid Sans Fallback: Arabic, Hebrew, Armenian, Georgian..., and Chinese, Japanese,
Korean); without them names are transliterated instead (:func:`renderers.panel.clean_name`).
"""

from __future__ import annotations

import os
from functools import lru_cache

from PIL import ImageFont

__all__ = ["FALLBACK_FACES", "drawable", "draws", "font", "runs"]

try:  # Roboto from the font-roboto package (see pyproject.toml); Pillow's own font otherwise.
    import font_roboto as _roboto

    _FACES = {"regular": _roboto.Roboto, "medium": _roboto.RobotoMedium, "bold": _roboto.RobotoBold}
except (ImportError, AttributeError):  # pragma: no cover - only without the dependency
    _FACES = {}

#: Fonts tried, in order, for text Roboto cannot draw: ``{weight: path}`` per face (a face
#: without a bold file uses its regular one). Faces not installed are skipped.
FALLBACK_FACES: tuple[dict[str, str], ...] = (
    {"regular": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
     "bold": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"},
    {"regular": "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"},
    {"regular": "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
     "bold": "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"},
)

#: A code point no font has a glyph for: its bitmap is the font's "missing glyph" box.
_MISSING = "\U0010fffd"


@lru_cache(maxsize=128)
def font(size: float, weight: str = "regular") -> ImageFont.FreeTypeFont:
    """A font of ``size`` pixels and ``weight`` (``"regular"``, ``"medium"``, ``"bold"``), cached.

    Roboto (package ``font-roboto``); Pillow's bundled font where that is missing.
    """
    size = max(1, round(size))
    path = _FACES.get(weight)
    if path is None:
        f = ImageFont.load_default(size=size)
        # Pillow gives its bitmap ImageFont only when built without FreeType, which every
        # caller (and truetype() below) needs anyway
        assert isinstance(f, ImageFont.FreeTypeFont), "Pillow was built without FreeType"
        return f
    return ImageFont.truetype(path, size)


@lru_cache(maxsize=64)
def _face_font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def _faces(weight: str) -> list[str]:
    """Font files tried for ``weight``, Roboto first, then installed fallbacks."""
    out = [_FACES[weight]] if weight in _FACES else []
    for face in FALLBACK_FACES:
        path = face.get(weight) or face.get("regular")
        if path and os.path.exists(path):
            out.append(path)
    return out


@lru_cache(maxsize=8192)
def _has_glyph(path: str, ch: str) -> bool:
    """True when the font file ``path`` has a glyph for the character ``ch`` (its bitmap is
    not the missing-glyph box; white space always counts)."""
    if ch.isspace():
        return True
    f = _face_font(path, 24)
    try:
        mask = f.getmask(ch)
    except (OSError, ValueError):  # pragma: no cover - FreeType refused the character
        return False
    missing = f.getmask(_MISSING)
    return bytes(mask) != bytes(missing) or mask.size != missing.size


def draws(path: str, text: str) -> bool:
    """True when the font file ``path`` has a glyph for every character of ``text``."""
    return all(_has_glyph(path, ch) for ch in text)


def drawable(ch: str) -> bool:
    """True when Roboto or an installed fallback face has a glyph for the character ``ch``."""
    return any(_has_glyph(path, ch) for weight in ("bold", "regular") for path in _faces(weight))


def runs(text: str, f: ImageFont.FreeTypeFont) -> list[tuple[str, ImageFont.FreeTypeFont]]:
    """``text`` split into runs of one font each: ``f`` (a Roboto font from :func:`font`)
    where it has the glyphs, else the first installed fallback face of the same weight (or
    its regular file) that has them, at ``f``'s size. Characters no face has stay in ``f``.
    """
    path = getattr(f, "path", None)
    if not isinstance(path, str) or draws(path, text):
        return [(text, f)]
    weight = next((w for w, p in _FACES.items() if p == path), "regular")
    others = [p for p in _faces(weight)[1:] + _faces("regular")[1:] if p != path]
    out: list[tuple[str, str]] = []  # (run, font file)
    for ch in text:
        face = path
        if not _has_glyph(path, ch):
            face = next((p for p in others if _has_glyph(p, ch)), path)
        if out and (face == out[-1][1] or ch.isspace() and _has_glyph(out[-1][1], ch)):
            out[-1] = (out[-1][0] + ch, out[-1][1])
        else:
            out.append((ch, face))
    return [(t, f if p == path else _face_font(p, f.size)) for t, p in out]
