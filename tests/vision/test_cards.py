"""Card finder: geometry helpers, subpixel corners, rectification, and the real photos."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.cards import PORTRAIT_SIZE, SQUARE_SIZE, FinderConfig, find_cards, find_cards_baseline, rectify
from vision.cards.geometry import corner_angles, corner_error, order_quad, quad_area, quad_iou
from vision.cards.scoring import ZERO, match_quads

REAL = Path(__file__).resolve().parents[2].parent / "shared" / "realdata" / "set-boards"
if not REAL.exists():  # CI lays shared/ beside the clone
    REAL = Path(__file__).resolve().parents[2] / "shared" / "realdata" / "set-boards"


def _labels() -> dict:
    return json.loads((REAL / "labels.json").read_text())["images"]


@pytest.mark.parametrize(
    "points",
    [
        [[0, 0], [10, 0], [10, 5], [0, 5]],
        [[10, 5], [0, 5], [0, 0], [10, 0]],
        [[0, 5], [10, 5], [10, 0], [0, 0]],  # counter-clockwise input
    ],
)
def test_order_quad_is_clockwise_from_top_left(points: list[list[int]]) -> None:
    q = order_quad(np.array(points, np.float32))
    assert q[0].tolist() == [0, 0]
    assert q[1].tolist() == [10, 0]
    assert q[2].tolist() == [10, 5]


def test_quad_iou_and_area() -> None:
    a = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], np.float32)
    assert quad_area(a) == pytest.approx(100.0)
    assert quad_iou(a, a) == pytest.approx(1.0)
    assert quad_iou(a, a + 100) == 0.0
    assert quad_iou(a, a + np.float32([5, 0])) == pytest.approx(50 / 150)


def _synthetic_card(quad: np.ndarray, size: tuple[int, int] = (1280, 720)) -> np.ndarray:
    """A white card with a red print on a dark green cloth, drawn at 8x and area-averaged down,
    so that each pixel is the true coverage of its square (pixel centres at integer coordinates)."""
    w, h = size
    k = 8
    big = np.full((h * k, w * k, 3), (40, 70, 30), np.uint8)
    big_quad = (quad + 0.5) * k - 0.5
    shift = 4
    cv2.fillConvexPoly(big, np.round(big_quad * (1 << shift)).astype(np.int32), (235, 238, 240), shift=shift)
    c = big_quad.mean(axis=0)
    cv2.circle(
        big, (int(c[0]), int(c[1])), int(0.15 * np.linalg.norm(big_quad[1] - big_quad[0])), (30, 30, 200), -1
    )
    img = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)
    rng = np.random.default_rng(0)
    return cv2.add(img, rng.integers(0, 6, img.shape, dtype=np.uint8))


@pytest.mark.parametrize(
    "quad",
    [
        [[400.3, 200.6], [560.8, 210.2], [550.4, 430.9], [390.1, 420.7]],  # rotated, portrait
        [[700.25, 300.75], [820.5, 290.125], [835.0, 410.5], [712.75, 418.0]],  # near-square, skewed
    ],
)
def test_subpixel_corners_on_a_synthetic_card(quad: list[list[float]]) -> None:
    q = np.array(quad, np.float32)
    dets = find_cards(_synthetic_card(q))
    assert len(dets) == 1
    assert corner_error(dets[0].quad, q) < 0.5
    assert dets[0].confidence > 0.5


def test_rectify_gives_canonical_sizes_upright() -> None:
    portrait = np.array([[400, 200], [560, 200], [560, 450], [400, 450]], np.float32)
    landscape = np.array([[400, 200], [650, 200], [650, 360], [400, 360]], np.float32)
    square = np.array([[400, 200], [520, 200], [520, 320], [400, 320]], np.float32)
    img = _synthetic_card(portrait)
    assert rectify(img, portrait).shape[:2] == (PORTRAIT_SIZE[1], PORTRAIT_SIZE[0])
    assert rectify(img, landscape).shape[:2] == (PORTRAIT_SIZE[1], PORTRAIT_SIZE[0])
    assert rectify(img, square).shape[:2] == (SQUARE_SIZE[1], SQUARE_SIZE[0])
    crop = rectify(img, portrait)
    # The crop is the card: bright all over but for its red print in the middle.
    assert crop[5:-5, 5:-5].min(axis=2).mean() > 150
    assert crop[crop.shape[0] // 2, crop.shape[1] // 2, 2] > 150


def test_corner_angles_tell_a_card_from_a_sliver() -> None:
    square = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
    assert np.allclose(corner_angles(square), 90.0)
    # a flattened parallelogram has sides of card-like ratio but corners far from square
    sliver = np.float32([[0, 0], [40, 0], [70, 8], [30, 8]])
    assert np.abs(corner_angles(sliver) - 90.0).max() > 60
    assert np.isclose(corner_angles(sliver).sum(), 360.0)


def test_grain_sliver_is_not_a_card() -> None:
    """A thin bright streak on a dark table (wood grain under glare) is no card."""
    img = np.full((480, 640, 3), 60, np.uint8)
    streak = np.int32([[100, 200], [300, 200], [380, 240], [180, 240]])
    cv2.fillConvexPoly(img, streak, (235, 235, 235))
    assert find_cards(img) == []


def test_a_plain_patch_is_not_a_card_but_a_printed_one_is() -> None:
    """A card carries a print: a blank card-shaped patch (a sheet, a cloth's check under glare) is
    not one, the same patch with a print is."""
    q = np.array([[400.3, 200.6], [560.8, 210.2], [550.4, 430.9], [390.1, 420.7]], np.float32)
    printed = _synthetic_card(q)
    assert len(find_cards(printed)) == 1
    img = np.full((720, 1280, 3), (40, 70, 30), np.uint8)
    cv2.fillConvexPoly(img, np.round(q * 16).astype(np.int32), (235, 238, 240), cv2.LINE_AA, 4)
    plain = cv2.add(img, np.random.default_rng(0).integers(0, 6, img.shape, dtype=np.uint8))
    assert find_cards(plain) == []
    assert len(find_cards(plain, FinderConfig(min_texture=0.0))) == 1


def test_an_empty_table_has_no_card() -> None:
    rng = np.random.default_rng(1)
    table = cv2.GaussianBlur(rng.integers(30, 90, (720, 1280, 3), dtype=np.uint8), (0, 0), 3)
    assert find_cards(table) == []


def test_find_cards_rejects_non_images() -> None:
    with pytest.raises(ValueError, match="BGR image"):
        find_cards(np.zeros((10, 10), np.uint8))


# Hard ones first: touching cards (nine-cards-mixed), cards at the border and unlabelled cards
# (20170106, 20170529_203823), glare (red-1), shadows (green-2).
REAL_SUBSET = [
    "nine-cards-mixed-20161230_192740.jpg",
    "20170106_205743.jpg",
    "20170529_203823.png",
    "20170604_134234.png",
    "train/red-1-20161231_114222.jpg",
    "train/green-2-20170101_125050.jpg",
    "train/purple-3-20170101_124713.jpg",
    "train/green-3-20170101_125130.jpg",
]


def test_real_photos_finder_beats_baseline() -> None:
    labels = _labels()
    found, base = ZERO, ZERO
    for name in REAL_SUBSET:
        entry = labels[name]
        img = cv2.imread(str(REAL / name))
        assert img is not None, name
        truth = [np.array(o["quad"], np.float32) for o in entry["objects"] if o["quad"]]
        unlabelled = sum(o["quad"] is None for o in entry["objects"])
        c, _ = match_quads(
            [d.quad for d in find_cards(img)], truth, iou_threshold=0.85, unlabelled=unlabelled
        )
        b, _ = match_quads(find_cards_baseline(img), truth, iou_threshold=0.85, unlabelled=unlabelled)
        found, base = found + c, base + b
    assert found.counted_truth == 81
    assert found.precision >= 0.97, found
    assert found.recall >= 0.97, found
    assert found.recall > base.recall + 0.1, (found, base)


def _framed_card(shadow: bool = False) -> np.ndarray:
    """A grey image: a light table, a card (100..260 x 100..340) with a plain margin close to
    the table's level and a dark printed frame 6 px inside its edge (or, ``shadow``, a plain
    card with a cast shadow beside it)."""
    img = np.full((480, 400), 185, np.uint8)
    if shadow:
        cv2.rectangle(img, (106, 106), (266, 346), 120, cv2.FILLED)
        cv2.rectangle(img, (100, 100), (259, 339), 240, cv2.FILLED)
        return cv2.GaussianBlur(img, (3, 3), 0)
    cv2.rectangle(img, (100, 100), (259, 339), 205, cv2.FILLED)
    cv2.rectangle(img, (106, 106), (253, 333), 60, cv2.FILLED)
    cv2.rectangle(img, (108, 108), (251, 331), 240, cv2.FILLED)
    return cv2.GaussianBlur(img, (3, 3), 0)


def test_outer_margin_moves_a_printed_frame_out_to_the_card_edge() -> None:
    from vision.cards.refine import outer_margin, refine_quad

    grey = _framed_card()
    frame = np.float32([[107.5, 107.5], [251.5, 107.5], [251.5, 331.5], [107.5, 331.5]])
    grown = outer_margin(grey, frame)
    assert grown is not None
    quad, _ = refine_quad(grey, grown, search_px=2.0)
    card = np.float32([[99.5, 99.5], [259.5, 99.5], [259.5, 339.5], [99.5, 339.5]])
    assert corner_error(quad, card) < 1.0


def test_outer_margin_leaves_a_plain_card_beside_its_shadow() -> None:
    from vision.cards.refine import outer_margin

    card = np.float32([[99.5, 99.5], [259.5, 99.5], [259.5, 339.5], [99.5, 339.5]])
    assert outer_margin(_framed_card(shadow=True), card) is None
