"""A background check that the board is still where the profile says, re-finding it if it moved.

:func:`check_board` scores the stored lattice against a new frame (a hand over the board lowers
no score: covered points count neither way; a Go grid's points must also sit on its line
crossings, :func:`calibration.board_finder.crossing_factor`); when the evidence falls below
``moved_below`` the board (or the camera) moved, and the board is found again.
:class:`BoardWatcher` runs these checks on a thread, on the newest submitted frame only, so the
frame loop never waits.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.board_finder import (
    BoardLocation,
    BoardNotFound,
    crossing_factor,
    dark_response,
    find_board,
    lattice_evidence,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BoardCheck:
    """The result of one check."""

    status: str
    """``"ok"``, ``"moved"`` (and re-found: see ``location``) or ``"lost"`` (moved, not re-found)."""
    evidence: float
    """Evidence of the stored lattice in this frame."""
    location: BoardLocation | None
    """The location to use from now on (the old one when ok, the new one when moved)."""
    reason: str = ""


def check_board(
    image: np.ndarray,
    location: BoardLocation,
    valid: np.ndarray | None = None,
    pattern: str = "holes",
    moved_below: float = 0.8,
) -> BoardCheck:
    """Whether ``location`` still fits ``image``; re-find the board when it does not."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    resp = dark_response(gray, location.pitch_px(), pattern)
    ev = lattice_evidence(resp, location.homography, location.size, valid, gray, k1=location.k1)
    # (The evidence includes the check that no holes lie just outside the lattice, so a board
    # shifted by whole pitches does not pass.)
    if pattern == "lines":
        # A Go grid slid along its lines keeps every point on a line: only the lines crossing
        # there tell (as when the board was found).
        ev *= crossing_factor(gray, location.homography, location.size, location.k1)
    if ev >= moved_below:
        return BoardCheck("ok", ev, location)
    try:
        new = find_board(image, location.size, valid=valid, pattern=pattern)
    except BoardNotFound as exc:
        return BoardCheck("lost", ev, None, str(exc))
    log.info("board moved (evidence %.2f): re-found with evidence %.2f", ev, new.evidence)
    return BoardCheck("moved", ev, new, f"stored lattice evidence {ev:.2f} below {moved_below:.2f}")


class BoardWatcher:
    """Checks the board on a background thread every ``interval`` seconds, on the newest frame.

    >>> watcher = BoardWatcher(location, valid, "holes"); watcher.start()   # doctest: +SKIP
    >>> watcher.submit(frame); watcher.location                           # doctest: +SKIP
    """

    def __init__(
        self,
        location: BoardLocation,
        valid: np.ndarray | None = None,
        pattern: str = "holes",
        interval: float = 1.0,
        moved_below: float = 0.8,
    ) -> None:
        self.location: BoardLocation | None = location
        self.valid = valid
        self.pattern = pattern
        self.interval = interval
        self.moved_below = moved_below
        self.last: BoardCheck | None = None
        self.moves = 0
        self.checks = 0
        self._frame: np.ndarray | None = None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def submit(self, frame: np.ndarray) -> None:
        """Offer the newest frame (older unchecked frames are dropped)."""
        with self._lock:
            self._frame = frame
        self._wake.set()

    def check_now(self) -> BoardCheck | None:
        """Check the newest frame on the calling thread (also what the thread does)."""
        with self._lock:
            frame, self._frame = self._frame, None
            loc = self.location
        if frame is None or loc is None:
            return None
        result = check_board(frame, loc, self.valid, self.pattern, self.moved_below)
        with self._lock:
            self.checks += 1
            self.last = result
            if result.status == "moved":
                self.moves += 1
                self.location = result.location
        return result

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="board-watcher", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(timeout=self.interval)
            self._wake.clear()
            if self._stop.is_set():
                break
            try:
                self.check_now()
            except Exception:  # a failed check must not kill the watcher
                log.exception("board check failed")
            self._stop.wait(self.interval)
