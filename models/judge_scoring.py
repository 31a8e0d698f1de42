"""How the judge's head scores a pair of crops over the card's symmetric turns (run time and calibration).

Each crop comes as a stack of feature maps, one per symmetric turn (4 quarter turns of a square
card, 0 and 180 degrees of an oblong one). The head scores crop a upright against each turn of b;
with ``both_ways`` it also scores b upright against a turned back by the same relative turn and
averages the two logits (two views of each relative turn, less noise). The best relative turn counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

HeadFn = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""(maps a, maps b) -> logits, one per row."""


def back_turns(n_turns: int) -> np.ndarray:
    """For each turn of a card (4 quarter turns, or 0 and 180 degrees), the index of its inverse."""
    return np.arange(n_turns) if n_turns <= 2 else (-np.arange(n_turns)) % n_turns


def best_logits(
    head: HeadFn, pairs: Sequence[tuple[np.ndarray, np.ndarray]], both_ways: bool = False, batch: int = 1024
) -> np.ndarray:
    """The best logit over the relative turns of each pair of turn stacks, in head calls of about
    ``batch`` rows (bounded memory). A square and an oblong crop: b's turns against upright a only."""
    best: list[float] = []
    start = 0
    while start < len(pairs):
        chunk: list[tuple[np.ndarray, np.ndarray]] = []
        n = 0
        while start + len(chunk) < len(pairs) and (not chunk or n < batch):
            chunk.append(pairs[start + len(chunk)])
            n += len(chunk[-1][1])
        ea = [np.repeat(a[:1], len(b), axis=0) for a, b in chunk]
        eb = [b for _, b in chunk]
        if both_ways:
            for a, b in chunk:
                same_shape = len(a) == len(b)
                ea.append(np.repeat((b if same_shape else a)[:1], len(b), axis=0))
                eb.append(a[back_turns(len(a))] if same_shape else b)
        z = np.asarray(head(np.concatenate(ea), np.concatenate(eb)), np.float64).reshape(-1)
        if both_ways:
            z = 0.5 * (z[:n] + z[n:])
        i = 0
        for _, b in chunk:
            best.append(float(z[i : i + len(b)].max()))
            i += len(b)
        start += len(chunk)
    return np.asarray(best, np.float64)
