"""End to end on the renderer's Twin It demo scenario: rendered frames -> card finder, tracker and
hands -> adapter -> referee -> store -> API. The scenario's truth only scores the result.

The pattern comparisons use a plain colour-histogram comparator (the identity judge has its own
tests and benchmark); every other stage is the real one.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from vision.pipeline import TablePipeline
from vision.render.scenario import twinit_demo_scenario
from web.adapters.twinit import make_twinit_adapter
from web.app import build_context, create_app
from web.demo_session import demo_settings
from web.session import Frame

pytestmark = pytest.mark.slow


def histogram_compare(a: np.ndarray, b: np.ndarray) -> float:
    def hist(x: np.ndarray) -> np.ndarray:
        hsv = cv2.cvtColor(cv2.resize(x, (64, 64)), cv2.COLOR_BGR2HSV)
        h = cv2.calcHist([hsv], [0, 1], None, [18, 8], [0, 180, 0, 256])
        return cv2.normalize(h, h).flatten()

    corr = cv2.compareHist(hist(a), hist(b), cv2.HISTCMP_CORREL)
    return float(np.clip((corr - 0.5) / 0.45, 0.0, 1.0))


def play(ctx, scenario, fps: float, start: float, end: float) -> None:
    """The session's vision step on every frame, in order (no frame dropped: deterministic)."""
    for k, (t, image, _truth) in enumerate(scenario.frames(fps, start, end)):
        ctx.session.handle_frame(Frame(k, t, t, image))


def test_the_first_slap_is_ruled_from_the_rendered_video(tmp_path: Path) -> None:
    scenario = twinit_demo_scenario(0)
    settings = demo_settings(scenario, "twinit", data_dir=tmp_path)
    pipeline = TablePipeline()
    ctx = build_context(settings, None, pipeline.process, make_twinit_adapter(histogram_compare))
    play(ctx, scenario, 5.0, 0.0, 31.0)
    truth = next(a for a in scenario.actions if a["action"]["type"] == "claim")
    claims = [e for e in ctx.live.entries if e.get("kind") == "action" and e["action"]["type"] == "claim"]
    assert claims, [e["action"] for e in ctx.live.entries]
    first = claims[0]
    assert sorted(map(str, first["action"]["cards"])) == sorted(map(str, truth["action"]["cards"]))
    assert first["ruling"]["verdict"] == "valid", first
    assert abs(first["evidence"]["landed_mono"] - truth["t"]) < 1.0
    with TestClient(create_app(ctx, start_session=False)) as client:
        state = client.get("/api/state").json()
        assert state["scores"]["captures"]["Ana"] == 1
        image = client.get(first["evidence"]["image"])
        assert image.status_code == 200 and image.content[:2] == b"\xff\xd8"
    actions = [e for e in ctx.live.entries if e.get("kind") == "action"]
    plays = [e for e in actions if e["action"]["type"] == "play"]
    truth_plays = [a for a in scenario.actions if a["action"]["type"] == "play" and a["t"] < 31.0]
    assert [p["action"]["player"] for p in plays] == [a["action"]["player"] for a in truth_plays]


def test_the_spread_starts_the_cooperative_minute_by_itself(tmp_path: Path) -> None:
    from web.demo_session import twinit_context

    scenario = twinit_demo_scenario(0)
    settings = demo_settings(scenario, "twinit", data_dir=tmp_path)
    ctx, _ = twinit_context(settings, None, make_twinit_adapter(histogram_compare))
    spread = next(a for a in scenario.actions if a["action"]["type"] == "start")
    play(ctx, scenario, 5.0, spread["t"] - 8.0, spread["t"] + 3.0)
    assert ctx.live.game.mode == "cooperative"
    assert ctx.live.snapshot_state()["phase"] == "minute"
    timer = ctx.live.timer_json()
    assert timer is not None and timer["seconds"] == 60.0
    # frames carry the scenario time as their capture time here: the start is that of the spread
    assert abs(ctx.live.timer.started_mono - spread["t"]) <= 0.4
    start = next(e for e in ctx.live.entries if e.get("kind") == "action" and e["action"]["type"] == "start")
    assert len(start["action"]["faces"]) >= 0.6 * len(spread["action"]["faces"])
