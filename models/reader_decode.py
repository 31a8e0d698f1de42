"""From card crops to the reader network's inputs, and from its logits to a read: the same code at
run time and in calibration.

Each card is read in several views: as given and turned a half turn (a card and its half turn
show the same face), and for each ``trim`` of the model's settings also with that share of each
side cut off, and for each ``corner_cut`` with that share cut off two adjacent sides, at each of the
four corners (the window slides a little: the card finder's corners are a little off); all the
views' logits are averaged. The deck limits the number classes.

The two half turns must not contradict each other: the views read as given, averaged, and the
views read turned, averaged, each name a number; a side that names another number than the read,
at a probability of ``dissent_at`` or more, leaves the read uncertain (:func:`side_dissent`). A
card shows one number whichever way up it lies, so one of the two sides is then surely misread.
Trio's colour follows from its number (one colour per value). A Line-it card is read jointly: its
identities are the 400 (number, suit) pairs and the 3 bets, whose colour class is "none", and each
identity's probability is the product of the number head's and the colour head's probabilities
(:func:`lineit_joint`), so a colour head sure that the card has no suit makes it a bet. The
confidence is the probability of the chosen identity (The Mind, Trio: of the chosen number) at the
model's temperature.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from models.labels import COLOUR_CLASSES, DECK_CLASS_COUNT, N_NUMBER_CLASSES, SUITS, TRIO_COLOUR_NAMES
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


CORNERS = ((1, 0, 1, 0), (0, 1, 0, 1), (1, 0, 0, 1), (0, 1, 1, 0))
"""(top, bottom, left, right) sides cut by a corner cut: top-left, bottom-right, top-right, bottom-left."""


def cut(crop: np.ndarray, top: float, bottom: float, left: float, right: float) -> np.ndarray:
    """The crop with these shares of its height (top, bottom) and width (left, right) cut off."""
    h, w = crop.shape[:2]
    return crop[round(h * top) : h - round(h * bottom), round(w * left) : w - round(w * right)]


def view_crops(
    crop: np.ndarray, trims: Sequence[float], corner_cuts: Sequence[float] = ()
) -> list[np.ndarray]:
    """The crop's views before the half turn: one per trim, then four per corner cut."""
    views = [trim(crop, share) for share in trims]
    for share in corner_cuts:
        views += [cut(crop, *(share * s for s in sides)) for sides in CORNERS]
    return views


def view_inputs(
    crops: Sequence[np.ndarray],
    width: int,
    height: int,
    trims: Sequence[float] = (0.0,),
    half_turns: bool = True,
    corner_cuts: Sequence[float] = (),
) -> np.ndarray:
    """(V * N, 3, H, W) inputs of N BGR crops in V views, view-major: per view (:func:`view_crops`) the
    N crops as given, then (``half_turns``) the same turned 180 degrees. :func:`fuse_views` averages
    them back, :func:`fuse_sides` averages each half turn's views apart."""
    per_crop = [view_crops(c, trims, corner_cuts) for c in crops]
    out = []
    for v in range(len(per_crop[0]) if per_crop else 0):
        x = np.stack([to_tensor(views[v], width, height) for views in per_crop]).astype(np.float32)
        out.append(with_half_turns(x) if half_turns else x)
    return np.ascontiguousarray(np.concatenate(out))


def fuse_views(z: np.ndarray, n: int) -> np.ndarray:
    """(N, K) mean logits of the (V * N, K) outputs of :func:`view_inputs` inputs."""
    return np.asarray(z).reshape(-1, n, z.shape[-1]).mean(axis=0)


def fuse_sides(z: np.ndarray, n: int) -> np.ndarray:
    """(2, N, K) mean logits of the views read as given (row 0) and of those read turned (row 1), from
    the (V * N, K) outputs of :func:`view_inputs` inputs made with ``half_turns``."""
    z = np.asarray(z)
    return z.reshape(-1, 2, n, z.shape[-1]).mean(axis=0)


def side_dissent(
    sides_numbers: np.ndarray,
    sides_colours: np.ndarray,
    decks: list[str],
    temperature: float,
    read: np.ndarray,
    dissent_at: float,
) -> np.ndarray:
    """(N,) True where a half turn's own read (:func:`decode` of its views' mean logits, ``sides_*`` as
    from :func:`fuse_sides`) names another number class than ``read`` at a probability of ``dissent_at``
    or more: the card's two half turns contradict each other, so the read must not be sure."""
    out = np.zeros(len(decks), bool)
    for side in range(2):
        cls, _, conf = decode(sides_numbers[side], sides_colours[side], decks, temperature)
        out |= (cls != read) & (conf >= dissent_at)
    return out


def decode(
    numbers: np.ndarray, colours: np.ndarray, decks: list[str], temperature: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(number class, colour class, confidence) per row of fused logits; ``decks[i]`` names row i's deck."""
    cls = np.zeros(len(decks), np.int64)
    col = np.zeros(len(decks), np.int64)
    conf = np.zeros(len(decks), np.float64)
    for i, deck in enumerate(decks):
        if deck == "lineit":
            cls[i], col[i], conf[i] = lineit_joint(numbers[i], colours[i], temperature)
            continue
        pn = softmax(np.asarray(numbers[i, : DECK_CLASS_COUNT[deck]], np.float64) / temperature)
        c = int(pn.argmax())
        k = COLOUR_CLASSES.index(TRIO_COLOUR_NAMES[c]) if deck == "trio" else 0
        cls[i], col[i], conf[i] = c, k, float(pn[c])
    return cls, col, conf


def lineit_joint(numbers: np.ndarray, colours: np.ndarray, temperature: float) -> tuple[int, int, float]:
    """(number class, colour class, probability) of the likeliest Line-it identity.

    The number head's probabilities over its 103 classes times the colour head's over "none" and the
    four suits: a numbered card pairs with a suit, a bet with "none"; renormalised over these 403
    identities."""
    zn = np.asarray(numbers[:N_NUMBER_CLASSES], np.float64) / temperature
    zc = np.asarray(colours[: 1 + len(SUITS)], np.float64) / temperature
    ln = zn - np.logaddexp.reduce(zn)
    lc = zc - np.logaddexp.reduce(zc)
    joint = np.concatenate([(ln[:100, None] + lc[None, 1:]).ravel(), ln[100:] + lc[0]])
    pj = softmax(joint)
    a = int(pj.argmax())
    if a < 100 * len(SUITS):
        return a // len(SUITS), 1 + a % len(SUITS), float(pj[a])
    return 100 + a - 100 * len(SUITS), 0, float(pj[a])
