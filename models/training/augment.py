"""A card face as the card finder would hand it over: a rectified crop from a camera frame.

The face is set on a table, seen at low resolution, rectified from slightly wrong corners (residual
perspective, a few degrees of rotation, table showing at the edges), under uneven light, shadow,
glare, another white balance, blur, noise and JPEG. All randomness comes from the given generator.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np


@dataclass(frozen=True)
class AugmentConfig:
    min_px: int = 44
    """Shortest crop side range in px (the card's size in the camera frame)."""
    max_px: int = 120
    corner_jitter: float = 0.035
    """Corner error of the card finder, share of the card side."""
    corner_bank: str = ""
    """Where set: the name of a file of the card finder's measured corner errors (:func:`corner_bank`),
    used in place of ``corner_jitter`` and the residual rotation: each crop takes one measured card's
    four corner errors (so one crop is off the way the finder's crops are: most by a fraction of a
    pixel, a few by a tenth of the card). The row is picked by the crop's own corner-error draw, so the
    generator's stream, and every other effect of this and later crops, is unchanged."""
    max_rotation_deg: float = 5.0
    light: float = 1.0
    """Strength of light effects (0: none)."""
    wb_sigma: float = 0.1
    """Spread of the per-channel white-balance gains (log scale, times ``light``)."""
    shadow_p: float = 0.35
    """Probability of a soft shadow edge (times ``light``)."""
    shadow_depth: tuple[float, float] = (0.2, 0.5)
    """Range of the share of light a shadow takes away."""
    shadow_band_p: float = 0.0
    """Probability of a shadow band (an arm or a pen across the card: two soft edges), times ``light``."""
    blur_p: float = 0.3
    """Probability of focus blur (motion blur follows with probability 0.1)."""
    max_blur: float = 1.3
    """Largest focus-blur sigma in px of the crop."""


DEFAULT_AUG = AugmentConfig()

EFFECTS = (
    "jitter",
    "rotation",
    "camera_blur",
    "white_balance",
    "exposure",
    "gradient",
    "shadow",
    "glare",
    "blur",
    "noise",
    "jpeg",
)
"""What :func:`camera_crop` can be asked to leave out (``off``) while it draws every number as usual, so
the crop's other effects stay exactly as they were: the finder's corner error, its residual rotation,
the camera's blur before rectification, the white balance's per-channel gains, the exposure, the light
gradient, the shadow edge (and band), the glare spot, focus or motion blur, noise, JPEG."""

BANK_DIR = Path(__file__).resolve().parent
"""Where corner banks (:attr:`AugmentConfig.corner_bank`) lie."""


@lru_cache(maxsize=4)
def corner_bank(name: str) -> np.ndarray:
    """The card finder's measured corner errors in ``BANK_DIR / name`` (JSON: ``{"rows": [[x0, y0, x1,
    y1, x2, y2, x3, y3], ...]}``, one card each: its top-left, top-right, bottom-right and bottom-left
    corners' displacement in the card's own frame, in shares of its short side), (n, 4, 2) float64."""
    rows = np.asarray(json.loads((BANK_DIR / name).read_text(encoding="utf-8"))["rows"], np.float64)
    if rows.ndim != 2 or rows.shape[1] != 8 or len(rows) == 0:
        raise ValueError(f"{BANK_DIR / name}: expected rows of 8 numbers")
    return rows.reshape(-1, 4, 2)


def bank_source(name: str) -> dict:
    """Where bank ``name`` came from (its ``source``: the card finder's code fingerprint and commit, the
    scenes' seed and counts, the IoU it kept), with its number of cards."""
    data = json.loads((BANK_DIR / name).read_text(encoding="utf-8"))
    return {"file": name, "cards": len(data["rows"]), **data.get("source", {})}


def _bank_row(name: str, z: float) -> np.ndarray:
    """The row of bank ``name`` at the standard normal draw ``z``'s quantile (a uniform pick)."""
    bank = corner_bank(name)
    u = 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))
    return bank[min(int(u * len(bank)), len(bank) - 1)]


_TABLES: dict[int, tuple[np.random.Generator, list[np.ndarray]]] = {}
"""Table textures drawn by each generator (its first 24 calls draw one each, later calls reuse them).
The generator is kept with them, so its id is never reused by another generator."""


def _table(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A piece of table (plain cloth or wood stripes, with grain) of (h, w), float32."""
    tables = _TABLES.setdefault(id(rng), (rng, []))[1]
    if len(tables) < 24:
        t = np.empty((256, 256, 3), np.float32)
        t[:] = rng.integers(20, 200, size=3).astype(np.float32)
        if rng.random() < 0.5:
            phase = np.linspace(0, rng.uniform(4, 20), 256, dtype=np.float32)
            t *= (0.85 + 0.15 * np.sin(phase))[None, :, None]
        t += rng.normal(0, 6, size=(256, 256, 1)).astype(np.float32)
        tables.append(t)
    t = tables[int(rng.integers(len(tables)))]
    if h > 256 or w > 256:
        return cv2.resize(t, (w, h), interpolation=cv2.INTER_LINEAR)
    y, x = int(rng.integers(257 - h)), int(rng.integers(257 - w))
    return t[y : y + h, x : x + w].copy()


def camera_crop(
    face: np.ndarray,
    rng: np.random.Generator,
    cfg: AugmentConfig = DEFAULT_AUG,
    off: frozenset[str] = frozenset(),
) -> np.ndarray:
    """A rectified camera crop of ``face`` (BGR uint8, upright), BGR uint8, same orientation. ``off``:
    effects (:data:`EFFECTS`) left out, every number still drawn (the same generator's other effects and
    later crops unchanged)."""
    unknown = set(off) - set(EFFECTS)
    if unknown:
        raise ValueError(f"camera_crop: unknown effects {sorted(unknown)} (known: {', '.join(EFFECTS)})")
    target = rng.uniform(cfg.min_px, cfg.max_px)
    # Work at about 1.5 x the crop's resolution: the face as the camera sees it, on the table.
    pre = min(1.0, 1.5 * target / min(face.shape[:2]))
    if pre < 1.0:
        face = cv2.resize(face, None, fx=pre, fy=pre, interpolation=cv2.INTER_AREA)
    fh, fw = face.shape[:2]
    pad = int(0.2 * max(fh, fw))
    canvas = _table(rng, fh + 2 * pad, fw + 2 * pad)
    # Rounded corners of the physical card show the table.
    mask = np.zeros((fh, fw), np.uint8)
    r = max(1, int(0.06 * min(fh, fw)))
    cv2.rectangle(mask, (r, 0), (fw - 1 - r, fh - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (fw - 1, fh - 1 - r), 255, -1)
    for cx, cy in ((r, r), (fw - 1 - r, r), (fw - 1 - r, fh - 1 - r), (r, fh - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    region = canvas[pad : pad + fh, pad : pad + fw]
    m = (mask > 0)[:, :, None]
    region[:] = np.where(m, face.astype(np.float32), region)

    scale = target / min(fh, fw)
    out_w, out_h = max(8, round(fw * scale)), max(8, round(fh * scale))
    corners = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float64)
    centre = corners.mean(axis=0)
    ang = np.radians(rng.uniform(-cfg.max_rotation_deg, cfg.max_rotation_deg))
    if "rotation" in off:
        ang = 0.0
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    src = (corners - centre) @ rot.T + centre
    drawn = rng.normal(0, cfg.corner_jitter, size=(4, 2))
    jitter = np.clip(drawn, -2.5 * cfg.corner_jitter, 2.5 * cfg.corner_jitter)
    if cfg.corner_bank:
        jitter = _bank_row(cfg.corner_bank, float(drawn[0, 0]) / max(cfg.corner_jitter, 1e-12))
        src = corners.copy()  # the measured errors are the finder's whole error, its rotation included
    if "jitter" not in off:
        src += jitter * min(fh, fw)
    src += pad
    dst = np.array([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]], np.float64)
    # Camera blur at the card's resolution, then the rectification.
    blur_sigma = rng.uniform(0.0, 0.7) / scale
    blurred = blur_sigma > 0.3 and "camera_blur" not in off
    src_img = cv2.GaussianBlur(canvas, (0, 0), blur_sigma) if blurred else canvas
    hom = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    crop = cv2.warpPerspective(
        src_img, hom, (out_w, out_h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    return _light(crop, rng, cfg, off)


def _light(
    img: np.ndarray, rng: np.random.Generator, cfg: AugmentConfig, off: frozenset[str] = frozenset()
) -> np.ndarray:
    h, w = img.shape[:2]
    xx = (np.arange(w, dtype=np.float32) / np.float32(w))[None, :]
    yy = (np.arange(h, dtype=np.float32) / np.float32(h))[:, None]
    s = cfg.light
    # White balance and exposure.
    balance = np.exp(rng.normal(0, cfg.wb_sigma * s, size=3)).astype(np.float32)
    exposure = np.float32(np.exp(rng.normal(0, 0.15 * s)))
    if "white_balance" in off:
        balance = np.ones(3, np.float32)
    if "exposure" in off:
        exposure = np.float32(1.0)
    gains = balance * exposure
    # Smooth light gradient.
    gx, gy = (np.float32(v) for v in rng.normal(0, 0.18 * s, size=2))
    if "gradient" in off:
        gx = gy = np.float32(0.0)
    field = 1.0 + gx * (xx - 0.5) + gy * (yy - 0.5)
    # A soft shadow edge.
    if rng.random() < cfg.shadow_p * s:
        a = rng.uniform(0, 2 * np.pi)
        d = (
            np.float32(np.cos(a)) * (xx - 0.5)
            + np.float32(np.sin(a)) * (yy - 0.5)
            - np.float32(rng.uniform(-0.3, 0.3))
        )
        depth = np.float32(rng.uniform(*cfg.shadow_depth))
        shadow = 1.0 - depth / (1.0 + np.exp(-d * np.float32(rng.uniform(10, 40))))
        if "shadow" not in off:
            field = field * shadow
    if cfg.shadow_band_p > 0 and rng.random() < cfg.shadow_band_p * s:
        band = _shadow_band(xx, yy, rng, cfg.shadow_depth)
        if "shadow" not in off:
            field = field * band
    img = img * field[:, :, None].astype(np.float32) * gains[None, None, :]
    # A glare spot.
    if rng.random() < 0.35 * s:
        cx, cy = (np.float32(v) for v in rng.uniform(0.1, 0.9, size=2))
        sig = np.float32(rng.uniform(0.04, 0.12))
        spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sig * sig))
        glare = np.float32(rng.uniform(30, 100)) * spot[:, :, None]
        if "glare" not in off:
            img += glare
    # Blur: focus or motion.
    k = rng.random()
    if k < cfg.blur_p:
        sigma = rng.uniform(0.4, cfg.max_blur)
        if "blur" not in off:
            img = cv2.GaussianBlur(img, (0, 0), sigma)
    elif k < cfg.blur_p + 0.1:
        n = int(rng.integers(3, 6))
        kernel = np.zeros((n, n), np.float32)
        kernel[n // 2, :] = 1.0 / n
        m = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, m, (n, n))
        if "blur" not in off:
            img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    noise = rng.standard_normal(size=img.shape, dtype=np.float32) * np.float32(rng.uniform(0, 6 * s))
    if "noise" not in off:
        img += noise
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        q = int(rng.integers(40, 96))
        if "jpeg" in off:
            return out
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def _shadow_band(
    xx: np.ndarray, yy: np.ndarray, rng: np.random.Generator, depth_range: tuple[float, float]
) -> np.ndarray:
    """A light field with a soft shadow band across it (the shadow of an arm or a pen)."""
    a = rng.uniform(0, np.pi)
    d = (
        np.float32(np.cos(a)) * (xx - 0.5)
        + np.float32(np.sin(a)) * (yy - 0.5)
        - np.float32(rng.uniform(-0.4, 0.4))
    )
    half = np.float32(rng.uniform(0.05, 0.25))
    soft = np.float32(rng.uniform(15, 50))
    inside = 1.0 / (1.0 + np.exp((np.abs(d) - half) * soft))
    return 1.0 - np.float32(rng.uniform(*depth_range)) * inside
