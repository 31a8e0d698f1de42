"""Calibration profiles: written, read back, validated, reused and re-found after a camera bump."""

from __future__ import annotations

import json
import random
import time
from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.board_finder import find_board
from calibration.errors import InputError
from calibration.intrinsics import calibrate_camera, undistort
from calibration.monitor import BoardWatcher, check_board
from calibration.profile import BoardCalibration, CalibrationProfile, TablePlane, profile_path
from vision.board.spec import BoardSpec
from vision.render.board import CameraSpec, random_twixt_position, render_board_scene, render_board_texture

CAM = CameraSpec(960, 540, tilt_deg=20.0, azimuth_deg=5.0, noise=2.0)
SPEC = BoardSpec.twixt()


def _frame(cam: CameraSpec = CAM) -> np.ndarray:
    pegs, links = random_twixt_position(random.Random(2), 50)
    tex, truth = render_board_texture("twixt", pegs, links)
    return render_board_scene(tex, truth, cam, seed=1).image


def test_profile_round_trips_through_a_file(tmp_path) -> None:
    loc = find_board(_frame(), 24, valid=SPEC.valid_mask())
    profile = CalibrationProfile("kitchen", "usb 0", (960, 540)).with_board(
        BoardCalibration.from_location("twixt", ("red", "black"), loc)
    )
    profile = replace(profile, plane=TablePlane(None, {"top": 1, "bottom": 0}))
    path = profile.save(profile_path(tmp_path, "kitchen", "usb 0"))
    assert path.name == "kitchen--usb-0.json"
    back = CalibrationProfile.load(path)
    assert back.board is not None and back.board.size == 24
    assert np.allclose(back.board.homography, loc.homography)
    assert dict(back.plane.seats) == {"top": 1, "bottom": 0}
    assert back.to_json() == CalibrationProfile.from_json(json.loads(path.read_text())).to_json()


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"version": 9}, "version"),
        ({"image_size": [0, 5]}, "image_size"),
        ({"plane": {"seats": {"north": 0}}}, "seat 'north'"),
        ({"board": {"kind": "chess"}}, "board kind"),
    ],
)
def test_broken_profiles_are_refused(patch: dict, message: str) -> None:
    obj = CalibrationProfile("t", "c", (640, 480)).to_json()
    obj.update(patch)
    with pytest.raises(InputError, match=message):
        CalibrationProfile.from_json(obj)


def test_missing_profile_names_the_file(tmp_path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        CalibrationProfile.load(tmp_path / "nope.json")


def test_board_check_reuses_then_refinds_after_a_camera_bump() -> None:
    frame = _frame()
    loc = find_board(frame, 24, valid=SPEC.valid_mask())
    assert check_board(frame, loc, SPEC.valid_mask()).status == "ok"
    bumped = _frame(replace(CAM, offset=(0.06, 0.03), roll_deg=4.0))
    check = check_board(bumped, loc, SPEC.valid_mask())
    assert check.status == "moved"
    assert check.location is not None and check.location.evidence > 0.9
    assert np.linalg.norm(check.location.corners - loc.corners, axis=1).max() > 20


def test_watcher_follows_the_board_in_the_background() -> None:
    frame = _frame()
    loc = find_board(frame, 24, valid=SPEC.valid_mask())
    watcher = BoardWatcher(loc, SPEC.valid_mask(), interval=0.01)
    watcher.start()
    try:
        watcher.submit(_frame(replace(CAM, offset=(-0.05, 0.02))))
        for _ in range(300):
            if watcher.moves:
                break
            time.sleep(0.02)
    finally:
        watcher.stop()
    assert watcher.moves == 1
    assert watcher.location is not None and watcher.location is not loc


def _chessboard_views(k: np.ndarray, dist: np.ndarray) -> list[np.ndarray]:
    """A 9x6 inner-corner chessboard seen from several poses by a camera with distortion."""
    sq = 30
    board = np.full((7 * sq + 2 * sq, 10 * sq + 2 * sq), 255, np.uint8)
    for r in range(7):
        for c in range(10):
            if (r + c) % 2 == 0:
                board[sq + r * sq : sq + (r + 1) * sq, sq + c * sq : sq + (c + 1) * sq] = 0
    h, w = 480, 640
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    pts = np.stack([xs.ravel(), ys.ravel()], -1).reshape(-1, 1, 2)
    und = cv2.undistortPoints(pts, k, dist, P=k).reshape(h, w, 2)
    views = []
    for rx, ry, rz, tz in [
        (0.3, 0.1, 0.0, 600),
        (-0.3, 0.2, 0.1, 650),
        (0.1, -0.35, -0.1, 620),
        (0.2, 0.3, 0.2, 700),
        (-0.2, -0.2, 0.0, 580),
    ]:
        rvec = np.array([rx, ry, rz])
        r, _ = cv2.Rodrigues(rvec)
        t = np.array([-150.0, -105.0, tz])
        hmat = (
            k @ np.column_stack([r[:, 0], r[:, 1], t]) @ np.array([[1 / 1, 0, -sq], [0, 1, -sq], [0, 0, 1]])
        )
        inv = np.linalg.inv(hmat)
        src = (
            cv2.perspectiveTransform(und.reshape(-1, 1, 2).astype(np.float64), inv)
            .reshape(h, w, 2)
            .astype(np.float32)
        )
        img = cv2.remap(board, src[..., 0], src[..., 1], cv2.INTER_LINEAR, borderValue=180)
        views.append(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR))
    return views


def test_intrinsics_from_a_chessboard_recover_the_camera() -> None:
    k = np.array([[600.0, 0, 320], [0, 600.0, 240], [0, 0, 1]])
    dist = np.array([-0.15, 0.0, 0.0, 0.0, 0.0])
    intr = calibrate_camera(_chessboard_views(k, dist), (9, 6), 30.0)
    assert intr.rms < 1.0
    assert abs(intr.camera_matrix[0, 0] - 600) < 30
    assert abs(intr.distortion[0] + 0.15) < 0.08
    assert undistort(_chessboard_views(k, dist)[0], intr).shape == (480, 640, 3)


def test_intrinsics_need_three_views() -> None:
    blank = np.full((480, 640, 3), 200, np.uint8)
    with pytest.raises(InputError, match="found in 0 of 2"):
        calibrate_camera([blank, blank])


def test_profile_keeps_the_lens_term(tmp_path) -> None:
    loc = find_board(_frame(), 24, valid=SPEC.valid_mask())
    bent = replace(loc, k1=0.031)
    board = BoardCalibration.from_location("twixt", ("red", "black"), bent)
    path = CalibrationProfile("t", "c", (960, 540)).with_board(board).save(tmp_path / "p.json")
    back = CalibrationProfile.load(path).board
    assert back is not None and back.k1 == pytest.approx(0.031)
    assert back.location((960, 540)).k1 == pytest.approx(0.031)
    # Profiles written before the lens term read as no lens; a nonsense term is refused.
    obj = json.loads(path.read_text())
    del obj["board"]["k1"]
    assert CalibrationProfile.from_json(obj).board.k1 == 0.0
    obj["board"]["k1"] = "barrel"
    with pytest.raises(InputError, match="board k1"):
        CalibrationProfile.from_json(obj)
