"""Pixel-level cues for the card finder: table colour model, colour edges, edge support.

- :func:`table_model_mask`: the table is what fills the image's border band; its colours (a
  coarse hue / saturation / value histogram, smoothed by one bin, hue ignored where saturation
  is low; a colour counts when it shows along two edges or more, so that an arm or a card
  reaching one edge does not) are "table", everything else is foreground. Cards of any colour
  stand out, as do their rims when their face has the table's colour.
- :func:`colour_gradient`: per-pixel strongest Sobel gradient over B, G, R (so an edge between
  two colours of equal brightness is still an edge), and its Canny edges.
- :func:`side_support`: how much of a quad's outline lies on strong gradient, side by side.
"""

from __future__ import annotations

import cv2
import numpy as np

H_BINS, S_BINS, V_BINS = 18, 8, 8
BAND = 0.03
"""Border band width, as a fraction of the image's short side."""
SIDE_SHARE = 0.004
"""A colour bin holding this share of one image edge's band is present along that edge."""
SHADOW_BINS = 2
"""A table colour this many value bins darker is still table (a card's or an arm's shadow)."""
_H_LUT = np.minimum(np.arange(256) * H_BINS // 180, H_BINS - 1).astype(np.uint8)
_S_LUT = (np.arange(256) * S_BINS // 256).astype(np.uint8)
_V_LUT = (np.arange(256) * V_BINS // 256).astype(np.uint8)
"""The most common colour bins holding this fraction of the band are the table."""


def _smooth_bins(table: np.ndarray) -> np.ndarray:
    """Grow a boolean (H, S, V) bin set by one bin along each axis (hue wraps around)."""
    out = table.copy()
    out |= np.roll(table, 1, axis=0) | np.roll(table, -1, axis=0)
    pad = np.zeros_like(table)
    pad[:, 1:] = table[:, :-1]
    out |= pad
    pad = np.zeros_like(table)
    pad[:, :-1] = table[:, 1:]
    out |= pad
    pad = np.zeros_like(table)
    pad[:, :, 1:] = table[:, :, :-1]
    out |= pad
    pad = np.zeros_like(table)
    pad[:, :, :-1] = table[:, :, 1:]
    out |= pad
    return out


def table_colours(small: np.ndarray) -> np.ndarray:
    """The table's colours, learned from the image's border band: a (hue x saturation bin,
    value bin) float32 table, 0 for table colours and 255 for the others."""
    h, w = small.shape[:2]
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    b = max(2, int(BAND * min(h, w)))
    ranges = [0, 180, 0, 256, 0, 256]
    # A table colour shows along at least two edges of the image: an arm, or a card near the
    # edge, comes in along one.
    sides = 0
    for sl in (
        (slice(0, b), slice(None)),
        (slice(h - b, h), slice(None)),
        (slice(None), slice(0, b)),
        (slice(None), slice(w - b, w)),
    ):
        band = np.zeros((h, w), np.uint8)
        band[sl] = 255
        hist = cv2.calcHist([hsv], [0, 1, 2], band, [H_BINS, S_BINS, V_BINS], ranges).ravel()
        sides = sides + (hist >= SIDE_SHARE * max(1.0, float(hist.sum()))).astype(np.int32)
    table = (sides >= 2).reshape(H_BINS, S_BINS, V_BINS)
    # Hue means little at low saturation: a grey bin at any hue is table if one is.
    table[:, :2, :] = table[:, :2, :].any(axis=0, keepdims=True)
    table = _smooth_bins(table)
    # A card's cast shadow is the table's colour, darker: table too (down to about half value).
    for k in range(1, SHADOW_BINS + 1):
        table[:, :, :-k] |= table[:, :, k:]
    return np.where(table, 0.0, 255.0).astype(np.float32).reshape(H_BINS * S_BINS, V_BINS)


def table_model_mask(small: np.ndarray, colours: np.ndarray | None = None) -> np.ndarray:
    """Foreground (not-table) pixels of a BGR image, uint8 0/255; ``colours`` from
    :func:`table_colours` (learned from ``small`` itself when not given)."""
    if colours is None:
        colours = table_colours(small)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    # Back-project through a 2-D (hue x saturation bin, value bin) table: OpenCV's Python binding
    # takes a 3-D numpy histogram for a multi-channel 2-D one.
    hs = cv2.addWeighted(cv2.LUT(hsv[..., 0], _H_LUT), S_BINS, cv2.LUT(hsv[..., 1], _S_LUT), 1.0, 0)
    pair = cv2.merge([hs, cv2.LUT(hsv[..., 2], _V_LUT)])
    return cv2.calcBackProject([pair], [0, 1], colours, [0, H_BINS * S_BINS, 0, V_BINS], scale=1)


def colour_gradient(small: np.ndarray, low: int = 60, high: int = 150) -> tuple[np.ndarray, np.ndarray]:
    """(gradient magnitude uint8, edges uint8): the strongest channel's Sobel |dx| + |dy| (a
    quarter of it), and the union of each channel's Canny edges (an edge between two colours of
    equal brightness is still an edge)."""
    mag = None
    edges = None
    for c in cv2.split(small):
        dx = cv2.Sobel(c, cv2.CV_16S, 1, 0, ksize=3)
        dy = cv2.Sobel(c, cv2.CV_16S, 0, 1, ksize=3)
        m = cv2.addWeighted(
            cv2.convertScaleAbs(dx, alpha=0.25), 1.0, cv2.convertScaleAbs(dy, alpha=0.25), 1.0, 0
        )
        e = cv2.Canny(dx, dy, low, high)
        mag = m if mag is None else cv2.max(mag, m)
        edges = e if edges is None else cv2.bitwise_or(edges, e)
    assert mag is not None and edges is not None
    return mag, edges


def colour_gradient_magnitude(small: np.ndarray) -> np.ndarray:
    """A cheap gradient magnitude (quarter Sobel |dx| + |dy| of the grey image, at half size)."""
    grey = cv2.cvtColor(cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2)), cv2.COLOR_BGR2GRAY)
    dx = cv2.Sobel(grey, cv2.CV_16S, 1, 0, ksize=3)
    dy = cv2.Sobel(grey, cv2.CV_16S, 0, 1, ksize=3)
    return cv2.addWeighted(
        cv2.convertScaleAbs(dx, alpha=0.25), 1.0, cv2.convertScaleAbs(dy, alpha=0.25), 1.0, 0
    )


def side_support(mag_band: np.ndarray, quad: np.ndarray, threshold: float, n: int = 24) -> np.ndarray:
    """Fraction of points along each side (inner 80 %) where the (band-dilated) gradient
    magnitude reaches ``threshold``: (4,) floats."""
    q = np.asarray(quad, np.float32)
    ts = np.linspace(0.1, 0.9, n, dtype=np.float32)
    a = q
    b = q[[1, 2, 3, 0]]
    pts = a[:, None, :] + (b - a)[:, None, :] * ts[None, :, None]
    xs = np.clip(np.round(pts[..., 0]).astype(np.int32), 0, mag_band.shape[1] - 1)
    ys = np.clip(np.round(pts[..., 1]).astype(np.int32), 0, mag_band.shape[0] - 1)
    vals = mag_band[ys, xs]
    return (vals >= threshold).mean(axis=1)
