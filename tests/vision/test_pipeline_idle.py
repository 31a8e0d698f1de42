"""The live session's pipeline leaves a still frame's sweep tile for later (:meth:`TablePipeline.idle`,
after the frame's observation was used): the still frame a slap is ruled on does not wait for it."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision._pipeline_helpers import CountingFinder
from tests.vision.test_pipeline_sweep import MissingFinder, _at_pile
from vision.pipeline import PipelineConfig, TablePipeline


@pytest.fixture(scope="module")
def deal() -> np.ndarray:
    """The seed-1 Twin It demo's deal (see :mod:`tests.vision.test_pipeline_sweep`)."""
    from vision.render.scenario import twinit_demo_scenario
    from vision.render.scene import render

    image, _ = render(twinit_demo_scenario(1).spec_at(0.0))
    return image


def _blank() -> np.ndarray:
    return np.full((360, 640, 3), 60, np.uint8)


def test_a_still_frames_sweep_waits_for_idle_and_its_card_shows_next(deal: np.ndarray) -> None:
    """The same sweep as in :meth:`process`, the same card found on the same frame's tile; with
    :meth:`TablePipeline.background`, no still frame's :meth:`process` searches, and the card is
    in the observation after the one whose tile found it."""
    cfg = PipelineConfig()
    inline, later = MissingFinder(), MissingFinder()
    a, b = TablePipeline(find=inline, config=cfg), TablePipeline(find=later, config=cfg)
    idle = b.background()
    a.process(deal, 0.0)
    b.process(deal, 0.0)
    cols, rows = cfg.sweep_grid
    rounds = cfg.sweep_every * (cols * rows + (cols + 1) * (rows + 1))
    found_a = found_b = None
    for k in range(1, rounds + 2):
        if _at_pile(a.process(deal, k / 10)) and found_a is None:
            found_a = k
        calls = len(later.calls)
        obs = b.process(deal, k / 10)
        assert len(later.calls) == calls  # process() searched nothing
        if _at_pile(obs) and found_b is None:
            found_b = k
        idle()
    assert found_a is not None and found_b == found_a + 1
    assert later.calls == inline.calls  # the same tiles
    assert {c.track_id: c.quad.tolist() for c in a.process(deal, 9.0).cards} == {
        c.track_id: c.quad.tolist() for c in b.process(deal, 9.0).cards
    }


def test_a_due_tile_is_dropped_when_a_frame_that_changed_comes_first() -> None:
    cfg = PipelineConfig(sweep_every=1, sweep_grid=(1, 1))
    finder = CountingFinder()
    pipe = TablePipeline(find=finder, config=cfg)
    idle = pipe.background()
    blank = _blank()
    pipe.process(blank, 0.0)
    pipe.process(blank, 0.1)  # still: a tile is due
    finder.calls.clear()
    moved = blank.copy()
    moved[300:340, 0:60] = 200  # something changed: the due tile is dropped
    pipe.process(moved, 0.2)
    calls = len(finder.calls)
    assert idle() == 0 and len(finder.calls) == calls
