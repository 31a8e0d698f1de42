"""A pile's next card, shown where a hand carried the top card off: it differs from the table
memory (which holds the top card) and touches the hand, so it joined the hand's mask for as long
as the hand stayed near. Known to lie there (``unseen``), what of it has not changed since the
last frame, or shows colours the hand around it does not, is the card, not the hand."""

from __future__ import annotations

import numpy as np

from tests.vision._frames import marked_card, with_arm
from vision.hands import HandTracker, quad_coverage

QUAD = np.float32([[600, 300], [679, 300], [679, 419], [600, 419]])
ARM = (150, 60, 40)


def _with_card(frame: np.ndarray, card: np.ndarray) -> np.ndarray:
    out = frame.copy()
    out[300:420, 600:680] = card
    return out


def _shares(next_card: np.ndarray, unseen: bool) -> list[float]:
    """The memory learns a table with the pile's top card; a hand lands on it, and the next card
    shows when the hand stops beside the place, its palm over the place's lower edge. Returns the
    place's share under the hand mask in the four frames after."""
    table = np.full((720, 1280, 3), 40, np.uint8)
    top, below = _with_card(table, marked_card("disc")), _with_card(table, next_card)
    tracker = HandTracker()
    for k in range(3):
        tracker.update(top, 0.1 * k, {1: QUAD}, [QUAD])
    tracker.update(with_arm(top, "bottom", (640, 360), colour=ARM), 0.3, {1: QUAD}, [])
    shares = []
    for k in range(4):
        frame = with_arm(below, "bottom", (640, 500), colour=ARM)
        res = tracker.update(frame, 0.4 + 0.1 * k, {2: QUAD}, [], unseen=[QUAD] if unseen else [])
        shares.append(quad_coverage(res.low_mask, QUAD, res.scale))
    return shares


def test_the_next_card_is_not_the_hands() -> None:
    card = marked_card("block")
    # Unknown there, it stays in the hand's mask while the hand is near.
    assert min(_shares(card, unseen=False)) > 0.5
    # Known to lie there, its colours are none of the hand's around it: the card's at once.
    assert max(_shares(card, unseen=True)) < 0.4


def test_the_next_card_in_the_hands_colours_is_the_cards_once_still() -> None:
    card = np.full((120, 80, 3), ARM, np.uint8)
    card[40:80, 20:60] = 235
    assert min(_shares(card, unseen=False)) > 0.5
    # Its colours are the hand's: it is the card once it has not changed since the last frame.
    assert max(_shares(card, unseen=True)[1:]) < 0.4
