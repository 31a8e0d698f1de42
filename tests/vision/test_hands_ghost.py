"""Cards slid away beside a hand (the Twin It demo's cooperative stack, seed 0: two hands hover
over the middle of the table while every card slides in under them): the places the cards
left show the bare table, which the table memory still remembers with cards. Those places are
not the hand, and the tracks left there are not "covered" by it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision.cards.finder import CardDetection
from vision.cards.geometry import quad_iou
from vision.pipeline import TablePipeline


class TruthFinder:
    """Returns the rendered frame's true quads (cards at least 80 % in sight): tracking and hands
    seen on their own."""

    truth: Any = None

    def __call__(self, image: np.ndarray, cfg: Any = None, roi: Any = None, **_: Any) -> list[CardDetection]:
        return [
            CardDetection(np.asarray(c.quad, np.float32), 1.0)
            for c in self.truth.cards
            if c.visible_fraction >= 0.8
        ]


@pytest.fixture(scope="module")
def stack() -> list[tuple[float, Any, Any]]:
    from vision.render.scenario import twinit_demo_scenario

    scenario = twinit_demo_scenario(0)
    finder = TruthFinder()
    pipe = TablePipeline(find=finder)
    out = []
    for t, image, truth in scenario.frames(fps=10.0, start=85.8, end=87.65):
        finder.truth = truth
        out.append((t, pipe.process(image, t), truth))
    return out


def test_the_places_cards_slid_away_from_are_not_the_hand(stack: list[tuple[float, Any, Any]]) -> None:
    for t, obs, truth in stack:
        mask = obs.hand_mask
        hit = int(np.count_nonzero(mask & truth.hand_mask))
        if t >= 86.45:  # (the hand in view a frame or two: the mask has it)
            assert hit >= 0.98 * np.count_nonzero(truth.hand_mask), f"hand missed at {t:.1f}"
        if t >= 87.45:  # most cards have slid in: before, a fifth of the mask was their places
            assert hit >= 0.9 * np.count_nonzero(mask), f"mask precision at {t:.1f}"


def test_no_track_is_covered_where_no_card_lies(stack: list[tuple[float, Any, Any]]) -> None:
    false_covers = 0
    for _, obs, truth in stack[-4:]:
        for hand in obs.hands:
            for tid in hand.covers:
                card = obs.card(tid)
                assert card is not None
                if all(quad_iou(card.quad, c.quad) < 0.3 for c in truth.cards):
                    false_covers += 1
    assert false_covers <= 10  # 15 when the memory's ghosts were taken for the hand
