"""``tableref recognize IMAGE [--json] [--out ANNOTATED.png]``: every card found in one image."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from vision.cards import find_cards, rectify
from vision.errors import InputError
from vision.sources import read_image

DECKS = ("twinit", "themind", "trio", "lineit")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a photo or frame (PNG, JPEG, ...)")
    parser.add_argument("--json", action="store_true", help="print the cards as one JSON object")
    parser.add_argument("--out", metavar="ANNOTATED.png", help="write the image with the cards drawn")
    parser.add_argument(
        "--deck",
        choices=DECKS,
        help="the deck on the table: fills each card's identity (numbers read; Twin It patterns grouped "
        "by the judge); without it identities stay null",
    )
    parser.add_argument(
        "--models", type=Path, default=None, help="folder of the ONNX models (default models/)"
    )


def identities(
    image: np.ndarray, quads: list[np.ndarray], deck: str, models: Path | None
) -> list[tuple[str | None, float]]:
    """(identity or None when uncertain, confidence) of each card under ``quads``.

    Number decks: the reader's number (and colour). Twin It has no catalogue: cards the judge rules
    the same share a group label (``twinit:g1``, ``twinit:g2``...); a card any of whose comparisons
    is uncertain gets None rather than a guess.
    """
    from vision.identity import NumberReader, PatternJudge

    crops = [rectify(image, q) for q in quads]
    if deck != "twinit":
        reader = NumberReader(models)
        out: list[tuple[str | None, float]] = []
        for reading in reader.read_many(crops, deck):
            ident = None if reading.uncertain else NumberReader.identity(reading, deck)
            out.append((ident, reading.confidence))
        return out
    judge = PatternJudge(models)
    sigs = judge.signatures(crops)
    n = len(sigs)
    parent = list(range(n))
    unsure = [False] * n
    confidence = [1.0] * n

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    for (i, j), p in zip(pairs, judge.p_same_many([(sigs[i], sigs[j]) for i, j in pairs]), strict=True):
        verdict = judge.verdict(float(p)) if sigs[i].square == sigs[j].square else "different"
        if verdict == "uncertain":
            unsure[i] = unsure[j] = True
            continue
        sure = float(p) if verdict == "same" else 1.0 - float(p)
        confidence[i] = min(confidence[i], sure)
        confidence[j] = min(confidence[j], sure)
        if verdict == "same":
            parent[root(i)] = root(j)
    labels: dict[int, str] = {}
    result: list[tuple[str | None, float]] = []
    for i in range(n):
        label = labels.setdefault(root(i), f"twinit:g{len(labels) + 1}")
        result.append((None if unsure[i] else label, round(confidence[i], 6)))
    return result


def annotate(image: np.ndarray, quads: list[np.ndarray], confidences: list[float]) -> np.ndarray:
    """A copy of ``image`` with each quad outlined, its first corner marked and its confidence."""
    out = image.copy()
    thick = max(2, round(max(image.shape[:2]) / 500))
    for i, (q, c) in enumerate(zip(quads, confidences, strict=True)):
        pts = np.round(q).astype(np.int32)
        colour = (0, 200, 0) if c >= 0.6 else (0, 200, 255)
        cv2.polylines(out, [pts], True, colour, thick, cv2.LINE_AA)
        cv2.circle(out, tuple(int(v) for v in pts[0]), 2 * thick, (0, 0, 255), -1)
        cv2.putText(
            out,
            f"{i}:{c:.2f}",
            tuple(int(v) for v in pts[0] + 4 * thick),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.4 * thick,
            colour,
            max(1, thick // 2),
            cv2.LINE_AA,
        )
    return out


def run(args: argparse.Namespace) -> int:
    image = read_image(args.image)
    t0 = time.perf_counter()
    dets = find_cards(image)
    ms = (time.perf_counter() - t0) * 1000.0
    h, w = image.shape[:2]
    if args.out:
        ok = cv2.imwrite(args.out, annotate(image, [d.quad for d in dets], [d.confidence for d in dets]))
        if not ok:
            raise InputError(f"--out {args.out!r}: cannot write an image there (use a .png or .jpg path)")
    ids: list[tuple[str | None, float]] = [(None, 0.0)] * len(dets)
    if args.deck and dets:
        ids = identities(image, [d.quad for d in dets], args.deck, args.models)
    if args.json:
        cards = [{**d.to_json(), "identity": ident} for d, (ident, _conf) in zip(dets, ids, strict=True)]
        result = {"width": w, "height": h, "cards": cards}
        sys.stdout.write(json.dumps(result) + "\n")
    else:
        sys.stdout.write(f"{args.image}: {w}x{h}, {len(dets)} cards ({ms:.0f} ms)\n")
        for i, d in enumerate(dets):
            corners = " ".join(f"({x:.1f},{y:.1f})" for x, y in d.quad)
            ident = ids[i][0] or ("uncertain" if args.deck else "-")
            sys.stdout.write(f"  {i}: {corners} confidence {d.confidence:.2f} identity {ident}\n")
    return 0
