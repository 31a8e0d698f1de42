"""A card's plain border, found beyond a quad that ended at the print inside it.

Many card designs have a plain border (cream, white, black) around a coloured face or a printed
frame. On a table of nearly the border's colour the strongest straight edge along each side is
the print's, not the card's: refined and snapped quads then end a few pixels inside the card on
every side (2 to 5 px on a 60 to 120 px card), which alone costs the IoU of 0.9 a card needs.

:func:`outer_border` looks beyond each side of a quad for that border: a strip of one colour all
along the side (the border), different from what lies just inside the quad's side (the print),
ending at a straight edge (the card's outline, however weak against the table). When three or
four sides have one, of widths that agree and of one colour all round (a card's border is one
colour), the card ends there: the quad returned is moved out by each side's width (a side with
no border seen, e.g. under or against another card, takes the others' median width). Where only
two sides show a border that agrees, the card's outline is lost on its lit sides against a table
of its border's colour: those two sides count when each ended at a thin printed line (alike
colours on both sides of the line: the card's face inside, its border beyond), and take the
border's width too.

What keeps a correct quad where it is: just inside a card's true outline lies its own border,
and beyond it the table or a neighbour; a neighbour's border is of the card's own border's colour,
so the step inside-to-strip is missing there, and a table's pattern is not one colour along all
four sides at one width.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from vision.cards.geometry import as_quad, line_intersection, quad_iou, side_directions, side_lengths

STEP = 0.5
"""Profile sampling step across each side, px."""


@dataclass(frozen=True)
class BorderConfig:
    """The border search's thresholds."""

    samples: int = 24
    """Points sampled along each side."""
    span: tuple[float, float] = (0.15, 0.85)
    """The part of each side sampled (rounded corners left out)."""
    reach: float = 0.08
    """The widest border looked for, as a fraction of the quad's short side."""
    min_width: float = 1.5
    """The narrowest border, px (a thinner one is within the refiner's own precision)."""
    min_short: float = 24.0
    """Quads with a shorter side are left as they are, px."""
    min_outer_step: float = 4.0
    """The border's outer edge steps by at least this much (colour distance per px, median
    along the side)."""
    min_inner_contrast: float = 24.0
    """The print just inside the quad's side differs from the border by at least this (colour
    distance of the medians along the side)."""
    max_strip_spread: float = 14.0
    """The border strip's colour varies along the side by at most this (median distance from
    its median colour)."""
    max_colour_spread: float = 22.0
    """The sides' border colours are within this distance of their median (one colour all round)."""
    width_tolerance: float = 0.35
    """The sides' widths agree within this fraction of their median (and at least 1 px)."""
    line_sides: bool = True
    """Where only two sides show a border, the other two count when each ended at a printed line
    (:func:`_printed_line`): on the lit sides of a card on a table of its border's colour the
    card's outline does not show at all, its print's frame does."""
    line_contrast: float = 40.0
    """A printed line differs from what lies on either side of it by at least this (colour
    distance of the medians along the side) ..."""
    line_same: float = 24.0
    """... while what lies just inside it and just beyond it differ by at most this."""


class SideSampling(Protocol):
    """Where along each side profiles are taken (:class:`BorderConfig` and its kin)."""

    samples: int
    span: tuple[float, float]


def side_profiles(image: np.ndarray, q: np.ndarray, offsets: np.ndarray, cfg: SideSampling):
    """Each side's colours at ``cfg.samples`` points along ``cfg.span`` of it, at ``offsets`` px along
    its outward normal: (colour profiles (4, N, K, 3) float32, inside-the-image (4, N), outward
    normals (4, 2), side directions (4, 2))."""
    h, w = image.shape[:2]
    starts, ends = q, np.roll(q, -1, axis=0)
    dirs, normals = side_directions(q)
    ts = np.linspace(cfg.span[0], cfg.span[1], cfg.samples)
    base = starts[:, None, :] + (ends - starts)[:, None, :] * ts[None, :, None]
    pts = base[:, :, None, :] + normals[:, None, None, :] * offsets[None, None, :, None]
    map_x = pts[..., 0].reshape(4 * cfg.samples, -1).astype(np.float32)
    map_y = pts[..., 1].reshape(4 * cfg.samples, -1).astype(np.float32)
    prof = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    inside = ((pts[..., 0] >= 0) & (pts[..., 0] <= w - 1) & (pts[..., 1] >= 0) & (pts[..., 1] <= h - 1)).all(
        axis=2
    )
    return prof.reshape(4, cfg.samples, len(offsets), 3).astype(np.float32), inside, normals, dirs


def _side_border(
    prof: np.ndarray, ok: np.ndarray, offsets: np.ndarray, min_width: float, cfg: BorderConfig
) -> tuple[float, np.ndarray] | None:
    """(width px, border colour (3,)) of one side's border, or ``None``. ``prof``: (N, K, 3)."""
    p = prof[ok]
    if len(p) < max(5, cfg.samples // 2):
        return None
    # the colour step at each offset, straight along the side: the median over the points of the
    # signed difference from 0.5 px in to 0.5 px out, its length over the channels
    d = np.median(p[:, 2:] - p[:, :-2], axis=0)  # (K - 2, 3), at offsets[1:-1]
    step = np.linalg.norm(d, axis=1)
    off = offsets[1:-1]
    cand = np.nonzero(
        (off >= min_width)
        & (step >= cfg.min_outer_step)
        & (step >= np.roll(step, 1))
        & (step >= np.roll(step, -1))
    )[0]
    cand = cand[(cand > 0) & (cand < len(step) - 1)]
    if len(cand) == 0:
        return None
    # the innermost strong one: the card's outline comes before any shadow beyond it
    j = int(cand[np.nonzero(step[cand] >= 0.4 * step[cand].max())[0][0]])
    # subpixel: a parabola through the step's peak
    y0, y1, y2 = step[j - 1], step[j], step[j + 1]
    denom = y0 - 2 * y1 + y2
    width = float(off[j] + (np.clip(0.5 * (y0 - y2) / denom, -0.5, 0.5) * STEP if abs(denom) > 1e-6 else 0.0))
    # two separate edges: between them the step falls below the outer one's
    between = step[(off > 0.25) & (off < width - 0.25)]
    if len(between) == 0 or between.min() > 0.8 * step[j]:
        return None
    # the border strip's colour: around the middle between the quad's side and the outer edge
    sel = (offsets >= max(0.5, width / 2 - 1.0)) & (offsets <= min(width - 0.5, width / 2 + 1.0))
    if not sel.any():
        sel = np.abs(offsets - width / 2) <= STEP / 2
    strip = p[:, sel].mean(axis=1)  # (N, 3): each point's border colour
    colour = np.median(strip, axis=0)
    if np.median(np.linalg.norm(strip - colour, axis=1)) > cfg.max_strip_spread:
        return None
    zero = int(np.argmin(np.abs(offsets)))
    # what lies just inside the side (the print) is not the border's colour
    inner = np.median(p[:, max(0, zero - 3) : zero - 1].mean(axis=1), axis=0)
    if np.linalg.norm(inner - colour) < cfg.min_inner_contrast:
        return None
    return width, colour


def _printed_line(prof: np.ndarray, ok: np.ndarray, offsets: np.ndarray, cfg: BorderConfig) -> bool:
    """Whether a side (``prof``: (N, K, 3) colours at ``offsets`` across it) ended at a thin
    printed line: within 2 px inside the side a line of a colour unlike what lies on both sides of
    it, and alike colours just inside the line and just beyond the side (the card's face and its
    border, not the card and the table)."""
    p = prof[ok]
    if len(p) < max(5, cfg.samples // 2):
        return False
    med = np.median(p, axis=0)  # (K, 3)
    face = med[(offsets >= -4.0) & (offsets <= -3.0)].mean(axis=0)
    beyond = med[(offsets >= 1.0) & (offsets <= 1.5)].mean(axis=0)
    near = med[(offsets >= -2.0) & (offsets <= 0.0)]
    line = near[int(np.argmax(np.linalg.norm(near - beyond, axis=1)))]
    return bool(
        np.linalg.norm(face - beyond) <= cfg.line_same
        and np.linalg.norm(line - beyond) >= cfg.line_contrast
        and np.linalg.norm(line - face) >= cfg.line_contrast
    )


def outer_border(image: np.ndarray, quad: np.ndarray, cfg: BorderConfig | None = None) -> np.ndarray | None:
    """The card's outline when ``quad`` (full-resolution, corners in order around the card) ended
    at a print inside a plain border, or ``None`` (see the module docstring). ``image``: BGR."""
    cfg = cfg or BorderConfig()
    q = as_quad(quad).astype(np.float64)
    short = float(side_lengths(q).min())
    if short < cfg.min_short:
        return None
    reach = max(cfg.min_width + 1.5, cfg.reach * short) + 1.5
    offsets = np.arange(-2.0, reach + STEP / 2, STEP)
    prof, inside, normals, dirs = side_profiles(image, q, offsets, cfg)
    min_width = max(cfg.min_width, 0.015 * short)
    found = [_side_border(prof[s], inside[s], offsets, min_width, cfg) for s in range(4)]
    sides = [s for s in range(4) if found[s] is not None]

    def agree(chosen: list[int]) -> bool:
        widths = np.array([found[s][0] for s in chosen])
        colours = np.array([found[s][1] for s in chosen])
        mid = float(np.median(widths))
        if np.abs(widths - mid).max() > max(1.0, cfg.width_tolerance * mid):
            return False
        # one colour all round (for two sides: within the spread of each other)
        centre = np.median(colours, axis=0) if len(chosen) > 2 else colours[0]
        return bool(np.linalg.norm(colours - centre, axis=1).max() <= cfg.max_colour_spread)

    if len(sides) < 3 or not agree(sides):
        if not cfg.line_sides or len(sides) < 2:
            return None
        # two sides show a border that agrees, and the other two ended at a printed line
        inner = np.arange(-4.0, 2.0 + STEP / 2, STEP)
        lprof, linside, _, _ = side_profiles(image, q, inner, cfg)
        line = [_printed_line(lprof[s], linside[s], inner, cfg) for s in range(4)]
        pairs = [
            [a, b]
            for a, b in itertools.combinations(sides, 2)
            if all(line[s] for s in range(4) if s not in (a, b)) and agree([a, b])
        ]
        if not pairs:
            return None
        sides = pairs[0]
    mid = float(np.median([found[s][0] for s in sides]))
    width = np.full(4, mid)
    for s in sides:
        width[s] = found[s][0]
    out = q.copy()
    for i in range(4):
        a, b = (i - 1) % 4, i
        p = line_intersection(q[a] + normals[a] * width[a], dirs[a], q[b] + normals[b] * width[b], dirs[b])
        if p is None:
            return None
        out[i] = p
    return out.astype(np.float32)


def learned_agrees(
    quad: np.ndarray, grown: np.ndarray, learned: list[np.ndarray], share: float = 0.4, min_iou: float = 0.6
) -> bool:
    """Whether the learned segmenter's quad of the same card (the one of ``learned`` overlapping
    ``quad`` most, at IoU >= ``min_iou``) also reaches beyond ``quad``: by at least ``share`` of
    how far ``grown`` does (mean outward distance: area gained over the perimeter).

    The segmenter regresses the card's outer corners from the whole card (its border included),
    a few px off per side but not biased to the print inside; a card's cast shadow or the gap to
    a neighbour in a row, which look like a border to :func:`outer_border`, are not in it."""
    if not learned:
        return False
    q = as_quad(quad).astype(np.float64)
    perimeter = float(side_lengths(q).sum())
    area = abs(float(cv2.contourArea(q.astype(np.float32))))
    best = max(learned, key=lambda lq: quad_iou(lq, q))
    if perimeter <= 0 or quad_iou(best, q) < min_iou:
        return False
    reach_grown = (abs(float(cv2.contourArea(np.float32(grown)))) - area) / perimeter
    reach_learned = (abs(float(cv2.contourArea(np.float32(best)))) - area) / perimeter
    return reach_grown > 0 and reach_learned >= share * reach_grown
