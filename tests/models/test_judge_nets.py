"""The pair judge's pieces: the cell-by-cell pair head, its loss sampling, and honest near-duplicates."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from models.training.nets import MapEmbedder, MapPairHead, shifted_correlation
from models.training.patterns import ProceduralPatternDeck, _looks_alike
from models.training.train_judge import all_pairs_loss


def _maps(n: int, seed: int) -> torch.Tensor:
    torch.manual_seed(seed)
    return MapEmbedder((8, 16), 8).eval()(torch.randn(n, 3, 32, 32)).detach()


def test_feature_maps_keep_cells_and_unit_vectors() -> None:
    f = _maps(3, 0)
    assert f.shape == (3, 8, 8, 8)
    np.testing.assert_allclose(f.norm(dim=1).numpy(), 1.0, atol=1e-5)


@pytest.mark.parametrize("reach", [0, 1])
def test_pair_head_scores_each_pair_alone(reach: int) -> None:
    head = MapPairHead(8, 8, reach).eval()
    a, b = _maps(4, 1), _maps(4, 2)
    both = head(a, b).detach()
    one = torch.stack([head(a[i : i + 1], b[i : i + 1])[0] for i in range(4)]).detach()
    np.testing.assert_allclose(both.numpy(), one.numpy(), atol=1e-5)
    if reach == 0:  # |a - b| and a * b only: the head cannot tell which crop came first
        np.testing.assert_allclose(head(b, a).detach().numpy(), both.numpy(), atol=1e-5)


def test_shifted_correlation_finds_a_one_cell_shift() -> None:
    torch.manual_seed(3)
    a = torch.randn(1, 8, 6, 6)
    a = a / a.norm(dim=1, keepdim=True)
    b = torch.roll(a, shifts=1, dims=3)  # b's content one cell to the right
    corr = shifted_correlation(a, b, 1)
    assert corr.shape == (1, 9, 6, 6)
    # Shift index 5 (dy=0, dx=+1) looks one cell to the right in b: a perfect match inside the map.
    np.testing.assert_allclose(corr[0, 5, :, :-1].numpy(), 1.0, atol=1e-5)
    assert corr[0, 4].mean() < 0.5  # no shift: random directions, a poor match


def test_loss_sampling_keeps_every_same_and_hard_pair() -> None:
    labels = np.repeat(np.arange(6), 3)
    hard = np.zeros((6, 6), bool)
    hard[0, 1] = hard[1, 0] = True
    seen: list[int] = []

    class Count(torch.nn.Module):
        def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
            seen.append(len(a))
            return (a * b).sum(dim=(1, 2, 3))

    emb = _maps(len(labels), 4)
    full = all_pairs_loss(Count(), emb, labels, hard, 6.0)
    rng = np.random.default_rng(0)
    sub = all_pairs_loss(Count(), emb, labels, hard, 6.0, rng, random_per_same=1.0)
    n_same, n_hard = 6 * 3, 9
    assert seen == [len(labels) * (len(labels) - 1) // 2, n_same + n_hard + n_same]
    assert torch.isfinite(full) and torch.isfinite(sub)


def test_procedural_near_duplicates_always_look_different() -> None:
    for seed in (1, 2, 4):
        deck = ProceduralPatternDeck(seed, 60, 96)
        for a, b, kind in deck.near_duplicates:
            assert not _looks_alike(deck._patterns[a], deck._patterns[b]), (seed, a, b, kind)
