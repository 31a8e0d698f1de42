"""Dark bare hands landing on the piles (the Twin It game of seed 9, held out of the live bench's
games: Ana's dark hands on piles 0 and 1 at 1.4-3.2 s and 4.0-5.4 s, one landing on pile 0 at
6.8 s and lying there to 8.4 s; no hand in sight at 8.6-9.4 s). The hands are in the wood's
colours, so:

- a hand landing on a pile, where the memory holds the card, differed from the table around it no
  more than the memory's card does, and was taken for a ghost: the memory took the whole hand in;
- the place the hand then left (wood, where the memory held the hand) stayed a "hand" for good: a
  card put down there is not in the table's colours, so it was no ghost, and nothing is learned
  under a hand.

(Still open: their rim and fingers dim the wood by about one ratio in every channel and are taken
for their shadow, cutting the palm off the arm: 0.3 to 0.8 of the hands in the mask at 1.4-5.4 s.)

The tracker is fed as the pipeline feeds it: the table's colours learned from the whole frame, no
card held out of the mask; the true card quads."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from vision.cards.segment import table_colours
from vision.hands import HandTracker


@pytest.fixture(scope="module")
def game() -> list[tuple[float, Any, Any, np.ndarray]]:
    """(t, result, truth, the memory then) for seed 9's first 9.4 s at 5 fps."""
    from web.demo_session import load_scenario

    scenario = load_scenario("twinit", 9)
    tracker = HandTracker()
    out = []
    for t, image, truth in scenario.frames(fps=5.0, end=9.4):
        quads = {c.card_id: c.quad for c in truth.cards}
        colours = table_colours(cv2.resize(image, (320, round(image.shape[0] * 320 / image.shape[1]))))
        result = tracker.update(image, t, quads, [], colours=colours)
        assert tracker.memory is not None
        out.append((t, result, truth, tracker.memory.copy()))
    return out


def _in_sight(truth: Any) -> bool:
    return truth.hand_mask is not None and np.count_nonzero(truth.hand_mask) >= 5000


def test_a_dark_hand_landing_on_a_pile_is_a_hand(game: list[tuple[float, Any, Any, np.ndarray]]) -> None:
    (t, result, truth, _), *_ = [g for g in game if abs(g[0] - 6.8) < 1e-6]
    assert _in_sight(truth)
    hit = np.count_nonzero(result.mask & truth.hand_mask) / np.count_nonzero(truth.hand_mask)
    # before: 0.00 (taken for a ghost: the memory took it in, and it stayed out of the mask until
    # 7.4 s); now 0.76
    assert hit >= 0.7, f"{t:.1f} s: {hit:.2f} of the hand in the mask"
    assert [h.seat.value for h in result.hands] == ["bottom"]


def test_the_memory_does_not_take_the_hand_in(game: list[tuple[float, Any, Any, np.ndarray]]) -> None:
    for t, _, truth, memory in game:
        if not (6.8 <= t <= 8.4 and _in_sight(truth)):
            continue
        h, w = memory.shape[:2]
        hand = cv2.resize(truth.hand_mask.view(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST) > 0
        cards = np.zeros((h, w), np.uint8)
        for card in truth.cards:
            cv2.fillConvexPoly(
                cards, np.round(np.asarray(card.quad) * w / truth.hand_mask.shape[1]).astype(np.int32), 1
            )
        # (a card's dark print is no hand: the wood's places only)
        place = hand & ~(cv2.dilate(cards, np.ones((3, 3), np.uint8)) > 0)
        # the wood's red is about 170, the hands' under 110: before, the memory held the hand at
        # 0.42 of the wood under it at 6.8 s (0.23 at 7.0-7.2 s, 0.13 at 7.4 s); now at most 0.03
        dark = float(np.mean(memory[place][:, 2] < 110))
        assert dark <= 0.05, f"{t:.1f} s: the memory holds the hand at {dark:.2f} of the wood under it"


def test_no_ghost_hand_where_the_hand_lay(game: list[tuple[float, Any, Any, np.ndarray]]) -> None:
    empty = [(t, result) for t, result, truth, _ in game if 8.6 <= t <= 9.4 and not _in_sight(truth)]
    assert len(empty) == 5
    for t, result in empty:
        # before: a "bottom" hand of about 16000 pixels where the hand had lain, at every frame
        assert not result.hands, f"{t:.1f} s: {[h.bbox for h in result.hands]}"
        assert np.count_nonzero(result.mask) <= 500, f"{t:.1f} s: {np.count_nonzero(result.mask)} px"
