"""Touching cards laid in a grid: every card's quad from the grid the found cards agree on.

Cards laid edge to edge in rows (a Twin It grid, a line of The Mind cards) show little or no edge
between them: the finder's quads there end on a print, span two cards, or are missing. But such a
grid is exact: the cards are of one size and touch, so their corners lie on the grid lines
``u = i +- 1/2``, ``v = j +- 1/2`` of one plane, which one homography maps to the image.

1. The grid's structure comes from the learned segmenter's card instances (one centre and four
   regressed corners per card, even where cards touch): two instances are neighbours when the
   step between their centres is one card side (within :attr:`GridConfig.step_tolerance`) in the
   frame of the first one's regressed sides; a connected group gets integer cells ``(i, j)`` (each
   centre's step from one instance of the group, rounded, the instance that puts every centre
   nearest a whole step; a group whose centres are not near whole steps or share a cell is no
   grid).
2. The regressed corners are coarse (a few px), the found quads are not: each found quad that
   matches one cell of the rough grid (IoU >= :attr:`GridConfig.match_iou`) gives its four corners
   to a least-squares homography from grid to image. The quad furthest off the others' grid is
   left out and the fit repeated, while it is off by more than :attr:`GridConfig.max_residual` px
   and twice the median; the grid is kept when at least :attr:`GridConfig.min_cards` quads and
   :attr:`GridConfig.min_share` of them remain. Many quads each a few px off (ended on a print,
   run onto a neighbour) still agree on the grid: their errors do not go the same way.
3. Cards laid in rows with a gap are no grid of touching cards: the strips along the sides two
   cells share must be card, not table-coloured (:attr:`GridConfig.seam_share` of them), and the
   agreeing quads must not lie inside their cells all round (:attr:`GridConfig.max_inset`: each
   card inside its share of a grid whose step is a card and a gap).
4. Each cell's quad then stands for the card there: a found quad that matches a cell (IoU >=
   :attr:`GridConfig.keep_iou`) stays; one that overlaps a cell otherwise (a quad over two cards,
   one that ended on a print or ran onto the neighbour) gives way to the cell; a cell with no
   quad is added.

Measured on the quick cards bench's touching frames (every 6th from 5: 50 frames, 243 counted
cards), finder quads without and with the step (IoU 0.9): R 0.465 -> 0.568, P 0.518 -> 0.605;
rows frames (every 6th from 1: 377 cards) unchanged. The inset check costs frame 131 (The Mind
cards whose quads all ended on the prints, inside their cells; R 1 -> 8 of 8 without it).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards.geometry import order_quad, quad_area

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GridConfig:
    """The grid step's thresholds."""

    step_tolerance: float = 0.25
    """Two instances are neighbours when their centres are one side apart within this fraction
    of the side (and off the other axis by at most as much)."""
    cell_tolerance: float = 0.3
    """Every centre of a group lies within this fraction of a step of a whole cell."""
    match_iou: float = 0.6
    """A found quad anchors the grid at the cell it overlaps this much."""
    min_cards: int = 3
    """At least this many found quads agree on the grid (of two, one may be a card half under a
    hand, and nothing says which)."""
    max_residual: float = 2.0
    """A found quad off the grid by more than this mean corner distance (px) and more than twice
    the median's is left out of the fit (an ill-fitting quad)."""
    max_inset: float = 1.5
    """The agreeing quads' corners lie inside their cells' by at most this much (median, px): more
    is cards laid with a gap between them, each inside its share of the grid."""
    min_share: float = 0.5
    """At least this share of the quads matching a cell agree on the grid."""
    seam_width: float = 0.08
    """The strip checked along each shared side, as a fraction of a cell ..."""
    min_seam_card: float = 0.6
    """... is card where at least this fraction of it is not table-coloured ..."""
    seam_share: float = 0.75
    """... and at least this share of a grid's seams are card (cards laid in rows with gaps show
    the table between them)."""
    keep_iou: float = 0.9
    """A found quad matching a cell this much stays as it is."""
    drop_iou: float = 0.2
    """A found quad overlapping a cell more than this (or holding a cell's centre) otherwise gives
    way to the cells."""


def _sides(q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A quad's mean side vectors: along its first side (corner 0 to 1) and across (0 to 3)."""
    return (q[1] - q[0] + q[2] - q[3]) / 2.0, (q[3] - q[0] + q[2] - q[1]) / 2.0


def _groups(quads: list[np.ndarray], cfg: GridConfig) -> list[tuple[dict[int, tuple[int, int]], np.ndarray]]:
    """Groups of two or more instance quads on one grid: per group, instance -> cell (i, j), and
    the affine map (3, 3) from cells to the image that the group's first instance gives."""
    n = len(quads)
    centres = np.array([q.mean(axis=0) for q in quads], np.float64).reshape(n, 2)
    bases = []
    for q in quads:
        a, b = _sides(q.astype(np.float64))
        m = np.stack([a, b], axis=1)
        bases.append(np.linalg.inv(m) if abs(np.linalg.det(m)) > 1e-6 else None)
    tol = cfg.step_tolerance
    adj: list[list[int]] = [[] for _ in range(n)]
    for k in range(n):
        if bases[k] is None:
            continue
        st = (bases[k] @ (centres - centres[k]).T).T
        one = (np.abs(np.abs(st[:, 0]) - 1) < tol) & (np.abs(st[:, 1]) < tol)
        other = (np.abs(np.abs(st[:, 1]) - 1) < tol) & (np.abs(st[:, 0]) < tol)
        for m in np.nonzero(one | other)[0]:
            if m != k:
                adj[k].append(int(m))
                adj[int(m)].append(k)
    seen: set[int] = set()
    out = []
    for k in range(n):
        if k in seen or not adj[k] or bases[k] is None:
            continue
        comp, stack = [k], [k]
        seen.add(k)
        while stack:
            for m in adj[stack.pop()]:
                if m not in seen:
                    seen.add(m)
                    comp.append(m)
                    stack.append(m)
        # the cells as seen from the instance whose regressed sides put every centre nearest a
        # whole step (one instance's regression can be a few px off)
        best: tuple[float, int, np.ndarray] | None = None
        for r in comp:
            if bases[r] is None:
                continue
            st = (bases[r] @ (centres[comp] - centres[r]).T).T
            off = float(np.abs(st - np.round(st)).max())
            if best is None or off < best[0]:
                best = (off, r, np.round(st))
        if best is None or best[0] > cfg.cell_tolerance:
            continue
        _, r, cells = best
        keys = [(int(i), int(j)) for i, j in cells]
        if len(set(keys)) != len(keys):
            continue
        a, b = _sides(quads[r].astype(np.float64))
        affine = np.array([[a[0], b[0], centres[r][0]], [a[1], b[1], centres[r][1]], [0.0, 0.0, 1.0]])
        out.append((dict(zip(comp, keys, strict=True)), affine))
    return out


def _corners(i: int, j: int) -> np.ndarray:
    """Cell (i, j)'s corners in grid units, (4, 2)."""
    return np.array(
        [[i - 0.5, j - 0.5], [i + 0.5, j - 0.5], [i + 0.5, j + 0.5], [i - 0.5, j + 0.5]], np.float64
    )


def _map(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)


def _cell_quad(h: np.ndarray, i: int, j: int) -> np.ndarray:
    return order_quad(_map(h, _corners(i, j)).astype(np.float32))


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    if (a.max(axis=0) < b.min(axis=0)).any() or (b.max(axis=0) < a.min(axis=0)).any():
        return 0.0
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    union = quad_area(a) + quad_area(b) - float(inter)
    return float(inter) / union if union > 0 else 0.0


def _fit(
    cells: list[tuple[int, int]], rough: np.ndarray, quads: list[np.ndarray], cfg: GridConfig
) -> np.ndarray | None:
    """The homography from grid to image that the found ``quads`` matching a cell of the ``rough``
    grid agree on, or ``None``."""
    src, dst = [], []
    for q in quads:
        ious = [_iou(q, _cell_quad(rough, i, j)) for i, j in cells]
        k = int(np.argmax(ious))
        if ious[k] < cfg.match_iou:
            continue
        g = _corners(*cells[k])
        pred = _map(rough, g)
        # each found corner to the nearest of the cell's corners
        order = [int(np.argmin(np.linalg.norm(pred - p, axis=1))) for p in q]
        if len(set(order)) != 4:
            continue
        src.append(g[order])
        dst.append(q.astype(np.float64))
    if len(src) < cfg.min_cards:
        return None
    s, d = np.array(src), np.array(dst)
    use = np.ones(len(s), bool)
    while True:
        h, _ = cv2.findHomography(s[use].reshape(-1, 2), d[use].reshape(-1, 2), 0)
        if h is None:
            return None
        res = np.linalg.norm(_map(h, s.reshape(-1, 2)).reshape(-1, 4, 2) - d, axis=2).mean(axis=1)
        # the quad furthest off the others' grid is left out, one at a time
        off = np.where(use, res, -1.0)
        worst = int(np.argmax(off))
        if off[worst] <= max(cfg.max_residual, 2.0 * float(np.median(res[use]))):
            break
        use[worst] = False
        if use.sum() < cfg.min_cards:
            return None
    if use.sum() < cfg.min_share * len(use):
        return None
    # cards laid with a gap: every quad lies inside its cell by about half the gap, all round
    cells_px = _map(h, s.reshape(-1, 2)).reshape(-1, 4, 2)
    centre = cells_px.mean(axis=1, keepdims=True)
    inset = np.linalg.norm(cells_px - centre, axis=2) - np.linalg.norm(d - centre, axis=2)
    if float(np.median(inset[use])) > cfg.max_inset:
        return None
    return h


def _seams(h: np.ndarray, cells: set[tuple[int, int]], width: float) -> list[np.ndarray]:
    """Strips (image quads) ``width`` cells wide along the middle half of each side two cells of
    the grid share."""
    out = []
    for i, j in cells:
        for di, dj in ((1, 0), (0, 1)):
            if (i + di, j + dj) not in cells:
                continue
            if di:
                g = [[i + 0.5 - width / 2, j - 0.25], [i + 0.5 + width / 2, j - 0.25]]
                g += [[i + 0.5 + width / 2, j + 0.25], [i + 0.5 - width / 2, j + 0.25]]
            else:
                g = [[i - 0.25, j + 0.5 - width / 2], [i + 0.25, j + 0.5 - width / 2]]
                g += [[i + 0.25, j + 0.5 + width / 2], [i - 0.25, j + 0.5 + width / 2]]
            out.append(_map(h, np.array(g)).astype(np.float32))
    return out


def grid_cells(
    instances: list[np.ndarray],
    quads: list[np.ndarray],
    cfg: GridConfig | None = None,
    seam_card: Callable[[np.ndarray], float] | None = None,
) -> list[list[np.ndarray]]:
    """Per grid of touching cards found, each card's quad (image pixels): ``instances`` are the
    segmenter's regressed card quads, ``quads`` the finder's; ``seam_card``: how much of a strip
    (an image quad) is card, not table (a grid whose seams are mostly table is cards laid apart)."""
    cfg = cfg or GridConfig()
    out = []
    for group, first in _groups(instances, cfg):
        cells = list(group.values())
        # each instance's corners to its cell's nearest corners on the first instance's grid
        rough = first
        pairs_s, pairs_d = [], []
        for k, (i, j) in group.items():
            g = _corners(i, j)
            pred = _map(rough, g)
            for p in instances[k]:
                pairs_s.append(g[int(np.argmin(np.linalg.norm(pred - p, axis=1)))])
                pairs_d.append(p)
        rough, _ = cv2.findHomography(np.array(pairs_s), np.array(pairs_d, np.float64), 0)
        if rough is None:
            continue
        h = _fit(cells, rough, quads, cfg)
        if h is None:
            continue
        if seam_card is not None:
            fractions = [seam_card(strip) for strip in _seams(h, set(cells), cfg.seam_width)]
            log.debug("grid of %d cells: seams card %s", len(cells), np.round(fractions, 2))
            if not fractions or np.mean(np.array(fractions) >= cfg.min_seam_card) < cfg.seam_share:
                continue
        out.append([_cell_quad(h, i, j) for i, j in cells])
    return out


def apply_grid(
    quads: list[np.ndarray], grids: list[list[np.ndarray]], cfg: GridConfig | None = None
) -> tuple[list[int], list[np.ndarray]]:
    """Which found ``quads`` stay (indices) and which cell quads are added, given the ``grids``."""
    cfg = cfg or GridConfig()
    keep = list(range(len(quads)))
    added: list[np.ndarray] = []
    for cells in grids:
        taken = [False] * len(cells)
        stay = []
        for k in keep:
            q = quads[k]
            ious = [_iou(q, c) for c in cells]
            best = int(np.argmax(ious))
            contour = q.reshape(-1, 1, 2).astype(np.float32)
            if ious[best] >= cfg.keep_iou:
                taken[best] = True
                stay.append(k)
            elif ious[best] > cfg.drop_iou or any(
                cv2.pointPolygonTest(contour, tuple(float(v) for v in c.mean(axis=0)), False) > 0
                for c in cells
            ):
                continue
            else:
                stay.append(k)
        keep = stay
        added += [c for c, t in zip(cells, taken, strict=True) if not t]
    return keep, added
