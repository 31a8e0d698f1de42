"""Pixel-level cues for the card finder: table colour model, colour edges, edge support.

- :func:`table_model_mask`: the table is what fills the image's border band; its colours (a
  coarse hue / saturation / value histogram, smoothed by one bin, hue ignored where saturation
  is low) are "table", everything else is foreground. Cards of any colour stand out, as do their
  rims when their face has the table's colour.
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
TABLE_MASS = 0.95
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


def _bin_index(hsv: np.ndarray) -> np.ndarray:
    h = (hsv[..., 0].astype(np.int32) * H_BINS) // 180
    s = (hsv[..., 1].astype(np.int32) * S_BINS) // 256
    v = (hsv[..., 2].astype(np.int32) * V_BINS) // 256
    return (np.minimum(h, H_BINS - 1) * S_BINS + s) * V_BINS + v


def table_model_mask(small: np.ndarray) -> np.ndarray:
    """Foreground (not-table) pixels of a working-size BGR image, uint8 0/255."""
    h, w = small.shape[:2]
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    idx = _bin_index(hsv)
    b = max(2, int(BAND * min(h, w)))
    band = np.concatenate([idx[:b].ravel(), idx[-b:].ravel(), idx[b:-b, :b].ravel(), idx[b:-b, -b:].ravel()])
    counts = np.bincount(band, minlength=H_BINS * S_BINS * V_BINS).astype(np.float64)
    order = np.argsort(counts)[::-1]
    cum = np.cumsum(counts[order]) / max(1.0, counts.sum())
    n_keep = int(np.searchsorted(cum, TABLE_MASS)) + 1
    table = np.zeros(H_BINS * S_BINS * V_BINS, bool)
    table[order[:n_keep]] = True
    table = table.reshape(H_BINS, S_BINS, V_BINS)
    # Hue means little at low saturation: a grey bin at any hue is table if one is.
    table[:, :2, :] = table[:, :2, :].any(axis=0, keepdims=True)
    table = _smooth_bins(table)
    lut = (~table.ravel()).astype(np.uint8) * 255
    return lut[idx]


def colour_gradient(small: np.ndarray, low: int = 60, high: int = 150) -> tuple[np.ndarray, np.ndarray]:
    """(gradient magnitude uint8, Canny edges uint8) from the strongest-channel Sobel gradient."""
    dxs = [cv2.Sobel(c, cv2.CV_16S, 1, 0, ksize=3) for c in cv2.split(small)]
    dys = [cv2.Sobel(c, cv2.CV_16S, 0, 1, ksize=3) for c in cv2.split(small)]
    mags = [cv2.add(cv2.absdiff(dx, 0), cv2.absdiff(dy, 0)) for dx, dy in zip(dxs, dys, strict=True)]
    best = np.argmax(np.stack(mags), axis=0)
    dx = np.choose(best, dxs).astype(np.int16)
    dy = np.choose(best, dys).astype(np.int16)
    mag = cv2.convertScaleAbs(np.maximum(np.maximum(mags[0], mags[1]), mags[2]), alpha=0.25)
    edges = cv2.Canny(dx, dy, low, high, L2gradient=False)
    return mag, edges


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
