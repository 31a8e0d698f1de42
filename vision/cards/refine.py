"""Subpixel card corners: fit each side to the strongest edge across it, intersect the sides.

A card's corners are rounded, so the corner pixels themselves are a poor guide; its straight
sides are not. For each side of a rough quad the grey profile across the side is sampled
(bilinear, :func:`cv2.remap`) at points along the middle of the side, the edge is placed at the
derivative's peak with a parabolic subpixel step, a line is fitted robustly (Huber) through those
points, and adjacent lines are intersected. The result is the corner of the card's rectangle
(where the straight sides meet), not a point inside the rounded corner.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.geometry import as_quad, line_intersection, side_lengths

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
