"""Light and shadow that run into a hand over the board, as the bench's render suite draws them: the
part of an odd-looking group of cells whose holes all show themselves is light, not the hand."""

from __future__ import annotations

import functools

import numpy as np

from calibration.board_finder import find_board
from vision.board.reader import BoardReader, BoardReading
from web.bench.twixt import near_hands, suite_board


@functools.cache
def _read_visible(seed: int, index: int) -> tuple[BoardReading, np.ndarray, np.ndarray, np.ndarray]:
    """(reading, truth, visible holes, valid holes) of the suite's board ``index`` for ``seed``
    (read once for the tests that look at it; they copy what they change)."""
    board = suite_board(seed, index)
    spec = board.spec
    clear, scene = board.scenes(1280, 720)
    reading = BoardReader(spec, find_board(clear.image, 24, valid=spec.valid_mask())).read(scene.image)
    valid = spec.valid_mask()
    return reading, scene.truth.pegs, valid & ~near_hands(scene, 2.0), valid


def test_a_lit_patch_running_into_a_hand_is_read() -> None:
    """Seed 67, board 5: two hands under a hard shadow on a pale board; the lit part's cells (the
    top rows, the rim beyond the border line) differ in hue from the shaded board, and one
    group of odd cells ran from them into the hands. Its holes two pitches and more from the
    hands (279) were read right only 155 times: the whole group was taken as a hand."""
    reading, truth, visible, valid = _read_visible(67, 5)
    assert not ((reading.matrix >= 0) & (reading.matrix != truth) & valid).any()
    assert ((reading.matrix == truth) & visible).sum() >= 245
    # The lit top rows, the rim and the border line's row beside it included, are read whole
    # (but for the left corner, where an arm reaches over the rim below them).
    top = visible.copy()
    top[4:] = False
    top[:, :2] = False
    assert top.sum() >= 60 and (reading.matrix == truth)[top].all()
    assert not (reading.covered & top).any()


def test_a_shadow_meeting_a_hand_at_one_corner_is_judged_apart() -> None:
    """Seed 83, board 10: two cells of a hand's shadow touch the hand's cells at one corner only;
    as one group with the hand they covered a hole two pitches from it (the board's only loss)."""
    reading, truth, visible, valid = _read_visible(83, 10)
    assert not ((reading.matrix >= 0) & (reading.matrix != truth) & valid).any()
    assert visible[5, 10] and reading.matrix[5, 10] == truth[5, 10] == 0
    assert (reading.matrix == truth)[visible].all()


def test_a_small_shadow_group_at_a_hand_s_edge_keeps_only_its_edge_cell() -> None:
    """Seed 113, board 4: an arm's shadow, five cells along the border line, one of them at the
    arm's edge over a hole; the whole group was taken as a hand and five holes two pitches and
    more from it abstained."""
    reading, truth, visible, valid = _read_visible(113, 4)
    assert not ((reading.matrix >= 0) & (reading.matrix != truth) & valid).any()
    for hole in ((21, 8), (21, 9), (22, 8), (22, 9), (22, 10)):
        assert visible[hole] and reading.matrix[hole] == truth[hole]


def test_a_thin_line_of_lit_cells_is_no_hand() -> None:
    """Seed 67, board 5 again: at the bottom right, the lit board's edge against the shadow runs
    in a line of odd cells with no hole inside, seven of them (longer than a small group), every
    hole beside them a clear pit or peg: the holes round them abstained."""
    reading, truth, visible, valid = _read_visible(67, 5)
    assert not ((reading.matrix >= 0) & (reading.matrix != truth) & valid).any()
    corner = visible.copy()
    corner[:19] = False
    corner[:, :18] = False
    corner[:, 23:] = False  # beside the rim's own odd cells, which reach the hands' shadow
    assert corner.sum() >= 20 and (reading.matrix == truth)[corner].all()
    assert ((reading.matrix == truth) & visible).sum() >= 265
