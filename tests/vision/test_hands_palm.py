"""A palm lying flat on a card of its own colour (a pale hand on a cream card) differs from the
table memory nowhere over the card: the hand's mask closes round it, and the hole it leaves is
the hand's too. A region the mask does not close, or one far larger than a card, is not."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision._frames import with_arm
from vision.hands import HandTracker, quad_coverage

CREAM = (205, 225, 240)


def _table() -> tuple[np.ndarray, np.ndarray]:
    """A dark table with one cream card (a small dark mark on it) in the lower middle."""
    frame = np.full((720, 1280, 3), 28, np.uint8)
    frame[420:540, 600:680] = CREAM
    cv2.circle(frame, (640, 480), 6, (40, 90, 30), -1)
    return frame, np.float32([[600, 420], [679, 420], [679, 539], [600, 539]])


def _learned(frame: np.ndarray, quad: np.ndarray) -> HandTracker:
    tracker = HandTracker()
    for k in range(3):
        tracker.update(frame, 0.1 * k, {1: quad}, [quad])
    return tracker


def test_a_palm_of_the_cards_colour_lying_on_it_covers_it() -> None:
    frame, quad = _table()
    tracker = _learned(frame, quad)
    res = tracker.update(with_arm(frame, "bottom", (640, 480), colour=CREAM), 0.3, {1: quad}, [])
    assert len(res.hands) == 1
    assert quad_coverage(res.low_mask, quad, res.scale) > 0.95
    assert res.hands[0].covers == (1,)
    assert [(e.kind, e.track_id) for e in res.events] == [("covered", 1)]


def test_a_card_in_a_bay_of_the_arm_open_to_the_border_is_not_covered() -> None:
    frame, quad = _table()
    tracker = _learned(frame, quad)
    arm = frame.copy()
    for a, b in (((520, 760), (520, 330)), ((760, 760), (760, 330)), ((520, 330), (760, 330))):
        cv2.line(arm, a, b, (60, 80, 170), 60)
    res = tracker.update(arm, 0.3, {1: quad}, [])
    assert len(res.hands) == 1
    assert quad_coverage(res.low_mask, quad, res.scale) < 0.05
    assert res.hands[0].covers == ()


def test_a_hand_closing_round_more_than_a_card_leaves_the_card_in_sight() -> None:
    frame, quad = _table()
    tracker = _learned(frame, quad)
    arm = frame.copy()
    for a, b in (
        ((480, 760), (480, 330)),
        ((480, 330), (800, 330)),
        ((800, 330), (800, 640)),
        ((800, 640), (480, 640)),
    ):
        cv2.line(arm, a, b, (60, 80, 170), 60)
    res = tracker.update(arm, 0.3, {1: quad}, [])
    assert len(res.hands) == 1
    assert quad_coverage(res.low_mask, quad, res.scale) < 0.05
    assert res.hands[0].covers == ()
