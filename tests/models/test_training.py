"""The training scripts run end to end on a tiny configuration, reproducibly, and their output loads."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from models.files import JUDGE, READER, load_meta
from models.training.patterns import ProceduralNumberDeck
from web.cli import main


@pytest.fixture(scope="module")
def tiny_judge(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("judge")
    assert main(["train", "judge", "--tiny", "--out", str(out)]) == 0
    return out


def test_tiny_judge_writes_every_file(tiny_judge: Path) -> None:
    for name in (*JUDGE.onnx, JUDGE.meta, JUDGE.card):
        assert (tiny_judge / name).is_file(), name
    meta = load_meta(JUDGE, tiny_judge)
    assert 0.0 < meta["thresholds"]["different_below"] <= 0.5 <= meta["thresholds"]["same_at_or_above"] < 1.0
    card = (tiny_judge / JUDGE.card).read_text()
    assert meta["sha256"]["judge_embed.onnx"] in card and "Seed 0" in card


def test_tiny_judge_is_reproducible(tiny_judge: Path, tmp_path: Path) -> None:
    assert main(["train", "judge", "--tiny", "--out", str(tmp_path)]) == 0
    first = json.loads((tiny_judge / JUDGE.meta).read_text())["sha256"]
    again = json.loads((tmp_path / JUDGE.meta).read_text())["sha256"]
    assert first == again


def test_tiny_judge_runs_in_the_runtime(tiny_judge: Path) -> None:
    from vision.identity import PatternJudge

    judge = PatternJudge(tiny_judge)
    face = ProceduralNumberDeck("themind").image("themind:5")
    result = judge.compare(face, face)
    assert result.verdict in ("same", "different", "uncertain")
    assert 0.0 <= result.p_same <= 1.0


def test_tiny_reader_trains_and_reads(tmp_path: Path) -> None:
    from vision.identity import NumberReader

    assert main(["train", "reader", "--tiny", "--out", str(tmp_path)]) == 0
    meta = load_meta(READER, tmp_path)
    assert meta["temperature"] > 0
    reading = NumberReader(tmp_path).read(ProceduralNumberDeck("trio").image("trio:7"), "trio")
    assert reading.kind in ("number", "bet")
    assert 1 <= reading.number <= 12
    assert 0.0 <= reading.confidence <= 1.0
    assert np.isfinite(reading.confidence)
