"""The HTTP and WebSocket API with TestClient: state, actions, validation, token, undo, export."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from web.app import build_context, create_app
from web.settings import Settings


def make(tmp_path: Path, **kw) -> tuple[TestClient, object]:
    settings = Settings(game="lineit", players=("Ana", "Ben", "Cy"), data_dir=tmp_path, **kw)
    ctx = build_context(settings)
    return TestClient(create_app(ctx)), ctx


def legal_actions(ctx, n: int, seed: int = 0) -> list[dict]:
    """``n`` legal actions from the referee's own sampler (applied to a scratch state)."""
    game, state, rng, out = ctx.live.game, ctx.live.state, random.Random(seed), []
    for _ in range(n):
        action = game.sample_action(state, rng)
        state, _ = game.apply(state, action)
        out.append(game.action_to_json(action))
    return out


def test_state_actions_and_the_websocket_push(tmp_path: Path) -> None:
    client, ctx = make(tmp_path)
    with client:
        assert client.get("/api/state").json()["game"]["name"] == "lineit"
        with client.websocket_connect("/api/ws") as ws:
            hello = ws.receive_json()
            assert hello["type"] == "state" and hello["state"]["log"] == []
            action = legal_actions(ctx, 1)[0]
            reply = client.post("/api/actions", json={"action": action})
            assert reply.status_code == 200 and reply.json()["ruling"]["verdict"] == "valid"
            pushed = ws.receive_json()
            assert pushed["type"] == "ruling" and pushed["entry"]["action"] == action
            assert pushed["state"]["log"][0]["seq"] == reply.json()["seq"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"action": {"type": "fly"}}, 400, "unknown Line-it action type 'fly'"),
        ({"nope": 1}, 422, "action: Field required"),
        ({"action": [1, 2]}, 422, "action: Input should be a valid dictionary"),
        ("not json", 422, "invalid request"),
    ],
)
def test_bad_bodies_get_a_clear_4xx_and_change_nothing(tmp_path: Path, body, status: int, words: str) -> None:
    client, ctx = make(tmp_path)
    with client:
        before = ctx.live.version
        reply = (
            client.post("/api/actions", json=body)
            if not isinstance(body, str)
            else client.post("/api/actions", content=body, headers={"content-type": "application/json"})
        )
        assert reply.status_code == status
        assert words in reply.json()["error"]
        assert ctx.live.version == before and ctx.live.store.events(ctx.live.game_id) == []


def test_body_size_is_limited(tmp_path: Path) -> None:
    client, ctx = make(tmp_path, max_body_bytes=1024)
    with client:
        big = {"action": {"type": "market", "pad": "x" * 5000}}
        assert client.post("/api/actions", json=big).status_code == 413
        chunks = (b"x" * 600 for _ in range(4))  # no content-length: counted while read
        reply = client.post("/api/actions", content=chunks, headers={"content-type": "application/json"})
        assert reply.status_code == 413
        assert ctx.live.store.events(ctx.live.game_id) == []


def test_beyond_loopback_a_state_change_needs_the_token(tmp_path: Path) -> None:
    client, ctx = make(tmp_path, host="0.0.0.0", token="s3cret-token")
    action = legal_actions(ctx, 1)[0]
    with client:
        assert client.get("/api/state").status_code == 200  # anyone may watch
        refused = client.post("/api/actions", json={"action": action})
        assert refused.status_code == 403 and "token" in refused.json()["error"]
        assert client.post("/api/undo").status_code == 403
        assert (
            client.post(
                "/api/actions", json={"action": action}, headers={"X-Tableref-Token": "wrong"}
            ).status_code
            == 403
        )
        ok = client.post(
            "/api/actions", json={"action": action}, headers={"Authorization": "Bearer s3cret-token"}
        )
        assert ok.status_code == 200


def test_undo_and_export_follow_the_log(tmp_path: Path) -> None:
    client, ctx = make(tmp_path)
    actions = legal_actions(ctx, 3)
    with client:
        for action in actions:
            assert client.post("/api/actions", json={"action": action}).status_code == 200
        record = client.get("/api/export.jsonl").text.splitlines()
        assert len(record) == 4 and '"record": "tableref"' in record[0]
        seqs = [e["seq"] for e in client.get("/api/state").json()["log"]]
        assert client.post("/api/undo").json() == {"undone": max(seqs)}
        assert len(client.get("/api/export.jsonl").text.splitlines()) == 3
        state = client.get("/api/state").json()
        assert state["log"][1]["undone"] is True and state["log"][0]["kind"] == "undo"
        assert client.get("/api/export.T1").status_code == 404


def test_paths_outside_the_static_folder_are_not_served(tmp_path: Path) -> None:
    client, _ = make(tmp_path)
    with client:
        assert client.get("/").status_code == 200
        assert client.get("/static/app.js").status_code == 200
        for path in (
            "/static/../settings.py",
            "/static/%2e%2e/settings.py",
            "/static/..%2fapp.py",
            "/static//etc/passwd",
            "/api/evidence/1.jpg",
        ):
            assert client.get(path).status_code == 404, path


def test_questions_are_answered_once(tmp_path: Path) -> None:
    client, ctx = make(tmp_path)
    action = legal_actions(ctx, 1)[0]
    qid = ctx.live.ask({"en": "Deal?", "fr": "Distribuer ?"}, action, None, "vision")
    with client:
        assert client.post(f"/api/questions/{qid}/answer", json={"yes": "maybe"}).status_code == 422
        reply = client.post(f"/api/questions/{qid}/answer", json={"yes": True})
        assert reply.status_code == 200 and reply.json()["ruling"]["verdict"] == "valid"
        assert client.post(f"/api/questions/{qid}/answer", json={"yes": True}).status_code == 404
