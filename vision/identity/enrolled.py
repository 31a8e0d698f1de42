"""The judge made surer by an enrolled deck: each crop is also matched against the deck's references.

Without a deck the judge compares the two crops directly. With one, each crop is matched to the
enrolled faces; when both match a pattern group confidently, the groups decide (same group: same;
different groups: different), which settles many pairs the direct comparison leaves uncertain
(glare on one crop, a blurred corner). When either crop matches nothing, the direct answer stands.

:class:`EnrolledJudge` is a drop-in for :class:`~vision.identity.judge.PatternJudge` where the live
Twin It adapter takes one (``signatures``, ``signature``, ``judge_signatures``, ``p_same_many``,
``compare``, ``verdict``, ``same_at``, ``different_below``): its signatures are the judge's own, and
each signature's match against the deck is made the first time a pair needs it and then kept (a
crop compared with 40 others is matched once, not 40 times).
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from calibration.deck import EnrolledDeck
from calibration.enroll import report
from vision.identity.judge import Judgement, PatternJudge, Signature


@dataclass(frozen=True)
class DeckMatch:
    """One crop's best match in the enrolled deck."""

    group: int
    """Index of the best-matching pattern group (-1: empty deck)."""
    p_same: float
    """Calibrated p_same against the group's best reference."""
    runner_up: float
    """Best p_same against a reference of any other group among those scored in full (0.0 when
    none was)."""


NO_MATCH = DeckMatch(-1, 0.0, 0.0)


class EnrolledJudge:
    """``compare(crop_a, crop_b)`` with the help of an enrolled Twin It deck."""

    SHORTLIST = 12
    """References scored in full (every view) after a one-view pass over the whole deck."""

    def __init__(self, judge: PatternJudge, deck: EnrolledDeck) -> None:
        if deck.deck != "twinit":
            raise ValueError(f"enrolled deck {deck.folder} is {deck.deck!r}, the judge needs a Twin It deck")
        self.judge = judge
        self.deck = deck
        self.groups = report(deck, judge).groups
        ids = [cid for g in self.groups for cid in g]
        self.group_of = np.asarray([k for k, g in enumerate(self.groups) for _ in g], np.int64)
        self.refs: list[Signature] = judge.signatures([deck.reference(cid) for cid in ids])
        self._matches: weakref.WeakKeyDictionary[Signature, DeckMatch] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    @classmethod
    def load(cls, folder: Path, judge: PatternJudge | None = None) -> EnrolledJudge:
        """The judge (loaded here unless given) with the Twin It deck enrolled in ``folder``."""
        return cls(judge if judge is not None else PatternJudge(), EnrolledDeck.load(Path(folder)))

    # The pair judge's interface, so that the live adapter takes this judge as it takes the pair judge.
    @property
    def same_at(self) -> float:
        return self.judge.same_at

    @property
    def different_below(self) -> float:
        return self.judge.different_below

    def verdict(self, p_same: float) -> str:
        return self.judge.verdict(p_same)

    def signatures(
        self, crops: list[np.ndarray], source_px: list[float | None] | None = None
    ) -> list[Signature]:
        """The pair judge's signatures (their deck match is made when a pair first needs it)."""
        return self.judge.signatures(crops, source_px=source_px)

    def signature(self, crop: np.ndarray) -> Signature:
        return self.signatures([crop])[0]

    def score(self, sig: Signature) -> DeckMatch:
        """The best match of ``sig`` in the deck, computed now (:meth:`match` keeps it).

        A one-view pass over every reference shortlists the closest few; those are scored as
        calibrated (every view), so a full deck costs little more than a few direct comparisons."""
        if not self.refs:
            return NO_MATCH
        pairs = [(sig, r) for r in self.refs]
        order = np.arange(len(pairs))
        if len(pairs) > self.SHORTLIST and self.judge.views > 1:
            quick = self.judge.best_logits(pairs, views=1)
            order = np.argsort(-quick, kind="stable")[: self.SHORTLIST]
        p = self.judge.p_same_many([pairs[i] for i in order])
        k = int(np.argmax(p))
        group = int(self.group_of[order[k]])
        other = p[self.group_of[order] != group]
        return DeckMatch(group, float(p[k]), float(other.max()) if other.size else 0.0)

    def match(self, sig: Signature) -> DeckMatch:
        """The best match of ``sig`` in the deck, made once per signature and kept while the signature
        lives."""
        found = self._matches.get(sig)
        if found is None:
            found = self.score(sig)
            with self._lock:
                self._matches[sig] = found
        return found

    def decide(self, direct: float, a: DeckMatch, b: DeckMatch) -> float:
        """The pair's p_same from the direct comparison's and both crops' deck matches: when both match
        a group at the judge's "same" threshold, the groups decide; else the direct answer stands."""
        sure = self.judge.same_at
        if a.group < 0 or b.group < 0 or a.p_same < sure or b.p_same < sure:
            return direct
        if a.group == b.group:
            return max(direct, min(a.p_same, b.p_same))
        return min(direct, 1.0 - min(a.p_same, b.p_same))

    def p_same_many(self, pairs: list[tuple[Signature, Signature]]) -> np.ndarray:
        """p_same of many signature pairs: the pair judge's, settled by the deck where both crops
        match it surely (:meth:`decide`)."""
        direct = self.judge.p_same_many(pairs)
        out = np.asarray(direct, np.float64).copy()
        for k, (a, b) in enumerate(pairs):
            if a.square != b.square:
                continue
            out[k] = self.decide(float(direct[k]), self.match(a), self.match(b))
        return out

    def judge_signatures(self, a: Signature, b: Signature) -> Judgement:
        if a.square != b.square:
            return Judgement("different", 0.0)
        p = float(self.p_same_many([(a, b)])[0])
        return Judgement(self.verdict(p), round(p, 6))

    def compare(self, crop_a: np.ndarray, crop_b: np.ndarray) -> Judgement:
        a, b = self.signatures([crop_a, crop_b])
        return self.judge_signatures(a, b)
