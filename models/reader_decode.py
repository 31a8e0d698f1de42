"""From card crops to the reader network's inputs, and from its logits to a read: the same code at
run time and in calibration.

Each card is read in several views: as given and turned a half turn (a card and its half turn
show the same face), and for each ``trim`` of the model's settings also with that share of each
side cut off (the card finder's corners are a little off); all the views' logits are averaged.
The deck limits the number classes.
Trio's colour follows from its number (one colour per value); Line-it's suit is read by the
colour head. The confidence is the product of the chosen classes' probabilities at the model's
temperature.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from models.labels import COLOUR_CLASSES, DECK_CLASS_COUNT, TRIO_COLOUR_NAMES, colour_classes
from models.preprocess import to_tensor


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def with_half_turns(x: np.ndarray) -> np.ndarray:
    """(2N, 3, H, W): the N inputs, then each turned 180 degrees."""
    return np.ascontiguousarray(np.concatenate([x, x[:, :, ::-1, ::-1]]))


def fuse_half_turns(z: np.ndarray) -> np.ndarray:
    """(N, K) mean logits of the (2N, K) outputs of :func:`with_half_turns` inputs."""
    n = len(z) // 2
    return 0.5 * (z[:n] + z[n:])


def trim(crop: np.ndarray, share: float) -> np.ndarray:
    """The crop with ``share`` of its height and of its width cut off each side."""
    if share <= 0:
        return crop
    h, w = crop.shape[:2]
    dy, dx = round(h * share), round(w * share)
    return crop[dy : h - dy, dx : w - dx]


def view_inputs(
    crops: Sequence[np.ndarray],
    width: int,
    height: int,
    trims: Sequence[float] = (0.0,),
    half_turns: bool = True,
) -> np.ndarray:
    """(V * N, 3, H, W) inputs of N BGR crops in V views, view-major: per trim the N crops as given,
    then (``half_turns``) the same turned 180 degrees. :func:`fuse_views` averages them back."""
    out = []
    for share in trims:
        x = np.stack([to_tensor(trim(c, share), width, height) for c in crops]).astype(np.float32)
        out.append(with_half_turns(x) if half_turns else x)
    return np.ascontiguousarray(np.concatenate(out))


def fuse_views(z: np.ndarray, n: int) -> np.ndarray:
    """(N, K) mean logits of the (V * N, K) outputs of :func:`view_inputs` inputs."""
    return np.asarray(z).reshape(-1, n, z.shape[-1]).mean(axis=0)


def decode(
    numbers: np.ndarray, colours: np.ndarray, decks: list[str], temperature: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(number class, colour class, confidence) per row of fused logits; ``decks[i]`` names row i's deck."""
    cls = np.zeros(len(decks), np.int64)
    col = np.zeros(len(decks), np.int64)
    conf = np.zeros(len(decks), np.float64)
    for i, deck in enumerate(decks):
        pn = softmax(np.asarray(numbers[i, : DECK_CLASS_COUNT[deck]], np.float64) / temperature)
        c = int(pn.argmax())
        p = float(pn[c])
        k = 0
        if deck == "trio":
            k = COLOUR_CLASSES.index(TRIO_COLOUR_NAMES[c])
        else:
            span = colour_classes(deck, c)
            if span is not None:
                pc = softmax(np.asarray(colours[i, span[0] : span[1]], np.float64) / temperature)
                j = int(pc.argmax())
                k = span[0] + j
                p *= float(pc[j])
        cls[i], col[i], conf[i] = c, k, p
    return cls, col, conf
