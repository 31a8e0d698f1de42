"""``tableref bench identity``: the judge and the reader on held-out renders and on real SET photos.

render: Twin It decks (seeds and a style training never used): every pair of faces showing the
same pattern, as many random different pairs, and every near-duplicate pair (several times in the
full run); each card is its own camera crop (light, blur, finder error, any quarter turn). Number
decks in their held-out style: every card at every quarter turn (one random turn in --quick).
The finder error of each crop is one measured card's (``models/training/finder_corners.json``,
:data:`CORNER_BANK`: the card finder's corner errors on the cards bench's rendered scenes, every
found card (IoU >= 0.9), its four corners in the card's own frame: most within a fraction of a
pixel, a tail to 24 % of the side; ``web.bench.finder_corners``); where it came from is printed
as ``render._corners_bank_source``. Beside the headline, every run also gives the same render part
(same draws, only the corners differ) with the former Gaussian corner error
(``render._corners_gaussian``: 3.5 % of the side per axis, clipped at 8.75 %, plus up to 5 degrees
of rotation; far harsher than the finder on most cards, lighter in its tail) and with the finder's
badly cut cards too (``render._corners_iou05``: found quads of IoU 0.5-0.9, half a card or two
merged; its confident wrong rate is the danger where a caller hands the judge any quad it has).
real: ../shared/realdata/set-crops: every pair of equal design_id and every pair differing in
exactly one attribute; plus the cards that the card finder cuts from set-boards/ photos (matched to
the labelled quads), paired the same way. Every accuracy counts "uncertain" as not correct.
speed: the judge's whole per-crop cost (preprocessing and every turn), one thread; and the cost of
one pair's comparison once both signatures are made (every relative turn and view), one thread; with
the judge's verifier, also that of a pair of two photos of one pattern (the verifier runs on it).
A signature builds the verifier's view of its crop only when a pair first needs it (the net finds the
pair likely the same), so ms_per_crop_* is the net's embedding (and the crop shrunk for the verifier),
and ms_per_verified_pair_* includes building both views (each pair gets signatures whose views are
not built yet: the worst case, since a card compared again reuses its view).
render._enrolled (extra figures; the headline is the pair judge's): each bench deck enrolled as a
real deck is (every face laid out on rendered tables of its own, in the bench's style, cut out by the
card finder: :mod:`vision.identity.rendered_enrolment`), then the very same signature pairs judged
by :class:`vision.identity.enrolled.EnrolledJudge` (its closed-set rule); with the enrolment's time,
cards, cards cut out, groups, whether the rule was on (it stays off for a deck with an unreadable
card) and the cost of one crop's match against the deck (made once per crop), under the bench's load.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import tempfile
import time
from itertools import combinations
from pathlib import Path

import cv2
import numpy as np

from models.labels import parse_identity
from models.training.augment import AugmentConfig, bank_source, camera_crop
from vision.identity import NumberReader, PatternJudge
from vision.identity import render_decks as rd
from vision.identity.judge import Signature
from web.bench.stats import median, rounded

log = logging.getLogger(__name__)

REALDATA = Path(__file__).resolve().parents[2].parent / "shared" / "realdata"
CORNER_BANK = "finder_corners.json"
"""The card finder's measured corner errors the render crops take (the headline)."""
CORNER_BANK_LOOSE = "finder_corners_iou05.json"
"""The same with the badly cut cards (found at IoU 0.5-0.9) too: ``render._corners_iou05``."""
ATTRIBUTES = ("count", "colour", "shading", "shape")


def _verdict_stats(judge: PatternJudge, p: np.ndarray, same: np.ndarray) -> dict[str, np.ndarray]:
    said_same = p >= judge.same_at
    said_diff = p < judge.different_below
    return {
        "correct": np.where(same, said_same, said_diff),
        "wrong": np.where(same, said_diff, said_same),
        "uncertain": ~said_same & ~said_diff,
    }


def _accuracies(st: dict[str, np.ndarray], kinds: np.ndarray, pairs: int) -> dict:
    return {
        "pairs": pairs,
        "same_accuracy": rounded(np.mean(st["correct"][kinds == "same"]), 5),
        "different_accuracy": rounded(np.mean(st["correct"][kinds == "random"]), 5),
        "hard_negative_accuracy": rounded(np.mean(st["correct"][kinds == "hard"]), 5),
        "confident_wrong_rate": rounded(np.mean(st["wrong"]), 5),
        "uncertain_rate": rounded(np.mean(st["uncertain"]), 5),
    }


def _enrolled_deck(
    judge: PatternJudge, deck: rd.RenderedTwinItDeck, sigs: list[Signature], pairs: list[tuple]
) -> tuple[np.ndarray, dict]:
    """The bench deck enrolled as a real deck is (laid out on rendered tables of its own, cut out by
    the card finder), then the same signature pairs judged by the enrolled judge; with the enrolment's
    time and cards, and the cost of each crop's match against the deck (made once per crop)."""
    from calibration.deck import EnrolledDeck
    from calibration.enroll import enroll
    from vision.identity.enrolled import EnrolledJudge
    from vision.identity.rendered_enrolment import rendered_deck_crops

    with tempfile.TemporaryDirectory(prefix="bench-enrolled-") as tmp:
        t0 = time.perf_counter()
        r = rendered_deck_crops("twinit", deck.seed, style=deck.style)
        enrolled = EnrolledDeck.create(Path(tmp) / "deck", "twinit")
        enroll(enrolled, r.crops, missing={c: "not cut out by the card finder" for c in r.missing})
        ej = EnrolledJudge(judge, enrolled)
        seconds = time.perf_counter() - t0
        ms = []
        for s in sigs:
            t1 = time.perf_counter()
            ej.match(s)
            ms.append((time.perf_counter() - t1) * 1000)
        p = ej.p_same_many(pairs)
    info = {
        "seconds": seconds,
        "cards": len(r.truth),
        "cut_out": len(r.crops),
        "groups": len(ej.groups),
        "patterns": len(set(r.truth.values())),
        "ruled": ej.rule is not None,
        "match_ms": ms,
    }
    return p, info


def _enrolment_totals(infos: list[dict]) -> dict:
    ms = [m for i in infos for m in i["match_ms"]]
    return {
        "decks": len(infos),
        "seconds": rounded(sum(i["seconds"] for i in infos), 1),
        "cards": sum(i["cards"] for i in infos),
        "cut_out": sum(i["cut_out"] for i in infos),
        "groups": sum(i["groups"] for i in infos),
        "patterns": sum(i["patterns"] for i in infos),
        "closed_set_rule": all(i["ruled"] for i in infos),
        "ms_per_crop_match": rounded(median(ms), 2) if ms else None,
        "ms_per_crop_match_p95": rounded(float(np.percentile(ms, 95)), 2) if ms else None,
    }


def _render_part(
    judge: PatternJudge,
    reader: NumberReader,
    quick: bool,
    seed: int,
    enrolled: bool = True,
    aug: AugmentConfig | None = None,
) -> dict:
    """``enrolled``: also the figures of the judge with each bench deck enrolled (``_enrolled``).
    ``aug``: how the crops are made (default: the finder's measured corner errors, :data:`CORNER_BANK`)."""
    rng = np.random.default_rng(seed)
    aug = AugmentConfig(corner_bank=CORNER_BANK) if aug is None else aug
    seeds = rd.TWINIT_BENCH_SEEDS[:1] if quick else rd.TWINIT_BENCH_SEEDS
    hard_repeats = 1 if quick else 4
    p_all, same_all, kind_all, side_all = [], [], [], []
    p_enrolled: list[np.ndarray] = []
    enrolments: list[dict] = []
    for deck in rd.twinit_decks(seeds, rd.TWINIT_BENCH_STYLES):
        faces = deck.faces
        crops, _ = rd.camera_faces(deck, rng, aug)
        sigs = judge.signatures(crops)
        pairs, same, kinds = [], [], []
        by_pattern: dict[str, list[int]] = {}
        for i, ident in enumerate(faces):
            by_pattern.setdefault(ident, []).append(i)
        for idx in by_pattern.values():
            for i, j in combinations(idx, 2):
                pairs.append((i, j))
                same.append(True)
                kinds.append("same")
        n_same = len(pairs)
        while len(pairs) < 2 * n_same:
            i, j = (int(v) for v in rng.integers(len(faces), size=2))
            if faces[i] != faces[j]:
                pairs.append((i, j))
                same.append(False)
                kinds.append("random")
        hard_sigs = []
        for _ in range(hard_repeats):
            for a, b, _kind in deck.near_duplicates:
                ca = camera_crop(rd.shrink(deck.image(a), 220), rng, aug)
                cb = camera_crop(rd.shrink(deck.image(b), 220), rng, aug)
                hard_sigs.append((ca, np.ascontiguousarray(np.rot90(cb, int(rng.integers(4))))))
        flat = judge.signatures([c for pair in hard_sigs for c in pair])
        sig_pairs = [(sigs[i], sigs[j]) for i, j in pairs]
        sig_pairs += [(flat[2 * k], flat[2 * k + 1]) for k in range(len(hard_sigs))]
        side_all += [min(*crops[i].shape[:2], *crops[j].shape[:2]) for i, j in pairs]
        side_all += [min(*a.shape[:2], *b.shape[:2]) for a, b in hard_sigs]
        same += [False] * len(hard_sigs)
        kinds += ["hard"] * len(hard_sigs)
        p_all.append(judge.p_same_many(sig_pairs))
        if enrolled:
            p_enr, info = _enrolled_deck(judge, deck, sigs + flat, sig_pairs)
            p_enrolled.append(p_enr)
            enrolments.append(info)
        same_all += same
        kind_all += kinds
    p = np.concatenate(p_all)
    same_arr = np.asarray(same_all)
    kinds_arr = np.asarray(kind_all)
    st = _verdict_stats(judge, p, same_arr)
    out = {
        **_accuracies(st, kinds_arr, len(p)),
        "_by_crop_side": _by_side(st, kinds_arr, np.asarray(side_all)),
    }
    if enrolled:
        out["_enrolled"] = {
            **_accuracies(_verdict_stats(judge, np.concatenate(p_enrolled), same_arr), kinds_arr, len(p)),
            "enrolment": _enrolment_totals(enrolments),
        }
    numbers, colours = {}, {}
    rotations = (cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE)
    for deck in rd.number_decks(rd.NUMBER_BENCH_STYLES):
        crops, truth = [], []
        for ident in deck.identities:
            copies = deck_copies(deck.deck, ident)
            turns = [int(rng.integers(4))] if quick else [0, 1, 2, 3]
            for _ in range(copies if not quick else 1):
                for k in turns:
                    crop = camera_crop(rd.shrink(deck.image(ident), 240), rng, aug)
                    crops.append(crop if k == 0 else cv2.rotate(crop, rotations[k - 1]))
                    truth.append(ident)
        readings = reader.read_many(crops, deck.deck)
        ok_number, ok_colour = [], []
        for r, ident in zip(readings, truth, strict=True):
            _, cls, colour = parse_identity(ident)
            want_kind, want_number = ("bet", (3, 4, 5)[cls - 100]) if cls >= 100 else ("number", cls + 1)
            sure = r.certain
            ok_number.append(sure and r.kind == want_kind and r.number == want_number)
            ok_colour.append(sure and (r.colour or "none") == colour)
        numbers[deck.deck] = rounded(np.mean(ok_number), 5)
        if deck.deck in ("trio", "lineit"):
            colours[deck.deck] = rounded(np.mean(ok_colour), 5)
    out["numbers"] = numbers
    out["colours"] = colours
    return out


SIDE_BANDS = ((44, 60), (60, 80), (80, 100), (100, 121))
"""Bands of a pair's smaller crop side (px): the judge's verifier is surer on large crops."""


def _by_side(st: dict[str, np.ndarray], kinds: np.ndarray, side: np.ndarray) -> dict:
    """Same and hard-negative accuracy and confident wrong rate within each band of the pair's smaller
    crop side (the render part's crops are cut at the card's size in the frame)."""
    out = {}
    for lo, hi in SIDE_BANDS:
        m = (side >= lo) & (side < hi)
        if not m.any():
            continue
        band = {"pairs": int(m.sum()), "confident_wrong_rate": rounded(np.mean(st["wrong"][m]), 5)}
        for key, kind in (("same_accuracy", "same"), ("hard_negative_accuracy", "hard")):
            k = m & (kinds == kind)
            if k.any():
                band[key] = rounded(np.mean(st["correct"][k]), 5)
        out[f"{lo}-{hi}"] = band
    return out


def deck_copies(deck: str, identity: str) -> int:
    """How many copies of a face the real deck holds (Trio 3 of each, Line-it bets 2)."""
    if deck == "trio":
        return 3
    if identity.startswith("lineit:bet"):
        return 2
    return 1


def _design_pairs(designs: list[dict]) -> tuple[list[tuple[int, int]], list[bool]]:
    """Pairs of equal design (True) and of designs differing in exactly one attribute (False)."""
    pairs, same = [], []
    for i, j in combinations(range(len(designs)), 2):
        diff = sum(designs[i][a] != designs[j][a] for a in ATTRIBUTES)
        if diff <= 1:
            pairs.append((i, j))
            same.append(diff == 0)
    return pairs, same


def _set_crops() -> tuple[list[np.ndarray], list[dict]]:
    folder = REALDATA / "set-crops"
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))["images"]
    crops, designs = [], []
    for name in sorted(labels):
        obj = labels[name]["objects"][0]
        img = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
        if img is None:
            continue
        crops.append(img)
        designs.append({a: obj[a] for a in ATTRIBUTES})
    return crops, designs


def _board_crops(every: int = 1) -> tuple[list[np.ndarray], list[dict], list[str]]:
    """Crops the card finder cuts from set-boards photos (every ``every``-th photo), labelled by
    the quad they match."""
    from vision.cards.finder import find_cards
    from vision.cards.geometry import quad_iou
    from vision.cards.rectify import rectify

    folder = REALDATA / "set-boards"
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))["images"]
    crops, designs, photos = [], [], []
    for name in sorted(labels)[::every]:
        img = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
        if img is None:
            continue
        objs = [o for o in labels[name]["objects"] if o.get("quad") is not None]
        for det in find_cards(img):
            quad = np.asarray(det.quad, np.float32)
            best, best_iou = None, 0.0
            for o in objs:
                iou = quad_iou(quad, np.asarray(o["quad"], np.float32))
                if iou > best_iou:
                    best, best_iou = o, iou
            if best is None or best_iou < 0.85:
                continue
            crops.append(rectify(img, quad))
            designs.append({a: best[a] for a in ATTRIBUTES})
            photos.append(name)
    return crops, designs, photos


def _real_part(judge: PatternJudge, quick: bool = False) -> dict:
    crops, designs = _set_crops()
    sigs = judge.signatures(crops)
    pairs, same = _design_pairs(designs)
    p = [judge.p_same_many([(sigs[i], sigs[j]) for i, j in pairs])]
    same_all = list(same)
    finder_pairs = 0
    try:
        bcrops, bdesigns, photos = _board_crops(3 if quick else 1)
    except ImportError as exc:  # the card finder is another package; say so rather than fail
        log.warning("set-boards part skipped: card finder unavailable (%s)", exc)
        bcrops, bdesigns, photos = [], [], []
    if bcrops:
        bsigs = judge.signatures(bcrops)
        bpairs, bsame = _design_pairs(bdesigns)
        keep = [(k, pr) for k, pr in enumerate(bpairs) if photos[pr[0]] != photos[pr[1]] or not bsame[k]]
        p.append(judge.p_same_many([(bsigs[i], bsigs[j]) for _, (i, j) in keep]))
        same_all += [bsame[k] for k, _ in keep]
        finder_pairs = len(keep)
    parr = np.concatenate(p)
    same_arr = np.asarray(same_all)
    st = _verdict_stats(judge, parr, same_arr)
    return {
        "pairs": len(parr),
        "same_accuracy": rounded(np.mean(st["correct"][same_arr]), 5),
        "one_attribute_accuracy": rounded(np.mean(st["correct"][~same_arr]), 5),
        "confident_wrong_rate": rounded(np.mean(st["wrong"]), 5),
        "uncertain_rate": rounded(np.mean(st["uncertain"]), 5),
        "_finder_pairs": finder_pairs,
    }


def _speed(judge: PatternJudge, quick: bool, seed: int) -> dict:
    rng = np.random.default_rng(seed + 1)
    deck = rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]
    crops = [
        camera_crop(rd.shrink(deck.image(p), 220), rng, AugmentConfig(min_px=150, max_px=200))
        for p in deck.patterns[:32]
    ]
    one = PatternJudge(threads=1)
    for c in crops[:4]:
        one.signature(c)
    reps = 100 if quick else 400
    t1 = []
    for k in range(reps):
        t0 = time.perf_counter()
        one.signature(crops[k % len(crops)])
        t1.append((time.perf_counter() - t0) * 1000)
    t32 = []
    for _ in range(max(5, reps // 20)):
        t0 = time.perf_counter()
        one.signatures(crops)
        t32.append((time.perf_counter() - t0) * 1000 / len(crops))
    sigs = one.signatures(crops)
    tp = []
    for k in range(reps):
        t0 = time.perf_counter()
        one.p_same_many([(sigs[k % len(sigs)], sigs[(k + 1) % len(sigs)])])
        tp.append((time.perf_counter() - t0) * 1000)
    out = {
        "ms_per_crop_batch1": rounded(median(t1), 4),
        "ms_per_crop_batch32": rounded(median(t32), 4),
        "ms_per_pair_batch1": rounded(median(tp), 4),
    }
    if one.verifier is not None:
        # Pairs of two photos of one pattern: the net finds them likely the same, so the verifier runs too.
        twins = one.signatures(
            [
                camera_crop(rd.shrink(deck.image(p), 220), rng, AugmentConfig(min_px=150, max_px=200))
                for p in deck.patterns[:32]
            ]
        )
        tv = []
        for k in range(reps):
            # Fresh holders of both views, not built yet: the pair pays for building them.
            a, b = (_unbuilt(s) for s in (sigs[k % len(sigs)], twins[k % len(twins)]))
            t0 = time.perf_counter()
            one.p_same_many([(a, b)])
            tv.append((time.perf_counter() - t0) * 1000)
        out["ms_per_verified_pair_batch1"] = rounded(median(tv), 4)
        out["ms_per_verified_pair_p95"] = rounded(float(np.percentile(tv, 95)), 4)
    return out


def _unbuilt(sig: Signature) -> Signature:
    assert sig.lazy_view is not None
    return dataclasses.replace(sig, lazy_view=sig.lazy_view.unbuilt())


def _render_with_other_corners(judge: PatternJudge, reader: NumberReader, quick: bool, seed: int) -> dict:
    """The render part (measured corner errors), then the same draws with the former Gaussian corner
    error and with the finder's badly cut cards too, and where the bank came from."""
    out = _render_part(judge, reader, quick, seed)
    for key, aug in (
        ("_corners_gaussian", AugmentConfig()),
        ("_corners_iou05", AugmentConfig(corner_bank=CORNER_BANK_LOOSE)),
    ):
        other = _render_part(judge, reader, quick, seed, enrolled=False, aug=aug)
        other.pop("_by_crop_side", None)
        out[key] = other
    out["_corners_bank_source"] = bank_source(CORNER_BANK)
    return out


def run(quick: bool, seed: int) -> dict:
    judge = PatternJudge()
    reader = NumberReader()
    real = _real_part(judge, quick)
    log.info("real pairs from the card finder's set-boards crops: %d", real.pop("_finder_pairs"))
    return {
        "render": _render_with_other_corners(judge, reader, quick, seed),
        "real": real,
        "speed": _speed(judge, quick, seed),
    }
