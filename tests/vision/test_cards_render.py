"""The card finder, hands and tracking on rendered frames (``vision.render``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.cards import find_cards, find_cards_baseline
from vision.cards.geometry import corner_error, quad_iou
from vision.cards.scoring import ZERO, match_quads
from vision.hands import HandTracker
from vision.observation import CardState, Seat
from vision.pipeline import TablePipeline
from vision.render.scenario import twinit_demo_scenario
from vision.render.scene import render
from vision.render.scene_layout import random_scene
from vision.render.scene_types import TableSpec

SCENES = [
    (1, "scattered", "twinit"),
    (2, "scattered", "themind"),
    (3, "rows", "trio"),
    (4, "piles", "lineit"),
    (5, "overlapping", "themind"),
    (6, "scattered", "lineit"),
    (7, "touching", "twinit"),
    (8, "fanned", "trio"),
    (9, "rows", "themind"),
    (10, "overlapping", "twinit"),
]


def test_rendered_scenes_found_and_better_than_baseline() -> None:
    found, base = ZERO, ZERO
    errors = []
    for seed, layout, deck in SCENES:
        image, truth = render(random_scene(seed, layout=layout, deck=deck, hands=0))
        quads = [c.quad for c in truth.cards]
        counted = [c.visible_fraction >= 0.8 for c in truth.cards]
        dets = find_cards(image)
        c, pairs = match_quads([d.quad for d in dets], quads, counted, iou_threshold=0.9)
        b, _ = match_quads(find_cards_baseline(image), quads, counted, iou_threshold=0.9)
        found, base = found + c, base + b
        errors += [corner_error(dets[i].quad, quads[j]) for i, j, _ in pairs]
    assert found.counted_truth >= 50
    # Measured when written: precision 0.67, recall 0.48 on these ten scenes (the baseline's:
    # 0.84, 0.36). Far from the targets (see the bench); the floors catch regressions.
    assert found.recall >= 0.42, found
    assert found.precision >= 0.55, found
    assert found.recall >= base.recall + 0.05, (found, base)
    assert float(np.median(errors)) < 1.0


def test_hands_on_a_rendered_table_cover_the_true_cards() -> None:
    spec = random_scene(11, layout="scattered", deck="themind", hands=2)
    assert spec.hands
    image, truth = render(spec)
    table, _ = render(replace(spec, hands=[]))
    quads = {c.card_id: c.quad for c in truth.cards}
    tracker = HandTracker()
    tracker.update(table, 0.0, quads, list(quads.values()))
    res = tracker.update(image, 0.1, quads, [d.quad for d in find_cards(image)])
    true_cover = {c.card_id for c in truth.cards if c.covered_by_hands}
    found_cover = {tid for h in res.hands for tid in h.covers}
    assert found_cover == true_cover
    assert {h.seat for h in res.hands} <= {Seat(h.seat) for h in truth.hands}
    inter = np.logical_and(res.mask, truth.hand_mask).sum()
    union = np.logical_or(res.mask, truth.hand_mask).sum()
    assert inter / union > 0.7


def test_demo_scenario_tracks_keep_their_ids() -> None:
    scenario = twinit_demo_scenario(0)
    pipe = TablePipeline()
    last: dict[int, int] = {}
    switches = seen = 0
    for t, image, truth in scenario.frames(fps=10.0, end=4.0):
        obs = pipe.process(image, t)
        visible = [c for c in obs.cards if c.state is CardState.VISIBLE]
        for card in truth.cards:
            if card.visible_fraction < 0.8:
                continue
            best = max(visible, key=lambda v: quad_iou(v.quad, card.quad), default=None)
            if best is None or quad_iou(best.quad, card.quad) < 0.5:
                continue
            seen += 1
            if card.card_id in last and last[card.card_id] != best.track_id:
                switches += 1
            last[card.card_id] = best.track_id
    assert seen > 100
    assert switches <= 2


@pytest.mark.parametrize("size", [(640, 480), (1920, 1080)])
def test_finder_works_from_vga_to_full_hd(size: tuple[int, int]) -> None:
    # Felt: white cards on a white-checked cloth are the finder's known blind spot (the bench
    # counts them; this test is about image sizes).
    spec = random_scene(
        21,
        layout="scattered",
        deck="trio",
        hands=0,
        width=size[0],
        height=size[1],
        table=TableSpec("felt", 0),
    )
    image, truth = render(spec)
    quads = [c.quad for c in truth.cards]
    counted = [c.visible_fraction >= 0.8 for c in truth.cards]
    c, _ = match_quads([d.quad for d in find_cards(image)], quads, counted, iou_threshold=0.85)
    assert c.recall >= 0.6, c
