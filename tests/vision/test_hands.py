"""Hands: mask against the table memory, seat from the image edge, covered cards, events."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision._frames import with_arm
from vision.hands import HandTracker
from vision.observation import Seat


@pytest.mark.parametrize("seat", ["bottom", "top", "left", "right"])
def test_an_arm_from_each_edge_is_a_hand_of_that_seat(
    table: np.ndarray, quads: dict[int, np.ndarray], seat: str
) -> None:
    tracker = HandTracker()
    tracker.update(table, 0.0, quads, list(quads.values()))
    target = min(quads, key=lambda i: np.linalg.norm(quads[i].mean(axis=0) - [640, 360]))
    tip = tuple(quads[target].mean(axis=0))
    res = tracker.update(with_arm(table, seat, tip), 0.1, quads, [])
    assert len(res.hands) == 1
    hand = res.hands[0]
    assert hand.seat is Seat(seat)
    assert target in hand.covers
    assert res.mask.shape == table.shape[:2]
    x, y = int(tip[0]), int(tip[1])
    assert res.mask[y, x]
    assert [(e.kind, e.track_id, e.time) for e in res.events if e.track_id == target] == [
        ("covered", target, 0.1)
    ]


def test_lifting_the_hand_uncovers_with_a_timestamp(table: np.ndarray, quads: dict[int, np.ndarray]) -> None:
    tracker = HandTracker()
    tracker.update(table, 0.0, quads, list(quads.values()))
    tip = tuple(quads[0].mean(axis=0))
    first = tracker.update(with_arm(table, "bottom", tip), 1.0, quads, [])
    still = tracker.update(with_arm(table, "bottom", tip), 1.5, quads, [])
    gone = tracker.update(table, 2.25, quads, list(quads.values()))
    covered = {e.track_id for e in first.events if e.kind == "covered"}
    assert 0 in covered
    assert still.events == ()
    assert still.hands[0].hand_id == first.hands[0].hand_id
    assert gone.hands == ()
    assert {(e.kind, e.track_id, e.time) for e in gone.events} == {("uncovered", t, 2.25) for t in covered}


def test_a_card_put_down_away_from_the_edges_is_not_a_hand(table: np.ndarray) -> None:
    tracker = HandTracker()
    empty = table.copy()
    empty[250:470, 540:740] = table[10:230, 10:210]  # a patch of cloth where a card lay
    tracker.update(empty, 0.0, {}, [])
    res = tracker.update(table, 0.1, {}, [])
    assert res.hands == ()
    assert not res.mask.any()


def test_no_skin_colour_needed_and_skin_alone_is_not_a_hand(table: np.ndarray) -> None:
    """A green glove is a hand; a skin-coloured card put in the middle is not."""
    tracker = HandTracker()
    tracker.update(table, 0.0, {}, [])
    res = tracker.update(with_arm(table, "left", (500, 360), colour=(40, 160, 40)), 0.1, {}, [])
    assert [h.seat for h in res.hands] == [Seat.LEFT]
    tracker = HandTracker()
    tracker.update(table, 0.0, {}, [])
    skin = table.copy()
    skin[300:420, 600:700] = (120, 150, 210)
    assert tracker.update(skin, 0.1, {}, []).hands == ()


def _carry_frames(table: np.ndarray, quad: np.ndarray, shifts: list[int]) -> list[np.ndarray]:
    """The table with the card under ``quad`` slid right by each of ``shifts`` (px) under a palm
    from the right edge resting on it."""
    x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
    pad = 4
    card = table[y - pad : y + h + pad, x - pad : x + w + pad].copy()
    empty = table.copy()
    empty[y - pad : y + h + pad, x - pad : x + w + pad] = table[
        5 : 5 + h + 2 * pad, 1275 - w - 2 * pad : 1275
    ]
    centre = quad.mean(axis=0)
    out = []
    for dx in shifts:
        f = empty.copy()
        f[y - pad : y + h + pad, x - pad + dx : x + w + pad + dx] = card
        out.append(with_arm(f, "right", (centre[0] + dx, centre[1])))
    return out


def test_a_hand_that_rested_on_a_card_carries_it(table: np.ndarray, quads: dict[int, np.ndarray]) -> None:
    target = max(quads, key=lambda i: quads[i][:, 0].max() - quads[i][:, 1].min())  # top right
    tracker = HandTracker()
    tracker.update(table, 0.0, quads, list(quads.values()))
    known = dict(quads)
    shifts = [0, 0, 0, 30, 60, 90, 120, 150]
    carried = None
    for k, frame in enumerate(_carry_frames(table, quads[target], shifts)):
        res = tracker.update(frame, 0.1 * (k + 1), known, [], hidden={target} if k else set())
        known.update(res.carried)
        carried = res.carried.get(target)
        assert target in res.hands[0].covers
    assert carried is not None
    moved = carried.mean(axis=0) - quads[target].mean(axis=0)
    assert moved == pytest.approx([150.0, 0.0], abs=8.0)


def test_a_hand_passing_over_a_card_leaves_it(table: np.ndarray, quads: dict[int, np.ndarray]) -> None:
    target = max(quads, key=lambda i: quads[i][:, 0].max() - quads[i][:, 1].min())
    tracker = HandTracker()
    tracker.update(table, 0.0, quads, list(quads.values()))
    c = quads[target].mean(axis=0)
    covering = 0
    for k, dy in enumerate([-45, -15, 15, 45]):  # over the card, never still
        tip = (c[0], c[1] + dy)
        res = tracker.update(with_arm(table, "right", tip), 0.1 * (k + 1), quads, [], hidden={target})
        covering += target in res.hands[0].covers
        assert res.carried == {}
    assert covering >= 3
