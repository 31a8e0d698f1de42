"""``tableref render``: render a table scene (or a scenario) with its exact truth.

    tableref render --seed 3 --deck themind --layout rows --hands 1 --out scene.png --truth scene.json
    tableref render --scenario twinit_demo --seed 0 --video demo.mp4 --truth demo.json
    tableref render --scenario twinit_demo --video frames/ --start 10 --end 20 --fps 10

A scenario written to a folder gives ``frame_00000.jpg``... and ``truth.jsonl`` (one frame's
truth per line); ``--truth`` gets the scenario's own truth (its intended referee actions) and,
for a single image, the frame's truth.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from vision.errors import InputError

SCENARIOS = ("twinit_demo", "twixt_demo")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from vision.render.faces import DECKS
    from vision.render.scene_layout import LAYOUTS

    parser.add_argument("--seed", type=int, default=0, help="scene or scenario seed (default 0)")
    parser.add_argument("--deck", choices=DECKS, default="twinit", help="card deck (default twinit)")
    parser.add_argument(
        "--layout", choices=LAYOUTS, default="scattered", help="card layout (default scattered)"
    )
    parser.add_argument(
        "--cards", type=int, default=None, help="number of cards (default: drawn from the seed)"
    )
    parser.add_argument(
        "--hands", type=int, default=None, help="number of hands 0..4 (default: 0..2 from the seed)"
    )
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument("--out", type=Path, default=None, help="image to write (.png or .jpg)")
    parser.add_argument("--truth", type=Path, default=None, help="truth JSON to write")
    parser.add_argument("--scenario", choices=SCENARIOS, default=None, help="render a scenario instead")
    parser.add_argument("--players", type=int, default=None, help="players for the scenario (2..4)")
    parser.add_argument(
        "--video", type=Path, default=None, help="scenario output: OUT.mp4 or a folder of frames"
    )
    parser.add_argument("--fps", type=float, default=15.0, help="scenario frames per second (default 15)")
    parser.add_argument("--start", type=float, default=0.0, help="scenario start time in seconds")
    parser.add_argument(
        "--end", type=float, default=None, help="scenario end time in seconds (default: its end)"
    )


def _check_size(args: argparse.Namespace) -> None:
    if not (64 <= args.width <= 4096 and 64 <= args.height <= 4096):
        raise InputError(f"size {args.width}x{args.height}: expected 64..4096 px a side")


def _write_json(path: Path, obj: object) -> None:
    try:
        path.write_text(json.dumps(obj, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write truth {str(path)!r}: {exc.strerror or exc}") from exc


def _write_image(path: Path, img) -> None:  # type: ignore[no-untyped-def]
    import cv2

    if path.suffix.lower() not in (".png", ".jpg", ".jpeg", ".bmp"):
        raise InputError(f"image {str(path)!r}: expected a .png, .jpg or .bmp file name")
    if not path.parent.exists() or not cv2.imwrite(str(path), img):
        raise InputError(f"cannot write image {str(path)!r}: its folder must exist and be writable")


def run(args: argparse.Namespace) -> int:
    _check_size(args)
    if args.scenario is not None:
        return _run_scenario(args)
    if args.video is not None:
        raise InputError("--video needs --scenario NAME")
    from vision.render.scene import random_scene, render

    if args.hands is not None and not 0 <= args.hands <= 4:
        raise InputError(f"--hands {args.hands}: expected 0..4")
    if args.cards is not None and not 1 <= args.cards <= 120:
        raise InputError(f"--cards {args.cards}: expected 1..120")
    spec = random_scene(
        args.seed,
        args.width,
        args.height,
        deck=args.deck,
        layout=args.layout,
        n_cards=args.cards,
        hands=args.hands,
    )
    img, truth = render(spec)
    if args.out is not None:
        _write_image(args.out, img)
    if args.truth is not None:
        _write_json(args.truth, truth.to_json())
    if args.out is None and args.truth is None:
        json.dump(truth.to_json(), sys.stdout)
        sys.stdout.write("\n")
    return 0


def _run_scenario(args: argparse.Namespace) -> int:
    import cv2

    from vision.render.scenario import twinit_demo_scenario, twixt_demo_scenario

    if args.fps <= 0 or args.fps > 120:
        raise InputError(f"--fps {args.fps}: expected 0 < fps <= 120")
    if args.players is not None and not 2 <= args.players <= 4:
        raise InputError(f"--players {args.players}: expected 2..4")
    if args.scenario == "twixt_demo":
        if args.players not in (None, 2):
            raise InputError(f"--players {args.players}: Twixt is played by 2")
        sc = twixt_demo_scenario(args.seed, 8, args.width, args.height)
    else:
        sc = twinit_demo_scenario(args.seed, args.players, args.width, args.height)
    if args.start < 0 or args.start > sc.duration:
        raise InputError(
            f"--start {args.start}: expected 0..{sc.duration} (the scenario's length in seconds)"
        )
    if args.truth is not None:
        _write_json(args.truth, sc.truth_json())
    if args.video is None:
        if args.truth is None:
            json.dump(sc.truth_json(), sys.stdout)
            sys.stdout.write("\n")
        return 0
    out: Path = args.video
    writer = None
    lines = None
    if out.suffix.lower() in (".mp4", ".avi"):
        if not out.parent.exists():
            raise InputError(f"cannot write video {str(out)!r}: its folder does not exist")
        fourcc = cv2.VideoWriter_fourcc(*("mp4v" if out.suffix.lower() == ".mp4" else "MJPG"))
        writer = cv2.VideoWriter(str(out), fourcc, args.fps, (args.width, args.height))
        if not writer.isOpened():
            raise InputError(f"cannot write video {str(out)!r}: no encoder for {out.suffix}")
        truth_lines = out.with_suffix(".jsonl")
    else:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create frame folder {str(out)!r}: {exc.strerror or exc}") from exc
        truth_lines = out / "truth.jsonl"
    try:
        lines = truth_lines.open("w", encoding="utf-8")
        for k, (_t, img, truth) in enumerate(sc.frames(args.fps, args.start, args.end)):
            if writer is not None:
                writer.write(img)
            else:
                cv2.imwrite(str(out / f"frame_{k:05d}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
            lines.write(json.dumps(truth.to_json()) + "\n")
    except OSError as exc:
        raise InputError(f"cannot write {str(truth_lines)!r}: {exc.strerror or exc}") from exc
    finally:
        if writer is not None:
            writer.release()
        if lines is not None:
            lines.close()
    return 0
