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


class Captured:
    """What the session hands an adapter besides the observation: the capture time."""

    def __init__(self, mono: float) -> None:
        self.mono = mono
