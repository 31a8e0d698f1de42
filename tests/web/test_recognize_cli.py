"""``tableref recognize``: JSON output, annotated image, one-line errors with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision._frames import PHOTO, real_dir
from vision.cards.geometry import quad_iou
from web.cli import main


def test_json_lists_every_card(capsys: pytest.CaptureFixture[str]) -> None:
    path = real_dir() / PHOTO
    assert main(["recognize", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["width"], out["height"]) == (960, 720)
    assert len(out["cards"]) == 12
    for card in out["cards"]:
        assert set(card) == {"quad", "confidence", "identity"}
        assert card["identity"] is None
        assert np.array(card["quad"]).shape == (4, 2)
        assert 0.0 < card["confidence"] <= 1.0
    labels = json.loads((real_dir() / "labels.json").read_text())["images"][PHOTO]["objects"]
    for obj in labels:
        assert max(quad_iou(np.array(obj["quad"]), np.array(c["quad"])) for c in out["cards"]) >= 0.85


def test_out_writes_an_annotated_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_path = tmp_path / "annotated.png"
    assert main(["recognize", str(real_dir() / PHOTO), "--out", str(out_path)]) == 0
    assert "12 cards" in capsys.readouterr().out
    img = cv2.imread(str(out_path))
    src = cv2.imread(str(real_dir() / PHOTO))
    assert img is not None and img.shape == src.shape
    assert (img != src).any()


@pytest.mark.parametrize("content", [b"", b"GIF89a not really", b"\x89PNG\r\n\x1a\n broken"])
def test_unreadable_files_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    bad = tmp_path / "photo.png"
    bad.write_bytes(content)
    assert main(["recognize", str(bad), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert "photo.png" in lines[0] and "image" in lines[0]


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["recognize", str(tmp_path / "nope.jpg")]) == 2
    assert "nope.jpg" in capsys.readouterr().err
