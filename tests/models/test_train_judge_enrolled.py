"""`tableref train judge-enrolled`: the closed-set rule's calibration from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.identity import enrolled_calibration
from web.cli import main


def test_the_command_calibrates_into_out_and_prints_a_summary(tmp_path: Path, monkeypatch, capsys) -> None:
    calls: list[tuple[Path, bool]] = []

    def calibrate(out_dir: Path, quick: bool = False) -> dict:
        calls.append((Path(out_dir), quick))
        (Path(out_dir) / "judge_enrolled.json").write_text("{}\n", encoding="utf-8")
        return {"calibration": {"complete_decks": 1}, "seconds": 1.5}

    monkeypatch.setattr(enrolled_calibration, "calibrate", calibrate)
    assert main(["train", "judge-enrolled", "--quick", "--out", str(tmp_path)]) == 0
    assert calls == [(tmp_path, True)]
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["model"] == "judge-enrolled" and summary["config"] == "quick"
    assert summary["calibration"] == {"complete_decks": 1} and summary["out"] == str(tmp_path)


@pytest.mark.parametrize(
    ("flags", "named"),
    [(["--tiny"], "--tiny"), (["--seed", "3"], "--seed"), (["--steps", "9"], "--steps"),
     (["--card-only"], "--card-only")],
)  # fmt: skip
def test_flags_that_do_not_apply_are_refused(tmp_path: Path, monkeypatch, capsys, flags, named) -> None:
    monkeypatch.setattr(enrolled_calibration, "calibrate", lambda *a, **k: pytest.fail("calibrated"))
    assert main(["train", "judge-enrolled", *flags, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"{named}: does not apply to judge-enrolled" in err
    assert not any(tmp_path.iterdir())
