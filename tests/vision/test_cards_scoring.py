"""Matching found quads to true cards: counted cards first."""

from __future__ import annotations

import numpy as np

from vision.cards.scoring import match_quads


def _square(x: float, y: float, side: float = 100.0) -> np.ndarray:
    return np.float32([[x, y], [x + side, y], [x + side, y + side], [x, y + side]])


def test_a_piles_top_card_is_matched_before_a_card_beneath_that_hardly_shows() -> None:
    # the top card (counted), and the card beneath it 2 px off (hardly visible: not counted);
    # the found quad lies nearer the card beneath (IoU 1.0) than the top card (IoU ~0.96)
    top, beneath = _square(102, 100), _square(100, 100)
    counts, pairs = match_quads([beneath.copy()], [top, beneath], [True, False], iou_threshold=0.9)
    assert counts.recalled == 1
    assert counts.false_positives == 0
    assert [(i, j) for i, j, _ in pairs] == [(0, 0)]


def test_uncounted_cards_still_excuse_their_quads() -> None:
    # a quad on a card too hidden to count is neither found nor false
    hidden, other = _square(0, 0), _square(300, 0)
    counts, _ = match_quads([hidden.copy()], [hidden, other], [False, True], iou_threshold=0.9)
    assert (counts.recalled, counts.false_positives, counts.counted_truth) == (0, 0, 1)
