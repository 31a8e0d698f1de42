"""kill -9 mid-game, restart with the same game: the state is exactly where it was."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from referee.registry import make_game
from tests.web.test_api import legal_actions
from web.app import build_context
from web.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
SERVER = """
import sys, uvicorn
from pathlib import Path
from web.app import build_context, create_app
from web.settings import Settings
data, port = Path(sys.argv[1]), int(sys.argv[2])
settings = Settings(game="lineit", players=("Ana", "Ben", "Cy"), data_dir=data, port=port)
ctx = build_context(settings)
print("resumed", ctx.live.resumed_events, flush=True)
uvicorn.run(create_app(ctx), host="127.0.0.1", port=settings.port, log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(data: Path, port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(data), str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"server did not start: {proc.stderr.read() if proc.stderr else ''}")


def call(port: int, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=data, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as reply:
        return json.loads(reply.read())


def test_kill_9_then_restart_resumes_the_same_state(tmp_path: Path) -> None:
    scratch = build_context(
        Settings(game="lineit", players=("Ana", "Ben", "Cy"), data_dir=tmp_path / "scratch")
    )
    actions = legal_actions(scratch, 12, seed=3)
    port = free_port()
    proc = start(tmp_path, port)
    try:
        for action in actions[:8]:
            call(port, "/api/actions", {"action": action})
        call(port, "/api/undo", {})
        before = call(port, "/api/state")
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    assert proc.returncode == -signal.SIGKILL
    proc = start(tmp_path, port)
    try:
        after = call(port, "/api/state")
        assert after["state"] == before["state"] and after["scores"] == before["scores"]
        assert [e["seq"] for e in after["log"]] == [e["seq"] for e in before["log"]]
        # the resumed game goes on: the 8th action (undone) and the next ones apply again
        for action in actions[7:]:
            assert call(port, "/api/actions", {"action": action})["ruling"]["applies"]
        final = call(port, "/api/state")
    finally:
        proc.terminate()
        proc.wait(10)
    game = make_game("lineit", ["Ana", "Ben", "Cy"])
    state = game.initial_state()
    for action in actions:
        state, _ = game.apply(state, game.parse_action(action))
    assert final["state"] == game.state_to_json(state)
