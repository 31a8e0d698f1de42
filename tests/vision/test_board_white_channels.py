"""Boards of the render suite lit by glare that carries one or two of the board's channels to white
(a pale wood's red and green): there the light added is measured on the channels still below white,
and the board under it in the others is the smooth board model's (boards rebuilt as ``tableref
bench twixt`` draws them)."""

from __future__ import annotations

from tests.vision._board_helpers import read_suite_board as _read


def test_a_black_peg_where_glare_whitens_two_channels_is_read() -> None:
    """Seed 97, board 2: a black peg under glare whose board shows green and red at white; the
    light taken off it was measured on all three channels (two of them stopped at white), so too
    little, and the peg, matching its class only loosely beside those cells, abstained."""
    scene, reading, visible = _read(97, 2)
    truth = scene.truth.pegs
    assert truth[6, 11] == 2 and visible[6, 11]
    assert reading.matrix[6, 11] == 2
    assert not (visible & (reading.matrix >= 0) & (reading.matrix != truth)).any()
    assert (reading.matrix == truth)[visible].all()


def test_grey_pegs_where_glare_whitens_two_channels_are_read() -> None:
    """Seed 131, board 10: grey pegs under glare on a board whose green and red are at white."""
    scene, reading, visible = _read(131, 10)
    truth = scene.truth.pegs
    for hole in ((17, 5), (19, 1)):
        assert truth[hole] == 2 and visible[hole]
        assert reading.matrix[hole] == 2
    assert not (visible & (reading.matrix >= 0) & (reading.matrix != truth)).any()
