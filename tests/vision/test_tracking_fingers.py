"""A hidden card found again while a hand's fingers still lie over it keeps its id: the fingered
look fails the card's look test, and the track made of it waits, tentative, until the hand is off
(rendered Twin It table of the demo scenario; :attr:`TrackerConfig.touched_holds`)."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest

from vision.cards.finder import CardDetection
from vision.cards.geometry import quad_iou
from vision.cards.rectify import rectify
from vision.observation import CardState
from vision.render.scenario import twinit_demo_scenario
from vision.tracking import CardTracker, Track, signature, signature_distance


@pytest.fixture(scope="module")
def table() -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """The demo scenario's table at 30 s: its image and its wholly visible cards' true quads."""
    image, truth = twinit_demo_scenario(0).render_at(30.0)
    quads = {c.card_id: np.asarray(c.quad, np.float32) for c in truth.cards if c.visible_fraction >= 0.99}
    return image, quads


def _fingers(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The image with dark fingers over the card's far half and more (a hand leaving the card)."""
    out = image.copy()
    q = quad.astype(np.float32)
    right = np.float32([q[0] + 0.4 * (q[1] - q[0]), q[1], q[2], q[3] + 0.4 * (q[2] - q[3])])
    cv2.fillConvexPoly(out, np.round(right).astype(np.int32), (40, 55, 75))
    return out


def _with_card(image: np.ndarray, card: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The image with ``card`` (a rectified crop) put down at ``quad``."""
    h, w = card.shape[:2]
    src = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    size = (image.shape[1], image.shape[0])
    warped = cv2.warpPerspective(card, m, size)
    inside = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, size) > 0
    out = image.copy()
    out[inside] = warped[inside]
    return out


def _touching(quad: np.ndarray) -> Callable[[np.ndarray], bool]:
    return lambda q: quad_iou(q, quad) > 0.3


def _shown(tracker: CardTracker, quad: np.ndarray) -> list[Track]:
    """The tracks the observation shows in sight on the quad's place."""
    return [t for t in tracker.confirmed() if t.state is CardState.VISIBLE and quad_iou(t.quad, quad) >= 0.5]


def _hidden_then_fingered(
    table: tuple[np.ndarray, dict[int, np.ndarray]], put_down: np.ndarray | None = None
) -> tuple[CardTracker, Track, np.ndarray, np.ndarray, list[CardDetection]]:
    """Card 5 tracked, then under a hand, then found for three frames with the hand's fingers
    still over it (``put_down``: another card's crop laid on its place under the hand)."""
    image, quads = table
    target = quads[5]
    others = [CardDetection(q, 1.0) for cid, q in quads.items() if cid != 5]
    tracker = CardTracker()
    tracker.update([CardDetection(target, 1.0), *others], 0.0, image)
    track = next(t for t in tracker.tracks if np.allclose(t.quad, target))
    tracker.update(others, 0.1, image, None, {track.track_id: 0.9})
    assert track.state is CardState.COVERED
    lying = image if put_down is None else _with_card(image, put_down, target)
    fingered = _fingers(lying, target)
    assert track.signature is not None
    slack = tracker.cfg.look_threshold * tracker.cfg.in_place_slack
    # (the fingers spoil the look: the hidden card fails its look test there)
    assert signature_distance(signature(rectify(fingered, target)), track.signature) > slack
    for k in range(3):
        tracker.update(
            [CardDetection(target, 1.0), *others],
            0.2 + 0.1 * k,
            fingered,
            None,
            {track.track_id: 0.3},
            hand_touch=_touching(target),
        )
    return tracker, track, lying, target, others


def test_fingered_hidden_card_keeps_its_id(table: tuple[np.ndarray, dict[int, np.ndarray]]) -> None:
    tracker, track, lying, target, others = _hidden_then_fingered(table)
    # While the fingers lie over it, no other track is shown on its place (it was before: the
    # fingered card's own track, confirmed the frame after it was first found).
    assert _shown(tracker, target) == []
    assert track.state is CardState.COVERED
    # The hand is off: the card is found with its own look, under its own id, and alone.
    tracker.update([CardDetection(target, 1.0), *others], 0.5, lying, None, {}, hand_touch=lambda q: False)
    assert track.state is CardState.VISIBLE
    assert _shown(tracker, target) == [track]
    assert [t for t in tracker.tracks if quad_iou(t.quad, target) >= 0.5] == [track]


def test_new_card_put_down_on_a_hidden_one_gets_its_own_track(
    table: tuple[np.ndarray, dict[int, np.ndarray]],
) -> None:
    """A card a hand puts down on a hidden card's place (a play onto a pile) is a new track once
    the hand is off; the card under it stays hidden."""
    image, quads = table
    other_card = rectify(image, quads[max(quads)])
    tracker, track, lying, target, others = _hidden_then_fingered(table, put_down=other_card)
    assert _shown(tracker, target) == []
    tracker.update([CardDetection(target, 1.0), *others], 0.5, lying, None, {}, hand_touch=lambda q: False)
    tracker.update([CardDetection(target, 1.0), *others], 0.6, lying, None, {}, hand_touch=lambda q: False)
    shown = _shown(tracker, target)
    assert len(shown) == 1 and shown[0] is not track
    assert track.state is not CardState.VISIBLE


def test_hold_ends_after_touched_holds(table: tuple[np.ndarray, dict[int, np.ndarray]]) -> None:
    """Fingers that stay over the card longer than ``touched_holds`` frames: the track made of the
    detection is confirmed, as before (a hand resting on a card's edge does not hold it for good)."""
    tracker, track, lying, target, others = _hidden_then_fingered(table)
    fingered = _fingers(lying, target)
    for k in range(tracker.cfg.touched_holds):
        tracker.update(
            [CardDetection(target, 1.0), *others],
            0.5 + 0.1 * k,
            fingered,
            None,
            {track.track_id: 0.3},
            hand_touch=_touching(target),
        )
    assert len(_shown(tracker, target)) == 1
