"""Procedural hands and arms: palm, fingers, thumb, forearm and sleeve as polygons in table mm,
projected by the camera, softly shaded, and casting a soft shadow.

Hand-local coordinates: origin at the palm's centre, v towards the fingertips, u to the hand's
right as seen from above (a right hand, palm down, has its thumb at negative u).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.render.faces_draw import SHIFT
from vision.render.scene_camera import Camera
from vision.render.scene_light import motion_kernel
from vision.render.scene_types import HandPlacement, LightSpec

_FIX = 1 << SHIFT
# (u of the base, length, width, angle per unit of spread in degrees) for index, middle, ring, little
_FINGERS = (
    (-27.0, 78.0, 19.0, -12.0),
    (-9.0, 85.0, 20.0, -4.0),
    (9.0, 80.0, 19.0, 4.0),
    (27.0, 62.0, 16.0, 12.0),
)
_FINGER_BASE_V = 37.0
_WRIST_V = -45.0
_ARM_FAR_V = -1100.0


def _capsule(bx: float, by: float, angle_deg: float, length: float, width: float) -> np.ndarray:
    """Polygon (N, 2) of a rounded bar from (bx, by) along angle (0 = +v) of ``length``."""
    a = math.radians(angle_deg)
    d = np.array([math.sin(a), math.cos(a)])  # (u, v)
    n = np.array([d[1], -d[0]])
    r = width / 2
    tip = np.array([bx, by]) + d * length
    base = np.array([bx, by])
    t1 = np.linspace(0, math.pi, 9)
    tip_arc = tip + np.outer(np.cos(t1), n) * r + np.outer(np.sin(t1), d) * r
    t2 = np.linspace(math.pi, 2 * math.pi, 9)
    base_arc = base + np.outer(np.cos(t2), n) * r + np.outer(np.sin(t2), d) * r
    return np.concatenate([tip_arc, base_arc])


def _superellipse(a: float, b: float, cy: float, n: int = 36) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    c, s = np.cos(t), np.sin(t)
    x = a * np.sign(c) * np.abs(c) ** 0.6
    y = b * np.sign(s) * np.abs(s) ** 0.6
    return np.stack([x, y + cy], axis=1)


def hand_polygons_local(h: HandPlacement) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """(skin polygons, sleeve polygons) in hand-local mm, before the hand's scale."""
    curl = 1 - 0.55 * h.curl
    skin = [_superellipse(42.0, 47.0, 0.0)]
    for u, length, width, spread_deg in _FINGERS:
        skin.append(_capsule(u, _FINGER_BASE_V, spread_deg * (0.4 + 2 * h.spread), length * curl, width))
    thumb_angle = -(45.0 + 25.0 * h.spread)
    skin.append(_capsule(-33.0, -12.0, thumb_angle, 58.0 * (1 - 0.3 * h.curl), 23.0))
    skin.append(
        np.array(
            [[-31.0, _WRIST_V + 15], [31.0, _WRIST_V + 15], [40.0, _WRIST_V - 420], [-40.0, _WRIST_V - 420]]
        )
    )
    s0 = _WRIST_V - h.sleeve_start_mm
    sleeve = [np.array([[-44.0, s0], [44.0, s0], [55.0, _ARM_FAR_V], [-55.0, _ARM_FAR_V]])]
    if not h.right:
        skin = [p * (-1, 1) for p in skin]
        sleeve = [p * (-1, 1) for p in sleeve]
    return skin, sleeve


def local_to_table(h: HandPlacement, pts: np.ndarray, camera_height_mm: float) -> np.ndarray:
    dx, dy = h.direction()
    right = np.array([-dy, dx])
    fwd = np.array([dx, dy])
    cx, cy = h.palm_centre()
    # a hovering hand is nearer the camera and looks bigger
    lift = camera_height_mm / max(camera_height_mm - h.height_mm, 50.0)
    p = pts * (h.scale * lift)
    return np.array([cx, cy]) + np.outer(p[:, 0], right) + np.outer(p[:, 1], fwd)


@dataclass
class HandLayer:
    """One hand drawn in an image region."""

    hand: HandPlacement
    x0: int
    y0: int
    alpha: np.ndarray
    """uint8 (h, w): skin and sleeve coverage."""
    sleeve: np.ndarray
    """uint8 (h, w): sleeve coverage."""
    axis_px: np.ndarray
    """(N, 2) undistorted px along the arm from the fingertip outwards."""
    px_per_mm: float

    @property
    def mask(self) -> np.ndarray:
        return self.alpha > 127


def build_layer(h: HandPlacement, cam: Camera) -> HandLayer | None:
    skin, sleeve = hand_polygons_local(h)
    skin_px = [cam.to_image(local_to_table(h, p, cam.spec.height_mm)) for p in skin]
    sleeve_px = [cam.to_image(local_to_table(h, p, cam.spec.height_mm)) for p in sleeve]
    allp = np.concatenate(skin_px + sleeve_px)
    cx, cy = h.palm_centre()
    mx, my = h.motion_mm
    blur = np.zeros(2)
    if mx or my:
        ends = cam.to_image(np.array([[cx - mx / 2, cy - my / 2], [cx + mx / 2, cy + my / 2]]))
        blur = ends[1] - ends[0]
    length = float(np.hypot(*blur))
    pad = 2 + (math.ceil(length / 2) if length >= 1.5 else 0)
    x0 = max(0, math.floor(allp[:, 0].min()) - pad)
    y0 = max(0, math.floor(allp[:, 1].min()) - pad)
    x1 = min(cam.width, math.ceil(allp[:, 0].max()) + pad + 1)
    y1 = min(cam.height, math.ceil(allp[:, 1].max()) + pad + 1)
    axis_local = np.stack([np.zeros(60), np.linspace(132.0, _ARM_FAR_V, 60)], axis=1)
    axis_px = cam.to_image(local_to_table(h, axis_local, cam.spec.height_mm))
    if x1 <= x0 or y1 <= y0:
        return None
    off = np.array([x0, y0])
    alpha = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for p in skin_px:  # one call per polygon: overlaps must not cancel out (even-odd fill)
        cv2.fillPoly(alpha, [np.round((p - off) * _FIX).astype(np.int32)], 255, cv2.LINE_AA, SHIFT)
    sl = np.zeros_like(alpha)
    for p in sleeve_px:
        cv2.fillPoly(sl, [np.round((p - off) * _FIX).astype(np.int32)], 255, cv2.LINE_AA, SHIFT)
    np.maximum(alpha, sl, out=alpha)
    if length >= 1.5:  # the hand moved while the shutter was open
        kernel = motion_kernel(length, math.degrees(math.atan2(blur[1], blur[0])))
        alpha = cv2.filter2D(alpha, -1, kernel, borderType=cv2.BORDER_CONSTANT)
        sl = cv2.filter2D(sl, -1, kernel, borderType=cv2.BORDER_CONSTANT)
    return HandLayer(h, x0, y0, alpha, sl, axis_px, cam.px_per_mm_at(cx, cy))


def entry_seat(layer: HandLayer, width: int, height: int) -> str:
    """The image edge the arm crosses on its way out, going from the fingertips to the shoulder."""
    pts = layer.axis_px
    inside = (pts[:, 0] >= 0) & (pts[:, 0] < width) & (pts[:, 1] >= 0) & (pts[:, 1] < height)
    idx = np.flatnonzero(inside)
    if len(idx) == 0:
        return layer.hand.seat
    last = idx[-1]
    if last + 1 >= len(pts):
        p = pts[last]
        d = {"left": p[0], "right": width - p[0], "top": p[1], "bottom": height - p[1]}
        return min(d, key=d.__getitem__)
    x, y = pts[last + 1]
    a = pts[last]
    # which border the segment crosses first
    best, best_t = layer.hand.seat, 2.0
    for name, t in (
        ("left", (0 - a[0]) / (x - a[0]) if x < 0 else 2.0),
        ("right", (width - a[0]) / (x - a[0]) if x >= width else 2.0),
        ("top", (0 - a[1]) / (y - a[1]) if y < 0 else 2.0),
        ("bottom", (height - a[1]) / (y - a[1]) if y >= height else 2.0),
    ):
        if t < best_t:
            best, best_t = name, t
    return best


def cast_shadow(img: np.ndarray, layer: HandLayer, light: LightSpec) -> None:
    """Darken ``img`` in place under the hand's soft shadow."""
    lift = layer.hand.height_mm + 12.0
    dx = light.shadow_dir[0] * lift * layer.px_per_mm
    dy = light.shadow_dir[1] * lift * layer.px_per_mm
    sigma = (1.5 + 0.12 * layer.hand.height_mm) * layer.px_per_mm
    pad = int(3 * sigma) + 2
    h, w = layer.alpha.shape
    H, W = img.shape[:2]
    sx0 = max(0, int(layer.x0 + dx) - pad)
    sy0 = max(0, int(layer.y0 + dy) - pad)
    sx1 = min(W, int(layer.x0 + dx) + w + pad)
    sy1 = min(H, int(layer.y0 + dy) + h + pad)
    if sx1 <= sx0 or sy1 <= sy0:
        return
    q = 4  # blur at quarter resolution
    sw, sh = max(1, (sx1 - sx0) // q), max(1, (sy1 - sy0) // q)
    M = np.array([[sw / (sx1 - sx0), 0, 0], [0, sh / (sy1 - sy0), 0]], np.float64)
    M[0, 2] = (layer.x0 + dx - sx0) * M[0, 0]
    M[1, 2] = (layer.y0 + dy - sy0) * M[1, 1]
    small = cv2.warpAffine(layer.alpha, M, (sw, sh), flags=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), max(0.5, sigma / q))
    shadow = cv2.resize(small, (sx1 - sx0, sy1 - sy0), interpolation=cv2.INTER_LINEAR)
    strength = 0.45 / (1 + layer.hand.height_mm / 150.0)
    # light left: 255 - strength * shadow, applied as a saturating integer multiply
    keep = cv2.addWeighted(shadow, -strength, shadow, 0.0, 255.0)
    roi = img[sy0:sy1, sx0:sx1]
    cv2.multiply(roi, cv2.merge([keep, keep, keep]), dst=roi, scale=1.0 / 255.0)


_SURFACE = 1536


@lru_cache(maxsize=1)
def _surface_field() -> np.ndarray:
    rng = np.random.default_rng(0x5C1A)
    blotch = cv2.resize(
        rng.standard_normal((48, 48)).astype(np.float32), (_SURFACE, _SURFACE), interpolation=cv2.INTER_CUBIC
    )
    grain = cv2.GaussianBlur(rng.standard_normal((_SURFACE, _SURFACE)).astype(np.float32), (0, 0), 0.8)
    field = 128.0 * (1.0 + 0.03 * blotch + 0.02 * grain)
    out = np.clip(field, 0, 255).astype(np.uint8)
    out.setflags(write=False)
    return out


def _surface(h: int, w: int, hand_id: int) -> np.ndarray:
    """A (h, w) piece of the surface texture, cut at a place that depends on the hand."""
    field = _surface_field()
    if h > _SURFACE or w > _SURFACE:
        field = np.tile(field, (h // _SURFACE + 1, w // _SURFACE + 1))
    oy = (hand_id * 211) % max(1, field.shape[0] - h + 1)
    ox = (hand_id * 379) % max(1, field.shape[1] - w + 1)
    return np.ascontiguousarray(field[oy : oy + h, ox : ox + w])


def composite(img: np.ndarray, layer: HandLayer) -> None:
    """Draw the shaded hand and sleeve onto ``img`` in place."""
    h, w = layer.alpha.shape
    q = 4
    small = cv2.resize(layer.alpha, (max(1, w // q), max(1, h // q)), interpolation=cv2.INTER_AREA)
    sigma = max(0.8, 9.0 * layer.px_per_mm / q)
    small = cv2.GaussianBlur(small, (0, 0), sigma)
    # shading 0.55 (edges) .. 1.1 (middle of the arm), coded as 255 = 1.1, done at quarter size
    small = cv2.convertScaleAbs(small, alpha=1.25 * 0.55 / 1.1, beta=255.0 * 0.55 / 1.1)
    shade = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    # skin and cloth are not flat colour: blotches and grain (128 = unchanged)
    shade = cv2.multiply(shade, _surface(h, w, layer.hand.hand_id), scale=1.0 / 128.0)
    colour = np.empty((h, w, 3), np.uint8)
    colour[:] = layer.hand.skin
    colour[layer.sleeve > 127] = layer.hand.sleeve
    cv2.multiply(colour, cv2.merge([shade, shade, shade]), dst=colour, scale=1.1 / 255.0)
    roi = img[layer.y0 : layer.y0 + h, layer.x0 : layer.x0 + w]
    a = layer.alpha.astype(np.float32) * (1.0 / 255.0)
    roi[:] = cv2.blendLinear(roi, colour, 1.0 - a, a)
