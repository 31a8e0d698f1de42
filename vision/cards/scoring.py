"""Matching found quads to true quads, for tests and benchmarks."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.cards.geometry import quad_iou


@dataclass(frozen=True)
class MatchCounts:
    """Counts of one image (or summed over many)."""

    true_positives: int
    """Found quads matched to a true card (IoU at or above the threshold)."""
    found: int
    """Found quads, all of them."""
    false_positives: int
    """Found quads matching no true card (a quad matching an ignored card is neither)."""
    counted_truth: int
    """True cards that recall counts (e.g. >= 80 % visible)."""
    recalled: int
    """Counted true cards that a found quad matched."""

    def __add__(self, other: MatchCounts) -> MatchCounts:
        return MatchCounts(*(a + b for a, b in zip(self.astuple(), other.astuple(), strict=True)))

    def astuple(self) -> tuple[int, int, int, int, int]:
        return (self.true_positives, self.found, self.false_positives, self.counted_truth, self.recalled)

    @property
    def precision(self) -> float:
        denom = self.true_positives + self.false_positives
        return self.true_positives / denom if denom else 1.0

    @property
    def recall(self) -> float:
        return self.recalled / self.counted_truth if self.counted_truth else 1.0


ZERO = MatchCounts(0, 0, 0, 0, 0)


def match_quads(
    found: list[np.ndarray],
    truth: list[np.ndarray],
    counted: list[bool] | None = None,
    iou_threshold: float = 0.9,
    unlabelled: int = 0,
) -> tuple[MatchCounts, list[tuple[int, int, float]]]:
    """Greedy one-to-one matching by IoU. ``counted[j]`` says whether true card j counts for
    recall; a found quad matching an uncounted card is neither right nor wrong (a card mostly
    hidden may or may not be found). ``unlabelled`` cards are known to be in the image without a
    quad (real photos' ``quad: null``): up to that many unmatched found quads are not counted
    as false positives either. Counted cards are matched first: a found quad on a pile's top card
    at IoU >= the threshold is that card's, even where it lies as close to a card beneath that
    hardly shows (whose quad the top card's nearly repeats). Returns the counts and the (found,
    truth, IoU) pairs."""
    counted = counted if counted is not None else [True] * len(truth)
    pairs = []
    for i, f in enumerate(found):
        for j, t in enumerate(truth):
            iou = quad_iou(f, t)
            if iou > 0.3:
                pairs.append((iou, i, j))
    pairs.sort(key=lambda p: (counted[p[2]], p[0]), reverse=True)
    used_f: set[int] = set()
    used_t: set[int] = set()
    matched: list[tuple[int, int, float]] = []
    for iou, i, j in pairs:
        if iou < iou_threshold or i in used_f or j in used_t:
            continue
        used_f.add(i)
        used_t.add(j)
        matched.append((i, j, iou))
    tp = sum(1 for _, j, _ in matched if counted[j])
    ignored = sum(1 for _, j, _ in matched if not counted[j])
    # A found quad overlapping an uncounted card substantially is not a false positive either.
    loose = 0
    for i in range(len(found)):
        if i in used_f:
            continue
        if any(not counted[j] and iou > 0.5 for iou, fi, j in pairs if fi == i):
            loose += 1
    fp = max(0, len(found) - tp - ignored - loose - unlabelled)
    recalled = tp
    return MatchCounts(tp, len(found), fp, sum(counted), recalled), matched
