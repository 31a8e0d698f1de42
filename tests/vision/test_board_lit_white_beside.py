"""A grey peg under strong glare beside cells lit past white in some channel: the light there is
measured on the channels below white, so it is read as anywhere else, not held to a hand's closer
match (boards of ``tableref bench twixt``'s render suite)."""

from __future__ import annotations

import pytest

from tests.vision._board_helpers import read_suite_board


@pytest.mark.parametrize(("seed", "index", "hole"), [(131, 10, (6, 0)), (113, 4, (16, 1))])
def test_a_grey_peg_beside_cells_lit_past_white_is_read(seed: int, index: int, hole: tuple[int, int]) -> None:
    scene, reading, visible = read_suite_board(seed, index)
    truth = scene.truth.pegs
    valid = reading.spec.valid_mask()
    assert truth[hole] == 2 and visible[hole]
    assert reading.matrix[hole] == 2
    assert (reading.matrix == truth)[visible].all()
    assert not ((reading.matrix >= 0) & (reading.matrix != truth) & valid).any()
