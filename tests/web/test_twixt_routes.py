"""Twixt through the API: the .T1 export of a PP game and a peg corrected with a tap."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from web.adapters.twixt import make_adapter
from web.app import build_context, create_app
from web.settings import Settings


def make(tmp_path: Path, mode: str) -> tuple[TestClient, object]:
    settings = Settings(game="twixt", mode=mode, players=("Ana", "Ben"), data_dir=tmp_path)
    ctx = build_context(settings)
    return TestClient(create_app(ctx, start_session=False)), ctx


def test_t1_export_of_a_pp_game_is_a_clear_4xx(tmp_path: Path) -> None:
    client, _ = make(tmp_path, "PP")
    with client:
        reply = client.get("/api/export.T1")
        assert reply.status_code == 409
        message = reply.json()["error"]
        assert "PP rules" in message and "\n" not in message


def test_t1_export_of_a_standard_game_is_the_record(tmp_path: Path) -> None:
    client, _ = make(tmp_path, "standard")
    with client:
        assert (
            client.post(
                "/api/actions", json={"action": {"type": "peg", "player": 0, "at": "D11"}}
            ).status_code
            == 200
        )
        reply = client.get("/api/export.T1")
        assert reply.status_code == 200 and "D11" in reply.text


def test_peg_corrections_go_to_the_seat_whose_peg_is_next(tmp_path: Path) -> None:
    client, ctx = make(tmp_path, "standard")
    adapter = make_adapter(ctx.live, ctx.settings)
    ctx.session.switch(ctx.live, adapter)
    with client:
        for hole in ("D11", "K4", "M12"):
            assert client.post("/api/corrections", json={"kind": "peg", "hole": hole}).status_code == 200
        actions = [e["action"] for e in ctx.live.entries if e.get("kind") == "action"]
        assert [(a["player"], a["at"]) for a in actions] == [(0, "D11"), (1, "K4"), (0, "M12")]
        assert list(adapter.held) == []
