"""What the board reader needs to know of a board design: lattice size, piece colours, holes.

Generic: a lattice of ``size`` x ``size`` points and two piece colours. Twixt (24 x 24 without
corners, red / black or red / grey pegs, links) and Go (19 x 19, black / white stones) are two
instances. Colour names map to nominal RGB; the reader adapts each prototype to the board it
sees, so the nominal values only need to be in the right region of colour space.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.errors import InputError

COLOUR_RGB: dict[str, tuple[int, int, int]] = {
    "red": (196, 34, 38),
    "black": (28, 28, 32),
    "grey": (128, 132, 136),
    "gray": (128, 132, 136),
    "white": (236, 236, 230),
    "blue": (40, 70, 180),
    "green": (40, 140, 60),
    "yellow": (230, 200, 40),
}
"""Nominal colours of pieces, RGB."""

BOARD_RGB = {"twixt": (225, 215, 190), "go": (222, 180, 112)}
"""Nominal board surface colours, RGB (only ratios piece / board are used)."""


@dataclass(frozen=True)
class BoardSpec:
    """A board design: ``kind`` ("twixt" or "go"), ``size`` and the two piece colours."""

    kind: str = "twixt"
    size: int = 24
    colours: tuple[str, str] = ("red", "black")

    def __post_init__(self) -> None:
        if self.kind not in BOARD_RGB:
            raise InputError(f"board kind {self.kind!r}: expected one of {', '.join(BOARD_RGB)}")
        if not 3 <= self.size <= 40:
            raise InputError(f"board size {self.size}: expected 3..40")
        if len(self.colours) != 2 or self.colours[0] == self.colours[1]:
            raise InputError(f"colours {self.colours!r}: expected two distinct colour names")
        for c in self.colours:
            if c not in COLOUR_RGB:
                raise InputError(f"colour {c!r}: expected one of {', '.join(sorted(COLOUR_RGB))}")

    @classmethod
    def twixt(cls, size: int = 24, colours: tuple[str, str] = ("red", "black")) -> BoardSpec:
        return cls("twixt", size, colours)

    @classmethod
    def go(cls, size: int = 19, colours: tuple[str, str] = ("black", "white")) -> BoardSpec:
        return cls("go", size, colours)

    @property
    def pattern(self) -> str:
        """What marks a lattice point on the empty board: ``"holes"`` or ``"lines"``."""
        return "holes" if self.kind == "twixt" else "lines"

    @property
    def has_links(self) -> bool:
        return self.kind == "twixt"

    def valid_mask(self) -> np.ndarray:
        """(size, size) bool: the lattice points that exist (Twixt has no corner holes)."""
        mask = np.ones((self.size, self.size), bool)
        if self.kind == "twixt":
            n = self.size - 1
            mask[0, 0] = mask[0, n] = mask[n, 0] = mask[n, n] = False
        return mask

    def printed_cells(self) -> np.ndarray:
        """(size + 1, size + 1) bool over the cell centres (between four points, the outer ring
        included): those a printed mark crosses (Twixt's border lines), not bare board."""
        n = self.size
        mask = np.zeros((n + 1, n + 1), bool)
        if self.kind == "twixt":
            # Cell (i, j) is centred at lattice (j - 0.5, i - 0.5); the border lines run at 0.5
            # and size - 1.5 between the second and the second-to-last point.
            for k in (1, n - 1):
                mask[k, 1:n] = True
                mask[1:n, k] = True
        return mask

    def prototypes(self) -> np.ndarray:
        """(3, 6) nominal log-ratio colours (vs. the board, BGR) of the centre of a lattice point
        then of the ring around it, for: empty point, colour 1, colour 2. An empty Twixt hole is
        dark in the centre only; a Go intersection is crossed by lines."""
        board = np.log(np.array(BOARD_RGB[self.kind], np.float64) + 8.0)
        inner = -1.0 if self.kind == "twixt" else -0.6
        empty = np.array([inner] * 3 + [-0.08] * 3)
        out = [empty]
        for name in self.colours:
            c = (np.log(np.array(COLOUR_RGB[name], np.float64) + 8.0) - board)[::-1]
            out.append(np.concatenate([c, c]))
        return np.stack(out)
