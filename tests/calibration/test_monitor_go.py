"""The camera-bump check on a Go board: a lattice slid along the grid's lines is a moved board."""

from __future__ import annotations

import random
from dataclasses import replace

import cv2
import numpy as np

from calibration.board_finder import dark_response, find_board, lattice_evidence
from calibration.monitor import check_board
from vision.board.spec import BoardSpec
from vision.render.board import compositor_board_scene, random_go_position, render_board_texture


def test_a_go_lattice_slid_along_its_lines_is_a_moved_board() -> None:
    """Seed 1002's first Go board, its stored lattice sheared along the columns by 0.05 (every
    point still on a vertical line, the right-hand column 0.9 pitch down): the points alone still
    score as a fitting lattice (evidence 0.95 > 0.8); its line crossings refute it, and the board is
    found again where it lies."""
    rng = random.Random(1002)
    stones = random_go_position(rng, rng.randint(0, 250))
    tex, truth = render_board_texture("go", stones, style=rng.randrange(3))
    scene = compositor_board_scene(rng.randrange(1 << 30), tex, truth, 1280, 720)
    spec = BoardSpec.go()
    loc = find_board(scene.image, 19, valid=spec.valid_mask(), pattern="lines")
    assert check_board(scene.image, loc, spec.valid_mask(), "lines").status == "ok"
    slid_h = loc.homography @ np.array([[1, 0, 0], [0.05, 1, 0], [0, 0, 1]], np.float64)
    ends = np.array([[[0, 0]], [[18, 0]], [[18, 18]], [[0, 18]]], np.float64)
    slid = replace(loc, homography=slid_h, corners=cv2.perspectiveTransform(ends, slid_h).reshape(4, 2))
    gray = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
    points_only = lattice_evidence(
        dark_response(gray, slid.pitch_px(), "lines"), slid_h, 19, spec.valid_mask(), gray
    )
    assert points_only > 0.8
    check = check_board(scene.image, slid, spec.valid_mask(), "lines")
    assert check.status == "moved"
    assert check.location is not None
    err = np.linalg.norm(check.location.holes_px() - scene.holes_px(), axis=-1)
    assert err.max() < 0.1 * check.location.pitch_px()
