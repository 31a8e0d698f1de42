"""The judge made surer by an enrolled deck: a Twin It table is a closed set.

The pair judge asks of two crops "the same pattern or not?" against an absolute threshold, set by
near-duplicates (colours swapped, one element changed, mirrored) whose differences barely show at
its working size, so most genuine pairs stay uncertain. With the players' deck enrolled, each crop is
asked instead "which of the deck's faces is it?": its near-duplicate is enrolled too, so the answer is
relative (closer to pattern X than to any other group, X' included, by a margin).

Each crop is matched once (:meth:`EnrolledJudge.match`): a one-view pass of the judge's head over
every reference shortlists the closest few, scored as calibrated (every view, with the verifier);
its best group, the p_same of that group's best reference and the best p_same of any other group
make a :class:`DeckMatch`. A pair is then ruled by the closed-set rule (:meth:`EnrolledJudge.decide`,
settings in ``models/judge_enrolled.json``, calibrated on rendered calibration decks by
:mod:`vision.identity.enrolled_calibration`): both crops match their group at p_same >= ``p_floor``;
same group, each crop's margin (logit of its group's p_same minus the runner-up group's) at least
``same_margin``: same; two groups, each margin at least ``different_margin``: different; otherwise
the pair judge's own answer. The deck's groups are made by the judge on the enrolled references at
the stricter ``merge_at`` (two copies it cannot join stay two groups: a crop of them then has a
small margin and the pair judge answers, where a near-duplicate joined into a group would make
confident wrong answers).

Without the settings file (or with one calibrated for another judge), or when a card of the deck has
no usable reference (the closed set is then incomplete: a crop of the missing pattern would match its
near-duplicate, measured), the pair judge answers alone.

:class:`EnrolledJudge` is a drop-in for :class:`~vision.identity.judge.PatternJudge` where the live
Twin It adapter takes one (``signatures``, ``signature``, ``judge_signatures``, ``p_same_many``,
``compare``, ``verdict``, ``same_at``, ``different_below``): its signatures are the judge's own, and
each signature's match against the deck is made the first time a pair needs it and then kept (a
crop compared with 40 others is matched once, not 40 times). A crop whose pixels (and source size)
are those of a crop matched before gets that match again without the deck pass: the live adapter cuts a
new view of a card that lies still every frame, and on a still table many are the same pixels (the
live bench's seed 0 replay: 59 of 201 matches). Signature and match are functions of the crop and its
source size alone, so the answers stay the same (that replay's rulings and labels are identical).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from calibration.deck import EnrolledDeck
from calibration.enroll import POOL_CELLS, pooled_turns, report
from models.files import MODEL_DIR
from vision.identity.judge import Judgement, PatternJudge, Signature

log = logging.getLogger(__name__)

RULE_FILE = "judge_enrolled.json"


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

    @property
    def margin(self) -> float:
        """Logit of :attr:`p_same` minus logit of :attr:`runner_up` (each clipped to 1e-7..1-1e-7)."""
        return _logit(self.p_same) - _logit(self.runner_up)


NO_MATCH = DeckMatch(-1, 0.0, 0.0)


def _rounded_up(threshold: float) -> float:
    """The smallest p of 6 decimals at or above ``threshold`` (callers round p_same to 6 decimals)."""
    return math.ceil(threshold * 1e6) / 1e6


def _rounded_down(threshold: float) -> float:
    """A p of 6 decimals below ``threshold``, still below it once rounded to 6 decimals."""
    return math.floor(threshold * 1e6) / 1e6 - 1e-6


def _logit(p: float) -> float:
    p = min(max(p, 1e-7), 1.0 - 1e-7)
    return math.log(p / (1.0 - p))


@dataclass(frozen=True)
class ClosedSetRule:
    """The calibrated closed-set rule (``models/judge_enrolled.json``)."""

    merge_at: float
    """Enrolled references join one group at this pair p_same or above."""
    p_floor: float
    """Each crop must match its group at least this surely."""
    same_margin: float
    different_margin: float

    @classmethod
    def from_settings(cls, settings: dict) -> ClosedSetRule:
        return cls(
            float(settings["merge_at"]),
            float(settings["p_floor"]),
            float(settings["same_margin"]),
            float(settings["different_margin"]),
        )


def judge_fingerprint(judge: PatternJudge) -> str:
    """What the judge's answers depend on: its net files and its verifier's settings."""
    text = json.dumps({"net": judge.meta.get("sha256"), "verifier": judge.verifier}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load_rule(judge: PatternJudge, folder: Path | None = None) -> ClosedSetRule | None:
    """The closed-set rule calibrated for this very judge, or None (missing, unreadable or calibrated
    for another judge: a warning says why)."""
    path = (MODEL_DIR if folder is None else Path(folder)) / RULE_FILE
    if not path.is_file():
        log.warning("%s missing: the enrolled deck does not rule pairs (the pair judge answers)", path)
        return None
    try:
        settings = json.loads(path.read_text(encoding="utf-8"))
        rule = ClosedSetRule.from_settings(settings)
        fitted_for = str(settings["judge"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("%s unreadable (%s): the pair judge answers", path, exc.__class__.__name__)
        return None
    if fitted_for != judge_fingerprint(judge):
        log.warning(
            "%s was calibrated for another judge: the pair judge answers until"
            " `tableref train judge-enrolled` calibrates it again",
            path,
        )
        return None
    return rule


def crop_key(crop: np.ndarray, source_px: float | None = None) -> bytes:
    """A digest of a crop's pixels, shape and type, and the source size it was signed with."""
    arr = np.ascontiguousarray(crop)
    digest = hashlib.blake2b(digest_size=20)
    digest.update(f"{arr.shape} {arr.dtype.str} {source_px!r}".encode())
    digest.update(memoryview(arr).cast("B"))
    return digest.digest()


def _pooled_refs(refs: list[Signature]) -> np.ndarray | None:
    """(references, turns, features) pooled unit vectors of every reference at each of its turns; None
    when the references' maps differ in shape or turns (then every reference gets the one-view pass)."""
    if not refs or any(r.turns.ndim != 4 for r in refs) or len({r.turns.shape for r in refs}) != 1:
        return None
    return np.stack([pooled_turns(np.asarray(r.turns, np.float32), POOL_CELLS) for r in refs])


class EnrolledJudge:
    """The pair judge with the help of an enrolled Twin It deck (a drop-in for it)."""

    SHORTLIST = 12
    """References scored in full (every view, with the verifier) after the one-view pass."""
    PRESHORT = 48
    """References given the one-view pass of the head, the closest by the cosine of their pooled maps
    (:func:`calibration.enroll.candidate_pairs`' distance); a full deck's one-view pass took 70 ms
    a crop, this one matrix product well under 1 ms."""
    KEPT_CROPS = 4096
    """Matches kept by the crop's content (:meth:`match`), the oldest dropped first."""

    def __init__(
        self,
        judge: PatternJudge,
        deck: EnrolledDeck,
        rule: ClosedSetRule | None = None,
        rule_folder: Path | None = None,
    ) -> None:
        """``rule``: the closed-set rule (default: the calibrated one beside the models, or in
        ``rule_folder``)."""
        if deck.deck != "twinit":
            raise ValueError(f"enrolled deck {deck.folder} is {deck.deck!r}, the judge needs a Twin It deck")
        self.judge = judge
        self.deck = deck
        self.rule = rule if rule is not None else load_rule(judge, rule_folder)
        self.unreadable = sorted(cid for cid, c in deck.cards.items() if not c.readable)
        """Cards enrolled without a usable reference: the closed set is incomplete without them (a crop
        of a pattern missing from the deck would match its near-duplicate), so the rule stays off."""
        if self.unreadable and self.rule is not None:
            log.warning(
                "enrolled deck %s: %d card(s) without a usable reference (%s): the pair judge answers"
                " until they are enrolled again",
                deck.folder,
                len(self.unreadable),
                ", ".join(self.unreadable[:5]),
            )
            self.rule = None
        self.groups = self._groups()
        ids = [cid for g in self.groups for cid in g]
        self.group_of = np.asarray([k for k, g in enumerate(self.groups) for _ in g], np.int64)
        self.refs: list[Signature] = judge.signatures([deck.reference(cid) for cid in ids])
        self._pooled = _pooled_refs(self.refs)
        self._matches: weakref.WeakKeyDictionary[Signature, DeckMatch] = weakref.WeakKeyDictionary()
        self._content: weakref.WeakKeyDictionary[Signature, bytes] = weakref.WeakKeyDictionary()
        """Each signature made here: the digest of its crop (:func:`crop_key`)."""
        self._by_content: OrderedDict[bytes, DeckMatch] = OrderedDict()
        self._lock = threading.Lock()

    def _groups(self) -> list[list[str]]:
        """The deck's pattern groups at the rule's ``merge_at``: kept in the deck when this judge made
        them, else made now (a deck check) and kept."""
        merge_at = None if self.rule is None else self.rule.merge_at
        key = hashlib.sha256(f"{judge_fingerprint(self.judge)} {merge_at!r}".encode()).hexdigest()
        groups = self.deck.groups_for(key)
        if groups is None:
            groups = report(self.deck, self.judge, merge_at=merge_at).groups
            self.deck.keep_groups(key, groups)
            try:
                self.deck.save()
            except OSError as exc:  # a read-only deck folder: the groups are made again next time
                log.warning("enrolled deck %s: groups not kept (%s)", self.deck.folder, exc)
        return groups

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
        """The pair judge's signatures (their deck match is made when a pair first needs it, or taken
        from an earlier crop of the very same pixels)."""
        sigs = self.judge.signatures(crops, source_px=source_px)
        px = source_px if source_px is not None else [None] * len(crops)
        keys = [crop_key(crop, p) for crop, p in zip(crops, px, strict=True)]
        with self._lock:
            for sig, key in zip(sigs, keys, strict=True):
                self._content[sig] = key
        return sigs

    def signature(self, crop: np.ndarray) -> Signature:
        return self.signatures([crop])[0]

    def score(self, sig: Signature) -> DeckMatch:
        """The best match of ``sig`` in the deck, computed now (:meth:`match` keeps it)."""
        if not self.refs:
            return NO_MATCH
        order = np.arange(len(self.refs))
        if self._pooled is not None and len(order) > self.PRESHORT and sig.turns.ndim == 4:
            crop = pooled_turns(np.asarray(sig.turns[:1], np.float32), POOL_CELLS)[0]
            if crop.shape[0] == self._pooled.shape[2]:
                sim = (self._pooled @ crop).max(axis=1)
                order = np.sort(np.argsort(-sim, kind="stable")[: self.PRESHORT])
        if len(order) > self.SHORTLIST and self.judge.views > 1:
            quick = self.judge.best_logits([(sig, self.refs[i]) for i in order], views=1)
            order = order[np.argsort(-quick, kind="stable")[: self.SHORTLIST]]
        p = self.judge.p_same_many([(sig, self.refs[i]) for i in order])
        k = int(np.argmax(p))
        group = int(self.group_of[order[k]])
        other = p[self.group_of[order] != group]
        return DeckMatch(group, float(p[k]), float(other.max()) if other.size else 0.0)

    def match(self, sig: Signature) -> DeckMatch:
        """The best match of ``sig`` in the deck, made once per signature and kept while the signature
        lives; once per crop content for signatures made by :meth:`signatures` (:data:`KEPT_CROPS`)."""
        with self._lock:
            found = self._matches.get(sig)
            key = self._content.get(sig)
            if found is None and key is not None:
                found = self._by_content.get(key)
                if found is not None:
                    self._by_content.move_to_end(key)
                    self._matches[sig] = found
        if found is None:
            found = self.score(sig)
            with self._lock:
                self._matches[sig] = found
                if key is not None:
                    self._by_content[key] = found
                    while len(self._by_content) > self.KEPT_CROPS:
                        self._by_content.popitem(last=False)
        return found

    def closed_set_verdict(self, a: DeckMatch, b: DeckMatch) -> str:
        """The closed-set verdict from both crops' matches: "same", "different" or "" (not settled)."""
        rule = self.rule
        if rule is None or a.group < 0 or b.group < 0 or min(a.p_same, b.p_same) < rule.p_floor:
            return ""
        margin = min(a.margin, b.margin)
        if a.group == b.group:
            return "same" if margin >= rule.same_margin else ""
        return "different" if margin >= rule.different_margin else ""

    def decide(self, direct: float, a: DeckMatch, b: DeckMatch) -> float:
        """The pair's p_same from the pair judge's (``direct``) and both crops' deck matches: where the
        closed-set rule settles the pair, a p_same on its side of the judge's thresholds (at least
        ``same_at`` for same, below ``different_below`` for different; the pair judge's own where it
        already is); where the pair judge is sure of the opposite, ``different_below`` (uncertain);
        else the pair judge's."""
        verdict = self.closed_set_verdict(a, b)
        below, same_at = self.judge.different_below, self.judge.same_at
        if verdict == "same":
            return below if direct < below else max(direct, _rounded_up(same_at))
        if verdict == "different":
            return below if direct >= same_at else min(direct, _rounded_down(below))
        return direct

    def p_same_many(self, pairs: list[tuple[Signature, Signature]]) -> np.ndarray:
        """p_same of many signature pairs: the pair judge's, settled by the deck where the closed-set
        rule does (:meth:`decide`)."""
        direct = self.judge.p_same_many(pairs)
        out = np.asarray(direct, np.float64).copy()
        if self.rule is None:
            return out
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
