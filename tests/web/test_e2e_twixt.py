"""End to end on the renderer's Twixt scenario: rendered frames -> board finder and reader ->
move tracker -> adapter -> Twixt referee -> store, and the .T1 export."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from referee.twixt.notation import hole_name
from vision.render.scenario import twixt_demo_scenario
from web.app import build_context, create_app
from web.demo_session import demo_settings
from web.session import Frame
from web.wiring import collaborators_for

pytestmark = pytest.mark.slow


def test_pegs_placed_on_the_rendered_board_become_moves(tmp_path: Path) -> None:
    scenario = twixt_demo_scenario(0, n_moves=4)
    settings = demo_settings(scenario, "twixt", data_dir=tmp_path)
    process, factory = collaborators_for(settings)
    ctx = build_context(settings, None, process, factory)
    for k, (t, image, _truth) in enumerate(scenario.frames(4.0)):
        ctx.session.handle_frame(Frame(k, t, t, image))
    expected = [hole_name((a["action"]["col"], a["action"]["row"])) for a in scenario.actions]
    played = [e["action"]["at"] for e in ctx.live.entries if e["action"]["type"] == "peg"]
    assert played == expected, (played, list(ctx.session.adapter.held))
    with TestClient(create_app(ctx, start_session=False)) as client:
        panel = client.get("/api/state").json()["panel"]
        assert len(panel["board"]["pegs"]) == len(expected)
        t1 = client.get("/api/export.T1")
        assert t1.status_code == 200 and expected[0] in t1.text
