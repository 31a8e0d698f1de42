"""Train the table segmenter on rendered frames, validate it on held-out ones, export it to ONNX.

``tableref train seg [--quick|--tiny] [--out DIR] [--seed N] [--steps N]``: has the training
frames rendered (by the frame maker the command hands in, ``vision.cards.seg_frames.make_frames``,
in two worker processes), trains :class:`SegNet` on random
crops (one torch thread, deterministic kernels), measures pixel IoU of each output on held-out
frames, exports ``table_seg.onnx`` with its settings ``table_seg.json`` and writes the model card.
"""

from __future__ import annotations

import io
import json
import logging
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from models.files import SEG, sha256
from models.training.seeding import seed_everything
from models.training.seg_data import OUTPUT_STRIDE, CropSampler, FrameMaker, SegFrame
from models.training.seg_net import SegNet

log = logging.getLogger(__name__)

CHANNELS = ("core", "card", "boundary", "hand")


@dataclass(frozen=True)
class SegConfig:
    seed: int = 0
    frames: int = 800
    """Rendered training frames (frame indices 0 .. frames - 1)."""
    val_frames: int = 60
    steps: int = 1500
    batch: int = 8
    crop: tuple[int, int] = (256, 160)
    """Training crop, w x h at network input scale."""
    input_long: int = 384
    """Long side of the network input at run time."""
    jitter: tuple[float, float] = (0.8, 1.25)
    """Training frames are scaled to ``input_long`` times a factor drawn in this range."""
    widths: tuple[int, int, int] = (16, 32, 48)
    lr: float = 4e-3
    weight_decay: float = 1e-4
    pos_weight: tuple[float, float, float, float] = (2.0, 1.0, 2.0, 1.0)
    """BCE weight of the positive pixels, per channel."""
    workers: int = 2
    """Processes rendering the frames (the frames do not depend on it)."""


CONFIGS = {
    "full": SegConfig(),
    "quick": SegConfig(frames=160, val_frames=24, steps=300),
    "tiny": SegConfig(
        frames=3, val_frames=2, steps=3, batch=2, crop=(64, 48), input_long=128, widths=(8, 8, 8), workers=1
    ),
}


def recipe_text(cfg: SegConfig, frames_recipe: str) -> str:
    return (
        f"{cfg.frames} training and {cfg.val_frames} validation frames: {frames_recipe} Scaled to a long"
        f" side of {cfg.input_long} x U{cfg.jitter} (validation: x 1). Random {cfg.crop[0]}x{cfg.crop[1]}"
        f" crops with flips, batches of {cfg.batch}, {cfg.steps} AdamW steps (one-cycle, lr {cfg.lr}),"
        f" BCE with positive weights {list(cfg.pos_weight)}."
    )


def _loss(logits: torch.Tensor, target: torch.Tensor, pos_weight: torch.Tensor) -> torch.Tensor:
    return F.binary_cross_entropy_with_logits(logits, target, pos_weight=pos_weight.view(1, -1, 1, 1))


def validate(model: SegNet, frames: list[SegFrame]) -> dict[str, float]:
    """Pixel IoU of each output at probability 0.5 over the frames (whole frames, one at a time)."""
    inter = np.zeros(4)
    union = np.zeros(4)
    model.eval()
    with torch.no_grad():
        for f in frames:
            x = torch.from_numpy(f.image.astype(np.float32).transpose(2, 0, 1)[None].copy())
            pred = (model(x)[0].numpy() > 0).astype(bool)
            tgt = f.target.astype(bool)
            h = min(pred.shape[1], tgt.shape[1])
            w = min(pred.shape[2], tgt.shape[2])
            p, t = pred[:, :h, :w], tgt[:, :h, :w]
            inter += (p & t).reshape(4, -1).sum(1)
            union += (p | t).reshape(4, -1).sum(1)
    return {f"{c}_iou": round(float(inter[k] / max(union[k], 1.0)), 4) for k, c in enumerate(CHANNELS)}


def export(model: SegNet, path: Path, example_hw: tuple[int, int]) -> None:
    """ONNX with dynamic batch, height and width."""
    model.eval()
    buf = io.BytesIO()
    with torch.no_grad():
        torch.onnx.export(
            model, (torch.zeros(1, 3, *example_hw),), buf, dynamo=False, input_names=["image"],
            output_names=["logits"], opset_version=17, do_constant_folding=True,
            dynamic_axes={"image": {0: "batch", 2: "height", 3: "width"},
                          "logits": {0: "batch", 2: "height", 3: "width"}},
        )  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())


def train_seg(out_dir: Path, cfg: SegConfig, make_frames: FrameMaker, frames_recipe: str) -> dict[str, Any]:
    """Train, validate and export; returns the settings written to ``table_seg.json``."""
    seed_everything(cfg.seed)
    t0 = time.perf_counter()
    frames = [
        SegFrame(x, y)
        for x, y in make_frames(list(range(cfg.frames)), cfg.input_long, cfg.jitter, False, cfg.workers)
    ]
    val = [
        SegFrame(x, y)
        for x, y in make_frames(list(range(cfg.val_frames)), cfg.input_long, (1.0, 1.0), True, cfg.workers)
    ]
    render_s = time.perf_counter() - t0
    log.info("rendered %d + %d frames in %.0f s", len(frames), len(val), render_s)
    seed_everything(cfg.seed)
    model = SegNet(cfg.widths)
    sampler = CropSampler(frames, cfg.crop, cfg.seed)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=cfg.lr, total_steps=max(cfg.steps, 1), pct_start=0.1
    )
    pos_weight = torch.tensor(cfg.pos_weight, dtype=torch.float32)
    running = 0.0
    for step in range(cfg.steps):
        model.train()
        x, y = sampler.batch(cfg.batch)
        loss = _loss(model(torch.from_numpy(x)), torch.from_numpy(y), pos_weight)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        running = 0.95 * running + 0.05 * loss.item() if step else loss.item()
        if step % max(1, cfg.steps // 20) == 0 or step == cfg.steps - 1:
            log.info("seg step %d/%d loss %.4f (%.0f s)", step, cfg.steps, running, time.perf_counter() - t0)
    train_s = time.perf_counter() - t0
    validation = validate(model, val)
    log.info("validation %s", validation)
    out_dir = Path(out_dir)
    onnx_path = out_dir / SEG.onnx[0]
    export(model, onnx_path, (cfg.crop[1], cfg.crop[0]))
    cfg_json = asdict(cfg)
    return {
        "input": {"long_side": cfg.input_long, "multiple": 16, "normalise": "exposure_minus_half"},
        "output_stride": OUTPUT_STRIDE,
        "channels": list(CHANNELS),
        "thresholds": {"core": 0.5, "card": 0.5, "boundary": 0.5, "hand": 0.5},
        "config": cfg_json,
        "recipe": recipe_text(cfg, frames_recipe),
        "validation": {"frames": len(val), **validation},
        "render_seconds": round(render_s, 1),
        "train_seconds": round(train_s, 1),
        "sha256": {SEG.onnx[0]: sha256(onnx_path)},
    }


def run_cli(
    out: Path, config: str, seed: int, steps: int | None, make_frames: FrameMaker, frames_recipe: str
) -> dict[str, Any]:
    """What ``tableref train seg`` does: train, write the settings JSON and the model card."""
    from dataclasses import replace

    from models.training.seg_card import write_seg_card

    cfg = replace(CONFIGS[config], seed=seed)
    if steps is not None:
        cfg = replace(cfg, steps=steps)
    meta = train_seg(out, cfg, make_frames, frames_recipe)
    command = "tableref train seg" + ("" if config == "full" else f" --{config}")
    if seed:
        command += f" --seed {seed}"
    if steps is not None:
        command += f" --steps {steps}"
    meta["command"] = command
    (Path(out) / SEG.meta).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    write_seg_card(Path(out))
    return meta
