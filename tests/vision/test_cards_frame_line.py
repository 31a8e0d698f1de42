"""Sides of a card quad that ended at the card's printed frame, moved out (vision.cards.frame_line)."""

from __future__ import annotations

import numpy as np

from tests.vision._finder_helpers import bench_frame, best_ious
from vision.cards.finder import FinderConfig
from vision.cards.frame_line import align_to_frame, frame_insets
from vision.cards.geometry import quad_iou

PAPER = (200, 225, 240)
LINE = (40, 40, 200)  # a red printed frame, BGR
TABLE = (60, 120, 170)


def _card(under: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(image, the card's outline, a quad whose top and left sides ended at the frame): an upright
    80 x 120 px card with a 2 px red frame 6 px inside its edge, on wood; ``under``: another card
    of the same paper lies beyond its top and left sides (the card's own edge does not show)."""
    img = np.empty((220, 220, 3), np.uint8)
    img[:] = TABLE
    if under:
        img[20:130, 20:125] = PAPER
    img[50:170, 60:140] = PAPER
    img[56:164, 66:134] = LINE
    img[58:162, 68:132] = PAPER
    outer = np.float32([[60, 50], [140, 50], [140, 170], [60, 170]]) - 0.5
    at_frame = np.float32([[68, 58], [140, 58], [140, 170], [68, 170]]) - 0.5
    return img, outer, at_frame


def test_sides_that_ended_at_the_frame_move_out_by_the_frames_inset() -> None:
    img, outer, at_frame = _card(under=True)
    insets, _, _ = frame_insets(img, at_frame)
    assert insets[0] < 0.5 and insets[3] < 0.5 and insets[1] > 5 and insets[2] > 5, insets
    moved = align_to_frame(img, at_frame)
    assert moved is not None
    assert quad_iou(moved, outer) > 0.97


def test_a_quad_on_the_cards_edge_stays() -> None:
    img, outer, _ = _card(under=True)
    assert align_to_frame(img, outer) is None


def test_the_top_cards_of_an_overlap_are_found_to_iou_09() -> None:
    """The quick bench's frame 10: The Mind cards overlapping in pairs on wood, each with a red
    frame inside a cream margin. On both top cards the quad ended at the frame along the two sides
    over the card beneath (IoU ~0.90, just short); moved out by the frame's inset both reach
    0.99, none lost."""
    image, counted = bench_frame(10, "overlapping", "themind")
    without = best_ious(image, counted, FinderConfig(frame_line=None))
    moved = best_ious(image, counted, FinderConfig())
    assert (moved >= 0.9).sum() >= (without >= 0.9).sum() + 2, (without, moved)
    assert ((moved >= 0.9) | (without < 0.9)).all(), (without, moved)
