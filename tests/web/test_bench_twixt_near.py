"""The twixt bench's 'near a hand' measure: two pitches as the image shows them around each hole."""

from __future__ import annotations

import cv2
import numpy as np

from web.bench.twixt import near_hands, suite_board


def _scene(seed: int, index: int, hands: int | None = None):
    return suite_board(seed, index).scenes(1280, 720, hands=hands)[1]


def test_no_hand_is_near_no_hole() -> None:
    assert not near_hands(_scene(7, 15, hands=0), 2.0).any()


def test_two_pitches_are_measured_at_each_hole() -> None:
    """Seed 7, board 15 (tilted, the near side magnified): hole (22, 9) lies 1.3 of its own pitches
    below a hand; one scale for the whole board (``BoardScene.covered``) put it past two."""
    scene = _scene(7, 15)
    pitch = scene.truth.geometry.pitch_mm
    assert not scene.covered(2.0 * pitch)[22, 9]
    assert near_hands(scene, 2.0)[22, 9]
    assert not near_hands(scene, 1.0)[22, 9]
    # Every hole under a hand is near it at any radius; nearness grows with the radius.
    under = scene.covered()
    assert (near_hands(scene, 0.5) >= under).all()
    assert (near_hands(scene, 3.0) >= near_hands(scene, 2.0)).all()
    assert np.count_nonzero(near_hands(scene, 2.0)) > np.count_nonzero(under)


def test_a_hole_is_blank_only_where_the_frame_is_white_around_it() -> None:
    """The render suite's ``glare_clipped_blank``: holes whose disc in the frame is all white."""
    from dataclasses import replace

    from web.bench.twixt import _blank

    scene = _scene(7, 15, hands=0)
    holes = np.array([[5, 5], [12, 12], [20, 3]])
    assert not _blank(scene, holes).any()  # pits and pegs show on a board without glare
    x, y = scene.holes_px()[12, 12]
    image = scene.image.copy()
    cv2.circle(image, (round(x), round(y)), 40, (255, 255, 255), -1)
    white = replace(scene, image=image)
    assert _blank(white, holes).tolist() == [False, True, False]


def test_a_stray_dark_pixel_makes_a_hole_faint_not_blank() -> None:
    """``glare_clipped_faint``: a disc white but for a pixel of noise (as JPEG leaves in clipped glare)
    is not blank, but faint; one a peg's rim shows across is neither."""
    from dataclasses import replace

    from web.bench.twixt import FAINT_SHARE, _blank

    scene = _scene(7, 15, hands=0)
    holes = np.array([[12, 12]])
    x, y = scene.holes_px()[12, 12]
    image = scene.image.copy()
    cv2.circle(image, (round(x), round(y)), 40, (255, 255, 255), -1)
    image[round(y), round(x) + 2] = (240, 240, 240)
    stray = replace(scene, image=image)
    assert not _blank(stray, holes)[0]
    assert _blank(stray, holes, share=FAINT_SHARE)[0]
    pitch = float(np.linalg.norm(scene.holes_px()[12, 12] - scene.holes_px()[13, 12]))
    rim = image.copy()
    cv2.circle(rim, (round(x), round(y)), round(0.26 * pitch), (200, 200, 200), 2)
    assert not _blank(replace(scene, image=rim), holes, share=FAINT_SHARE)[0]
