"""A moving arm's shadow (a band darker than the table and cards beside the arm, which the hand
mask leaves out) is not searched while the hand is there: a frame where hands land on cards does
not wait for a search of the cards beside them. What is not a shadow is searched as before."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision._frames import EDGE_POINTS, marked_card, with_arm
from tests.vision._pipeline_helpers import CountingFinder, visible_quads
from vision.observation import CardState
from vision.pipeline import PipelineConfig, TablePipeline

TIPS = [(1040, 230), (990, 240), (940, 250), (900, 255), (870, 260)]
"""An arm from the right edge coming in over the right column of cards."""


def _with_shadow(frame: np.ndarray, tip: tuple[float, float], dark: int = 40) -> np.ndarray:
    """The arm from the right edge to ``tip``, and its shadow: a band 80 px wide beside it (its
    middle 95 px below the arm's), over the table and the cards, ``dark`` grey levels darker."""
    out = frame.copy()
    h, w = out.shape[:2]
    start = EDGE_POINTS["right"](w, h, tip[0], tip[1])
    band = np.zeros((h, w), np.uint8)
    off = 95
    cv2.line(band, (int(start[0]), int(start[1]) + off), (int(tip[0]), int(tip[1]) + off), 255, 80)
    cv2.circle(band, (int(tip[0]), int(tip[1]) + off), 40, 255, -1)
    out = np.where(band[..., None] > 0, cv2.subtract(out, np.full_like(out, dark)), out)
    return with_arm(out, "right", tip)


@pytest.mark.parametrize("defer_s", [1.0, 0.0])
def test_a_moving_arms_shadow_over_cards_is_not_searched(table: np.ndarray, defer_s: float) -> None:
    finder = CountingFinder()
    pipe = TablePipeline(find=finder, config=PipelineConfig(hand_defer_s=defer_s))
    first = visible_quads(pipe.process(table, 0.0))
    finder.calls.clear()
    for k, tip in enumerate(TIPS):
        obs = pipe.process(_with_shadow(table, tip), 0.1 * (k + 1))
        assert [h.seat for h in obs.hands] == ["right"]
        # the cards the shadow lies over are in sight as they were
        shaded = {c.track_id for c in obs.cards if c.state is CardState.VISIBLE}
        assert shaded >= {tid for tid in first if not any(tid in h.covers for h in obs.hands)}
    if defer_s > 0:
        assert finder.searched(1280, 720) == 0
    else:  # (searched at once, the cards it touches with it: as before the rule)
        assert finder.searched(1280, 720) > 0.1 * 1280 * 720
    back = pipe.process(table, 1.0)
    assert visible_quads(back).keys() == first.keys()


def test_a_card_laid_beside_the_hand_is_searched_at_once(table: np.ndarray) -> None:
    """A change beside the hand that is not only darker (a card laid down, in the shadow) is no
    shadow: it is searched in the frame it shows, and the card is in sight from the next one (a
    new card is confirmed by a second sighting)."""
    finder = CountingFinder()
    pipe = TablePipeline(find=finder)
    first = visible_quads(pipe.process(table, 0.0))
    pipe.process(_with_shadow(table, TIPS[0]), 0.1)
    laid = table.copy()
    laid[400:520, 1120:1200] = marked_card("disc")
    finder.calls.clear()
    pipe.process(_with_shadow(laid, TIPS[1]), 0.2)
    assert any(
        r is None or (r[0] <= 1120 and r[1] <= 400 and r[0] + r[2] >= 1200 and r[1] + r[3] >= 520)
        for r in finder.calls
    )
    obs = pipe.process(_with_shadow(laid, TIPS[2]), 0.3)
    new = [c for c in obs.cards if c.track_id not in first and c.state is CardState.VISIBLE]
    assert len(new) == 1
    assert np.abs(new[0].quad.mean(axis=0) - [1160, 460]).max() < 10


def test_a_shadow_is_searched_once_it_has_waited_hand_defer_s(table: np.ndarray) -> None:
    finder = CountingFinder()
    pipe = TablePipeline(find=finder, config=PipelineConfig(hand_defer_s=0.25))
    pipe.process(table, 0.0)
    finder.calls.clear()
    searched = []
    for k, tip in enumerate(TIPS):
        pipe.process(_with_shadow(table, tip), 0.1 * (k + 1))
        searched.append(len(finder.calls) > 0)
    # left 0.1, 0.2 s after its first frame; searched from 0.3 s on (the band overlaps itself)
    assert searched[:3] == [False, False, False]
    assert any(searched[3:])
