"""Twixt vision for the live session: find the board (or take the corners the table clicked),
then read it each frame and turn stable changes into moves (``vision.board``).

It is a :data:`web.session.Processor`: one frame in, a :class:`TableObservation` out whose
``board`` is the frame's :class:`vision.board.moves.BoardEvent` (``None`` until a board is found).
"""

from __future__ import annotations

import logging
import time
from typing import Any

import numpy as np

from vision.observation import TableObservation

log = logging.getLogger(__name__)

FIND_EVERY_S = 1.0


class BoardVision:
    def __init__(self, players: tuple[str, str], options: dict[str, Any] | None = None) -> None:
        from vision.board.spec import BoardSpec

        self.players = players
        opts = options or {}
        self.spec = (
            BoardSpec.twixt() if "colours" not in opts else BoardSpec.twixt(colours=tuple(opts["colours"]))
        )
        self.corners: np.ndarray | None = None
        self.location: Any = None
        self.tracker: Any = None
        self.problem = "looking for the board"
        self._last_try = -1e9
        self._index = 0

    def set_corners(self, points: list[tuple[float, float]]) -> None:
        """The board outline clicked on the live image: the next frame fits the lattice in it."""
        self.corners = np.asarray(points, np.float64).reshape(4, 2)
        self.location = None
        self.tracker = None
        self._last_try = -1e9

    def _find(self, frame: np.ndarray) -> None:
        from calibration.board_finder import find_board
        from vision.board.moves import TwixtMoveTracker
        from vision.board.reader import BoardReader
        from vision.errors import InputError

        now = time.monotonic()
        if now - self._last_try < FIND_EVERY_S:
            return
        self._last_try = now
        try:
            self.location = find_board(
                frame, self.spec.size, corners=self.corners, valid=self.spec.valid_mask()
            )
        except InputError as exc:
            self.problem = str(exc).splitlines()[0]
            return
        self.tracker = TwixtMoveTracker(BoardReader(self.spec, self.location), self.players)
        self.problem = ""
        log.info("board found (evidence %.2f)", self.location.evidence)

    def process(self, frame: np.ndarray, t: float) -> TableObservation:
        self._index += 1
        h, w = frame.shape[:2]
        if self.tracker is None:
            self._find(frame)
        event = self.tracker.update(frame) if self.tracker is not None else None
        return TableObservation(self._index, t, w, h, board=event, extras={"board_problem": self.problem})

    def lattice(self) -> list[list[float]]:
        if self.location is None:
            return []
        holes = self.location.holes_px().reshape(-1, 2)
        valid = self.spec.valid_mask().reshape(-1)
        return np.round(holes[valid], 1).tolist()
