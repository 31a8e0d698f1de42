"""Table clutter: things that lie on a real table and are not cards (score pads, phones, coins,
pens, coasters). Some look like cards on purpose (a score pad is a light rectangle), so a card
finder's precision is tested. Textures are BGRA (alpha shapes round things), cached."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.render.faces_draw import rounded_rect_mask

PROP_KINDS: dict[str, tuple[float, float]] = {
    "pad": (100.0, 148.0),
    "phone": (72.0, 150.0),
    "coin": (24.0, 24.0),
    "pen": (140.0, 10.0),
    "coaster": (95.0, 95.0),
}
"""Kind -> (width, height) in mm."""
PROP_PX_PER_MM = 3.0


@lru_cache(maxsize=64)
def prop_texture(kind: str, seed: int) -> np.ndarray:
    """BGRA uint8 texture of a prop (read-only)."""
    if kind not in PROP_KINDS:
        raise ValueError(f"prop kind {kind!r}: expected one of {tuple(PROP_KINDS)}")
    rng = np.random.default_rng([0x940B, list(PROP_KINDS).index(kind), seed])
    w_mm, h_mm = PROP_KINDS[kind]
    w, h = round(w_mm * PROP_PX_PER_MM), round(h_mm * PROP_PX_PER_MM)
    img = np.zeros((h, w, 3), np.uint8)
    alpha = np.full((h, w), 255, np.uint8)
    if kind == "pad":
        img[:] = (235, 245, 250) if rng.random() < 0.6 else (150, 235, 250)
        for y in range(round(14 * PROP_PX_PER_MM), h, round(7 * PROP_PX_PER_MM)):
            cv2.line(img, (0, y), (w, y), (200, 170, 150), 1, cv2.LINE_AA)
        ink = (120, 40, 30) if rng.random() < 0.5 else (40, 40, 40)
        for _ in range(int(rng.integers(3, 9))):  # scribbled scores
            y = int(rng.integers(15, int(h_mm) - 10)) * PROP_PX_PER_MM
            x = float(rng.uniform(8, 40)) * PROP_PX_PER_MM
            pts = [
                (x + k * 4 * PROP_PX_PER_MM, y + float(rng.normal(0, 4)))
                for k in range(int(rng.integers(3, 10)))
            ]
            cv2.polylines(img, [np.round(pts).astype(np.int32)], False, ink, 2, cv2.LINE_AA)
        alpha = rounded_rect_mask(w, h, 1.0 * PROP_PX_PER_MM)
    elif kind == "phone":
        img[:] = (25, 25, 28)
        m = round(4 * PROP_PX_PER_MM)
        screen = np.linspace(60, 20, h - 2 * m, dtype=np.float32)[:, None, None] * np.ones((1, w - 2 * m, 3))
        img[m : h - m, m : w - m] = screen.astype(np.uint8)
        alpha = rounded_rect_mask(w, h, 9.0 * PROP_PX_PER_MM)
    elif kind == "coin":
        silver = rng.random() < 0.5
        base = np.array((190, 190, 185) if silver else (60, 160, 200), np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        shade = 1.0 + 0.25 * ((xx - yy) / w)
        img[:] = np.clip(base[None, None, :] * shade[..., None], 0, 255).astype(np.uint8)
        cv2.circle(img, (w // 2, h // 2), round(w * 0.38), tuple(int(c * 0.8) for c in base), 2, cv2.LINE_AA)
        alpha = np.zeros((h, w), np.uint8)
        cv2.circle(alpha, (w // 2, h // 2), w // 2 - 1, 255, -1, cv2.LINE_AA)
    elif kind == "pen":
        colour = tuple(int(c) for c in rng.integers(20, 230, 3))
        img[:] = colour
        img[: h // 3] = tuple(min(255, c + 50) for c in colour)
        img[:, : round(20 * PROP_PX_PER_MM)] = (200, 200, 205)
        alpha = rounded_rect_mask(w, h, h / 2 - 1)
    else:  # coaster: cork
        noise = rng.standard_normal((h, w)).astype(np.float32)
        noise = cv2.GaussianBlur(noise, (0, 0), 1.0)
        base = np.array((90, 140, 185), np.float32)
        img[:] = np.clip(base[None, None, :] * (1 + 0.12 * noise[..., None]), 0, 255).astype(np.uint8)
        alpha = np.zeros((h, w), np.uint8)
        cv2.circle(alpha, (w // 2, h // 2), w // 2 - 1, 255, -1, cv2.LINE_AA)
    pre = cv2.multiply(img, cv2.merge([alpha, alpha, alpha]), scale=1.0 / 255.0)
    tex = np.dstack([pre, alpha])  # premultiplied by alpha, as the compositor expects
    tex.setflags(write=False)
    return tex
