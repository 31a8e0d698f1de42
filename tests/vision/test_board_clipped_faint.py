"""Boards of the render suite clipped at white by glare, where holes show (almost) nothing of their
class and bridges show only faintly (boards rebuilt as ``tableref bench twixt`` draws them)."""

from __future__ import annotations

from tests.vision._board_helpers import read_suite_board as _read


def test_a_hole_glare_washed_flat_is_no_faded_red_peg() -> None:
    """Seed 173, board 8: red and grey pegs on a board clipped at white; two grey pegs and an
    empty hole there show nothing of a red peg's contrast (flat, or darkened evenly in every
    channel) and were once read, confidently, as red pegs faded by the glare."""
    scene, reading, visible = _read(173, 8)
    truth = scene.truth.pegs
    assert truth[6, 6] == 2 and truth[13, 5] == 0 and truth[14, 6] == 2
    for hole in ((6, 6), (13, 5), (14, 6)):
        assert reading.matrix[hole] != 1
    assert not (visible & (reading.matrix >= 0) & (reading.matrix != truth)).any()
    assert not set(reading.links) - set(scene.truth.links)


def test_faint_grey_bridges_on_a_clipped_board_are_seen() -> None:
    """Seed 211, board 0: grey bridges faded by glare on a board clipped at white (some 15 to 30 levels
    below it, evenly) were once all taken as absent; they are darker than the board beside them."""
    scene, reading, _visible = _read(211, 0)
    truth = set(scene.truth.links)
    assert {(11, 17, 12, 15), (11, 20, 12, 22), (15, 17, 16, 15), (15, 18, 16, 16)} <= set(reading.links)
    assert not set(reading.links) - truth
    assert (reading.matrix == scene.truth.pegs)[scene.truth.pegs >= 0].mean() > 0.99
