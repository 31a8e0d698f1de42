"""A new detection much smaller than the cards on the table (a finder's sliver over a card's edge
and a hand landing beside it) is tentative: it is a card only when found again."""

from __future__ import annotations

import numpy as np

from vision.cards.finder import CardDetection
from vision.observation import CardState
from vision.tracking import CardTracker


def _quad(x: float, y: float, w: float = 80, h: float = 120) -> np.ndarray:
    return np.float32([[x, y], [x + w - 1, y], [x + w - 1, y + h - 1], [x, y + h - 1]])


def _frame() -> np.ndarray:
    frame = np.full((480, 640, 3), 60, np.uint8)
    for k, x in enumerate((40, 160, 280)):
        frame[40:160, x : x + 80] = 235
        frame[60 + 20 * k : 100 + 20 * k, x + 10 : x + 50] = (30, 90, 200)
    frame[300:330, 400:480] = 235
    return frame


def _tracker() -> tuple[CardTracker, list[CardDetection]]:
    tracker = CardTracker()
    cards = [CardDetection(_quad(x, 40), 1.0) for x in (40, 160, 280)]
    tracker.update(cards, 0.0, _frame())
    return tracker, cards


def _shown(tracker: CardTracker) -> list[int]:
    return [t.track_id for t in tracker.confirmed()]


def test_a_sliver_is_tentative_and_dropped_when_not_found_again() -> None:
    tracker, cards = _tracker()
    sliver = CardDetection(_quad(400, 300, 80, 30), 0.7)
    tracker.update([*cards, sliver], 0.1, _frame())
    assert _shown(tracker) == [1, 2, 3]
    assert tracker.tracks[-1].tentative
    searches = tracker.cfg.tentative_searches
    for k in range(searches):
        tracker.update(cards, 0.2 + 0.1 * k, _frame())
        assert _shown(tracker) == [1, 2, 3]
    assert [t.track_id for t in tracker.tracks] == [1, 2, 3]


def test_a_sliver_found_again_is_kept() -> None:
    tracker, cards = _tracker()
    sliver = CardDetection(_quad(400, 300, 80, 30), 0.7)
    tracker.update([*cards, sliver], 0.1, _frame())
    tracker.update([*cards, sliver], 0.2, _frame())
    assert _shown(tracker) == [1, 2, 3, 4]
    assert tracker.tracks[-1].state is CardState.VISIBLE


def test_a_card_of_the_tables_size_is_shown_at_once() -> None:
    tracker, cards = _tracker()
    tracker.update([*cards, CardDetection(_quad(400, 300), 0.9)], 0.1, _frame())
    assert _shown(tracker) == [1, 2, 3, 4]
