"""The Twin It same-pattern judge: do two rectified card crops show the identical pattern?

Each crop becomes a signature: a coarse feature map (cells of unit vectors that keep where each
element lies), one per symmetric turn of the card (4 for a square card, 2 for an oblong one). The
pair head compares two maps cell by cell, so one changed element, two swapped colours or a
mirrored layout show as a local difference. Two crops are compared at every turn of the second and
the best match counts, so the answer does not depend on how the cards lie. A calibrated ``p_same``
and two thresholds, sized on held-out decks so that confident wrong answers stay rare, give
"same", "different" or "uncertain".

A classical second opinion (:mod:`models.judge_verify`) checks the pairs the net finds likely the
same: it registers the two crops at the relative turn the net finds likeliest, evens out their light
and measures the largest difference left, and how much each card holds (a busy pattern leaves more
difference on a genuine pair than a sparse one). Each signature builds the verifier's view of its crop only
when the first such pair needs it (:class:`LazyView`).
Where ``judge_verify.json`` lies beside the net (calibrated for these very net files), those pairs'
``p_same`` comes from a logistic model of both (the net's logit and the verifier's evidence; where its
calibration says so, also the net's logit of the second crop registered and light-evened onto the
first by the verifier's own map and gain field: :func:`models.judge_verify.aligned_net_logit`), and its
own "same" threshold, set on held-out decks, applies. "Different" is the net's call, and the
verifier's where its calibration has a "different" rule (:func:`models.judge_verify.says_different`:
both registrations converged and the combination's logit lies below every genuine calibration pair's,
by a margin); it then also measures the pairs the net leaves uncertain below the gate. The evidence
is surer on sharp, large crops than on small ones: each crop's effective resolution
(:func:`models.judge_verify.effective_px`: the card's size in the camera frame where known) puts a pair
in a resolution band, and a band whose
calibration near-duplicates allow it gets a logit offset (its own, lower "same" threshold). A pair of
two large crops (:func:`models.judge_verify.high_eligible`, where judge_verify.json has a ``high``
band) is first measured at the band's larger working size, where thin outlines still show: the band's
own logistic model and "different" rule (calibrated on large rendered pairs) may call it "different";
where that rule stays silent, the pair is judged as any other ("same" stays the small crops' call:
at 128 px the band's own "same" threshold gained no genuine pairs, measured).
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from models import judge_verify as jv
from models.files import JUDGE, MODEL_DIR
from models.judge_scoring import best_logits
from models.preprocess import check_crop, is_square, small_to_tensor, to_tensor, turn_count, turns_into
from vision.errors import InputError
from vision.identity.sessions import open_model

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Judgement:
    """The judge's answer for one pair of crops."""

    verdict: str
    """``"same"``, ``"different"`` or ``"uncertain"``."""
    p_same: float
    """Calibrated probability that both crops show the same pattern."""


class LazyView:
    """The verifier's view of one crop, built on first use and then kept.

    Only pairs the net finds likely the same are verified, so a signature keeps just the crop shrunk
    to the verifier's size (:func:`models.judge_verify.source`, 12 KB, about 0.1 ms) and builds the
    view when the first such pair needs it; the view in turn makes only the symmetric turns that
    pairs compare (about 0.2 ms and 52 KB each). A lock makes two threads that ask at once build the
    view once; after that, reading it takes no lock."""

    __slots__ = ("_high", "_high_size", "_high_view", "_lock", "_source", "_square", "_view")

    def __init__(
        self, source: np.ndarray, square: bool, high: np.ndarray | None = None, high_size: int = jv.HIGH_SIZE
    ) -> None:
        self._source = source
        self._square = square
        self._high = high
        """The checked crop itself (a copy), shrunk to ``high_size`` only when a pair of two large crops
        first needs it (0.2 ms that a crop never compared in the band does not pay); None: the crop is
        not eligible for the high-resolution band."""
        self._high_size = high_size
        self._view: jv.VerifyView | None = None
        self._high_view: jv.VerifyView | None = None
        self._lock = threading.Lock()

    @property
    def built(self) -> bool:
        return self._view is not None or self._high_view is not None

    @property
    def has_high(self) -> bool:
        """Whether the crop may be compared in the high-resolution band."""
        return self._high is not None

    def get(self, high: bool = False) -> jv.VerifyView:
        """The view at the verifier's working size, or (``high``) at the high band's."""
        view = self._high_view if high else self._view
        if view is None:
            with self._lock:
                if high:
                    if self._high is None:
                        raise ValueError("judge verifier: this crop has no high-resolution view")
                    if self._high_view is None:
                        small = jv.source(self._high, self._high_size)
                        self._high_view = jv.view_of_source(small, self._square)
                    view = self._high_view
                else:
                    if self._view is None:
                        self._view = jv.view_of_source(self._source, self._square)
                    view = self._view
        return view

    def unbuilt(self) -> LazyView:
        """A fresh holder of the same crop, its view not built yet (to measure what building costs)."""
        return LazyView(self._source, self._square, self._high, self._high_size)


@dataclass(frozen=True, eq=False)
class Signature:
    """One crop's signatures at each symmetric turn, (turns, ...) float32 (feature maps)."""

    turns: np.ndarray
    square: bool
    lazy_view: LazyView | None = None
    """The crop as the classical verifier compares it, built on first use (None when the judge runs
    without the verifier)."""
    px: float = 0.0
    """The crop's effective resolution in px (:func:`models.judge_verify.effective_px`; 0 when the
    judge runs without resolution bands)."""

    @property
    def view(self) -> jv.VerifyView | None:
        """The verifier's view (built now if no pair needed it before)."""
        return None if self.lazy_view is None else self.lazy_view.get()


VERIFY_FILE = "judge_verify.json"


def load_verifier(folder: Path, net_meta: dict) -> dict | None:
    """The verifier's settings beside the net, or None (missing, unreadable, calibrated for other net
    files or on other evidence numbers than :data:`models.judge_verify.FEATURES`: the net then judges
    alone, and a warning says why)."""
    path = folder / VERIFY_FILE
    if not path.is_file():
        return None
    try:
        settings = json.loads(path.read_text(encoding="utf-8"))
        fitted_for = settings["judge_sha256"]
        float(settings["same_at_or_above"]), float(settings["gate"]), settings["combination"]["weights"]
        high = settings.get("high")
        if high is not None:
            float(high["from_px"]), float(high["max_px"]), int(high["size"]), high["combination"]["weights"]
            float(high["different"]["logit_below"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("%s unreadable (%s): the judge's net judges alone", path, exc.__class__.__name__)
        return None
    if any(net_meta["sha256"].get(name) != fitted_for.get(name) for name in JUDGE.onnx):
        log.warning("%s was calibrated for other judge files: the judge's net judges alone", path)
        return None
    if settings.get("verifier", {}).get("features") != list(jv.FEATURES):
        log.warning(
            "%s was calibrated on other evidence than this code measures (%s): the judge's net judges"
            " alone; rebuild it with `tableref train judge-verify`",
            path,
            ", ".join(jv.FEATURES),
        )
        return None
    return settings


class PatternJudge:
    """Loads the judge once; ``compare`` two crops or ``signature`` crops and compare those."""

    HEAD_BATCH = 1024
    """Pair-turns per head call (bounds the memory of a large ``p_same_many``)."""

    def __init__(self, model_dir: Path | None = None, threads: int = 1) -> None:
        self.meta, (self._embed, self._head) = open_model(JUDGE, model_dir, threads)
        self.size = int(self.meta["input"]["width"])
        self.balance = bool(self.meta["input"].get("balance", False))
        self.platt = tuple(float(v) for v in self.meta["platt"])
        self.different_below = float(self.meta["thresholds"]["different_below"])
        self.same_at = float(self.meta["thresholds"]["same_at_or_above"])
        self.views = int(self.meta.get("views", 2 if self.meta.get("both_ways") else 1))
        self.verifier = load_verifier(MODEL_DIR if model_dir is None else Path(model_dir), self.meta)
        self.net_same_at = self.same_at
        self.resolution: dict | None = None
        self.high: dict | None = None
        """The high-resolution band's settings (judge_verify.json's ``high``), None without it."""
        self._below_different = float(np.nextafter(self.different_below, 0.0))
        self.gate = self.measure_from = 1.0
        self._aligned = False
        """Whether the verifier's model takes the net's logit of the registered, light-evened pair."""
        if self.verifier is not None:
            rule_model = self.verifier.get("different", {}).get("combination", {})
            self._aligned = jv.uses_aligned(self.verifier["combination"]) or jv.uses_aligned(rule_model)
            self.same_at = float(self.verifier["same_at_or_above"])
            self.gate = float(self.verifier["gate"])
            self.resolution = self.verifier.get("resolution")
            self.high = self.verifier.get("high")
            # With a "different" rule, the verifier also measures the pairs the net leaves uncertain
            # below the gate (it can call them different, never same).
            self.measure_from = self.gate if "different" not in self.verifier else self.different_below

    def _input(
        self, crop: np.ndarray, what: str, source_px: float | None = None
    ) -> tuple[np.ndarray, bool, LazyView | None, float]:
        try:
            crop = check_crop(crop, what)
        except ValueError as exc:
            raise InputError(str(exc)) from exc
        square = is_square(crop)
        view = None
        small = None
        if self.verifier is not None:
            high, size = None, jv.HIGH_SIZE
            if jv.high_eligible(min(crop.shape[:2]), self.high, source_px):
                assert self.high is not None
                high, size = crop.copy(), int(self.high["size"])
            small = jv.source(crop)
            view = LazyView(small, square, high, size)
        px = 0.0
        if self.resolution is not None:
            px = jv.effective_px(min(crop.shape[:2]), self.resolution, source_px)
        if small is not None and self.size == jv.SIZE:
            # The verifier's source is the net's input before normalising (to_portrait, then INTER_AREA
            # to SIZE x SIZE, as to_tensor does): the crop is resized once.
            return small_to_tensor(small, self.balance), square, view, px
        return to_tensor(crop, self.size, self.size, self.balance), square, view, px

    def signatures(
        self, crops: list[np.ndarray], source_px: list[float | None] | None = None
    ) -> list[Signature]:
        """Signatures of many crops in one batch. ``source_px``: each card's shorter side in the camera
        frame (px) where the caller knows it (a crop rectified to a canonical size has lost it): the
        pair's resolution band then comes from it rather than from the crop's own size."""
        if not crops:
            return []
        if source_px is not None and len(source_px) != len(crops):
            raise InputError(f"source_px: expected one value per crop ({len(crops)}), got {len(source_px)}")
        known = source_px or [None] * len(crops)
        inputs = [self._input(c, f"crop {i}", known[i]) for i, c in enumerate(crops)]
        counts = [turn_count(sq) for _, sq, _, _ in inputs]
        flat = np.empty((sum(counts), *inputs[0][0].shape), np.float32)
        i = 0
        for (x, sq, _, _), n in zip(inputs, counts, strict=True):
            turns_into(x, sq, flat[i : i + n])
            i += n
        emb = self._embed.run(None, {"crops": flat})[0]
        out, i = [], 0
        for (_, sq, v, px), n in zip(inputs, counts, strict=True):
            out.append(Signature(emb[i : i + n], sq, v, px))
            i += n
        return out

    def signature(self, crop: np.ndarray) -> Signature:
        return self.signatures([crop])[0]

    def logits(self, a: Signature, b: Signature) -> np.ndarray:
        """Raw head logits of a (upright) against each turn of b."""
        ea = np.repeat(a.turns[:1], len(b.turns), axis=0)
        return self._head.run(None, {"a": ea, "b": b.turns})[0]

    def _head_fn(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return self._head.run(None, {"a": a, "b": b})[0]

    def best_logits(self, pairs: list[tuple[Signature, Signature]], views: int | None = None) -> np.ndarray:
        """The head's best logit over the relative turns of each pair (``models.judge_scoring``), from
        the calibrated number of views unless ``views`` says otherwise (uncalibrated then)."""
        return best_logits(
            self._head_fn,
            [(a.turns, b.turns) for a, b in pairs],
            self.views if views is None else views,
            self.HEAD_BATCH,
        )

    def p_same_many(self, pairs: list[tuple[Signature, Signature]]) -> np.ndarray:
        """Calibrated p_same of many signature pairs (batched head calls). With the verifier, the pairs
        the net gives at least ``gate`` are also measured by it, and get the combination's p_same; with
        its "different" rule, so are those the net leaves uncertain below the gate, and a pair the rule
        fires on gets a p_same below ``different_below``."""
        if not pairs:
            return np.zeros(0)
        a_, b_ = self.platt
        z = a_ * self.best_logits(pairs) + b_
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))
        if self.verifier is None:
            return p
        for k in np.flatnonzero(p >= self.measure_from):
            a, b = pairs[k]
            if a.lazy_view is None or b.lazy_view is None:
                # Made without the verifier: the net alone, against its own "same" threshold.
                if p[k] < self.net_same_at:
                    p[k] = min(p[k], float(np.nextafter(self.same_at, 0.0)))
                continue
            if a.square != b.square:
                p[k] = 0.0
                continue
            tried = jv.net_turn_order(self._head_fn, a.turns, b.turns, self.views)[: jv.TURNS_TRIED]
            if self.high is not None and a.lazy_view.has_high and b.lazy_view.has_high:
                # A pair of two large crops: first the high-resolution band's own "different" rule, on
                # its evidence at the band's working size; where it stays silent, as any other pair.
                mh = jv.measure(a.lazy_view.get(True), b.lazy_view.get(True), tried)
                if jv.says_different(float(z[k]), mh, self.high):
                    p[k] = min(
                        jv.combined_p(z[k : k + 1], mh.evidence[None, :], self.high["combination"], 0.0)[0],
                        self._below_different,
                    )
                    continue
            va = a.lazy_view.get()
            m = jv.measure(va, b.lazy_view.get(), tried, self._aligned)
            za = None if m.aligned is None else self._aligned_logit(va, m.aligned, a.square)
            if jv.says_different(float(z[k]), m, self.verifier, min(a.px, b.px), za):
                p[k] = min(
                    jv.combined_p(
                        z[k : k + 1],
                        m.evidence[None, :],
                        self.verifier["combination"],
                        0.0,
                        aligned=None if za is None else np.asarray([za]),
                    )[0],
                    self._below_different,
                )
            elif p[k] >= self.gate:
                offset = jv.band_offset(min(a.px, b.px), self.resolution)
                p[k] = jv.combined_p(
                    z[k : k + 1],
                    m.evidence[None, :],
                    self.verifier["combination"],
                    self.different_below,
                    offset,
                    None if za is None else np.asarray([za]),
                )[0]
        return p

    def aligned_logit(self, a: np.ndarray, b_aligned: np.ndarray, square: bool) -> float:
        """The net's calibrated logit of a (the verifier's normalised upright crop) against b registered
        and light-evened onto it (:func:`models.judge_verify.aligned_net_logit`)."""
        return jv.aligned_net_logit(
            self._embed_fn, self._head_fn, a, b_aligned, square, self.platt, self.size, self.balance
        )

    def _aligned_logit(self, a: jv.VerifyView, b_aligned: np.ndarray, square: bool) -> float:
        """:meth:`aligned_logit`, a's maps kept on its view for its next pair (a crop matched against an
        enrolled deck's references is a in each of its pairs). Two threads may both make them: the
        same maps."""
        if a.net_maps is None:
            a.net_maps = jv.net_maps(self._embed_fn, a.turn(0)[0], square, self.size, self.balance)
        return jv.aligned_net_logit(
            self._embed_fn,
            self._head_fn,
            a.turn(0)[0],
            b_aligned,
            square,
            self.platt,
            self.size,
            self.balance,
            a.net_maps,
        )

    def _embed_fn(self, x: np.ndarray) -> np.ndarray:
        return self._embed.run(None, {"crops": x})[0]

    def verdict(self, p_same: float) -> str:
        if p_same >= self.same_at:
            return "same"
        if p_same < self.different_below:
            return "different"
        return "uncertain"

    def judge_signatures(self, a: Signature, b: Signature) -> Judgement:
        if a.square != b.square:
            return Judgement("different", 0.0)
        p = float(self.p_same_many([(a, b)])[0])
        return Judgement(self.verdict(p), round(p, 6))

    def compare(self, crop_a: np.ndarray, crop_b: np.ndarray) -> Judgement:
        """Same, different or uncertain, with the calibrated probability of "same"."""
        a, b = self.signatures([crop_a, crop_b])
        return self.judge_signatures(a, b)
