"""Clean views of moving cards (rendered Twin It table of the demo scenario): a card seen moving
from one frame to the next is blurred, its clean view and look wait until it is still again."""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.finder import CardDetection
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
