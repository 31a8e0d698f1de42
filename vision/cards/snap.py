"""Snap a rough card quad's sides to the card's outer edge: the paper, not a print inside it.

A card's face often holds a rectangle of its own (a printed frame, a coloured face inside a light
border), and a card's neighbour, or its cast shadow, lies a few pixels beyond its edge. All of
them are straight edges parallel to the card's sides, some stronger than the card's own edge. What
tells the card's edge apart is what lies on either side of it: card (anything but the table's
colours) inside, table outside.

For each side of a rough quad the colour profile across it is sampled (:func:`cv2.remap`, 0.5 px
steps) at points along its middle. Every offset where a straight edge runs along the side (the
median over the points of the strongest channel's step) is a candidate; each is scored by its
step times how much of a thin strip inside it is not table-coloured and how much of a strip
outside it is (:func:`vision.cards.segment.table_model_mask` on the profiles, so at full
resolution). The best candidate of each side gives its offset; each point's edge is then placed
to subpixel near it, a line is fitted (Huber) through them, and neighbouring lines are
intersected. A side with no convincing candidate keeps its rough line.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards.geometry import as_quad, line_intersection, side_lengths
from vision.cards.segment import table_model_mask

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SnapConfig:
    """The snapper's thresholds."""

    samples: int = 20
    """Points sampled along each side."""
    span: tuple[float, float] = (0.15, 0.85)
    """The part of each side sampled (rounded corners and a neighbour's corner left out)."""
    reach: float = 0.14
    """How far in and out of the rough line to look, as a fraction of the quad's short side."""
    min_reach_px: float = 4.0
    """... and at least this many pixels."""
    strip_px: float = 1.5
    """Width of the strips inside and outside a candidate edge that are classified."""
    min_step: float = 12.0
    """A candidate edge steps by at least this many grey levels (strongest channel, median)."""
    min_score: float = 0.25
    """A side moves only to a candidate scoring at least this (0..1); otherwise it keeps its line."""
    distance_cost: float = 0.15
    """Score lost per reach travelled from the rough line (ties go to the nearer edge)."""
    fine_px: float = 1.0
    """Each point's edge is looked for within this many pixels of its side's chosen offset."""


STEP = 0.5
"""Profile sampling step, px."""


def _profiles(image: np.ndarray, q: np.ndarray, offsets: np.ndarray, cfg: SnapConfig):
    """(profiles (4, N, K, 3) float32, base points (4, N, 2), outward normals (4, 2), inside (4, N))."""
    h, w = image.shape[:2]
    starts = q
    ends = np.roll(q, -1, axis=0)
    dirs = ends - starts
    dirs = dirs / np.maximum(np.linalg.norm(dirs, axis=1, keepdims=True), 1e-9)
    normals = np.stack([dirs[:, 1], -dirs[:, 0]], axis=1)
    flip = np.einsum("ij,ij->i", normals, (starts + ends) / 2.0 - q.mean(axis=0)) < 0
    normals[flip] *= -1.0
    ts = np.linspace(cfg.span[0], cfg.span[1], cfg.samples)
    base = starts[:, None, :] + (ends - starts)[:, None, :] * ts[None, :, None]
    pts = base[:, :, None, :] + normals[:, None, None, :] * offsets[None, None, :, None]
    map_x = pts[..., 0].reshape(4 * cfg.samples, -1).astype(np.float32)
    map_y = pts[..., 1].reshape(4 * cfg.samples, -1).astype(np.float32)
    prof = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    inside = ((pts[..., 0] >= 0) & (pts[..., 0] <= w - 1) & (pts[..., 1] >= 0) & (pts[..., 1] <= h - 1)).all(
        axis=2
    )
    return prof, base, normals, inside


def snap_quad(
    image: np.ndarray,
    quad: np.ndarray,
    colours: np.ndarray | None,
    cfg: SnapConfig | None = None,
    min_offset: float | np.ndarray | None = None,
) -> tuple[np.ndarray, float]:
    """The quad with each side on the card's outer edge, and how well the sides fit (0..1: the
    mean over sides of their chosen candidates' scores, 0 for a side that kept its line).

    ``image`` is the full-resolution BGR frame, ``quad`` a rough (4, 2) estimate in its pixels,
    ``colours`` the table's colours (:func:`vision.cards.segment.table_colours`; without them only
    the edges' steps count); ``min_offset``: no side moves further inward than this many pixels
    (per side, or one for all; a side already moved out past a printed frame to its plain
    margin's outer edge).
    """
    cfg = cfg or SnapConfig()
    q = as_quad(quad).astype(np.float64)
    lengths = side_lengths(q)
    short = float(min(lengths))
    if short < 8:
        return q.astype(np.float32), 0.0
    reach = max(cfg.min_reach_px, cfg.reach * short)
    offsets = np.arange(-reach, reach + STEP / 2, STEP)
    prof_u8, base, normals, inside = _profiles(image, q, offsets, cfg)
    n, k = cfg.samples, len(offsets)
    prof = prof_u8.reshape(4, n, k, 3).astype(np.float32)
    # step across each offset: from 1 px in to 1 px out, the strongest channel
    d = prof[:, :, 2:, :] - prof[:, :, :-2, :]  # at offsets[1:-1]
    step = np.abs(d).max(axis=3)  # (4, N, K-2)
    table = table_model_mask(prof_u8, colours).reshape(4, n, k) == 0 if colours is not None else None
    strip = max(1, round(cfg.strip_px / STEP))
    gap = 1  # skip the edge's own blur: 0.5 px each side
    med = np.median(step, axis=1)  # (4, K-2): straight edges along the side stand out
    out_offsets = np.zeros(4)
    scores = np.zeros(4)
    moved = np.zeros(4, bool)
    # every offset's edge: index c into ``offsets``, its strips inside and outside
    c = np.arange(2, k - 2)  # an edge at offsets[c] is step / med index c - 1
    lo_in, hi_in = c - gap - strip, c - gap
    lo_out, hi_out = c + gap + 1, c + gap + 1 + strip
    valid = (lo_in >= 0) & (hi_out <= k)
    lo_in, hi_in = np.clip(lo_in, 0, k), np.clip(hi_in, 0, k)
    lo_out, hi_out = np.clip(lo_out, 0, k), np.clip(hi_out, 0, k)
    travel = cfg.distance_cost * np.abs(offsets[c]) / reach
    for side in range(4):
        ok = inside[side]
        if ok.sum() < n // 2:
            continue
        m = med[side][c - 1]
        peak = valid & (m >= cfg.min_step) & (m >= med[side][c - 2]) & (m >= med[side][c])
        if not peak.any():
            continue
        if table is not None:
            col = np.concatenate([[0.0], np.cumsum(table[side, ok].mean(axis=0))])
            inner_card = 1.0 - (col[hi_in] - col[lo_in]) / np.maximum(hi_in - lo_in, 1)
            outer_table = (col[hi_out] - col[lo_out]) / np.maximum(hi_out - lo_out, 1)
        else:
            inner_card = outer_table = np.full(len(c), 0.5)
        strength = np.clip(m / 48.0, 0.0, 1.0)
        score = strength * (0.2 + 0.8 * inner_card) * (0.2 + 0.8 * outer_table) - travel
        if min_offset is not None:
            peak &= offsets[c] >= np.broadcast_to(np.asarray(min_offset, np.float64), (4,))[side]
        score = np.where(peak, score, -np.inf)
        best = int(np.argmax(score))
        if score[best] >= cfg.min_score:
            out_offsets[side] = offsets[c[best]]
            scores[side] = score[best]
            moved[side] = True
    # fine: each point's own edge near its side's offset, a line through them
    lines: list[tuple[np.ndarray, np.ndarray] | None] = []
    fine = max(1, round(cfg.fine_px / STEP))
    for side in range(4):
        c0 = int(np.round((out_offsets[side] + reach) / STEP))  # index into offsets
        j0 = max(0, c0 - 1 - fine)
        j1 = min(step.shape[2], c0 - 1 + fine + 1)
        win = step[side][:, j0:j1]
        if win.shape[1] < 3:
            lines.append(None)
            continue
        jj = np.argmax(win, axis=1)
        rows = np.arange(n)
        jc = np.clip(jj, 1, win.shape[1] - 2)
        y0, y1, y2 = win[rows, jc - 1], win[rows, jc], win[rows, jc + 1]
        denom = y0 - 2 * y1 + y2
        delta = np.where(np.abs(denom) > 1e-6, 0.5 * (y0 - y2) / np.where(np.abs(denom) > 1e-6, denom, 1), 0)
        delta = np.clip(delta, -0.5, 0.5)
        off = offsets[1:-1][j0 + jc] + delta * STEP
        good = inside[side] & (win[rows, jj] >= 0.5 * max(cfg.min_step, float(med[side][c0 - 1])))
        good &= (jj > 0) & (jj < win.shape[1] - 1)
        if good.sum() < max(5, n // 3) or not (moved[side] or good.mean() > 0.6):
            lines.append(None)
            continue
        pts = base[side][good] + normals[side] * off[good][:, None]
        vx, vy, x0, y0_ = cv2.fitLine(pts.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(-1)
        lines.append((np.array([x0, y0_], np.float64), np.array([vx, vy], np.float64)))
    out = q.copy()
    for i in range(4):
        prev_line, cur_line = lines[(i - 1) % 4], lines[i]
        # a side without a line keeps its rough one
        a = prev_line or (q[(i - 1) % 4], q[i] - q[(i - 1) % 4])
        b = cur_line or (q[i], q[(i + 1) % 4] - q[i])
        p = line_intersection(a[0], a[1], b[0], b[1])
        if p is not None and np.linalg.norm(p - q[i]) <= 2.0 * reach:
            out[i] = p
    return out.astype(np.float32), float(scores.mean())
