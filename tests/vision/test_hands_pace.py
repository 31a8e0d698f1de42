"""A carried card follows its hand's motion; a hand of one colour matches about as well all along its
arm, and of those near matches the one that keeps the hand's pace is taken."""

from __future__ import annotations

import cv2
import numpy as np

from vision.hands import HandConfig, _region, make_patch, patch_motion

SKIN = np.array([90, 120, 200], np.float32)


def _arm_frame(rng: np.random.Generator, reach_x: int) -> tuple[np.ndarray, np.ndarray]:
    """A grey table with an arm of one colour (a little noise) from the left edge to ``reach_x``,
    and the arm's mask."""
    frame = rng.normal(70.0, 4.0, (360, 640, 3))
    mask = np.zeros((360, 640), bool)
    mask[80:280, :reach_x] = True
    frame[mask] = SKIN + rng.normal(0.0, 3.0, (int(mask.sum()), 3))
    return np.clip(frame, 0, 255).astype(np.uint8), mask


def test_an_arm_of_one_colour_is_followed_at_its_pace() -> None:
    """The patch around the carried card holds only the arm (its fingertips and edges lie outside
    it): every shift along the arm fits it as well as the true one. Expected 30 px to the right
    (the pace of the last frames), the match gives the true 30 px, not a shift found by noise."""
    rng = np.random.default_rng(3)
    quad = np.float32([[260, 140], [340, 140], [340, 220], [260, 220]])
    scale = 0.5
    errors = []
    for _ in range(5):
        before, mask = _arm_frame(rng, 500)
        after, _ = _arm_frame(rng, 530)
        low = cv2.resize(mask.astype(np.uint8), (320, 180), interpolation=cv2.INTER_NEAREST).astype(bool)
        patch = make_patch(before, _region(quad, HandConfig().patch_grow, before.shape[:2]), low, scale)
        found = patch_motion(patch, after, quad, 1.0, np.float32([30.0, 0.0]), HandConfig().pace_weight)
        assert found is not None
        shift, rms = found
        assert rms < 10.0
        errors.append(float(np.linalg.norm(shift - np.float32([30.0, 0.0]))))
    assert max(errors) <= 4.0, errors
