"""What keeps the judge's genuine pairs uncertain: the same pairs judged with one cause switched off.

Pairs of camera crops are drawn from the judge's calibration decks (never the bench's, never real
photos) as ``models.training.augment.camera_crop`` makes them, once per variant of its settings, each
variant from the same seed (the same patterns, crop sizes and turns): the bench's settings; without
light (no white balance, exposure, gradient, shadow, glare or noise; focus and motion blur and JPEG
stay); without the finder's geometric error (no corner error, no residual rotation); and without both.
Every pair is judged as at run time (:class:`vision.identity.PatternJudge`, verifier included), and for
each variant the share of genuine pairs called "same", of near-duplicates called "different", and of
near-duplicates called "same" (confident wrong), overall and by the pair's smaller crop side.

With ``--effects``, the quick identity bench's own genuine pairs instead (its first bench deck, its
crops drawn from its seed in its order: :func:`vision.identity.render_decks.camera_faces`), judged as
the bench judges them and again with each camera effect of ``camera_crop`` left out on its own
(:data:`models.training.augment.EFFECTS`; every number still drawn, so everything else stays as it
was), then with the light's, the geometry's and the pixels' effects left out together: for each, the
share called "same" and the pairs it turns to "same" and away from it. Also the genuine pairs' shares
by class (the smaller crop side, the relative quarter turn, how many of the two crops show glare), the
net's share at the verifier's gate, and the missed pairs' logits against the "same" threshold.

Run: ``python -m vision.identity.judge_causes [--pairs N] [--seed S] [--effects] [--json]`` (no PyTorch
needed).
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import sys
from collections.abc import Sequence

import numpy as np

from models.training.augment import EFFECTS, AugmentConfig, camera_crop
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


EFFECT_GROUPS = {
    "light": ("white_balance", "exposure", "gradient", "shadow", "glare"),
    "geometry": ("jitter", "rotation"),
    "pixels": ("camera_blur", "blur", "noise", "jpeg"),
}
"""Effects left out together (each also on its own)."""


def bench_genuine_pairs(deck: rd.RenderedTwinItDeck) -> list[tuple[int, int]]:
    """Every pair of the deck's faces that show one pattern, in the identity bench's order."""
    by: dict[str, list[int]] = {}
    for i, ident in enumerate(deck.faces):
        by.setdefault(ident, []).append(i)
    return [(i, j) for idx in by.values() for i, j in itertools.combinations(idx, 2)]


def _logit(p: np.ndarray) -> np.ndarray:
    q = np.clip(p, 1e-9, 1 - 1e-9)
    return np.log(q / (1 - q))


def effects(judge: PatternJudge, seed: int = 0, deck: rd.RenderedTwinItDeck | None = None) -> dict:
    """The quick identity bench's genuine pairs (``seed`` its seed), as it judges them and with each
    effect (:data:`models.training.augment.EFFECTS`, then :data:`EFFECT_GROUPS`) left out."""
    deck = deck or rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]
    pairs = bench_genuine_pairs(deck)
    aug = AugmentConfig()

    def crops_without(off: frozenset[str]) -> list[np.ndarray]:
        return rd.camera_faces(deck, np.random.default_rng(seed), aug, off)[0]

    def p_same(crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        sigs = judge.signatures(crops)
        sp = [(sigs[i], sigs[j]) for i, j in pairs]
        a_, b_ = judge.platt
        net = 1.0 / (1.0 + np.exp(-np.clip(a_ * judge.best_logits(sp) + b_, -40, 40)))
        return judge.p_same_many(sp), net

    crops, turn = rd.camera_faces(deck, np.random.default_rng(seed), aug)
    p, net = p_same(crops)
    same = p >= judge.same_at
    missed = _logit(p[~same])
    out: dict = {
        "deck": f"twinit-s{deck.seed}-style{deck.style}",
        "pairs": len(pairs),
        "same_accuracy": round(float(same.mean()), 4),
        "called_different": round(float(np.mean(p < judge.different_below)), 4),
        "net_at_gate": round(float(np.mean(net >= judge.gate)), 4),
        "net_alone_same": round(float(np.mean(net >= judge.net_same_at)), 4),
        "same_logit": round(float(_logit(np.asarray([judge.same_at]))[0]), 3),
        "missed_logit_quartiles": [round(float(v), 3) for v in np.quantile(missed, (0.25, 0.5, 0.75))]
        if len(missed)
        else [],
    }
    side = np.asarray([min(*crops[i].shape[:2], *crops[j].shape[:2]) for i, j in pairs])
    glared = np.asarray(
        [not np.array_equal(a, b) for a, b in zip(crops, crops_without(frozenset({"glare"})), strict=True)]
    )

    def share(m: np.ndarray) -> dict:
        return {"pairs": int(m.sum()), "same_accuracy": round(float(same[m].mean()), 4) if m.any() else None}

    out["by_side"] = {f"{lo}-{hi}": share((side >= lo) & (side < hi)) for lo, hi in SIDE_BANDS}
    out["by_relative_turn"] = {
        str(r): share(np.asarray([(turn[j] - turn[i]) % 4 == r for i, j in pairs])) for r in range(4)
    }
    out["by_crops_with_glare"] = {
        str(n): share(np.asarray([int(glared[i]) + int(glared[j]) == n for i, j in pairs])) for n in range(3)
    }
    left_out: dict = {}
    for name, off in [(e, (e,)) for e in EFFECTS] + list(EFFECT_GROUPS.items()):
        q, _ = p_same(crops_without(frozenset(off)))
        now = q >= judge.same_at
        left_out[name] = {
            "same_accuracy": round(float(now.mean()), 4),
            "to_same": int((now & ~same).sum()),
            "from_same": int((~now & same).sum()),
        }
    out["without"] = left_out
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.identity.judge_causes", description=__doc__)
    parser.add_argument("--pairs", type=int, default=600, help="pairs per variant (default 600)")
    parser.add_argument(
        "--seed", type=int, default=None, help="default 5; with --effects the bench's own seed, 0"
    )
    parser.add_argument(
        "--effects",
        action="store_true",
        help="the quick identity bench's genuine pairs, each effect left out",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.pairs < 1:
        print(f"--pairs: expected a positive number, got {args.pairs}", file=sys.stderr)
        return 2
    if args.effects:
        res = effects(PatternJudge(), 0 if args.seed is None else args.seed)
        if args.json:
            print(json.dumps(res, indent=1))
        else:
            print(f"{res['deck']}: {res['pairs']} genuine pairs, same {res['same_accuracy']}")
            for name, r in res["without"].items():
                print(f"  without {name:14s} same {r['same_accuracy']} (+{r['to_same']} -{r['from_same']})")
        return 0
    decks = rd.twinit_decks(rd.TWINIT_VAL_SEEDS, rd.TWINIT_TRAIN_STYLES)
    res = causes(PatternJudge(), decks, args.pairs, 5 if args.seed is None else args.seed)
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
