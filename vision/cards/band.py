"""A card's coloured end band, left out of a quad that ended where the band begins.

Some card designs (Trio-like) carry a band of one plain colour across one end of the card, a
fifth of its width deep. Where the band's colour is far from the card's face and near the table's
(a dark band on wood, a pink one in shadow), the card's mask and edges stop at the band: the quad
found is the face alone, a card's width by four fifths of its length, and the band's outer edge
lies beyond the snapper's reach. That quad is too square for its deck.

:func:`grow_band` looks beyond each of a too-square quad's two ends for such a band: a strip of
one colour from the end out to a straight edge (the card's outline) at a depth that gives the
quad back the deck's aspect ratio (within what a camera tilt of up to 35 degrees allows), unlike
the face just inside the end, with the table beyond it. The end moves out to that edge. A quad
whose aspect is the deck's already, or whose end shows no plain strip of card ending at the table
(a neighbour's print, the card beneath a pile's top card, the table itself), is left as it is. A
band of the table's own colours (a dark brown band on wood whose grain holds that brown) counts
only where the card's long sides, carried on past the quad's end, bound it: a strip of the table
runs on past them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards.geometry import as_quad, line_intersection, side_lengths
from vision.cards.segment import table_model_mask

STEP = 0.5
"""Profile sampling step across each end, px."""


@dataclass(frozen=True)
class BandConfig:
    """The end band search's thresholds."""

    samples: int = 20
    """Points sampled along each end."""
    span: tuple[float, float] = (0.15, 0.85)
    """The part of each end sampled (rounded corners left out)."""
    too_square: float = 0.03
    """Only quads whose aspect ratio (short / long) exceeds the deck's by at least this."""
    depth: tuple[float, float] = (0.1, 0.4)
    """The band is this deep, as a fraction of the end's length."""
    min_outer_step: float = 12.0
    """The band's outer edge steps by at least this (colour distance per px, median along the
    end)."""
    max_spread: float = 16.0
    """The band's colour varies, along the end and across the band, by at most this (median
    distance from its median colour along the end; across it, at four in five offsets)."""
    min_face_contrast: float = 30.0
    """The face just inside the end differs from the band by at least this."""
    min_table: float = 0.6
    """At least this fraction of a strip just beyond the band is table-coloured ..."""
    max_band_table: float = 0.4
    """... and at most this fraction of the band (a strip of the table between the card's true end
    and a line of the table's own pattern is no band) ..."""
    bounded_table_band: bool = True
    """... unless the card's long sides, carried on past the end, bound it (colours step across
    them by ``min_face_contrast``: a dark band on wood, of the table's colours but not the table)."""
    max_tilt_deg: float = 35.0
    """The camera's largest tilt: the grown quad's aspect may be the deck's times its cosine."""
    aspect_tolerance: float = 0.04
    """... and at most the deck's plus this."""


def _end_band(
    prof: np.ndarray,
    table: np.ndarray | None,
    dists: np.ndarray,
    reach: tuple[float, float],
    end_len: float,
    cfg: BandConfig,
) -> tuple[float, float, bool] | None:
    """(distance px, the outer edge's step, whether the band is mostly of the table's colours) of a
    band's outer edge, or ``None``. ``prof``: (N, K, 3) colours at ``dists`` from the opposite end,
    towards the end searched; ``table``: (N, K) table-coloured or ``None``; ``reach``: where the
    outer edge may lie."""
    step = np.linalg.norm(np.median(prof[:, 2:] - prof[:, :-2], axis=0), axis=1)  # per px
    at = dists[1:-1]
    peaks = np.nonzero(
        (at >= reach[0])
        & (at <= reach[1])
        & (step >= cfg.min_outer_step)
        & (step >= np.roll(step, 1))
        & (step >= np.roll(step, -1))
    )[0]
    peaks = peaks[(peaks > 0) & (peaks < len(step) - 1)]
    if len(peaks) == 0:
        return None
    # the outermost strong edge: the card's outline, with the table beyond it
    j = int(peaks[np.nonzero(step[peaks] >= 0.5 * step[peaks].max())[0][-1]])
    edge = float(at[j])
    beyond = (dists >= edge + 1.0) & (dists <= edge + 3.0)
    if not beyond.any() or (table is not None and float(table[:, beyond].mean()) < cfg.min_table):
        return None
    # the band's inner edge: the strongest step a band's depth inside the outer one
    inner = np.nonzero((at >= edge - cfg.depth[1] * end_len) & (at <= edge - cfg.depth[0] * end_len))[0]
    if len(inner) == 0:
        return None
    i = int(inner[np.argmax(step[inner])])
    band = (dists >= at[i] + 2.5) & (dists <= edge - 3.5)
    if band.sum() < 2:
        return None
    table_like = table is not None and float(table[:, band].mean()) > cfg.max_band_table
    strip = prof[:, band]  # (N, B, 3)
    colour = np.median(strip.reshape(-1, 3), axis=0)
    # one colour along the end and across the band
    if np.median(np.linalg.norm(strip.mean(axis=1) - colour, axis=1)) > cfg.max_spread:
        return None
    if (np.linalg.norm(np.median(strip, axis=0) - colour, axis=1) > cfg.max_spread).mean() > 0.2:
        return None
    face = np.median(prof[:, (dists >= at[i] - 4.0) & (dists <= at[i] - 1.5)].mean(axis=1), axis=0)
    if np.linalg.norm(face - colour) < cfg.min_face_contrast:
        return None
    return edge, float(step[j]), table_like


def _bounded(
    image: np.ndarray,
    q: np.ndarray,
    e: int,
    n: np.ndarray,
    a: np.ndarray,
    depth: tuple[float, float],
    cfg: BandConfig,
) -> bool:
    """Whether a band beyond end ``e`` of ``q`` (between distances ``depth`` from the point ``a`` of
    the opposite end, along ``n``) ends at the card's long sides carried on: across each long
    side's line, within the band, the colour steps by at least ``min_face_contrast`` (a band of
    the table's colour on the card, not a strip of the table itself, which runs on past them)."""
    h, w = image.shape[:2]
    centre = q.mean(axis=0)
    ts = np.linspace(0.2, 0.8, 7)
    for side in ((e - 1) % 4, (e + 1) % 4):
        p0, p1 = q[side], q[(side + 1) % 4]
        d = (p1 - p0) / max(float(np.linalg.norm(p1 - p0)), 1e-9)
        lat = np.array([d[1], -d[0]])
        if np.dot(lat, (p0 + p1) / 2.0 - centre) < 0:
            lat = -lat  # outward across the long side
        # points on the long side's line at the band's depths
        along = float(np.dot(d, n))
        if abs(along) < 0.5:
            return False
        dist0 = float(np.dot(p0 - a, n))
        depths = depth[0] + (depth[1] - depth[0]) * ts
        pts = p0[None, :] + d[None, :] * ((depths - dist0) / along)[:, None]
        inner, outer = pts - lat * 3.0, pts + lat * 3.0
        both = np.concatenate([inner, outer]).astype(np.float32)
        if (
            (both[:, 0] < 0).any()
            or (both[:, 1] < 0).any()
            or (both[:, 0] > w - 1).any()
            or (both[:, 1] > h - 1).any()
        ):
            return False
        cols = cv2.remap(image, both[:, :1], both[:, 1:], cv2.INTER_LINEAR).reshape(2, len(ts), -1)
        step = np.linalg.norm(cols[0].astype(np.float32) - cols[1].astype(np.float32), axis=1)
        if float(np.median(step)) < cfg.min_face_contrast:
            return False
    return True


def _profiles(
    image: np.ndarray, a: np.ndarray, b: np.ndarray, normal: np.ndarray, dists: np.ndarray, cfg: BandConfig
):
    """Colours (N, K, 3) at ``dists`` along ``normal`` from points along the segment ``a`` - ``b``,
    and whether all of a point's samples lie in the image (N,)."""
    h, w = image.shape[:2]
    ts = np.linspace(cfg.span[0], cfg.span[1], cfg.samples)
    base = a[None, :] + (b - a)[None, :] * ts[:, None]
    pts = base[:, None, :] + normal[None, None, :] * dists[None, :, None]
    prof = cv2.remap(
        image,
        pts[..., 0].astype(np.float32),
        pts[..., 1].astype(np.float32),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    ok = ((pts[..., 0] >= 0) & (pts[..., 0] <= w - 1) & (pts[..., 1] >= 0) & (pts[..., 1] <= h - 1)).all(
        axis=1
    )
    return prof, ok


def grow_band(
    image: np.ndarray,
    quad: np.ndarray,
    deck: float,
    colours: np.ndarray | None,
    cfg: BandConfig | None = None,
) -> np.ndarray | None:
    """The card's outline when ``quad`` (full-resolution, corners in order around the card) left
    out a plain band across one end, or ``None`` (see the module docstring). ``deck``: the cards'
    aspect ratio (short / long); ``colours``: the table's colours
    (:func:`vision.cards.segment.table_colours`; without them the table beyond is not checked)."""
    cfg = cfg or BandConfig()
    q = as_quad(quad).astype(np.float64)
    lengths = side_lengths(q)
    # the ends: the pair of opposite sides that are the shorter
    ends = (0, 2) if lengths[0] + lengths[2] <= lengths[1] + lengths[3] else (1, 3)
    end_len = float(lengths[ends[0]] + lengths[ends[1]]) / 2.0
    if (
        end_len / max(float(lengths[ends[0] + 1] + lengths[(ends[1] + 1) % 4]) / 2.0, 1e-6)
        < deck + cfg.too_square
    ):
        return None
    if end_len < 16:
        return None
    centre = q.mean(axis=0)
    best: tuple[int, float, float, np.ndarray, np.ndarray] | None = None
    for e in ends:
        o = (e + 2) % 4
        a, b = q[o], q[(o + 1) % 4]
        d = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
        n = np.array([d[1], -d[0]])
        if np.dot(n, centre - (a + b) / 2.0) < 0:
            n = -n  # from the opposite end towards this one
        # the card's length along that normal now, and the lengths the deck allows
        now = float(np.dot(q[e] - a, n) + np.dot(q[(e + 1) % 4] - a, n)) / 2.0
        lo = max(now + cfg.depth[0] * end_len, end_len / (deck + cfg.aspect_tolerance))
        hi = min(now + cfg.depth[1] * end_len, end_len / (deck * math.cos(math.radians(cfg.max_tilt_deg))))
        if hi <= lo:
            continue
        dists = np.arange(max(0.0, lo - cfg.depth[1] * end_len - 4.0), hi + 4.0 + STEP / 2, STEP)
        prof, ok = _profiles(image, a, b, n, dists, cfg)
        if ok.sum() < max(5, cfg.samples // 2):
            continue
        table = None
        if colours is not None:
            table = table_model_mask(prof[ok], colours) == 0
        found = _end_band(prof[ok].astype(np.float32), table, dists, (lo, hi), end_len, cfg)
        if (
            found is not None
            and found[2]
            and not (cfg.bounded_table_band and _bounded(image, q, e, n, a, (now + 2.0, found[0] - 2.0), cfg))
        ):
            found = None  # of the table's colour, and not ended by the card's sides: the table
        if found is not None and (best is None or found[1] > best[2]):
            best = (e, found[0], found[1], a + n * found[0], d)
    if best is None:
        return None
    e, point, direction = best[0], best[3], best[4]
    out = q.copy()
    for i, side in ((e, (e - 1) % 4), ((e + 1) % 4, (e + 1) % 4)):
        p = line_intersection(q[side], q[(side + 1) % 4] - q[side], point, direction)
        if p is None:
            return None
        out[i] = p
    return out.astype(np.float32)
