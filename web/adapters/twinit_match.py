"""Twin It's pattern comparisons: two crops -> the probability that they show the same pattern,
with the judge's signatures (one embedding per crop) made in small batches and reused."""

from __future__ import annotations

import inspect
import weakref
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
KEEP_SOURCES = 512
"""Crops whose card size in the camera image is remembered (weakly: a crop no longer held
anywhere is forgotten); the oldest go first."""


def short_side(quad: np.ndarray) -> float:
    """A card's shorter side in the camera image (px): the shorter of the mean lengths of its two
    pairs of opposite sides."""
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    sides = np.linalg.norm(q - q[[1, 2, 3, 0]], axis=1)
    return float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2.0)


class Matcher:
    """Pattern comparisons, with signatures cached when the judge offers them."""

    def __init__(self, compare: Compare, judge: Any = None) -> None:
        self.compare = compare
        self.judge = judge
        self.card_px: float | None = None
        """The table's card size in the camera image (px), for crops of unknown source (a view
        read back from the log); ``None``: the crop's own size decides."""
        self._sources: dict[int, tuple[weakref.ref, float]] = {}
        batch = getattr(judge, "signatures", None)
        self._takes_px = batch is not None and "source_px" in inspect.signature(batch).parameters

    def note_source(self, crop: np.ndarray, quad: np.ndarray) -> None:
        """Remembers that ``crop`` was rectified from a card of outline ``quad`` in the camera
        image: the judge's resolution bands go by the card's size there, not by the crop's
        (every crop is rectified to one canonical size, larger than any band)."""
        key = id(crop)
        known = self._sources.get(key)
        if known is not None and known[0]() is crop:
            return
        self._sources[key] = (weakref.ref(crop), short_side(quad))
        if len(self._sources) > KEEP_SOURCES:
            live = [(k, v) for k, v in self._sources.items() if v[0]() is not None]
            self._sources = dict(live[-KEEP_SOURCES // 2 :])

    def source_px(self, crop: np.ndarray) -> float | None:
        """The card's shorter side in the camera image (px) that ``crop`` was cut from, if known
        (:meth:`note_source`), else the table's card size (:attr:`card_px`)."""
        known = self._sources.get(id(crop))
        if known is not None and known[0]() is crop:
            return known[1]
        return self.card_px

    def signature(self, crop: np.ndarray) -> Any:
        if self._takes_px:
            return self.signatures([crop])[0]
        return self.judge.signature(crop) if self.judge is not None else crop

    def signatures(self, crops: list[np.ndarray]) -> list[Any]:
        """Many signatures, in batches of at most :data:`SIGNATURE_BATCH` when the judge offers
        them, each with its card's size in the camera image when the judge takes it."""
        if self.judge is not None and hasattr(self.judge, "signatures"):
            out: list[Any] = []
            for k in range(0, len(crops), SIGNATURE_BATCH):
                chunk = crops[k : k + SIGNATURE_BATCH]
                if self._takes_px:
                    out.extend(self.judge.signatures(chunk, source_px=[self.source_px(c) for c in chunk]))
                else:
                    out.extend(self.judge.signatures(chunk))
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
