"""Rendered bench frames and how well the card finder fits their cards, for the finder's tests."""

from __future__ import annotations

import numpy as np

from vision.cards import FinderConfig, find_cards
from vision.cards.geometry import quad_iou
from vision.render.scene import render
from vision.render.scene_layout import random_scene


def bench_frame(seed: int, layout: str, deck: str) -> tuple[np.ndarray, list[np.ndarray]]:
    """A render-suite frame as the cards bench draws it, and the quads of its counted cards
    (>= 80 % visible)."""
    image, truth = render(random_scene(seed, layout=layout, deck=deck))
    return image, [c.quad for c in truth.cards if c.visible_fraction >= 0.8]


def best_ious(image: np.ndarray, counted: list[np.ndarray], cfg: FinderConfig) -> np.ndarray:
    """Each counted card's best IoU with a quad the finder returns under ``cfg``."""
    dets = find_cards(image, cfg)
    return np.array([max((quad_iou(d.quad, q) for d in dets), default=0.0) for q in counted])
