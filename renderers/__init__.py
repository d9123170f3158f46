"""Board images for every game: a PNG of a position and an animated GIF of a whole game.

Public surface::

    import renderers
    png = renderers.render_png(position, players={1: "Ann", 2: "Bo"}, clock="2 days 4 h left")
    gif = renderers.render_gif("coil", {"size": 7}, ["g7", "pass", "f6"], players=...)
    x, y = renderers.cell_centre(position, "g7")      # pixel centre of a cell in that PNG
    renderers.THEMES                                   # "default", "light", "dark"
    png = renderers.render_review_png(review, players=..., theme="dark")  # a game review's chart
    png = renderers.render_standings_png(rows, header, title="Spring Swiss")  # a standings table

The panel words nothing of its own: pass ``text=renderers.PanelText(...)`` with every word
it draws (the bot's texts layer builds it, in the reader's language); without it the English
of :mod:`renderers.english` is drawn (for the gallery, benchmarks and library use).

Only the engine's public surface is used. Rendering is CPU work: the bot calls these in worker
processes (or a thread), never on the event loop.
"""

from .chart import render_review_image, render_review_png
from .gif import render_gif
from .render import DEFAULT_WIDTH, cell_centre, image_size, render_image, render_png
from .standings import StandingsHeader, StandingsRow, render_standings_png
from .theme import THEMES, Theme, get_theme
from .words import ChartText, Headline, Name, PanelText, SwingText

__all__ = [
    "DEFAULT_WIDTH",
    "StandingsHeader",
    "StandingsRow",
    "THEMES",
    "ChartText",
    "Headline",
    "Name",
    "PanelText",
    "SwingText",
    "Theme",
    "cell_centre",
    "get_theme",
    "image_size",
    "render_gif",
    "render_image",
    "render_png",
    "render_review_image",
    "render_review_png",
    "render_standings_png",
]
