"""Seeds and threads for reproducible training on the CPU."""

from __future__ import annotations

import random

import numpy as np
import torch

TRAIN_THREADS = 1


def seed_everything(seed: int, threads: int = TRAIN_THREADS) -> None:
    """Seed Python, numpy and torch; deterministic kernels; a fixed thread count."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True)
