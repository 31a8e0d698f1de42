"""python -m web.bench.finder_corners: the card finder's corner error in shares of the card's side,
and the bank of measured errors the identity bench's crops can draw from."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from web.bench.finder_corners import bank_rows, card_frame_error, finder_fingerprint, main, summary

TRUTH = np.array([[100, 50], [160, 60], [145, 150], [85, 140]], np.float64)  # 60 x ~91 px, turned


def test_a_found_quad_in_another_order_is_matched_corner_by_corner() -> None:
    for k in range(4):
        found = np.roll(TRUTH, k, axis=0)[::-1]
        assert np.abs(card_frame_error(found, TRUTH)).max() < 1e-9


def test_the_error_is_in_the_cards_own_frame_and_short_side() -> None:
    """The top-left corner moved 6 px along the card's top edge (short side ~60.8 px): x ~0.1, y 0."""
    top = (TRUTH[1] - TRUTH[0]) / np.linalg.norm(TRUTH[1] - TRUTH[0])
    found = TRUTH.copy()
    found[0] += 6.0 * top
    err = card_frame_error(found, TRUTH)
    assert abs(err[0, 0] - 6.0 / 60.8) < 0.01 and abs(err[0, 1]) < 0.01
    assert np.abs(err[1:]).max() < 1e-6


def test_summary_and_bank_keep_only_the_found_cards() -> None:
    rows = [
        {"iou": 0.97, "err": [0.0, 0.01, 0.0, 0.0], "vec": [[0.0, 0.01]] + [[0.0, 0.0]] * 3},
        {"iou": 0.7, "err": [0.3, 0.2, 0.0, 0.0], "vec": [[0.3, 0.0], [0.2, 0.0], [0.0, 0.0], [0.0, 0.0]]},
        {"iou": 0.2},
    ]
    s = summary(rows, 0.9)
    assert s["cards"] == 3 and s["found"] == 1 and s["cards_worst_corner_over"]["0.05"] == 0.0
    assert summary(rows, 0.5)["cards_worst_corner_over"]["0.15"] == 0.5
    assert bank_rows(rows) == [[0.0, 0.01, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]


def test_the_tool_measures_rendered_scenes_and_writes_a_bank(tmp_path: Path, capsys) -> None:
    bank = tmp_path / "bank.json"
    assert main(["--frames", "2", "--frames-1080", "0", "--bank", str(bank), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    found = out["720p"]["iou0.9"]
    assert found["found"] >= 4 and found["per_corner"]["p50"] < 0.05
    rows = json.loads(bank.read_text())["rows"]
    assert len(rows) == found["found"] == out["bank_iou0.9"]["rows"] and all(len(r) == 8 for r in rows)
    source = json.loads(bank.read_text())["source"]
    assert source == {
        "finder_sha256": finder_fingerprint(),
        "scenes_seed": 0,
        "frames_720p": 2,
        "frames_1080p": 0,
        "min_iou": 0.9,
    }


def test_the_committed_banks_say_which_finder_they_measured() -> None:
    from models.training.augment import bank_source

    for name, iou, cards in (("finder_corners.json", 0.9, 1386), ("finder_corners_iou05.json", 0.5, 1720)):
        src = bank_source(name)
        assert src["cards"] == cards and src["min_iou"] == iou and src["scenes_seed"] == 0
        assert (src["frames_720p"], src["frames_1080p"]) == (300, 120) and len(src["finder_sha256"]) == 64
