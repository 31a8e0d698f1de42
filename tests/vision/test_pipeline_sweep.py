"""The background sweep: a card no search found (the first frame's search missed it, and nothing
has changed there since) is found by the slow sweep of a still table, spread over still frames."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision.cards import find_cards
from vision.cards.finder import CardDetection
from vision.observation import CardState
from vision.pipeline import PipelineConfig, TablePipeline

PILE = np.array([1134.0, 418.0])
"""The right-edge pile of the seed-1 Twin It demo's deal (visible from its first frame)."""


class MissingFinder:
    """The real finder, that misses every card near ``PILE`` on its first ``misses`` calls (a
    finder's miss on the table's first frame), keeping the regions it is asked to search."""

    def __init__(self, misses: int = 1) -> None:
        self.misses = misses
        self.calls: list[tuple[int, int, int, int] | None] = []

    def __call__(self, image: np.ndarray, *args: Any, roi: Any = None, **kw: Any) -> list[CardDetection]:
        self.calls.append(roi)
        found = find_cards(image, *args, roi=roi, **kw)
        if len(self.calls) <= self.misses:
            found = [d for d in found if np.linalg.norm(d.quad.mean(axis=0) - PILE) > 60]
        return found


@pytest.fixture(scope="module")
def deal() -> np.ndarray:
    from vision.render.scenario import twinit_demo_scenario
    from vision.render.scene import render

    image, _ = render(twinit_demo_scenario(1).spec_at(0.0))
    return image


def _at_pile(obs: Any) -> list[int]:
    return [
        c.track_id
        for c in obs.cards
        if c.state is CardState.VISIBLE and np.linalg.norm(np.asarray(c.quad).mean(axis=0) - PILE) < 40
    ]


def test_a_card_the_first_search_missed_is_found_by_the_sweep_of_a_still_table(deal: np.ndarray) -> None:
    finder = MissingFinder()
    cfg = PipelineConfig()
    pipe = TablePipeline(find=finder, config=cfg)
    first = pipe.process(deal, 0.0)
    assert _at_pile(first) == []
    others = {c.track_id: c.quad.copy() for c in first.cards}
    assert len(others) == 3
    cols, rows = cfg.sweep_grid
    # Two passes: tiles of one size, then of another (the finder can miss a card in a region
    # of one size: it misses this pile in a 4 x 3 grid's tile at the right edge).
    rounds = cfg.sweep_every * (cols * rows + (cols + 1) * (rows + 1))
    found_at = None
    for k in range(1, rounds + 1):
        obs = pipe.process(deal, k / 10)
        assert obs.extras["changed"] is False
        if _at_pile(obs) and found_at is None:
            found_at = k
    assert found_at is not None, "the pile no search found is still unseen after two passes"
    last = pipe.process(deal, (rounds + 1) / 10)
    assert len(_at_pile(last)) == 1
    # The sweep added the missed card and left the cards already tracked as they were.
    now = {c.track_id: c.quad for c in last.cards}
    assert len(now) == 4
    for tid, quad in others.items():
        assert np.abs(now[tid] - quad).max() < 1e-3


def test_the_sweep_searches_one_tile_in_sweep_every_still_frames(deal: np.ndarray) -> None:
    finder = MissingFinder(misses=0)
    cfg = PipelineConfig(sweep_every=5, sweep_grid=(4, 3))
    pipe = TablePipeline(find=finder, config=cfg)
    pipe.process(deal, 0.0)
    assert finder.calls == [None]  # the first frame: the whole frame
    for k in range(1, 21):
        pipe.process(deal, k / 10)
    tiles = finder.calls[1:]
    assert len(tiles) == 4
    h, w = deal.shape[:2]
    assert all(t is not None and t[2] * t[3] < 0.3 * w * h for t in tiles)
    assert len(set(tiles)) == 4  # each a different tile


def test_tiles_of_the_sweep_cover_the_frame(deal: np.ndarray) -> None:
    pipe = TablePipeline()
    cfg = pipe.cfg
    h, w = deal.shape[:2]
    for sweep in (0, 1):
        cols, rows = pipe._sweep_grid(sweep)
        covered = np.zeros((h, w), bool)
        for i in range(cols * rows):
            x, y, bw, bh = pipe._sweep_box(sweep, i, (h, w))
            covered[y : y + bh, x : x + bw] = True
        assert covered.all()
    assert pipe._sweep_grid(0) == cfg.sweep_grid
    assert pipe._sweep_grid(1) != cfg.sweep_grid


def test_no_sweep_when_switched_off(deal: np.ndarray) -> None:
    finder = MissingFinder()
    pipe = TablePipeline(find=finder, config=PipelineConfig(sweep_every=0))
    pipe.process(deal, 0.0)
    for k in range(1, 30):
        obs = pipe.process(deal, k / 10)
    assert finder.calls == [None]
    assert _at_pile(obs) == []


def test_a_new_scene_is_searched_whole_as_a_first_frame_is(deal: np.ndarray) -> None:
    """The next game's table seen with the last game's memory (the live app's reset raced with
    the last frame of the game before): was taken for a hand over the whole table, every old
    card 'covered' and the deal unseen for seconds."""
    from vision.render.scenario import twinit_demo_scenario

    before = twinit_demo_scenario(0)
    last, _ = before.render_at(before.duration)
    pipe = TablePipeline()
    old = pipe.process(last, 100.0)
    assert len(old.cards) >= 10
    obs = pipe.process(deal, 100.1)
    assert obs.extras["roi"] is None  # the whole frame searched
    assert len(_at_pile(obs)) == 1
    assert len(obs.cards) == 4
    assert all(c.state is CardState.VISIBLE for c in obs.cards)
    assert obs.hands == ()


def test_reset_forgets_the_table_at_the_next_frame(deal: np.ndarray) -> None:
    pipe = TablePipeline()
    pipe.process(deal, 0.0)
    assert len(pipe.tracker.tracks) == 4
    pipe.reset()  # may come from another thread while a frame is processed: applied at the next
    assert len(pipe.tracker.tracks) == 4
    obs = pipe.process(deal, 0.1)
    assert obs.extras["changed"] is True and obs.extras["roi"] is None
    assert sorted(c.track_id for c in obs.cards) == [1, 2, 3, 4]
