"""Hands on a wood of grain, told from their shadows by the grain (issue #3, the held-out Twin It
game of seed 9, whose dark hands were half out of the mask).

- A dark hand dims the wood by about one ratio in every channel, as a shadow does, so its rim,
  fingers and wrist were taken for its shadow, the palm was cut off the arm and the mask lost it
  (0.20 to 0.64 of the hands in the mask at 1.4-8.4 s).
- The top player's hand from 9.6 s shows the wood's own colours: its difference from the memory is
  under ``diff_threshold`` but on the grain's stripes, which the opening erases (0.00 in the mask).

In a shadow the frame is the memory times a smooth ratio, so the grain goes on; over a hand the frame
is flat. Growing the rim by colour alone took in a hovering dark hand's soft shadow on seed 6 (about
the hand's own colour): its grain is seen through it, so it stays shadow.

The tracker is fed as the pipeline feeds it: the table's colours learned from the whole frame, no
card held out of the mask; the true card quads."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from vision.cards.segment import table_colours
from vision.hands import HandTracker


def _run(seed: int, end: float, start: float = 0.0) -> list[tuple[float, Any, Any]]:
    from web.demo_session import load_scenario

    tracker = HandTracker()
    out = []
    for t, image, truth in load_scenario("twinit", seed).frames(fps=5.0, end=end):
        quads = {c.card_id: c.quad for c in truth.cards}
        colours = table_colours(cv2.resize(image, (320, round(image.shape[0] * 320 / image.shape[1]))))
        result = tracker.update(image, t, quads, [], colours=colours)
        if t >= start - 1e-6:
            out.append((t, result, truth))
    return out


@pytest.fixture(scope="module")
def seed9() -> list[tuple[float, Any, Any]]:
    """Seed 9's first 10.2 s at 5 fps."""
    return _run(9, 10.2)


def _in_sight(truth: Any) -> bool:
    return truth.hand_mask is not None and np.count_nonzero(truth.hand_mask) >= 5000


def test_dark_hands_fingers_and_rim_are_the_hand(seed9: list[tuple[float, Any, Any]]) -> None:
    hit = total = 0
    for t, result, truth in seed9:
        if not (1.4 <= t <= 8.4 and _in_sight(truth)):
            continue
        got = np.count_nonzero(result.mask & truth.hand_mask)
        n = np.count_nonzero(truth.hand_mask)
        # before: 0.20 (7.2 s) to 0.99, pooled 0.58; now 0.73 to 0.99
        assert got >= 0.7 * n, f"{t:.1f} s: {got / n:.2f} of the hand in the mask"
        hit, total = hit + got, total + n
    assert total > 0 and hit >= 0.85 * total, f"pooled {hit / max(1, total):.2f}"


def test_a_hand_in_the_woods_colours_is_found(seed9: list[tuple[float, Any, Any]]) -> None:
    hit = total = 0
    for t, result, truth in seed9:
        if t < 9.6 - 1e-6:
            continue
        assert _in_sight(truth)
        # before: no hand at all at 9.6-10.2 s
        assert [h.seat.value for h in result.hands] == ["top"], f"{t:.1f} s"
        hit += np.count_nonzero(result.mask & truth.hand_mask)
        total += np.count_nonzero(truth.hand_mask)
    # now 0.90, 0.88, 0.34, 0.77
    assert hit >= 0.7 * total, f"pooled {hit / total:.2f}"


def test_the_mask_stays_on_the_hands(seed9: list[tuple[float, Any, Any]]) -> None:
    hit = masked = 0
    for t, result, truth in seed9:
        if truth.hand_mask is None or not truth.hand_mask.any():
            assert not result.mask.any(), f"{t:.1f} s: a hand with none in sight"
            continue
        hit += np.count_nonzero(result.mask & truth.hand_mask)
        masked += np.count_nonzero(result.mask)
    assert hit >= 0.9 * masked, f"precision {hit / masked:.3f}"


def test_a_hovering_dark_hands_soft_shadow_stays_out() -> None:
    """Seed 6, 12.4-14.0 s: a dark hand over the wood, its soft shadow about its own colour."""
    frames = _run(6, 14.0, start=12.4)
    assert len(frames) == 9
    for t, result, truth in frames:
        got = np.count_nonzero(result.mask & truth.hand_mask)
        # before: 0.76 at 13.8 s (25036 px of shadow in the mask); now 0.89 to 0.95
        assert got >= 0.85 * np.count_nonzero(result.mask), (
            f"{t:.1f} s: precision {got / result.mask.sum():.2f}"
        )
        assert got >= 0.9 * np.count_nonzero(truth.hand_mask), f"{t:.1f} s: recall"


def test_a_shadow_keeps_the_grain_and_a_hand_does_not() -> None:
    """A wood-like grain (horizontal streaks); the frame darkened to 0.6 by a shadow on the left,
    and a flat patch of the wood's colour dimmed to 0.6 on the right (a dark hand): both dim the
    table by one ratio in every channel, only the shadow shows the grain."""
    rng = np.random.default_rng(3)
    h, w = 90, 160
    rows = rng.normal(0, 20, (h, 1))
    grey = np.clip(150 + np.repeat(rows, w, axis=1) + rng.normal(0, 2, (h, w)), 0, 255)
    wood = np.dstack([grey * 0.45, grey * 0.7, grey]).astype(np.uint8)
    frame = wood.copy()
    frame[20:70, 10:60] = (wood[20:70, 10:60] * 0.6).astype(np.uint8)  # shadow
    frame[20:70, 100:150] = (np.array([150 * 0.45, 150 * 0.7, 150.0]) * 0.6).astype(np.uint8)  # hand
    tracker = HandTracker()
    tracker.update(wood, 0.0, {})
    fg = np.zeros((h, w), np.uint8)
    fg[20:70, 10:60] = 1
    fg[20:70, 100:150] = 1
    lost, kept, flat = tracker._grain(frame, fg)
    shadow, hand = (slice(25, 65), slice(15, 55)), (slice(25, 65), slice(105, 145))
    assert kept[shadow].mean() >= 0.9 and lost[shadow].mean() <= 0.02
    assert lost[hand].mean() >= 0.9 and flat[hand].mean() >= 0.9 and kept[hand].mean() <= 0.02
    # on a plain cloth (no grain in the memory) nothing is told
    plain = np.full_like(wood, (60, 90, 130))
    cloth = HandTracker()
    cloth.update(plain, 0.0, {})
    lost, kept, flat = cloth._grain(plain, fg)
    assert not (lost.any() or kept.any() or flat.any())
