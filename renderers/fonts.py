"""Fonts for every image: Roboto from the ``font-roboto`` package, cached per size and weight,
and fallback faces for scripts Roboto lacks (player names).

Roboto draws Latin, Greek and Cyrillic. Each character Roboto lacks is drawn in the first
font of :data:`FALLBACK_FACES` that has it: Noto Sans CJK from the ``noto-cjk-sans-jp-regular``
package (a project dependency, so every install has it: Chinese, Japanese kana and kanji,
Korean hangul), then fonts the system may have (the Docker image installs DejaVu Sans:
Arabic, Hebrew, Armenian, Georgian...). A face without a bold file is emboldened for bold
text (:func:`stroke`). Letters no font draws are transliterated
(:func:`renderers.panel.clean_name`).
"""

from __future__ import annotations

import os
from functools import lru_cache

from PIL import ImageFont

__all__ = ["CJK_FONT", "FALLBACK_FACES", "drawable", "draws", "font", "runs", "stroke"]

try:  # Roboto from the font-roboto package (see pyproject.toml); Pillow's own font otherwise.
    import font_roboto as _roboto

    _FACES = {"regular": _roboto.Roboto, "medium": _roboto.RobotoMedium, "bold": _roboto.RobotoBold}
except (ImportError, AttributeError):  # pragma: no cover - only without the dependency
    _FACES = {}

try:  # Noto Sans CJK from the noto-cjk-sans-jp-regular package (see pyproject.toml).
    import noto_cjk_sans_jp_regular as _noto_cjk

    #: Path of the Pan-CJK font every install has (Noto Sans CJK JP Regular: all CJK
    #: ideographs in Japanese forms, kana, hangul); ``None`` without the package.
    CJK_FONT: str | None = str(_noto_cjk.FONT_PATH)
except (ImportError, AttributeError):  # pragma: no cover - only without the dependency
    CJK_FONT = None

#: Fonts tried, in order, for text Roboto cannot draw: ``{weight: path}`` per face (a face
#: without a bold file uses its regular one, emboldened). Faces not installed are skipped.
FALLBACK_FACES: tuple[dict[str, str], ...] = (
    *(({"regular": CJK_FONT},) if CJK_FONT else ()),
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


#: Stroke width, as a share of the font size, that emboldens a face drawn in place of a bold
#: or medium font it has no file of that weight for (Noto Sans CJK Regular beside Roboto Bold).
EMBOLDEN = {"bold": 0.035, "medium": 0.018}


class _Emboldened(ImageFont.FreeTypeFont):
    """A fallback face at a weight it has no file for (see :data:`EMBOLDEN`): drawn with a
    stroke of :attr:`stroke_px` pixels in the text's own colour."""

    stroke_px: float = 0.0


@lru_cache(maxsize=64)
def _face_font(path: str, size: float, weight: str = "regular") -> ImageFont.FreeTypeFont:
    if weight not in EMBOLDEN:
        return ImageFont.truetype(path, size)
    f = _Emboldened(path, size)  # as ImageFont.truetype makes it, for a path that exists
    f.stroke_px = round(EMBOLDEN[weight] * size, 2)
    return f


def stroke(f: ImageFont.FreeTypeFont) -> float:
    """Stroke width in px to draw ``f`` with (stroke in the text's own colour): above 0 for a
    fallback face standing in for a bold font it has no bold file for (see :func:`runs`)."""
    return f.stroke_px if isinstance(f, _Emboldened) else 0.0


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
    its regular file) that has them, at ``f``'s size -- a regular file standing in for bold
    or medium is emboldened (:func:`stroke`). Characters no face has stay in ``f``.
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
    def fallback(p: str) -> ImageFont.FreeTypeFont:
        own = any(fb.get(weight) == p for fb in FALLBACK_FACES)
        return _face_font(p, f.size, "regular" if own else weight)

    return [(t, f if p == path else fallback(p)) for t, p in out]
