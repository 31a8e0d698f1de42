"""onnxruntime sessions for the identity models, with clear errors for missing or corrupt files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import onnxruntime as ort

from models.files import MODEL_DIR, ModelFiles, load_meta, model_error
from vision.onnx_arena import ArenaReleasing


def open_model(
    model: ModelFiles, folder: Path | None = None, threads: int = 1
) -> tuple[dict[str, Any], list]:
    """(settings, sessions in the order of ``model.onnx``); ModelError naming the file otherwise. Each
    session gives its CPU arena's unused memory back now and then (:class:`ArenaReleasing`)."""
    folder = MODEL_DIR if folder is None else Path(folder)
    meta = load_meta(model, folder)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    sessions = []
    for name in model.onnx:
        path = folder / name
        try:
            session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own types for a bad graph
            raise model_error(path, model, f"corrupt ({str(exc).splitlines()[0][:120]})") from exc
        sessions.append(ArenaReleasing(session))
    return meta, sessions
