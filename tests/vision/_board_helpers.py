"""Boards of the twixt bench's render suite, rebuilt and read as ``tableref bench twixt`` does."""

from __future__ import annotations

from calibration.board_finder import find_board
from vision.board.reader import BoardReader
from web.bench.twixt import near_hands, suite_board


def read_suite_board(seed: int, index: int):  # type: ignore[no-untyped-def]
    """Board ``index`` of seed ``seed`` at 1280x720: (its scene with truth, the reader's reading of
    it, the valid holes at least 2 holes away from any hand)."""
    board = suite_board(seed, index)
    spec = board.spec
    clear, scene = board.scenes(1280, 720)
    reading = BoardReader(spec, find_board(clear.image, 24, valid=spec.valid_mask())).read(scene.image)
    visible = spec.valid_mask() & ~near_hands(scene, 2.0)
    return scene, reading, visible
