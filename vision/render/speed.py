"""Renderer speed on one core: ``python -m vision.render.speed [--frames N] [--json]``.

Measures, at 1280 x 720 with one thread (``OMP_NUM_THREADS=1``, ``cv2.setNumThreads(1)``):

- ``random``: a new random scene every frame (all decks and layouts, 0..2 hands, random camera,
  light, blur, noise and JPEG), textures warm as in a training-set run;
- ``scenario``: the Twin It demo's frames at 15 frames/s, hands moving;
- ``baseline``: the card compositing stage done the naive way (each card warped over the whole
  frame) against the renderer's bounding-box warps, on the same scenes in the same run;
- ``reference_warp_ms``: one full-frame ``cv2.warpPerspective``, to compare machines and load.

Per-frame median and p95 in milliseconds; frames/s = 1000 / median. Both the process's CPU
time (what one core spends, the figure that holds on a shared machine) and wall time are given.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import time

import cv2
import numpy as np

from vision.render import scene as scene_mod
from vision.render.faces import CARD_SIZE_MM, DECKS, deck_of
from vision.render.scenario import twinit_demo_scenario
from vision.render.scene import random_scene, render
from vision.render.scene_camera import Camera
from vision.render.scene_layout import LAYOUTS


def _stats(cpu_ms: list[float], wall_ms: list[float]) -> dict[str, float]:
    a, w = np.asarray(cpu_ms), np.asarray(wall_ms)
    med = float(np.median(a))
    return {
        "frames": len(cpu_ms),
        "ms_median": round(med, 2),
        "ms_p95": round(float(np.percentile(a, 95)), 2),
        "fps_median": round(1000.0 / med, 1),
        "fps_throughput": round(1000.0 * len(a) / float(a.sum()), 1),
        "wall_ms_median": round(float(np.median(w)), 2),
        "wall_ms_p95": round(float(np.percentile(w, 95)), 2),
    }


class _Clock:
    """CPU and wall milliseconds of a block."""

    def __init__(self) -> None:
        self.cpu: list[float] = []
        self.wall: list[float] = []

    def __enter__(self) -> _Clock:
        self._c, self._w = time.process_time(), time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.cpu.append((time.process_time() - self._c) * 1000)
        self.wall.append((time.perf_counter() - self._w) * 1000)


def _specs(n: int, width: int, height: int) -> list:
    return [
        random_scene(
            1000 + i, width, height, deck=DECKS[i % len(DECKS)], layout=LAYOUTS[(i // 4) % len(LAYOUTS)]
        )
        for i in range(n)
    ]


def _composite_cards(spec, naive: bool) -> float:  # type: ignore[no-untyped-def]
    """ms to composite the spec's cards over its table image, naive or by bounding box."""
    cam = Camera.build(spec.camera, spec.width, spec.height)
    img = scene_mod._table_image(spec.table, cam).copy()
    idmap = np.full((spec.height, spec.width), -1, np.int32)
    jobs = []
    for i, card in enumerate(sorted(spec.cards, key=lambda c: c.z)):
        level = scene_mod._mip(cam.px_per_mm_at(card.x_mm, card.y_mm))
        tex = scene_mod._card_texture(card.identity, card.style, card.face_up, level)
        w_mm, h_mm = CARD_SIZE_MM[deck_of(card.identity)]
        M = cam.H @ scene_mod._object_to_table(
            w_mm, h_mm, tex.shape[1], tex.shape[0], card.x_mm, card.y_mm, card.angle_deg
        )
        jobs.append((i, tex, M))
    t0 = time.process_time()
    for i, tex, M in jobs:
        if naive:
            warped = cv2.warpPerspective(tex, M, (spec.width, spec.height), flags=cv2.INTER_LINEAR)
            a = warped[:, :, 3:4].astype(np.float32) / 255.0
            img = (img * (1 - a) + warped[:, :, :3] * a).astype(np.uint8)
            idmap[warped[:, :, 3] > 127] = i
        else:
            scene_mod._place(img, idmap, i, tex, M, 0.0, (0, 0))
    return (time.process_time() - t0) * 1000


def measure(frames: int = 120, width: int = 1280, height: int = 720) -> dict:
    cv2.setNumThreads(1)
    specs = _specs(frames, width, height)
    for s in specs:  # warm: face textures and table tiles, as in a long training-set run
        render(s)
    random_clock = _Clock()
    for s in specs:
        with random_clock:
            render(s)

    sc = twinit_demo_scenario(0, width=width, height=height)
    claim = next(a for a in sc.actions if a["action"]["type"] == "claim")
    t_start = max(0.0, claim["t"] - 4.0)
    n_sc = max(30, frames // 2)
    times = [t_start + k / 15.0 for k in range(n_sc)]
    for t in times[:5]:
        sc.render_at(t)
    scenario_clock = _Clock()
    for t in times:
        with scenario_clock:
            sc.render_at(t)

    base_specs = specs[: max(20, frames // 4)]
    naive = [_composite_cards(s, True) for s in base_specs]
    bbox = [_composite_cards(s, False) for s in base_specs]

    ref = np.random.default_rng(0).integers(0, 255, (height, width, 3), dtype=np.uint8)
    M = np.array([[1.01, 0.02, 3.0], [0.01, 0.99, 2.0], [1e-5, 2e-5, 1.0]])
    ref_clock = _Clock()
    for _ in range(30):
        with ref_clock:
            cv2.warpPerspective(ref, M, (width, height))

    return {
        "width": width,
        "height": height,
        "threads": cv2.getNumThreads(),
        "random": _stats(random_clock.cpu, random_clock.wall),
        "scenario": _stats(scenario_clock.cpu, scenario_clock.wall),
        "baseline": {
            "frames": len(base_specs),
            "naive_cards_ms_median": round(float(np.median(naive)), 2),
            "bbox_cards_ms_median": round(float(np.median(bbox)), 2),
            "speedup": round(float(np.median(naive) / max(np.median(bbox), 1e-6)), 1),
        },
        "reference_warp_ms": round(float(np.median(ref_clock.cpu)), 2),
        "loadavg_1min": round(os.getloadavg()[0], 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision.render.speed", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--frames", type=int, default=120, help="random scenes to time (default 120)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.frames < 10:
        parser.error(f"--frames {args.frames}: expected >= 10")
    result = measure(args.frames)
    if args.json:
        print(json.dumps(result))
    else:
        r, s, b = result["random"], result["scenario"], result["baseline"]
        for name, x in (("random scenes", r), ("Twin It scenario", s)):
            print(
                f"{name} 1280x720, 1 thread, CPU time: median {x['ms_median']} ms"
                f" ({x['fps_median']} frames/s; {x['fps_throughput']} frames/s over the run),"
                f" p95 {x['ms_p95']} ms over {x['frames']} frames"
                f" (wall: median {x['wall_ms_median']} ms, p95 {x['wall_ms_p95']} ms)"
            )
        print(
            f"card compositing: bounding box {b['bbox_cards_ms_median']} ms vs naive full frame "
            f"{b['naive_cards_ms_median']} ms ({b['speedup']}x)"
        )
        ref, load = result["reference_warp_ms"], result["loadavg_1min"]
        print(f"reference full-frame warp {ref} ms CPU; load average {load}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
