"""``tableref bench cards``: card finding, tracking and hands, on rendered frames and real photos.

- render: seeded random scenes (every layout and deck, touching and overlapping cards, glare,
  shadows, 0..2 hands) at 1280 x 720; a card is found when a quad matches it with IoU >= 0.9;
  recall counts the cards >= 80 % visible; a found quad on a card less visible is not a false
  positive. Corner error (mean of the 4 corners, median over cards) on the same scenes rendered
  at 1920 x 1080. Hand cover F1 and id switches come from the rendered Twin It demo scenario
  played through the whole pipeline: per frame and card, "covered by a hand" in truth vs. the
  pipeline's hands' covers (its tracks mapped to true cards by IoU); an id switch is a true card
  seen under a different track id than the last time it was seen.
- diagnosis (beside the issue's keys): where the hand-cover and id-switch losses come from. The
  same scenario frames also go through a pipeline whose finder returns the true quads (what
  tracking and hands lose by themselves); the hand mask's pixel precision and recall against the
  true mask; the real pipeline's cover misses split into truly covered cards with no track on
  them (the finder never found them, or they were lost) and cards tracked but not counted as
  covered; its false "covered" split into real cards not covered and places with no card; and
  what the render set's false positives lie on (:mod:`web.bench.cards_false`: a card's quad fitted
  off, a print inside a card, merged cards, the table, a hand, ...).
- real: every photo of ``shared/realdata/set-boards`` (IoU >= 0.85 against ``labels.json``; a
  photo's cards labelled without a quad excuse as many unmatched found quads).
- baseline: the plain contour pipeline (:mod:`vision.cards.baseline`) on the same images.
- speed: the pipeline's ``process`` per frame, one OpenCV thread: a still table (the change gate
  only), the demo scenario's frames while hands move, at 720p and 1080p. Times are the CPU time
  of the processing thread (``time.thread_time``), so that other work on a shared machine does
  not count; on an idle machine wall time is the same, give or take a few percent.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.cards import find_cards, find_cards_baseline
from vision.cards.finder import CardDetection
from vision.cards.geometry import corner_error, quad_iou
from vision.cards.scoring import ZERO, MatchCounts, match_quads
from vision.observation import CardState
from vision.pipeline import TablePipeline
from web.bench.cards_false import CLASSES, false_positive_classes
from web.bench.stats import median, percentile, rounded

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
DECKS = ("twinit", "themind", "trio", "lineit")


def real_dir() -> Path:
    for base in (ROOT.parent / "shared", ROOT / "shared"):
        p = base / "realdata" / "set-boards"
        if (p / "labels.json").exists():
            return p
    raise FileNotFoundError("shared/realdata/set-boards/labels.json not found beside the repository")


def _scenes(n: int, seed: int) -> Iterator[Any]:
    from vision.render.scene_layout import LAYOUTS, random_scene

    for i in range(n):
        layout = LAYOUTS[i % len(LAYOUTS)]
        deck = DECKS[(i // len(LAYOUTS)) % len(DECKS)]
        yield random_scene(seed * 100_003 + i, layout=layout, deck=deck)


def _render_counts(image: np.ndarray, truth: Any, quads: list[np.ndarray]) -> MatchCounts:
    tq = [c.quad for c in truth.cards]
    counted = [c.visible_fraction >= 0.8 for c in truth.cards]
    counts, _ = match_quads(quads, tq, counted, iou_threshold=0.9)
    return counts


def _render_chunk(args: tuple[int, int, int, int, int]) -> dict[str, Any]:
    """Frames ``start, start + step, ...`` below ``n`` of the render set (run in a worker)."""
    from dataclasses import replace

    from vision.render.scene import render
    from vision.render.scene_layout import LAYOUTS

    start, step, n, seed, n_1080 = args
    cv2.setNumThreads(1)
    specs = list(_scenes(n, seed))
    found, base = ZERO, ZERO
    by_layout: dict[str, MatchCounts] = {}
    false: Counter[str] = Counter()
    corner_errors: list[float] = []
    base_ms: list[float] = []
    finder_ms: list[float] = []
    for i in range(start, n, step):
        spec = specs[i]
        image, truth = render(spec)
        t0 = time.thread_time()
        dets = find_cards(image)
        finder_ms.append((time.thread_time() - t0) * 1000.0)
        counts = _render_counts(image, truth, [d.quad for d in dets])
        found = found + counts
        if counts.false_positives:
            false += false_positive_classes([d.quad for d in dets], truth)
        layout = LAYOUTS[i % len(LAYOUTS)]  # as _scenes cycles them
        by_layout[layout] = by_layout.get(layout, ZERO) + counts
        t0 = time.thread_time()
        bq = find_cards_baseline(image)
        base_ms.append((time.thread_time() - t0) * 1000.0)
        base = base + _render_counts(image, truth, bq)
        if i < n_1080:
            big, btruth = render(replace(spec, width=1920, height=1080))
            dets = find_cards(big)
            for c in btruth.cards:
                if c.visible_fraction < 0.8:
                    continue
                best = max(dets, key=lambda d: quad_iou(d.quad, c.quad), default=None)
                if best is not None and quad_iou(best.quad, c.quad) >= 0.9:
                    corner_errors.append(corner_error(best.quad, c.quad))
    return {
        "found": found,
        "base": base,
        "corner_errors": corner_errors,
        "base_ms": base_ms,
        "finder_ms": finder_ms,
        "by_layout": by_layout,
        "false": false,
    }


def bench_render_frames(n: int, seed: int, n_1080: int, workers: int = 2) -> dict[str, Any]:
    """Accuracy on ``n`` random rendered frames, split over ``workers`` processes (the frames
    and their order of scoring are fixed, so the figures do not depend on the split)."""
    chunks = [(k, workers, n, seed, n_1080) for k in range(workers)]
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(_render_chunk, chunks))
    else:
        parts = [_render_chunk(chunks[0])]
    found, base = ZERO, ZERO
    corner_errors: list[float] = []
    base_ms: list[float] = []
    finder_ms: list[float] = []
    by_layout: dict[str, MatchCounts] = {}
    false: Counter[str] = Counter()
    for part in parts:
        found, base = found + part["found"], base + part["base"]
        false += part["false"]
        corner_errors += part["corner_errors"]
        base_ms += part["base_ms"]
        finder_ms += part["finder_ms"]
        for layout, counts in part["by_layout"].items():
            by_layout[layout] = by_layout.get(layout, ZERO) + counts
    return {
        "found": found,
        "base": base,
        "corner_error_px_median": median(corner_errors),
        "base_ms": base_ms,
        "finder_ms": finder_ms,
        "by_layout": {
            layout: {"cards": c.counted_truth, "precision": rounded(c.precision), "recall": rounded(c.recall)}
            for layout, c in by_layout.items()
        },
        "false_positives": {k: false[k] for k in CLASSES},
    }


def bench_real() -> tuple[MatchCounts, MatchCounts, int]:
    folder = real_dir()
    labels = json.loads((folder / "labels.json").read_text())["images"]
    found, base = ZERO, ZERO
    for name, entry in sorted(labels.items()):
        image = cv2.imread(str(folder / name))
        if image is None:
            raise FileNotFoundError(f"{folder / name} does not read as an image")
        truth = [np.array(o["quad"], np.float32) for o in entry["objects"] if o["quad"] is not None]
        unlabelled = sum(o["quad"] is None for o in entry["objects"])
        c, _ = match_quads(
            [d.quad for d in find_cards(image)], truth, iou_threshold=0.85, unlabelled=unlabelled
        )
        b, _ = match_quads(find_cards_baseline(image), truth, iou_threshold=0.85, unlabelled=unlabelled)
        found, base = found + c, base + b
    return found, base, len(labels)


def _inside(quad: np.ndarray, roi: Any, width: int, height: int) -> bool:
    """Whether a quad lies in the region (x, y, w, h), a side of the region on the image's
    border reaching beyond it."""
    x, y, w, h = roi
    left = -math.inf if x <= 0 else x
    top = -math.inf if y <= 0 else y
    right = math.inf if x + w >= width else x + w
    bottom = math.inf if y + h >= height else y + h
    xs, ys = quad[:, 0], quad[:, 1]
    return bool(xs.min() >= left and xs.max() <= right and ys.min() >= top and ys.max() <= bottom)


class _TruthFinder:
    """A card finder that returns the rendered frame's true quads (cards >= 80 % visible, inside
    the searched region): the pipeline run with it shows what tracking and hands lose by
    themselves, with a perfect finder. A region's side on the image's border is open: a card
    running off the image there lies inside it as far as the frame shows."""

    def __init__(self) -> None:
        self.truth: Any = None

    def __call__(self, image: np.ndarray, cfg: Any = None, roi: Any = None, **_: Any) -> list[CardDetection]:
        out = []
        for c in self.truth.cards:
            if c.visible_fraction < 0.8:
                continue
            q = np.asarray(c.quad, np.float32)
            if roi is not None and not _inside(q, roi, image.shape[1], image.shape[0]):
                continue
            out.append(CardDetection(q, 1.0))
        return out


class _ScenarioScore:
    """Hand cover counts and id switches of one pipeline over a scenario."""

    def __init__(self) -> None:
        self.last_track: dict[int, int] = {}
        self.track_card: dict[int, int] = {}
        """Track id -> the true card it was last seen on."""
        self.faces: dict[int, str] = {}
        self.switches = 0
        self.twin_switches = 0
        """Switches where the new track was last on another card of the same face (a twin swap: the
        referee sees the same pattern either way)."""
        self.tp = self.fp = self.fn = 0
        self.fn_no_track = self.fn_not_covered = 0
        self.fp_card = self.fp_no_card = 0

    def add(self, obs: Any, truth: Any) -> None:
        visible = [c for c in obs.cards if c.state is CardState.VISIBLE]
        self.faces.update((c.card_id, c.identity) for c in truth.cards)
        for card in truth.cards:
            if card.visible_fraction < 0.8:
                continue
            best = max(visible, key=lambda v: quad_iou(v.quad, card.quad), default=None)
            if best is None or quad_iou(best.quad, card.quad) < 0.5:
                continue
            if card.card_id in self.last_track and self.last_track[card.card_id] != best.track_id:
                self.switches += 1
                was = self.track_card.get(best.track_id)
                if was is not None and was != card.card_id and self.faces.get(was) == card.identity:
                    self.twin_switches += 1
            self.last_track[card.card_id] = best.track_id
            self.track_card[best.track_id] = card.card_id
        # Covered cards: the pipeline's covered tracks matched one to one to the truly covered
        # cards by quad (a pile's cards share a quad: any of them will do).
        true_cov = [c.quad for c in truth.cards if c.covered_by_hands]
        pred = [c.quad for hand in obs.hands for tid in hand.covers if (c := obs.card(tid)) is not None]
        counts, _ = match_quads(pred, true_cov, iou_threshold=0.5)
        self.tp += counts.true_positives
        self.fp += counts.false_positives
        self.fn += counts.counted_truth - counts.recalled
        # Where the misses come from: a truly covered card with no track on it at all (never
        # found, or lost) or with a track the hands did not count as covered; a false "covered"
        # on a real card that is not covered, or where no card is (a carried card's guess).
        live = [c.quad for c in obs.cards if c.state is not CardState.GONE]
        for q in true_cov:
            if not any(quad_iou(p, q) >= 0.5 for p in pred):
                if any(quad_iou(t, q) >= 0.5 for t in live):
                    self.fn_not_covered += 1
                else:
                    self.fn_no_track += 1
        for p in pred:
            if not any(quad_iou(p, q) >= 0.5 for q in true_cov):
                if any(quad_iou(p, c.quad) >= 0.5 for c in truth.cards):
                    self.fp_card += 1
                else:
                    self.fp_no_card += 1

    @property
    def f1(self) -> float:
        tp, fp, fn = self.tp, self.fp, self.fn
        return 2 * tp / (2 * tp + fp + fn) if (tp + fp + fn) else math.nan


def bench_scenario(
    seed: int, n_frames: int, fps: float, width: int, height: int, diagnose: bool = False
) -> dict[str, Any]:
    """The demo scenario through the pipeline: hand cover counts, id switches, per-frame ms.

    With ``diagnose``, the same frames also go through a pipeline whose finder returns the true
    quads (tracking and hands on their own), and the hand mask is compared with the true one."""
    from vision.render.scenario import twinit_demo_scenario

    scenario = twinit_demo_scenario(seed, width=width, height=height)
    pipe = TablePipeline()
    score = _ScenarioScore()
    truth_find = _TruthFinder()
    truth_pipe = TablePipeline(find=truth_find) if diagnose else None
    truth_score = _ScenarioScore()
    mask_tp = mask_fp = mask_fn = 0
    moving_ms: list[float] = []
    frames = 0
    end = min(scenario.duration, (n_frames - 1) / fps)
    for t, image, truth in scenario.frames(fps=fps, end=end):
        t0 = time.thread_time()
        obs = pipe.process(image, t)
        ms = (time.thread_time() - t0) * 1000.0
        frames += 1
        if obs.extras.get("changed"):
            moving_ms.append(ms)
        score.add(obs, truth)
        if truth_pipe is not None:
            truth_find.truth = truth
            truth_score.add(truth_pipe.process(image, t), truth)
            if obs.hand_mask is not None:
                mask_tp += int(np.count_nonzero(obs.hand_mask & truth.hand_mask))
                mask_fp += int(np.count_nonzero(obs.hand_mask & ~truth.hand_mask))
                mask_fn += int(np.count_nonzero(~obs.hand_mask & truth.hand_mask))
    out: dict[str, Any] = {
        "frames": frames,
        "switches": score.switches,
        "f1": score.f1,
        "moving_ms": moving_ms,
    }
    if diagnose:
        per_1000 = 1000.0 / max(1, frames)
        out["diagnosis"] = {
            "truth_quads": {
                "hand_cover_f1": rounded(truth_score.f1),
                "id_switches_per_1000_frames": rounded(truth_score.switches * per_1000, 2),
                "id_switches_between_twins_per_1000_frames": rounded(truth_score.twin_switches * per_1000, 2),
            },
            "id_switches_between_twins_per_1000_frames": rounded(score.twin_switches * per_1000, 2),
            "hand_mask": {
                "pixel_precision": rounded(mask_tp / max(1, mask_tp + mask_fp)),
                "pixel_recall": rounded(mask_tp / max(1, mask_tp + mask_fn)),
            },
            "cover_misses": {"no_track": score.fn_no_track, "track_not_covered": score.fn_not_covered},
            "cover_false": {"card_not_covered": score.fp_card, "no_card_there": score.fp_no_card},
        }
    return out


def bench_still(seed: int, repeat: int) -> list[float]:
    from vision.render.scenario import twinit_demo_scenario

    image, _ = twinit_demo_scenario(seed).render_at(0.0)
    pipe = TablePipeline()
    pipe.process(image, 0.0)
    out = []
    for k in range(repeat):
        frame = image.copy()
        t0 = time.thread_time()
        pipe.process(frame, (k + 1) / 30)
        out.append((time.thread_time() - t0) * 1000.0)
    return out


def run(quick: bool, seed: int) -> dict[str, Any]:
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        n_render = 300 if quick else 2000
        n_1080 = 15 if quick else 200
        n_scenario = 150 if quick else 1200
        r = bench_render_frames(n_render, seed, n_1080)
        real_found, real_base, n_real = bench_real()
        scen = bench_scenario(seed, n_scenario, 10.0, 1280, 720, diagnose=True)
        scen_1080 = bench_scenario(seed, 40 if quick else 200, 10.0, 1920, 1080)
        still = bench_still(seed, 60 if quick else 300)
    finally:
        cv2.setNumThreads(threads)
    found: MatchCounts = r["found"]
    base: MatchCounts = r["base"]
    return {
        "render": {
            "frames": n_render,
            "precision": rounded(found.precision),
            "recall": rounded(found.recall),
            "corner_error_px_median": rounded(r["corner_error_px_median"], 3),
            "hand_cover_f1": rounded(scen["f1"]),
            "id_switches_per_1000_frames": rounded(1000.0 * scen["switches"] / max(1, scen["frames"]), 2),
        },
        "real": {
            "images": n_real,
            "precision": rounded(real_found.precision),
            "recall": rounded(real_found.recall),
        },
        "baseline": {
            "render": {"precision": rounded(base.precision), "recall": rounded(base.recall)},
            "real": {"precision": rounded(real_base.precision), "recall": rounded(real_base.recall)},
            "ms_720p_median": rounded(median(r["base_ms"]), 2),
        },
        "speed": {
            "ms_720p_still_median": rounded(median(still), 3),
            "ms_720p_moving_median": rounded(median(scen["moving_ms"]), 2),
            "ms_720p_moving_p95": rounded(percentile(scen["moving_ms"], 95), 2),
            "ms_1080p_moving_median": rounded(median(scen_1080["moving_ms"]), 2),
        },
        "diagnosis": {
            **scen["diagnosis"],
            # the card finder by the render set's layouts, and its own time per 720p frame
            "render_by_layout": r["by_layout"],
            # what the render set's false positives lie on (web.bench.cards_false)
            "render_false_positives": r["false_positives"],
            "finder_ms_720p_median": rounded(median(r["finder_ms"]), 2),
            "finder_ms_720p_p95": rounded(percentile(r["finder_ms"], 95), 2),
        },
    }
