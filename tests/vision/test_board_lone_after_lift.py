"""What light or shadow leaves of a group of occluded cells once lifted: a render-suite board the bench
does not use (seed 14, board 2, 1280 x 720)."""

from __future__ import annotations

from tests.vision._board_helpers import read_suite_board
from web.bench.twixt import near_hands


def test_a_cell_left_alone_once_its_shadow_is_lifted_covers_nothing() -> None:
    """Seed 14, board 2 (two hands elsewhere on the board): a group of occluded cells at a light's edge
    whose holes all show themselves is lifted but for one cell, which alone (under ``MIN_HAND_CELLS``)
    still covered its four holes and their link. Left alone it is judged as a lone odd cell is: the
    holes beside it are read when they match their class closely."""
    scene, reading, visible = read_suite_board(14, 2)
    truth = scene.truth.pegs
    for hole in ((4, 1), (4, 2), (5, 1), (5, 2)):
        assert visible[hole] and reading.matrix[hole] == truth[hole]
    assert (3, 3, 4, 1) in scene.truth.links and (3, 3, 4, 1) in reading.links
    near = near_hands(scene, 2.0) & (truth >= 0)
    assert not (near & (reading.matrix >= 0) & (reading.matrix != truth)).any()
    assert (reading.matrix == truth)[visible].all()
