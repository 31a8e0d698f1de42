"""The table segmenter's network: a small U-shaped CNN, 1/8 bottleneck, outputs at 1/2 resolution.

~0.15 M parameters; at 384 x 224 input it runs in a few ms on one onnxruntime thread. Input:
(N, 3, H, W) BGR, exposure-normalised minus 0.5, H and W multiples of 16; output: (N, 4 + 9,
H / 2, W / 2): logits of core, card, boundary, hand; with ``instances``, the card centre logit and
the 8 corner offsets (a second head on the 1/4-resolution decoder features, two 3x3 layers
deeper, upsampled bilinearly).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

MASKS = 4
INSTANCE_OUTPUTS = 9
"""Centre logit, then x, y offsets of the four corners."""


def _cbr(c_in: int, c_out: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class SegNet(nn.Module):
    def __init__(self, widths: tuple[int, int, int] = (16, 32, 48), instances: bool = True) -> None:
        super().__init__()
        a, b, c = widths
        self.enc1 = _cbr(3, a, 2)
        self.enc2 = nn.Sequential(_cbr(a, b, 2), _cbr(b, b))
        self.enc3 = nn.Sequential(_cbr(b, c, 2), _cbr(c, c), _cbr(c, c, dilation=2), _cbr(c, c, dilation=4))
        self.lat3 = nn.Conv2d(c, b, 1)
        self.dec2 = _cbr(b, b)
        self.lat2 = nn.Conv2d(b, a, 1)
        self.dec1 = _cbr(a, a)
        self.head = nn.Conv2d(a, MASKS, 1)
        self.instances = instances
        if instances:
            self.inst = nn.Sequential(_cbr(b, b), _cbr(b, b), nn.Conv2d(b, INSTANCE_OUTPUTS, 1))
            with torch.no_grad():
                # centres are rare: start at p = 0.1 (CenterNet's prior), offsets at 0
                self.inst[-1].bias.zero_()
                self.inst[-1].bias[0] = -2.19

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x1 = self.enc1(x)
        x2 = self.enc2(x1)
        x3 = self.enc3(x2)
        y = F.interpolate(self.lat3(x3), scale_factor=2.0, mode="bilinear", align_corners=False) + x2
        y2 = self.dec2(y)
        y = F.interpolate(self.lat2(y2), scale_factor=2.0, mode="bilinear", align_corners=False) + x1
        y1 = self.dec1(y)
        masks = self.head(y1)
        if not self.instances:
            return masks
        # at 1/4 resolution, then bilinear x 2 (corner offsets are linear in the pixel position)
        inst = F.interpolate(self.inst(y2), scale_factor=2.0, mode="bilinear", align_corners=False)
        return torch.cat([masks, inst], dim=1)
