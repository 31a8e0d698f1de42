"""Twixt vision for the live session: find the board (or take the corners the table clicked),
then read it each frame and turn stable changes into moves (``vision.board``). Once found, the
board is checked in the background (:class:`calibration.monitor.BoardWatcher`, on the newest
frame, every :data:`CHECK_EVERY_S`): when it or the camera moved, the lattice found again takes
over and the game read so far is kept.

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
"""How often a frame is searched for the board while none is found."""
CHECK_EVERY_S = 1.0
"""How often the background check looks at the newest frame once the board is found."""


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
        self.watcher: Any = None
        self.problem = "looking for the board"
        self._last_try = -1e9
        self._index = 0

    def set_corners(self, points: list[tuple[float, float]]) -> None:
        """The board outline clicked on the live image: the next frame fits the lattice in it."""
        self.corners = np.asarray(points, np.float64).reshape(4, 2)
        self.location = None
        self.tracker = None
        self._stop_watching()
        self._last_try = -1e9

    def close(self) -> None:
        """Stops the background check."""
        self._stop_watching()

    def _stop_watching(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher = None

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
        if self.tracker is None:
            self.tracker = TwixtMoveTracker(BoardReader(self.spec, self.location), self.players)
        else:  # found again after it was lost: the game read so far stays
            self.tracker.reader = BoardReader(self.spec, self.location)
        self.problem = ""
        log.info("board found (evidence %.2f)", self.location.evidence)
        self._watch()

    def _watch(self) -> None:
        from calibration.monitor import BoardWatcher

        self._stop_watching()
        self.watcher = BoardWatcher(self.location, self.spec.valid_mask(), interval=CHECK_EVERY_S)
        self.watcher.start()

    def _follow_the_check(self) -> None:
        """Takes the background check's news: a board that moved and was found again is read on
        its new lattice (the game kept); one that moved and was not found is looked for again."""
        from vision.board.reader import BoardReader

        check = self.watcher.last
        if self.watcher.location is not self.location and self.watcher.location is not None:
            self.location = self.watcher.location
            self.tracker.reader = BoardReader(self.spec, self.location)
            log.info("board moved: read on the lattice found again (evidence %.2f)", self.location.evidence)
        elif check is not None and check.status == "lost":
            self.problem = f"the board moved and was not found again: {check.reason.splitlines()[0]}"
            self.location = None
            self.corners = None  # (an outline clicked before the move is no longer the board's)
            self._stop_watching()

    def process(self, frame: np.ndarray, t: float) -> TableObservation:
        self._index += 1
        h, w = frame.shape[:2]
        if self.watcher is not None:
            self._follow_the_check()
        if self.location is None:
            self._find(frame)
        if self.location is None:
            return TableObservation(self._index, t, w, h, board=None, extras={"board_problem": self.problem})
        self.watcher.submit(frame)
        event = self.tracker.update(frame)
        return TableObservation(self._index, t, w, h, board=event, extras={"board_problem": self.problem})

    def lattice(self) -> list[list[float]]:
        if self.location is None:
            return []
        holes = self.location.holes_px().reshape(-1, 2)
        valid = self.spec.valid_mask().reshape(-1)
        return np.round(holes[valid], 1).tolist()
