"""``tableref bench SUITE [--quick] [--json] [--seed N] [--enrolled] [--camera jpeg|render]``: speed and
accuracy figures.

Suites: cards, identity, referee, twixt, live (one module each in :mod:`web.bench`). Every suite
is seeded and repeatable; timings are medians and p95 over many runs, with baselines measured in
the same run. ``live --enrolled`` first enrols the scenarios' deck (the rendered enrolment) and
judges slaps against it; ``live --camera render`` renders each demo frame in the server while it
plays instead of playing frames rendered beforehand (:data:`web.bench.live.CAMERA`).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time

SUITES = ("cards", "identity", "referee", "twixt", "live")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("suite", choices=SUITES, help="what to measure")
    parser.add_argument("--quick", action="store_true", help="a shorter run with the same shape")
    parser.add_argument("--json", action="store_true", help="print only the JSON object")
    parser.add_argument("--seed", type=int, default=0, help="seed of every random choice (default 0)")
    parser.add_argument(
        "--enrolled",
        action="store_true",
        help="live: enrol the scenarios' deck first (rendered enrolment) and judge slaps against it",
    )
    parser.add_argument(
        "--camera",
        choices=("jpeg", "render"),
        default=None,
        help="live: the demo games' camera: frames rendered beforehand and played as a webcam's MJPEG "
        "(jpeg, the default) or rendered in the server as they play (render)",
    )


def run(args: argparse.Namespace) -> int:
    extra: dict[str, object] = {}
    if args.enrolled:
        if args.suite != "live":
            from web.cli import CliError

            raise CliError(f"--enrolled: only the live bench enrols a deck, not {args.suite!r}")
        extra["enrolled"] = True
    if args.camera is not None:
        if args.suite != "live":
            from web.cli import CliError

            raise CliError(f"--camera: only the live bench has a camera, not {args.suite!r}")
        extra["camera"] = args.camera
    module = importlib.import_module(f"web.bench.{args.suite}")
    t0 = time.perf_counter()
    result = module.run(quick=args.quick, seed=args.seed, **extra)
    elapsed = time.perf_counter() - t0
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
    else:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
        sys.stdout.write(f"({args.suite} bench took {elapsed:.1f} s)\n")
    return 0
