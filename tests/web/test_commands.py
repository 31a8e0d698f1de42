"""``tableref demo`` and ``tableref serve`` as a user runs them: the URL printed, the page served
without any browser, bad input refused with one line and exit code 2."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLEREF = [str(Path(sys.executable).parent / "tableref")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_demo_prints_the_url_and_serves_with_no_browser(tmp_path: Path) -> None:
    port = free_port()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "OMP_NUM_THREADS": "1"}  # no DISPLAY: no browser
    proc = subprocess.Popen(
        [*TABLEREF, "demo", "--port", str(port), "--data", str(tmp_path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        line = ""
        deadline = time.monotonic() + 60
        while "http://" not in line and time.monotonic() < deadline:
            line = proc.stdout.readline() if proc.stdout else ""
            assert line or proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert f"http://127.0.0.1:{port}/" in line
        state = None
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as reply:
                    state = json.loads(reply.read())
                if state["source"]["frames"] > 0:
                    break
            except OSError:
                pass
            time.sleep(0.5)
        assert state is not None and state["game"]["name"] == "twinit"
        assert state["source"]["frames"] > 0 and state["source"]["vision"] is True
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as reply:
            assert b"tableref" in reply.read()
    finally:
        proc.terminate()
        proc.wait(20)


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        done = subprocess.run(
            [
                *TABLEREF,
                "serve",
                "--game",
                "lineit",
                "--source",
                "0",
                "--port",
                str(port),
                "--data",
                str(tmp_path),
                "--no-browser",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"tableref serve: error: port {port} on 127.0.0.1 is in use: pass another --port"
    ]


def test_bad_options_are_one_line_and_exit_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [*TABLEREF, "serve", "--game", "twinit", "--options", "{not json", "--data", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("tableref serve: error: --options '{not json' is not JSON")
