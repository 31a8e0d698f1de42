"""Enrolling a real deck: store each face's reference and check the deck as a whole.

The identity models live in ``vision``; this module takes them as arguments (anything with the
methods below), so calibration stays below vision in the package arrows. The report lists the
cards that could not be used and, for Twin It, which patterns appear 1, 2 or 3 times.

The Twin It deck check compares cards pairwise. A full deck (270 faces, 36 315 pairs, each pair
scored by the judge's head at every relative turn and view) would take minutes, so when the
judge's signatures expose their feature maps (``turns``: one (C, H, W) map per symmetric turn),
each card is scored only against its ``SHORTLIST`` nearest cards by a cheap distance (cosine of
the maps pooled to 4 x 4 cells, best over the turns), and a card whose crop came out another shape
than most (an oblong crop in a deck of square cards: the card finder cut it badly, and the judge's
answers on it are less regular) against 3 times as many; every other pair counts as different.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np

from calibration.deck import EnrolledDeck

log = logging.getLogger(__name__)

MIN_SIDE_PX = 24
MIN_SHARPNESS = 4.0
"""Variance of the Laplacian of the grey crop at 96 px: below it, the crop is too blurred."""
SHORTLIST = 32
"""Twin It deck check: the judge scores each card against this many nearest cards (by pooled maps),
a card of the odd shape against 3 times as many. On two rendered full decks (226 and 227 cards cut
out by the finder) every pair the judge calls same or uncertain lies within 24 and 64 of them."""
POOL_CELLS = 4


class PatternJudgeLike(Protocol):
    same_at: float

    def signatures(self, crops: list[np.ndarray]) -> list[Any]: ...

    def p_same_many(self, pairs: list[tuple[Any, Any]]) -> np.ndarray: ...


class ReaderLike(Protocol):
    def read_many(self, crops: list[np.ndarray], deck: str) -> list[Any]: ...

    @staticmethod
    def identity(reading: Any, deck: str) -> str: ...


@dataclass(frozen=True)
class EnrollReport:
    """What enrolment found."""

    deck: str
    cards: int
    """Cards enrolled (readable or not)."""
    unreadable: list[tuple[str, str]]
    """(card id, why) of the cards that could not be used."""
    groups: list[list[str]] = field(default_factory=list)
    """Twin It: card ids showing the same pattern, one list per pattern."""
    multiplicities: dict[str, int] = field(default_factory=dict)
    """Twin It: how many patterns appear 1, 2, 3 or more times."""
    uncertain_pairs: list[tuple[str, str, float]] = field(default_factory=list)
    """Twin It: pairs the judge could not settle (p_same between its thresholds)."""
    identities: dict[str, list[str]] = field(default_factory=dict)
    """Number decks: identity -> card ids read as it."""
    duplicates: list[str] = field(default_factory=list)
    """Number decks: identities read on more than one card."""

    def to_json(self) -> dict:
        return {
            "deck": self.deck,
            "cards": self.cards,
            "unreadable": [{"card": c, "why": w} for c, w in self.unreadable],
            "groups": self.groups,
            "multiplicities": self.multiplicities,
            "uncertain_pairs": [{"a": a, "b": b, "p_same": round(p, 4)} for a, b, p in self.uncertain_pairs],
            "identities": self.identities,
            "duplicates": self.duplicates,
        }


def crop_problem(crop: np.ndarray) -> str:
    """Why a crop cannot serve as a reference ("" when it can)."""
    h, w = crop.shape[:2]
    if min(h, w) < MIN_SIDE_PX:
        return f"too small ({w}x{h} px, need {MIN_SIDE_PX})"
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    s = 96.0 / max(h, w)
    grey = cv2.resize(grey, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    if float(grey.mean()) < 15 or float(grey.mean()) > 250:
        return "too dark or too bright"
    if float(cv2.Laplacian(grey, cv2.CV_32F).var()) < MIN_SHARPNESS:
        return "too blurred"
    return ""


class _UnionFind:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union(self, i: int, j: int) -> None:
        a, b = self.find(i), self.find(j)
        if a != b:
            self.parent[max(a, b)] = min(a, b)


def enroll(
    deck: EnrolledDeck, crops: Mapping[str, np.ndarray], judge: PatternJudgeLike | None = None,
    reader: ReaderLike | None = None, missing: Mapping[str, str] | None = None,
) -> EnrollReport:  # fmt: skip
    """Store each crop as its card's reference (replacing an older one), save, and report.
    ``missing`` maps card ids that have no image to the reason (they are listed as unreadable)."""
    for cid, why in (missing or {}).items():
        deck.put_missing(cid, why)
    ids = list(crops)
    readings: dict[str, Any] = {}
    if deck.deck != "twinit" and reader is not None and ids:
        usable = [i for i in ids if not crop_problem(crops[i])]
        for cid, r in zip(usable, reader.read_many([crops[i] for i in usable], deck.deck), strict=True):
            readings[cid] = r
    for cid in ids:
        problem = crop_problem(crops[cid])
        reading = readings.get(cid)
        if not problem and reading is not None and getattr(reading, "uncertain", False):
            problem = f"uncertain read (confidence {reading.confidence:.3f})"
        deck.put(cid, crops[cid], not problem, problem, reading.to_json() if reading is not None else None)
    deck.save()
    return report(deck, judge, reader)


def pooled_turns(maps: np.ndarray, cells: int) -> np.ndarray:
    """(turns, C * cells * cells) unit vectors: each turn's (C, H, W) map averaged in cells x cells blocks."""
    t, c, h, w = maps.shape
    if h % cells or w % cells:
        cells = 1
    x = maps.reshape(t, c, cells, h // cells, cells, w // cells).mean(axis=(3, 5)).reshape(t, -1)
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-9)


def candidate_pairs(sigs: list[Any], shortlist: int | None = SHORTLIST) -> list[tuple[int, int]]:
    """Pairs (i < j) of signatures for the judge to score: every pair, or (when the signatures expose
    their turn maps and there are more than ``shortlist`` + 1 of them) each card's ``shortlist``
    nearest cards by the cosine of pooled maps, best over the second card's turns (3 x ``shortlist``
    for a card with another number of turns than most)."""
    n = len(sigs)
    every = [(i, j) for i in range(n) for j in range(i + 1, n)]
    if shortlist is None or n <= shortlist + 1:
        return every
    maps = [getattr(s, "turns", None) for s in sigs]
    if any(not isinstance(m, np.ndarray) or m.ndim != 4 for m in maps):
        return every
    if len({m.shape[1:] for m in maps}) != 1:
        return every
    pooled = [pooled_turns(np.asarray(m, np.float32), POOL_CELLS) for m in maps]
    upright = np.stack([p[0] for p in pooled])
    sim = np.full((n, n), -np.inf, np.float32)
    for k in range(max(len(p) for p in pooled)):
        sim = np.maximum(sim, upright @ np.stack([p[k % len(p)] for p in pooled]).T)
    sim = np.maximum(sim, sim.T)
    np.fill_diagonal(sim, -np.inf)
    n_turns = np.asarray([len(m) for m in maps])
    odd = n_turns != np.bincount(n_turns).argmax()
    order = np.argsort(-sim, axis=1, kind="stable")
    keep = set()
    for i in range(n):
        for j in order[i, : 3 * shortlist if odd[i] else shortlist].tolist():
            keep.add((min(i, j), max(i, j)))
    return sorted(keep)


def report(
    deck: EnrolledDeck,
    judge: PatternJudgeLike | None = None,
    reader: ReaderLike | None = None,
    shortlist: int | None = SHORTLIST,
    merge_at: float | None = None,
) -> EnrollReport:
    """Check the whole enrolled deck (all its stored references). ``shortlist=None``: the judge
    scores every pair of Twin It cards. Twin It cards join one group where a pair of them reaches
    ``merge_at`` (default: the judge's "same" threshold); pairs between its "different" threshold and
    ``merge_at`` are reported uncertain."""
    unreadable = sorted((cid, c.problem) for cid, c in deck.cards.items() if not c.readable)
    ok = deck.readable_ids()
    if deck.deck == "twinit":
        if judge is None or not ok:
            return EnrollReport(deck.deck, len(deck.cards), unreadable)
        sigs = judge.signatures([deck.reference(cid) for cid in ok])
        pairs = candidate_pairs(sigs, shortlist)
        log.info("deck check: the judge scores %d of %d pairs", len(pairs), len(ok) * (len(ok) - 1) // 2)
        p = judge.p_same_many([(sigs[i], sigs[j]) for i, j in pairs]) if pairs else np.zeros(0)
        uf = _UnionFind(len(ok))
        uncertain = []
        lo = float(getattr(judge, "different_below", 0.5))
        merge = judge.same_at if merge_at is None else merge_at
        for (i, j), pij in zip(pairs, p, strict=True):
            if pij >= merge:
                uf.union(i, j)
            elif pij >= lo:
                uncertain.append((ok[i], ok[j], float(pij)))
        members: dict[int, list[str]] = {}
        for i, cid in enumerate(ok):
            members.setdefault(uf.find(i), []).append(cid)
        groups = sorted(members.values(), key=lambda g: (-len(g), g))
        counts = Counter(min(len(g), 4) for g in groups)
        mult = {"1": counts[1], "2": counts[2], "3": counts[3], "more": counts[4]}
        return EnrollReport(deck.deck, len(deck.cards), unreadable, groups, mult, uncertain)
    identities: dict[str, list[str]] = {}
    for cid in ok:
        r = deck.cards[cid].reading
        if r is None:
            continue
        if r["kind"] == "bet":
            ident = f"lineit:bet:+{r['number']}"
        elif deck.deck == "lineit":
            ident = f"lineit:{r['number']}:{r['colour']}"
        else:
            ident = f"{deck.deck}:{r['number']}"
        identities.setdefault(ident, []).append(cid)
    expected_copies = 3 if deck.deck == "trio" else 1
    dups = sorted(
        i for i, c in identities.items() if len(c) > (2 if i.startswith("lineit:bet") else expected_copies)
    )
    return EnrollReport(deck.deck, len(deck.cards), unreadable, identities=identities, duplicates=dups)
