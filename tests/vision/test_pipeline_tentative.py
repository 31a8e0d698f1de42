"""A card first found on a card already tracked (tentative: a finder's flicker is no card) is
searched again in the next frame, wherever that frame changed: it is not left out of the table
because what changed next lay elsewhere (a card laid on a capture stack, the hand gone)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.vision._frames import marked_card, with_arm
from vision.cards.finder import CardDetection
from vision.observation import CardState
from vision.pipeline import TablePipeline


def _quad(x: int, y: int) -> np.ndarray:
    return np.float32([[x, y], [x + 79, y], [x + 79, y + 119], [x, y + 119]])


class ScriptedFinder:
    """Finds the given quads that lie wholly inside the searched region, and records the regions."""

    def __init__(self) -> None:
        self.quads: list[np.ndarray] = []
        self.calls: list[Any] = []

    def __call__(self, image: np.ndarray, *args: Any, roi: Any = None, **kw: Any) -> list[CardDetection]:
        self.calls.append(roi)
        out = []
        for q in self.quads:
            if roi is not None:
                x, y, w, h = roi
                if q[:, 0].min() < x or q[:, 1].min() < y or q[:, 0].max() > x + w or q[:, 1].max() > y + h:
                    continue
            out.append(CardDetection(q.copy(), 0.9))
        return out


def _stack(speck: bool) -> tuple[np.ndarray, np.ndarray]:
    """The table with a disc card, a block card laid offset on it (a capture stack), and
    (``speck``) a small dark mark far across the table."""
    frame = np.full((480, 640, 3), 70, np.uint8)
    frame[60:180, 100:180] = marked_card("disc")
    frame[75:195, 120:200] = marked_card("block")
    if speck:
        frame[380:400, 540:560] = 20
    return frame, _quad(120, 75)


def _first_two(finder: ScriptedFinder) -> tuple[TablePipeline, np.ndarray]:
    """The disc card alone, a hand over it, then the block card laid on it and the hand gone."""
    pipe = TablePipeline(find=finder)
    alone = np.full((480, 640, 3), 70, np.uint8)
    alone[60:180, 100:180] = marked_card("disc")
    finder.quads = [_quad(100, 60)]
    first = pipe.process(alone, 0.0)
    assert [c.state for c in first.cards] == [CardState.VISIBLE]
    finder.quads = []
    held = pipe.process(with_arm(alone, "left", (140, 120)), 0.1)
    assert held.hands and [c.state for c in held.cards] == [CardState.COVERED]
    stack, top = _stack(speck=False)
    finder.quads = [top]  # the disc card is mostly hidden now: not found
    obs = pipe.process(stack, 0.2)
    # On the disc card's place: tentative, kept out of the observation until found again.
    assert not obs.hands and not any(np.abs(c.quad - top).max() < 1.0 for c in obs.cards)
    assert any(t.tentative for t in pipe.tracker.tracks)
    return pipe, top


def _visible_at(obs: Any, quad: np.ndarray) -> bool:
    return any(c.state is CardState.VISIBLE and np.abs(c.quad - quad).max() < 1.0 for c in obs.cards)


def test_a_tentative_card_is_searched_again_when_the_next_change_lies_elsewhere() -> None:
    finder = ScriptedFinder()
    pipe, top = _first_two(finder)
    frame, _ = _stack(speck=True)  # the next change lies across the table
    finder.calls.clear()
    obs = pipe.process(frame, 0.3)
    assert any(r is None or _inside(top, r) for r in finder.calls)
    assert _visible_at(obs, top)
    # Found again: it stays, and is not searched for again while nothing changes there.
    finder.calls.clear()
    assert _visible_at(pipe.process(frame, 0.4), top)
    assert not any(r is None or _inside(top, r) for r in finder.calls)


def test_a_tentative_card_is_searched_again_on_a_still_frame() -> None:
    finder = ScriptedFinder()
    pipe, top = _first_two(finder)
    frame, _ = _stack(speck=False)  # nothing changed
    obs = pipe.process(frame, 0.3)
    assert _visible_at(obs, top)


def test_a_tentative_card_not_found_again_where_it_was_searched_is_a_flicker() -> None:
    finder = ScriptedFinder()
    pipe, top = _first_two(finder)
    finder.quads = []  # the searches of its place find nothing: the quad was a flicker
    frame, _ = _stack(speck=True)
    searches = pipe.tracker.cfg.tentative_searches
    for k in range(searches):
        finder.calls.clear()
        obs = pipe.process(frame, 0.3 + 0.1 * k)
        assert any(r is None or _inside(top, r) for r in finder.calls)  # its place searched again
        assert not any(np.abs(c.quad - top).max() < 1.0 for c in obs.cards)
        assert any(t.tentative for t in pipe.tracker.tracks) == (k < searches - 1)


def test_a_tentative_card_missed_by_one_search_and_found_by_the_next_is_kept() -> None:
    # (a card whose pale border barely shows on a pale cloth is found in some frames, not in
    # others; once nothing changes near it, no search comes again: live game seed 7, 18.5 s)
    finder = ScriptedFinder()
    pipe, top = _first_two(finder)
    frame, _ = _stack(speck=False)  # nothing changes any more
    finder.quads = []
    assert not _visible_at(pipe.process(frame, 0.3), top)
    finder.quads = [top]
    assert _visible_at(pipe.process(frame, 0.4), top)
    assert not any(t.tentative for t in pipe.tracker.tracks)


def _inside(quad: np.ndarray, roi: tuple[int, int, int, int]) -> bool:
    x, y, w, h = roi
    return bool(
        quad[:, 0].min() >= x
        and quad[:, 1].min() >= y
        and quad[:, 0].max() <= x + w
        and quad[:, 1].max() <= y + h
    )
