"""Train the number/colour reader, calibrate its confidence on held-out crops, export it to ONNX."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch
from torch import nn

from models.files import READER, sha256
from models.labels import COLOUR_CLASSES
from models.reader_decode import decode, fuse_half_turns, with_half_turns
from models.training.augment import AugmentConfig
from models.training.decks import NumberDeck
from models.training.export import export_onnx
from models.training.nets import Reader
from models.training.reader_data import IGNORE, NumberSampler
from models.training.seeding import seed_everything

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ReaderConfig:
    seed: int = 0
    steps: int = 4000
    batch: int = 32
    fresh: float = 0.3
    """Share of training crops made afresh (the rest reuse one of 4 earlier crops of the card)."""
    colour_drop: float = 0.25
    """Share of training crops shown in grey or with swapped channels (colour target ignored)."""
    lr: float = 3e-3
    weight_decay: float = 1e-4
    width: int = 48
    height: int = 72
    widths: tuple[int, ...] = (16, 32, 48, 64)
    val_crops: int = 3000
    target_confident_wrong: float = 0.0006
    half_turns: bool = True
    """Read each crop as given and turned 180 degrees and average the logits (run time does the same)."""
    aug: AugmentConfig = field(default_factory=AugmentConfig)


CONFIGS = {
    "full": ReaderConfig(steps=9000, val_crops=5000),
    "quick": ReaderConfig(steps=150, val_crops=400),
    "tiny": ReaderConfig(steps=3, batch=8, val_crops=24, width=32, height=48, widths=(8, 16)),
}


def read_confidence(numbers: np.ndarray, colours: np.ndarray, decks: Sequence[str], t: float) -> tuple:
    """(number class, colour class, confidence) per row, as the run-time reader computes them."""
    return decode(numbers, colours, list(decks), t)


def train_reader(
    train_decks: Sequence[NumberDeck], val_decks: Sequence[NumberDeck], out_dir: Path, cfg: ReaderConfig,
    recipe: str = "",
) -> dict:  # fmt: skip
    seed_everything(cfg.seed)
    t0 = time.perf_counter()
    model = Reader((cfg.width, cfg.height), cfg.widths, n_colours=len(COLOUR_CLASSES))
    sampler = NumberSampler(
        train_decks, cfg.width, cfg.height, cfg.seed, cfg.aug, fresh=cfg.fresh, colour_drop=cfg.colour_drop
    )
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=cfg.lr, total_steps=max(cfg.steps, 1), pct_start=0.15
    )
    ce = nn.CrossEntropyLoss()
    running = 0.0
    for step in range(cfg.steps):
        model.train()
        x, yn, yc = sampler.batch(cfg.batch)
        zn, zc = model(torch.from_numpy(x))
        loss = ce(zn, torch.from_numpy(yn))
        if np.any(yc != IGNORE):
            loss = loss + ce(zc, torch.from_numpy(yc))
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        running = 0.95 * running + 0.05 * loss.item() if step else loss.item()
        if step % max(1, cfg.steps // 30) == 0 or step == cfg.steps - 1:
            log.info(
                "reader step %d/%d loss %.4f (%.0f s)", step, cfg.steps, running, time.perf_counter() - t0
            )
    train_s = time.perf_counter() - t0

    val = NumberSampler(val_decks, cfg.width, cfg.height, cfg.seed + 10_000, cfg.aug)
    items = [val.sample() for _ in range(cfg.val_crops)]
    model.eval()
    zs = []
    with torch.no_grad():
        for i in range(0, len(items), 128):
            x = np.stack([it[0] for it in items[i : i + 128]])
            if cfg.half_turns:
                zn_i, zc_i = model(torch.from_numpy(with_half_turns(x)))
                zs.append((fuse_half_turns(zn_i.numpy()), fuse_half_turns(zc_i.numpy())))
            else:
                zn_i, zc_i = model(torch.from_numpy(x))
                zs.append((zn_i.numpy(), zc_i.numpy()))
    zn = np.concatenate([z[0] for z in zs]).astype(np.float64)
    zc = np.concatenate([z[1] for z in zs]).astype(np.float64)
    decks = [it[3] for it in items]
    yn = np.asarray([it[1] for it in items])
    yc = np.asarray([it[2] for it in items])

    def correct_at(t: float) -> tuple[np.ndarray, np.ndarray]:
        c, k, p = read_confidence(zn, zc, decks, t)
        return (c == yn) & (k == yc), p

    # Temperature: the one with the least log loss of the whole read.
    best_t, best_nll = 1.0, np.inf
    for t in np.exp(np.linspace(np.log(0.3), np.log(5.0), 41)):
        ok, p = correct_at(float(t))
        nll = -np.mean(np.where(ok, np.log(np.maximum(p, 1e-12)), np.log(np.maximum(1 - p, 1e-12))))
        if nll < best_nll:
            best_t, best_nll = float(t), float(nll)
    ok, p = correct_at(best_t)
    allowed = int(np.floor(cfg.target_confident_wrong * len(p)))
    wrong_p = np.sort(p[~ok])[::-1]
    threshold = float(np.nextafter(wrong_p[allowed], 2.0)) if len(wrong_p) > allowed else 0.0
    threshold = min(max(threshold, 0.5), 0.999999)
    sure = p >= threshold
    validation = {
        "crops": len(items),
        "accuracy": float(np.mean(ok & sure)),
        "raw_accuracy": float(np.mean(ok)),
        "confident_wrong_rate": float(np.mean(~ok & sure)),
        "uncertain_rate": float(np.mean(~sure)),
        **{f"{d}_accuracy": float(np.mean((ok & sure)[np.asarray(decks) == d])) for d in sorted(set(decks))},
    }
    log.info("reader validation %s (temperature %.3f, threshold %.4f)", validation, best_t, threshold)

    out_dir = Path(out_dir)
    export_onnx(
        model,
        (torch.zeros(1, 3, cfg.height, cfg.width),),
        out_dir / READER.onnx[0],
        ["crops"],
        ["numbers", "colours"],
    )
    meta = {
        "model": "reader",
        "input": {
            "width": cfg.width,
            "height": cfg.height,
            "channels": "BGR, exposure-normalised, minus 0.5",
        },
        "temperature": best_t,
        "half_turns": cfg.half_turns,
        "confidence_threshold": threshold,
        "colour_classes": list(COLOUR_CLASSES),
        "config": {k: v for k, v in asdict(cfg).items() if k != "aug"} | {"aug": asdict(cfg.aug)},
        "recipe": recipe,
        "train_decks": [d.name for d in train_decks],
        "validation_decks": [d.name for d in val_decks],
        "validation": validation,
        "train_seconds": round(train_s, 1),
        "sha256": {name: sha256(out_dir / name) for name in READER.onnx},
    }
    (out_dir / READER.meta).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return meta
