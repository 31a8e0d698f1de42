"""Tracking and the table memory, through the pipeline: stable ids, moved cards, covered and
gone states, last clean views, the change gate."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision._frames import with_arm
from vision.cards import find_cards
from vision.cards.finder import CardDetection
from vision.errors import InputError
from vision.observation import CardState
from vision.pipeline import TablePipeline
from vision.tracking import CardTracker, Track, TrackerConfig


def _centres(obs) -> dict[int, np.ndarray]:  # type: ignore[no-untyped-def]
    return {c.track_id: c.quad.mean(axis=0) for c in obs.cards if c.state is CardState.VISIBLE}


def test_still_table_keeps_ids_and_costs_only_the_gate(table: np.ndarray) -> None:
    pipe = TablePipeline()
    first = pipe.process(table, 0.0)
    assert len(first.cards) == 12
    assert all(c.last_clean_view is not None for c in first.cards)
    for i in range(1, 5):
        obs = pipe.process(table.copy(), i / 30)
        assert obs.extras["changed"] is False
        assert [c.track_id for c in obs.cards] == [c.track_id for c in first.cards]
        assert obs.frame_index == i


def test_a_moved_card_keeps_its_id(table: np.ndarray) -> None:
    pipe = TablePipeline()
    first = pipe.process(table, 0.0)
    target = min(first.cards, key=lambda c: c.quad[:, 1].min())  # a top-row card
    x, y, w, h = cv2.boundingRect(np.round(target.quad).astype(np.int32))
    pad = 6
    card = table[y - pad : y + h + pad, x - pad : x + w + pad].copy()
    cloth = table[5 : 5 + card.shape[0], 1280 - 5 - card.shape[1] : 1280 - 5].copy()
    frame = table.copy()
    frame[y - pad : y + h + pad, x - pad : x + w + pad] = cloth  # lift it...
    steps = 6
    last = None
    for k in range(1, steps + 1):
        f = frame.copy()
        dy = k * 12  # ...and slide it down in small steps
        f[y - pad + dy : y + h + pad + dy, x - pad : x + w + pad] = card
        last = pipe.process(f, k / 30)
    assert last is not None
    moved = last.card(target.track_id)
    assert moved is not None and moved.state is CardState.VISIBLE
    assert moved.quad.mean(axis=0)[1] == pytest.approx(target.quad.mean(axis=0)[1] + steps * 12, abs=2.0)
    assert len([c for c in last.cards if c.state is CardState.VISIBLE]) == 12


def test_a_hand_covers_cards_keeps_their_clean_views_then_uncovers(table: np.ndarray) -> None:
    pipe = TablePipeline()
    first = pipe.process(table, 0.0)
    target = max(first.cards, key=lambda c: c.quad[:, 1].max())  # a bottom-row card
    tip = tuple(target.quad.mean(axis=0))
    view_before = target.last_clean_view
    events = []
    for k in range(1, 6):
        t = 0.1 * k
        frac = k / 5
        x, y = tip[0], 720 + (tip[1] - 720) * frac
        obs = pipe.process(with_arm(table, "bottom", (x, y)), t)
        events += obs.events
    covered = obs.card(target.track_id)
    assert covered is not None and covered.state is CardState.COVERED
    assert covered.last_clean_view is not None
    assert np.array_equal(covered.last_clean_view, view_before)
    assert covered.last_clean_time == 0.0
    assert any(h.seat == "bottom" and target.track_id in h.covers for h in obs.hands)
    assert ("covered", target.track_id) in [(e.kind, e.track_id) for e in events]
    assert obs.hand_mask is not None and obs.hand_mask.any()
    # A hand resting on the card for seconds: still covered, not gone.
    for k in range(10):
        obs = pipe.process(with_arm(table, "bottom", tip), 0.6 + 0.3 * k)
    assert obs.card(target.track_id).state is CardState.COVERED
    back = pipe.process(table, 4.0)
    assert back.card(target.track_id).state is CardState.VISIBLE
    assert ("uncovered", target.track_id) in [(e.kind, e.track_id) for e in back.events]
    assert [c.track_id for c in back.cards] == [c.track_id for c in first.cards]


def _taken_away(table: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The table with the card at ``quad`` gone: bare table from the frame's top right corner
    painted over it."""
    x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
    frame = table.copy()
    frame[y - 6 : y + h + 6, x - 6 : x + w + 6] = table[5 : h + 17, 1280 - w - 17 : 1280 - 5]
    return frame


def _in_its_place(table: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The table with the card at ``quad`` gone and something else in its place (a bare place
    painted over, then a disc that is no card)."""
    frame = _taken_away(table, quad)
    x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
    cv2.circle(frame, (x + w // 2, y + h // 2), int(0.45 * min(w, h)), (40, 150, 230), -1)
    return frame


def test_a_card_taken_away_from_a_place_left_bare_is_gone_at_once(table: np.ndarray) -> None:
    pipe = TablePipeline(tracker=TrackerConfig(patience_s=0.5, forget_s=2.0))
    first = pipe.process(table, 0.0)
    target = first.cards[0]
    frame = _taken_away(table, target.quad)
    assert pipe.process(frame, 0.1).card(target.track_id).state is CardState.GONE
    assert pipe.process(frame, 0.3).card(target.track_id).state is CardState.GONE
    assert pipe.process(frame, 3.0).card(target.track_id) is None  # forgotten
    others = {c.track_id for c in first.cards} - {target.track_id}
    assert all(c.state is CardState.VISIBLE for c in pipe.process(frame, 3.1).cards if c.track_id in others)


def test_a_card_not_found_where_something_lies_goes_after_its_patience(table: np.ndarray) -> None:
    pipe = TablePipeline(tracker=TrackerConfig(patience_s=0.5, forget_s=2.0))
    first = pipe.process(table, 0.0)
    target = first.cards[0]
    frame = _in_its_place(table, target.quad)
    assert pipe.process(frame, 0.1).card(target.track_id).state is CardState.COVERED
    assert pipe.process(frame, 0.3).card(target.track_id).state is CardState.COVERED
    assert pipe.process(frame, 0.7).card(target.track_id).state is CardState.GONE  # still frame, time passed
    assert pipe.process(frame, 3.0).card(target.track_id) is None  # forgotten


def test_tracker_matches_by_overlap_then_by_distance() -> None:
    sq = np.array([[0, 0], [60, 0], [60, 90], [0, 90]], np.float32)
    tracker = CardTracker()
    tracker.update([CardDetection(sq + 100, 1.0), CardDetection(sq + 400, 1.0)], 0.0)
    ids = [t.track_id for t in tracker.tracks]
    tracker.update([CardDetection(sq + 405, 1.0), CardDetection(sq + np.float32([100, 180]), 1.0)], 0.1)
    by_pos = {tuple(np.round(t.quad[0]).astype(int)): t.track_id for t in tracker.tracks}
    assert by_pos[(405, 405)] == ids[1]
    assert by_pos[(100, 180)] == ids[0]  # moved two card heights down, no overlap: same card


def test_bad_frames_are_input_errors() -> None:
    with pytest.raises(InputError, match="BGR uint8"):
        TablePipeline().process(np.zeros((10, 10), np.uint8), 0.0)


def test_find_cards_in_a_roi_matches_the_whole_frame(table: np.ndarray) -> None:
    whole = find_cards(table)
    part = find_cards(table, roi=(0, 0, 1280, 380))
    assert 0 < len(part) < len(whole)
    for d in part:
        assert (
            max(np.abs(d.quad - w.quad).max() for w in whole if np.allclose(d.quad, w.quad, atol=1.0)) <= 1.0
        )


def _card_image(kind: str) -> np.ndarray:
    """A 120 x 80 card: white with a red disc near one corner, or blue stripes."""
    card = np.full((120, 80, 3), 235, np.uint8)
    if kind == "disc":
        cv2.circle(card, (28, 34), 16, (40, 40, 200), -1)
    else:
        card[20:100:16, 12:68] = (200, 60, 30)
        card[21:100:16, 12:68] = (200, 60, 30)
    return card


def _scene(cards: dict[str, tuple[int, int]]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    frame = np.full((480, 640, 3), 60, np.uint8)
    quads = {}
    for kind, (x, y) in cards.items():
        frame[y : y + 120, x : x + 80] = _card_image(kind)
        quads[kind] = np.float32([[x, y], [x + 79, y], [x + 79, y + 119], [x, y + 119]])
    return frame, quads


def test_a_new_card_on_a_stack_gets_a_new_id_and_the_moved_top_card_keeps_its_own() -> None:
    tracker = CardTracker()
    frame, quads = _scene({"disc": (100, 60), "stripes": (400, 60)})
    tracker.update([CardDetection(quads[k], 1.0) for k in ("disc", "stripes")], 0.0, frame)
    ids = {k: next(t.track_id for t in tracker.tracks if np.allclose(t.quad, q)) for k, q in quads.items()}
    # The disc card is taken off the spot to lower down; the striped card lands where it was
    # (a few pixels off: no card lands exactly where another lay).
    frame, quads = _scene({"disc": (100, 300), "stripes": (103, 62)})
    tracker.update([CardDetection(quads[k], 1.0) for k in ("stripes", "disc")], 0.1, frame)
    now = {k: next(t.track_id for t in tracker.tracks if np.allclose(t.quad, q)) for k, q in quads.items()}
    assert now == ids


def test_a_card_found_a_little_off_in_place_keeps_its_id() -> None:
    tracker = CardTracker()
    frame, quads = _scene({"disc": (100, 60)})
    tracker.update([CardDetection(quads["disc"], 1.0)], 0.0, frame)
    first = tracker.tracks[0].track_id
    off = quads["disc"] + np.float32([[9, 7], [0, 7], [0, 0], [9, 0]])  # a quad cut by a glare
    tracker.update([CardDetection(off, 1.0)], 0.1, frame)
    assert [t.track_id for t in tracker.tracks] == [first]


def test_a_flicker_on_a_hidden_card_is_tentative_and_never_shown() -> None:
    tracker = CardTracker()
    frame, quads = _scene({"disc": (100, 60), "stripes": (400, 60)})
    tracker.update([CardDetection(quads[k], 1.0) for k in ("disc", "stripes")], 0.0, frame)
    disc = next(t.track_id for t in tracker.tracks if np.allclose(t.quad, quads["disc"]))
    # A hand over the disc card: it is hidden...
    hidden = np.full_like(frame, 60)
    hidden[60:180, 400:480] = frame[60:180, 400:480]
    tracker.update([CardDetection(quads["stripes"], 1.0)], 0.1, hidden, None, {disc: 0.9})
    assert tracker.tracks[0].state is CardState.COVERED
    # ... and the finder returns a quad half on it, of another look.
    half = quads["disc"] + np.float32([40, 0])
    dets = [CardDetection(quads["stripes"], 1.0), CardDetection(half, 0.5)]
    tracker.update(dets, 0.2, hidden, None, {disc: 0.9})
    assert [t.track_id for t in tracker.confirmed()] == [1, 2]
    assert len(tracker.tracks) == 3 and tracker.tracks[-1].tentative
    assert tracker.tracks[-1] not in tracker.on_table()
    # Not found again in the next searches: dropped, never shown.
    searches = tracker.cfg.tentative_searches
    for k in range(searches):
        tracker.update([CardDetection(quads["stripes"], 1.0)], 0.3 + 0.1 * k, hidden, None, {disc: 0.9})
        assert [t.track_id for t in tracker.confirmed()] == [1, 2]
        assert len(tracker.tracks) == (3 if k < searches - 1 else 2)
    assert tracker.tracks[0].state is CardState.COVERED


def test_a_tentative_card_found_again_is_confirmed() -> None:
    tracker = CardTracker()
    frame, quads = _scene({"disc": (100, 60)})
    tracker.update([CardDetection(quads["disc"], 1.0)], 0.0, frame)
    tracker.update([], 0.1, np.full_like(frame, 60), None, {1: 0.9})  # a hand over it
    other, oq = _scene({"stripes": (130, 60)})  # another card put down half over its place
    tracker.update([CardDetection(oq["stripes"], 1.0)], 0.2, other, None, {1: 0.9})
    assert tracker.tracks[-1].tentative and tracker.tracks[-1].track_id == 2
    tracker.update([CardDetection(oq["stripes"], 1.0)], 0.3, other, None, {1: 0.9})
    new = tracker.tracks[-1]
    assert not new.tentative and new in tracker.on_table() and new.track_id == 2
    assert tracker.tracks[0].state is CardState.COVERED


def test_a_card_tracked_twice_keeps_one_track() -> None:
    tracker = CardTracker()
    frame, quads = _scene({"disc": (100, 60)})
    tracker.update([CardDetection(quads["disc"], 1.0)], 0.0, frame)
    # A second track of the same card (as left behind by a wrong guess), hidden, same place.
    tracker.tracks.append(
        Track(7, quads["disc"] + 1.0, 1.0, CardState.COVERED, 0.0, signature=tracker.tracks[0].signature)
    )
    tracker.update([CardDetection(quads["disc"], 1.0)], 0.1, frame)
    assert [t.track_id for t in tracker.tracks] == [1]


def test_a_still_card_waits_its_patience_from_when_it_was_last_in_sight(table: np.ndarray) -> None:
    pipe = TablePipeline(tracker=TrackerConfig(patience_s=0.5))
    first = pipe.process(table, 0.0)
    for k in range(1, 20):  # two seconds of a still table
        assert pipe.process(table.copy(), 0.1 * k).extras["changed"] is False
    target = first.cards[0]
    frame = _in_its_place(table, target.quad)
    # Missing since a moment ago, not since the last frame that changed: not gone yet.
    assert pipe.process(frame, 2.0).card(target.track_id).state is CardState.COVERED
    assert pipe.process(frame, 2.6).card(target.track_id).state is CardState.GONE


def test_a_card_under_a_hand_is_not_what_is_found_beside_it() -> None:
    tracker = CardTracker()
    frame, quads = _scene({"disc": (100, 60)})
    tracker.update([CardDetection(quads["disc"], 1.0)], 0.0, frame)
    # A hand lands on the disc card as another card shows up beside it, within a move's reach.
    other, oq = _scene({"stripes": (200, 100)})
    tracker.update([CardDetection(oq["stripes"], 1.0)], 0.1, other, None, {1: 0.9})
    assert tracker.tracks[0].track_id == 1 and tracker.tracks[0].state is CardState.COVERED
    assert np.allclose(tracker.tracks[0].quad, quads["disc"])
    assert [t.track_id for t in tracker.on_table()] == [1, 2]


def test_of_two_hidden_twins_the_one_nearest_takes_the_card_found() -> None:
    tracker = CardTracker()
    frame, quads = _scene({"disc": (100, 60)})
    tracker.update([CardDetection(quads["disc"], 1.0)], 0.0, frame)
    sig = tracker.tracks[0].signature
    assert sig is not None
    # Two hidden twins (the same face): one left up there, one carried down under a hand; the
    # far one's clean view happens to match a little better (light, blur).
    far = Track(7, quads["disc"].copy(), 1.0, CardState.COVERED, 0.0, signature=sig.copy())
    near_quad = quads["disc"] + np.float32([0, 200])
    near = Track(8, near_quad, 1.0, CardState.COVERED, 0.0, signature=sig + 1.0)
    tracker.tracks = [far, near]
    # The card is found lower down, off where the hand was taken to carry it (no overlap).
    frame, found = _scene({"disc": (130, 350)})
    tracker.update([CardDetection(found["disc"], 1.0)], 0.1, frame)
    assert near.state is CardState.VISIBLE and np.allclose(near.quad, found["disc"])
    assert far.state is CardState.COVERED
