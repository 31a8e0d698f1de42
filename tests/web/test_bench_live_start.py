"""The live bench's server start: its log goes to a file beside its data, read back when it fails."""

from pathlib import Path

import pytest

from web.bench import live


def test_a_server_that_stops_at_once_is_reported_with_its_log(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match=r"(?s)the bench server stopped: .*invalid choice"):
        live._start("nonsense", live._free_port(), tmp_path / "demo", seed=0, fps=10.0)
    log = tmp_path / "demo-server.log"
    assert "invalid choice" in log.read_text()
    assert not (tmp_path / "demo").exists()
