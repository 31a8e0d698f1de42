"""ArenaReleasing: one run every period shrinks onnxruntime's CPU arena; values unchanged."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort

from models.files import MODEL_DIR
from vision.onnx_arena import SHRINK_ENTRY, ArenaReleasing


class _Session:
    def __init__(self) -> None:
        self.options: list[object] = []

    def run(self, output_names, input_feed, run_options=None):
        self.options.append(run_options)
        return [input_feed["x"]]

    def get_inputs(self) -> list[str]:
        return ["x"]


def test_one_run_a_period_shrinks_and_the_callers_own_options_pass_untouched() -> None:
    now = [0.0]
    inner = _Session()
    session = ArenaReleasing(inner, period=10.0, clock=lambda: now[0])
    mine = ort.RunOptions()
    for t in (0.0, 9.9, 10.0, 12.0, 19.9, 20.0, 35.0, 36.0):
        now[0] = t
        session.run(None, {"x": 1})
    now[0] = 50.0
    session.run(None, {"x": 1}, mine)
    shrunk = [o is not None for o in inner.options]
    assert shrunk == [False, False, True, False, False, True, True, False, True]
    assert inner.options[-1] is mine
    assert session.releases == 3
    assert inner.options[2].get_run_config_entry(SHRINK_ENTRY) == "cpu:0"
    assert session.get_inputs() == ["x"]


def test_a_real_session_gives_the_same_values_on_a_shrinking_run() -> None:
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    now = [0.0]
    plain = ort.InferenceSession(str(MODEL_DIR / "judge_head.onnx"), opts, providers=["CPUExecutionProvider"])
    session = ArenaReleasing(plain, period=1.0, clock=lambda: now[0])
    rng = np.random.default_rng(0)
    feed = {i.name: rng.random((64, 32, 8, 8), dtype=np.float32) - 0.5 for i in plain.get_inputs()}
    want = plain.run(None, feed)[0]
    now[0] = 5.0
    got = session.run(None, feed)[0]
    assert session.releases == 1
    np.testing.assert_array_equal(got, want)
    assert [i.name for i in session.get_inputs()] == [i.name for i in plain.get_inputs()]


def test_the_identity_models_and_the_segmenter_give_their_arenas_back() -> None:
    from models.files import JUDGE
    from vision.identity.sessions import open_model
    from vision.segmenter import Segmenter

    _, sessions = open_model(JUDGE)
    assert sessions and all(isinstance(s, ArenaReleasing) for s in sessions)
    assert isinstance(Segmenter().session, ArenaReleasing)
