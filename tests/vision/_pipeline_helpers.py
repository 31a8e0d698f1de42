"""Helpers shared by the pipeline's tests: a finder that records what it is asked to search."""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.cards import find_cards
from vision.cards.finder import CardDetection
from vision.observation import CardState


class CountingFinder:
    """The real finder, keeping the regions it is asked to search."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int, int, int] | None] = []

    def __call__(self, image: np.ndarray, *args: Any, roi: Any = None, **kw: Any) -> list[CardDetection]:
        self.calls.append(roi)
        return find_cards(image, *args, roi=roi, **kw)

    def searched(self, width: int, height: int) -> int:
        """Pixels searched over every call (a call without a region searched the whole frame)."""
        return sum(width * height if r is None else r[2] * r[3] for r in self.calls)


def visible_quads(obs: Any) -> dict[int, np.ndarray]:
    """Each visible card's quad in an observation, by track id."""
    return {c.track_id: c.quad for c in obs.cards if c.state is CardState.VISIBLE}
