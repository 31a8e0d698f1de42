"""A hidden card found again where it lay keeps its id, though the finder's quad is a little off
(rendered Twin It table of the demo scenario)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards.finder import CardDetection
from vision.cards.rectify import rectify
from vision.observation import CardState
from vision.render.scenario import twinit_demo_scenario
from vision.tracking import CardTracker, signature, signature_distance


@pytest.fixture(scope="module")
def table() -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """The demo scenario's table at 30 s: its image and its wholly visible cards' true quads."""
    image, truth = twinit_demo_scenario(0).render_at(30.0)
    quads = {c.card_id: np.asarray(c.quad, np.float32) for c in truth.cards if c.visible_fraction >= 0.99}
    return image, quads


def _off(quad: np.ndarray) -> np.ndarray:
    """The quad with one side skewed 12 px (a corner lost to a glare or a finger)."""
    off = quad.copy()
    off[0, 0] -= 12.0
    off[3, 0] += 12.0
    return off


@pytest.mark.parametrize("carried", [False, True], ids=["in-place", "at-carry-origin"])
def test_a_hidden_card_found_again_in_place_with_a_quad_off_keeps_its_id(
    table: tuple[np.ndarray, dict[int, np.ndarray]], carried: bool
) -> None:
    image, quads = table
    target = quads[5]
    others = [CardDetection(q, 1.0) for cid, q in quads.items() if cid != 5]
    tracker = CardTracker()
    tracker.update([CardDetection(target, 1.0), *others], 0.0, image)
    track = next(t for t in tracker.tracks if np.allclose(t.quad, target))
    # The off quad's look is further from the clean view than the in-place slack allows (what
    # the card's own place shows is not).
    assert track.signature is not None
    slack = tracker.cfg.look_threshold * tracker.cfg.in_place_slack
    assert signature_distance(signature(rectify(image, _off(target))), track.signature) > slack
    # A hand lands on it (and, maybe, seems to carry it off a card's length).
    tracker.update(others, 0.1, image, None, {track.track_id: 0.9})
    assert track.state is CardState.COVERED
    origins = None
    if carried:
        track.quad = target + np.float32([0.0, 130.0])
        origins = {track.track_id: target.copy()}
    # The hand rises off it: the card is found where it lay, its quad a little off.
    n = len(tracker.tracks)
    tracker.update([CardDetection(_off(target), 1.0), *others], 0.2, image, None, {}, origins=origins)
    assert track.state is CardState.VISIBLE
    assert np.allclose(track.quad, _off(target))
    assert len(tracker.tracks) == n
