"""Light and sensor: multiplicative light maps (colour temperature, gradient, vignette, soft
shadow bands), additive glare, cached sensor noise, blur and JPEG."""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from vision.render.scene_types import LightSpec

_LOW = 8  # light maps are computed at 1/8 resolution and resized


@lru_cache(maxsize=16)
def light_maps(light: LightSpec, width: int, height: int) -> tuple[np.ndarray, np.ndarray | None]:
    """(gain (H, W, 3) float32, glare (H, W) float32 in grey levels or None)."""
    w, h = max(2, width // _LOW), max(2, height // _LOW)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    u = (xs + 0.5) / w * 2 - 1  # -1..1
    v = (ys + 0.5) / h * 2 - 1
    aspect = width / height
    g = np.full((h, w), light.brightness, np.float32)
    angle, strength = light.gradient
    if strength:
        a = math.radians(angle)
        t = (u * math.cos(a) * aspect + v * math.sin(a)) / (abs(math.cos(a)) * aspect + abs(math.sin(a)))
        g *= 1 + strength * 0.5 * t
    if light.vignette:
        g *= 1 - light.vignette * (u**2 + v**2) / 2
    for band_angle, offset, width_frac, softness, darkness in light.shadow_bands:
        a = math.radians(band_angle)
        d = u * math.cos(a) * aspect + v * math.sin(a) - offset  # distance across the band
        half = width_frac
        soft = max(1e-3, softness * 0.5)
        inside = np.clip((half - np.abs(d)) / soft + 0.5, 0, 1)
        g *= 1 - darkness * inside
    for bx, by, radius, softness, darkness in light.shadow_blobs:
        d = np.sqrt(((u + 1) / 2 - bx) ** 2 * aspect**2 + ((v + 1) / 2 - by) ** 2) / max(radius, 1e-3)
        inside = np.clip((1 - d) / max(softness, 1e-3) + 0.5, 0, 1)
        g *= 1 - darkness * inside
    gain = np.stack([g * light.gains[0], g * light.gains[1], g * light.gains[2]], axis=2)
    # fixed point: 128 = a gain of 1 (cv2.multiply with scale 1/128 saturates like light does);
    # the map is smooth, so it is coded at low resolution and resized as bytes
    gain_u8 = np.clip(gain * GAIN_ONE + 0.5, 0, 255).astype(np.uint8)
    gain_u8 = cv2.resize(gain_u8, (width, height), interpolation=cv2.INTER_LINEAR)
    glare = None
    if light.glare:
        gl = np.zeros((h, w), np.float32)
        for gx, gy, radius, s in light.glare:
            r = max(1e-3, radius * w)
            gl += 255.0 * s * np.exp(-((xs - gx * w) ** 2 + (ys - gy * h) ** 2) / (2 * r * r))
        gl_u8 = np.clip(gl + 0.5, 0, 255).astype(np.uint8)
        glare = cv2.resize(cv2.merge([gl_u8, gl_u8, gl_u8]), (width, height), interpolation=cv2.INTER_LINEAR)
        glare.setflags(write=False)
    gain_u8.setflags(write=False)
    return gain_u8, glare


GAIN_ONE = 128.0


@lru_cache(maxsize=8)
def _noise_field(width: int, height: int, sigma: int) -> np.ndarray:
    """int16 Gaussian noise of ``sigma`` grey levels, with a margin to cut from."""
    rng = np.random.default_rng([0xD01CE, sigma])
    field = rng.standard_normal((height + 64, width + 64, 3), dtype=np.float32) * float(sigma)
    out = np.round(field).astype(np.int16)
    out.setflags(write=False)
    return out


def sensor_noise(width: int, height: int, sigma: float, seed: int) -> np.ndarray:
    """A view of Gaussian noise (H, W, 3) int16 of ``sigma`` rounded to whole grey levels; the
    seed picks where it is cut from."""
    field = _noise_field(width, height, max(1, round(sigma)))
    ox, oy = (seed * 7919) % 64, (seed * 104729 // 64) % 64
    return field[oy : oy + height, ox : ox + width]


def motion_kernel(length: float, angle_deg: float) -> np.ndarray:
    k = math.ceil(length) | 1
    ker = np.zeros((k, k), np.float32)
    c = k // 2
    a = math.radians(angle_deg)
    dx, dy = math.cos(a) * length / 2, math.sin(a) * length / 2
    cv2.line(
        ker,
        (round((c - dx) * 16), round((c - dy) * 16)),
        (round((c + dx) * 16), round((c + dy) * 16)),
        1.0,
        1,
        cv2.LINE_AA,
        4,
    )
    s = ker.sum()
    if s <= 0:
        ker[c, c] = 1
        s = 1
    return ker / s


def apply_light_and_noise(img: np.ndarray, light: LightSpec, noise: float, seed: int) -> np.ndarray:
    """uint8 image -> lit, noisy uint8 image (saturating, all in integer arithmetic)."""
    h, w = img.shape[:2]
    gain, glare = light_maps(light, w, h)
    out = cv2.multiply(img, gain, scale=1.0 / GAIN_ONE)
    if glare is not None:
        cv2.add(out, glare, dst=out)
    if noise > 0:
        out = cv2.add(out, sensor_noise(w, h, noise, seed), dtype=cv2.CV_8U)
    return out


def jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:  # pragma: no cover - OpenCV always encodes a valid BGR image
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)
