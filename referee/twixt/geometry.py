"""Board geometry: holes, border lines, knight links, the crossing table and flood fills.

Holes are numbered ``id = y * W + x`` with ``W = size + 2``: two padding columns on the right of
every row, so that a knight step that would leave the board sideways lands in padding instead of
wrapping onto the next row. Sets of holes are then Python integers used as bitboards (bit ``id``),
and a knight step in one direction is a shift of the whole bitboard.

A link is numbered ``lid = a * 4 + k``: it starts at hole ``a`` and goes in canonical direction
``k`` (one of the four knight moves that go down the board, see :data:`CANONICAL`); the same link
seen from its other end is direction ``k + 4``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from referee.twixt.notation import MAX_SIZE, Hole, hole_name

MIN_SIZE = 5
"""The smallest board accepted (a 5 x 5 board still has knight links between both border pairs)."""

CANONICAL: tuple[tuple[int, int], ...] = ((2, 1), (1, 2), (-1, 2), (-2, 1))
"""The four knight moves ``(dx, dy)`` with ``dy > 0``: link direction ``k`` is ``CANONICAL[k]`` and
direction ``k + 4`` is its opposite."""

DIRECTIONS: tuple[tuple[int, int], ...] = CANONICAL + tuple((-dx, -dy) for dx, dy in CANONICAL)
"""The eight knight moves; ``DIRECTIONS[j + 4] == -DIRECTIONS[j]``."""

# For each canonical direction k: the links (ox, oy, k2) that cross the link from (0, 0) to
# CANONICAL[k], written as the link starting at (ox, oy) in canonical direction k2. Worked out by
# hand from the 3 x 4 box the link spans (each knight link is crossed by exactly 9 others) and
# checked against brute-force segment intersection in tests/referee/test_twixt_geometry.py.
_CROSSING_CANONICAL: tuple[tuple[tuple[int, int, int], ...], ...] = (
    # (2, 1)
    ((0, -1, 1), (1, -1, 2), (1, 0, 1), (1, 0, 2), (1, 0, 3), (2, -1, 2), (2, 0, 2), (2, 0, 3), (3, 0, 3)),
    # (1, 2)
    ((-1, 0, 0), (0, 1, 0), (1, -1, 2), (1, 0, 2), (1, 0, 3), (1, 1, 2), (1, 1, 3), (2, 0, 3), (2, 1, 3)),
    # (-1, 2)
    (
        (-2, 0, 0),
        (-2, 1, 0),
        (-1, -1, 1),
        (-1, 0, 0),
        (-1, 0, 1),
        (-1, 1, 0),
        (-1, 1, 1),
        (0, 1, 3),
        (1, 0, 3),
    ),
    # (-2, 1)
    (
        (-3, 0, 0),
        (-2, -1, 1),
        (-2, 0, 0),
        (-2, 0, 1),
        (-1, -1, 1),
        (-1, 0, 0),
        (-1, 0, 1),
        (-1, 0, 2),
        (0, -1, 2),
    ),
)


def _crossing_all_directions() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    # The link from (0, 0) in direction j + 4 is the link from -CANONICAL[j] in direction j:
    # its crossing links are those of direction j moved by -CANONICAL[j].
    out = list(_CROSSING_CANONICAL)
    for (dx, dy), rel in zip(CANONICAL, _CROSSING_CANONICAL, strict=True):
        out.append(tuple((ox - dx, oy - dy, k2) for ox, oy, k2 in rel))
    return tuple(out)


CROSSING: tuple[tuple[tuple[int, int, int], ...], ...] = _crossing_all_directions()
"""For each of the 8 directions ``j``, the links ``(ox, oy, k)`` (start offset from the link's own
start, canonical direction) that cross a link going from a hole in direction ``j``."""


class Board:
    """The fixed geometry of one board size: use :func:`board` to get a shared instance.

    Colour 0 owns the top and bottom rows (``y == 0`` and ``y == size - 1``) and joins them;
    colour 1 owns the left and right columns (``x == 0`` and ``x == size - 1``).
    """

    def __init__(self, size: int) -> None:
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"board size {size} is outside {MIN_SIZE}..{MAX_SIZE}")
        n = size
        self.size = n
        self.width = w = n + 2
        self.offsets: tuple[int, ...] = tuple(dy * w + dx for dx, dy in DIRECTIONS)
        last = n - 1
        corners = {(0, 0), (last, 0), (0, last), (last, last)}
        self.holes: tuple[int, ...] = tuple(
            y * w + x for y in range(n) for x in range(n) if (x, y) not in corners
        )
        self.hole_set = frozenset(self.holes)
        self.corners = frozenset(y * w + x for x, y in corners)
        rows = frozenset(h for h in self.holes if h // w in (0, last))
        cols = frozenset(h for h in self.holes if h % w in (0, last))
        self.border: tuple[frozenset[int], frozenset[int]] = (rows, cols)
        """Each colour's own border lines (where the other colour may not peg)."""
        self.allowed: tuple[frozenset[int], frozenset[int]] = (self.hole_set - cols, self.hole_set - rows)
        """Holes each colour may peg."""
        self.allowed_sorted = (tuple(sorted(self.allowed[0])), tuple(sorted(self.allowed[1])))
        self.allowed_mask = (mask(self.allowed[0]), mask(self.allowed[1]))
        first = (mask(h for h in rows if h // w == 0), mask(h for h in cols if h % w == 0))
        second = (mask(h for h in rows if h // w == last), mask(h for h in cols if h % w == last))
        self.start_mask: tuple[int, int] = first
        self.end_mask: tuple[int, int] = second

        neighbours: dict[int, tuple[tuple[int, int], ...]] = {}
        crosses: dict[int, tuple[int, ...]] = {}
        for a in self.holes:
            ax, ay = a % w, a // w
            nb = []
            for j, (dx, dy) in enumerate(DIRECTIONS):
                bx, by = ax + dx, ay + dy
                if 0 <= bx < n and 0 <= by < n and (bx, by) not in corners:
                    b = by * w + bx
                    lid = a * 4 + j if j < 4 else b * 4 + (j - 4)
                    nb.append((b, lid))
                    if j < 4:
                        crosses[lid] = self._crossings(ax, ay, j, corners)
            neighbours[a] = tuple(nb)
        self.neighbours = neighbours
        """For each hole, its knight neighbours on the board as ``(hole, link id)``."""
        self.crosses = crosses
        """For each link id on the board, the ids of the links on the board that cross it."""
        self._block_masks: dict[int, tuple[int, ...]] = {}
        self.names: dict[int, str] = {h: hole_name(self.xy(h)) for h in self.holes}
        """The notation of every hole id (``"D11"``)."""
        self.ids: dict[str, int] = {name: h for h, name in self.names.items()}
        """The hole id of every notation."""
        self.link_names: dict[int, str] = {
            lid: f"{self.names[a]}-{self.names[b]}" for lid in crosses for a, b in [self.link_ends(lid)]
        }
        """The notation of every link id (``"D11-E13"``, lower end first)."""
        self.link_ids: dict[str, int] = {name: lid for lid, name in self.link_names.items()}
        """The link id of every notation."""

    def _crossings(self, ax: int, ay: int, k: int, corners: set[tuple[int, int]]) -> tuple[int, ...]:
        n, w = self.size, self.width
        out = []
        for ox, oy, k2 in CROSSING[k]:
            sx, sy = ax + ox, ay + oy
            dx, dy = CANONICAL[k2]
            ex, ey = sx + dx, sy + dy
            if (
                0 <= sx < n
                and 0 <= sy < n
                and 0 <= ex < n
                and 0 <= ey < n
                and (sx, sy) not in corners
                and (ex, ey) not in corners
            ):
                out.append((sy * w + sx) * 4 + k2)
        return tuple(sorted(out))

    # -- holes and links ---------------------------------------------------------------------
    def hole_id(self, hole: Hole) -> int | None:
        """The id of ``(x, y)``, or ``None`` when it is off the board or a corner."""
        x, y = hole
        if not (0 <= x < self.size and 0 <= y < self.size):
            return None
        h = y * self.width + x
        return h if h in self.hole_set else None

    def on_grid(self, hole: Hole) -> bool:
        x, y = hole
        return 0 <= x < self.size and 0 <= y < self.size

    def xy(self, h: int) -> Hole:
        return h % self.width, h // self.width

    def link_id(self, a: int, b: int) -> int | None:
        """The id of the link between holes ``a`` and ``b``, or ``None`` if not a knight's move apart."""
        for nb, lid in self.neighbours.get(a, ()):
            if nb == b:
                return lid
        return None

    def link_ends(self, lid: int) -> tuple[int, int]:
        a = lid >> 2
        return a, a + self.offsets[lid & 3]

    # -- bitboards ---------------------------------------------------------------------------
    def block_masks(self, lid: int) -> tuple[int, ...]:
        """For each of the 8 directions, the holes from which a step in that direction crosses ``lid``."""
        got = self._block_masks.get(lid)
        if got is None:
            out = [0] * 8
            for c in self.crosses[lid]:
                a = c >> 2
                k = c & 3
                out[k] |= 1 << a
                out[k + 4] |= 1 << (a + self.offsets[k])
            got = self._block_masks[lid] = tuple(out)
        return got

    def link_masks(self, links: Iterable[int]) -> list[int]:
        """For each of the 8 directions, the holes from which ``links`` hold a link that way."""
        out = [0] * 8
        offs = self.offsets
        for lid in links:
            a = lid >> 2
            k = lid & 3
            out[k] |= 1 << a
            out[k + 4] |= 1 << (a + offs[k])
        return out

    def floods_to(self, start: int, target: int, usable: int, open_dirs: list[int]) -> bool:
        """Whether holes of ``start`` reach ``target`` through ``usable`` holes, stepping in
        direction ``j`` only from holes of ``open_dirs[j]`` (all sets are bitboards)."""
        reach = start & usable
        frontier = reach
        offs = self.offsets
        while frontier:
            if reach & target:
                return True
            new = 0
            for j in range(8):
                src = frontier & open_dirs[j]
                if src:
                    off = offs[j]
                    new |= src << off if off > 0 else src >> -off
            frontier = new & usable & ~reach
            reach |= frontier
        return bool(reach & target)


def mask(holes: Iterable[int]) -> int:
    """The bitboard of ``holes``."""
    m = 0
    for h in holes:
        m |= 1 << h
    return m


@lru_cache(maxsize=8)
def board(size: int) -> Board:
    """The shared :class:`Board` of ``size``."""
    return Board(size)
