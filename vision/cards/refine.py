"""Subpixel card corners: fit each side to the strongest edge across it, intersect the sides.

A card's corners are rounded, so the corner pixels themselves are a poor guide; its straight
sides are not. For each side of a rough quad the grey profile across the side is sampled
(bilinear, :func:`cv2.remap`) at points along the middle of the side, the edge is placed at the
derivative's peak with a parabolic subpixel step, a line is fitted robustly (Huber) through those
points, and adjacent lines are intersected. The result is the corner of the card's rectangle
(where the straight sides meet), not a point inside the rounded corner.
"""

from __future__ import annotations

import logging

import cv2
import numpy as np

from vision.cards.geometry import as_quad, line_intersection, side_lengths

log = logging.getLogger(__name__)

N_SAMPLES = 20
"""Points sampled along each side."""
SIDE_SPAN = (0.15, 0.85)
"""The part of each side sampled (the rounded corners are left out)."""


OUTLINE_FRACTION = 0.1
"""A printed outline is at most this fraction of the side's length thick."""
OUTLINE_CONTRAST = 25.0
"""Grey levels between the card's face and what lies beyond an outline's outer edge."""
OUTLINE_RISE = 15.0
"""Grey levels from the outline back up (or down) to what lies beyond it."""


def _outline_edge(
    prof: np.ndarray, sd: np.ndarray, k: np.ndarray, lengths: np.ndarray, sign: np.ndarray
) -> np.ndarray:
    """Move each edge point past a card's printed outline: when the strongest step (face ->
    outline) is followed, within an outline's width, by a step back the other way (outline ->
    table) and the table beyond differs from the face, the card ends at that second step. Two
    touching cards also show dark-between-bright, but what lies beyond is the other card's face,
    as bright as this one's: those stay."""
    n_k = sd.shape[2]
    idx = np.arange(n_k)
    out = k.copy()
    for side in range(4):
        reach = max(2, int(np.ceil(max(2.0, OUTLINE_FRACTION * lengths[side]) / 0.5)))
        ks = k[side]
        window = (idx[None, :] > ks[:, None]) & (idx[None, :] <= ks[:, None] + reach)
        back = np.where(window, -sd[side], -np.inf)
        k2 = np.argmax(back, axis=1)
        rows = np.arange(len(ks))
        strong = back[rows, k2] >= 0.15 * sd[side][rows, ks]
        face = prof[side][rows, np.maximum(ks - 2, 0)]
        # the outline's own level: the extreme of the profile between the two steps
        between = (np.arange(prof.shape[2])[None, :] > ks[:, None]) & (
            np.arange(prof.shape[2])[None, :] <= k2[:, None] + 1
        )
        valley = np.where(between, prof[side] * -sign[side], np.inf).min(axis=1) * -sign[side]
        beyond = prof[side][rows, np.minimum(k2 + 5, prof.shape[2] - 1)]
        rise = (beyond - valley) * -sign[side]
        move = strong & (np.abs(beyond - face) > OUTLINE_CONTRAST) & (rise > OUTLINE_RISE) & (k2 < n_k - 1)
        # Most of a side decides, so that one side is one line.
        if move.mean() > 0.5:
            out[side] = np.where(move, k2, ks)
    return out


def refine_quad(grey: np.ndarray, quad: np.ndarray, search_px: float = 4.0) -> tuple[np.ndarray, float]:
    """Refined corners and an edge strength score 0..1 (the second weakest side's mean edge step
    over 64 grey levels).

    ``grey`` is a float32 or uint8 single-channel image; ``quad`` a rough (4, 2) estimate, its
    corners in order around the card. Sides whose edge cannot be found keep their rough line.
    """
    q = as_quad(quad).astype(np.float64)
    h, w = grey.shape[:2]
    centre = q.mean(axis=0)
    lengths = side_lengths(q)
    r = float(max(2.0, search_px))
    offsets = np.arange(-r, r + 0.5, 0.5)  # along the outward normal, 0.5 px steps
    ts = np.linspace(SIDE_SPAN[0], SIDE_SPAN[1], N_SAMPLES)
    src = grey  # uint8 or float32; remap keeps the type

    # Build one remap grid for the 4 sides: (4 * N_SAMPLES, len(offsets)).
    starts = q
    ends = np.roll(q, -1, axis=0)
    dirs = ends - starts
    dirs /= np.maximum(np.linalg.norm(dirs, axis=1, keepdims=True), 1e-9)
    normals = np.stack([dirs[:, 1], -dirs[:, 0]], axis=1)
    mids = (starts + ends) / 2.0
    flip = np.einsum("ij,ij->i", normals, mids - centre) < 0
    normals[flip] *= -1.0  # outward
    base = starts[:, None, :] + (ends - starts)[:, None, :] * ts[None, :, None]  # (4, N, 2)
    pts = base[:, :, None, :] + normals[:, None, None, :] * offsets[None, None, :, None]  # (4,N,K,2)
    map_x = pts[..., 0].reshape(4 * N_SAMPLES, -1).astype(np.float32)
    map_y = pts[..., 1].reshape(4 * N_SAMPLES, -1).astype(np.float32)
    prof = cv2.remap(src, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    prof = prof.reshape(4, N_SAMPLES, -1).astype(np.float64)
    inside = ((pts[..., 0] >= 0) & (pts[..., 0] <= w - 1) & (pts[..., 1] >= 0) & (pts[..., 1] <= h - 1)).all(
        axis=2
    )

    # Card inside is brighter than the outside on most tables, but not always: use each side's
    # dominant sign of the step inside -> outside.
    deriv = prof[:, :, 2:] - prof[:, :, :-2]  # central difference, at offsets[1:-1]
    sign = np.where((prof[:, :, 0] - prof[:, :, -1]).mean(axis=1) >= 0, -1.0, 1.0)
    sd = sign[:, None, None] * deriv  # > 0 where the profile goes from card level to table level
    k = np.argmax(sd, axis=2)  # (4, N)
    k = _outline_edge(prof, sd, k, lengths, sign)
    kk = np.clip(k, 1, sd.shape[2] - 2)
    y0 = np.take_along_axis(sd, (kk - 1)[..., None], axis=2)[..., 0]
    y1 = np.take_along_axis(sd, kk[..., None], axis=2)[..., 0]
    y2 = np.take_along_axis(sd, (kk + 1)[..., None], axis=2)[..., 0]
    peak = np.take_along_axis(sd, k[..., None], axis=2)[..., 0]
    denom = y0 - 2 * y1 + y2
    safe = np.where(np.abs(denom) > 1e-9, denom, 1.0)
    delta = np.clip(np.where(np.abs(denom) > 1e-9, 0.5 * (y0 - y2) / safe, 0.0), -0.5, 0.5)
    off = offsets[1:-1][kk] + delta * 0.5  # offsets step is 0.5 px
    edge_pts = base + normals[:, None, :] * off[..., None]  # (4, N, 2)
    ok_all = inside & (peak > 4.0) & (k > 0) & (k < sd.shape[2] - 1)
    out = q.copy()
    lines: list[tuple[np.ndarray, np.ndarray] | None] = []
    strengths = []
    for side in range(4):
        ok = ok_all[side]
        n_ok = int(ok.sum())
        if lengths[side] < 8 or n_ok < max(5, N_SAMPLES // 3):
            lines.append(None)
            strengths.append(0.0)
            continue
        sel = edge_pts[side][ok].astype(np.float32)
        vx, vy, x0, y0_ = cv2.fitLine(sel, cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(-1)
        lines.append((np.array([x0, y0_]), np.array([vx, vy])))
        strengths.append(float(peak[side][ok].mean()))

    for i in range(4):
        prev_line = lines[(i - 1) % 4]
        cur_line = lines[i]
        if prev_line is None or cur_line is None:
            continue
        p = line_intersection(prev_line[0], prev_line[1], cur_line[0], cur_line[1])
        if p is not None and np.linalg.norm(p - q[i]) <= 2.5 * r:
            out[i] = p
    score = float(np.clip(sorted(strengths)[1:3][0] / 64.0 if strengths else 0.0, 0.0, 1.0))
    return out.astype(np.float32), score


MARGIN_REACH = 0.12
"""How far beyond a found edge a card's own margin may reach, as a fraction of its short side."""
MARGIN_MIN_STEP = 10.0
"""Grey levels per px the margin's outer edge must step by (median along the side)."""
MARGIN_PLAIN = 0.25
"""Across the margin strip the grey level changes by less than this share of its edge's step."""


def outer_margin(grey: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The card's true outline when ``quad`` is a printed frame inside it, or ``None``: the quad
    moved out by :func:`margin_widths` (a side whose margin did not show takes the others' median
    width)."""
    widths = margin_widths(grey, quad)
    if widths is None:
        return None
    found = widths[~np.isnan(widths)]
    return move_sides(quad, np.where(np.isnan(widths), float(np.median(found)), widths))


def move_sides(quad: np.ndarray, widths: np.ndarray) -> np.ndarray | None:
    """The quad with each side moved out (along its outward normal) by its width, neighbouring
    sides intersected; ``None`` where two of them are parallel."""
    q = as_quad(quad).astype(np.float64)
    starts, ends = q, np.roll(q, -1, axis=0)
    dirs = (ends - starts) / np.maximum(np.linalg.norm(ends - starts, axis=1, keepdims=True), 1e-9)
    normals = np.stack([dirs[:, 1], -dirs[:, 0]], axis=1)
    flip = np.einsum("ij,ij->i", normals, (starts + ends) / 2.0 - q.mean(axis=0)) < 0
    normals[flip] *= -1.0
    out = q.copy()
    for i in range(4):
        a, b = (i - 1) % 4, i
        pa = starts[a] + normals[a] * widths[a]
        pb = starts[b] + normals[b] * widths[b]
        p = line_intersection(pa, dirs[a], pb, dirs[b])
        if p is None:
            return None
        out[i] = p
    return out.astype(np.float32)


def margin_widths(grey: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """How far beyond each side of ``quad`` the card ends when ``quad`` is a printed frame inside
    it (NaN for a side whose margin does not show), or ``None`` when it is not.

    A card printed with a frame (a thin line) inset from its edge, on a table of the margin's
    colour, shows its strongest edge at the frame: the found edge is then a line's (the grey
    level steps back within 3 px). Beyond each side, look for a second edge, straight along the
    side (at one distance all along it), past a plain strip: when three or four sides have one, at
    widths that agree, the card ends there (:func:`outer_margin` moves the quad out by them;
    refine it again with a small search to place it to subpixel).
    """
    q = as_quad(quad).astype(np.float64)
    lengths = side_lengths(q)
    short = float(lengths.min())
    if short < 16:
        return None
    reach = max(3.0, MARGIN_REACH * short)
    offsets = np.arange(0.0, reach + 0.5, 0.5)
    ts = np.linspace(SIDE_SPAN[0], SIDE_SPAN[1], N_SAMPLES)
    starts, ends = q, np.roll(q, -1, axis=0)
    dirs = (ends - starts) / np.maximum(np.linalg.norm(ends - starts, axis=1, keepdims=True), 1e-9)
    normals = np.stack([dirs[:, 1], -dirs[:, 0]], axis=1)
    flip = np.einsum("ij,ij->i", normals, (starts + ends) / 2.0 - q.mean(axis=0)) < 0
    normals[flip] *= -1.0
    base = starts[:, None, :] + (ends - starts)[:, None, :] * ts[None, :, None]
    pts = base[:, :, None, :] + normals[:, None, None, :] * offsets[None, None, :, None]
    h, w = grey.shape[:2]
    if (
        (pts[..., 0].min() < 0)
        or (pts[..., 1].min() < 0)
        or pts[..., 0].max() > w - 1
        or pts[..., 1].max() > h - 1
    ):
        return None
    map_x = pts[..., 0].reshape(4 * N_SAMPLES, -1).astype(np.float32)
    map_y = pts[..., 1].reshape(4 * N_SAMPLES, -1).astype(np.float32)
    prof = cv2.remap(grey, map_x, map_y, cv2.INTER_LINEAR).reshape(4, N_SAMPLES, -1).astype(np.float64)
    deriv = prof[:, :, 2:] - prof[:, :, :-2]  # per px, at offsets[1:-1]
    signed = np.median(deriv, axis=1)  # (4, K - 2): edges straight along the side stand out
    med = np.abs(signed)
    first = 3  # skip the found edge's own slope (offsets below 2 px)
    min_width = max(2.0, 0.025 * short)
    widths = np.full(4, np.nan)
    for side in range(4):
        m = med[side]
        peaks = [
            j
            for j in range(first, len(m) - 1)
            if m[j] >= MARGIN_MIN_STEP and m[j] >= m[j - 1] and m[j] >= m[j + 1]
        ]
        if not peaks:
            continue
        j = peaks[-1]  # the outermost straight edge
        # the found edge is a printed line's: within 3 px outward the grey level steps back
        s0 = signed[side][int(np.argmax(med[side][:2]))]
        back = [
            jj
            for jj in range(1, min(7, j - 2))
            if signed[side][jj] * s0 < 0 and med[side][jj] >= MARGIN_MIN_STEP
        ]
        if not back:
            continue
        width = float(offsets[1:-1][j])
        if width < min_width:
            continue
        # most points along the side have that edge (not a few strong blotches)
        near = np.abs(deriv[side][:, max(0, j - 2) : j + 3]).max(axis=1)
        if (near >= 0.5 * MARGIN_MIN_STEP).mean() < 0.7:
            continue
        # a plain strip (the card's margin) lies just inside that edge: at least 0.5 px where the
        # grey level hardly changes
        k = j - 1
        while k >= first and m[k] >= MARGIN_PLAIN * m[j]:
            k -= 1
        plain = 0
        while k >= first and m[k] < MARGIN_PLAIN * m[j]:
            plain += 1
            k -= 1
        if plain < 1:
            continue
        widths[side] = width
    found = widths[~np.isnan(widths)]
    # three sides are enough (the fourth may be under another card): it takes their width
    if len(found) < 3 or found.max() > 2.0 * found.min():
        return None
    return widths
