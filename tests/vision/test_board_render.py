"""The board textures and the stand-in camera: exact truth."""

from __future__ import annotations

import random

import numpy as np
import pytest

from vision.render.board import (
    CameraSpec,
    _segments_cross,
    random_twixt_position,
    render_board_scene,
    render_board_texture,
)


def test_twixt_position_follows_the_rules() -> None:
    pegs, links = random_twixt_position(random.Random(1), 120)
    n = 24
    assert pegs[0, 0] == pegs[0, n - 1] == pegs[n - 1, 0] == pegs[n - 1, n - 1] == 0
    assert not (pegs[:, 0] == 1).any() and not (pegs[:, n - 1] == 1).any()
    assert not (pegs[0, :] == 2).any() and not (pegs[n - 1, :] == 2).any()
    assert abs(int((pegs == 1).sum()) - int((pegs == 2).sum())) <= 1
    for r1, c1, r2, c2 in links:
        assert sorted((abs(r2 - r1), abs(c2 - c1))) == [1, 2]
        assert pegs[r1, c1] == pegs[r2, c2] > 0
    assert not any(_segments_cross(a, b) for a in links for b in links if a < b)


@pytest.mark.parametrize(
    ("a", "b", "cross"),
    [
        ((0, 0, 1, 2), (0, 1, 1, -1), True),
        ((0, 0, 1, 2), (1, 2, 2, 4), False),
        ((0, 0, 2, 1), (0, 2, 2, 3), False),
    ],
)
def test_segments_cross(a: tuple, b: tuple, cross: bool) -> None:
    assert _segments_cross(a, b) is cross


def test_texture_shows_pegs_where_the_truth_says() -> None:
    pegs = np.zeros((24, 24), np.int8)
    pegs[5, 7] = 1
    pegs[10, 3] = 2
    tex, truth = render_board_texture("twixt", pegs, px_per_mm=2.0)
    x, y = (truth.holes_mm[5, 7] * 2).astype(int)
    _b, g, r = tex[y + 2, x + 2].astype(int)
    assert r > 150 and g < 80  # red peg
    x, y = (truth.holes_mm[10, 3] * 2).astype(int)
    assert tex[y + 2, x + 2].max() < 90  # black peg
    x, y = (truth.holes_mm[12, 12] * 2 + 0.5 * truth.geometry.pitch_mm * 2).astype(int)
    assert tex[y, x].min() > 150  # bare board between holes


def test_scene_truth_maps_holes_into_the_image() -> None:
    pegs = np.zeros((19, 19), np.int8)
    pegs[9, 9] = 1
    tex, truth = render_board_texture("go", pegs, px_per_mm=2.0)
    scene = render_board_scene(tex, truth, CameraSpec(640, 360, tilt_deg=20, noise=0, blur=0))
    x, y = np.round(scene.holes_px()[9, 9]).astype(int)
    assert scene.image[y, x].max() < 80  # the black stone
    assert not scene.hand_mask.any()
