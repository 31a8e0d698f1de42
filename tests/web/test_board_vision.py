"""The live Twixt vision follows a board that moved: the background check finds it again and the
game read so far goes on (issue #6: "a background check that re-finds the board when it or the
camera moves")."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np
import pytest

import web.board_vision as board_vision
from referee.twixt.notation import hole_name
from vision.render.scenario import twixt_demo_scenario
from web.app import build_context
from web.demo_session import demo_settings
from web.session import Frame
from web.wiring import collaborators_for

pytestmark = pytest.mark.slow


def knock(w: int, h: int) -> np.ndarray:
    """The board knocked: 3 degrees round the image's centre, then 17 px right and 11 px up."""
    m = cv2.getRotationMatrix2D((w / 2, h / 2), 3.0, 1.0)
    m[:, 2] += (17.0, -11.0)
    return m


def bumped(image: np.ndarray) -> np.ndarray:
    """The frame after the knock."""
    h, w = image.shape[:2]
    return cv2.warpAffine(image, knock(w, h), (w, h), borderMode=cv2.BORDER_REPLICATE)


def test_a_board_knocked_mid_game_is_found_again_and_its_moves_read_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(board_vision, "CHECK_EVERY_S", 0.05)
    scenario = twixt_demo_scenario(0, n_moves=4)
    settings = demo_settings(scenario, "twixt", data_dir=tmp_path)
    process, factory = collaborators_for(settings)
    vision = process.__self__
    ctx = build_context(settings, None, process, factory)
    frames = list(scenario.frames(4.0))
    knocked_at = len(frames) // 2
    expected = [hole_name((a["action"]["col"], a["action"]["row"])) for a in scenario.actions]
    try:
        for k, (t, image, _truth) in enumerate(frames):
            if k < knocked_at:
                ctx.session.handle_frame(Frame(k, t, t, image))
                continue
            if k == knocked_at:
                played = [e["action"]["at"] for e in ctx.live.entries if e["action"]["type"] == "peg"]
                assert 0 < len(played) < len(expected), played  # knocked mid-game
                found = vision.location
            ctx.session.handle_frame(Frame(k, t, t, bumped(image)))
            if k == knocked_at:  # (the check runs on its own thread: give it the time a frame would)
                deadline = time.monotonic() + 20.0
                while vision.watcher is not None and vision.watcher.moves == 0:
                    assert time.monotonic() < deadline, "the board's background check saw no move"
                    time.sleep(0.02)
        played = [e["action"]["at"] for e in ctx.live.entries if e["action"]["type"] == "peg"]
        assert played == expected, (played, list(ctx.session.adapter.held))
        assert vision.location is not found and vision.problem == ""
        h, w = frames[0][1].shape[:2]
        knocked = cv2.transform(found.corners.reshape(-1, 1, 2), knock(w, h)).reshape(-1, 2)
        assert np.linalg.norm(vision.location.corners - knocked, axis=1).max() < 3.0
    finally:
        vision.close()
