"""A quad moved out past a card's printed frame to its plain margin keeps the margin (finder)."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision._finder_helpers import bench_frame, best_ious
from vision.cards import FinderConfig
from vision.cards.refine import margin_widths, move_sides, outer_margin


def test_the_snap_does_not_take_a_card_back_to_its_printed_frame() -> None:
    """The quick bench's frame 210: Line-it cards on a pale glossy table. Their quads first end at
    the green printed frame; the margin step finds the cream margin beyond it (in the red
    channel) and moves them out to the card's edge (IoU > 0.95), but the snap, which sees the
    margin as table-coloured, took them back to the frame (IoU ~0.89). Holding the margin's
    sides: the 3 counted cards within IoU 0.9 (none without)."""
    image, counted = bench_frame(210, "scattered", "lineit")
    without = best_ious(image, counted, FinderConfig(margin_holds=None))
    held = best_ious(image, counted, FinderConfig())
    assert len(counted) == 3
    assert (without >= 0.9).sum() == 0, without
    assert (held >= 0.9).all(), held


def test_margin_widths_name_the_sides_whose_margin_showed() -> None:
    """A card with a dark printed frame 6 px inside its edge, on a table a little darker than its
    margin, and below it something of the margin's colour (another card's paper): the bottom
    margin's outer edge does not show. Its width is NaN, the others' 8 px; ``outer_margin`` moves
    the bottom side out by their width too."""
    img = np.full((480, 400), 185, np.uint8)
    cv2.rectangle(img, (100, 100), (259, 379), 205, cv2.FILLED)
    cv2.rectangle(img, (106, 106), (253, 333), 60, cv2.FILLED)
    cv2.rectangle(img, (108, 108), (251, 331), 240, cv2.FILLED)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    frame = np.float32([[107.5, 107.5], [251.5, 107.5], [251.5, 331.5], [107.5, 331.5]])
    widths = margin_widths(img, frame)
    assert widths is not None
    assert np.isnan(widths[2]) and np.allclose(widths[[0, 1, 3]], 8.0, atol=0.5), widths
    card = np.float32([[99.5, 99.5], [259.5, 99.5], [259.5, 339.5], [99.5, 339.5]])
    grown = outer_margin(img, frame)
    assert grown is not None and np.abs(grown - card).max() < 0.6, grown
    moved = move_sides(frame, np.float32([8.0, 8.0, 0.0, 8.0]))
    assert moved is not None and np.abs(moved[2:, 1] - 331.5).max() < 1e-3, moved
