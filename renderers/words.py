"""The words of a board picture's panel as a value: :class:`PanelText`.

The renderers word nothing of their own: the panel draws only the words it is given, so a
caller (the bot's texts layer) can give them in any language. A text names a player by seat
(:class:`Name`), never by spelling the name: the panel draws the name as it cleans it
(:func:`renderers.panel.clean_name`), the same in the headline, the detail and the card.

:mod:`renderers.english` builds the English words for the package's own gallery,
benchmarks and library users who pass none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["ChartText", "Headline", "Name", "PanelText", "Piece", "SwingText", "spell"]


@dataclass(frozen=True)
class Name:
    """The display name of ``seat`` (1 or 2) inside a panel phrase, drawn as the panel
    cleans it (:func:`renderers.panel.clean_name`). Raises ValueError for another seat."""

    seat: int

    def __post_init__(self) -> None:
        if self.seat not in (1, 2):
            raise ValueError(f"a name is seat 1's or seat 2's, not {self.seat!r}")


#: A piece of a panel phrase: words, or a player's name.
Piece = str | Name


def spell(pieces: tuple[Piece, ...], names: Mapping[int, str]) -> str:
    """``pieces`` as one text, each :class:`Name` replaced by ``names[seat]``."""
    return "".join(names[p.seat] if isinstance(p, Name) else p for p in pieces)


@dataclass(frozen=True)
class Headline:
    """The panel's headline (whose turn, or the result) in three pieces in reading order,
    each carrying its own spaces: ``Headline("", Name(1), " to move")`` reads "Ann to move";
    ``Headline("Au tour de ", Name(1), "")`` puts the name last; ``Headline("", "Draw", "")``
    has no name. Drawn bold on one line when it fits, else ``before``, the subject on one or
    two lines and ``after`` on lines of their own."""

    before: str
    subject: Piece
    after: str


@dataclass(frozen=True)
class PanelText:
    """Every word the panel of one position draws, in the reader's language.

    * ``title`` -- the game's name (column 1, bold): ``"Coil"``.
    * ``options`` -- its options in a few words: ``"hexhex 7 · no bonus"``.
    * ``headline`` -- whose turn or the result (column 3, bold, in the turn colour).
    * ``detail`` -- the lines under the headline (the phase, or why the game ended with its
      scores; ``"\\n"`` breaks a line), empty for none.
    * ``subs`` -- the line under each player's name on their card, seats 1 and 2: the
      colour, a Coral's score parts, ``" · wins"`` for the winner.
    * ``move`` -- the last line of column 3: ``"Move 12: g7"``, ``"No moves yet"``.
    * ``clock`` -- the game column's clock line, or None.
    * ``clocks`` -- the time on each player's card, seats 1 and 2 (None: none).
    * ``unnamed`` -- the names shown for seats 1 and 2 when a player's name has no drawable
      letter: ``("Player 1", "Player 2")``.
    """

    title: str
    options: str
    headline: Headline
    detail: tuple[Piece, ...]
    subs: tuple[str, str]
    move: str
    unnamed: tuple[str, str]
    clock: str | None = None
    clocks: tuple[str | None, str | None] = (None, None)


@dataclass(frozen=True)
class SwingText:
    """The words of one swing of a review chart (:class:`ChartText`).

    * ``label`` -- its label on the curve: ``"23. f6"``.
    * ``heading`` -- its line in the side panel naming the mover by seat: ``Headline("move 6,
      ", Name(1), "'s e5")``; a long name is cut, never the words around it.
    * ``short`` -- that line without the name, when even a cut name leaves no room:
      ``"move 6, e5"``.
    * ``chances`` -- the mover's chances before and after: ``"71% → 32%"``.
    * ``note`` and ``preferred`` -- what the search thought: ``("search agreed", "")``, or
      ``("search preferred", "g6")`` (the move on a line of its own when both do not fit).
    """

    label: str
    heading: Headline
    short: str
    chances: str
    note: str
    preferred: str


@dataclass(frozen=True)
class ChartText:
    """Every word a review chart draws (:func:`renderers.render_review_png`), in the
    reader's language.

    * ``title``, ``subtitle`` -- the game's name and ``"review · hexhex 7"``.
    * ``heading`` -- over the plot, around seat 1's name: ``("", "'s chances of winning")``.
    * ``axis`` -- under the move numbers: ``"move"``; ``percents`` -- the grid's labels at 0,
      25, 50, 75 and 100 %: ``("0%", ..., "100%")``.
    * ``colours`` -- the words for the stone colours black and white: ``("Black", "White")``.
    * ``headline``, ``detail`` -- the result (or that the game is unfinished) and why.
    * ``turning_points``, ``no_swings`` -- the swings' heading, and the line when there are none.
    * ``swings`` -- one :class:`SwingText` per swing of the review, in order.
    * ``unnamed`` -- the names of seats 1 and 2 when a name has no drawable letter.
    """

    title: str
    subtitle: str
    heading: tuple[str, str]
    axis: str
    percents: tuple[str, str, str, str, str]
    colours: tuple[str, str]
    headline: Headline
    detail: tuple[Piece, ...]
    turning_points: str
    no_swings: str
    swings: tuple[SwingText, ...]
    unnamed: tuple[str, str]
