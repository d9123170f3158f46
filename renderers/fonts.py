"""Fonts for every image: Roboto from the ``font-roboto`` package, cached per size and weight."""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageFont

__all__ = ["font"]

try:  # Roboto from the font-roboto package (see pyproject.toml); Pillow's own font otherwise.
    import font_roboto as _roboto

    _FACES = {"regular": _roboto.Roboto, "medium": _roboto.RobotoMedium, "bold": _roboto.RobotoBold}
except (ImportError, AttributeError):  # pragma: no cover - only without the dependency
    _FACES = {}


@lru_cache(maxsize=128)
def font(size: float, weight: str = "regular") -> ImageFont.FreeTypeFont:
    """A font of ``size`` pixels and ``weight`` (``"regular"``, ``"medium"``, ``"bold"``), cached.

    Roboto (package ``font-roboto``); Pillow's bundled font where that is missing.
    """
    size = max(1, round(size))
    path = _FACES.get(weight)
    if path is None:
        return ImageFont.load_default(size=size)
    return ImageFont.truetype(path, size)
