"""The rendered camera: a pinhole looking at the table plane, plus barrel distortion.

Table mm -> image px is the homography ``H = K [r1 r2 t]``. Distortion maps each output pixel
``d`` to the undistorted render at ``c + (d - c) * s(r)`` with
``s(r) = (1 + k1 r^2) / (1 + k1 r_max^2)`` (r in units of the focal length): the corners stay
in place and the centre bulges, which is barrel distortion without sampling outside the render.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.render.scene_types import CameraSpec


@dataclass(frozen=True, eq=False)
class Camera:
    spec: CameraSpec
    width: int
    height: int
    K: np.ndarray
    H: np.ndarray
    """Table mm -> undistorted image px."""
    H_inv: np.ndarray

    @staticmethod
    def build(spec: CameraSpec, width: int, height: int) -> Camera:
        return _build(spec, width, height)

    @property
    def focal(self) -> float:
        return float(self.K[0, 0])

    def to_image(self, pts_mm: np.ndarray) -> np.ndarray:
        """Table mm (N, 2) -> undistorted px (N, 2)."""
        p = np.asarray(pts_mm, np.float64).reshape(-1, 2)
        q = p @ self.H[:, :2].T + self.H[:, 2]
        return q[:, :2] / q[:, 2:3]

    def to_table(self, pts_px: np.ndarray) -> np.ndarray:
        p = np.asarray(pts_px, np.float64).reshape(-1, 2)
        q = p @ self.H_inv[:, :2].T + self.H_inv[:, 2]
        return q[:, :2] / q[:, 2:3]

    def _scale(self, r2: np.ndarray) -> np.ndarray:
        k1 = self.spec.k1
        return (1 + k1 * r2) / (1 + k1 * self._rmax2())

    def _rmax2(self) -> float:
        return ((self.width / 2) ** 2 + (self.height / 2) ** 2) / self.focal**2

    def distort(self, pts_px: np.ndarray) -> np.ndarray:
        """Undistorted px -> distorted px (N, 2), by fixed-point iteration."""
        p = np.asarray(pts_px, np.float64).reshape(-1, 2)
        if self.spec.k1 == 0:
            return p.copy()
        c = np.array([self.width / 2, self.height / 2])
        u = p - c
        d = u.copy()
        for _ in range(30):
            r2 = (d**2).sum(axis=1, keepdims=True) / self.focal**2
            d = u / self._scale(r2)
        return d + c

    def undistort(self, pts_px: np.ndarray) -> np.ndarray:
        """Distorted px -> undistorted px."""
        p = np.asarray(pts_px, np.float64).reshape(-1, 2)
        if self.spec.k1 == 0:
            return p.copy()
        c = np.array([self.width / 2, self.height / 2])
        d = p - c
        r2 = (d**2).sum(axis=1, keepdims=True) / self.focal**2
        return c + d * self._scale(r2)

    def project(self, pts_mm: np.ndarray) -> np.ndarray:
        """Table mm -> distorted image px."""
        return self.distort(self.to_image(pts_mm))

    def px_per_mm_at(self, x_mm: float, y_mm: float) -> float:
        """Local image scale at a table point (geometric mean of the two axes)."""
        p = self.to_image(np.array([[x_mm, y_mm], [x_mm + 1, y_mm], [x_mm, y_mm + 1]]))
        a = p[1] - p[0]
        b = p[2] - p[0]
        return math.sqrt(abs(a[0] * b[1] - a[1] * b[0]))

    def remap_maps(self) -> tuple[np.ndarray, np.ndarray] | None:
        """cv2.remap maps (distorted output -> undistorted render), None without distortion."""
        if self.spec.k1 == 0:
            return None
        return _maps(self.width, self.height, self.focal, self.spec.k1)

    def footprint_rect(self, margin_mm: float = 0.0) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) table mm of a rectangle seen whole by the camera."""
        corners = self.to_table(
            np.array([[0, 0], [self.width, 0], [self.width, self.height], [0, self.height]], float)
        )
        tl, tr, br, bl = corners
        x0 = max(tl[0], bl[0]) + margin_mm
        x1 = min(tr[0], br[0]) - margin_mm
        y0 = max(tl[1], tr[1]) + margin_mm
        y1 = min(bl[1], br[1]) - margin_mm
        # a yawed view: shrink to the rectangle inside the rotated footprint
        inner = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
        px = self.to_image(inner)
        inside = (px[:, 0] >= 0) & (px[:, 0] <= self.width) & (px[:, 1] >= 0) & (px[:, 1] <= self.height)
        shrink = 0
        while not inside.all() and shrink < 40:
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            x0, x1 = cx + (x0 - cx) * 0.95, cx + (x1 - cx) * 0.95
            y0, y1 = cy + (y0 - cy) * 0.95, cy + (y1 - cy) * 0.95
            px = self.to_image(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
            inside = (px[:, 0] >= 0) & (px[:, 0] <= self.width) & (px[:, 1] >= 0) & (px[:, 1] <= self.height)
            shrink += 1
        return float(x0), float(y0), float(x1), float(y1)


@lru_cache(maxsize=64)
def _build(spec: CameraSpec, width: int, height: int) -> Camera:
    if not 0 <= spec.tilt_deg <= 35:
        raise ValueError(f"camera tilt {spec.tilt_deg} deg: expected 0..35")
    if spec.height_mm <= 50:
        raise ValueError(f"camera height {spec.height_mm} mm: expected > 50")
    f = (width / 2) / math.tan(math.radians(spec.hfov_deg) / 2)
    K = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1]], np.float64)
    tx, ty = spec.target_mm
    tilt = math.radians(spec.tilt_deg)
    yaw = math.radians(spec.yaw_deg)
    # world: x right, y towards the bottom seat, z down into the table; camera above at z = -h
    back = spec.height_mm * math.tan(tilt)
    offset = np.array([-math.sin(yaw) * back, math.cos(yaw) * back])
    C = np.array([tx + offset[0], ty + offset[1], -spec.height_mm])
    target = np.array([tx, ty, 0.0])
    z = target - C
    z /= np.linalg.norm(z)
    down = np.array([-math.sin(yaw), math.cos(yaw), 0.0])  # image "down" = towards the camera's seat
    y = down - (down @ z) * z
    y /= np.linalg.norm(y)
    x = np.cross(y, z)
    R = np.stack([x, y, z])
    t = -R @ C
    H = K @ np.column_stack([R[:, 0], R[:, 1], t])
    H /= H[2, 2]
    return Camera(spec=spec, width=width, height=height, K=K, H=H, H_inv=np.linalg.inv(H))


@lru_cache(maxsize=8)
def _maps(width: int, height: int, focal: float, k1: float) -> tuple[np.ndarray, np.ndarray]:
    """The remap maps, computed exactly on a 1/4 grid and resized (the map is smooth).

    Grid node k stands for output pixel (k + 0.5) * q - 0.5 - q of a frame padded by q on every
    side, which is where ``cv2.resize`` samples it: the linear interpolation is exact at the
    nodes and never clamps at the border; the padding is cut off afterwards.
    """
    q = 4
    gw, gh = -(-width // q) + 3, -(-height // q) + 3
    xs = (np.arange(gw, dtype=np.float64) + 0.5) * q - 0.5 - q - width / 2
    ys = (np.arange(gh, dtype=np.float64) + 0.5) * q - 0.5 - q - height / 2
    X, Y = np.meshgrid(xs, ys)
    r2 = (X**2 + Y**2) / focal**2
    rmax2 = ((width / 2) ** 2 + (height / 2) ** 2) / focal**2
    s = (1 + k1 * r2) / (1 + k1 * rmax2)
    small_x = (X * s + width / 2).astype(np.float32)
    small_y = (Y * s + height / 2).astype(np.float32)
    big = (gw * q, gh * q)
    mx = cv2.resize(small_x, big, interpolation=cv2.INTER_LINEAR)[q : q + height, q : q + width]
    my = cv2.resize(small_y, big, interpolation=cv2.INTER_LINEAR)[q : q + height, q : q + width]
    return cv2.convertMaps(np.ascontiguousarray(mx), np.ascontiguousarray(my), cv2.CV_16SC2)
