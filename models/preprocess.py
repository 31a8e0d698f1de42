"""Turning a rectified card crop into a network input: the same code for training and run time.

Crops are BGR uint8 images of one card, upright or turned by any multiple of 90 degrees. A
landscape crop is first turned to portrait. Brightness is normalised (one factor for all
channels), so a darker or brighter light changes little.
"""

from __future__ import annotations

import cv2
import numpy as np

SQUARE_TOLERANCE = 0.12
"""A crop whose sides differ by less than this share is treated as a square card (4 turns)."""


def check_crop(crop: np.ndarray, what: str = "crop") -> np.ndarray:
    """The crop as a BGR uint8 array, or ValueError naming what was wrong."""
    if not isinstance(crop, np.ndarray) or crop.dtype != np.uint8:
        raise ValueError(f"{what}: expected a BGR uint8 image, got {type(crop).__name__}")
    if crop.ndim == 2:
        crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
    if crop.ndim != 3 or crop.shape[2] not in (3, 4):
        raise ValueError(f"{what}: expected an (H, W, 3) image, got shape {crop.shape}")
    if crop.shape[2] == 4:
        crop = np.ascontiguousarray(crop[:, :, :3])
    if min(crop.shape[:2]) < 8:
        raise ValueError(f"{what}: image of {crop.shape[1]}x{crop.shape[0]} px is too small (>= 8 px)")
    return crop


def is_square(crop: np.ndarray) -> bool:
    h, w = crop.shape[:2]
    return abs(w - h) <= SQUARE_TOLERANCE * max(w, h)


def to_portrait(crop: np.ndarray) -> np.ndarray:
    """Turn a clearly landscape crop a quarter turn clockwise; others unchanged."""
    h, w = crop.shape[:2]
    if w > h and not is_square(crop):
        return cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
    return crop


def normalise_exposure(img: np.ndarray) -> np.ndarray:
    """Float32 image in about 0..1.3: divided by the 97th percentile of its brightest channel.

    One factor for all channels, so colours keep their ratios (a colour swap stays visible);
    the networks learned white-balance changes from augmented light."""
    step = max(1, min(img.shape[:2]) // 24)
    bright = img[::step, ::step].max(axis=2)
    flat = bright.reshape(-1)
    k = min(len(flat) - 1, int(0.97 * len(flat)))
    ref = max(float(np.partition(flat, k)[k]), 24.0)
    out = img.astype(np.float32) * np.float32(1.0 / ref)
    return np.minimum(out, 1.3, out=out)


BALANCE_FLOOR = 0.25
"""A channel's white point is at least this share of the brightest channel's (a card with almost no
blue is not blown up to full blue)."""


def balance_channels(img: np.ndarray) -> np.ndarray:
    """Float32 image in about 0..1.3: each channel divided by its own 97th percentile (floored at
    :data:`BALANCE_FLOOR` of the brightest channel's, and at 24 levels).

    A camera's white balance multiplies each channel by its own gain; dividing by the channel's own
    white point cancels it, so two crops of the same face agree in colour under any light, while one
    element in another colour still differs (it moves a percentile of the whole crop little)."""
    step = max(1, min(img.shape[:2]) // 24)
    flat = img[::step, ::step].reshape(-1, img.shape[2])
    k = min(len(flat) - 1, int(0.97 * len(flat)))
    refs = np.partition(flat, k, axis=0)[k].astype(np.float32)
    refs = np.maximum(refs, max(BALANCE_FLOOR * float(refs.max()), 24.0))
    out = img.astype(np.float32) * (np.float32(1.0) / refs)[None, None, :]
    return np.minimum(out, 1.3, out=out)


def to_tensor(crop: np.ndarray, width: int, height: int, balance: bool = False) -> np.ndarray:
    """(3, height, width) float32 network input from a BGR crop (portrait, exposure-normalised; with
    ``balance``, each channel on its own: :func:`balance_channels`)."""
    crop = to_portrait(crop)
    small = cv2.resize(crop, (width, height), interpolation=cv2.INTER_AREA)
    return small_to_tensor(small, balance)


def small_to_tensor(small: np.ndarray, balance: bool = False) -> np.ndarray:
    """:func:`to_tensor` of a crop already turned to portrait and resized to the network's input size
    (BGR uint8): a caller that has that image for another use (the judge's verifier shrinks the crop to
    the same 64 x 64 with the same interpolation) need not resize the crop twice."""
    x = (balance_channels(small) if balance else normalise_exposure(small)) - 0.5
    return np.ascontiguousarray(x.transpose(2, 0, 1))


def turn_count(square: bool) -> int:
    """How many symmetric turns :func:`turns` makes: 4 for a square card, 2 for an oblong one."""
    return 4 if square else 2


def turns_into(x: np.ndarray, square: bool, out: np.ndarray) -> None:
    """:func:`turns` of ``x`` written into ``out`` ((turn_count, 3, S, S), float32): no intermediate
    copies (a batch of crops fills one array the network takes as it is)."""
    for i, k in enumerate((0, 1, 2, 3) if square else (0, 2)):
        out[i] = np.rot90(x, k, axes=(1, 2))


def turns(x: np.ndarray, square: bool) -> np.ndarray:
    """The symmetric turns of a (3, S, S) input: 4 quarter turns for a square card, else 0 and 180."""
    ks = (0, 1, 2, 3) if square else (0, 2)
    return np.stack([np.ascontiguousarray(np.rot90(x, k, axes=(1, 2))) for k in ks])
