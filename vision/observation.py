"""What vision tells the rest of tableref about one frame: the recognised table.

These are the types the game adapters (``web``) consume. The card pipeline fills ``cards``,
``hands`` and ``events``; the board reader fills ``board``. Coordinates are image pixels, x right,
y down; quadrilaterals are 4 corners clockwise from the card's own top-left corner when its
orientation is known, else from the top-left-most corner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np


class CardState(StrEnum):
    VISIBLE = "visible"
    """Seen in this frame."""
    COVERED = "covered"
    """Under a hand (or another object) now; its last clean view is kept."""
    GONE = "gone"
    """No longer on the table (taken away) for longer than the track's patience."""


class Seat(StrEnum):
    """The table edge a hand comes from, as seen in the image."""

    TOP = "top"
    BOTTOM = "bottom"
    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True, eq=False)
class TrackedCard:
    """One card with a stable id across frames."""

    track_id: int
    """Stable id: a moved card keeps it."""
    quad: np.ndarray
    """(4, 2) float32 corners in image pixels (last known when covered)."""
    state: CardState
    """visible, covered or gone."""
    confidence: float
    """How sure the finder is that this is a card, 0..1."""
    last_clean_view: np.ndarray | None = None
    """The rectified crop (canonical size, BGR) from the last frame the card was fully seen."""
    last_clean_time: float | None = None
    """Timestamp (seconds) of that view."""
    identity: str | None = None
    """The card's identity once known (e.g. ``"themind:57"``), computed once per track."""
    identity_confidence: float = 0.0
    """How sure the identity is, 0..1."""


@dataclass(frozen=True)
class HandObservation:
    """One hand or arm over the table."""

    hand_id: int
    """Stable id while the hand stays in view."""
    seat: Seat
    """The table edge it comes from."""
    covers: tuple[int, ...]
    """Track ids of the cards it covers (over half of the card hidden)."""
    bbox: tuple[int, int, int, int]
    """x, y, width, height in image pixels."""


@dataclass(frozen=True)
class HandEvent:
    """A hand landed on or lifted off a card."""

    time: float
    """Timestamp in seconds (the source's clock)."""
    kind: str
    """``"covered"`` or ``"uncovered"``."""
    hand_id: int
    seat: Seat
    track_id: int


@dataclass(frozen=True, eq=False)
class TableObservation:
    """The recognised table in one frame."""

    frame_index: int
    timestamp: float
    width: int
    height: int
    cards: tuple[TrackedCard, ...] = ()
    hands: tuple[HandObservation, ...] = ()
    events: tuple[HandEvent, ...] = ()
    hand_mask: np.ndarray | None = None
    """Optional (H, W) bool mask of hands and arms."""
    board: object | None = None
    """The Twixt / Go board reading, when a board is being read (see ``vision.board``)."""
    extras: dict[str, object] = field(default_factory=dict)
    """Timings and diagnostics (e.g. ``{"ms": 4.2, "changed": False}``)."""

    def card(self, track_id: int) -> TrackedCard | None:
        return next((c for c in self.cards if c.track_id == track_id), None)
