"""A card that still shows its look where it lay did not move: a detection near it, not on it (a
finder's quad half over a hand landing beside it), does not take its track away. A card that did
move (its place bare) is still followed to the nearest detection."""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.finder import CardDetection
from vision.observation import CardState
from vision.tracking import CardTracker


def _face() -> np.ndarray:
    """A 120 x 80 white card with a large dark disc near the top."""
    card = np.full((120, 80, 3), 235, np.uint8)
    cv2.circle(card, (30, 36), 24, (30, 30, 30), -1)
    return card


def _quad(x: float, y: float) -> np.ndarray:
    return np.float32([[x, y], [x + 79, y], [x + 79, y + 119], [x, y + 119]])


def _frame(x: int, y: int) -> np.ndarray:
    frame = np.full((480, 640, 3), 60, np.uint8)
    frame[y : y + 120, x : x + 80] = _face()
    return frame


def test_a_card_in_sight_where_it_lay_keeps_its_place_against_a_quad_beside_it() -> None:
    tracker = CardTracker()
    frame = _frame(100, 60)
    tracker.update([CardDetection(_quad(100, 60), 1.0)], 0.0, frame)
    # The finder misses the card and gives a quad over its lower edge and the table below it.
    tracker.update([CardDetection(_quad(100, 155), 0.8)], 0.1, frame)
    card = tracker.tracks[0]
    assert card.track_id == 1
    assert np.abs(card.quad - _quad(100, 60)).max() < 1.0
    assert card.state is CardState.COVERED
    assert [t.track_id for t in tracker.tracks] == [1, 2]


def test_a_card_that_moved_off_its_place_is_followed_to_the_nearest_detection() -> None:
    tracker = CardTracker()
    tracker.update([CardDetection(_quad(100, 60), 1.0)], 0.0, _frame(100, 60))
    # Slid 95 px down, blurred (its look no help): its place shows the bare table.
    moved = cv2.GaussianBlur(_frame(100, 155), (15, 15), 0)
    tracker.update([CardDetection(_quad(100, 155), 0.8)], 0.1, moved)
    assert [t.track_id for t in tracker.tracks] == [1]
    assert np.abs(tracker.tracks[0].quad - _quad(100, 155)).max() < 1.0
    assert tracker.tracks[0].state is CardState.VISIBLE
