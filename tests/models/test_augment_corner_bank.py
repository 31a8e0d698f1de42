"""camera_crop can take the card finder's measured corner errors (AugmentConfig.corner_bank) in place of
its Gaussian corner jitter and residual rotation: one measured card's four corners per crop, picked by
the crop's own draw, so the generator's stream and every other effect stay as they were."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from models.training.augment import AugmentConfig, _bank_row, camera_crop, corner_bank
from tests.models._faces import squares_face as _face


def _bank(tmp_path: Path, rows: list[list[float]]) -> str:
    path = tmp_path / "bank.json"
    path.write_text(json.dumps({"rows": rows}))
    corner_bank.cache_clear()
    return str(path)


def test_a_bank_of_exact_corners_gives_the_crop_without_corner_error_or_rotation(tmp_path: Path) -> None:
    bank = _bank(tmp_path, [[0.0] * 8] * 3)
    face = _face()
    for seed in range(8):
        exact = camera_crop(face, np.random.default_rng(seed), off=frozenset({"jitter", "rotation"}))
        banked = camera_crop(face, np.random.default_rng(seed), AugmentConfig(corner_bank=bank))
        assert np.array_equal(exact, banked)


def test_the_bank_leaves_the_generator_and_later_crops_as_they_were(tmp_path: Path) -> None:
    bank = _bank(tmp_path, [[0.1, -0.05, 0.0, 0.02, -0.03, 0.0, 0.0, 0.0], [0.0] * 8])
    face = _face()
    for seed in range(6):
        plain, banked = np.random.default_rng(seed), np.random.default_rng(seed)
        a = camera_crop(face, plain)
        b = camera_crop(face, banked, AugmentConfig(corner_bank=bank))
        assert a.shape == b.shape
        assert np.array_equal(camera_crop(face, plain), camera_crop(face, banked))


def test_a_measured_error_moves_the_crop_as_the_finder_would(tmp_path: Path) -> None:
    """Every corner 10 % of the side to the right: the crop starts 10 % into the card."""
    bank = _bank(tmp_path, [[0.1, 0.0] * 4])
    face = np.zeros((100, 100, 3), np.uint8)
    face[:, 50:] = 255  # right half white
    cfg = AugmentConfig(min_px=100, max_px=100.001, corner_bank=bank, light=0.0, blur_p=0.0)
    crop = camera_crop(face, np.random.default_rng(1), cfg)
    cols = crop[crop.shape[0] // 2, :, 1].astype(int)
    edge = int(np.argmax(cols > 128))
    assert abs(edge - 40) <= 2  # the half-way edge is seen at 40 % of the crop, not 50 %


def test_rows_are_picked_uniformly_by_the_normal_draw(tmp_path: Path) -> None:
    bank = _bank(tmp_path, [[float(k)] * 8 for k in range(4)])
    assert _bank_row(bank, -math.inf)[0, 0] == 0 and _bank_row(bank, math.inf)[0, 0] == 3
    picks = [_bank_row(bank, float(z))[0, 0] for z in np.random.default_rng(0).standard_normal(4000)]
    counts = np.bincount(np.asarray(picks, int), minlength=4)
    assert counts.min() > 900


def test_the_committed_bank_is_the_finders_mixture_of_exact_and_far_off_corners() -> None:
    """models/training/finder_corners.json (python -m web.bench.finder_corners --bank): most
    corners within a fraction of a pixel, a tail beyond the Gaussian simulation's clip (8.75 %)."""
    corner_bank.cache_clear()
    bank = corner_bank("finder_corners.json")
    assert bank.shape == (1386, 4, 2)
    per_corner = np.linalg.norm(bank, axis=2).reshape(-1)
    assert np.median(per_corner) < 0.01 and np.percentile(per_corner, 99) > 0.0875


def test_a_banked_crop_is_the_same_every_time() -> None:
    face = _face()
    cfg = AugmentConfig(corner_bank="finder_corners.json")
    for seed in range(4):
        a = camera_crop(face, np.random.default_rng(seed), cfg)
        assert np.array_equal(a, camera_crop(face, np.random.default_rng(seed), cfg))
        assert not np.array_equal(a, camera_crop(face, np.random.default_rng(seed)))


def test_without_a_bank_the_crops_are_byte_identical_to_those_before_the_bank() -> None:
    """sha256 of 12 default crops (shadow bands on), as 89873c3's camera_crop (before corner_bank) made
    them: the bank option changes nothing unless it is asked for."""
    import hashlib

    face = _face()
    h = hashlib.sha256()
    for seed in range(12):
        h.update(camera_crop(face, np.random.default_rng(seed), AugmentConfig(shadow_band_p=0.5)).tobytes())
    assert h.hexdigest() == "02029b0329bc1817864c703260470565fa904c0b53fba92c57d600fbac2372a1"
