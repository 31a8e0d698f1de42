"""The net on the registered, light-evened pair: the verifier keeps b registered and light-evened onto
a, the net scores that pair, and the verifier's logistic model takes that logit as an input where its
calibration says so (judge_verify.json's ``combination.aligned_net``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from models import judge_verify as jv
from models.files import JUDGE, MODEL_DIR
from models.training import judge_verify as tv
from models.training.augment import AugmentConfig, camera_crop
from models.training.patterns import ProceduralPatternDeck
from vision.identity import PatternJudge
from vision.identity import render_decks as rd
from vision.identity.judge import VERIFY_FILE

GENTLE = AugmentConfig(min_px=90, max_px=120, corner_jitter=0.01, max_rotation_deg=2.0, light=0.3)
INNER = slice(6, 58)


@pytest.fixture(scope="module")
def deck() -> rd.RenderedTwinItDeck:
    return rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]


@pytest.fixture(scope="module")
def judge() -> PatternJudge:
    return PatternJudge()


def _face(deck: rd.RenderedTwinItDeck, pattern: str) -> np.ndarray:
    return rd.shrink(deck.image(pattern), 220)


def _relit_shifted(crop: np.ndarray) -> np.ndarray:
    """The crop 3 px off to one side, under a light gradient (0.8 to 1.2 across) and a warmer white."""
    h, w = crop.shape[:2]
    field = 0.8 + 0.4 * np.mgrid[0:h, 0:w][1].astype(np.float32) / w
    out = np.roll(crop, 3, axis=1).astype(np.float32) * field[:, :, None] * np.float32([0.9, 1.0, 1.1])
    return np.clip(out, 0, 255).astype(np.uint8)


def _pair(judge: PatternJudge, a: np.ndarray, b: np.ndarray) -> tuple[float, jv.Measurement, float]:
    """The net's calibrated logit of the pair as it lies, the verifier's measurement (b kept registered
    and light-evened) and the net's logit of that registered pair."""
    sa, sb = judge.signatures([a, b])
    z = judge.platt[0] * judge.best_logits([(sa, sb)])[0] + judge.platt[1]
    tried = jv.net_turn_order(judge._head_fn, sa.turns, sb.turns, judge.views)[: jv.TURNS_TRIED]
    va = sa.lazy_view.get()
    m = jv.measure(va, sb.lazy_view.get(), tried, keep_aligned=True)
    assert m.aligned is not None
    return float(z), m, judge.aligned_logit(va.turn(0)[0], m.aligned, sa.square)


def test_the_verifier_keeps_b_registered_and_light_evened_onto_a(deck) -> None:
    """b shifted by 3 px under another light: once registered and light-evened it differs from a by less
    than half of what it did; the evidence is the same whether or not the aligned crop is kept."""
    face = _face(deck, deck.patterns[0])
    a = camera_crop(face, np.random.default_rng(1), GENTLE)
    b = _relit_shifted(camera_crop(face, np.random.default_rng(2), GENTLE))
    va, vb = jv.view(a, True), jv.view(b, True)
    kept = jv.measure(va, vb, [0], keep_aligned=True)
    plain = jv.measure(va, vb, [0])
    assert plain.aligned is None and kept.aligned is not None
    np.testing.assert_array_equal(kept.evidence, plain.evidence)
    a0, b0 = va.turn(0)[0], vb.turn(0)[0]
    assert kept.aligned.shape == a0.shape and kept.aligned.dtype == np.float32
    before = float(np.abs(a0 - b0)[INNER, INNER].mean())
    after = float(np.abs(a0 - kept.aligned)[INNER, INNER].mean())
    assert after < 0.5 * before, (before, after)


def test_the_net_is_surer_of_a_genuine_pair_registered_and_not_of_a_near_duplicate(deck, judge) -> None:
    """Genuine pairs (another crop of the face, shifted and relit, turned a quarter): the net's logit of
    the registered, light-evened pair is above its logit of the pair as it lies; a near-duplicate's
    stays below 0 (the net still sees the changed element)."""
    for a_name, b_name, _kind in deck.near_duplicates[:3]:
        face = _face(deck, a_name)
        a = camera_crop(face, np.random.default_rng(1), GENTLE)
        b = camera_crop(face, np.random.default_rng(2), GENTLE)
        for g in (b, _relit_shifted(b), np.ascontiguousarray(np.rot90(b))):
            z, m, za = _pair(judge, a, g)
            assert m.registered and za > z, (a_name, z, za)
        near = camera_crop(_face(deck, b_name), np.random.default_rng(3), GENTLE)
        assert _pair(judge, a, near)[2] < 0.0


def _strip(combination: dict) -> dict:
    """A combination without the aligned logit's input (as calibrated before it)."""
    if not jv.uses_aligned(combination):
        return combination | {"aligned_net": False}
    drop = [k for k in range(len(combination["weights"])) if k != 1]
    return {
        "mean": [combination["mean"][k] for k in drop[:-1]],
        "std": [combination["std"][k] for k in drop[:-1]],
        "weights": [combination["weights"][k] for k in drop],
        "aligned_net": False,
    }


def _with_aligned(combination: dict, weight: float) -> dict:
    """``combination`` (stripped) with the aligned logit as its second input, standardised by (0, 1)."""
    c = _strip(combination)
    return {
        "mean": [c["mean"][0], 0.0, *c["mean"][1:]],
        "std": [c["std"][0], 1.0, *c["std"][1:]],
        "weights": [c["weights"][0], weight, *c["weights"][1:]],
        "aligned_net": True,
    }


def _judge_with(folder: Path, combination: dict) -> PatternJudge:
    folder.mkdir()
    for name in (*JUDGE.onnx, JUDGE.meta):
        shutil.copy(MODEL_DIR / name, folder / name)
    settings = json.loads((MODEL_DIR / VERIFY_FILE).read_text(encoding="utf-8"))
    settings["combination"] = combination
    settings.pop("high", None)
    settings.get("different", {}).pop("combination", None)  # the rule then reads the model above
    (folder / VERIFY_FILE).write_text(json.dumps(settings), encoding="utf-8")
    return PatternJudge(folder)


def test_the_judge_adds_the_aligned_logit_where_its_model_takes_it(tmp_path: Path, deck) -> None:
    """Wiring: with a zero weight on the aligned logit the judge's p_same is exactly that of the model
    without it; with weight w it is the model's logistic plus w times the aligned logit, measured here
    independently of the judge's own call."""
    shipped = json.loads((MODEL_DIR / VERIFY_FILE).read_text(encoding="utf-8"))["combination"]
    plain = _judge_with(tmp_path / "plain", _strip(shipped))
    zero = _judge_with(tmp_path / "zero", _with_aligned(shipped, 0.0))
    two = _judge_with(tmp_path / "two", _with_aligned(shipped, 2.0))
    face = _face(deck, deck.patterns[1])
    a = camera_crop(face, np.random.default_rng(4), GENTLE)
    b = _relit_shifted(camera_crop(face, np.random.default_rng(5), GENTLE))
    sigs = {j: j.signatures([a, b]) for j in (plain, zero, two)}
    p = {j: float(j.p_same_many([tuple(s)])[0]) for j, s in sigs.items()}
    assert p[plain] >= plain.gate
    assert p[zero] == pytest.approx(p[plain], rel=1e-12)
    z, m, za = _pair(two, a, b)
    offset = jv.band_offset(min(s.px for s in sigs[two]), two.resolution)
    base = jv.combined_logit(np.asarray([z]), m.evidence[None, :], _strip(shipped))[0]
    expected = 1.0 / (1.0 + np.exp(-(base + offset + 2.0 * za)))
    assert p[two] == pytest.approx(max(expected, two.different_below), rel=1e-9)
    assert p[two] != pytest.approx(p[plain], rel=1e-6)
    # a's maps are kept on its view for its next pair, and give the same answer.
    assert sigs[two][0].lazy_view.get().net_maps is not None
    assert sigs[plain][0].lazy_view.get().net_maps is None
    assert float(two.p_same_many([tuple(sigs[two])])[0]) == p[two]


def test_a_model_that_takes_the_aligned_logit_refuses_to_run_without_it() -> None:
    shipped = json.loads((MODEL_DIR / VERIFY_FILE).read_text(encoding="utf-8"))["combination"]
    ev = np.ones((1, len(jv.FEATURES)))
    with pytest.raises(ValueError, match="registered pair"):
        jv.combined_logit(np.zeros(1), ev, _with_aligned(shipped, 1.0))
    assert np.isfinite(jv.combined_logit(np.zeros(1), ev, _with_aligned(shipped, 1.0), np.zeros(1))).all()


def test_calibration_fits_the_aligned_logit_unless_told_not_to(tmp_path: Path) -> None:
    decks = [ProceduralPatternDeck(500, 6, 64)]
    folders = {}
    for aligned in (True, False):
        folder = tmp_path / f"m{int(aligned)}"
        folder.mkdir()
        for name in (*JUDGE.onnx, JUDGE.meta):
            shutil.copy(MODEL_DIR / name, folder / name)
        cfg = tv.VerifyConfig(**(tv.CONFIGS["tiny"].__dict__ | {"aligned_net": aligned}))
        settings = tv.calibrate_verifier(folder, decks, cfg, "tiny")
        folders[aligned] = folder
        assert settings["combination"]["aligned_net"] is aligned
        assert settings["verifier"]["aligned_net"] is aligned
        assert len(settings["combination"]["weights"]) == 2 + int(aligned) + len(jv.FEATURES)
        # The high band's model never takes it (it is measured at 128 px).
        assert not jv.uses_aligned(settings["high"]["combination"])
        assert len(settings["high"]["combination"]["weights"]) == 2 + len(jv.FEATURES)
    assert PatternJudge(folders[True])._aligned and not PatternJudge(folders[False])._aligned
