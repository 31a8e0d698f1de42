"""Rendered scenes: deterministic pixels, and truth that matches the pixels (card corners and
edges through tilt, yaw and lens distortion; visible fractions under cards on top; hands)."""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest

from vision.render import scene as scene_mod
from vision.render.faces import CARD_SIZE_MM, DECKS, render_face
from vision.render.scene import (
    BoardPlacement,
    CameraSpec,
    CardPlacement,
    HandPlacement,
    LightSpec,
    PropPlacement,
    SceneSpec,
    TableSpec,
    card_corners_mm,
    random_scene,
    render,
)
from vision.render.scene_camera import Camera
from vision.render.scene_layout import LAYOUTS

PLAIN = LightSpec(card_shadow=0.0)
FELT = TableSpec("felt", 1)
CAMERAS = [
    CameraSpec(height_mm=600),
    CameraSpec(height_mm=650, tilt_deg=30, yaw_deg=12, k1=0.07),
    CameraSpec(height_mm=700, tilt_deg=35, yaw_deg=-20, k1=0.04, hfov_deg=66),
]


def _spec(cards, camera, hands=(), table=FELT, size=(960, 540), board=None) -> SceneSpec:
    return SceneSpec(
        width=size[0],
        height=size[1],
        table=table,
        light=PLAIN,
        camera=camera,
        cards=list(cards),
        hands=list(hands),
        board=board,
    )


def _changed(spec: SceneSpec) -> np.ndarray:
    """Pixels that differ from the same scene without cards, hands or board."""
    img, _ = render(spec)
    bare, _ = render(_spec([], spec.camera, table=spec.table, size=(spec.width, spec.height)))
    return np.abs(img.astype(int) - bare.astype(int)).max(axis=2) > 12


def test_same_spec_same_pixels_and_truth() -> None:
    spec = random_scene(11, deck="twinit", layout="overlapping", hands=2)
    a, ta = render(spec)
    scene_mod._TEX_CACHE.clear()
    scene_mod._TABLE_CACHE.clear()
    b, tb = render(random_scene(11, deck="twinit", layout="overlapping", hands=2))
    assert np.array_equal(a, b)
    assert ta.to_json() == tb.to_json()
    assert np.array_equal(ta.hand_mask, tb.hand_mask)
    c, _ = render(random_scene(12, deck="twinit", layout="overlapping", hands=2))
    assert not np.array_equal(a, c)


def test_released_caches_hold_nothing_and_frames_come_back_the_same() -> None:
    """A long run drops a finished scenario's faces, textures and maps; frames do not change."""
    from vision.render import faces, scene_light

    spec = random_scene(5, deck="twinit", layout="scattered", hands=1)
    before, _ = render(spec)
    assert scene_mod._TEX_CACHE and faces._render_face_cached.cache_info().currsize > 0
    scene_mod.release_caches()
    assert not scene_mod._TEX_CACHE and not scene_mod._TABLE_CACHE
    assert faces._render_face_cached.cache_info().currsize == 0
    assert scene_light.light_maps.cache_info().currsize == 0
    after, _ = render(spec)
    assert np.array_equal(before, after)


@pytest.mark.parametrize("camera", CAMERAS)
def test_card_edges_land_where_truth_says(camera: CameraSpec) -> None:
    cam = Camera.build(camera, 960, 540)
    x0, y0, x1, y1 = cam.footprint_rect(60)
    cards = [
        CardPlacement(0, "themind:42", 2, x0 + 0.2 * (x1 - x0), (y0 + y1) / 2, 17.0),
        CardPlacement(1, "trio:5", 0, x0 + 0.75 * (x1 - x0), y0 + 0.3 * (y1 - y0), -40.0),
        CardPlacement(2, "twinit:p010", 0, x0 + 0.6 * (x1 - x0), y0 + 0.8 * (y1 - y0), 95.0),
    ]
    spec = _spec(cards, camera)
    changed = _changed(spec)
    for card in cards:
        corners = cam.to_image(card_corners_mm(card))  # undistorted
        centre = corners.mean(axis=0)
        misses = 0
        for k in range(4):
            a, b = corners[k], corners[(k + 1) % 4]
            for t in np.linspace(0.2, 0.8, 7):
                p = a + (b - a) * t
                normal = (p - centre) / np.linalg.norm(p - centre)
                inside = cam.distort((p - 1.5 * normal)[None])[0]
                outside = cam.distort((p + 1.5 * normal)[None])[0]
                ix, iy = np.round(inside).astype(int)
                ox, oy = np.round(outside).astype(int)
                misses += int(not changed[iy, ix]) + int(changed[oy, ox])
        assert misses <= 2, f"card {card.identity}: {misses} edge samples on the wrong side"


def test_board_corners_land_where_truth_says() -> None:
    camera = CameraSpec(height_mm=650, tilt_deg=25, yaw_deg=8, k1=0.06)
    tex = np.full((300, 400, 3), 245, np.uint8)
    board = BoardPlacement(tex, 200.0, 150.0, 20.0, -10.0, 10.0)
    spec = _spec([], camera, board=board)
    _, truth = render(spec)
    changed = _changed(spec)
    cam = Camera.build(camera, spec.width, spec.height)
    H = truth.board_homography
    corners = np.array([[-0.5, -0.5], [399.5, -0.5], [399.5, 299.5], [-0.5, 299.5]])
    q = corners @ H[:, :2].T + H[:, 2]
    q = q[:, :2] / q[:, 2:3]
    centre = q.mean(axis=0)
    for p in q:
        d = (p - centre) / np.linalg.norm(p - centre)
        ix, iy = np.round(cam.distort((p - 2.0 * d)[None])[0]).astype(int)
        ox, oy = np.round(cam.distort((p + 2.0 * d)[None])[0]).astype(int)
        assert changed[iy, ix] and not changed[oy, ox]


@pytest.mark.parametrize("deck", DECKS)
def test_quad_starts_at_the_cards_own_top_left(deck: str) -> None:
    ident = {
        "twinit": "twinit:p033",
        "themind": "themind:68",
        "trio": "trio:9",
        "lineit": "lineit:23:diamond",
    }[deck]
    camera = CameraSpec(height_mm=450, tilt_deg=20, yaw_deg=5, k1=0.03)
    card = CardPlacement(0, ident, 1, 10.0, 0.0, 143.0)
    img, truth = render(_spec([card], camera))
    w_mm, h_mm = CARD_SIZE_MM[deck]
    w, h = round(w_mm * 3), round(h_mm * 3)
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    M = cv2.getPerspectiveTransform(truth.cards[0].quad.astype(np.float32), dst)
    crop = cv2.warpPerspective(img, M, (w, h)).astype(np.float32)
    face = cv2.resize(render_face(ident, 1, 6.0), (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)

    def corr(a: np.ndarray, b: np.ndarray) -> float:
        a, b = a[6:-6, 6:-6].ravel() - a.mean(), b[6:-6, 6:-6].ravel() - b.mean()
        return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))

    upright = corr(crop, face)
    assert upright > 0.8
    assert upright > corr(crop, face[::-1, ::-1]) + 0.1


def test_visible_fraction_under_a_card_on_top() -> None:
    camera = CameraSpec(height_mm=600)
    below = CardPlacement(0, "themind:10", 0, 0.0, 0.0, 0.0, z=0)
    above = CardPlacement(1, "themind:11", 0, 28.0, 20.0, 0.0, z=1)
    _, truth = render(_spec([below, above], camera))
    w, h = CARD_SIZE_MM["themind"]
    overlap = (w - 28.0) * (h - 20.0)
    expected = 1 - overlap / (w * h)
    assert truth.card(1).visible_fraction > 0.98
    assert truth.card(0).visible_fraction == pytest.approx(expected, abs=0.03)


def test_card_off_the_image_is_partly_visible() -> None:
    camera = CameraSpec(height_mm=600)
    cam = Camera.build(camera, 960, 540)
    x0, _, _, _ = cam.footprint_rect(0)
    card = CardPlacement(0, "trio:3", 0, x0, 0.0, 0.0)
    _, truth = render(_spec([card], camera))
    assert 0.35 < truth.cards[0].visible_fraction < 0.65


def test_a_hand_covers_what_the_truth_says() -> None:
    camera = CameraSpec(height_mm=650, tilt_deg=15)
    under = CardPlacement(0, "twinit:p001", 0, -60.0, 30.0, 10.0)
    free = CardPlacement(1, "twinit:p002", 0, 150.0, -80.0, 0.0)
    hand = HandPlacement.over(7, "bottom", -60.0, 30.0, skin=(60, 95, 150), sleeve=(200, 40, 40))
    spec = _spec([under, free], camera, hands=[hand])
    img, truth = render(spec)
    assert truth.card(0).covered_by_hands == (7,)
    assert truth.card(0).visible_fraction < 0.5
    assert truth.card(1).covered_by_hands == () and truth.card(1).visible_fraction > 0.98
    h = truth.hands[0]
    assert h.seat == "bottom" and h.covers == (0,)
    # the mask is where the pixels changed, and the quad of the covered card is mostly under it
    quad_mask = np.zeros(truth.hand_mask.shape, np.uint8)
    cv2.fillPoly(quad_mask, [np.round(truth.card(0).quad).astype(np.int32)], 1)
    assert truth.hand_mask[quad_mask > 0].mean() > 0.5
    no_hand, _ = render(_spec([under, free], camera))
    diff = np.abs(img.astype(int) - no_hand.astype(int)).max(axis=2) > 6
    inner = cv2.erode(truth.hand_mask.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    assert diff[inner].mean() > 0.97
    x, y, w, hh = h.bbox
    assert truth.hand_mask[y : y + hh, x : x + w].sum() == truth.hand_mask.sum()


@pytest.mark.parametrize(
    ("seat", "angle"), [("left", 0.0), ("right", 10.0), ("top", -15.0), ("bottom", 20.0)]
)
def test_hand_enters_from_its_seat(seat: str, angle: float) -> None:
    hand = HandPlacement.over(1, seat, 0.0, 0.0, angle_deg=angle, height_mm=60.0, right=False)
    _, truth = render(_spec([], CameraSpec(height_mm=700, tilt_deg=10), hands=[hand]))
    assert truth.hands[0].seat == seat
    assert truth.hand_mask.sum() > 2000


@pytest.mark.parametrize("layout", LAYOUTS)
def test_layouts_put_cards_in_view(layout: str) -> None:
    deck = DECKS[LAYOUTS.index(layout) % len(DECKS)]
    spec = random_scene(5, width=640, height=360, deck=deck, layout=layout, hands=0)
    img, truth = render(spec)
    assert img.shape == (360, 640, 3) and img.dtype == np.uint8
    assert len(truth.cards) >= 3
    seen = [c.visible_fraction for c in truth.cards]
    assert max(seen) > 0.95 and all(0 <= v <= 1 for v in seen)
    if layout in ("scattered", "rows"):
        assert min(seen) > 0.95
    if layout == "piles":
        assert min(seen) < 0.3  # cards under others
    for c in truth.cards:
        assert c.quad.shape == (4, 2)
        x, y = c.quad.mean(axis=0)
        assert -50 < x < 690 and -50 < y < 410


def test_bad_specs_are_refused() -> None:
    with pytest.raises(ValueError, match="tilt"):
        render(_spec([], CameraSpec(tilt_deg=50)))
    with pytest.raises(ValueError, match="layout"):
        random_scene(0, layout="spiral")
    with pytest.raises(ValueError, match="seat"):
        render(_spec([], CameraSpec(), hands=[HandPlacement(0, "ceiling", 0.0, 0.0)]))


def test_camera_distortion_round_trips() -> None:
    cam = Camera.build(CameraSpec(k1=0.08, tilt_deg=20), 1280, 720)
    pts = np.array([[10.0, 10.0], [640.0, 360.0], [1270.0, 700.0], [300.0, 650.0]])
    assert np.allclose(cam.undistort(cam.distort(pts)), pts, atol=1e-6)
    assert math.dist(cam.distort(pts)[1], pts[1]) < 1e-6


def test_clutter_lies_beside_cards_and_hides_what_it_covers() -> None:
    spec = random_scene(44, width=640, height=360, deck="lineit", layout="scattered", hands=0, clutter=3)
    assert len(spec.props) == 3
    img, truth = render(spec)
    assert min(c.visible_fraction for c in truth.cards) > 0.95
    bare = dataclasses.replace(spec, props=[])
    img2, truth2 = render(bare)
    assert not np.array_equal(img, img2)
    assert [c.to_json() for c in truth.cards] == [c.to_json() for c in truth2.cards]
    card = spec.cards[0]
    pad = PropPlacement("pad", 1, card.x_mm + 20, card.y_mm, 0.0, z=10_000)
    _, covered = render(dataclasses.replace(spec, props=[pad]))
    assert covered.card(card.card_id).visible_fraction < 0.75


def test_a_moving_hand_is_blurred_along_its_motion() -> None:
    camera = CameraSpec(height_mm=650)
    still = HandPlacement.over(0, "bottom", 0.0, 0.0, height_mm=40.0)
    moving = dataclasses.replace(still, motion_mm=(40.0, 0.0))
    bare, _ = render(_spec([], camera))
    a, ta = render(_spec([], camera, hands=[still]))
    b, tb = render(_spec([], camera, hands=[moving]))
    touched_a = np.abs(a.astype(int) - bare.astype(int)).max(axis=2) > 8
    touched_b = np.abs(b.astype(int) - bare.astype(int)).max(axis=2) > 8
    cols_a, cols_b = np.flatnonzero(touched_a.any(axis=0)), np.flatnonzero(touched_b.any(axis=0))
    assert cols_b.max() - cols_b.min() > cols_a.max() - cols_a.min() + 20  # smeared sideways
    rows_a, rows_b = np.flatnonzero(touched_a.any(axis=1)), np.flatnonzero(touched_b.any(axis=1))
    assert abs((rows_b.max() - rows_b.min()) - (rows_a.max() - rows_a.min())) < 8  # not up and down
    # the truth mask stays the hand's mid-exposure outline
    assert abs(int(ta.hand_mask.sum()) - int(tb.hand_mask.sum())) < 0.15 * ta.hand_mask.sum()


@pytest.mark.parametrize("x_mm", [3.3, 3.55, 3.8])
def test_edges_are_exact_to_a_tenth_of_a_pixel(x_mm: float) -> None:
    """Coverage of the pixels across an edge adds up to where truth puts the edge (no dark
    fringe from the sampling border, no half-pixel shift)."""
    tex = np.full((200, 200, 3), 255, np.uint8)
    camera = CameraSpec(height_mm=600)
    board = BoardPlacement(tex, 100.0, 100.0, x_mm, -1.7, 0.0)
    img, truth = render(_spec([], camera, board=board, size=(1280, 720)))
    bare, _ = render(_spec([], camera, size=(1280, 720)))
    q = np.array([-0.5, 100.0, 1.0]) @ truth.board_homography.T
    edge = q[0] / q[2]
    row = round(q[1] / q[2])
    g, b = img[row].astype(float).mean(axis=1), bare[row].astype(float).mean(axis=1)
    cover = (g - b) / (255.0 - b)
    k = math.floor(edge)
    measured = (k + 4 + 0.5) - cover[k - 4 : k + 5].sum()
    assert measured == pytest.approx(edge, abs=0.1)


def test_hand_over_hand_is_told() -> None:
    card = CardPlacement(0, "twinit:p005", 0, 0.0, 0.0, 0.0)
    low = HandPlacement.over(1, "bottom", 0.0, 0.0)
    high = HandPlacement.over(2, "left", 10.0, 0.0, height_mm=20.0)
    _, truth = render(_spec([card], CameraSpec(height_mm=650), hands=[low, high]))
    by_id = {h.hand_id: h for h in truth.hands}
    assert by_id[1].under == (2,) and by_id[2].under == ()
    assert set(truth.card(0).covered_by_hands) <= {1, 2} and truth.card(0).covered_by_hands
