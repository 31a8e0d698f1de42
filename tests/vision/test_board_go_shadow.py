"""White stones beside a shadow's edge, on a Go board of the full twixt bench's Go suite run with
seed 1 (the bench runs seed 0)."""

from __future__ import annotations

from tests.vision.test_board_go_glare import _go_suite_board


def test_white_stones_a_little_darker_than_their_class_alike_in_every_channel_are_read() -> None:
    """Board 5: shadows cross the board, and where one's edge runs between a white stone and the
    cells that set its board, the stone's ring reads 0.14-0.26 log units darker (or, one, brighter) than
    the white class's in every channel, far past the class's spread (0.04-0.05), which the other white
    stones set: they matched nothing and abstained. A shift that small turns no stone into another, nor
    into the board."""
    reader, image, truth = _go_suite_board(1, 5)
    reading = reader.read(image)
    for point in ((0, 5), (5, 6), (6, 7), (14, 8)):
        assert truth.pegs[point] == 2 and reading.matrix[point] == 2
    assert not ((reading.matrix >= 0) & (reading.matrix != truth.pegs)).any()
