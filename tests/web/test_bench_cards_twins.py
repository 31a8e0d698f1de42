"""The cards bench's id switches: swaps between two cards of one face are also counted apart."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from vision.observation import CardState
from web.bench.cards import _ScenarioScore


def _quad(x: float) -> np.ndarray:
    return np.array([[x, 0], [x + 60, 0], [x + 60, 80], [x, 80]], np.float32)


TRUTH = SimpleNamespace(
    cards=[
        SimpleNamespace(
            card_id=cid, identity=face, quad=_quad(x), visible_fraction=1.0, covered_by_hands=False
        )
        for cid, face, x in ((0, "p001", 0), (1, "p001", 200), (2, "p002", 400))
    ]
)


def _seen(tracks: dict[int, float]) -> SimpleNamespace:
    cards = [SimpleNamespace(track_id=t, quad=_quad(x), state=CardState.VISIBLE) for t, x in tracks.items()]
    return SimpleNamespace(cards=cards, hands=[], card=lambda tid: None)


def test_a_swap_of_twins_is_a_twin_switch_and_a_swap_of_two_faces_is_not() -> None:
    score = _ScenarioScore()
    score.add(_seen({1: 0, 2: 200, 3: 400}), TRUTH)
    assert (score.switches, score.twin_switches) == (0, 0)
    score.add(_seen({2: 0, 1: 200, 3: 400}), TRUTH)  # tracks 1 and 2 swap the two p001 cards
    assert (score.switches, score.twin_switches) == (2, 2)
    score.add(_seen({3: 0, 1: 200, 2: 400}), TRUTH)  # p001 and p002 swap tracks
    assert (score.switches, score.twin_switches) == (4, 2)
    score.add(_seen({3: 0, 1: 200, 9: 400}), TRUTH)  # a new track on a card: not a twin's
    assert (score.switches, score.twin_switches) == (5, 2)
