"""Colour themes for board images.

Every theme keeps the two stone colours far apart in lightness (near-black and near-white) so
they read without hue, gives each stone a rim of the opposite lightness, and paints an opaque
frame that sits well on both Discord themes (#313338 dark, #ffffff light).

Colours are ``(r, g, b)`` tuples of 0-255 ints.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["HIGHLIGHT_CONTRAST_MIN", "THEMES", "Theme", "contrast_ratio", "get_theme", "luminance"]

RGB = tuple[int, int, int]

#: Least luminance contrast (WCAG 2 ratio, :func:`contrast_ratio`) a highlight keeps against
#: what it is drawn on -- the board and either stone colour -- in at least one of its
#: colours: WCAG's 3:1 for graphical objects, so marks read in greyscale and under colour
#: blindness, not by hue alone.
HIGHLIGHT_CONTRAST_MIN = 3.0


def luminance(rgb: RGB) -> float:
    """WCAG 2 relative luminance of an sRGB colour ``(r, g, b)`` (0-255): 0 black .. 1 white."""
    def lin(c: float) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio of two colours: 1 (same luminance) .. 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _hex(text: str) -> RGB:
    text = text.lstrip("#")
    return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))


@dataclass(frozen=True)
class Theme:
    """The colours one image is painted with (all ``(r, g, b)``).

    * ``frame`` -- the opaque background around the board and behind the panel.
    * ``board`` / ``board_alt`` -- cell fill and the fill of marked cells (Io corners).
    * ``line`` -- cell outlines and grid lines; ``board_edge`` -- the outline of the whole board.
    * ``coord`` -- coordinate text on the frame; ``cell_label`` -- faint labels in empty cells.
    * ``black`` / ``black_rim`` and ``white`` / ``white_rim`` -- stone fill and rim.
    * ``accent`` -- the winning structure's halo and Coil's enclosed cells: a dark red that
      stands :data:`HIGHLIGHT_CONTRAST_MIN` off the board in lightness; ``halo_edge`` -- the
      light line around a halo (it stands off dark boards and black stones).
    * ``border`` -- a thin line around the whole image (shows the edge of a light frame on a
      light page).
    * ``panel`` / ``panel_turn`` -- panel card fill and the card of the player to move.
    * ``text`` / ``text_dim`` -- panel text, strong and secondary.
    * ``turn`` -- the marker beside the player to move.
    * ``dark_frame`` -- True when ``frame`` is dark (text and marks chosen accordingly).
    """

    name: str
    frame: RGB
    board: RGB
    board_alt: RGB
    line: RGB
    board_edge: RGB
    coord: RGB
    cell_label: RGB
    black: RGB
    black_rim: RGB
    white: RGB
    white_rim: RGB
    accent: RGB
    halo_edge: RGB
    border: RGB
    panel: RGB
    panel_turn: RGB
    text: RGB
    text_dim: RGB
    turn: RGB
    dark_frame: bool

    def stone(self, colour: str) -> RGB:
        """Fill of a ``"black"`` or ``"white"`` stone. Raises KeyError for another colour."""
        return {"black": self.black, "white": self.white}[colour]

    def rim(self, colour: str) -> RGB:
        """Rim of a ``"black"`` or ``"white"`` stone (the opposite lightness)."""
        return {"black": self.black_rim, "white": self.white_rim}[colour]

    def contrast(self, colour: str) -> RGB:
        """A colour that stands out on a stone of ``colour`` (for marks drawn on it)."""
        return {"black": self.white, "white": self.black}[colour]


THEMES: dict[str, Theme] = {
    "default": Theme(
        name="default",
        frame=_hex("#24272c"),
        board=_hex("#dcb46c"),
        board_alt=_hex("#c9a05a"),
        line=_hex("#7a5a2a"),
        board_edge=_hex("#5a4020"),
        coord=_hex("#d7dbe2"),
        cell_label=_hex("#a8884c"),
        black=_hex("#17181a"),
        black_rim=_hex("#8e939c"),
        white=_hex("#f6f5f0"),
        white_rim=_hex("#34363a"),
        accent=_hex("#a81d0e"),
        halo_edge=_hex("#fff1e0"),
        border=_hex("#24272c"),
        panel=_hex("#2e3238"),
        panel_turn=_hex("#3b4250"),
        text=_hex("#f0f2f5"),
        text_dim=_hex("#a9b0bb"),
        turn=_hex("#ffb43d"),
        dark_frame=True,
    ),
    "light": Theme(
        name="light",
        frame=_hex("#f1ede4"),
        board=_hex("#e2c68f"),
        board_alt=_hex("#d2b277"),
        line=_hex("#86683a"),
        board_edge=_hex("#5e4826"),
        coord=_hex("#3a3d42"),
        cell_label=_hex("#ad9260"),
        black=_hex("#17181a"),
        black_rim=_hex("#8e939c"),
        white=_hex("#fbfaf6"),
        white_rim=_hex("#3a3c40"),
        accent=_hex("#a81d0e"),
        halo_edge=_hex("#fffaf2"),
        border=_hex("#c9c0ac"),
        panel=_hex("#e4dfd3"),
        panel_turn=_hex("#d3cab6"),
        text=_hex("#1e2024"),
        text_dim=_hex("#5c6068"),
        turn=_hex("#b5460f"),
        dark_frame=False,
    ),
    "dark": Theme(
        name="dark",
        frame=_hex("#16171a"),
        board=_hex("#7f8c99"),
        board_alt=_hex("#6f7b88"),
        line=_hex("#4a545e"),
        board_edge=_hex("#2c3238"),
        coord=_hex("#c2c8d0"),
        cell_label=_hex("#5d6874"),
        black=_hex("#101112"),
        black_rim=_hex("#9aa0a8"),
        white=_hex("#f4f4f2"),
        white_rim=_hex("#2a2c30"),
        accent=_hex("#a81d0e"),
        halo_edge=_hex("#fff8f4"),
        border=_hex("#16171a"),
        panel=_hex("#23252a"),
        panel_turn=_hex("#323845"),
        text=_hex("#eceef2"),
        text_dim=_hex("#9aa1ac"),
        turn=_hex("#ffb43d"),
        dark_frame=True,
    ),
}


def get_theme(name: str | Theme) -> Theme:
    """The :class:`Theme` called ``name`` (a key of :data:`THEMES`), or ``name`` if a Theme.

    Raises ValueError for an unknown theme name.
    """
    if isinstance(name, Theme):
        return name
    try:
        return THEMES[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown theme {name!r}; themes: {', '.join(THEMES)}"
        ) from None
