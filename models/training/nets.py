"""The networks: a small conv embedder with a pair head (the judge) and a number/colour classifier."""

from __future__ import annotations

import torch
from torch import nn


def conv_bn(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


def _flat_size(features: nn.Module, height: int, width: int) -> int:
    """Length of the flattened feature map (measured in eval mode: no batch statistics change)."""
    features.eval()
    with torch.no_grad():
        n = features(torch.zeros(1, 3, height, width)).numel()
    features.train()
    return n


def trunk(widths: tuple[int, ...]) -> nn.Sequential:
    """Stem at stride 2, then per width a stride-1 conv and (but for the last) a stride-2 conv."""
    layers: list[nn.Module] = [conv_bn(3, widths[0], 2)]
    cin = widths[0]
    for i, w in enumerate(widths):
        layers.append(conv_bn(cin, w, 1))
        cin = w
        if i < len(widths) - 1:
            layers.append(conv_bn(cin, widths[i + 1], 2))
            cin = widths[i + 1]
    return nn.Sequential(*layers)


class Embedder(nn.Module):
    """(N, 3, S, S) crops -> (N, dim) unit-length signatures that keep where things are."""

    def __init__(self, size: int = 64, widths: tuple[int, ...] = (16, 32, 48, 64), dim: int = 96) -> None:
        super().__init__()
        self.features = trunk(widths)
        flat = _flat_size(self.features, size, size)
        self.fc = nn.Linear(flat, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.features(x).flatten(1)
        e = self.fc(f)
        return e / e.norm(dim=1, keepdim=True).clamp_min(1e-6)


class PairHead(nn.Module):
    """Two signatures -> the logit that they show the same pattern."""

    def __init__(self, dim: int = 96, hidden: int = 64) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 * dim, hidden), nn.ReLU(inplace=True), nn.Linear(hidden, 1))

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return self.net(torch.cat([(a - b).abs(), a * b], dim=1)).squeeze(1)


class Reader(nn.Module):
    """(N, 3, H, W) portrait crops -> (number logits, colour logits)."""

    def __init__(
        self,
        size: tuple[int, int] = (64, 96),
        widths: tuple[int, ...] = (16, 32, 48, 64),
        n_numbers: int = 103,
        n_colours: int = 5,
    ) -> None:
        super().__init__()
        self.features = trunk(widths)
        w, h = size
        flat = _flat_size(self.features, h, w)
        self.fc = nn.Sequential(nn.Linear(flat, 128), nn.ReLU(inplace=True))
        self.numbers = nn.Linear(128, n_numbers)
        self.colours = nn.Linear(128, n_colours)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.fc(self.features(x).flatten(1))
        return self.numbers(f), self.colours(f)


class MapEmbedder(nn.Module):
    """(N, 3, S, S) crops -> (N, dim, S/2^k, S/2^k) feature maps that keep where each thing is.

    The judge compares two such maps cell by cell (:class:`MapPairHead`), so one changed element,
    two swapped colours or a mirrored layout show as a local difference instead of being averaged
    away in a global signature. Each cell's vector is scaled to unit length (light-independent)."""

    def __init__(self, widths: tuple[int, ...] = (16, 32, 64), dim: int = 32) -> None:
        super().__init__()
        self.features = trunk(widths)
        self.project = nn.Conv2d(widths[-1], dim, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.project(self.features(x))
        return f / f.norm(dim=1, keepdim=True).clamp_min(1e-6)


def shifted_correlation(a: torch.Tensor, b: torch.Tensor, reach: int) -> torch.Tensor:
    """(N, (2 reach + 1)^2, H, W): per cell of ``a``, its dot product with b's cells up to ``reach``
    cells away (zero outside the map): a cost volume that tolerates a residual shift."""
    h, w = a.shape[-2:]
    padded = nn.functional.pad(b, (reach, reach, reach, reach))
    out = []
    for dy in range(2 * reach + 1):
        for dx in range(2 * reach + 1):
            out.append((a * padded[:, :, dy : dy + h, dx : dx + w]).sum(dim=1, keepdim=True))
    return torch.cat(out, dim=1)


class MapPairHead(nn.Module):
    """Two aligned feature maps -> the logit "same pattern".

    Per cell it sees |a - b| and a * b (symmetric in a and b), and (``reach`` > 0) how well each
    cell of a matches b's cells nearby and each of b's matches a's, with the best of those (a
    residual shift of a few pixels between the crops is no difference; an element with no match
    nearby is). A 3x3 conv looks at each neighbourhood; the strongest local difference (max pool)
    and the mean decide."""

    def __init__(self, dim: int = 32, hidden: int = 32, reach: int = 0) -> None:
        super().__init__()
        self.reach = reach
        n_corr = (2 * reach + 1) ** 2 + 1 if reach > 0 else 0
        self.local = nn.Sequential(
            nn.Conv2d(2 * dim + 2 * n_corr, hidden, 1),
            nn.ReLU(inplace=True),
            nn.Conv2d(hidden, hidden, 3, padding=1),
            nn.ReLU(inplace=True),
        )
        self.out = nn.Linear(2 * hidden, 1)

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        parts = [(a - b).abs(), a * b]
        if self.reach > 0:
            ab = shifted_correlation(a, b, self.reach)
            ba = shifted_correlation(b, a, self.reach)
            parts += [ab, ab.amax(dim=1, keepdim=True), ba, ba.amax(dim=1, keepdim=True)]
        h = self.local(torch.cat(parts, dim=1))
        pooled = torch.cat([h.amax(dim=(2, 3)), h.mean(dim=(2, 3))], dim=1)
        return self.out(pooled).squeeze(1)
