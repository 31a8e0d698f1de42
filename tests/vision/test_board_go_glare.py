"""Go boards under strong glare that does not clip them at white, drawn as the Go suite draws its boards
(from ``random.Random(1002)`` and ``random.Random(1004)``, not the bench's sequence)."""

from __future__ import annotations

import random

import numpy as np

from calibration.board_finder import find_board
from vision.board.reader import BoardReader
from vision.board.spec import BoardSpec
from vision.render.board import (
    BoardTruth,
    compositor_board_scene,
    random_go_position,
    render_board_texture,
)


def _go_board(seed: int, nth: int, width: int, height: int) -> tuple[BoardReader, np.ndarray, BoardTruth]:
    """The ``nth`` Go board drawn from ``random.Random(seed)``: a reader on the board found in its camera
    image, the image and the board's truth."""
    rng = random.Random(seed)
    for _ in range(nth):
        stones = random_go_position(rng, rng.randint(0, 250))
        tex, truth = render_board_texture("go", stones, style=rng.randrange(3))
        scene_seed = rng.randrange(1 << 30)
    scene = compositor_board_scene(scene_seed, tex, truth, width, height)
    reader = BoardReader(BoardSpec.go(), find_board(scene.image, 19, pattern="lines"))
    return reader, scene.image, truth


def test_cells_lit_past_the_hue_test_by_white_light_are_no_hand() -> None:
    """The ninth board of random.Random(1002) at 1280 x 720: glare adds about the same light to every
    channel of 18 cells, too much for the hue test's brightness limit or carrying a channel near white;
    they were taken as a hand and 6 points beside them abstained. Each is its board plus one amount of
    light, clipped at white: light, not a hand."""
    reader, image, truth = _go_board(1002, 9, 1280, 720)
    reading = reader.read(image)
    assert not reading.covered.any()
    assert (reading.matrix == truth.pegs).all()
    again = reader.update(image)
    assert (again.matrix == truth.pegs).all()


def test_stones_under_strong_glare_are_read_with_the_light_taken_off() -> None:
    """The fifth board of random.Random(1004) at 1920 x 1080: glare of 100-160 levels on a board it does
    not clip. White stones there are one even disc a little brighter than the board in one channel, and
    were read empty, matching nothing; black stones show their darkness only once that light is taken
    off. 22 points abstained, side by side taken for a hand."""
    reader, image, truth = _go_board(1004, 5, 1920, 1080)
    reading = reader.read(image)
    for point, stone in (((15, 11), 2), ((17, 7), 2), ((15, 10), 1), ((18, 9), 1)):
        assert truth.pegs[point] == stone and reading.matrix[point] == stone
    assert not ((reading.matrix >= 0) & (reading.matrix != truth.pegs)).any()
    assert (reading.matrix == truth.pegs).sum() >= 361 - 5
