"""Clean views of moving cards (rendered Twin It table of the demo scenario): a card seen moving
from one frame to the next is blurred, its clean view and look wait until it is still again."""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.finder import CardDetection
from vision.cards.rectify import rectify
from vision.observation import CardState
from vision.render.scenario import twinit_demo_scenario
from vision.tracking import CardTracker


def _slid(image: np.ndarray, dx: int) -> np.ndarray:
    """The table moved ``dx`` px to the right, smeared along the way (a slide's motion blur)."""
    moved = np.roll(image, dx, axis=1)
    kernel = np.full((1, dx), 1.0 / dx, np.float32)
    return cv2.filter2D(moved, -1, kernel)


def test_a_card_seen_moving_keeps_its_still_clean_view_until_it_rests() -> None:
    image, truth = twinit_demo_scenario(0).render_at(30.0)
    quad = next(np.asarray(c.quad, np.float32) for c in truth.cards if c.card_id == 5)
    tracker = CardTracker()
    tracker.update([CardDetection(quad, 1.0)], 0.0, image)
    track = tracker.tracks[0]
    still_view, still_sig = track.last_clean_view, track.signature
    assert still_view is not None and still_sig is not None
    # Slid 24 px, then 24 px more, blurred: found each time, moving (same id), no new view.
    for k in (1, 2):
        dx = 24 * k
        tracker.update([CardDetection(quad + np.float32([dx, 0]), 1.0)], 0.1 * k, _slid(image, dx))
        assert [t.track_id for t in tracker.tracks] == [track.track_id]
        assert track.state is CardState.VISIBLE
        assert track.last_clean_time == 0.0 and track.signature is still_sig
    # At rest where it stopped (sharp again): its clean view is taken there.
    rest = np.roll(image, 48, axis=1)
    tracker.update([CardDetection(quad + np.float32([48, 0]), 1.0)], 0.3, rest)
    assert track.last_clean_time == 0.3
    assert track.last_clean_view is not None and track.last_clean_view is not still_view


def _faces() -> tuple[np.ndarray, np.ndarray]:
    """Two plainly different rendered Twin It faces (cards 5 and 21 of the demo scenario at 30 s),
    96 px."""
    image, truth = twinit_demo_scenario(0).render_at(30.0)
    quads = {c.card_id: np.asarray(c.quad, np.float32) for c in truth.cards}
    return tuple(
        cv2.resize(rectify(image, quads[k]), (96, 96), interpolation=cv2.INTER_AREA) for k in (5, 21)
    )


def _put(frame: np.ndarray, face: np.ndarray, x: int, y: int) -> np.ndarray:
    frame[y : y + 96, x : x + 96] = face
    return np.float32([[x, y], [x + 95, y], [x + 95, y + 95], [x, y + 95]])


def test_a_card_lifted_off_another_keeps_its_id_and_the_card_uncovered_gets_a_new_one() -> None:
    top, under = _faces()
    table = np.full((480, 640, 3), (58, 61, 65), np.uint8)
    frame = table.copy()
    place = _put(frame, top, 200, 180)  # the top card of a pile of two
    tracker = CardTracker()
    tracker.update([CardDetection(place, 1.0)], 0.0, frame)
    track = tracker.tracks[0]
    # Lifted and swept 150 px aside in one frame (blurred along the way): the card under it shows.
    frame = table.copy()
    below = _put(frame, under, 203, 184)  # (a pile's cards never lie exactly one on the other)
    moving = table.copy()
    moved = _put(moving, top, 350, 180)
    blurred = cv2.filter2D(moving, -1, np.full((1, 31), 1.0 / 31, np.float32))
    mask = np.zeros(frame.shape[:2], bool)
    mask[180:276, 335:461] = True
    frame[mask] = blurred[mask]
    tracker.update([CardDetection(below, 1.0), CardDetection(moved, 1.0)], 0.1, frame)
    assert track.state is CardState.VISIBLE and np.allclose(track.quad, moved)
    assert len(tracker.tracks) == 2
    new = next(t for t in tracker.tracks if t is not track)
    assert np.allclose(new.quad, below) and new.track_id != track.track_id
