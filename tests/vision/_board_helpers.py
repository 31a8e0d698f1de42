"""Boards of the twixt bench's render suite, rebuilt and read as ``tableref bench twixt`` does."""

from __future__ import annotations

from calibration.board_finder import find_board
from vision.board.reader import BoardReader, BoardReading
from vision.board.spec import BoardSpec
from vision.render.board import BoardScene
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


def clear_then_hand(seed: int, index: int) -> tuple[BoardSpec, BoardScene, BoardReader, BoardReading]:
    """A suite board read once without its hands, then incrementally with them (as the video and the
    live app read it)."""
    board = suite_board(seed, index)
    spec = board.spec
    clear, scene = board.scenes(1280, 720)
    reader = BoardReader(spec, find_board(clear.image, 24, valid=spec.valid_mask()))
    reader.read(clear.image)
    reading = reader.update(scene.image)
    assert reading.changed < spec.size**2  # incremental, not a full read again
    return spec, scene, reader, reading
