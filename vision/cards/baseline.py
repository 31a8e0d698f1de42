"""The plain contour pipeline the finder is measured against (the issue's baseline).

Grey, Gaussian blur, Canny, external contours, ``approxPolyDP`` to 4 corners, a size check.
No local contrast, no splitting, no refinement: what a first attempt at card finding looks like.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.geometry import order_quad


def find_cards_baseline(image: np.ndarray, min_area_frac: float = 0.0015) -> list[np.ndarray]:
    """Quads (4, 2) float32 of the convex 4-corner contours of a BGR image."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    grey = cv2.GaussianBlur(grey, (5, 5), 0)
    edges = cv2.Canny(grey, 50, 150)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_area = min_area_frac * image.shape[0] * image.shape[1]
    out = []
    for c in contours:
        if cv2.contourArea(c) < min_area:
            continue
        approx = cv2.approxPolyDP(c, 0.02 * cv2.arcLength(c, True), True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            out.append(order_quad(approx.reshape(4, 2).astype(np.float32)))
    return out
