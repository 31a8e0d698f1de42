"""Touching cards: a thin overlap between two found quads' facing sides is split at its middle
(vision.cards.shared_edges, and the finder's use of it)."""

from __future__ import annotations

import numpy as np

from tests.vision._finder_helpers import bench_frame, best_ious
from vision.cards import FinderConfig
from vision.cards.shared_edges import close_gaps, split_shared_edges


def _box(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def test_a_thin_overlap_ends_both_quads_at_its_middle() -> None:
    # two 50 x 70 cards touching at x = 100; the left one was fitted 3 px into the right one
    left, right = _box(50, 10, 103, 80), _box(100, 10, 150, 80)
    a, b = split_shared_edges([left, right])
    assert np.allclose(a, _box(50, 10, 101.5, 80), atol=1e-4)
    assert np.allclose(b, _box(101.5, 10, 150, 80), atol=1e-4)


def test_a_card_on_a_card_and_corner_neighbours_are_left_alone() -> None:
    under, on_top = _box(50, 10, 100, 80), _box(70, 20, 120, 90)  # 30 px deep: one lies on the other
    diagonal = _box(99, 79, 149, 149)  # touches ``under`` only at a corner
    a, b = split_shared_edges([under, on_top])
    assert np.array_equal(a, under) and np.array_equal(b, on_top)
    a, c = split_shared_edges([under, diagonal])
    assert np.array_equal(a, under) and np.array_equal(c, diagonal)


def test_touching_twin_it_cards_rendered_end_at_their_shared_edge() -> None:
    """A rendered touching-cards frame (the quick bench's frame 5: Twin It cards ~60 px wide in a
    grid, edge to edge): one card's side lies on its neighbour's border until the overlap is split.
    Measured: 2 of 9 counted cards within IoU 0.9 without the split, 4 with it."""
    image, counted = bench_frame(5, "touching", "twinit")

    # the split alone (the border step after snapping, vision.cards.border, off in both)
    without, split = (
        best_ious(image, counted, FinderConfig(shared_edges=0.0, border=None)),
        best_ious(image, counted, FinderConfig(border=None)),
    )
    assert len(counted) >= 8
    assert (split >= 0.9).sum() > (without >= 0.9).sum(), (without, split)
    # no card found without it is lost with it, and the cards fit better on the whole (with the
    # segmenter's neighbourhood-decoded quads one found card goes from 0.957 to 0.922, one never
    # found from 0.761 to 0.742, while three more reach 0.9)
    assert ((split >= 0.9) | (without < 0.9)).all(), (without, split)
    assert split.mean() > without.mean() + 0.01, (without, split)


def test_a_thin_gap_of_card_closes_at_its_middle() -> None:
    # two 50 x 70 cards touching at x = 100, each found 4 px inside its edge there (printed frames)
    left, right = _box(50, 10, 96, 80), _box(104, 10, 150, 80)
    a, b = close_gaps([left, right], lambda strip: True, aspect=50 / 70)
    assert np.allclose(a, _box(50, 10, 100, 80), atol=1e-4)
    assert np.allclose(b, _box(100, 10, 150, 80), atol=1e-4)
    # table between them (the caller says so): left alone
    a, b = close_gaps([left, right], lambda strip: False, aspect=50 / 70)
    assert np.array_equal(a, left) and np.array_equal(b, right)
    # cards laid apart, found whole: closing would take them off the card's shape
    apart_l, apart_r = _box(50, 10, 100, 80), _box(108, 10, 158, 80)
    a, b = close_gaps([apart_l, apart_r], lambda strip: True, aspect=50 / 70)
    assert np.array_equal(a, apart_l) and np.array_equal(b, apart_r)


def test_touching_trio_cards_rendered_found_at_their_printed_frames_meet_half_way() -> None:
    """The quick bench's frame 233: eleven Trio cards edge to edge, several found at their printed
    frame on the sides that face a neighbour. Measured: 5 of 11 counted cards within IoU 0.9
    without closing the gaps between them, 8 with it; none lost."""
    image, counted = bench_frame(233, "touching", "trio")

    # without the grid step, which finds most of these cards by itself now (9 of 11, 8 without
    # closing the gaps)
    without = best_ious(image, counted, FinderConfig(close_gaps=0.0, grid=None))
    closed = best_ious(image, counted, FinderConfig(grid=None))
    assert len(counted) == 11
    assert (closed >= 0.9).sum() >= (without >= 0.9).sum() + 2, (without, closed)
    assert ((closed >= 0.9) | (without < 0.9)).all(), (without, closed)
