"""Twin It's pattern comparisons: two crops -> the probability that they show the same pattern,
with the judge's signatures (one embedding per crop) made in small batches and reused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

Compare = Callable[[np.ndarray, np.ndarray], float]
"""Two crops -> the probability that they show the same pattern."""
SIGNATURE_BATCH = 4
"""Crops per call of the judge: the inference runtime keeps memory for the largest batch it has
run, so a batch the size of every card under the hands would grow the server for good."""
HEAD_PAIRS = 8
"""Pairs per call of the judge's head, for the same reason: each pair is 16 head rows (4 turns x 4
views of 32x8x8 maps), and the minute's start compares ~1100 pairs; in the judge's own 1024-row
calls the runtime kept 69 MB more for good (the live bench's RSS growth), in calls of 8 pairs
1 MB, and the 1100 pairs took 1.3 s instead of 2.3 s (2 loaded cores)."""


class Matcher:
    """Pattern comparisons, with signatures cached when the judge offers them."""

    def __init__(self, compare: Compare, judge: Any = None) -> None:
        self.compare = compare
        self.judge = judge

    def signature(self, crop: np.ndarray) -> Any:
        return self.judge.signature(crop) if self.judge is not None else crop

    def signatures(self, crops: list[np.ndarray]) -> list[Any]:
        """Many signatures, in batches of at most :data:`SIGNATURE_BATCH` when the judge offers
        them."""
        if self.judge is not None and hasattr(self.judge, "signatures"):
            out: list[Any] = []
            for k in range(0, len(crops), SIGNATURE_BATCH):
                out.extend(self.judge.signatures(crops[k : k + SIGNATURE_BATCH]))
            return out
        return [self.signature(c) for c in crops]

    def p_same(self, a: Any, b: Any) -> float:
        if self.judge is not None:
            return float(self.judge.judge_signatures(a, b).p_same)
        return float(self.compare(a, b))

    def p_same_many(self, pairs: list[tuple[Any, Any]]) -> list[float]:
        """:meth:`p_same` of many pairs, in head calls of :data:`HEAD_PAIRS` pairs when the judge
        offers them; the same values as one call per pair."""
        if self.judge is None or not hasattr(self.judge, "p_same_many"):
            return [self.p_same(a, b) for a, b in pairs]
        out = [0.0] * len(pairs)  # a square card against an oblong one: never the same pattern
        kept = [
            i for i, (a, b) in enumerate(pairs) if getattr(a, "square", None) == getattr(b, "square", None)
        ]
        for k in range(0, len(kept), HEAD_PAIRS):
            chunk = kept[k : k + HEAD_PAIRS]
            for i, p in zip(chunk, self.judge.p_same_many([pairs[i] for i in chunk]), strict=True):
                out[i] = round(float(p), 6)
        return out


def judge_compare(judge: Any) -> Compare:
    """A :data:`Compare` from a ``PatternJudge`` (``compare(a, b) -> Judgement(verdict, p_same)``)."""

    def compare(a: np.ndarray, b: np.ndarray) -> float:
        return float(judge.compare(a, b).p_same)

    return compare
