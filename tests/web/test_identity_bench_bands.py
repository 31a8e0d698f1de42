"""``tableref bench identity``'s render figures within each band of the pair's smaller crop side."""

from __future__ import annotations

import numpy as np

from web.bench.identity import _by_side


def test_by_side_counts_each_band_apart() -> None:
    kinds = np.asarray(["same", "same", "hard", "same", "random", "hard"])
    side = np.asarray([50, 55, 58, 110, 110, 105])
    correct = np.asarray([True, False, True, True, True, False])
    wrong = np.asarray([False, False, False, False, False, True])
    out = _by_side({"correct": correct, "wrong": wrong}, kinds, side)
    assert set(out) == {"44-60", "100-121"}
    assert out["44-60"] == {
        "pairs": 3,
        "confident_wrong_rate": 0.0,
        "same_accuracy": 0.5,
        "hard_negative_accuracy": 1.0,
    }
    assert out["100-121"]["pairs"] == 3
    assert out["100-121"]["same_accuracy"] == 1.0
    assert out["100-121"]["hard_negative_accuracy"] == 0.0
    assert abs(out["100-121"]["confident_wrong_rate"] - 1 / 3) < 1e-4
