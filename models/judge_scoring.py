"""How the judge's head scores a pair of crops over the card's symmetric turns (run time and calibration).

Each crop comes as a stack of feature maps, one per symmetric turn (4 quarter turns of a square
card, 0 and 180 degrees of an oblong one). For each relative turn of b against a, the head scores
``views`` views of it and their logits are averaged: 1, a upright against b turned; 2, also b
upright against a turned back; 4 (or all the turns there are), every turn of a against the matching
turn of b. The best relative turn counts. More views, less dependence on how the cards happen to lie.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

HeadFn = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""(maps a, maps b) -> logits, one per row."""


def view_indices(n_turns: int, views: int) -> tuple[np.ndarray, np.ndarray]:
    """(a's turn index, b's turn index), each (n_turns relative turns, n_views)."""
    rel = np.arange(n_turns)[:, None]
    if views <= 1:
        return np.zeros((n_turns, 1), np.int64), rel
    if views == 2:
        back = rel if n_turns <= 2 else (-rel) % n_turns
        return np.hstack([np.zeros_like(rel), back]), np.hstack([rel, np.zeros_like(rel)])
    j = np.arange(n_turns)[None, :]
    return np.broadcast_to(j, (n_turns, n_turns)).copy(), (j + rel) % n_turns


def best_logits(
    head: HeadFn, pairs: Sequence[tuple[np.ndarray, np.ndarray]], views: int = 1, batch: int = 1024
) -> np.ndarray:
    """The best view-averaged logit over the relative turns of each pair of turn stacks, in head calls
    of about ``batch`` rows (bounded memory). A square and an oblong crop: b's turns against upright a."""
    best: list[float] = []
    start = 0
    while start < len(pairs):
        ea, eb, shapes = [], [], []
        n = 0
        while start + len(shapes) < len(pairs) and (not shapes or n < batch):
            a, b = pairs[start + len(shapes)]
            ia, ib = view_indices(len(b), views if len(a) == len(b) else 1)
            ea.append(a[ia.reshape(-1)])
            eb.append(b[ib.reshape(-1)])
            shapes.append(ia.shape)
            n += ia.size
        z = np.asarray(head(np.concatenate(ea), np.concatenate(eb)), np.float64).reshape(-1)
        i = 0
        for turns_, n_views in shapes:
            best.append(float(z[i : i + turns_ * n_views].reshape(turns_, n_views).mean(axis=1).max()))
            i += turns_ * n_views
        start += len(shapes)
    return np.asarray(best, np.float64)
