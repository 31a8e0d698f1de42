"""Hand-built table observations for the adapter tests: cards with rendered faces as clean views."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.observation import CardState, HandEvent, HandObservation, Seat, TableObservation, TrackedCard
from vision.render.faces import render_face

W, H = 1280, 720


@lru_cache(maxsize=64)
def crop(identity: str) -> np.ndarray:
    return cv2.resize(render_face(identity), (96, 96), interpolation=cv2.INTER_AREA)


def pixel_compare(a: np.ndarray, b: np.ndarray) -> float:
    """A plain comparator for tests: rendered crops of one face are equal, others differ."""
    diff = float(np.mean(np.abs(a.astype(np.int16) - b.astype(np.int16)))) / 255.0
    return float(np.clip(1.0 - 8.0 * diff, 0.0, 1.0))


def card(track: int, face: str, cx: float, cy: float, state: CardState = CardState.VISIBLE) -> TrackedCard:
    half = 40.0
    quad = np.array(
        [[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half], [cx - half, cy + half]],
        np.float32,
    )
    return TrackedCard(track, quad, state, 0.99, crop(face), 0.0, None, 0.0)


def obs(
    index: int,
    t: float,
    cards: list[TrackedCard],
    events: tuple[HandEvent, ...] = (),
    hands: tuple[HandObservation, ...] = (),
) -> TableObservation:
    return TableObservation(index, t, W, H, tuple(cards), hands, events)


def cover(t: float, seat: str, track: int, hand: int = 1) -> HandEvent:
    return HandEvent(t, "covered", hand, Seat(seat), track)


def hand_on(hand: int, seat: str, covered: TrackedCard) -> HandObservation:
    """A hand reaching from ``seat``'s edge with its fingertips on ``covered``."""
    cx, cy = (float(v) for v in covered.quad.mean(axis=0))
    if seat == "bottom":
        box = (int(cx - 30), int(cy - 10), 60, int(H - cy + 10))
    elif seat == "top":
        box = (int(cx - 30), 0, 60, int(cy + 10))
    elif seat == "left":
        box = (0, int(cy - 30), int(cx + 10), 60)
    else:
        box = (int(cx - 10), int(cy - 30), int(W - cx + 10), 60)
    return HandObservation(hand, Seat(seat), (covered.track_id,), box)


def table_image(cards: list[TrackedCard]) -> np.ndarray:
    """The camera frame of these cards: each card's face pasted where it lies on a green table."""
    image = np.zeros((H, W, 3), np.uint8)
    image[:] = (40, 110, 40)
    for c in cards:
        q = np.asarray(c.quad, np.float64)
        x0, y0 = np.round(q.min(axis=0)).astype(int)
        x1, y1 = np.round(q.max(axis=0)).astype(int)
        if x0 < 0 or y0 < 0 or x1 > W or y1 > H or c.last_clean_view is None:
            continue
        image[y0:y1, x0:x1] = cv2.resize(c.last_clean_view, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    return image


class Captured:
    """What the session hands an adapter besides the observation: the capture time and, when
    given, the frame's image."""

    def __init__(self, mono: float, image: np.ndarray | None = None) -> None:
        self.mono = mono
        if image is not None:
            self.image = image
