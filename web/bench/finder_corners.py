"""The card finder's corner error as a share of the card's side: what the identity bench's simulated crops
should be off by (issue #4).

``python -m web.bench.finder_corners [--frames 300 --frames-1080 120] [--bank PATH] [--json]``
renders the cards bench's own scenes (``web.bench.cards._scenes``, seed 0: every layout and deck) at
1280 x 720 and 1920 x 1080, runs the card finder, and for every true card at least 80 % visible takes
its best found quad by IoU. Each corner's error is its distance to the true corner under the best
cyclic correspondence (as ``vision.cards.geometry.corner_error``, which averages the four), divided by
the true quad's short side, the unit of ``models.training.augment.AugmentConfig.corner_jitter``.
It prints percentiles per corner and the share of cards whose worst corner passes 1, 2, 5, 8.75 and
15 %, for found quads of IoU >= 0.9 (what the cards bench counts as found) and >= 0.5.

``--bank`` writes the IoU >= 0.9 cards' corner displacements in each card's own frame (top-left,
top-right, bottom-right, bottom-left; x along the card's top edge; shares of its short side): the bank
``AugmentConfig.corner_bank`` draws from (``models/training/finder_corners.json`` was made so, at
89873c3, with the defaults); ``--loose-bank`` the IoU >= 0.5 cards' (``finder_corners_iou05.json``).
Each records the finder's code fingerprint, the scenes' seed and counts.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

log = logging.getLogger(__name__)

BANK_MIN_IOU = 0.9
"""Found quads of this IoU or more with their true card go into the bank (the cards bench's "found")."""
LOOSE_MIN_IOU = 0.5
"""The loose bank also keeps the badly cut cards (half a card, two merged: IoU 0.5-0.9)."""
SHARES = (0.01, 0.02, 0.05, 0.0875, 0.15)
"""Worst-corner errors whose share of cards the summary gives (0.0875: the simulation's clip)."""


def matched_corners(found: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """The found quad's corners in the order that best matches the true quad's (either direction)."""
    from vision.cards.geometry import as_quad

    f, t = as_quad(found).astype(np.float64), as_quad(truth).astype(np.float64)
    best, best_q = np.inf, f
    for cand in (f, f[::-1]):
        for k in range(4):
            q = np.roll(cand, k, axis=0)
            d = float(np.linalg.norm(q - t, axis=1).mean())
            if d < best:
                best, best_q = d, q
    return best_q


def card_frame_error(found: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """(4, 2) displacement of each found corner in the true card's own frame (its quad mapped onto a
    rectangle of its proportions whose short side is 1)."""
    from vision.cards.geometry import as_quad

    t = as_quad(truth).astype(np.float64)
    s = np.linalg.norm(np.roll(t, -1, axis=0) - t, axis=1)
    w, h = (s[0] + s[2]) / 2, (s[1] + s[3]) / 2
    short = min(w, h)
    canon = np.array([[0, 0], [w / short, 0], [w / short, h / short], [0, h / short]], np.float64)
    hom = cv2.getPerspectiveTransform(t.astype(np.float32), canon.astype(np.float32))
    f = cv2.perspectiveTransform(matched_corners(found, truth).reshape(1, 4, 2), hom)[0]
    return f - canon


def short_side(quad: np.ndarray) -> float:
    from vision.cards.geometry import as_quad

    q = as_quad(quad).astype(np.float64)
    s = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    return float(min((s[0] + s[2]) / 2, (s[1] + s[3]) / 2))


def measure(frames: int, seed: int, width: int, height: int) -> list[dict[str, Any]]:
    """One row per true card >= 80 % visible in the cards bench's first ``frames`` scenes rendered at
    width x height: its best IoU, short side (px), layout, deck, and where IoU >= 0.5 its per-corner
    error (share of the short side) and card-frame displacement."""
    from vision.cards import find_cards
    from vision.cards.geometry import quad_iou
    from vision.render.scene import render
    from vision.render.scene_layout import LAYOUTS
    from web.bench.cards import _scenes

    rows = []
    for i, spec in enumerate(_scenes(frames, seed)):
        image, truth = render(replace(spec, width=width, height=height))
        dets = find_cards(image)
        for c in truth.cards:
            if c.visible_fraction < 0.8:
                continue
            best = max(dets, key=lambda d: quad_iou(d.quad, c.quad), default=None)
            iou = quad_iou(best.quad, c.quad) if best is not None else 0.0
            row: dict[str, Any] = {
                "iou": float(iou),
                "side": short_side(c.quad),
                "layout": LAYOUTS[i % len(LAYOUTS)],
                "deck": c.deck,
            }
            if best is not None and iou >= 0.5:
                vec = card_frame_error(best.quad, c.quad)
                row["vec"] = vec.tolist()
                err = np.linalg.norm(matched_corners(best.quad, c.quad) - c.quad, axis=1) / row["side"]
                row["err"] = err.tolist()
            rows.append(row)
    return rows


def summary(rows: list[dict[str, Any]], min_iou: float) -> dict[str, Any]:
    """Per-corner percentiles (share of the short side) and the share of cards whose worst corner
    passes each of :data:`SHARES`, over the cards found at ``min_iou`` or more."""
    kept = [r for r in rows if "err" in r and r["iou"] >= min_iou]
    if not kept:
        return {"cards": len(rows), "found": 0}
    per = np.concatenate([r["err"] for r in kept])
    worst = np.array([max(r["err"]) for r in kept])
    return {
        "cards": len(rows),
        "found": len(kept),
        "per_corner": {f"p{q}": round(float(np.percentile(per, q)), 5) for q in (50, 90, 99)}
        | {"max": round(float(per.max()), 5)},
        "cards_worst_corner_over": {f"{s:g}": round(float((worst > s).mean()), 4) for s in SHARES},
    }


def bank_rows(rows: list[dict[str, Any]], min_iou: float = BANK_MIN_IOU) -> list[list[float]]:
    """The card-frame displacements of the cards found at ``min_iou`` or more, 8 numbers a card."""
    return [
        [round(float(v), 5) for v in np.asarray(r["vec"]).reshape(-1)]
        for r in rows
        if "vec" in r and r["iou"] >= min_iou
    ]


def finder_fingerprint() -> str:
    """sha256 of the card finder's code (every ``vision/cards/*.py``, names and contents, in order):
    which finder a bank measured."""
    folder = Path(__file__).resolve().parents[1] / "cards"
    h = hashlib.sha256()
    for f in sorted(folder.glob("*.py")):
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def bank_file(rows: list[list[float]], min_iou: float, seed: int, frames: int, frames_1080: int) -> str:
    """The JSON text of a bank (``models.training.augment.corner_bank`` reads ``rows``)."""
    about = (
        "Card finder corner errors on the cards bench's rendered scenes (web.bench.cards._scenes), every "
        f"true card >= 80 % visible whose best found quad has IoU >= {min_iou:g}: each card's top-left, "
        "top-right, bottom-right, bottom-left corner displacement (x, y) in the card's own frame, in "
        "shares of its short side (models.training.augment.AugmentConfig.corner_bank). Made by "
        "python -m web.bench.finder_corners --bank."
    )
    source = {
        "finder_sha256": finder_fingerprint(),
        "scenes_seed": seed,
        "frames_720p": frames,
        "frames_1080p": frames_1080,
        "min_iou": min_iou,
    }
    return json.dumps({"about": about, "source": source, "rows": rows}, separators=(",", ":"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m web.bench.finder_corners", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--frames", type=int, default=300, help="scenes at 1280 x 720")
    ap.add_argument("--frames-1080", type=int, default=120, help="scenes at 1920 x 1080")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bank", type=Path, help="write the IoU >= 0.9 cards' corner errors here")
    ap.add_argument("--loose-bank", type=Path, help="write the IoU >= 0.5 cards' corner errors here")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    rows = {
        "720p": measure(args.frames, args.seed, 1280, 720),
        "1080p": measure(args.frames_1080, args.seed, 1920, 1080),
    }
    out = {name: {f"iou{m:g}": summary(r, m) for m in (0.9, 0.5)} for name, r in rows.items()}
    for path, min_iou in ((args.bank, BANK_MIN_IOU), (args.loose_bank, LOOSE_MIN_IOU)):
        if path is None:
            continue
        bank = bank_rows(rows["720p"], min_iou) + bank_rows(rows["1080p"], min_iou)
        path.write_text(bank_file(bank, min_iou, args.seed, args.frames, args.frames_1080), encoding="utf-8")
        out[f"bank_iou{min_iou:g}"] = {"path": str(path), "rows": len(bank)}
    if args.json:
        print(json.dumps(out))
    else:
        for name, parts in out.items():
            print(name, json.dumps(parts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
