"""Animated replays (filled in below)."""
def render_gif(kind, options, moves, *, players=None):
    raise NotImplementedError
