"""ONNX export (the TorchScript exporter: no extra dependency) and the files' metadata."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import torch
from torch import nn

log = logging.getLogger(__name__)
OPSET = 17


def export_onnx(
    module: nn.Module,
    example: tuple[torch.Tensor, ...],
    path: Path,
    input_names: list[str],
    output_names: list[str],
) -> None:
    """Write ``module`` (in eval mode) to ``path`` with a dynamic batch axis on every input and output."""
    module.eval()
    axes = {name: {0: "batch"} for name in (*input_names, *output_names)}
    buf = io.BytesIO()
    with torch.no_grad():
        torch.onnx.export(
            module, example, buf, dynamo=False, input_names=input_names, output_names=output_names,
            dynamic_axes=axes, opset_version=OPSET, do_constant_folding=True,
        )  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())
    log.info("wrote %s (%d bytes)", path, path.stat().st_size)
