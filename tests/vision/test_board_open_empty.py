"""Holes beside a hand of the board's colour (holes that match nothing) that a full read once took as
covered although they show an empty hole plainly (its dark pit inside a ring of bare board): nothing
lies over such a hole (boards rebuilt as ``tableref bench twixt`` draws them)."""

from __future__ import annotations

import pytest

from calibration.board_finder import find_board
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
