"""The judge resizes each crop once: the verifier's 64 px source is also the net's input before it is
normalised, and the turns are written straight into the batch the net takes. Same numbers as before."""

from __future__ import annotations

import numpy as np
import pytest

from models import judge_verify as jv
from models.preprocess import small_to_tensor, to_tensor, turn_count, turns, turns_into


def _crops() -> list[np.ndarray]:
    rng = np.random.default_rng(3)
    out = []
    for h, w in ((176, 176), (61, 58), (120, 80), (80, 124), (47, 47), (200, 131)):
        img = rng.integers(0, 256, size=(h, w, 3), dtype=np.uint8)
        img[h // 4 : h // 2, w // 3 : w // 2] = (245, 245, 245)
        out.append(img)
    return out


@pytest.mark.parametrize("balance", [False, True])
def test_the_verifier_source_gives_the_net_input_to_the_bit(balance: bool) -> None:
    for crop in _crops():
        want = to_tensor(crop, jv.SIZE, jv.SIZE, balance)
        assert np.array_equal(small_to_tensor(jv.source(crop), balance), want)


def test_turns_into_fills_the_batch_as_turns_stacks_it() -> None:
    x = to_tensor(_crops()[2], 64, 64)
    for square in (True, False):
        out = np.full((turn_count(square), *x.shape), np.nan, np.float32)
        turns_into(x, square, out)
        assert np.array_equal(out, turns(x, square))


def test_the_judges_signatures_are_the_embedding_of_each_crops_turns() -> None:
    from vision.identity import PatternJudge

    judge = PatternJudge()
    assert judge.verifier is not None and judge.size == jv.SIZE  # the shared-resize path is the one run
    crops = _crops()
    sigs = judge.signatures(crops)
    for crop, sig in zip(crops, sigs, strict=True):
        x = to_tensor(crop, judge.size, judge.size, judge.balance)
        square = sig.square
        want = judge._embed.run(None, {"crops": turns(x, square).astype(np.float32)})[0]
        assert sig.turns.shape == want.shape
        # one batch against each crop alone: the same kernels, within rounding
        assert np.allclose(sig.turns, want, atol=1e-6)
        assert np.array_equal(judge.signature(crop).turns, judge.signatures([crop])[0].turns)
