"""An onnxruntime session on one CPU thread, as the models run at run time: the training scripts
time, calibrate and check their exported graphs through it."""

from __future__ import annotations

from pathlib import Path

import onnxruntime as ort


def cpu_session(path: Path | str, threads: int = 1) -> ort.InferenceSession:
    """A CPU session of the graph at ``path`` on ``threads`` intra-op threads, warnings silenced."""
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
