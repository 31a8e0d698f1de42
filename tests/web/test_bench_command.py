"""``tableref bench``'s options as a user types them: each reaches its suite, or is refused with one
line and exit code 2 where the suite has no such thing."""

from __future__ import annotations

from typing import Any

import pytest

from web.cli import main


def test_camera_reaches_the_live_bench(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def fake_run(quick: bool, seed: int, **extra: Any) -> dict[str, Any]:
        seen.update(quick=quick, seed=seed, **extra)
        return {}

    monkeypatch.setattr("web.bench.live.run", fake_run)
    assert main(["bench", "live", "--quick", "--json", "--camera", "render", "--seed", "3"]) == 0
    assert seen == {"quick": True, "seed": 3, "camera": "render"}
    seen.clear()
    assert main(["bench", "live", "--quick", "--json"]) == 0
    assert seen == {"quick": True, "seed": 0}  # the bench's own default camera


def test_camera_is_the_live_bench_s_option_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "twixt", "--quick", "--camera", "jpeg"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--camera: only the live bench has a camera, not 'twixt'" in err


def test_an_unknown_camera_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["bench", "live", "--camera", "phone"])
    assert stop.value.code == 2
    assert "invalid choice: 'phone'" in capsys.readouterr().err
