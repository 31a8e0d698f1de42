"""The closed-set rule's calibration: margins above every calibration pair they would rule wrongly."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from vision.identity import enrolled_calibration as ec


def test_margins_lie_above_every_pair_they_would_rule_wrongly() -> None:
    ok = np.array([True, True, True, True, False])
    same_group = np.array([True, True, False, False, True])
    margin = np.array([9.0, 3.0, 4.0, 1.0, 50.0])
    same = np.array([True, False, True, False, False])  # pair 1: two patterns in one group; pair 2: split
    th = ec.thresholds(ok, same_group, margin, same)
    assert th["same_margin"] == 3.0 + ec.MARGIN and th["different_margin"] == 4.0 + ec.MARGIN
    # pair 4 is not at p_floor: it bounds nothing; with no wrong pair at all, the floor of the margins
    th = ec.thresholds(ok, same_group, margin, np.array([True, True, False, False, False]))
    assert th["same_margin"] == ec.MIN_MARGIN and th["highest_wrong_same_margin"] is None


def test_references_merge_above_the_ranked_pair_of_two_patterns_not_the_single_highest() -> None:
    """merge_at lies MERGE_MARGIN above the (MERGE_RANK_PER_DECK x decks)-th highest pair of two
    patterns' references: one outlying pair does not set it alone."""
    truth = {f"c{i}": f"x{i}" for i in range(8)} | {"d": "x0"}
    diff = [0.99, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    pairs = [("c0", "d", 0.999)] + [(f"c{i}", f"c{i + 1}", p) for i, p in enumerate(diff)]
    deck = ec.DeckData("d", Path("."), truth, pairs, [], [], [], 0.0)
    merge_at, ranked, worst = ec.merge_threshold([deck, deck], same_at=0.5)
    assert worst == 0.99
    k = ec.MERGE_RANK_PER_DECK * 2
    assert ranked == sorted(diff * 2, reverse=True)[k - 1] < worst
    logit = math.log(merge_at / (1 - merge_at))
    assert math.isclose(logit, math.log(ranked / (1 - ranked)) + ec.MERGE_MARGIN)
    assert ec.merge_threshold([deck], same_at=0.9999)[0] == 0.9999  # never below the judge's "same"
    few = ec.DeckData("f", Path("."), truth, [("c1", "c2", 0.7)], [], [], [], 0.0)
    assert ec.merge_threshold([few], same_at=0.5)[1] == 0.7  # fewer pairs than the rank: the lowest


def test_figures_count_uncertain_as_not_correct() -> None:
    verdicts = np.array(["same", "uncertain", "different", "same", "different"])
    kinds = np.array(["same", "same", "random", "hard", "hard"])
    f = ec.figures(verdicts, kinds)
    assert f["same_accuracy"] == 0.5 and f["hard_negative_accuracy"] == 0.5 and f["different_accuracy"] == 1.0
    assert f["confident_wrong_rate"] == 0.2 and f["uncertain_rate"] == 0.2
