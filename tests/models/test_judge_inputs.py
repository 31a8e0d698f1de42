"""The judge's inputs: white balance cancelled channel by channel, and the larger second stage."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from models.files import JUDGE, MODEL_DIR
from models.preprocess import balance_channels, to_tensor
from models.training.train_judge import JudgeConfig, fine_recipe


def _face() -> np.ndarray:
    rng = np.random.default_rng(0)
    img = np.full((96, 96, 3), (150, 190, 250), np.uint8)  # peach
    img[10:40, 10:40] = (40, 215, 250)  # a yellow element
    img[55:85, 50:80] = (170, 70, 30)  # a blue one
    img[60:70, 10:30] = (245, 245, 245)
    return np.clip(img.astype(np.int16) + rng.integers(-3, 4, img.shape), 0, 255).astype(np.uint8)


def _white_balance(img: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    return np.clip(img.astype(np.float32) * np.asarray(gains, np.float32), 0, 255).astype(np.uint8)


def test_balance_cancels_a_white_balance_that_plain_exposure_keeps() -> None:
    face = _face()
    warm = _white_balance(face, (0.8, 0.95, 1.0))
    balanced = np.abs(to_tensor(face, 48, 48, balance=True) - to_tensor(warm, 48, 48, balance=True)).max()
    plain = np.abs(to_tensor(face, 48, 48) - to_tensor(warm, 48, 48)).max()
    assert balanced < 0.03 < plain


def test_balance_keeps_one_element_in_another_colour() -> None:
    face = _face()
    edited = face.copy()
    edited[10:40, 10:40] = (120, 230, 200)  # the yellow element in lime
    diff = np.abs(balance_channels(face) - balance_channels(edited)).max(axis=2)
    assert diff[15:35, 15:35].min() > 0.2  # the element differs
    assert np.median(diff[50:90, 45:90]) < 0.05  # the rest of the card hardly moves


def test_a_dark_channel_is_not_blown_up() -> None:
    img = np.full((40, 40, 3), (2, 5, 200), np.uint8)  # red card, almost no blue or green
    out = balance_channels(img)
    assert out[..., 2].max() > 0.9 and out[..., 0].max() < 0.1


def test_second_stage_sets_the_exported_size() -> None:
    assert JudgeConfig().final_size == 64 and fine_recipe(JudgeConfig()) == ""
    cfg = JudgeConfig(fine_size=96, fine_steps=10)
    assert cfg.final_size == 96 and "96 px for 10 more batches" in fine_recipe(cfg)
    assert JudgeConfig(fine_size=96, fine_steps=0).final_size == 64


def test_the_judge_prepares_crops_as_its_settings_say(tmp_path: Path) -> None:
    from vision.identity import PatternJudge

    meta = json.loads((MODEL_DIR / JUDGE.meta).read_text(encoding="utf-8"))
    for name in JUDGE.onnx:
        shutil.copy(MODEL_DIR / name, tmp_path / name)
    crop = _white_balance(_face(), (0.7, 1.0, 0.9))
    size = int(meta["input"]["width"])
    for balance in (False, True):
        meta["input"]["balance"] = balance
        (tmp_path / JUDGE.meta).write_text(json.dumps(meta), encoding="utf-8")
        judge = PatternJudge(tmp_path)
        want = to_tensor(crop, size, size, balance)
        np.testing.assert_array_equal(
            judge.signature(crop).turns[0], judge._embed.run(None, {"crops": want[None]})[0][0]
        )
