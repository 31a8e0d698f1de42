"""Procedural table textures (wood, felt, patterned cloth, glossy), cached per kind and seed.

A texture is a seamless tile of ``TILE_PX`` at ``TABLE_PX_PER_MM``, centred on the table origin;
the scene warps it into the image once per camera with ``BORDER_WRAP`` (the light maps add the
large-scale variation that a repeating tile lacks).
"""

from __future__ import annotations

from collections import OrderedDict

import cv2
import numpy as np

from vision.render.scene_types import TABLE_KINDS, TableSpec

TILE_PX = 512
TABLE_PX_PER_MM = 1.25
_CACHE: OrderedDict[tuple[str, int], np.ndarray] = OrderedDict()
_CACHE_SIZE = 32


def _periodic_resize(small: np.ndarray, w: int, h: int) -> np.ndarray:
    """Resize a grid as if it repeated forever: the result tiles without a seam."""
    _sh, _sw = small.shape[:2]
    big = cv2.resize(np.tile(small, (3, 3)), (3 * w, 3 * h), interpolation=cv2.INTER_CUBIC)
    return big[h : 2 * h, w : 2 * w].copy()


def _wrap_blur(img: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur that treats the tile as periodic."""
    pad = int(3 * sigma) + 1
    big = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_WRAP)
    return cv2.GaussianBlur(big, (0, 0), sigma)[pad:-pad, pad:-pad].copy()


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cell: int) -> np.ndarray:
    """Seamless value noise in about [-1, 1]: random values on a coarse grid, resized smoothly."""
    small = rng.standard_normal((max(2, h // cell), max(2, w // cell))).astype(np.float32)
    return _periodic_resize(small, w, h)


def _wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array(
        [(60, 105, 160), (40, 75, 120), (90, 140, 190), (35, 55, 85), (110, 160, 200)][int(rng.integers(5))],
        np.float32,
    )
    # grain along x: noise stretched along the planks, then turned into rings
    stretch = rng.standard_normal((h // 3, 8)).astype(np.float32)
    grain = _periodic_resize(stretch, w, h)
    warp = _smooth_noise(rng, h, w, 160) * 6
    rings = np.sin(
        (np.arange(h, dtype=np.float32)[:, None] * (2 * np.pi * int(rng.integers(40, 90)) / h)) + warp
    )
    v = 0.55 * grain + 0.25 * rings + 0.15 * _smooth_noise(rng, h, w, 40)
    img = base[None, None, :] * (1 + 0.12 * v[..., None])
    plank = h // int(rng.integers(2, 5))
    offset = int(rng.integers(plank))
    for y in range(offset, h, plank):
        img[y : y + 2] *= 0.55
    return img


def _felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    colours = [(50, 110, 30), (110, 60, 20), (40, 40, 130), (70, 70, 70), (100, 100, 30), (30, 30, 30)]
    base = np.array(colours[int(rng.integers(len(colours)))], np.float32)
    fine = rng.standard_normal((h, w)).astype(np.float32)
    fine = _wrap_blur(fine, 0.8)
    v = 0.5 * fine + 0.4 * _smooth_noise(rng, h, w, 90)
    return base[None, None, :] * (1 + 0.1 * v[..., None])


def _cloth(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    palette = np.array(
        [(235, 235, 235), (60, 60, 190), (190, 120, 50), (60, 150, 60), (60, 190, 230), (120, 60, 120)],
        np.float32,
    )
    a, b = palette[rng.choice(len(palette), 2, replace=False)]
    period = w // int(rng.integers(9, 26))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    kind = int(rng.integers(3))
    if kind == 0:  # gingham checks
        m = (((xx // period) % 2) + ((yy // period) % 2)) / 2.0
    elif kind == 1:  # stripes
        m = ((xx + yy) // period) % 2
    else:  # polka dots
        r = period * 0.3
        m = (((xx % period) - period / 2) ** 2 + ((yy % period) - period / 2) ** 2 < r * r).astype(np.float32)
    m = _wrap_blur(m.astype(np.float32), 0.8)
    img = a[None, None, :] * (1 - m[..., None]) + b[None, None, :] * m[..., None]
    weave = np.sin(xx * (2 * np.pi * 160 / w)) * np.sin(
        yy * (2 * np.pi * 160 / h)
    ) * 0.04 + 0.05 * _smooth_noise(rng, h, w, 120)
    return img * (1 + weave[..., None])


def _glossy(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    colours = [(245, 245, 245), (25, 25, 25), (200, 210, 215), (40, 50, 70), (225, 225, 205)]
    base = np.array(colours[int(rng.integers(len(colours)))], np.float32)
    v = 0.3 * _smooth_noise(rng, h, w, 300) + 0.05 * rng.standard_normal((h, w)).astype(np.float32)
    return base[None, None, :] * (1 + 0.05 * v[..., None]) + 6 * v[..., None]


def table_texture(spec: TableSpec) -> np.ndarray:
    """BGR uint8 texture of the table (read-only, cached)."""
    key = (spec.kind, spec.seed)
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    if spec.kind not in TABLE_KINDS:
        raise ValueError(f"table kind {spec.kind!r}: expected one of {TABLE_KINDS}")
    w = h = TILE_PX
    rng = np.random.default_rng([0x7AB1E, TABLE_KINDS.index(spec.kind), spec.seed])
    make = {"wood": _wood, "felt": _felt, "cloth": _cloth, "glossy": _glossy}[spec.kind]
    img = np.clip(make(rng, h, w), 0, 255).astype(np.uint8)
    img.setflags(write=False)
    _CACHE[key] = img
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return img


def texture_to_table() -> np.ndarray:
    """3x3: table texture px -> table mm (the tile's centre at the origin)."""
    s = 1.0 / TABLE_PX_PER_MM
    return np.array([[s, 0, -TILE_PX * s / 2], [0, s, -TILE_PX * s / 2], [0, 0, 1]], np.float64)
