"""``tableref board IMAGE [--size 24] [--colours red,black] [--corners x1,y1,...,x4,y4] [--json]``.

Finds the board (or uses the given corners: the board's outline or its lattice's corner points),
reads every hole and link, and prints ``{"size", "corners", "matrix", "links", "confidence"}``:
``corners`` are the image positions of the lattice's four corner points (top-left, top-right,
bottom-right, bottom-left; on Twixt, where the corner holes would be); matrix row 0 is the lattice row nearest
the image's top, column 0 its left end; 0 empty, 1 first colour, 2 second. No board found: exit 2
with the reason.
"""

from __future__ import annotations

import argparse
import json
import sys

import cv2
import numpy as np

from calibration.board_finder import find_board
from vision.board.reader import BoardReader
from vision.board.spec import BoardSpec
from vision.errors import InputError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a photo or frame showing the board")
    parser.add_argument("--size", type=int, default=None, help="holes per side (default 24; Go: 19)")
    parser.add_argument(
        "--kind", choices=("twixt", "go"), default=None, help="board kind (default from --size)"
    )
    parser.add_argument(
        "--colours", default=None, help="the two piece colours (default red,black; Go: black,white)"
    )
    parser.add_argument(
        "--corners",
        default=None,
        help="board outline or lattice corners x1,y1,...,x4,y4 (skips outline finding)",
    )
    parser.add_argument("--json", action="store_true", help="print only the JSON object")


def parse_corners(text: str) -> np.ndarray:
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        values = []
    if len(values) != 8:
        raise InputError(f"--corners {text!r}: expected eight numbers x1,y1,x2,y2,x3,y3,x4,y4")
    return np.array(values, np.float64).reshape(4, 2)


def spec_from_args(size: int | None, kind: str | None, colours: str | None) -> BoardSpec:
    kind = kind or ("go" if size == 19 else "twixt")
    size = size or (19 if kind == "go" else 24)
    default = ("black", "white") if kind == "go" else ("red", "black")
    names = tuple(c.strip().lower() for c in colours.split(",")) if colours else default
    if len(names) != 2:
        raise InputError(f"--colours {colours!r}: expected two colour names like red,black")
    return BoardSpec(kind, size, names)  # type: ignore[arg-type]


def load_image(path: str) -> np.ndarray:
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise InputError(f"image {path!r}: not a readable image file (expected PNG, JPEG, ...)")
    return image


def run(args: argparse.Namespace) -> int:
    spec = spec_from_args(args.size, args.kind, args.colours)
    image = load_image(args.image)
    corners = parse_corners(args.corners) if args.corners else None
    loc = find_board(image, spec.size, corners=corners, valid=spec.valid_mask(), pattern=spec.pattern)
    reading = BoardReader(spec, loc).read(image)
    out = reading.to_json(loc.corners)
    if args.json:
        sys.stdout.write(json.dumps(out) + "\n")
        return 0
    symbols = {0: ".", 1: spec.colours[0][0].upper(), 2: spec.colours[1][0].lower()}
    valid = spec.valid_mask()
    sys.stdout.write(f"{spec.kind} {spec.size}x{spec.size}, lattice evidence {loc.evidence:.3f}\n")
    for r in range(spec.size):
        row = "".join(
            " "
            if not valid[r, c]
            else ("?" if reading.matrix[r, c] < 0 else symbols[int(reading.guess[r, c])])
            for c in range(spec.size)
        )
        sys.stdout.write(row + "\n")
    sys.stdout.write(f"links: {len(reading.links)}, confidence {out['confidence']}\n")
    sys.stdout.write(json.dumps(out) + "\n")
    return 0
