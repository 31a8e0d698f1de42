"""Train the same-pattern judge, calibrate it on held-out decks, export it to ONNX.

The judge embeds each crop into a unit signature; a small head turns two signatures into the
logit "same pattern". At run time the second crop is tried at each symmetric turn and the best
logit is kept; a Platt scaling fitted on held-out pairs (with the same max over turns) gives
``p_same``, and two thresholds leave an uncertain band between "different" and "same".
"""

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

from models.files import JUDGE, sha256
from models.preprocess import turns
from models.training.augment import AugmentConfig
from models.training.decks import PatternDeck
from models.training.export import export_onnx
from models.training.judge_data import PairSampler
from models.training.nets import Embedder, PairHead
from models.training.seeding import seed_everything

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class JudgeConfig:
    seed: int = 0
    steps: int = 4000
    batch_patterns: int = 12
    per_pattern: int = 3
    fresh: float = 0.3
    """Share of training crops made afresh (the rest reuse one of 4 earlier crops of the pattern)."""
    hard_weight: float = 6.0
    """Loss weight of near-duplicate pairs (random different pairs weigh 1, same pairs balance all)."""
    hard_share: float = 0.7
    """Share of a batch's patterns that come as near-duplicate couples."""
    hard_aligned: float = 0.7
    """Probability that a near-duplicate couple is shown at the same turn."""
    lr: float = 3e-3
    weight_decay: float = 1e-4
    size: int = 48
    widths: tuple[int, ...] = (16, 32, 48, 64)
    dim: int = 96
    val_pairs: int = 4000
    target_confident_wrong: float = 0.0006
    """Thresholds leave at most this share of held-out pairs answered wrongly with confidence."""
    aug: AugmentConfig = field(default_factory=AugmentConfig)


CONFIGS = {
    "full": JudgeConfig(),
    "quick": JudgeConfig(steps=150, val_pairs=400),
    "tiny": JudgeConfig(steps=3, batch_patterns=4, val_pairs=24, size=32, widths=(8, 16), dim=16),
}


class _Judge(nn.Module):
    def __init__(self, cfg: JudgeConfig) -> None:
        super().__init__()
        self.embed = Embedder(cfg.size, cfg.widths, cfg.dim)
        self.head = PairHead(cfg.dim)


def all_pairs_loss(
    head: nn.Module, emb: torch.Tensor, labels: np.ndarray, hard: np.ndarray, hard_weight: float
) -> torch.Tensor:
    """Weighted BCE over every pair of crops in the batch; same and different pairs weigh equally."""
    i, j = np.triu_indices(len(labels), k=1)
    same = labels[i] == labels[j]
    is_hard = hard[labels[i], labels[j]]
    w = np.where(is_hard, hard_weight, 1.0)
    neg_total = w[~same].sum()
    w = np.where(same, neg_total / max(1, same.sum()), w)
    w = w / w.sum()
    logit = head(emb[i], emb[j])
    loss = nn.functional.binary_cross_entropy_with_logits(
        logit,
        torch.from_numpy(same.astype(np.float32)),
        weight=torch.from_numpy(w.astype(np.float32)),
        reduction="sum",
    )
    return loss


def _logits_max_turns(model: _Judge, pairs: Sequence[tuple], batch: int = 64) -> np.ndarray:
    """The best logit over b's symmetric turns, for each pair (as at run time)."""
    model.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(pairs), batch):
            chunk = pairs[i : i + batch]
            for xa, xb, _y, _k, square in chunk:
                ea = model.embed(torch.from_numpy(xa[None]))
                eb = model.embed(torch.from_numpy(turns(xb, square)))
                out.append(float(model.head(ea.expand(len(eb), -1), eb).max()))
    return np.asarray(out, np.float64)


def fit_platt(logits: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(a, b) of p = sigmoid(a * logit + b) with the least log loss, on a grid (never diverges on
    separable data: the slope stays within 0.05..5)."""
    best = (np.inf, 1.0, 0.0)
    for a in np.exp(np.linspace(np.log(0.05), np.log(5.0), 61)):
        z = a * logits
        for b in np.linspace(-12.0, 12.0, 97):
            t = z + b
            nll = float(np.mean(np.logaddexp(0.0, -t) * y + np.logaddexp(0.0, t) * (1 - y)))
            if nll < best[0]:
                best = (nll, float(a), float(b))
    return best[1], best[2]


def choose_thresholds(p: np.ndarray, y: np.ndarray, budget: float) -> tuple[float, float]:
    """(different_below, same_at_or_above): each side may err on at most ``budget / 2`` of the pairs,
    and the band is at least as wide as the pairs' disagreement demands."""
    n = len(p)
    allowed = int(np.floor(budget / 2 * n))
    neg = np.sort(p[y < 0.5])[::-1]
    pos = np.sort(p[y > 0.5])
    same_at = float(np.nextafter(neg[allowed], 2.0)) if len(neg) > allowed else 0.5
    diff_below = float(pos[allowed]) if len(pos) > allowed else 0.5
    same_at = min(max(same_at, 0.5), 0.999999)
    diff_below = max(min(diff_below, 0.5), 1e-6)
    return diff_below, same_at


def train_judge(
    train_decks: Sequence[PatternDeck], val_decks: Sequence[PatternDeck], out_dir: Path, cfg: JudgeConfig,
    recipe: str = "",
) -> dict:  # fmt: skip
    """Train, calibrate and export; returns the settings written to ``judge.json``."""
    seed_everything(cfg.seed)
    t0 = time.perf_counter()
    model = _Judge(cfg)
    sampler = PairSampler(train_decks, cfg.size, cfg.seed, cfg.aug, fresh=cfg.fresh)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=cfg.lr, total_steps=max(cfg.steps, 1), pct_start=0.15
    )
    running = 0.0
    for step in range(cfg.steps):
        model.train()
        x, labels, hard = sampler.group_batch(
            cfg.batch_patterns, cfg.per_pattern, cfg.hard_share, cfg.hard_aligned
        )
        emb = model.embed(torch.from_numpy(x))
        loss = all_pairs_loss(model.head, emb, labels, hard, cfg.hard_weight)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        running = 0.95 * running + 0.05 * loss.item() if step else loss.item()
        if step % max(1, cfg.steps // 30) == 0 or step == cfg.steps - 1:
            log.info(
                "judge step %d/%d loss %.4f (%.0f s)", step, cfg.steps, running, time.perf_counter() - t0
            )
    train_s = time.perf_counter() - t0

    val = PairSampler(val_decks, cfg.size, cfg.seed + 10_000, cfg.aug).fixed_set(cfg.val_pairs)
    logits = _logits_max_turns(model, val)
    y = np.asarray([v[2] for v in val], np.float64)
    a, b = fit_platt(logits, y)
    p = 1.0 / (1.0 + np.exp(-np.clip(a * logits + b, -40, 40)))
    lo, hi = choose_thresholds(p, y, cfg.target_confident_wrong)
    said_same, said_diff = p >= hi, p < lo
    kinds = np.asarray([v[3] for v in val])
    validation = {
        "pairs": len(val),
        "confident_wrong_rate": float(np.mean((said_same & (y < 0.5)) | (said_diff & (y > 0.5)))),
        "uncertain_rate": float(np.mean(~said_same & ~said_diff)),
        **{
            f"{k}_accuracy": float(np.mean((said_same if k == "same" else said_diff)[kinds == k]))
            for k in ("same", "random", "hard")
            if np.any(kinds == k)
        },
    }
    log.info("judge validation %s", validation)

    out_dir = Path(out_dir)
    export_onnx(
        model.embed,
        (torch.zeros(1, 3, cfg.size, cfg.size),),
        out_dir / JUDGE.onnx[0],
        ["crops"],
        ["signature"],
    )
    export_onnx(
        model.head,
        (torch.zeros(1, cfg.dim), torch.zeros(1, cfg.dim)),
        out_dir / JUDGE.onnx[1],
        ["a", "b"],
        ["logit"],
    )
    meta = {
        "model": "judge",
        "input": {"width": cfg.size, "height": cfg.size, "channels": "BGR, exposure-normalised, minus 0.5"},
        "dim": cfg.dim,
        "platt": [a, b],
        "thresholds": {"different_below": lo, "same_at_or_above": hi},
        "config": {k: v for k, v in asdict(cfg).items() if k != "aug"} | {"aug": asdict(cfg.aug)},
        "recipe": recipe,
        "train_decks": [d.name for d in train_decks],
        "validation_decks": [d.name for d in val_decks],
        "validation": validation,
        "train_seconds": round(train_s, 1),
        "sha256": {name: sha256(out_dir / name) for name in JUDGE.onnx},
    }
    (out_dir / JUDGE.meta).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return meta
