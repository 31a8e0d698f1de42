"""``tableref board`` and ``tableref calibrate`` on rendered frames."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.render.board import CameraSpec, random_twixt_position, render_board_scene, render_board_texture
from web.cli import main

CAM = CameraSpec(960, 540, tilt_deg=20.0, azimuth_deg=-8.0, noise=2.0)


@pytest.fixture(scope="module")
def board_png(tmp_path_factory):
    pegs, links = random_twixt_position(random.Random(9), 60)
    tex, truth = render_board_texture("twixt", pegs, links)
    scene = render_board_scene(tex, truth, CAM, seed=9)
    path = tmp_path_factory.mktemp("board") / "board.png"
    cv2.imwrite(str(path), scene.image)
    return path, truth, scene


def test_board_json_matches_the_truth(board_png, capsys) -> None:
    path, truth, scene = board_png
    assert main(["board", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"size", "corners", "matrix", "links", "confidence"}
    assert out["size"] == 24
    assert np.array_equal(np.array(out["matrix"]), truth.pegs)
    assert sorted(map(tuple, out["links"])) == sorted(truth.links)
    lattice_corners = scene.holes_px()[[0, 0, 23, 23], [0, 23, 23, 0]]
    assert np.abs(np.array(out["corners"]) - lattice_corners).max() < 2
    assert 0.9 < out["confidence"] <= 1.0


def test_board_with_manual_corners(board_png, capsys) -> None:
    path, truth, scene = board_png
    corners = ",".join(f"{v:.1f}" for v in scene.corners.ravel())
    assert main(["board", str(path), "--corners", corners, "--json"]) == 0
    assert np.array_equal(np.array(json.loads(capsys.readouterr().out)["matrix"]), truth.pegs)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--corners", "1,2,3"], "--corners"),
        (["--colours", "red,purple"], "colour 'purple'"),
        (["--size", "15"], "no 15 x 15 hole lattice"),
    ],
)
def test_board_bad_input_exits_2(board_png, capsys, args: list[str], message: str) -> None:
    path, _truth, _scene = board_png
    assert main(["board", str(path), *args]) == 2
    assert message in capsys.readouterr().err


def test_board_not_found_exits_2_saying_why(tmp_path, capsys) -> None:
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((300, 400, 3), (40, 90, 50), np.uint8))
    assert main(["board", str(path)]) == 2
    assert "no board outline found" in capsys.readouterr().err


def test_calibrate_writes_reuses_and_refinds(board_png, tmp_path, capsys) -> None:
    path, truth, _scene = board_png
    args = ["calibrate", str(path), "--dir", str(tmp_path), "--table", "t1", "--camera", "c1", "--json"]
    assert main([*args, "--seats", "top=1,bottom=0"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["status"] == "found"
    assert first["plane"]["seats"] == {"top": 1, "bottom": 0}
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "reused"
    tex, _ = render_board_texture("twixt", truth.pegs, truth.links)
    bumped = render_board_scene(tex, truth, replace(CAM, offset=(0.05, -0.03), roll_deg=5.0), seed=3)
    bumped_path = tmp_path / "bumped.png"
    cv2.imwrite(str(bumped_path), bumped.image)
    assert main(["calibrate", str(bumped_path), *args[2:]]) == 0
    third = json.loads(capsys.readouterr().out)
    assert third["status"] == "re-found"
    lattice_corners = bumped.holes_px()[[0, 0, 23, 23], [0, 23, 23, 0]]
    assert np.abs(np.array(third["board"]["corners"]) - lattice_corners).max() < 2
    assert third["plane"]["seats"] == {"top": 1, "bottom": 0}
