"""The pair judge's pieces: the cell-by-cell pair head, its loss sampling, and honest near-duplicates."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch

from models.judge_scoring import best_logits
from models.training.export import export_onnx
from models.training.judge_data import PairSampler, local_edit, shows_a_difference
from models.training.nets import MapEmbedder, MapPairHead, shifted_correlation
from models.training.onnx_cpu import cpu_session
from models.training.patterns import ProceduralPatternDeck, _looks_alike
from models.training.train_judge import JudgeConfig, all_pairs_loss, tune_head


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


def test_local_edits_always_show_and_a_plain_face_gets_none() -> None:
    deck = ProceduralPatternDeck(3, 12, 96)
    rng = np.random.default_rng(0)
    made = 0
    for i in range(10):
        face, other = deck.image(deck.patterns[i]), deck.image(deck.patterns[i + 1])
        edited = local_edit(face, other, rng)
        if edited is not None:
            made += 1
            assert edited.shape == face.shape and shows_a_difference(face, edited)
    assert made >= 3
    plain = np.full((96, 96, 3), 200, np.uint8)
    assert all(local_edit(plain, plain, rng) is None for _ in range(8))  # nothing there to change


def test_synthetic_couples_are_labelled_near_duplicates() -> None:
    sampler = PairSampler([ProceduralPatternDeck(1, 12, 64)], 32, seed=0)
    x, labels, hard = sampler.group_batch(8, 2, hard_share=1.0, hard_aligned=1.0, synthetic_share=1.0)
    assert x.shape == (16, 3, 32, 32) and len(labels) == 16
    assert hard.any() and (hard == hard.T).all()


def test_four_views_do_not_depend_on_how_both_cards_lie() -> None:
    """Turning both crops by the same quarter turn changes nothing with 4 views; with 1 view it can."""
    rng = np.random.default_rng(0)
    w = rng.normal(size=(2, 5))

    def head(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.tanh(a @ w[0] + b @ w[1] + (a * b).sum(axis=1))

    a, b = rng.normal(size=(4, 5)), rng.normal(size=(4, 5))  # 4 turns of a square card each
    turned = [(np.roll(a, -1, axis=0), np.roll(b, -1, axis=0))]
    np.testing.assert_allclose(best_logits(head, [(a, b)], 4), best_logits(head, turned, 4))
    assert not np.allclose(best_logits(head, [(a, b)], 1), best_logits(head, turned, 1))
    many = best_logits(head, [(a, b)] * 5 + [(a[:2], b)], 4, batch=3)  # small head calls, mixed shapes
    np.testing.assert_allclose(many[:5], best_logits(head, [(a, b)], 4)[0])
    np.testing.assert_allclose(many[5], best_logits(head, [(a[:2], b)], 1)[0])


def test_head_tuning_changes_only_the_head_and_is_seeded(tmp_path: Path) -> None:
    torch.manual_seed(0)
    embed = MapEmbedder((8, 16), 8)
    export_onnx(embed, (torch.zeros(1, 3, 32, 32),), tmp_path / "embed.onnx", ["crops"], ["signature"])
    session = cpu_session(tmp_path / "embed.onnx")
    deck = ProceduralPatternDeck(1, 6, 64)
    cfg = JudgeConfig(
        size=32, widths=(8, 16), dim=8, hidden=8, batch_patterns=4, tune_batches=2, tune_epochs=1
    )

    def tuned(c: JudgeConfig) -> list[torch.Tensor]:
        torch.manual_seed(1)
        head = MapPairHead(8, 8)
        tune_head(head, session, [deck], c)
        return [p.detach().clone() for p in head.parameters()]

    untouched = tuned(replace(cfg, tune_batches=0))
    first, second = tuned(cfg), tuned(cfg)
    assert any(not torch.equal(a, b) for a, b in zip(untouched, first, strict=True))
    assert all(torch.equal(a, b) for a, b in zip(first, second, strict=True))
