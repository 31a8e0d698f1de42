"""Cards gathered into a stack and spread again: the next card of a stack is not the top card that
left it, and a card first seen with a hand on it (no look yet) does not keep a known card's place
once its look shows that card."""

from __future__ import annotations

import numpy as np

from tests.vision._frames import marked_card
from vision.cards.finder import CardDetection
from vision.observation import CardState
from vision.tracking import CardTracker


def _scene(cards: dict[str, tuple[int, int]]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    frame = np.full((480, 640, 3), 60, np.uint8)
    quads = {}
    for kind, (x, y) in cards.items():
        frame[y : y + 120, x : x + 80] = marked_card(kind)
        quads[kind] = np.float32([[x, y], [x + 79, y], [x + 79, y + 119], [x, y + 119]])
    return frame, quads


def test_the_next_card_of_a_stack_under_the_same_outline_is_not_the_top_card() -> None:
    """The top card leaves the stack unseen (the spread's first card flies off blurred); the
    finder's quad, the stack's outline, has not moved, but the card in it is plainly another."""
    tracker = CardTracker()
    frame, quads = _scene({"disc": (100, 60)})
    tracker.update([CardDetection(quads["disc"], 1.0)], 0.0, frame)
    frame, quads = _scene({"block": (100, 60)})
    tracker.update([CardDetection(quads["block"], 1.0)], 0.1, frame)
    assert tracker.tracks[0].track_id == 1 and tracker.tracks[0].state is not CardState.VISIBLE
    assert [t.track_id for t in tracker.tracks if t.state is CardState.VISIBLE] == [2]


def test_a_card_that_did_not_move_keeps_its_id() -> None:
    tracker = CardTracker()
    frame, quads = _scene({"disc": (100, 60)})
    tracker.update([CardDetection(quads["disc"], 1.0)], 0.0, frame)
    tracker.update([CardDetection(quads["disc"] + 0.5, 1.0)], 0.1, frame)
    assert [(t.track_id, t.state) for t in tracker.tracks] == [(1, CardState.VISIBLE)]


def test_a_card_first_seen_under_a_hand_gives_way_to_the_known_card_its_look_shows() -> None:
    """The disc card is hidden past its patience (gone, in a stack). A card found half under a hand
    on the block card's place (no clean view: no look) is tentative; found again in the next
    frame, clear, its look is the disc card's: it is that card, and the tentative track goes."""
    tracker = CardTracker()
    frame, quads = _scene({"disc": (100, 60), "block": (300, 200)})
    tracker.update([CardDetection(quads[k], 1.0) for k in ("disc", "block")], 0.0, frame)
    bare, _ = _scene({"block": (300, 200)})
    tracker.update([CardDetection(quads["block"], 1.0)], 0.1, bare)
    tracker.update([CardDetection(quads["block"], 1.0)], 1.5, bare)
    assert tracker.tracks[0].state is CardState.GONE
    tracker.update([], 1.55, bare, hand_cover={2: 0.9})  # a hand lands on the block card
    assert tracker.tracks[1].state is CardState.COVERED
    frame, quads = _scene({"disc": (310, 200)})
    half = frame.copy()
    half[200:260, 300:400] = (80, 120, 190)  # a hand over its top half
    det = [CardDetection(quads["disc"], 1.0)]
    tracker.update(det, 1.6, half, hand_cover={2: 0.9}, hand_touch=lambda q: True)
    assert tracker.tracks[-1].tentative and tracker.tracks[-1].signature is None
    tracker.update(det, 1.7, frame, hand_cover={2: 0.9})
    assert {t.track_id: t.state for t in tracker.tracks} == {1: CardState.VISIBLE, 2: CardState.COVERED}
