"""A small seeded card face with coloured squares, for the augmentation tests."""

from __future__ import annotations

import numpy as np


def squares_face() -> np.ndarray:
    """A 160 x 160 pale face with twelve seeded coloured squares (the same every call)."""
    rng = np.random.default_rng(0)
    face = np.full((160, 160, 3), 235, np.uint8)
    for _ in range(12):
        x, y = (int(v) for v in rng.integers(10, 140, size=2))
        face[y : y + 14, x : x + 14] = rng.integers(0, 200, size=3)
    return face
