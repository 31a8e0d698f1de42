"""A card's plain band across one end, left out of its quad, found again (vision.cards.band)."""

from __future__ import annotations

import numpy as np

from tests.vision._finder_helpers import bench_frame, best_ious
from vision.cards.band import grow_band
from vision.cards.finder import FinderConfig
from vision.cards.geometry import quad_iou


def _card(band_colour: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(image, the card's outline, its face without the band): a 70 x 108 px card, upright, with a
    20 px band across its top end, on a wood-brown table."""
    img = np.empty((200, 200, 3), np.uint8)
    img[:] = (60, 120, 170)
    img[46:154, 65:135] = (200, 225, 240)  # cream face
    img[46:66, 65:135] = band_colour
    outer = np.float32([[65, 46], [135, 46], [135, 154], [65, 154]]) - 0.5
    face = np.float32([[65, 66], [135, 66], [135, 154], [65, 154]]) - 0.5
    return img, outer, face


def test_a_quad_that_left_out_a_pink_band_grows_over_it() -> None:
    img, outer, face = _card((130, 80, 240))
    grown = grow_band(img, face, 0.645, None)
    assert grown is not None
    assert quad_iou(grown, outer) > 0.97


def test_a_quad_of_the_decks_shape_or_a_band_of_table_is_left_alone() -> None:
    img, outer, _ = _card((130, 80, 240))
    assert grow_band(img, outer, 0.645, None) is None  # already the deck's aspect
    plain, _, face = _card((200, 225, 240))  # no band: the face runs to the end
    assert grow_band(plain, face, 0.645, None) is None


def test_trio_cards_whose_quads_left_out_their_band_are_found_to_iou_09() -> None:
    """The quick bench's frame 60: Trio cards on wood, each with a band of its colour across one
    end; on two of them (pink, red) the quad stopped at the band (IoU ~0.88). With the band step
    both reach 0.9, none lost."""
    image, counted = bench_frame(60, "scattered", "trio")
    without = best_ious(image, counted, FinderConfig(band=None))
    grown = best_ious(image, counted, FinderConfig())
    assert (grown >= 0.9).sum() >= (without >= 0.9).sum() + 2, (without, grown)
    assert ((grown >= 0.9) | (without < 0.9)).all(), (without, grown)
