"""``TABLEREF_BENCH_KEEP``: the live bench's server log, truth and received messages outlive its
temporary folder, for tracing a run; without it nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from web.bench.live import KEEP_ENV, _keep


def _run_folder(tmp_path: Path) -> Path:
    data = tmp_path / "run"
    data.mkdir()
    (data / "demo-server.log").write_text("ERROR the game adapter failed on frame 12\n")
    (data / "truth.jsonl").write_text('{"t": 0.0, "mono": 5.0, "events": []}\n')
    return data


def test_keep_copies_the_log_truth_and_messages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _run_folder(tmp_path)
    keep = tmp_path / "kept" / "run1"
    monkeypatch.setenv(KEEP_ENV, str(keep))
    seen = [(7.5, {"type": "timer", "timer": {"started_mono": 7.25}})]
    _keep(data, seen)
    assert (keep / "demo-server.log").read_text() == "ERROR the game adapter failed on frame 12\n"
    assert (keep / "truth.jsonl").read_text() == (data / "truth.jsonl").read_text()
    rows = [json.loads(line) for line in (keep / "received.jsonl").read_text().splitlines()]
    assert rows == [{"recv": 7.5, "msg": {"type": "timer", "timer": {"started_mono": 7.25}}}]


def test_nothing_is_kept_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _run_folder(tmp_path)
    monkeypatch.delenv(KEEP_ENV, raising=False)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    _keep(data, [(1.0, {"type": "timer", "timer": {}})])
    assert sorted(p.name for p in tmp_path.rglob("*")) == before
