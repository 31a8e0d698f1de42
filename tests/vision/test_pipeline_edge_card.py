"""A card put down at the image edge by a hand whose arm then leaves is searched and tracked
once it lies still (it is not kept as a hand)."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision._frames import table_frame, with_arm
from tests.vision._pipeline_helpers import visible_quads
from vision.cards import find_cards
from vision.cards.geometry import quad_iou
from vision.pipeline import TablePipeline


def test_a_card_laid_at_the_image_edge_becomes_a_track() -> None:
    table = table_frame()
    quads = [d.quad for d in find_cards(table)]
    sides = [max(cv2.minAreaRect(np.asarray(q, np.float32))[1]) for q in quads]
    q = np.asarray(quads[int(np.argsort(sides)[len(sides) // 2])], np.float32)
    (_, _), (cw, ch), _ = cv2.minAreaRect(q)
    cw, ch = int(min(cw, ch)), int(max(cw, ch))
    h, w = table.shape[:2]
    card = cv2.warpPerspective(
        table, cv2.getPerspectiveTransform(q, np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])), (cw, ch)
    )
    # Whole, upright, 7 pixels from the right edge (its blob at the working resolution touches it).
    x0, y0 = w - cw - 7, h // 2 - ch // 2
    dropped = table.copy()
    dropped[y0 : y0 + ch, x0 : x0 + cw] = card
    place = np.float32([[x0, y0], [x0 + cw - 1, y0], [x0 + cw - 1, y0 + ch - 1], [x0, y0 + ch - 1]])
    pipe = TablePipeline()
    t = 0.0
    for _ in range(3):
        pipe.process(table, t)
        t += 0.1
    tip = (float(x0) - 40.0, float(y0 + ch / 2))  # the hand holds the card by its inner end
    for _ in range(5):
        pipe.process(with_arm(dropped, "right", tip), t)
        t += 0.1
    for _ in range(15):
        obs = pipe.process(dropped, t)
        t += 0.1
    assert obs.hands == ()
    assert any(quad_iou(v, place) >= 0.8 for v in visible_quads(obs).values())
