"""A pile's top card bounded by its own border, not by the cards beneath (vision.cards.own_edges)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.cards.finder import FinderConfig, find_cards, fit_quad
from vision.cards.geometry import quad_iou
from vision.cards.own_edges import own_sides
from vision.render.scene import render
from vision.render.scene_layout import random_scene

from ._finder_helpers import bench_frame, best_ious


@pytest.fixture(scope="module")
def twin_it_piles():
    """The quick cards bench's frame 2: five piles of framed Twin It cards, each top card found
    with a strip of the cards beneath it before this step (IoU 0.87-0.90)."""
    return bench_frame(2, "piles", "twinit")


def test_top_cards_of_piles_end_at_their_own_border(twin_it_piles) -> None:
    image, counted = twin_it_piles
    assert len(counted) == 5
    before = best_ious(image, counted, FinderConfig(own_edges=None))
    after = best_ious(image, counted, FinderConfig())
    assert (before >= 0.9).sum() == 1
    assert (after >= 0.9).sum() == 4
    # no card found before is lost, and the ones moved now fit closely
    assert (after >= before - 0.01).all()
    assert (after[before < 0.9] >= 0.96).sum() == 3


@pytest.mark.parametrize(
    ("seed", "layout", "deck", "aspect"),
    [(0, "scattered", "twinit", 1.0), (6, "scattered", "themind", 0.645), (12, "scattered", "trio", 0.645)],
)
def test_a_card_lying_alone_is_left_where_it_is(seed: int, layout: str, deck: str, aspect: float) -> None:
    """A card's true quad, with its frame at one depth all round, is not moved."""
    image, truth = render(random_scene(seed, layout=layout, deck=deck))
    quads = [np.float32(c.quad) for c in truth.cards if c.visible_fraction >= 0.8]
    assert len(quads) >= 7
    assert all(own_sides(image, q, aspect) is None for q in quads)


def test_a_side_over_a_strip_of_the_card_beneath_moves_in() -> None:
    """A drawn card (white border, coloured face) on one of the same design that sticks out up to 15 px
    beyond its right side and turns 4 degrees: the quad of both ends at the top card's edge."""
    image = np.full((200, 240, 3), (60, 110, 150), np.uint8)  # a wooden table's brown

    def card(centre: tuple[float, float], angle: float) -> np.ndarray:
        w, h = 100.0, 100.0
        r = np.radians(angle)
        rot = np.array([[np.cos(r), -np.sin(r)], [np.sin(r), np.cos(r)]])
        corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        return (corners @ rot.T + centre).astype(np.float32)

    def draw(q: np.ndarray) -> None:
        cv2.fillConvexPoly(image, np.round(q * 16).astype(np.int32), (235, 235, 235), cv2.LINE_AA, 4)
        c = q.mean(axis=0)
        face = c + (q - c) * 0.86
        cv2.fillConvexPoly(image, np.round(face * 16).astype(np.int32), (150, 40, 120), cv2.LINE_AA, 4)

    beneath, top = card((131.0, 100.0), 4.0), card((120.0, 100.0), 0.0)
    draw(beneath)
    draw(top)
    # the outline of both, as the finder's mask sources see it
    mask = np.zeros(image.shape[:2], np.uint8)
    for q in (beneath, top):
        cv2.fillConvexPoly(mask, np.round(q).astype(np.int32), 255)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    both = fit_quad(contours[0])
    assert both is not None and quad_iou(both, top) < 0.9
    out = own_sides(image, both, 1.0)
    assert out is not None
    assert quad_iou(out, top) >= 0.96


def test_known_cards_taken_as_they_were_are_not_moved_again(twin_it_piles) -> None:
    """Cards the pipeline passes as known (unchanged since found: every step was done on them
    then) come back as they were, without the step's cost per frame."""
    image, _ = twin_it_piles
    known = find_cards(image, FinderConfig(own_edges=None))
    again = find_cards(image, FinderConfig(), known=known)
    assert len(again) == len(known)
    assert all(any(d is k for k in known) for d in again)
    # the same frame searched afresh moves the three top cards
    fresh = find_cards(image, FinderConfig())
    assert sum(not any(np.allclose(d.quad, k.quad) for k in known) for d in fresh) == 3
