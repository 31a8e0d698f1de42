"""Holes beside a hand of the board's colour (holes that match nothing) that a full read once took as
covered although they show an empty hole plainly (its dark pit inside a ring of bare board): nothing
lies over such a hole (boards rebuilt as ``tableref bench twixt`` draws them)."""

from __future__ import annotations

import pytest

from calibration.board_finder import find_board
from tests.vision._board_helpers import clear_then_hand
from vision.board.reader import BoardReader
from web.bench.twixt import near_hands, suite_board


@pytest.mark.parametrize(
    ("seed", "index", "hole"),
    [
        (113, 14, (20, 0)),  # at the board's left edge
        (191, 1, (23, 6)),  # on the board's bottom row
    ],
)
def test_an_empty_hole_plainly_seen_at_a_hands_margin_is_read(
    seed: int, index: int, hole: tuple[int, int]
) -> None:
    board = suite_board(seed, index)
    spec = board.spec
    clear, scene = board.scenes(1280, 720)
    reading = BoardReader(spec, find_board(clear.image, 24, valid=spec.valid_mask())).read(scene.image)
    truth = scene.truth.pegs
    visible = spec.valid_mask() & ~near_hands(scene, 2.0)
    near = spec.valid_mask() & near_hands(scene, 2.0)
    assert truth[hole] == 0 and visible[hole]
    assert reading.matrix[hole] == 0 and not reading.covered[hole]
    assert reading.hand_over_board
    assert not ((reading.matrix >= 0) & (reading.matrix != truth) & spec.valid_mask()).any()
    assert (reading.matrix == truth)[visible].all()
    assert not (near & (reading.matrix >= 0) & (reading.matrix != truth)).any()


def test_an_incremental_read_also_sees_an_empty_hole_plainly_at_a_hands_margin() -> None:
    # The board read once without hands, then a hand comes: the incremental read (the video's and
    # the live app's) judges the holes beside it as a full read does.
    spec, scene, reader, reading = clear_then_hand(191, 1)
    truth = scene.truth.pegs
    near = spec.valid_mask() & near_hands(scene, 2.0)
    hole = (13, 7)  # covered by the incremental read before, beside a hand the board's colour
    assert truth[hole] == 0 and not near[hole]
    assert reading.matrix[hole] == 0 and not reading.covered[hole]
    assert reading.hand_over_board
    assert not ((reading.matrix >= 0) & (reading.matrix != truth) & spec.valid_mask()).any()
    # A second frame with the same hand keeps it seen.
    again = reader.update(scene.image)
    assert again.matrix[hole] == 0 and not again.covered[hole]
    assert not ((again.matrix >= 0) & (again.matrix != truth) & spec.valid_mask()).any()


def test_an_incremental_read_reads_a_peg_one_step_beside_a_hand_as_a_full_read_does() -> None:
    # Hole 2,8 (a grey peg) lies one step beside holes an occluded cell touches: a full read finds it
    # matching its class closely (nothing over part of it) and reads it; the incremental read did
    # not measure it again and took it as covered.
    spec, scene, _, reading = clear_then_hand(191, 1)
    truth = scene.truth.pegs
    visible = spec.valid_mask() & ~near_hands(scene, 2.0)
    assert truth[2, 8] == 2 and visible[2, 8]
    assert reading.matrix[2, 8] == 2 and not reading.covered[2, 8]
    assert (reading.matrix == truth)[visible].all()
    assert not ((reading.matrix >= 0) & (reading.matrix != truth) & spec.valid_mask()).any()
