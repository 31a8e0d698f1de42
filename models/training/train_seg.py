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
from models.training.seg_data import MASKS, OUTPUT_STRIDE, CropSampler, FrameMaker, SegFrame
from models.training.seg_net import SegNet

log = logging.getLogger(__name__)

CHANNELS = ("core", "card", "boundary", "hand")
INSTANCE_CHANNELS = ("center", "c0x", "c0y", "c1x", "c1y", "c2x", "c2y", "c3x", "c3y")
"""The card-instance outputs: centre logit, then the corners' offsets (clockwise, / OFFSET_UNIT)."""
OFFSET_UNIT = 8.0
"""Must match ``vision.cards.seg_frames.OFFSET_UNIT`` (the targets' unit; stored in the settings)."""
CENTER_THRESHOLD = 0.3
"""A centre peak at least this probable is a card (validation and the run time's default)."""


@dataclass(frozen=True)
class SegConfig:
    seed: int = 0
    frames: int = 800
    """Rendered training frames (frame indices 0 .. frames - 1)."""
    val_frames: int = 60
    steps: int = 2000
    batch: int = 8
    crop: tuple[int, int] = (256, 160)
    """Training crop, w x h at network input scale."""
    input_long: int = 384
    """Long side of the network input at run time."""
    jitter: tuple[float, float] = (0.8, 1.25)
    """Training frames are scaled to ``input_long`` times a factor drawn in this range."""
    widths: tuple[int, int, int] = (16, 32, 64)
    lr: float = 4e-3
    weight_decay: float = 1e-4
    pos_weight: tuple[float, float, float, float] = (2.0, 1.0, 2.0, 1.0)
    """BCE weight of the positive pixels, per channel."""
    instances: bool = True
    """Also learn card instances (centre heat map and corner offsets, a second head)."""
    center_weight: float = 0.25
    """Weight of the centre heat map's focal loss (with 1, offsets 2 and no prior on the centre
    logit, the masks were left behind: validation hand IoU 0.08, card IoU 0.55 after 2000 steps)."""
    offset_weight: float = 1.0
    """Weight of the corner offsets' L1 loss (best cyclic order, in OFFSET_UNIT)."""
    workers: int = 2
    """Processes rendering the frames (the frames do not depend on it)."""


CONFIGS = {
    "full": SegConfig(),
    "quick": SegConfig(frames=160, val_frames=24, steps=300),
    "tiny": SegConfig(
        frames=3,
        val_frames=2,
        steps=3,
        batch=2,
        crop=(64, 48),
        input_long=128,
        widths=(8, 8, 8),
        workers=1,
    ),
}


def recipe_text(cfg: SegConfig, frames_recipe: str) -> str:
    text = (
        f"{cfg.frames} training and {cfg.val_frames} validation frames: {frames_recipe} Scaled to a long"
        f" side of {cfg.input_long} x U{cfg.jitter} (validation: x 1). Random {cfg.crop[0]}x{cfg.crop[1]}"
        f" crops with flips, batches of {cfg.batch}, {cfg.steps} AdamW steps (one-cycle, lr {cfg.lr}),"
    )
    if not cfg.instances:
        return text + f" BCE with positive weights {list(cfg.pos_weight)}."
    return text + (
        f" BCE with positive weights {list(cfg.pos_weight)} on the masks, CenterNet focal loss (x"
        f" {cfg.center_weight}) on the centres, L1 in the best cyclic corner order (x {cfg.offset_weight})"
        " on the offsets."
    )


def _focal(logit: torch.Tensor, heat: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss, per peak (peaks: heat 1)."""
    pos = (heat >= 0.999).float()
    log_p = F.logsigmoid(logit)
    log_q = F.logsigmoid(-logit)
    p = torch.exp(log_p)
    pos_loss = -(log_p * (1 - p) ** 2 * pos).sum()
    neg_loss = -(log_q * p**2 * (1 - heat) ** 4 * (1 - pos)).sum()
    return (pos_loss + neg_loss) / pos.sum().clamp(min=1.0)


def _offset_loss(pred: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """Mean L1 of the 8 offsets where ``weight`` is set, in the best of the 4 cyclic corner orders
    (a card looks alike turned by a half or a quarter turn)."""
    n, _, h, w = pred.shape
    p = pred.reshape(n, 4, 2, h, w)
    t = target.reshape(n, 4, 2, h, w)
    err = torch.stack([(p - torch.roll(t, k, dims=1)).abs().mean(dim=(1, 2)) for k in range(4)]).amin(dim=0)
    return (err * weight).sum() / weight.sum().clamp(min=1.0)


def _loss(
    logits: torch.Tensor, target: torch.Tensor, pos_weight: torch.Tensor, cfg: SegConfig
) -> torch.Tensor:
    masks = F.binary_cross_entropy_with_logits(
        logits[:, :MASKS], target[:, :MASKS], pos_weight=pos_weight.view(1, -1, 1, 1)
    )
    if not cfg.instances:
        return masks
    heat = _focal(logits[:, MASKS], target[:, MASKS])
    offsets = _offset_loss(logits[:, MASKS + 1 :], target[:, MASKS + 2 :], target[:, MASKS + 1])
    return masks + cfg.center_weight * heat + cfg.offset_weight * offsets


def peaks(prob: np.ndarray, threshold: float) -> np.ndarray:
    """(N, 2) int (x, y) of the local maxima (3 x 3) of a map at least ``threshold``."""
    import cv2

    top = cv2.dilate(prob.astype(np.float32), np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((prob >= threshold) & (prob >= top))
    return np.stack([xs, ys], axis=1)


def _centre_counts(pred: np.ndarray, inst: np.ndarray) -> tuple[int, int, int, list[float]]:
    """(found, true, matched, corner errors in output px) of one frame's centres."""
    prob = 1.0 / (1.0 + np.exp(-pred[MASKS]))
    found = peaks(prob, CENTER_THRESHOLD)
    ty, tx = np.nonzero(inst[0] >= 0.999)
    true = np.stack([tx, ty], axis=1)
    matched = 0
    errors: list[float] = []
    used = np.zeros(len(found), bool)
    for x, y in true:
        if len(found) == 0:
            break
        d = np.abs(found - [x, y]).max(axis=1).astype(float)
        d[used] = np.inf
        j = int(np.argmin(d))
        if d[j] > 1:
            continue
        used[j] = True
        matched += 1
        fx, fy = found[j]
        p = pred[MASKS + 1 :, fy, fx].reshape(4, 2)
        t = inst[2:, y, x].astype(np.float64).reshape(4, 2)
        err = min(float(np.linalg.norm(p - np.roll(t, k, axis=0), axis=1).mean()) for k in range(4))
        errors.append(OFFSET_UNIT * err)
    return len(found), len(true), matched, errors


def validate(model: SegNet, frames: list[SegFrame]) -> dict[str, float]:
    """Pixel IoU of each mask at probability 0.5 over the frames (whole frames, one at a time);
    card centres: precision and recall of the peaks (within 1 output pixel of a true centre), and
    the median corner error of the matched ones, output pixels."""
    inter = np.zeros(4)
    union = np.zeros(4)
    n_found = n_true = n_matched = 0
    errors: list[float] = []
    model.eval()
    with torch.no_grad():
        for f in frames:
            x = torch.from_numpy(f.image.astype(np.float32).transpose(2, 0, 1)[None].copy())
            out = model(x)[0].numpy()
            if model.instances:
                h = min(out.shape[1], f.instance.shape[1])
                w = min(out.shape[2], f.instance.shape[2])
                a, b, c, e = _centre_counts(out[:, :h, :w], f.instance[:, :h, :w])
                n_found, n_true, n_matched = n_found + a, n_true + b, n_matched + c
                errors += e
            pred = (out[:MASKS] > 0).astype(bool)
            tgt = f.target.astype(bool)
            h = min(pred.shape[1], tgt.shape[1])
            w = min(pred.shape[2], tgt.shape[2])
            p, t = pred[:, :h, :w], tgt[:, :h, :w]
            inter += (p & t).reshape(4, -1).sum(1)
            union += (p | t).reshape(4, -1).sum(1)
    result = {f"{c}_iou": round(float(inter[k] / max(union[k], 1.0)), 4) for k, c in enumerate(CHANNELS)}
    if not model.instances:
        return result
    result["center_precision"] = round(n_matched / max(n_found, 1), 4)
    result["center_recall"] = round(n_matched / max(n_true, 1), 4)
    result["corner_error_map_px"] = round(float(np.median(errors)), 3) if errors else None
    return result


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
        SegFrame(x, y, z)
        for x, y, z in make_frames(list(range(cfg.frames)), cfg.input_long, cfg.jitter, False, cfg.workers)
    ]
    val = [
        SegFrame(x, y, z)
        for x, y, z in make_frames(list(range(cfg.val_frames)), cfg.input_long, (1.0, 1.0), True, cfg.workers)
    ]
    render_s = time.perf_counter() - t0
    log.info("rendered %d + %d frames in %.0f s", len(frames), len(val), render_s)
    seed_everything(cfg.seed)
    model = SegNet(cfg.widths, instances=cfg.instances)
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
        loss = _loss(model(torch.from_numpy(x)), torch.from_numpy(y), pos_weight, cfg)
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
        "channels": [*CHANNELS, *(INSTANCE_CHANNELS if cfg.instances else ())],
        **({"offset_unit": OFFSET_UNIT} if cfg.instances else {}),
        "thresholds": {"core": 0.5, "card": 0.5, "boundary": 0.5, "hand": 0.5}
        | ({"center": CENTER_THRESHOLD} if cfg.instances else {}),
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
