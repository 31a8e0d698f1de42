"""The judge made surer by an enrolled deck: each crop is also matched against the deck's references.

Without a deck the judge compares the two crops directly. With one, each crop is matched to the
enrolled faces; when both match a pattern group confidently, the groups decide (same group: same;
different groups: different), which settles many pairs the direct comparison leaves uncertain
(glare on one crop, a blurred corner). When either crop matches nothing, the direct answer stands.
"""

from __future__ import annotations

import numpy as np

from calibration.deck import EnrolledDeck
from calibration.enroll import report
from vision.identity.judge import Judgement, PatternJudge, Signature


class EnrolledJudge:
    """``compare(crop_a, crop_b)`` with the help of an enrolled Twin It deck."""

    def __init__(self, judge: PatternJudge, deck: EnrolledDeck) -> None:
        if deck.deck != "twinit":
            raise ValueError(f"enrolled deck {deck.folder} is {deck.deck!r}, the judge needs a Twin It deck")
        self.judge = judge
        self.groups = report(deck, judge).groups
        ids = [cid for g in self.groups for cid in g]
        self.group_of = np.asarray([k for k, g in enumerate(self.groups) for _ in g], np.int64)
        self.refs: list[Signature] = judge.signatures([deck.reference(cid) for cid in ids])

    SHORTLIST = 12
    """References scored in full (every view) after a one-view pass over the whole deck."""

    def match(self, sig: Signature) -> tuple[int, float]:
        """(group index, p_same) of the best-matching enrolled pattern; (-1, 0.0) for an empty deck.

        A one-view pass over every reference shortlists the closest few; those are scored as
        calibrated (every view), so a full deck costs little more than a few direct comparisons."""
        if not self.refs:
            return -1, 0.0
        pairs = [(sig, r) for r in self.refs]
        order = np.arange(len(pairs))
        if len(pairs) > self.SHORTLIST and self.judge.views > 1:
            quick = self.judge.best_logits(pairs, views=1)
            order = np.argsort(-quick, kind="stable")[: self.SHORTLIST]
        p = self.judge.p_same_many([pairs[i] for i in order])
        best = int(order[int(np.argmax(p))])
        return int(self.group_of[best]), float(np.max(p))

    def compare(self, crop_a: np.ndarray, crop_b: np.ndarray) -> Judgement:
        a, b = self.judge.signatures([crop_a, crop_b])
        direct = self.judge.judge_signatures(a, b)
        (ga, pa), (gb, pb) = self.match(a), self.match(b)
        sure = self.judge.same_at
        if ga < 0 or pa < sure or pb < sure:
            return direct
        if ga == gb:
            p = max(direct.p_same, min(pa, pb))
            return Judgement("same", round(p, 6))
        p = min(direct.p_same, 1.0 - min(pa, pb))
        return Judgement(
            self.judge.verdict(p) if p >= self.judge.different_below else "different", round(p, 6)
        )
