"""``tableref calibrate IMAGE``: find the board (and optionally the camera's intrinsics), write the
table's calibration profile, or reuse it: when the profile exists and its board still fits the
image it is kept; when the board or camera moved, the board is found again and the profile updated.

    tableref calibrate frame.png --table kitchen --camera usb0 [--dir profiles] [--size 24]
        [--colours red,black] [--corners x1,y1,...] [--chessboard a.png b.png c.png]
        [--pattern 9x6] [--square-mm 25] [--seats top=0,bottom=1] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from calibration.board_finder import find_board
from calibration.errors import InputError
from calibration.intrinsics import calibrate_camera, undistort
from calibration.monitor import check_board
from calibration.profile import EDGES, BoardCalibration, CalibrationProfile, profile_path
from web.commands.board import load_image, parse_corners, spec_from_args


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a frame from the camera showing the board")
    parser.add_argument("--table", default="table", help="the table's name (default 'table')")
    parser.add_argument("--camera", default="camera", help="the camera's name (default 'camera')")
    parser.add_argument("--dir", default="profiles", help="where profiles live (default ./profiles)")
    parser.add_argument("--size", type=int, default=None, help="holes per side (default 24; Go: 19)")
    parser.add_argument("--kind", choices=("twixt", "go"), default=None)
    parser.add_argument("--colours", default=None, help="the two piece colours (default red,black)")
    parser.add_argument("--corners", default=None, help="board outline x1,y1,...,x4,y4 (manual fallback)")
    parser.add_argument("--chessboard", nargs="*", default=(), help="photos of a printed chessboard")
    parser.add_argument("--pattern", default="9x6", help="chessboard inner corners, COLSxROWS (default 9x6)")
    parser.add_argument("--square-mm", type=float, default=25.0, help="chessboard square side (default 25)")
    parser.add_argument("--seats", default=None, help="edge=player pairs, e.g. top=0,bottom=1")
    parser.add_argument("--refind", action="store_true", help="find the board again even if the profile fits")
    parser.add_argument("--json", action="store_true", help="print only the JSON result")


def _seats(text: str) -> dict[str, int]:
    out = {}
    for part in text.split(","):
        edge, _, seat = part.partition("=")
        if edge.strip() not in EDGES or not seat.strip().isdigit():
            raise InputError(
                f"--seats {text!r}: expected edge=seat pairs like top=0,bottom=1 (edges {EDGES})"
            )
        out[edge.strip()] = int(seat)
    return out


def run(args: argparse.Namespace) -> int:
    spec = spec_from_args(args.size, args.kind, args.colours)
    image = load_image(args.image)
    h, w = image.shape[:2]
    path = profile_path(args.dir, args.table, args.camera)
    profile = CalibrationProfile.load(path) if path.exists() else None
    if profile is not None and profile.image_size != (w, h):
        raise InputError(
            f"image {args.image!r} is {w}x{h} but profile {str(path)!r} is for {profile.image_size}"
        )
    if profile is None:
        profile = CalibrationProfile(args.table, args.camera, (w, h))
    if args.chessboard:
        cols, _, rows = args.pattern.partition("x")
        if not (cols.isdigit() and rows.isdigit()):
            raise InputError(f"--pattern {args.pattern!r}: expected COLSxROWS like 9x6")
        intr = calibrate_camera(
            [load_image(p) for p in args.chessboard], (int(cols), int(rows)), args.square_mm
        )
        from dataclasses import replace

        profile = replace(profile, intrinsics=intr)
    frame = undistort(image, profile.intrinsics) if profile.intrinsics is not None else image
    status = "found"
    board = profile.board
    if board is not None and not args.refind and args.corners is None and board.size == spec.size:
        check = check_board(frame, board.location((w, h)), spec.valid_mask(), spec.pattern)
        if check.status == "ok":
            status = "reused"
        elif check.status == "moved" and check.location is not None:
            status = "re-found"
            profile = profile.with_board(
                BoardCalibration.from_location(spec.kind, spec.colours, check.location)
            )
        else:
            raise InputError(
                f"the profile's board no longer fits and no board was found again: {check.reason}"
            )
    else:
        corners = parse_corners(args.corners) if args.corners else None
        loc = find_board(frame, spec.size, corners=corners, valid=spec.valid_mask(), pattern=spec.pattern)
        profile = profile.with_board(BoardCalibration.from_location(spec.kind, spec.colours, loc))
    if args.seats:
        profile = profile.with_seats(_seats(args.seats))
    profile.save(path)
    result = {"status": status, "profile": str(Path(path)), **profile.to_json()}
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
    else:
        assert profile.board is not None
        sys.stdout.write(
            f"board {status}: {spec.kind} {spec.size}x{spec.size}, evidence {profile.board.evidence:.3f}; "
            f"profile written to {path}\n"
        )
    return 0
