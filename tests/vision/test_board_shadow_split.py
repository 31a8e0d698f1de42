"""Light and shadow that run into a hand over the board, as the bench's render suite draws them: the
part of an odd-looking group of cells whose holes all show themselves is light, not the hand."""

from __future__ import annotations

from calibration.board_finder import find_board
from vision.board.reader import BoardReader
from web.bench.twixt import near_hands, suite_board


def test_a_lit_patch_running_into_a_hand_is_read() -> None:
    """Seed 67, board 5: two hands under a hard shadow on a pale board; the lit part's cells (the
    top rows, the rim beyond the border line) differ in hue from the shaded board, and one
    group of odd cells ran from them into the hands. Its holes two pitches and more from the
    hands (279) were read right only 155 times: the whole group was taken as a hand."""
    board = suite_board(67, 5)
    spec = board.spec
    clear, scene = board.scenes(1280, 720)
    reading = BoardReader(spec, find_board(clear.image, 24, valid=spec.valid_mask())).read(scene.image)
    truth = scene.truth.pegs
    valid = spec.valid_mask()
    visible = valid & ~near_hands(scene, 2.0)
    assert not ((reading.matrix >= 0) & (reading.matrix != truth) & valid).any()
    assert ((reading.matrix == truth) & visible).sum() >= 245
    # The lit top rows, the rim and the border line's row beside it included, are read whole
    # (but for the left corner, where an arm reaches over the rim below them).
    top = visible.copy()
    top[4:] = False
    top[:, :2] = False
    assert top.sum() >= 60 and (reading.matrix == truth)[top].all()
    assert not (reading.covered & top).any()
