"""The server process the live benchmark measures (``python -m web.bench.live_server``).

``demo``: the Twin It demo scenario(s) in real time through the whole app; every rendered
frame's truth (time, capture clock, hand events) is written to ``--truth`` as JSON lines, for
scoring only: the app never sees it. ``--camera jpeg`` (the default): every frame of each
scenario is rendered beforehand (at ``t = k / fps``, JPEG, before the server starts; kept in
``--frames-cache``, :func:`web.capture.frames_cache_root`) and played as a webcam's MJPEG
stream, each frame decoded as it plays, so the camera costs what a real one costs;
``--camera render``: each frame rendered while it plays (the demo's camera; the renderer
then takes about half the server's CPU and much of its GIL). ``stream``: a 1280x720 scenario
clip looped at 30 fps through the same app, to measure the video stream and its cost.
``--deck DIR``: slaps judged against that enrolled deck.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn

from web.app import create_app

log = logging.getLogger(__name__)


def truth_writer(path: Path):
    out = path.open("w", encoding="utf-8")

    def on_truth(t: float, mono: float, truth: Any) -> None:
        events = [
            {"time": e.time, "kind": e.kind, "hand": e.hand_id, "seat": e.seat, "cards": list(e.card_ids)}
            for e in getattr(truth, "events", ())
        ]
        out.write(json.dumps({"t": t, "mono": mono, "events": events}) + "\n")
        out.flush()

    return on_truth


def looped_clip(seed: int, fps: float, seconds: float = 2.0):
    """A short rendered clip (with hands moving) rendered once, then looped at ``fps``."""
    from web.demo_session import load_scenario

    scenario = load_scenario("twinit", seed)
    clip = [image for _, image, _ in scenario.frames(fps, start=0.0, end=seconds)]

    def open_() -> Iterator[tuple[float, Any]]:
        start = time.monotonic()
        k = 0
        while True:
            t = k / fps
            delay = start + t - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            yield t, clip[k % len(clip)]
            k += 1

    return open_


def prerendered(
    seed: int, repeat: int, fps: float, cache: Path | None = None, check: bool = True
) -> list[list[Any]]:
    """The frames of scenarios ``seed .. seed + repeat - 1`` rendered to JPEG beforehand (kept in
    ``cache``, default :func:`web.capture.frames_cache_root`, and found there again; ``check``:
    a folder found is checked against the renderer, see :func:`web.capture.prerender`)."""
    from web.capture import prerender

    out = []
    for k in range(repeat):
        started = time.monotonic()
        frames, cached = prerender("twinit", seed + k, fps, cache, check=check)
        log.warning(
            "seed %d: %d frames %s in %.1f s",
            seed + k,
            len(frames),
            "found rendered beforehand" if cached else "rendered",
            time.monotonic() - started,
        )
        out.append(frames)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("demo", "stream"))
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fps", type=float, default=15.0)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--truth", type=Path)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--deck", type=Path, default=None, help="an enrolled Twin It deck's folder")
    parser.add_argument("--camera", choices=("jpeg", "render"), default="jpeg")
    parser.add_argument(
        "--frames-cache", type=Path, default=None, help="where frames rendered beforehand are kept"
    )
    parser.add_argument(
        "--frames-checked", action="store_true", help="frames found rendered beforehand are not checked again"
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    from web.demo_session import build_demo

    on_truth = truth_writer(args.truth) if args.truth else None
    played = None
    if args.what == "demo" and args.camera == "jpeg":
        played = prerendered(args.seed, args.repeat, args.fps, args.frames_cache, not args.frames_checked)
    ctx = build_demo(
        "twinit",
        args.seed,
        args.fps,
        on_truth=on_truth,
        repeat=args.repeat,
        port=args.port,
        data_dir=args.data,
        stream_fps=30.0,
        deck=args.deck,
        played=played,
    )
    if args.what == "stream":
        ctx.session.open_source = looped_clip(args.seed, args.fps)
    uvicorn.run(create_app(ctx), host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
