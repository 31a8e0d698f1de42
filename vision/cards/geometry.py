"""Quadrilateral helpers: corner order, area, IoU, aspect ratio.

Quads are (4, 2) float32 arrays in image pixels (x right, y down). The canonical order without
orientation knowledge is clockwise on screen from the top-left-most corner (smallest x + y).
"""

from __future__ import annotations

import cv2
import numpy as np


def as_quad(points: np.ndarray | list[list[float]]) -> np.ndarray:
    """A (4, 2) float32 copy of ``points``; raises ``ValueError`` on another shape."""
    quad = np.asarray(points, dtype=np.float32).reshape(-1, 2)
    if quad.shape != (4, 2):
        raise ValueError(f"a quad has 4 corners, got shape {quad.shape}")
    return quad


_NEXT = np.array([1, 2, 3, 0])


def order_quad(points: np.ndarray) -> np.ndarray:
    """Corners clockwise on screen (y down), starting from the top-left-most one."""
    quad = as_quad(points)
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]  # increasing angle = clockwise on screen (y down)
    start = int(np.argmin(quad[:, 0] + quad[:, 1]))
    return quad[(np.arange(4) + start) % 4]


def quad_area(quad: np.ndarray) -> float:
    """Unsigned area (shoelace)."""
    q = as_quad(quad)
    x, y = q[:, 0].astype(np.float64), q[:, 1].astype(np.float64)
    return float(abs(np.dot(x, y[_NEXT]) - np.dot(y, x[_NEXT])) / 2.0)


def is_convex(quad: np.ndarray) -> bool:
    return bool(cv2.isContourConvex(as_quad(quad).reshape(-1, 1, 2)))


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads (0 when either is degenerate)."""
    qa, qb = as_quad(a), as_quad(b)
    if (qa.max(axis=0) < qb.min(axis=0)).any() or (qb.max(axis=0) < qa.min(axis=0)).any():
        return 0.0
    qa, qb = order_quad(qa), order_quad(qb)
    area_a, area_b = quad_area(qa), quad_area(qb)
    if area_a <= 0 or area_b <= 0:
        return 0.0
    if not (is_convex(qa) and is_convex(qb)):
        qa = cv2.convexHull(qa).reshape(-1, 2)
        qb = cv2.convexHull(qb).reshape(-1, 2)
    inter, _ = cv2.intersectConvexConvex(qa, qb)
    inter = max(float(inter), 0.0)
    union = area_a + area_b - inter
    return inter / union if union > 0 else 0.0


def side_lengths(quad: np.ndarray) -> np.ndarray:
    """Lengths of the 4 sides, side i going from corner i to corner i + 1."""
    q = as_quad(quad)
    return np.linalg.norm(q[_NEXT] - q, axis=1)


def aspect_ratio(quad: np.ndarray) -> float:
    """Short over long side, averaging opposite sides (1 for a square, ~0.64 for a 56 x 87 card)."""
    s = side_lengths(quad)
    a, b = (s[0] + s[2]) / 2.0, (s[1] + s[3]) / 2.0
    long = max(a, b)
    return float(min(a, b) / long) if long > 0 else 0.0


def corner_angles(quad: np.ndarray) -> np.ndarray:
    """The 4 interior angles in degrees (a rectangle: 90 each; a flattened sliver: far off)."""
    q = as_quad(quad).astype(np.float64)
    prev = np.roll(q, 1, axis=0) - q
    nxt = q[_NEXT] - q
    cos = np.einsum("ij,ij->i", prev, nxt) / np.maximum(
        np.linalg.norm(prev, axis=1) * np.linalg.norm(nxt, axis=1), 1e-12
    )
    return np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))


def quad_centre(quad: np.ndarray) -> np.ndarray:
    return as_quad(quad).mean(axis=0)


def quad_diagonal(quad: np.ndarray) -> float:
    q = as_quad(quad)
    return float(max(np.linalg.norm(q[2] - q[0]), np.linalg.norm(q[3] - q[1])))


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Mean corner distance in pixels under the best cyclic correspondence (either direction)."""
    f, t = as_quad(found), as_quad(truth)
    best = np.inf
    for cand in (f, f[::-1]):
        for k in range(4):
            best = min(best, float(np.linalg.norm(np.roll(cand, k, axis=0) - t, axis=1).mean()))
    return best


def line_intersection(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray, d2: np.ndarray) -> np.ndarray | None:
    """Where the line through ``p1`` along ``d1`` meets the line through ``p2`` along ``d2``."""
    m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]], dtype=np.float64)
    det = np.linalg.det(m)
    if abs(det) < 1e-9:
        return None
    t = np.linalg.solve(m, np.asarray(p2, np.float64) - np.asarray(p1, np.float64))
    return np.asarray(p1, np.float64) + t[0] * np.asarray(d1, np.float64)


def side_directions(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each side's unit direction (corner i to corner i + 1) and its outward unit normal, (4, 2)
    each (float64)."""
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    starts, ends = q, np.roll(q, -1, axis=0)
    dirs = (ends - starts) / np.maximum(np.linalg.norm(ends - starts, axis=1, keepdims=True), 1e-9)
    normals = np.stack([dirs[:, 1], -dirs[:, 0]], axis=1)
    flip = np.einsum("ij,ij->i", normals, (starts + ends) / 2.0 - q.mean(axis=0)) < 0
    normals[flip] *= -1.0
    return dirs, normals
