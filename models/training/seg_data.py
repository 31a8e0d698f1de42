"""Training batches of the table segmenter: random crops of whole frames, with flips.

The frames (network input and targets) come from the caller (``tableref train seg`` hands in
``vision.cards.seg_frames.make_frames``), so this package imports nothing of ``vision``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

OUTPUT_STRIDE = 2
"""The target maps are at half the input resolution."""
MASKS = 4
"""Binary target maps: core, card, boundary, hand."""
INSTANCE = 10
"""Instance target maps: centre heat, offset weight, 8 corner offsets (x0, y0, .. x3, y3)."""

FrameMaker = Callable[..., list[tuple[np.ndarray, np.ndarray, np.ndarray]]]
"""``make_frames(indices, input_long, jitter, validation=False, workers=1)`` -> [(input (h, w, 3)
float16, targets (4, h / 2, w / 2) uint8, instance targets (10, h / 2, w / 2) float16)]."""


@dataclass(frozen=True, eq=False)
class SegFrame:
    """One training frame at network scale."""

    image: np.ndarray
    """(h, w, 3) float16, exposure-normalised minus 0.5 (the network input, channels last)."""
    target: np.ndarray
    """(4, h / 2, w / 2) uint8 0/1: core, card, boundary, hand."""
    instance: np.ndarray
    """(10, h / 2, w / 2) float16: centre heat, offset weight, corner offsets (clockwise)."""


def flip_instance(y: np.ndarray, horizontal: bool) -> np.ndarray:
    """Instance targets (10, h, w) of a flipped crop whose maps are already flipped: offsets'
    sign along the flipped axis, and the corners' order reversed (clockwise again)."""
    y = y.copy()
    off = y[2:].reshape(4, 2, *y.shape[1:])
    off[:, 0 if horizontal else 1] *= -1
    y[2:] = off[::-1].reshape(8, *y.shape[1:])
    return y


class CropSampler:
    """Random crops (and flips) of the frames, as network batches; seeded."""

    def __init__(self, frames: list[SegFrame], crop: tuple[int, int], seed: int) -> None:
        self.frames = frames
        self.crop_w, self.crop_h = crop
        self.rng = np.random.default_rng([seed, 0x5E6])

    def batch(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """(n, 3, h, w) float32 inputs, (n, 14, h / 2, w / 2) float32 targets (the 4 masks, then
        the 10 instance maps)."""
        cw, ch = self.crop_w, self.crop_h
        s = OUTPUT_STRIDE
        xs = np.zeros((n, 3, ch, cw), np.float32)
        ys = np.zeros((n, MASKS + INSTANCE, ch // s, cw // s), np.float32)
        for k in range(n):
            f = self.frames[int(self.rng.integers(len(self.frames)))]
            h, w = f.image.shape[:2]
            # a crop at even offsets inside the frame (zero-padded when the frame is smaller)
            ox = s * int(self.rng.integers(0, max(0, w - cw) // s + 1))
            oy = s * int(self.rng.integers(0, max(0, h - ch) // s + 1))
            img = f.image[oy : oy + ch, ox : ox + cw].astype(np.float32)
            sl = (slice(oy // s, (oy + ch) // s), slice(ox // s, (ox + cw) // s))
            tgt = np.concatenate([f.target[:, sl[0], sl[1]], f.instance[:, sl[0], sl[1]]]).astype(np.float32)
            x = np.zeros((ch, cw, 3), np.float32)
            x[: img.shape[0], : img.shape[1]] = img
            y = np.zeros((MASKS + INSTANCE, ch // s, cw // s), np.float32)
            y[:, : tgt.shape[1], : tgt.shape[2]] = tgt
            x = x.transpose(2, 0, 1)
            if self.rng.random() < 0.5:
                x, y = x[:, :, ::-1], y[:, :, ::-1]
                y[MASKS:] = flip_instance(y[MASKS:], horizontal=True)
            if self.rng.random() < 0.5:
                x, y = x[:, ::-1], y[:, ::-1]
                y[MASKS:] = flip_instance(y[MASKS:], horizontal=False)
            xs[k], ys[k] = x, y
        return xs, ys
