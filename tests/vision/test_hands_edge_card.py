"""A card put down at the image edge (partly out of sight) is no hand once the arm has left it,
while an arm held still is still a hand."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision._frames import with_arm
from vision.hands import HandTracker


def _with_edge_card(table: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The table with the card of ``quad`` copied upright at the right edge, a third of it out of
    the image; and its visible place (bool mask)."""
    (_, _), (cw, ch), _ = cv2.minAreaRect(np.asarray(quad, np.float32))
    cw, ch = int(min(cw, ch)), int(max(cw, ch))
    h, w = table.shape[:2]
    x0, y0 = w - (2 * cw) // 3, h // 2 - ch // 2
    src = np.asarray(quad, np.float32)
    dst = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    m = cv2.getPerspectiveTransform(src, dst)
    # (Corner order may turn the card; whatever its turn, it is a card's face.)
    card = cv2.warpPerspective(table, m, (cw, ch))
    out = table.copy()
    out[y0 : y0 + ch, x0:w] = card[:, : w - x0]
    place = np.zeros((h, w), bool)
    place[y0 : y0 + ch, x0:w] = True
    return out, place


def test_a_card_left_at_the_image_edge_is_not_a_hand(table: np.ndarray, quads: dict[int, np.ndarray]) -> None:
    tracker = HandTracker()
    tracker.update(table, 0.0, quads, list(quads.values()))
    sides = {i: max(cv2.minAreaRect(np.asarray(q, np.float32))[1]) for i, q in quads.items()}
    typical = min(sides, key=lambda i: abs(sides[i] - float(np.median(list(sides.values())))))
    dropped, place = _with_edge_card(table, quads[typical])
    ys, xs = np.nonzero(place)
    tip = (float(xs.min()) - 40.0, float(ys.mean()))  # the hand holds the card by its inner end
    t = 0.1
    for _ in range(5):  # the hand brings the card in and lays it down
        res = tracker.update(with_arm(dropped, "right", tip), t, quads, [])
        t += 0.1
    assert len(res.hands) == 1
    seen = []
    for _ in range(25):  # the hand has gone; the card stays
        res = tracker.update(dropped, t, quads, [])
        seen.append(len(res.hands))
        t += 0.1
    assert seen[0] == 1  # just after the arm left, the card alone is not yet told from a hand
    assert res.hands == ()
    assert not res.mask[place].any()


def test_an_arm_held_still_stays_a_hand(table: np.ndarray, quads: dict[int, np.ndarray]) -> None:
    tracker = HandTracker()
    tracker.update(table, 0.0, quads, list(quads.values()))
    target = min(quads, key=lambda i: float(quads[i].mean(axis=0)[0]))
    tip = tuple(quads[target].mean(axis=0))
    for k in range(1, 31):
        res = tracker.update(with_arm(table, "left", tip), 0.1 * k, quads, [])
    assert len(res.hands) == 1
    assert target in res.hands[0].covers
