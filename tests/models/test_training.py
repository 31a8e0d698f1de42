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


def test_harder_digits_changes_the_readers_varied_decks_and_names_itself() -> None:
    """``--harder-digits`` (the recipe of the reader run recorded in ``ReaderConfig.small_share``) draws
    the varied decks with the extra zeros and weights and says so in the recipe; without it, the
    shipped recipe's decks."""
    from models.training.reader_faces import VariedNumberDeck
    from web.commands.train import HARDER_RECIPE, reader_decks

    for harder in (False, True):
        train, val, recipe = reader_decks("tiny", harder)
        varied = [d for d in train + val if isinstance(d, VariedNumberDeck)]
        assert varied and all(d.extra is harder for d in varied)
        assert (HARDER_RECIPE in recipe) is harder


def test_harder_digits_is_refused_for_another_model(tmp_path: Path, capsys) -> None:
    assert main(["train", "judge-verify", "--harder-digits", "--out", str(tmp_path)]) == 2
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith("--harder-digits: applies to the reader only, not to 'judge-verify'")
    )
    assert not any(tmp_path.iterdir())
