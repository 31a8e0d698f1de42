"""An incremental read with a hand over the board: a peg under a pale hand (the board's colour) looks
like the other colour's peg, which no move makes; it abstains, never misreads, and is read again when
the hand has gone (a board of ``tableref bench twixt``'s render suite, read as the live app does)."""

from __future__ import annotations

from calibration.board_finder import find_board
from vision.board.reader import BoardReader
from web.bench.twixt import near_hands, suite_board


def test_a_peg_under_a_pale_hand_is_not_read_as_the_other_colour() -> None:
    board = suite_board(29, 5)
    spec = board.spec
    clear, scene = board.scenes(1280, 720)
    reader = BoardReader(spec, find_board(clear.image, 24, valid=spec.valid_mask()))
    first = reader.read(clear.image)
    hole = (8, 17)
    truth = scene.truth.pegs
    assert truth[hole] == 1 and first.matrix[hole] == 1
    near = spec.valid_mask() & near_hands(scene, 2.0)
    assert near[hole]
    for _ in range(2):  # the hand stays: the hole is read again each frame, and still abstains
        reading = reader.update(scene.image)
        assert reading.changed < spec.size**2
        assert reading.hand_over_board
        assert reading.matrix[hole] == -1
        assert not ((reading.matrix >= 0) & (reading.matrix != truth) & spec.valid_mask()).any()
    gone = reader.update(clear.image)
    assert gone.matrix[hole] == 1
