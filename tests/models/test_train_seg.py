"""``tableref train seg --tiny`` runs end to end, reproducibly, and what it writes loads and runs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from models.errors import ModelError
from models.files import SEG, load_meta
from web.cli import main


@pytest.fixture(scope="module")
def tiny_seg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("seg")
    assert main(["train", "seg", "--tiny", "--out", str(out)]) == 0
    return out


def test_tiny_seg_writes_every_file(tiny_seg: Path) -> None:
    for name in (*SEG.onnx, SEG.meta, SEG.card):
        assert (tiny_seg / name).is_file(), name
    meta = load_meta(SEG, tiny_seg)
    assert meta["channels"][:4] == ["core", "card", "boundary", "hand"]
    assert meta["channels"][4:] == ["center", "c0x", "c0y", "c1x", "c1y", "c2x", "c2y", "c3x", "c3y"]
    assert meta["command"] == "tableref train seg --tiny"
    assert set(meta["validation"]) >= {"core_iou", "card_iou", "boundary_iou", "hand_iou", "center_recall"}
    card = (tiny_seg / SEG.card).read_text()
    assert meta["sha256"]["table_seg.onnx"] in card and "Seed 0" in card
    assert "tableref train seg --tiny" in card


def test_tiny_seg_is_reproducible(tiny_seg: Path, tmp_path: Path) -> None:
    assert main(["train", "seg", "--tiny", "--out", str(tmp_path)]) == 0
    first = json.loads((tiny_seg / SEG.meta).read_text())
    again = json.loads((tmp_path / SEG.meta).read_text())
    assert first["sha256"] == again["sha256"]
    assert first["validation"] == again["validation"]


def test_tiny_seg_runs_in_the_runtime(tiny_seg: Path) -> None:
    from vision.segmenter import Segmenter

    seg = Segmenter(tiny_seg).segment(np.full((90, 160, 3), 120, np.uint8))
    # tiny: long side 128 -> input 128 x 64 (multiples of 16), maps at half of it
    assert seg.card.shape == (32, 64)
    for m in (seg.core, seg.card, seg.boundary, seg.hand):
        assert m.dtype == np.float32 and np.all((m >= 0) & (m <= 1))
    assert seg.hand_mask().shape == (90, 160)
    # the card-instance maps: centre probabilities and corner offsets at the maps' size
    assert seg.center is not None and seg.center.shape == (32, 64)
    assert seg.corners is not None and seg.corners.shape == (8, 32, 64)
    for quad, prob in seg.card_quads(0.0):
        assert quad.shape == (4, 2) and 0.0 <= prob <= 1.0


def test_a_corrupt_model_names_the_file_and_the_command(tiny_seg: Path, tmp_path: Path) -> None:
    from vision.segmenter import Segmenter

    for name in (SEG.meta, *SEG.onnx):
        (tmp_path / name).write_bytes((tiny_seg / name).read_bytes())
    onnx = tmp_path / SEG.onnx[0]
    onnx.write_bytes(onnx.read_bytes()[:-10])
    with pytest.raises(ModelError, match=r"table_seg\.onnx.*corrupt.*tableref train seg"):
        Segmenter(tmp_path)
    onnx.unlink()
    with pytest.raises(ModelError, match=r"table_seg\.onnx.*missing.*tableref train seg"):
        Segmenter(tmp_path)
    (tmp_path / SEG.meta).unlink()
    with pytest.raises(ModelError, match=r"table_seg\.json.*missing.*tableref train seg"):
        Segmenter(tmp_path)
