"""Which regions the pipeline searches: far-apart changes apart, a hand's shadow band not at all,
and a card a hand's edge only reaches, outside what was searched, kept in sight."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision._frames import EDGE_POINTS, with_arm
from tests.vision._pipeline_helpers import CountingFinder, visible_quads
from vision.cards.finder import CardDetection
from vision.cards.geometry import quad_iou
from vision.observation import CardState
from vision.pipeline import PipelineConfig, TablePipeline
from vision.tracking import CardTracker, TrackerConfig


def test_two_piles_put_down_far_apart_are_searched_apart_and_found() -> None:
    from dataclasses import replace

    from vision.render.scenario import twinit_demo_scenario
    from vision.render.scene import render

    spec = twinit_demo_scenario(0).spec_at(0.0)  # the deal: three piles
    full, truth = render(spec)
    tops = [c for c in truth.cards if c.visible_fraction > 0.9]
    assert len(tops) == 3
    left = min(tops, key=lambda c: c.quad[:, 0].min())
    right = max(tops, key=lambda c: c.quad[:, 0].max())
    gone = {c.card_id for c in truth.cards if any(np.abs(c.quad - t.quad).max() < 20 for t in (left, right))}
    empty, _ = render(replace(spec, cards=[c for c in spec.cards if c.card_id not in gone]))
    finder = CountingFinder()
    pipe = TablePipeline(find=finder)
    assert len(visible_quads(pipe.process(empty, 0.0))) == 1
    finder.calls.clear()
    obs = pipe.process(full, 0.1)
    assert len(finder.calls) == 2 and None not in finder.calls
    boxes = [r for r in finder.calls if r is not None]
    x0 = min(b[0] for b in boxes)
    x1 = max(b[0] + b[2] for b in boxes)
    y0 = min(b[1] for b in boxes)
    y1 = max(b[1] + b[3] for b in boxes)
    assert finder.searched(1280, 720) < 0.5 * (x1 - x0) * (y1 - y0)  # (the one box around both: 1.0)
    assert obs.extras["roi"] == (x0, y0, x1 - x0, y1 - y0)
    seen = list(visible_quads(obs).values())
    assert len(seen) == 3
    for c in (left, right):
        assert any(quad_iou(s, c.quad) >= 0.8 for s in seen)  # (a pile: the cards beneath show)


def _with_shadowed_arm(frame: np.ndarray, tip: tuple[float, float]) -> np.ndarray:
    """An arm from the right edge with a faint band along its lower side (its blurred edge, its
    soft shadow or sheen): too faint to be taken for the hand, not too faint to be a change."""
    out = frame.copy()
    h, w = out.shape[:2]
    start = EDGE_POINTS["right"](w, h, tip[0], tip[1])
    band = np.zeros((h, w), np.uint8)
    off = 50
    cv2.line(band, (int(start[0]), int(start[1]) + off), (int(tip[0]), int(tip[1]) + off), 255, 60)
    cv2.circle(band, (int(tip[0]), int(tip[1]) + off), 60, 255, -1)
    out = np.where(band[..., None] > 0, cv2.add(out, np.full_like(out, 22)), out)
    return with_arm(out, "right", tip)


@pytest.mark.parametrize("fringe", [True, False])
def test_a_hand_shadow_band_over_the_bare_table_is_not_searched(table: np.ndarray, fringe: bool) -> None:
    cfg = PipelineConfig() if fringe else PipelineConfig(fringe_thickness=-1.0)
    finder = CountingFinder()
    pipe = TablePipeline(find=finder, config=cfg)
    first = pipe.process(table, 0.0)
    finder.calls.clear()
    # The arm wanders over the bare right part of the table, its shadow band beside it.
    for k, tip in enumerate([(1150, 300), (1100, 260), (1130, 330), (1080, 280)]):
        obs = pipe.process(_with_shadowed_arm(table, tip), 0.1 * (k + 1))
        assert obs.hands and obs.hands[0].seat == "right"
    if fringe:
        assert finder.searched(1280, 720) == 0
    else:  # (the band is what would be searched without the fringe rule)
        assert finder.searched(1280, 720) > 0
    back = pipe.process(table, 1.0)
    assert visible_quads(back).keys() == visible_quads(first).keys()


def test_a_card_a_hand_only_reaches_outside_the_search_stays_in_sight() -> None:
    quad = np.float32([[100, 100], [200, 100], [200, 200], [100, 200]])
    tracker = CardTracker()
    (track,) = tracker.update([CardDetection(quad, 0.9)], 0.0)
    # Nothing searched; a hand's edge over a third of the card: as it was.
    tracker.update([], 0.1, roi=[], hand_cover={track.track_id: 0.35})
    assert track.state is CardState.VISIBLE
    # Over most of it: covered.
    tracker.update([], 0.2, roi=[], hand_cover={track.track_id: 0.7})
    assert track.state is CardState.COVERED


@pytest.mark.parametrize("flat_ratio", [0.6, 1e9])
def test_a_plain_hand_landing_on_a_plain_card_covers_it(table: np.ndarray, flat_ratio: float) -> None:
    """A low-contrast card looks like anything plain: a plain hand landing on it at once is not
    taken for the card still in sight (1e9: without the blank-look rule, it was)."""
    frame = table.copy()
    x0, y0, x1, y1 = 682, 298, 818, 439  # inside a card of the middle row
    inner = frame[y0:y1, x0:x1].astype(np.float32)
    mean = inner.mean(axis=(0, 1))
    frame[y0:y1, x0:x1] = np.clip(mean + 0.25 * (inner - mean), 0, 255).astype(np.uint8)
    pipe = TablePipeline(tracker=TrackerConfig(flat_ratio=flat_ratio))
    first = pipe.process(frame, 0.0)
    (card,) = [c for c in first.cards if np.abs(c.quad.min(axis=0) - [668, 284]).max() < 10]
    for k in range(3):  # a plain arm lands right on it, and rests there (a little jitter)
        obs = pipe.process(
            with_arm(frame, "right", (750, 368 + k % 2), colour=(120, 140, 170)), 0.1 * (k + 1)
        )
        covered = obs.card(card.track_id).state is CardState.COVERED  # type: ignore[union-attr]
        held = any(card.track_id in h.covers for h in obs.hands)
        assert covered == held == (flat_ratio < 1.0)
