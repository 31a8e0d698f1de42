"""The pipeline is exactly repeatable: the same frames, at the same times, with the same calls,
give the same observations (every track id, state, quad, hand, cover and event), whatever the
other pipeline in the process did, and whatever OpenCV's thread count (the live server leaves
it at its default; the benches set one thread)."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.pipeline import TablePipeline


def _summary(obs: Any) -> tuple[Any, ...]:
    cards = tuple((c.track_id, c.state, c.quad.tobytes(), c.last_clean_time, c.identity) for c in obs.cards)
    hands = tuple((h.hand_id, h.seat, h.covers, tuple(h.bbox)) for h in obs.hands)
    mask = None if obs.hand_mask is None else np.packbits(obs.hand_mask).tobytes()
    return (obs.frame_index, obs.timestamp, cards, hands, obs.events, mask)


def test_same_frames_twice_same_tracks() -> None:
    """Two pipelines fed the demo scenario's frames one after the other, frame by frame (the
    second with two OpenCV threads), then a still table with the background sweep taken out of
    ``process`` and run after each still frame as the live session does: identical throughout.
    The window holds hands landing on cards and lifting them (6-9 s)."""
    from vision.render.scenario import twinit_demo_scenario

    scenario = twinit_demo_scenario(0)
    frames = [(t, image) for t, image, _ in scenario.frames(fps=10.0, start=6.0, end=9.0)]
    last_t, last = frames[-1]
    stills = [(last_t + 0.1 * (k + 1), last) for k in range(12)]
    a, b = TablePipeline(), TablePipeline()
    threads = cv2.getNumThreads()
    runs: dict[str, list[tuple[Any, ...]]] = {"a": [], "b": []}
    tracks_seen: set[int] = set()
    try:
        for phase in (frames, stills):
            if phase is stills:
                idle_a, idle_b = a.background(), b.background()
            for t, image in phase:
                cv2.setNumThreads(1)
                obs = a.process(image.copy(), t)
                runs["a"].append(_summary(obs))
                tracks_seen |= {c.track_id for c in obs.cards}
                cv2.setNumThreads(2)
                runs["b"].append(_summary(b.process(image.copy(), t)))
                if phase is stills:
                    cv2.setNumThreads(1)
                    idle_a()
                    cv2.setNumThreads(2)
                    idle_b()
    finally:
        cv2.setNumThreads(threads)
    assert len(tracks_seen) >= 5  # (a table of cards, not an empty run)
    assert any(s[3] and any(h[2] for h in s[3]) for s in runs["a"])  # hands covered cards
    for k, (x, y) in enumerate(zip(runs["a"], runs["b"], strict=True)):
        assert x == y, f"observation {k} differs"
