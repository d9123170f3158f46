"""Interim toy game (three in a row on n x n) used until the real engine games land."""

from __future__ import annotations

import engine
from engine.base import GameKind, OptionSpec, Outcome, Position, register
from engine.geometry import square_board


class Toy(Position):
    __slots__ = ("black", "white")

    @classmethod
    def initial(cls, options):
        p = object.__new__(cls)
        p._init_base(options, square_board(options["size"]), 0, None, 1)
        p.black = p.white = 0
        return p

    @classmethod
    def from_body(cls, options, ply, last, body):
        p = object.__new__(cls)
        rows, turn = body.split(" ")
        board = square_board(options["size"])
        p._init_base(options, board, ply, last, int(turn))
        p.black = p.white = 0
        for i, ch in enumerate(rows):
            if ch == "x":
                p.black |= 1 << i
            elif ch == "o":
                p.white |= 1 << i
        return p

    def _body(self):
        s = "".join("x" if self.black >> i & 1 else "o" if self.white >> i & 1 else "." for i in range(len(self.board)))
        return f"{s} {self._turn}"

    def colour(self, seat):
        return "black" if seat == 1 else "white"

    @property
    def stones(self):
        return {i: "black" if self.black >> i & 1 else "white" for i in range(len(self.board)) if (self.black | self.white) >> i & 1}

    def _natural_outcome(self):
        n = self.board.size
        for seat, bits in ((1, self.black), (2, self.white)):
            for i in range(len(self.board)):
                f, r = self.board.coords[i]
                for df, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    cells = [self.board.index.get((f + k * df, r + k * dr)) for k in range(3)]
                    if None not in cells and all(bits >> c & 1 for c in cells):
                        return Outcome(seat, "line")
        if (self.black | self.white) == (1 << n * n) - 1:
            return Outcome(None, "board full")
        return None

    def legal_moves(self):
        if self.outcome is not None:
            return
        for i in range(len(self.board)):
            if not (self.black | self.white) >> i & 1:
                yield self.board.labels[i]

    def _parse(self, tokens):
        if len(tokens) != 1:
            raise engine.MoveError("name one cell")
        return self.board.cell(tokens[0])

    def _check(self, cell):
        if (self.black | self.white) >> cell & 1:
            raise engine.IllegalMove(f"{self.board.labels[cell]} is occupied")

    def _apply(self, cell):
        p = self._copy()
        if self._turn == 1:
            p.black |= 1 << cell
        else:
            p.white |= 1 << cell
        p._turn = 3 - self._turn
        p.ply = self.ply + 1
        p.last_move = self.board.labels[cell]
        return p


def install():
    """Register the toy game as ``toy`` (size 3..5, default 3)."""
    register(GameKind("toy", "Toy", "three in a row", (OptionSpec("size", int, 3, "board size", None, 3, 5),), Toy))


def uninstall():
    engine.GAMES.pop("toy", None)
