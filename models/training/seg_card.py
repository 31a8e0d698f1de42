"""The table segmenter's model card: what it is, how it was made, how well and how fast it works."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from models.files import SEG, sha256
from models.training.onnx_cpu import cpu_session
from models.training.seeding import TRAIN_THREADS


def input_size(width: int, height: int, long_side: float) -> tuple[int, int]:
    """The network input size of a frame (as ``vision.segmenter.input_size``: sides multiples of 16)."""
    s = long_side / max(width, height)
    return max(16, round(width * s / 16) * 16), max(16, round(height * s / 16) * 16)


def ms_per_frame(path: Path, width: int, height: int, long_side: int, repeat: int = 30) -> float:
    """Median ms of one ``width`` x ``height`` frame through the net alone (one onnxruntime thread)."""
    s = cpu_session(path)
    w, h = input_size(width, height, long_side)
    x = np.zeros((1, 3, h, w), np.float32)
    for _ in range(3):
        s.run(None, {"image": x})
    times = []
    for _ in range(repeat):
        t0 = time.thread_time()
        s.run(None, {"image": x})
        times.append((time.thread_time() - t0) * 1000)
    return float(np.median(times))


def _bench_line(bench: Path) -> dict:
    lines = [ln for ln in bench.read_text(encoding="utf-8").splitlines() if ln.strip().startswith("{")]
    if not lines:
        raise ValueError(
            f"bench file {bench}: no JSON object (expected `tableref bench cards --json` output)"
        )
    return json.loads(lines[-1])


def write_seg_card(folder: Path, bench: Path | None = None) -> Path:
    """Write ``table_seg.md`` from the files in ``folder`` (``bench``: a `tableref bench cards
    --json` output measured with these files, stored in the settings with their sha256)."""
    folder = Path(folder)
    meta_path = folder / SEG.meta
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    onnx_path = folder / SEG.onnx[0]
    digest = sha256(onnx_path)
    if bench is not None:
        meta["bench_cards"] = {"result": _bench_line(Path(bench)), "sha256": digest}
        meta_path.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    long_side = meta["input"]["long_side"]
    ms720 = ms_per_frame(onnx_path, 1280, 720, long_side)
    ms1080 = ms_per_frame(onnx_path, 1920, 1080, long_side)
    w, h = input_size(1280, 720, long_side)
    cfg = meta["config"]
    lines = [
        "# Model card: seg (table segmenter)",
        "",
        "Per-pixel maps of a whole table frame, for the card finder and the hands module",
        "(`vision/segmenter.py`): card *cores* (each visible card shrunk so touching cards' cores are",
        "disjoint), cards (visible area), card boundaries, hands and arms. Card instances are the",
        "connected components of the core map grown back into the card map; quads are then fitted",
        "and refined on the full-resolution image (`vision/cards/seg_candidates.py`,",
        "`vision/cards/finder.py`: the finder takes them where its classical sources found no card).",
    ]
    if len(meta["channels"]) > 4:
        lines += [
            "",
            "Card instances, CenterNet-style (a second head at 1/4 resolution, upsampled): a card-centre",
            "map with one peak per card at least half visible (touching cards and a pile's top card each",
            "their own) and, at each pixel, the four corners of the card centred there (clockwise, offsets",
            f"in units of {meta.get('offset_unit', 1.0):g} map pixels). Each peak's quad is a candidate of",
            "the finder, fitted to the image's edges and refined at full resolution like the others",
            "(`Segmentation.card_quads`, `vision/cards/finder.py` `_instance_candidates`).",
        ]
    lines += [
        "",
        "## Input",
        f"The BGR frame resized (INTER_AREA) so its long side is ~{long_side} px, each side rounded to a",
        f"multiple of 16 (1280x720 -> {w}x{h}), divided by the 97th percentile of its brightest channel",
        "(`models.preprocess.normalise_exposure`), minus 0.5, as (1, 3, H, W) float32. Output: (1,"
        f" {len(meta['channels'])},",
        f"H/{meta['output_stride']}, W/{meta['output_stride']}) logits of {', '.join(meta['channels'][:5])}"
        + (", then the 8 corner offsets." if len(meta["channels"]) > 5 else "."),
        "",
        "## Data recipe and seed",
        f"Seed {cfg['seed']}. {meta['recipe']}",
        "",
        "Config: `" + json.dumps(cfg) + "`",
        "",
        f"Rebuild: `{meta.get('command', 'tableref train seg')}` ({meta['render_seconds']} s rendering with"
        f" {cfg['workers']} processes + training, {meta['train_seconds']} s in all on this machine,"
        f" {TRAIN_THREADS} torch thread, CPU shared with other jobs"
        + (f": {meta['rebuild_load']}" if meta.get("rebuild_load") else "")
        + "; seeded, deterministic kernels).",
        "",
        "## Size and speed",
        f"- `{SEG.onnx[0]}`: {onnx_path.stat().st_size} bytes, sha256 `{digest}`",
        f"- the net alone, one onnxruntime thread (CPU time): {ms720:.2f} ms per 1280x720 frame,"
        f" {ms1080:.2f} ms per 1920x1080 frame (same input size)",
        "",
        "## Held-out validation (rendered frames)",
        "Pixel IoU at p = 0.5; centres: peaks (3 x 3 maxima >= 0.3) within one map pixel of a true centre,"
        " and the median corner error of those, map pixels.",
        "",
        "`" + json.dumps(meta["validation"]) + "`",
        "",
        "## Benchmark (`tableref bench cards --quick --json`, with these files)",
    ]
    stored = meta.get("bench_cards")
    if stored and stored.get("sha256") == digest:
        lines.append("`" + json.dumps(stored["result"]) + "`")
    else:
        lines.append("Not measured with these files yet.")
    path = folder / SEG.card
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
