"""The table segmenter's network: a small U-shaped CNN, 1/8 bottleneck, outputs at 1/2 resolution.

~0.1 M parameters; at 384 x 224 input it runs in ~5 ms on one onnxruntime thread. Input:
(N, 3, H, W) BGR, exposure-normalised minus 0.5, H and W multiples of 16; output: (N, 4, H / 2,
W / 2) logits of core, card, boundary, hand.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


def _cbr(c_in: int, c_out: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class SegNet(nn.Module):
    def __init__(self, widths: tuple[int, int, int] = (16, 32, 48), outputs: int = 4) -> None:
        super().__init__()
        a, b, c = widths
        self.enc1 = _cbr(3, a, 2)
        self.enc2 = nn.Sequential(_cbr(a, b, 2), _cbr(b, b))
        self.enc3 = nn.Sequential(_cbr(b, c, 2), _cbr(c, c), _cbr(c, c, dilation=2), _cbr(c, c, dilation=4))
        self.lat3 = nn.Conv2d(c, b, 1)
        self.dec2 = _cbr(b, b)
        self.lat2 = nn.Conv2d(b, a, 1)
        self.dec1 = _cbr(a, a)
        self.head = nn.Conv2d(a, outputs, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x1 = self.enc1(x)
        x2 = self.enc2(x1)
        x3 = self.enc3(x2)
        y = F.interpolate(self.lat3(x3), scale_factor=2.0, mode="bilinear", align_corners=False) + x2
        y = self.dec2(y)
        y = F.interpolate(self.lat2(y), scale_factor=2.0, mode="bilinear", align_corners=False) + x1
        return self.head(self.dec1(y))
