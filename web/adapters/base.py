"""What every game adapter shares: seats, hand events, held-back observations, the panel.

An adapter turns changes of the recognised table (:class:`vision.observation.TableObservation`)
into the referee's actions on a :class:`web.live_game.LiveGame`. The rules are the prior: an
action the referee would refuse is not forced on the game; it is held back and shown as
uncertain, so the table can correct it with a tap.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Mapping
from typing import Any

import cv2
import numpy as np

from referee.types import JSON
from vision.observation import TableObservation
from web.frame_history import FrameHistory
from web.live_game import LiveGame
from web.settings import Settings

log = logging.getLogger(__name__)


class GameAdapter:
    """Base class: subclasses implement :meth:`observe` (and may add :meth:`panel_rows`)."""

    def __init__(self, live: LiveGame, settings: Settings) -> None:
        self.live = live
        self.settings = settings
        self.seats = settings.seat_of_player()
        self.held: deque[dict[str, Any]] = deque(maxlen=8)
        self.acted = 0
        warm_photo_finish()

    # -- seats ---------------------------------------------------------------------------------
    def player_at(self, seat: str) -> int | None:
        """The player sitting at image edge ``seat`` (the first one there), else ``None``."""
        for i, edge in enumerate(self.seats):
            if edge == str(seat):
                return i
        return None

    # -- acting --------------------------------------------------------------------------------
    def propose(
        self, action: Mapping[str, JSON], evidence: Mapping[str, Any] | None = None, force: bool = False
    ) -> tuple[int, Any] | None:
        """Plays ``action`` when the referee would apply it (or ``force``); else holds it back."""
        ruling = self.live.judge(action)
        if not ruling.applies and not force:
            self.hold(action, ruling.reason.en, ruling.reason.fr)
            return None
        self.acted += 1
        return self.live.act(action, "vision", evidence)

    def hold(self, action: Mapping[str, JSON], en: str, fr: str) -> None:
        log.info("held back %s: %s", dict(action), en)
        self.held.append({"action": dict(action), "en": en, "fr": fr, "wall": time.time()})

    # -- hooks ---------------------------------------------------------------------------------
    def observe(self, obs: TableObservation, frame: Any) -> None:
        """One frame's observation (``frame.mono``: the server clock when it was captured)."""

    def tick(self, now: float) -> None:
        """Called by the publishing thread a few times a second."""

    def use_history(self, history: FrameHistory) -> bool:
        """The session's thumbnails of every captured frame (:mod:`web.frame_history`), offered
        once the session runs this adapter; adapters that date events among the frames vision
        skipped keep it and return True (the session then fills it); none here."""
        return False

    def correct(self, fact: Mapping[str, Any]) -> None:
        """A correction from the table (already logged)."""

    def check_correction(self, fact: Mapping[str, Any]) -> str | None:
        """A reason to refuse ``fact`` (422), else ``None``."""
        return None

    def panel_rows(self) -> list[dict[str, Any]]:
        return []

    def panel(self) -> dict[str, Any]:
        rows = self.panel_rows()
        for held in list(self.held)[-3:]:
            rows.append({"en": "Held back (uncertain)", "fr": "Retenu (incertain)", "value": held["en"]})
        return {"rows": rows}

    def overlay(self, obs: TableObservation) -> dict[str, Any]:
        return {}


def row(en: str, fr: str, value: object) -> dict[str, Any]:
    return {"en": en, "fr": fr, "value": value if isinstance(value, str | int | float) else str(value)}


_warm = False


def warm_photo_finish() -> None:
    """Makes one photo-finish, once per process: OpenCV loads its caption font on the first
    ``putText`` (70-80 ms), which would otherwise delay the first ruling of the session."""
    global _warm
    if not _warm:
        _warm = True
        photo_finish([None], "0")


def photo_finish(crops: list[np.ndarray | None], caption: str, height: int = 180) -> bytes:
    """The crops side by side at one height with a caption strip, as JPEG bytes."""
    tiles = []
    for crop in crops:
        if crop is None or not isinstance(crop, np.ndarray) or crop.size == 0:
            tile = np.full((height, height, 3), 60, np.uint8)
        else:
            img = crop if crop.ndim == 3 else cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
            img = img[:, :, :3]
            scale = height / img.shape[0]
            tile = cv2.resize(
                img, (max(1, round(img.shape[1] * scale)), height), interpolation=cv2.INTER_AREA
            )
        tiles.append(tile)
        tiles.append(np.full((height, 8, 3), 255, np.uint8))
    body = np.hstack(tiles[:-1]) if tiles else np.zeros((height, height, 3), np.uint8)
    strip = np.full((28, body.shape[1], 3), 30, np.uint8)
    cv2.putText(strip, caption[:80], (6, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 1, cv2.LINE_AA)
    ok, buf = cv2.imencode(".jpg", np.vstack([body, strip]), [int(cv2.IMWRITE_JPEG_QUALITY), 85])
    return buf.tobytes() if ok else b""
