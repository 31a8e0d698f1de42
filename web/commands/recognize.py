"""``tableref recognize IMAGE [--json] [--out ANNOTATED.png]``: every card found in one image."""

from __future__ import annotations

import argparse
import json
import sys
import time

import cv2
import numpy as np

from vision.cards import find_cards
from vision.errors import InputError
from vision.sources import read_image


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a photo or frame (PNG, JPEG, ...)")
    parser.add_argument("--json", action="store_true", help="print the cards as one JSON object")
    parser.add_argument("--out", metavar="ANNOTATED.png", help="write the image with the cards drawn")


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
    if args.json:
        result = {"width": w, "height": h, "cards": [{**d.to_json(), "identity": None} for d in dets]}
        sys.stdout.write(json.dumps(result) + "\n")
    else:
        sys.stdout.write(f"{args.image}: {w}x{h}, {len(dets)} cards ({ms:.0f} ms)\n")
        for i, d in enumerate(dets):
            corners = " ".join(f"({x:.1f},{y:.1f})" for x, y in d.quad)
            sys.stdout.write(f"  {i}: {corners} confidence {d.confidence:.2f}\n")
    return 0
