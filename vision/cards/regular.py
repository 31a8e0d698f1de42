"""Whether a quad has a card's regular shape: opposite sides near parallel and of near one length.

A card seen from above is a parallelogram give or take the camera's perspective and its lens: on
rendered frames (the cards bench's seed 0) the opposite sides of the true quads of cards at least
80 % visible are within 4.4 degrees of parallel (median 0.8) and within 7.3 % of one length. A
found quad far off that has a side fitted along a shadow, across a print, to the card beneath or
to a neighbour, whatever its area and aspect say.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.cards.geometry import side_lengths


@dataclass(frozen=True)
class RegularConfig:
    """How far from a parallelogram a quad may be and still count as a card's shape."""

    max_skew: float = 8.0
    """Opposite sides within this many degrees of parallel (a candidate before refinement is
    coarser than a card's true quad, 4.4 at most)."""
    max_length_ratio: float = 1.12
    """... and the longer of two opposite sides at most this many times the shorter (1.073 at most
    on true quads)."""


def skew(quad: np.ndarray) -> np.ndarray:
    """The angle in degrees between sides 0 and 2, and between sides 1 and 3 (0: parallel)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    d = np.roll(q, -1, axis=0) - q
    ang = np.degrees(np.arctan2(d[:, 1], d[:, 0]))
    out = np.abs((ang[:2] - ang[2:]) % 180.0)
    return np.minimum(out, 180.0 - out)


def length_ratio(quad: np.ndarray) -> np.ndarray:
    """The longer over the shorter of sides 0 and 2, and of sides 1 and 3."""
    s = side_lengths(np.asarray(quad, np.float32))
    return np.maximum(s[:2], s[2:]) / np.maximum(np.minimum(s[:2], s[2:]), 1e-9)


def is_regular(quad: np.ndarray, cfg: RegularConfig | None = None) -> bool:
    """Whether the quad's opposite sides are a card's: near parallel and of near one length."""
    return bool(regular_mask(np.asarray(quad, np.float64).reshape(1, 4, 2), cfg)[0])


def regular_mask(quads: np.ndarray, cfg: RegularConfig | None = None) -> np.ndarray:
    """:func:`is_regular` of each of ``quads`` ((N, 4, 2)), as a (N,) bool array."""
    cfg = cfg or RegularConfig()
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    d = np.roll(q, -1, axis=1) - q  # (N, 4, 2): side i from corner i to corner i + 1
    lengths = np.hypot(d[..., 0], d[..., 1])
    # |sin| of the angle between opposite sides (parallel either way round: 0)
    cross = np.abs(d[:, :2, 0] * d[:, 2:, 1] - d[:, :2, 1] * d[:, 2:, 0])
    sin = cross / np.maximum(lengths[:, :2] * lengths[:, 2:], 1e-12)
    a, b = lengths[:, :2], lengths[:, 2:]
    ratio = np.maximum(a, b) / np.maximum(np.minimum(a, b), 1e-9)
    ok = (sin <= np.sin(np.radians(cfg.max_skew))) & (ratio <= cfg.max_length_ratio)
    return ok.all(axis=1)
