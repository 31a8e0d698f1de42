"""Drawing helpers for generated card faces: shapes as polygons, text that fits a box.

Shapes are defined in unit coordinates (radius about 1, y down) and drawn with anti-aliased
``cv2.fillPoly``; fixed-point coordinates (``shift``) keep sub-pixel positions exact.
"""

from __future__ import annotations

import math
from functools import cache

import cv2
import numpy as np

SHIFT = 4
_SCALE = 1 << SHIFT

SHAPES: tuple[str, ...] = (
    "circle",
    "ring",
    "square",
    "triangle",
    "diamond",
    "hexagon",
    "star",
    "cross",
    "crescent",
    "heart",
    "drop",
    "arrow",
    "lshape",
    "bolt",
    "halfdisc",
    "flower",
    "leaf",
)
"""Twin It pattern elements. The symbol shapes of Line-it reuse heart, leaf, diamond and star."""


def _arc(cx: float, cy: float, r: float, a0: float, a1: float, n: int) -> np.ndarray:
    t = np.linspace(a0, a1, n)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1)


@cache
def unit_shape(kind: str) -> tuple[np.ndarray, ...]:
    """Polygons (each (N, 2) float) of a shape in unit coordinates, centred on 0."""
    if kind == "circle":
        return (_arc(0, 0, 1, 0, 2 * math.pi, 48),)
    if kind == "ring":
        outer = _arc(0, 0, 1, 0, 2 * math.pi, 48)
        inner = _arc(0, 0, 0.55, 2 * math.pi, 0, 48)
        return (outer, inner)  # fillPoly fills even-odd: the inner circle is a hole
    if kind == "square":
        return (np.array([[-0.85, -0.85], [0.85, -0.85], [0.85, 0.85], [-0.85, 0.85]], float),)
    if kind == "triangle":
        return (_arc(0, 0.15, 1.05, -math.pi / 2, 1.5 * math.pi, 4)[:3],)
    if kind == "diamond":
        return (np.array([[0, -1.0], [0.65, 0], [0, 1.0], [-0.65, 0]], float),)
    if kind == "hexagon":
        return (_arc(0, 0, 1, 0, 2 * math.pi, 7)[:6],)
    if kind == "star":
        t = -math.pi / 2 + np.arange(10) * math.pi / 5
        r = np.where(np.arange(10) % 2 == 0, 1.0, 0.42)
        return (np.stack([r * np.cos(t), r * np.sin(t)], axis=1),)
    if kind == "cross":
        a, b = 0.3, 0.95
        pts = [(-a, -b), (a, -b), (a, -a), (b, -a), (b, a), (a, a), (a, b), (-a, b), (-a, a), (-b, a)]
        return (np.array([*pts, (-b, -a), (-a, -a)], float),)
    if kind == "crescent":
        # the unit circle minus a circle of radius 0.85 centred at (0.5, 0); they meet at x = 0.5275
        outer = _arc(0, 0, 1, math.radians(58.2), math.radians(301.8), 40)
        inner = _arc(0.5, 0, 0.85, math.radians(271.9), math.radians(88.1), 40)
        return (np.concatenate([outer, inner]) - (0.25, 0),)
    if kind == "heart":
        t = np.linspace(0, 2 * math.pi, 60)
        x = 16 * np.sin(t) ** 3
        y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
        return (np.stack([x, y + 2.5], axis=1) / 16.5,)
    if kind == "drop":
        t = np.linspace(0, math.pi, 30)
        bottom = np.stack([0.7 * np.cos(t), 0.3 + 0.7 * np.sin(t)], axis=1)
        return (np.concatenate([bottom, [[0.0, -1.0]]]),)
    if kind == "arrow":
        return (
            np.array(
                [[0, -1], [0.8, -0.15], [0.32, -0.15], [0.32, 1], [-0.32, 1], [-0.32, -0.15], [-0.8, -0.15]],
                float,
            ),
        )
    if kind == "lshape":
        return (np.array([[-0.8, -1], [-0.2, -1], [-0.2, 0.4], [0.8, 0.4], [0.8, 1], [-0.8, 1]], float),)
    if kind == "bolt":
        return (
            np.array(
                [[0.2, -1], [-0.6, 0.15], [0.0, 0.15], [-0.3, 1], [0.65, -0.25], [0.05, -0.25], [0.45, -1]]
            ),
        )
    if kind == "halfdisc":
        return (_arc(0, 0.35, 1, math.pi, 2 * math.pi, 30),)
    if kind == "flower":
        t = np.linspace(0, 2 * math.pi, 90)
        r = 0.7 + 0.3 * np.cos(5 * t)
        return (np.stack([r * np.cos(t), r * np.sin(t)], axis=1),)
    if kind == "leaf":
        t = np.linspace(0, math.pi, 30)
        right = np.stack([0.55 * np.sin(t), -np.cos(t)], axis=1)
        left = np.stack([-0.55 * np.sin(t[::-1]), -np.cos(t[::-1])], axis=1)
        stem = np.array([[0.06, 1.0], [0.06, 1.18], [-0.06, 1.18], [-0.06, 1.0]])
        return (np.concatenate([right[:-1], stem, left[1:]]) * 0.88,)
    raise ValueError(f"unknown shape {kind!r}; expected one of {SHAPES}")


def shape_polygons(kind: str, cx: float, cy: float, size: float, angle_deg: float) -> list[np.ndarray]:
    """The shape's polygons in pixels: radius ``size`` around (cx, cy), turned by ``angle_deg``."""
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return [(p @ rot.T) * size + (cx, cy) for p in unit_shape(kind)]


def _fixed(polys: list[np.ndarray]) -> list[np.ndarray]:
    return [np.round(p * _SCALE).astype(np.int32) for p in polys]


def draw_shape(
    img: np.ndarray,
    kind: str,
    cx: float,
    cy: float,
    size: float,
    angle_deg: float,
    colour: tuple[int, int, int],
    outline: int = 0,
    outline_colour: tuple[int, int, int] = (30, 30, 30),
) -> None:
    """Fill a shape (and optionally outline it) on ``img`` in place."""
    polys = _fixed(shape_polygons(kind, cx, cy, size, angle_deg))
    cv2.fillPoly(img, polys, colour, cv2.LINE_AA, SHIFT)
    if outline > 0:
        cv2.polylines(img, polys, True, outline_colour, outline, cv2.LINE_AA, SHIFT)


def rounded_rect_mask(w: int, h: int, radius: float) -> np.ndarray:
    """uint8 mask (h, w): 255 inside a rectangle with rounded corners of ``radius`` px, anti-aliased."""
    ss = 4
    big = np.zeros((h * ss, w * ss), np.uint8)
    r = max(1, round(radius * ss))
    cv2.rectangle(big, (r, 0), (w * ss - 1 - r, h * ss - 1), 255, -1)
    cv2.rectangle(big, (0, r), (w * ss - 1, h * ss - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w * ss - 1 - r, r), (r, h * ss - 1 - r), (w * ss - 1 - r, h * ss - 1 - r)):
        cv2.circle(big, (cx, cy), r, 255, -1)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)


def put_text_fit(
    img: np.ndarray,
    text: str,
    cx: float,
    cy: float,
    height: float,
    colour: tuple[int, int, int],
    font: int,
    thickness_ratio: float,
    max_width: float | None = None,
    underline: bool = False,
) -> None:
    """Draw ``text`` centred on (cx, cy) with its digits ``height`` px tall (Hershey font)."""
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = height / max(th, 1)
    if max_width is not None and tw * scale > max_width:
        scale = max_width / tw
    thick = max(1, round(height * thickness_ratio))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    x = round(cx - tw / 2)
    y = round(cy + th / 2)
    cv2.putText(img, text, (x, y), font, scale, colour, thick, cv2.LINE_AA)
    if underline:
        uy = y + max(2, round(th * 0.18))
        cv2.line(img, (x, uy), (x + tw, uy), colour, max(1, thick), cv2.LINE_AA)


def rotated_180_region(img: np.ndarray, draw) -> None:  # type: ignore[no-untyped-def]
    """Run ``draw(img)`` on the image turned upside down, so it lands mirrored through the centre."""
    flipped = np.ascontiguousarray(img[::-1, ::-1])
    draw(flipped)
    img[:] = flipped[::-1, ::-1]


def ambiguous_upside_down(number: int) -> bool:
    """True when the number reads as another number turned 180 degrees (6 / 9, 68 / 89, ...)."""
    pairs = {"0": "0", "1": "1", "6": "9", "8": "8", "9": "6"}
    s = str(number)
    if any(ch not in pairs for ch in s):
        return False
    turned = "".join(pairs[ch] for ch in reversed(s))
    return turned != s and not turned.startswith("0")
