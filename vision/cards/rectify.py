"""Rectified card crops at a canonical size.

Square cards (Twin It, 50 x 50 mm) become ``SQUARE_SIZE``; oblong ones (The Mind, Line-it, Trio,
SET) become ``PORTRAIT_SIZE`` with their long side vertical. The crop's top-left is the quad's
first corner, or the first corner of the quad's long side turned upright for oblong cards.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.geometry import as_quad, side_lengths

SQUARE_SIZE = (192, 192)
"""(width, height) of a rectified square card."""
PORTRAIT_SIZE = (160, 248)
"""(width, height) of a rectified oblong card, long side vertical."""
SQUARE_ASPECT = 0.85
"""Short / long side above this counts as square."""


def canonical_size(quad: np.ndarray) -> tuple[int, int]:
    """The crop size for a quad: square or portrait, from the quad's sides."""
    s = side_lengths(quad)
    a, b = (s[0] + s[2]) / 2.0, (s[1] + s[3]) / 2.0
    ratio = min(a, b) / max(a, b, 1e-9)
    return SQUARE_SIZE if ratio >= SQUARE_ASPECT else PORTRAIT_SIZE


def upright_corners(quad: np.ndarray) -> np.ndarray:
    """The quad's corners reordered so that side 0 (corner 0 -> 1) is a short side for oblong
    cards; square cards keep their order."""
    q = as_quad(quad)
    s = side_lengths(q)
    if canonical_size(q) == PORTRAIT_SIZE and (s[0] + s[2]) > (s[1] + s[3]):
        q = np.roll(q, -1, axis=0)  # start from the corner that makes the first side short
    return q


def rectify(image: np.ndarray, quad: np.ndarray, size: tuple[int, int] | None = None) -> np.ndarray:
    """The card under ``quad`` warped to ``size`` (default :func:`canonical_size`), BGR uint8."""
    q = upright_corners(quad)
    w, h = size or canonical_size(q)
    dst = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    m = cv2.getPerspectiveTransform(q.astype(np.float32), dst)
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
