"""``tableref match A.png B.png [--json]`` or ``tableref match --pairs PAIRS.csv [--json]``.

Judges whether two rectified card crops show the same Twin It pattern. With ``--pairs`` each line
``path_a,path_b`` is one pair; the models load once and each pair prints one JSON object
``{"a", "b", "verdict", "p_same"}``.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from web.cli import CliError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="*", type=Path, help="two card crops A.png B.png")
    parser.add_argument("--pairs", type=Path, help="CSV file, one pair per line: path_a,path_b")
    parser.add_argument("--json", action="store_true", help="print JSON objects")
    parser.add_argument("--models", type=Path, default=None, help="model folder (default: models/)")


def read_image(path: Path) -> np.ndarray:
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise CliError(f"image {path}: not a readable image file (expected PNG or JPEG)")
    return img


def read_pairs(path: Path) -> list[tuple[Path, Path]]:
    if not path.is_file():
        raise CliError(f"pairs file {path}: no such file (expected a CSV of path_a,path_b lines)")
    pairs = []
    with path.open(newline="", encoding="utf-8") as f:
        for n, row in enumerate(csv.reader(f), 1):
            if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
                continue
            if len(row) != 2:
                raise CliError(f"pairs file {path} line {n}: expected 'path_a,path_b', got {','.join(row)!r}")
            a, b = (Path(p.strip()) for p in row)
            pairs.append(
                (a if a.is_absolute() else path.parent / a, b if b.is_absolute() else path.parent / b)
            )
    return pairs


def run(args: argparse.Namespace) -> int:
    if args.pairs is not None and args.images:
        raise CliError("give either two images or --pairs PAIRS.csv, not both")
    if args.pairs is None and len(args.images) != 2:
        raise CliError(f"expected two card images A.png B.png, got {len(args.images)}")
    pairs = read_pairs(args.pairs) if args.pairs is not None else [(args.images[0], args.images[1])]

    from vision.identity import PatternJudge

    judge = PatternJudge(args.models)
    cache: dict[Path, object] = {}
    for a, b in pairs:
        for p in (a, b):
            if p not in cache:
                cache[p] = judge.signature(read_image(p))
        result = judge.judge_signatures(cache[a], cache[b])  # type: ignore[arg-type]
        if args.json or args.pairs is not None:
            obj = {"a": str(a), "b": str(b), "verdict": result.verdict, "p_same": result.p_same}
            sys.stdout.write(json.dumps(obj) + "\n")
        else:
            sys.stdout.write(f"{result.verdict} (p_same {result.p_same:.4f})\n")
    return 0
