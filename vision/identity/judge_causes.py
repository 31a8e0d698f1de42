"""What keeps the judge's genuine pairs uncertain: the same pairs judged with one cause switched off.

Pairs of camera crops are drawn from the judge's calibration decks (never the bench's, never real
photos) as ``models.training.augment.camera_crop`` makes them, once per variant of its settings, each
variant from the same seed (the same patterns, crop sizes and turns): the bench's settings; without
light (no white balance, exposure, gradient, shadow, glare or noise; focus and motion blur and JPEG
stay); without the finder's geometric error (no corner error, no residual rotation); and without both.
Every pair is judged as at run time (:class:`vision.identity.PatternJudge`, verifier included), and for
each variant the share of genuine pairs called "same", of near-duplicates called "different", and of
near-duplicates called "same" (confident wrong), overall and by the pair's smaller crop side.

Run: ``python -m vision.identity.judge_causes [--pairs N] [--seed S] [--json]`` (no PyTorch needed).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence

import numpy as np

from models.training.augment import AugmentConfig, camera_crop
from models.training.decks import PatternDeck
from models.training.judge_data import FaceCache
from vision.identity import render_decks as rd
from vision.identity.judge import PatternJudge

SIDE_BANDS = ((44, 60), (60, 80), (80, 100), (100, 121))
"""Bands of a pair's smaller crop side (px), as the identity bench reports them."""


def variants(base: AugmentConfig | None = None) -> dict[str, AugmentConfig]:
    """The augmentation settings compared: the bench's, then with light and / or geometry switched off."""
    base = base or AugmentConfig()
    no_geometry = {"corner_jitter": 0.0, "max_rotation_deg": 0.0}
    return {
        "bench": base,
        "no_light": dataclasses.replace(base, light=0.0),
        "no_geometry": dataclasses.replace(base, **no_geometry),
        "no_light_no_geometry": dataclasses.replace(base, light=0.0, **no_geometry),
    }


def draw(
    decks: Sequence[PatternDeck], n: int, seed: int, aug: AugmentConfig, hard_share: float = 0.3
) -> tuple[list[np.ndarray], list[str]]:
    """``n`` pairs (flattened crops a0, b0, a1, b1, ...) and their kinds (``same`` or ``hard``): each crop
    at a random quarter turn. The same seed draws the same patterns, crop sizes and turns for every ``aug``
    whose size range is equal (each crop's effects come from a generator of its own, so switching one
    off changes only that crop's later draws: its blur and JPEG)."""
    caches = [FaceCache(d) for d in decks]
    pick = np.random.default_rng(seed)
    crops: list[np.ndarray] = []
    kinds: list[str] = []
    for i in range(n):
        cache = caches[int(pick.integers(len(caches)))]
        deck = cache.deck
        hard = bool(deck.near_duplicates) and pick.random() < hard_share
        if hard:
            x, y, _ = deck.near_duplicates[int(pick.integers(len(deck.near_duplicates)))]
        else:
            x = y = deck.patterns[int(pick.integers(len(deck.patterns)))]
        for j, face in enumerate((cache.face(x), cache.face(y))):
            rng = np.random.default_rng([seed, i, j])
            turn = int(rng.integers(4))
            crops.append(np.ascontiguousarray(np.rot90(camera_crop(face, rng, aug), turn)))
        kinds.append("hard" if hard else "same")
    return crops, kinds


def judged(judge: PatternJudge, crops: list[np.ndarray], kinds: list[str]) -> dict:
    """Shares of genuine pairs called same, of near-duplicates called different and called same, overall
    and by the smaller crop side."""
    sigs = judge.signatures(crops)
    p = judge.p_same_many([(sigs[2 * k], sigs[2 * k + 1]) for k in range(len(kinds))])
    side = np.asarray([min(*crops[2 * k].shape[:2], *crops[2 * k + 1].shape[:2]) for k in range(len(kinds))])
    kind = np.asarray(kinds)

    def shares(m: np.ndarray) -> dict:
        same, hard = m & (kind == "same"), m & (kind == "hard")
        out: dict = {"same_pairs": int(same.sum()), "hard_pairs": int(hard.sum())}
        if same.any():
            out["same_accuracy"] = round(float(np.mean(p[same] >= judge.same_at)), 4)
            out["same_called_different"] = round(float(np.mean(p[same] < judge.different_below)), 4)
            out["same_median_p"] = round(float(np.median(p[same])), 4)
        if hard.any():
            out["hard_accuracy"] = round(float(np.mean(p[hard] < judge.different_below)), 4)
            out["hard_called_same"] = round(float(np.mean(p[hard] >= judge.same_at)), 4)
        return out

    res = shares(np.ones(len(kind), bool))
    res["by_side"] = {
        f"{lo}-{hi}": shares((side >= lo) & (side < hi))
        for lo, hi in SIDE_BANDS
        if ((side >= lo) & (side < hi)).any()
    }
    return res


def causes(judge: PatternJudge, decks: Sequence[PatternDeck], n: int, seed: int) -> dict:
    """:func:`judged` for each of :func:`variants`, the same pairs drawn for each."""
    out = {}
    for name, aug in variants().items():
        crops, kinds = draw(decks, n, seed, aug)
        out[name] = judged(judge, crops, kinds)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.identity.judge_causes", description=__doc__)
    parser.add_argument("--pairs", type=int, default=600, help="pairs per variant (default 600)")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.pairs < 1:
        print(f"--pairs: expected a positive number, got {args.pairs}", file=sys.stderr)
        return 2
    decks = rd.twinit_decks(rd.TWINIT_VAL_SEEDS, rd.TWINIT_TRAIN_STYLES)
    res = causes(PatternJudge(), decks, args.pairs, args.seed)
    if args.json:
        print(json.dumps(res, indent=1))
    else:
        for name, r in res.items():
            bands = " ".join(f"{b}:{v.get('same_accuracy', '-')}" for b, v in r["by_side"].items())
            print(
                f"{name:22s} same {r.get('same_accuracy')} hard {r.get('hard_accuracy')} "
                f"hard called same {r.get('hard_called_same')} | same by side {bands}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
