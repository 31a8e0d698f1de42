"""Where each model's files live, how to rebuild them, and checks that they are whole.

A model is an ONNX graph plus a small JSON of its settings (input size, temperature, thresholds)
and a model card ``<name>.md``. The files sit beside this module; a missing or corrupt one raises
:class:`models.errors.ModelError` naming the file and the command that rebuilds it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from models.errors import ModelError

MODEL_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class ModelFiles:
    """The files of one model."""

    name: str
    """Short name: ``"judge"`` or ``"reader"``."""
    onnx: tuple[str, ...]
    """ONNX files, relative to the model folder."""
    meta: str
    """The settings JSON."""
    card: str
    """The model card."""

    @property
    def rebuild_command(self) -> str:
        return f"tableref train {self.name}"


JUDGE = ModelFiles("judge", ("judge_embed.onnx", "judge_head.onnx"), "judge.json", "judge.md")
READER = ModelFiles("reader", ("reader.onnx",), "reader.json", "reader.md")
SEG = ModelFiles("seg", ("table_seg.onnx",), "table_seg.json", "table_seg.md")
"""The table segmenter (:mod:`vision.segmenter`): card cores, cards, card boundaries, hands."""
MODELS = {m.name: m for m in (JUDGE, READER, SEG)}


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def model_error(path: Path, model: ModelFiles, problem: str) -> ModelError:
    return ModelError(f"model file {path} is {problem}; rebuild it with `{model.rebuild_command}`")


def load_meta(model: ModelFiles, folder: Path | None = None) -> dict[str, Any]:
    """The model's settings JSON; every ONNX file it names must exist with the recorded sha256."""
    folder = MODEL_DIR if folder is None else Path(folder)
    path = folder / model.meta
    if not path.is_file():
        raise model_error(path, model, "missing")
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise model_error(path, model, f"corrupt ({exc.__class__.__name__})") from exc
    if not isinstance(meta, dict) or "sha256" not in meta:
        raise model_error(path, model, "corrupt (no sha256 table)")
    for name in model.onnx:
        onnx_path = folder / name
        if not onnx_path.is_file():
            raise model_error(onnx_path, model, "missing")
        if meta["sha256"].get(name) != sha256(onnx_path):
            raise model_error(onnx_path, model, "corrupt (sha256 differs from the one in the settings)")
    return meta
