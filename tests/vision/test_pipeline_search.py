"""The pipeline works only on what changed: a hand moving over the table costs no card search,
the cards it leaves are back with their ids, and a card put down under a hand is found once the
hand has left."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from tests.vision._frames import with_arm
from tests.vision._pipeline_helpers import CountingFinder, visible_quads
from vision.cards import find_cards
from vision.observation import CardState
from vision.pipeline import TablePipeline


def test_a_hand_moving_over_the_table_costs_no_search_and_leaves_every_card(table: np.ndarray) -> None:
    finder = CountingFinder()
    pipe = TablePipeline(find=finder)
    first = pipe.process(table, 0.0)
    assert len(visible_quads(first)) == 12
    finder.calls.clear()
    # An arm from the right edge wanders over the empty part of the table, then over a card.
    tips = [(1150, 360), (1100, 300), (1050, 420), (1120, 500), (1000, 360), (830, 370), (760, 370)]
    for k, tip in enumerate(tips):
        obs = pipe.process(with_arm(table, "right", tip), 0.1 * (k + 1))
        assert obs.extras["changed"] is True
        assert obs.hands and obs.hands[0].seat == "right"
    assert finder.searched(1280, 720) == 0
    back = pipe.process(table, 1.0)
    assert finder.searched(1280, 720) == 0
    assert visible_quads(back).keys() == visible_quads(first).keys()
    for tid, quad in visible_quads(first).items():
        assert np.abs(visible_quads(back)[tid] - quad).max() < 1.0


def test_a_card_put_down_under_a_hand_is_found_once_the_hand_has_left(table: np.ndarray) -> None:
    quads = find_cards(table)
    target = max(quads, key=lambda d: d.quad[:, 0].max() - d.quad[:, 1].min()).quad  # top right
    x, y, w, h = cv2.boundingRect(np.round(target).astype(np.int32))
    empty = table.copy()
    empty[y - 4 : y + h + 4, x - 4 : x + w + 4] = table[5 : h + 13, 1275 - w - 8 : 1275]
    pipe = TablePipeline()
    assert len(visible_quads(pipe.process(empty, 0.0))) == 11
    tip = tuple(target.mean(axis=0))
    pipe.process(with_arm(empty, "right", (1150, tip[1])), 0.1)
    for k in range(3):  # the hand brings the card and puts it down
        pipe.process(with_arm(table, "right", tip), 0.2 + 0.1 * k)
    pipe.process(with_arm(table, "right", (1150, tip[1])), 0.6)
    obs = pipe.process(table, 0.7)
    assert len(visible_quads(obs)) == 12
    assert any(np.abs(q - target).max() < 3.0 for q in visible_quads(obs).values())


class WrongCarry:
    """The pipeline's hand tracker, made to believe that the hand takes one card with it as it
    moves away (what it may believe of a hand lifting off a card it rested on)."""

    def __init__(self, hands: Any) -> None:
        self.hands = hands
        self.track_id: int | None = None
        self.quad: np.ndarray | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.hands, name)

    def update(self, *args: Any, **kw: Any) -> Any:
        res = self.hands.update(*args, **kw)
        # (as the hand tracker does, only a card out of sight is carried: one seen is in no hand)
        if self.track_id is not None and self.quad is not None and self.track_id in kw.get("hidden", ()):
            self.quad = self.quad + np.float32([60, 0])
            res.carried[self.track_id] = self.quad
        return res


def test_a_card_a_hand_was_taken_to_carry_away_is_found_where_it_lay(table: np.ndarray) -> None:
    pipe = TablePipeline()
    first = pipe.process(table, 0.0)
    target = min(first.cards, key=lambda c: c.quad[:, 0].min())  # the leftmost card
    tip = tuple(target.quad.mean(axis=0))
    wrong = WrongCarry(pipe.hands)
    pipe.hands = wrong  # type: ignore[assignment]
    for k in range(4):  # an arm from the bottom comes onto the card and rests on it
        pipe.process(
            with_arm(table, "bottom", (tip[0], 720 + (tip[1] - 720) * min(1.0, (k + 1) / 3))), 0.1 * k
        )
    wrong.track_id, wrong.quad = target.track_id, target.quad.copy()
    for k in range(4):  # and goes away to the right: the card is (wrongly) taken to go with it
        obs = pipe.process(
            with_arm(table, "bottom", (tip[0] + 80 * (k + 1), tip[1] + 30 * (k + 1))), 0.5 + 0.1 * k
        )
    wrong.track_id = None
    obs = pipe.process(table, 1.0)
    obs = pipe.process(table, 1.1)
    back = obs.card(target.track_id)
    assert back is not None and back.state is CardState.VISIBLE
    assert np.abs(back.quad - target.quad).max() < 3.0
    assert len(visible_quads(obs)) == 12
