"""A hand's shadow is not the hand: the cards a shadow falls on are not covered, and an arm that
only dims the table (a grey sleeve on a grey cloth) is still a hand."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision._frames import EDGE_POINTS, table_frame
from tests.vision._pipeline_helpers import truth_quads_window
from vision.hands import HandTracker
from vision.observation import Seat


def test_cards_beside_a_resting_hand_in_its_shadow_are_not_covered() -> None:
    """The rendered Twin It scenario, 63.6 s to 65.8 s: two hands slap and rest by a card they
    leave over half visible, their shadows over it. With the true card quads (tracking and hands
    alone), every card the hands report covered while they rest is truly under them, and none is
    missed. (The frames of the hands in the air, coming and going, are not scored: there a card
    the sweeping hand hides 44-49 % of, under the truth's half, may be reported covered.)"""
    score = truth_quads_window(63.6, 65.8, resting_only=True)
    assert score.tp >= 48
    assert (score.fp_card, score.fp_no_card) == (0, 0)
    assert score.fn == 0


def test_the_shadow_beside_an_arm_is_not_the_hand() -> None:
    """An arm from the left with its shadow cast a little below it (the table dimmed evenly, a
    band 16 pixels wide): the mask is the arm, not its shadow."""
    table = table_frame()
    h, w = table.shape[:2]
    tip = (640, 330)
    start = EDGE_POINTS["left"](w, h, *tip)

    def arm_at(dx: int, dy: int) -> np.ndarray:
        m = np.zeros((h, w), np.uint8)
        a, b = (int(start[0]) + dx, int(start[1]) + dy), (tip[0] + dx, tip[1] + dy)
        cv2.line(m, a, b, 255, 90)
        cv2.circle(m, b, 85, 255, -1)
        return m > 0

    arm, shadow = arm_at(0, 0), arm_at(0, 16) & ~arm_at(0, 0)
    frame = table.copy()
    frame[shadow] = (table[shadow] * 0.55).astype(np.uint8)
    frame[arm] = (150, 60, 40)
    tracker = HandTracker()
    tracker.update(table, 0.0, {}, [])
    under = np.float32([[600, 300], [680, 300], [680, 360], [600, 360]])
    res = tracker.update(frame, 0.1, {2: under}, [])
    assert [hand.seat for hand in res.hands] == [Seat.LEFT]
    assert res.hands[0].covers == (2,)
    assert np.count_nonzero(res.mask & arm) >= 0.9 * np.count_nonzero(arm)
    assert np.count_nonzero(res.mask & shadow) <= 0.2 * np.count_nonzero(shadow)
