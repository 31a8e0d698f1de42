"""A card's pace: a card seen sliding is looked for where its pace takes it, and a card sliding onto
its twin (a Twin It pair: the same face) lies on it, so each keeps its id."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision._frames import marked_card
from vision.cards.finder import CardDetection
from vision.observation import CardState
from vision.pipeline import TablePipeline
from vision.render.scenario import Scenario, default_base
from vision.render.scene_types import CardPlacement
from vision.tracking import CardTracker
from web.bench.cards import _ScenarioScore, _TruthFinder

FACE = "twinit:p078"


def _twin_slides_over_twin() -> Scenario:
    """Two cards of one face: card 1 lies still; card 2 slides (eased, 1 s, some 700 px) from its
    left, over card 1's place and on beyond it."""
    sc = Scenario("twin-slide", default_base(3), duration=2.0)
    sc.card_key(0.0, CardPlacement(1, FACE, 0, 0.0, 0.0, 0.0, True, 1))
    start = CardPlacement(2, FACE, 0, -250.0, 4.0, 3.0, True, 2)
    sc.card_key(0.0, start)
    sc.card_key(0.5, start)
    sc.card_key(1.5, CardPlacement(2, FACE, 0, 250.0, 4.0, 3.0, True, 2))
    return sc


def test_a_card_sliding_over_its_twin_keeps_its_id_and_the_twin_keeps_its_own() -> None:
    """Rendered frames, the true quads (tracking alone). Where card 2 lies over card 1, its quad
    overlaps card 1's place more than where card 2 was a frame before: its pace takes it there (it
    lies on top), and card 1, under it, is covered, not the same card twice. When card 2 slides on,
    card 1 shows again with its own id."""
    finder = _TruthFinder()
    pipe = TablePipeline(find=finder)
    score = _ScenarioScore()
    states: list[dict[int, CardState]] = []
    for t, image, truth in _twin_slides_over_twin().frames(fps=10.0):
        finder.truth = truth
        obs = pipe.process(image, t)
        score.add(obs, truth)
        if truth.card(1).visible_fraction < 0.5:  # card 2 over card 1
            states.append({c.track_id: c.state for c in obs.cards})
    assert score.switches == 0
    assert set(score.last_track) == {1, 2} and len(set(score.last_track.values())) == 2
    beneath = score.last_track[1]
    assert states and all(s.get(beneath) is CardState.COVERED for s in states)


def _scene(cards: dict[int, tuple[str, int]]) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    frame = np.full((480, 960, 3), 60, np.uint8)
    quads = {}
    for key, (kind, x) in cards.items():
        frame[180:300, x : x + 80] = marked_card(kind)
        quads[key] = np.float32([[x, 180], [x + 79, 180], [x + 79, 299], [x, 299]])
    return frame, quads


def test_a_sliding_card_found_where_its_pace_takes_it_is_not_its_still_twin() -> None:
    """Two cards of one look; card B slides 90 px a frame towards card A, which lies still. When
    B's quad lies on A's place (A hidden under it), B's track takes it: B's pace takes it there."""
    tracker = CardTracker()
    for k, x in enumerate((100, 190, 280)):
        frame, quads = _scene({0: ("disc", 400), 1: ("disc", x)})
        tracker.update([CardDetection(quads[0], 1.0), CardDetection(quads[1], 1.0)], 0.1 * k, frame)
    assert [t.track_id for t in tracker.tracks] == [1, 2]  # A, B
    frame, quads = _scene({1: ("disc", 370)})  # B over A (half of it): A is not found
    tracker.update([CardDetection(quads[1], 1.0)], 0.3, frame)
    by_id = {t.track_id: t for t in tracker.tracks}
    assert by_id[2].state is CardState.VISIBLE and by_id[2].quad[0, 0] == 370
    assert by_id[1].state is CardState.COVERED and by_id[1].quad[0, 0] == 400
    assert by_id[2].pace is not None and float(by_id[2].pace[0]) > 800


def test_a_card_that_stopped_has_no_pace() -> None:
    tracker = CardTracker()
    frame, quads = _scene({0: ("disc", 100)})
    tracker.update([CardDetection(quads[0], 1.0)], 0.0, frame)
    frame, quads = _scene({0: ("disc", 160)})
    tracker.update([CardDetection(quads[0], 1.0)], 0.1, frame)
    assert tracker.tracks[0].pace is not None
    tracker.update([CardDetection(quads[0], 1.0)], 0.2, frame)
    assert tracker.tracks[0].pace is None
    assert np.allclose(tracker.tracks[0].ahead(0.3, 0.35), 0.0)


def test_a_blurred_card_first_found_near_a_hidden_card_waits_for_its_look() -> None:
    """Card A is out of sight (covered: a stack's card). A card is found half a card from A's place,
    its look smeared (it slides out of the stack): it may be A, so it is tentative, out of the
    observation; in the next frame its look is clear, A's: A takes it, and no new card was ever
    shown."""
    tracker = CardTracker()
    frame, quads = _scene({0: ("disc", 300)})
    tracker.update([CardDetection(quads[0], 1.0)], 0.0, frame)
    bare, _ = _scene({})
    tracker.update([], 0.1, bare)
    assert tracker.tracks[0].state is CardState.COVERED
    frame, quads = _scene({0: ("disc", 360)})
    frame[170:310, 300:500] = cv2.blur(frame[170:310, 300:500], (81, 3))  # smeared along its slide
    tracker.update([CardDetection(quads[0], 1.0)], 0.2, frame)
    assert [t.track_id for t in tracker.confirmed()] == [1]
    assert tracker.confirmed()[0].state is CardState.COVERED
    frame, quads = _scene({0: ("disc", 380)})
    tracker.update([CardDetection(quads[0], 1.0)], 0.3, frame)
    assert [(t.track_id, t.state) for t in tracker.tracks] == [(1, CardState.VISIBLE)]
