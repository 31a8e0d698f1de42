"""A card first found while it flew (half under another card) that stops where no search comes takes its clean
view once it lies still, so that the next search of its place knows it (rendered Twin It table of
the demo scenario; the cooperative minute's spread: cards fly out of the stack)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.cards.finder import CardDetection
from vision.cards.geometry import quad_iou
from vision.cards.rectify import rectify
from vision.observation import CardState
from vision.render.scenario import twinit_demo_scenario
from vision.tracking import CardTracker, signature, signature_distance


def _with_card(image: np.ndarray, card: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The image with ``card`` (a rectified crop) laid at ``quad``."""
    h, w = card.shape[:2]
    src = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    size = (image.shape[1], image.shape[0])
    inside = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, size) > 0
    out = image.copy()
    out[inside] = cv2.warpPerspective(card, m, size)[inside]
    return out


@pytest.fixture(scope="module")
def table() -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """The demo scenario's table at 30 s: its image and its wholly visible cards' true quads."""
    image, truth = twinit_demo_scenario(0).render_at(30.0)
    quads = {c.card_id: np.asarray(c.quad, np.float32) for c in truth.cards if c.visible_fraction >= 0.99}
    return image, quads


def test_card_found_flying_takes_its_view_once_still(table: tuple[np.ndarray, dict[int, np.ndarray]]) -> None:
    image, quads = table
    target = quads[5]
    # Flying out of a stack: another card still lies over most of it.
    flying = _with_card(image, rectify(image, quads[max(quads)]), target + 0.3 * (target[1] - target[0]))
    tracker = CardTracker()
    # First found flying, then found again 20 px further on: moving.
    tracker.update([CardDetection(target - np.float32([20.0, 0.0]), 1.0)], 0.0, flying)
    track = tracker.tracks[0]
    tracker.update([CardDetection(target, 1.0)], 0.1, flying)
    assert track.state is CardState.VISIBLE and not track.tentative
    assert track.signature is not None
    sharp = signature(rectify(image, target))
    # (its look is the one it flew with: plainly another card's, to the quick look of a card in place)
    assert signature_distance(sharp, track.signature) > tracker.cfg.other_look * tracker.cfg.look_threshold
    # It stopped there; the next frame changes elsewhere only (its place is not searched).
    tracker.update([], 0.2, image, (0, 0, 60, 60))
    assert track.signature is not None
    assert signature_distance(sharp, track.signature) <= tracker.cfg.look_threshold
    # The next search of its place finds it as it is: the same card, alone there.
    tracker.update([CardDetection(target, 1.0)], 0.3, image)
    assert track.state is CardState.VISIBLE
    assert [t for t in tracker.tracks if quad_iou(t.quad, target) >= 0.5] == [track]
