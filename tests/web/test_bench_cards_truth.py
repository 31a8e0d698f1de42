"""The cards bench's truth finder: which true quads lie in a searched region."""

from __future__ import annotations

import numpy as np

from web.bench.cards import _inside

W, H = 1280, 720


def _quad(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def test_a_card_inside_the_region_is_in_it() -> None:
    assert _inside(_quad(110, 110, 190, 190), (100, 100, 100, 100), W, H)


def test_a_card_crossing_an_inner_side_of_the_region_is_not() -> None:
    assert not _inside(_quad(150, 110, 230, 190), (100, 100, 100, 100), W, H)


def test_a_card_running_off_the_image_where_the_region_meets_the_border_is_in_it() -> None:
    # the region touches the image's left and bottom edges; the card runs past both
    assert _inside(_quad(-20, 650, 60, 730), (0, 600, 200, 120), W, H)
    # the same card, but the region stops short of the image's left edge
    assert not _inside(_quad(-20, 650, 60, 730), (5, 600, 195, 120), W, H)
