"""Calibrate the judge's classical second opinion (``models.judge_verify``) next to the trained net.

Pairs of camera crops are drawn from the judge's held-out calibration decks exactly as the net's
calibration pairs are (same pattern, random other pattern, the decks' near-duplicates, mixed 0.45 /
0.3 / 0.25; every crop through ``camera_crop`` with the bench's light, each at a random quarter
turn). The net scores every pair; the pairs it gives at least ``gate`` are also measured by the
verifier, and a logistic model of "same" on (the net's calibrated logit, log of each evidence
number) is fitted on one set of pairs (``fit_seed``). Its threshold "same" is then set on a second,
larger set (``calibration_seed``) by the net's own rule: at most ``floor(target / 2 * n)`` different
pairs of that set (near-duplicate or random) reach it, ``target`` being the net's
``target_confident_wrong``. Then the resolution bands: each crop's effective resolution
(``models.judge_verify.effective_px``: here its shorter side, the card's size in the camera frame),
and for each band of the pair's smaller one (:data:`BAND_EDGES_PX`) the band's own threshold by the
same rule within the band; a band whose near-duplicates allow a lower threshold than the global one
gets a logit offset that brings its threshold onto the global one, so a single "same" threshold still
applies (never a higher threshold: a band keeps at least the global rule's guarantee; measured, a
stricter band threshold cost more genuine pairs than it saved wrong answers).
Pairs below the gate keep the net's p_same. "Different" is the net's call, and the verifier's where
its rule fires (:func:`different_rule`): the verifier also measures the pairs the net leaves above its
"different" threshold, and the rule's logit of "same" is set :data:`DIFFERENT_MARGIN` below the lowest
of the genuine pairs of the second set whose registrations converged (none of them fires; the first
set is reported as a check). Written to
``models/judge_verify.json``; needs no PyTorch (the net runs through its ONNX files).
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from models import judge_verify as jv
from models.files import JUDGE, load_meta, sha256
from models.judge_scoring import best_logits
from models.preprocess import is_square, to_tensor, turns
from models.training.augment import AugmentConfig, camera_crop
from models.training.decks import PatternDeck
from models.training.judge_data import FaceCache
from models.training.onnx_cpu import cpu_session

log = logging.getLogger(__name__)

VERIFY_META = "judge_verify.json"


DIFFERENT_MARGIN = 0.5
"""The verifier's "different" rule fires this far (logit) below the lowest logit of "same" that any
genuine calibration pair it measured (registrations converged) gets."""


@dataclass(frozen=True)
class VerifyConfig:
    fit_seed: int = 1
    calibration_seed: int = 2
    fit_pairs: int = 5000
    calibration_pairs: int = 8000
    gate: float = 0.3
    """The verifier is consulted (and can make "same") only where the net's p_same is at least this."""
    l2: float = 1e-3
    different_margin: float | None = DIFFERENT_MARGIN
    """The "different" rule's margin (:data:`DIFFERENT_MARGIN`); None: no such rule ("different" stays
    the net's call)."""
    high_size: int | None = jv.HIGH_SIZE
    """Working size of the high-resolution band (:data:`models.judge_verify.HIGH_SIZE`); None: no such
    band (every pair at :data:`models.judge_verify.SIZE`)."""
    high_from_px: int = 120
    """The band takes pairs whose crops are both at least this large (px, shorter side)..."""
    high_max_px: int = 200
    """...and draws its calibration crops up to this size (a crop of unknown source larger than it
    stays out of the band)."""
    high_fit_pairs: int = 2000
    high_calibration_pairs: int = 4400
    """Pairs of large crops for the band's logistic model and for its thresholds (drawn as the other
    pairs: about 45 % genuine and 25 % near-duplicates)."""
    different_weight: float = 10.0
    """Weight of each different pair (near-duplicate or random) against a genuine one's 1 in the fit of
    the small crops' "same" model: the "same" threshold is set by the few highest different pairs, so
    the fit is made to order that tail rather than the bulk of genuine pairs (the "different" rule keeps
    a plain fit). Measured on the calibration pairs (fit and threshold sets pooled, 5 random halves,
    fitted on one and counted on the other; never the bench's), genuine pairs above all but 2 different
    pairs, with :attr:`aligned_net`: 0.372 unweighted, 0.436 at 10, 0.460 at 30. The calibration itself:
    "same" 0.366 unweighted without the aligned logit, 0.395 at 10 with it, 0.424 at 30; but at 30 the
    large crops' set (4400 pairs of 120-200 px, judged at the global threshold) had 5 different pairs
    called "same" against 4 (confident wrong 0.00114, above the 0.001 its test holds), at 10 still 4.
    1: unweighted."""
    aligned_net: bool = True
    """The logistic model (at :data:`models.judge_verify.SIZE`) also takes the net's logit of the pair
    registered and light-evened (:func:`models.judge_verify.aligned_net_logit`); the high band's does
    not."""


BAND_EDGES_PX = (60.0, 80.0, 100.0)
"""Edges of the resolution bands (the pair's smaller effective resolution, px)."""
MIN_BAND_NEGATIVES = 10
"""A band sets its own threshold only from at least this many different pairs the verifier measured in
it; a thinner band keeps the global threshold."""
MIN_BAND_GENUINE = 500
"""A resolution band gets its own "different" threshold only from at least this many genuine pairs the
rule may fire on (the lowest of fewer is a weaker bound); a thinner band keeps the global one."""
SIDE_BANDS = ((44, 60), (60, 80), (80, 100), (100, 121))
"""Bands of the smaller crop's true side (px) the calibration reports on."""

HIGH_SEED_OFFSET = 1000
"""The high band's pairs are drawn from ``fit_seed`` and ``calibration_seed`` plus this (other pairs
than the small crops')."""

CONFIGS = {
    "full": VerifyConfig(),
    "quick": VerifyConfig(
        fit_pairs=500, calibration_pairs=1000, high_fit_pairs=500, high_calibration_pairs=1000
    ),
    "tiny": VerifyConfig(fit_pairs=60, calibration_pairs=60, high_fit_pairs=60, high_calibration_pairs=60),
}

Pair = tuple[np.ndarray, np.ndarray, bool, str]
"""(crop a, crop b, same pattern, kind: same | random | hard)."""


def draw_pairs(
    decks: Sequence[PatternDeck], n: int, seed: int, aug: AugmentConfig | None = None
) -> list[Pair]:
    """``n`` labelled pairs of BGR camera crops, drawn like ``judge_data.PairSampler.pair``."""
    aug = aug or AugmentConfig()
    caches = [FaceCache(d) for d in decks]
    rng = np.random.default_rng(seed)
    out: list[Pair] = []
    for _ in range(n):
        cache = caches[int(rng.integers(len(caches)))]
        deck = cache.deck
        kind = str(rng.choice(["same", "random", "hard"], p=[0.45, 0.3, 0.25]))
        if kind == "hard" and not deck.near_duplicates:
            kind = "random"
        if kind == "same":
            a = b = cache.face(deck.patterns[int(rng.integers(len(deck.patterns)))])
        elif kind == "random":
            i, j = rng.choice(len(deck.patterns), size=2, replace=False)
            a, b = cache.face(deck.patterns[i]), cache.face(deck.patterns[j])
        else:
            x, y, _ = deck.near_duplicates[int(rng.integers(len(deck.near_duplicates)))]
            if rng.random() < 0.5:
                x, y = y, x
            a, b = cache.face(x), cache.face(y)
        ca = np.ascontiguousarray(np.rot90(camera_crop(a, rng, aug), int(rng.integers(4))))
        cb = np.ascontiguousarray(np.rot90(camera_crop(b, rng, aug), int(rng.integers(4))))
        out.append((ca, cb, kind == "same", kind))
    return out


AlignedFn = Callable[[np.ndarray, np.ndarray, bool], float]
"""(a's normalised upright crop, b registered and light-evened onto it, square) -> the net's calibrated
logit (:func:`models.judge_verify.aligned_net_logit`)."""


def aligned_scorer(model_dir: Path) -> AlignedFn:
    """The net of ``model_dir`` as :func:`models.judge_verify.aligned_net_logit` runs it at run time."""
    meta = load_meta(JUDGE, model_dir)
    embed = cpu_session(Path(model_dir) / JUDGE.onnx[0])
    head = cpu_session(Path(model_dir) / JUDGE.onnx[1])
    size = int(meta["input"]["width"])
    balance = bool(meta["input"].get("balance", False))
    a_, b_ = (float(v) for v in meta["platt"])

    def embed_fn(x: np.ndarray) -> np.ndarray:
        return embed.run(None, {"crops": x})[0]

    def head_fn(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return head.run(None, {"a": a, "b": b})[0]

    def score_one(a: np.ndarray, b: np.ndarray, square: bool) -> float:
        return jv.aligned_net_logit(embed_fn, head_fn, a, b, square, (a_, b_), size, balance)

    return score_one


def net_logits(model_dir: Path, pairs: Sequence[Pair]) -> tuple[np.ndarray, list[np.ndarray]]:
    """The net's Platt-calibrated logit of "same" for each pair, scored as at run time, and the
    relative turns the verifier tries on it (:func:`models.judge_verify.net_turn_order`)."""
    meta = load_meta(JUDGE, model_dir)
    embed = cpu_session(Path(model_dir) / JUDGE.onnx[0])
    head = cpu_session(Path(model_dir) / JUDGE.onnx[1])
    size = int(meta["input"]["width"])
    balance = bool(meta["input"].get("balance", False))
    stacks = []
    for ca, cb, _, _ in pairs:
        xa = turns(to_tensor(ca, size, size, balance), is_square(ca))
        xb = turns(to_tensor(cb, size, size, balance), is_square(cb))
        maps = embed.run(None, {"crops": np.concatenate([xa, xb]).astype(np.float32)})[0]
        stacks.append((maps[: len(xa)], maps[len(xa) :]))
    views = int(meta.get("views", 1))

    def head_fn(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return head.run(None, {"a": a, "b": b})[0]

    z = best_logits(head_fn, stacks, views)
    tried = [jv.net_turn_order(head_fn, a, b, views)[: jv.TURNS_TRIED] for a, b in stacks]
    a_, b_ = (float(v) for v in meta["platt"])
    return a_ * z + b_, tried


def verifier_evidence(
    pairs: Sequence[Pair],
    ms: list[float] | None = None,
    tried: Sequence[np.ndarray] | None = None,
    size: int = jv.SIZE,
) -> np.ndarray:
    """(n, len(FEATURES)) evidence of each pair (crops of different shapes: +inf, never the same),
    at the relative turns ``tried`` of each pair (every turn when None); ``ms`` collects the
    milliseconds of each comparison, building both views from the shrunk crops included (as a pair
    of fresh signatures pays at run time); ``size``: the working size."""
    return verifier_measures(pairs, ms, tried, size)[0]


def verifier_measures(
    pairs: Sequence[Pair],
    ms: list[float] | None = None,
    tried: Sequence[np.ndarray] | None = None,
    size: int = jv.SIZE,
    aligned_fn: AlignedFn | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`verifier_evidence`, whether each pair's registrations converged
    (:attr:`models.judge_verify.Measurement.registered`; False for crops of different shapes), and with
    ``aligned_fn`` the net's logit of each pair registered and light-evened (NaN elsewhere; its cost is
    in ``ms``, as at run time)."""
    out = np.full((len(pairs), len(jv.FEATURES)), np.inf)
    registered = np.zeros(len(pairs), bool)
    aligned = np.full(len(pairs), np.nan)
    for k, (ca, cb, _, _) in enumerate(pairs):
        sa, sb = is_square(ca), is_square(cb)
        if sa == sb:
            src_a, src_b = jv.source(ca, size), jv.source(cb, size)
            t0 = time.perf_counter()
            va, vb = jv.view_of_source(src_a, sa), jv.view_of_source(src_b, sb)
            m = jv.measure(va, vb, None if tried is None else tried[k], aligned_fn is not None)
            out[k], registered[k] = m.evidence, m.registered
            if aligned_fn is not None and m.aligned is not None:
                aligned[k] = aligned_fn(va.turn(0)[0], m.aligned, sa)
            if ms is not None:
                ms.append((time.perf_counter() - t0) * 1000)
    return out, registered, aligned


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float, negative_weight: float = 1.0) -> dict:
    """Standardised L2-regularised logistic regression by Newton steps (deterministic); each row of
    ``y`` 0 weighs ``negative_weight`` against a row of 1's 1 (weights scaled to a mean of 1, so the
    regularisation keeps its strength). A weighted fit's logit is the plain one less
    ``log(negative_weight)`` (the weights act as a prior of the different pairs): its intercept takes
    that back, so the model's p stays a probability of "same" (the enrolled judge's rule reads it)."""
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = np.hstack([(x - mean) / std, np.ones((len(x), 1))])
    r = np.where(y > 0, 1.0, float(negative_weight))
    r = r / r.mean()
    w = np.zeros(z.shape[1])
    for _ in range(100):
        q = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -40, 40)))
        grad = z.T @ (r * (q - y)) / len(y) + l2 * w
        hess = (z * (r * q * (1 - q))[:, None]).T @ z / len(y) + l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    w[-1] += np.log(float(negative_weight))
    return {"mean": mean.tolist(), "std": std.tolist(), "weights": w.tolist()}


@dataclass(frozen=True)
class Scored:
    """A set of pairs as the combined judge sees them."""

    same: np.ndarray
    kinds: np.ndarray
    net_p: np.ndarray
    gated: np.ndarray
    evidence: np.ndarray
    net_logit: np.ndarray
    side: np.ndarray
    """The shorter side (px) of the smaller crop of each pair."""
    sides: np.ndarray
    """(n, 2) shorter side (px) of each crop."""
    registered: np.ndarray
    """Whether the verifier's registrations of each measured pair converged (False where not measured)."""
    aligned: np.ndarray
    """The net's calibrated logit of each measured pair registered and light-evened
    (:func:`models.judge_verify.aligned_net_logit`; NaN where not measured or not asked for)."""

    def effective_px(self, resolution: dict) -> np.ndarray:
        """Each pair's smaller effective resolution (px), as the judge computes it at run time."""
        return np.asarray([min(jv.effective_px(v, resolution) for v in ss) for ss in self.sides])


def score(
    model_dir: Path,
    pairs: Sequence[Pair],
    gate: float,
    ms: list[float] | None = None,
    measure_from: float | None = None,
    size: int = jv.SIZE,
    aligned: bool = False,
) -> Scored:
    """The net's score of each pair; the verifier measures those the net gives at least
    ``measure_from`` (default ``gate``; the "different" rule needs those below the gate too), at the
    working size ``size``; with ``aligned``, the net also scores them registered and light-evened."""
    return score_sizes(model_dir, pairs, gate, (size,), ms, measure_from, aligned)[0]


def score_sizes(
    model_dir: Path,
    pairs: Sequence[Pair],
    gate: float,
    sizes: Sequence[int],
    ms: list[float] | None = None,
    measure_from: float | None = None,
    aligned: bool = False,
) -> list[Scored]:
    """:func:`score` at each working size of ``sizes`` (the net scores the pairs once); ``ms``
    collects the verifier's milliseconds at the first size; with ``aligned``, the net's logit of each
    measured pair registered and light-evened at :data:`models.judge_verify.SIZE` (what the small
    crops' model takes)."""
    aligned_fn = aligned_scorer(model_dir) if aligned else None
    z, tried = net_logits(model_dir, pairs)
    p = 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))
    gated = p >= gate
    idx = np.flatnonzero(p >= (gate if measure_from is None else min(measure_from, gate)))
    sides = np.asarray([[min(a.shape[:2]), min(b.shape[:2])] for a, b, _, _ in pairs], np.float64)
    same = np.asarray([pr[2] for pr in pairs])
    kinds = np.asarray([pr[3] for pr in pairs])
    out = []
    for k, size in enumerate(sizes):
        ev = np.full((len(pairs), len(jv.FEATURES)), np.inf)
        registered = np.zeros(len(pairs), bool)
        al = np.full(len(pairs), np.nan)
        ev[idx], registered[idx], al[idx] = verifier_measures(
            [pairs[i] for i in idx],
            ms if k == 0 else None,
            [tried[i] for i in idx],
            size,
            aligned_fn if size == jv.SIZE else None,
        )
        out.append(Scored(same, kinds, p, gated, ev, z, sides.min(axis=1), sides, registered, al))
    return out


def combined_p(
    s: Scored, model: dict, different_below: float, offset: np.ndarray | float = 0.0
) -> np.ndarray:
    """The combined p_same: inside the gate (where both shapes agree) the logistic model's (plus each
    pair's resolution band ``offset``), never below ``different_below`` ("different" stays the net's
    call); else the net's."""
    p = s.net_p.copy()
    ok = s.gated & np.isfinite(s.evidence).all(axis=1)
    if ok.any():
        off = np.broadcast_to(np.asarray(offset, np.float64), p.shape)[ok]
        p[ok] = jv.combined_p(
            s.net_logit[ok], s.evidence[ok], model, different_below, off, _aligned_of(s, ok, model)
        )
    p[s.gated & ~ok] = 0.0
    return p


def different_eligible(s: Scored, different_below: float) -> np.ndarray:
    """Pairs the "different" rule may fire on: the net leaves them at least ``different_below``, the
    verifier measured them and both its registrations converged."""
    return (s.net_p >= different_below) & np.isfinite(s.evidence).all(axis=1) & s.registered


def different_logits(s: Scored, model: dict, different_below: float) -> np.ndarray:
    """The combination's logit of "same" of each pair the rule may fire on (+inf elsewhere)."""
    out = np.full(len(s.net_p), np.inf)
    ok = different_eligible(s, different_below)
    if ok.any():
        out[ok] = jv.combined_logit(s.net_logit[ok], s.evidence[ok], model, _aligned_of(s, ok, model))
    return out


def _aligned_of(s: Scored, ok: np.ndarray, model: dict) -> np.ndarray | None:
    """The aligned logits of pairs ``ok`` where ``model`` takes them (else None)."""
    return s.aligned[ok] if jv.uses_aligned(model) else None


def different_rule(
    s: Scored, model: dict, different_below: float, margin: float, px: np.ndarray | None = None
) -> dict | None:
    """The verifier's "different" rule: ``margin`` (logit) below the lowest logit of "same" of the
    genuine pairs of ``s`` it may fire on (None where there is none), and with each pair's smaller
    effective resolution ``px``, each resolution band's own (below its own genuine pairs' lowest, where
    at least :data:`MIN_BAND_GENUINE` of them were measured; else the global one); with what it fires on
    there."""
    z = different_logits(s, model, different_below)
    genuine = np.isfinite(z) & s.same
    if not genuine.any():
        return None
    lowest = float(z[genuine].min())
    measured = s.same & (s.net_p >= different_below) & np.isfinite(s.evidence).all(axis=1)
    rule: dict = {
        "logit_below": lowest - margin,
        "margin": margin,
        "genuine_lowest_logit": lowest,
        "genuine_unregistered_share": float(np.mean(~s.registered[measured])),
    }
    if px is not None:
        bands = np.asarray([jv.band_of(v, BAND_EDGES_PX) for v in px])
        below, counts = [], []
        for b in range(len(BAND_EDGES_PX) + 1):
            g = genuine & (bands == b)
            counts.append(int(g.sum()))
            below.append(float(z[g].min()) - margin if g.sum() >= MIN_BAND_GENUINE else lowest - margin)
        rule["by_band"] = {"edges_px": list(BAND_EDGES_PX), "logit_below": below, "genuine_pairs": counts}
    return rule | {"calibration_fired": fired(s, z, rule, px)}


def rule_thresholds(rule: dict, n: int, px: np.ndarray | None) -> np.ndarray:
    """Each pair's logit threshold under ``rule`` (:func:`models.judge_verify.different_logit_below`)."""
    if px is None:
        return np.full(n, float(rule["logit_below"]))
    return np.asarray([jv.different_logit_below(rule, v) for v in px], np.float64)


def fired(s: Scored, z: np.ndarray, rule: dict, px: np.ndarray | None = None) -> dict:
    """How many pairs of each kind the rule fires on, of how many it may fire on."""
    out = {}
    hit = z < rule_thresholds(rule, len(z), px)
    for kind in ("same", "hard", "random"):
        m = s.kinds == kind
        out[kind] = {
            "fired": int(np.sum(m & hit)),
            "eligible": int(np.sum(m & np.isfinite(z))),
            "pairs": int(m.sum()),
        }
    return out


def apply_different(
    s: Scored,
    p: np.ndarray,
    model: dict,
    different_below: float,
    rule: dict | None,
    px: np.ndarray | None = None,
) -> np.ndarray:
    """``p`` with the "different" rule applied, as the judge does (a pair it fires on: below
    ``different_below``); ``px``: each pair's smaller effective resolution."""
    if rule is None:
        return p
    z = different_logits(s, rule.get("combination", model), different_below)
    hit = z < rule_thresholds(rule, len(z), px)
    out = p.copy()
    out[hit] = np.minimum(1.0 / (1.0 + np.exp(-np.clip(z[hit], -40, 40))), np.nextafter(different_below, 0.0))
    return out


def summary(s: Scored, p: np.ndarray, same_at: float, different_below: float) -> dict:
    said_same = p >= same_at
    said_diff = p < different_below
    out = {
        "pairs": len(p),
        "confident_wrong_rate": float(np.mean((said_same & ~s.same) | (said_diff & s.same))),
        "uncertain_rate": float(np.mean(~said_same & ~said_diff)),
    }
    for k in ("same", "random", "hard"):
        m = s.kinds == k
        if m.any():
            out[f"{k}_accuracy"] = float(np.mean((said_same if k == "same" else said_diff)[m]))
    return out


def same_threshold(p: np.ndarray, same: np.ndarray, target: float, gate: float) -> float:
    """The lowest p_same called "same" such that at most ``floor(target / 2 * n)`` different pairs
    reach it (the net's own rule, ``train_judge.choose_thresholds``), never below ``gate`` or 0.5."""
    allowed = int(np.floor(target / 2 * len(p)))
    neg = np.sort(p[~same])[::-1]
    t = float(np.nextafter(neg[allowed], 2.0)) if len(neg) > allowed else 0.5
    return min(max(t, gate, 0.5), 0.999999)


def _logit(p: float) -> float:
    p = min(max(p, 1e-12), 1 - 1e-12)
    return float(np.log(p / (1 - p)))


def band_offsets(
    p: np.ndarray,
    same: np.ndarray,
    px: np.ndarray,
    measured: np.ndarray,
    same_at: float,
    target: float,
    gate: float,
) -> tuple[list[float], list[float]]:
    """Each resolution band's own "same" threshold (:func:`same_threshold` within the band, never
    above the global ``same_at``; the global one where fewer than :data:`MIN_BAND_NEGATIVES` of the
    band's different pairs were ``measured`` by the verifier) and the logit offset (>= 0) that moves it
    onto ``same_at``."""
    bands = np.asarray([jv.band_of(v, BAND_EDGES_PX) for v in px])
    thresholds, offsets = [], []
    for b in range(len(BAND_EDGES_PX) + 1):
        m = bands == b
        thin = int((m & ~same & measured).sum()) < MIN_BAND_NEGATIVES
        t = same_at if thin else same_threshold(p[m], same[m], target, gate)
        t = min(t, same_at)
        thresholds.append(t)
        offsets.append(_logit(same_at) - _logit(t))
    return thresholds, offsets


def band_summaries(s: Scored, p: np.ndarray, same_at: float, different_below: float, px: np.ndarray) -> dict:
    """:func:`summary` within each resolution band (what the judge decides by) and within each band
    of the smaller crop's true side (what the bench's crops are)."""
    out: dict[str, dict] = {"by_resolution_band": {}, "by_crop_side": {}}
    edges = (0.0, *BAND_EDGES_PX, float("inf"))
    for lo, hi in itertools.pairwise(edges):
        m = (px >= lo) & (px < hi)
        if m.any():
            out["by_resolution_band"][f"{lo:g}-{hi:g}"] = summary(
                _subset(s, m), p[m], same_at, different_below
            )
    for lo, hi in SIDE_BANDS:
        m = (s.side >= lo) & (s.side < hi)
        if m.any():
            out["by_crop_side"][f"{lo}-{hi}"] = summary(_subset(s, m), p[m], same_at, different_below)
    return out


def _subset(s: Scored, m: np.ndarray) -> Scored:
    return Scored(
        s.same[m],
        s.kinds[m],
        s.net_p[m],
        s.gated[m],
        s.evidence[m],
        s.net_logit[m],
        s.side[m],
        s.sides[m],
        s.registered[m],
        s.aligned[m],
    )


QUANTILES = (0.01, 0.05, 0.25, 0.5, 0.75, 0.95)


def evidence_quantiles(s: Scored) -> dict:
    """Quantiles (:data:`QUANTILES`) of each evidence number of the gated pairs, by kind of pair."""
    out = {}
    for kind in ("same", "hard", "random"):
        m = s.gated & (s.kinds == kind) & np.isfinite(s.evidence).all(axis=1)
        if m.any():
            out[kind] = {
                f: [round(float(v), 4) for v in np.quantile(s.evidence[m, i], QUANTILES)]
                for i, f in enumerate(jv.FEATURES)
            } | {"n": int(m.sum())}
    return out


def calibrate_verifier(
    model_dir: Path,
    decks: Sequence[PatternDeck],
    cfg: VerifyConfig,
    recipe: str = "",
    out_dir: Path | None = None,
) -> dict:
    """Fit the combination on fresh pairs of ``decks``, set its "same" threshold on others, write
    ``judge_verify.json`` into ``out_dir`` (default ``model_dir``) and return it."""
    t0 = time.perf_counter()
    model_dir = Path(model_dir)
    meta = load_meta(JUDGE, model_dir)
    different_below = float(meta["thresholds"]["different_below"])
    net_same_at = float(meta["thresholds"]["same_at_or_above"])
    measure_from = None if cfg.different_margin is None else different_below
    aligned = cfg.aligned_net
    fit = score(
        model_dir,
        draw_pairs(decks, cfg.fit_pairs, cfg.fit_seed),
        cfg.gate,
        None,
        measure_from,
        aligned=aligned,
    )
    ok = fit.gated & np.isfinite(fit.evidence).all(axis=1)
    if aligned:
        ok &= np.isfinite(fit.aligned)
    if ok.sum() < 4 or len(set(fit.same[ok].tolist())) < 2:
        raise ValueError(f"judge verifier: too few gated pairs of both kinds to fit ({int(ok.sum())})")
    design = jv.design_row(fit.net_logit[ok], fit.evidence[ok], fit.aligned[ok] if aligned else None)
    model = fit_logistic(design, fit.same[ok].astype(float), cfg.l2, cfg.different_weight) | {
        "aligned_net": aligned
    }
    # The "different" rule sits below the lowest genuine pair's logit: the weighted fit, made to order
    # the highest different pairs, spreads genuine pairs' logits far down (measured: its rule fired on 2
    # genuine pairs of the first set and 1 near-duplicate of the second), so the rule keeps a plain fit.
    rule_model = model
    if cfg.different_weight != 1.0:
        rule_model = fit_logistic(design, fit.same[ok].astype(float), cfg.l2) | {"aligned_net": aligned}
    log.info("judge verifier fitted on %d gated pairs (%.0f s)", int(ok.sum()), time.perf_counter() - t0)
    ms: list[float] = []
    cal = score(
        model_dir,
        draw_pairs(decks, cfg.calibration_pairs, cfg.calibration_seed),
        cfg.gate,
        ms,
        measure_from,
        aligned=aligned,
    )
    resolution: dict = {"max_px": AugmentConfig().max_px, "edges_px": list(BAND_EDGES_PX)}
    px = cal.effective_px(resolution)
    rule = (
        None
        if cfg.different_margin is None
        else different_rule(cal, rule_model, different_below, cfg.different_margin, px)
    )
    if rule is not None and rule_model is not model:
        rule["combination"] = rule_model
    p = apply_different(cal, combined_p(cal, model, different_below), model, different_below, rule, px)
    target = float(meta.get("config", {}).get("target_confident_wrong", 0.0006))
    same_at = same_threshold(p, cal.same, target, cfg.gate)
    measured = cal.gated & np.isfinite(cal.evidence).all(axis=1)
    band_t, offsets = band_offsets(p, cal.same, px, measured, same_at, target, cfg.gate)
    resolution |= {"offsets": offsets, "band_thresholds": band_t}
    p_banded = apply_different(
        cal,
        combined_p(cal, model, different_below, np.asarray([jv.band_offset(v, resolution) for v in px])),
        model,
        different_below,
        rule,
        px,
    )
    without_rule = summary(
        cal,
        combined_p(cal, model, different_below, np.asarray([jv.band_offset(v, resolution) for v in px])),
        same_at,
        different_below,
    )
    net_alone = summary(cal, cal.net_p, net_same_at, different_below)
    global_only = summary(cal, p, same_at, different_below)
    validation = summary(cal, p_banded, same_at, different_below)
    # The first set (the logistic's own pairs, but not the bands' thresholds): how the bands hold there.
    fit_px = fit.effective_px(resolution)
    p_fit = apply_different(
        fit,
        combined_p(fit, model, different_below, np.asarray([jv.band_offset(v, resolution) for v in fit_px])),
        model,
        different_below,
        rule,
        fit_px,
    )
    if rule is not None:
        rule["fit_set_fired"] = fired(fit, different_logits(fit, rule_model, different_below), rule, fit_px)
    gated_ev = evidence_quantiles(cal)
    settings = {
        "model": "judge_verify",
        "recipe": recipe,
        "config": asdict(cfg),
        "verifier": {
            "size": jv.SIZE,
            "border": jv.BORDER,
            "gain_cells": jv.GAIN_CELLS,
            "blur": jv.BLUR,
            "ecc_iterations": jv.ECC_ITERATIONS,
            "turns_tried": jv.TURNS_TRIED,
            "features": list(jv.FEATURES),
            "aligned_net": aligned,
        },
        "combination": model,
        "gate": cfg.gate,
        "same_at_or_above": same_at,
        **({} if rule is None else {"different": rule | {"measured_from": different_below}}),
        "resolution": resolution,
        "validation": validation,
        "validation_without_different": without_rule,
        "validation_by_band": band_summaries(cal, p_banded, same_at, different_below, px),
        "global_threshold_validation": global_only,
        "global_threshold_by_band": band_summaries(cal, p, same_at, different_below, px),
        "fit_set_check": summary(fit, p_fit, same_at, different_below)
        | {"by_band": band_summaries(fit, p_fit, same_at, different_below, fit_px)},
        "net_alone_validation": net_alone,
        "gated_share": float(np.mean(cal.gated)),
        "measured_share": float(np.mean(np.isfinite(cal.evidence).all(axis=1))),
        "ms_per_pair": {
            "median": round(float(np.median(ms)), 3) if ms else None,
            "p95": round(float(np.percentile(ms, 95)), 3) if ms else None,
            "note": "one thread, the calibration's crops (44..120 px), on the machine that calibrated"
            f" (load average {os.getloadavg()[0]:.1f} at the end)",
        },
        "evidence_quantiles": {"q": list(QUANTILES), **gated_ev},
        "judge_sha256": {name: sha256(model_dir / name) for name in JUDGE.onnx},
        "seconds": round(time.perf_counter() - t0, 1),
    }
    if cfg.high_size is not None and cfg.different_margin is not None:
        settings["high"] = calibrate_high(
            model_dir, decks, cfg, settings, target, different_below, net_same_at
        )
        settings["seconds"] = round(time.perf_counter() - t0, 1)
    path = Path(out_dir or model_dir) / VERIFY_META
    path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    log.info("judge verifier validation %s (net alone %s)", validation, net_alone)
    return settings


def small_verifier_p(s: Scored, small: dict, different_below: float) -> np.ndarray:
    """p_same of pairs ``s`` (measured at :data:`models.judge_verify.SIZE`) as the judge gives it with
    the small crops' settings ``small`` alone: its model, resolution bands and "different" rule."""
    res = small["resolution"]
    px = s.effective_px(res)
    model = small["combination"]
    offsets = np.asarray([jv.band_offset(v, res) for v in px])
    p = combined_p(s, model, different_below, offsets)
    return apply_different(s, p, model, different_below, small.get("different"), px)


def calibrate_high(
    model_dir: Path,
    decks: Sequence[PatternDeck],
    cfg: VerifyConfig,
    small: dict,
    target: float,
    different_below: float,
    net_same_at: float,
) -> dict:
    """The high-resolution band (judge_verify.json's ``high``): pairs of crops of
    ``cfg.high_from_px``..``cfg.high_max_px`` px drawn as the other pairs (their own seeds), measured at
    ``cfg.high_size``; its own logistic model (first set) and "different" rule (second set, by the same
    rule as the small crops': ``cfg.different_margin`` below its lowest genuine pair whose
    registrations converged). Where the rule stays silent, the judge goes on as without the band
    (``small``: the small crops' settings, at :data:`models.judge_verify.SIZE`), so the validation is
    that of the small crops' verifier on the same pairs with the band's rule on top. The band's own
    "same" threshold is set and reported too, but not used (measured: it gained no genuine pairs)."""
    t0 = time.perf_counter()
    size = int(cfg.high_size or jv.HIGH_SIZE)
    margin = float(cfg.different_margin or DIFFERENT_MARGIN)
    aug = AugmentConfig(min_px=cfg.high_from_px, max_px=cfg.high_max_px)
    sizes = (size, jv.SIZE)
    fit_pairs = draw_pairs(decks, cfg.high_fit_pairs, cfg.fit_seed + HIGH_SEED_OFFSET, aug)
    fit, fit_small = score_sizes(
        model_dir, fit_pairs, cfg.gate, sizes, None, different_below, cfg.aligned_net
    )
    ok = fit.gated & np.isfinite(fit.evidence).all(axis=1)
    if ok.sum() < 4 or len(set(fit.same[ok].tolist())) < 2:
        raise ValueError(f"judge verifier: too few gated large pairs of both kinds to fit ({int(ok.sum())})")
    model = fit_logistic(
        jv.design_row(fit.net_logit[ok], fit.evidence[ok]), fit.same[ok].astype(float), cfg.l2
    ) | {"aligned_net": False}
    log.info(
        "judge verifier's high band fitted on %d gated pairs (%.0f s)",
        int(ok.sum()),
        time.perf_counter() - t0,
    )
    ms: list[float] = []
    cal_pairs = draw_pairs(decks, cfg.high_calibration_pairs, cfg.calibration_seed + HIGH_SEED_OFFSET, aug)
    cal, cal_small = score_sizes(model_dir, cal_pairs, cfg.gate, sizes, ms, different_below, cfg.aligned_net)
    rule = different_rule(cal, model, different_below, margin)
    if rule is None:
        raise ValueError("judge verifier: no genuine large pair measured to set the band's rule on")
    rule["fit_set_fired"] = fired(fit, different_logits(fit, model, different_below), rule)
    global_same_at = float(small["same_at_or_above"])
    p_before = small_verifier_p(cal_small, small, different_below)
    p = apply_different(cal, p_before, model, different_below, rule)
    p_fit = apply_different(
        fit, small_verifier_p(fit_small, small, different_below), model, different_below, rule
    )
    # Not used: the band's own "same" threshold on its own model, for the record.
    p_own = apply_different(cal, combined_p(cal, model, different_below), model, different_below, rule)
    own_same_at = same_threshold(p_own, cal.same, target, cfg.gate)
    return {
        "from_px": cfg.high_from_px,
        "max_px": cfg.high_max_px,
        "size": size,
        "seeds": [cfg.fit_seed + HIGH_SEED_OFFSET, cfg.calibration_seed + HIGH_SEED_OFFSET],
        "pairs": [len(fit_pairs), len(cal_pairs)],
        "combination": model,
        "different": rule | {"measured_from": different_below},
        "validation": summary(cal, p, global_same_at, different_below),
        "small_verifier_validation": summary(cal_small, p_before, global_same_at, different_below),
        "net_alone_validation": summary(cal, cal.net_p, net_same_at, different_below),
        "fit_set_check": summary(fit, p_fit, global_same_at, different_below),
        "fit_set_small_verifier": summary(
            fit_small, small_verifier_p(fit_small, small, different_below), global_same_at, different_below
        ),
        "own_same_at_or_above_not_used": own_same_at,
        "own_same_validation_not_used": summary(cal, p_own, own_same_at, different_below),
        "gated_share": float(np.mean(cal.gated)),
        "measured_share": float(np.mean(np.isfinite(cal.evidence).all(axis=1))),
        "ms_per_pair": {
            "median": round(float(np.median(ms)), 3) if ms else None,
            "p95": round(float(np.percentile(ms, 95)), 3) if ms else None,
            "note": f"one thread, crops of {cfg.high_from_px}..{cfg.high_max_px} px compared at {size} px,"
            f" on the machine that calibrated (load average {os.getloadavg()[0]:.1f} at the end)",
        },
        "evidence_quantiles": {"q": list(QUANTILES), **evidence_quantiles(cal)},
        "seconds": round(time.perf_counter() - t0, 1),
    }


VERIFY_CARD = "judge_verify.md"


def _resolution_lines(settings: dict) -> list[str]:
    """The card's section on the resolution bands (empty for settings without them)."""
    res = settings.get("resolution")
    if res is None:
        return []
    lines = [
        "## Resolution bands",
        "",
        "A crop's effective resolution: the card's shorter side in the camera frame where the caller"
        " passes it (`PatternJudge.signatures(crops, source_px=...)`), else the crop's own shorter side"
        f" when it is at most {res['max_px']} px (the largest calibrated); a larger crop may have been"
        " resampled from a small card, so it keeps the global threshold. A pair's band is that of its"
        " smaller crop; each band's own threshold is set by"
        " the global rule within the band (never above the global one; the global one where fewer than"
        f" {MIN_BAND_NEGATIVES} different pairs were measured), and a logit offset brings it onto the"
        " global threshold.",
        "",
        "| band (px) | own threshold | offset (logit) |",
        "|---|---|---|",
    ]
    edges = (0.0, *res["edges_px"], float("inf"))
    for (lo, hi), t, off in zip(
        itertools.pairwise(edges), res["band_thresholds"], res["offsets"], strict=True
    ):
        lines.append(f"| {lo:g}-{hi:g} | {t:.6f} | {off:.3f} |")
    lines += [
        "",
        "Calibration set by band, global threshold -> with the bands (same / hard / confident wrong):",
        "",
    ]
    lines += ["| band | pairs | same | hard | confident wrong |", "|---|---|---|---|---|"]
    for group in ("by_resolution_band", "by_crop_side"):
        for name, v in settings["validation_by_band"][group].items():
            g = settings["global_threshold_by_band"][group][name]
            label = ("resolution " if group == "by_resolution_band" else "crop side ") + name
            same = f"{g.get('same_accuracy', 0):.3f} -> {v.get('same_accuracy', 0):.3f}"
            lines.append(
                f"| {label} | {v['pairs']} | {same}"
                f" | {g.get('hard_accuracy', 0):.3f} -> {v.get('hard_accuracy', 0):.3f}"
                f" | {g['confident_wrong_rate']:.5f} -> {v['confident_wrong_rate']:.5f} |"
            )
    fit = settings.get("fit_set_check")
    if fit is not None:
        lines += [
            "",
            "The first set (the logistic's own pairs, not the bands'), with the bands: same"
            f" {fit.get('same_accuracy', 0):.3f}, confident wrong {fit['confident_wrong_rate']:.5f}; by band"
            " (confident wrong): "
            + ", ".join(
                f"{k} {v['confident_wrong_rate']:.5f}"
                for k, v in fit["by_band"]["by_resolution_band"].items()
            )
            + ".",
        ]
    return [*lines, ""]


def _different_lines(settings: dict) -> list[str]:
    """The card's paragraph on who calls "different"."""
    rule = settings.get("different")
    if rule is None:
        return ['"different" stays the net\'s call (p_same never below its threshold there).', ""]
    cal, fit = rule["calibration_fired"], rule.get("fit_set_fired", {})

    def counts(f: dict) -> str:
        return ", ".join(f"{k} {v['fired']} of {v['pairs']} ({v['eligible']} eligible)" for k, v in f.items())

    return [
        "\"different\" is the net's call (p_same below its threshold), and the verifier's: it also measures"
        f" the pairs the net gives p_same >= {rule['measured_from']:.6f} (below the gate too), and where both"
        ' its registrations converged and the logistic model\'s logit of "same" lies below'
        f" {rule['logit_below']:.3f} (the lowest logit of any genuine calibration pair it measured with"
        f" converged registrations, {rule['genuine_lowest_logit']:.3f}, less a margin of {rule['margin']}),"
        ' the pair is "different" (p_same below the net\'s threshold). A registration that gave up never'
        f' makes "different": {rule["genuine_unregistered_share"]:.1%} of the genuine calibration pairs'
        " measured have one, and their difference is the misregistration's.",
        "",
        *_different_band_lines(rule),
        f"Pairs the rule fires on, calibration set (the threshold's own): {counts(cal)}; first set (the"
        f" logistic's, not the threshold's): {counts(fit)}.",
        "",
        "Calibration set with the bands, without the rule -> with it:"
        f" `{json.dumps(settings.get('validation_without_different'))}` ->"
        f" `{json.dumps(settings['validation'])}`.",
        "",
    ]


def _different_band_lines(rule: dict) -> list[str]:
    """The card's table of the "different" rule's threshold by resolution band (none without bands)."""
    bands = rule.get("by_band")
    if bands is None:
        return []
    lines = [
        'By resolution band (as for "same"; an unknown resolution keeps the global threshold): a band'
        f" whose genuine pairs the rule may fire on number at least {MIN_BAND_GENUINE} gets its own"
        " threshold, the margin below their lowest logit (never below the global one); a thinner band"
        " keeps the global one.",
        "",
        "| band (px) | genuine pairs | logit below |",
        "|---|---|---|",
    ]
    edges = (0.0, *bands["edges_px"], float("inf"))
    for (lo, hi), n, t in zip(
        itertools.pairwise(edges), bands["genuine_pairs"], bands["logit_below"], strict=True
    ):
        lines.append(f"| {lo:g}-{hi:g} | {n} | {t:.3f} |")
    return [*lines, ""]


def _high_lines(settings: dict) -> list[str]:
    """The card's section on the high-resolution band (none without it)."""
    high = settings.get("high")
    if high is None:
        return []
    rule = high["different"]

    def counts(f: dict) -> str:
        return ", ".join(f"{k} {v['fired']} of {v['pairs']}" for k, v in f.items())

    return [
        "## High-resolution band",
        "",
        f"A pair whose crops both have an effective resolution of at least {high['from_px']} px (the card's"
        " shorter side in the camera frame where the caller passes it, and the crop's own shorter side;"
        f" a crop of unknown source only up to {high['max_px']} px, the largest calibrated) is first measured"
        f" at {high['size']} px as well, where a large card's thin outlines still show. The band has its own"
        f" logistic model, fitted on {high['pairs'][0]} pairs of crops of {high['from_px']}-{high['max_px']}"
        f' px drawn from the same decks (seed {high["seeds"][0]}), and its own "different" rule, set on'
        f" {high['pairs'][1]} more (seed {high['seeds'][1]}) as above: where both registrations converged"
        f' and its logit of "same" lies below {rule["logit_below"]:.3f} (its lowest genuine pair\'s'
        f' {rule["genuine_lowest_logit"]:.3f} less {rule["margin"]}), the pair is "different". Where the'
        f" rule stays silent, the pair is judged as without the band, at {settings['verifier']['size']} px."
        ' The band\'s own "same" threshold is not used: on its calibration set it would give'
        f" `{json.dumps(high['own_same_validation_not_used'])}` (threshold"
        f" {high['own_same_at_or_above_not_used']:.6f}).",
        "",
        f"Pairs the band's rule fires on, calibration set: {counts(rule['calibration_fired'])}; first set:"
        f" {counts(rule.get('fit_set_fired', {}))}.",
        "",
        "The band's calibration set (second set):",
        "",
        f"- net alone: `{json.dumps(high['net_alone_validation'])}`",
        f"- without the band (the verifier at {settings['verifier']['size']} px as for any pair):"
        f" `{json.dumps(high['small_verifier_validation'])}`",
        f"- with the band: `{json.dumps(high['validation'])}`",
        f"- first set, without -> with the band: `{json.dumps(high['fit_set_small_verifier'])}` ->"
        f" `{json.dumps(high['fit_set_check'])}`",
        f"- share of pairs measured: {high['measured_share']:.3f}; verifier per measured pair at"
        f" {high['size']} px: `{json.dumps(high['ms_per_pair'])}` ms ({high['seconds']} s)",
        "",
    ]


def write_verify_card(settings: dict, out_dir: Path) -> Path:
    """A short card of the verifier beside the judge's, from its settings."""
    v = settings["verifier"]
    lines = [
        "# Model card: judge_verify",
        "",
        "The Twin It judge's classical second opinion (`models/judge_verify.py`, no network): for the"
        f" {v.get('turns_tried', 'every')} relative turn(s) the net finds likeliest, both crops at"
        f" {v['size']} px (each channel divided by its own white point), an"
        f" affine ECC registration on the high-passed grey at half size ({v['ecc_iterations']} iterations),"
        f" both blurred by {v['blur']} px, a per-channel gain field ({v['gain_cells']}x{v['gain_cells']}"
        " cells of median log ratio, median-filtered), then each pixel against the min..max of the other"
        " crop's"
        f" 3x3 neighbourhood both ways, {v['border']:.0%} of each side left out. Evidence:"
        f" {', '.join(v['features'])} (the difference at the best turn: its percentiles p99 and p995 and"
        " its largest regions above 0.2 and 0.3, cc20 and cc30; then, where listed, how much each card holds,"
        " the geometric mean of both crops': percentiles of the colour gradient, grad50 to grad99, the"
        f" share of the card more than {jv.INK_LEVEL} from its median colour, ink, and percentiles of that"
        " distance, dev90 and dev99; and the larger share of either crop that is white once each channel"
        " is divided by its own white point, white: its brightest plain colour, usually its ground; and the"
        " larger share brighter than that white point in every channel, glare).",
        "",
        f"Pairs the net gives p_same >= {settings['gate']} are measured; their p_same is a logistic model"
        " of (the net's calibrated logit, "
        + (
            "the net's calibrated logit of the second crop registered and light-evened onto the first,"
            " every symmetric turn of both at the registered relative turn averaged, "
            if jv.uses_aligned(settings["combination"])
            else ""
        )
        + "log of each evidence number"
        + (
            f"; fitted with each different pair weighing {settings['config']['different_weight']:g} genuine"
            " ones, so that it orders the highest different pairs, which set the threshold"
            if settings.get("config", {}).get("different_weight", 1.0) != 1.0
            else ""
        )
        + '), and "same" needs p_same >='
        f" {settings['same_at_or_above']:.6f}.",
        "",
        *_different_lines(settings),
        f"Data: {settings['recipe']}. Rebuild: `{settings.get('command', 'tableref train judge-verify')}`"
        f" ({settings['seconds']} s).",
        "",
        *_resolution_lines(settings),
        *_high_lines(settings),
        "## Calibration set (held-out decks, net alone -> with the verifier)",
        f"- net alone: `{json.dumps(settings['net_alone_validation'])}`",
        "- with the verifier, one global threshold:"
        f" `{json.dumps(settings.get('global_threshold_validation'))}`",
        f"- with the verifier and the resolution bands: `{json.dumps(settings['validation'])}`",
        f"- share of pairs measured by the verifier: {settings['gated_share']:.3f}",
        "- verifier per measured pair (both views built from the shrunk crops, as a pair of fresh"
        f" signatures pays): `{json.dumps(settings['ms_per_pair'])}` ms",
        f"- evidence quantiles of the measured pairs: `{json.dumps(settings['evidence_quantiles'])}`",
        "",
        f"Calibrated for the judge files with sha256 `{json.dumps(settings['judge_sha256'])}`; other judge"
        " files: the net judges alone (a warning says so).",
        "",
    ]
    path = Path(out_dir) / VERIFY_CARD
    path.write_text("\n".join(lines), encoding="utf-8")
    return path
