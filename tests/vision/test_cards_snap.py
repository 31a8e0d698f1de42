"""Snapping a card quad's sides to the card's outer edge (vision.cards.snap)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.cards.geometry import quad_iou
from vision.cards.segment import table_colours
from vision.cards.snap import snap_quad

TABLE = (40, 90, 150)  # brown wood-ish, BGR
BORDER = (225, 235, 240)  # the card's light border
FACE = (150, 60, 200)  # the coloured face printed inside it


def _rect(cx: float, cy: float, w: float, h: float, angle: float) -> np.ndarray:
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return (local @ rot.T + (cx, cy)).astype(np.float32)


SS = 8
"""Supersampling of the drawn images (edges land where the quads say, to a small fraction of a px)."""


def _fill(img: np.ndarray, quad: np.ndarray, colour: tuple[int, int, int]) -> None:
    """Fill ``quad`` (pixel-centre coordinates) into ``img``, anti-aliased by supersampling."""
    h, w = img.shape[:2]
    big = cv2.resize(img, (w * SS, h * SS), interpolation=cv2.INTER_NEAREST)
    mask = np.zeros(big.shape[:2], np.uint8)
    pts = np.round(((quad + 0.5) * SS - 0.5) * 16).astype(np.int32)
    cv2.fillConvexPoly(mask, pts, 255, cv2.LINE_8, 4)
    big[mask > 0] = colour
    small = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)
    touched = cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA) > 0
    img[touched] = small[touched]


def _table(rng: np.random.Generator) -> np.ndarray:
    img = np.empty((360, 480, 3), np.uint8)
    img[:] = TABLE
    noise = rng.normal(0, 3, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def _card(img: np.ndarray, cx: float, cy: float, angle: float) -> np.ndarray:
    """A 90 x 90 px card with a 5 px light border around its face; its true quad."""
    outer = _rect(cx, cy, 90, 90, angle)
    _fill(img, outer, BORDER)
    _fill(img, _rect(cx, cy, 80, 80, angle), FACE)
    return outer


@pytest.mark.parametrize("angle", [0.0, 17.0, 38.0])
def test_inner_print_moves_out_to_the_paper(angle: float) -> None:
    rng = np.random.default_rng(1)
    img = _table(rng)
    truth = _card(img, 240, 180, angle)
    inner = _rect(240, 180, 80, 80, angle)  # what a finder fitted to the face finds
    assert quad_iou(inner, truth) < 0.8
    snapped, score = snap_quad(img, inner, table_colours(img))
    assert quad_iou(snapped, truth) > 0.97
    assert np.abs(snapped - truth).max() < 0.5
    assert score > 0.3


def test_a_neighbour_beyond_the_gap_is_not_the_edge() -> None:
    rng = np.random.default_rng(2)
    img = _table(rng)
    truth = _card(img, 180, 180, 0.0)
    _card(img, 180 + 90 + 4, 180, 0.0)  # a neighbour 4 px to the right
    rough = truth + rng.normal(0, 0.7, truth.shape).astype(np.float32)
    snapped, _ = snap_quad(img, rough, table_colours(img))
    assert quad_iou(snapped, truth) > 0.97


def test_without_an_edge_the_quad_stays() -> None:
    img = np.full((200, 200, 3), 128, np.uint8)
    quad = _rect(100, 100, 60, 60, 10.0)
    snapped, score = snap_quad(img, quad, table_colours(img))
    assert np.abs(snapped - quad).max() < 1e-3
    assert score == 0.0
