"""Helpers shared by the pipeline's tests: a finder that records what it is asked to search, and
the demo scenario's hand covers scored over a window with the true card quads."""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.cards import find_cards
from vision.cards.finder import CardDetection
from vision.observation import CardState
from vision.pipeline import TablePipeline
from web.bench.cards import _ScenarioScore, _TruthFinder


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


def truth_quads_window(
    start: float, end: float, fps: float = 10.0, resting_only: bool = False
) -> _ScenarioScore:
    """The rendered Twin It demo scenario (seed 0) from ``start`` to ``end`` through a pipeline
    fed the true card quads (tracking and hands alone), scored as the cards bench scores it.
    ``resting_only`` scores only the frames where every hand in sight lies on the table (every
    frame still goes through the pipeline)."""
    from vision.render.scenario import twinit_demo_scenario

    finder = _TruthFinder()
    pipe = TablePipeline(find=finder)
    score = _ScenarioScore()
    scenario = twinit_demo_scenario(0)
    for t, image, truth in scenario.frames(fps=fps, start=start, end=end):
        finder.truth = truth
        obs = pipe.process(image, t)
        if not resting_only or all(h.height_mm <= 0.5 for h in scenario.spec_at(t).hands):
            score.add(obs, truth)
    return score
