"""The verifier's "different" rule: it fires only where both registrations converged and the
combination's logit of "same" lies below every genuine calibration pair's (by a margin); the judge then
also measures the pairs the net leaves uncertain below the gate, and calls such a pair "different"."""

from __future__ import annotations

import dataclasses
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


@pytest.fixture(scope="module")
def genuine() -> tuple[np.ndarray, np.ndarray]:
    deck = rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]
    face = rd.shrink(deck.image(deck.patterns[0]), 220)
    return camera_crop(face, np.random.default_rng(1), GENTLE), camera_crop(
        face, np.random.default_rng(2), GENTLE
    )


def test_a_registration_that_gives_up_is_reported(genuine) -> None:
    a, b = genuine
    m = jv.measure(jv.view(a, True), jv.view(b, True))
    assert m.registered
    assert np.array_equal(m.evidence, jv.evidence(jv.view(a, True), jv.view(b, True)))
    # A plain card gives ECC nothing to match: it gives up, and the map is the identity.
    flat = np.full_like(b, 200)
    assert not jv.measure(jv.view(a, True), jv.view(flat, True)).registered
    grey = jv.view(a, True).turn(0)[1]
    warp, converged = jv.register_checked(grey, jv.view(flat, True).turn(0)[1])
    assert not converged and np.array_equal(warp, np.eye(2, 3, dtype=np.float32))


def _logit(settings: dict, m: jv.Measurement) -> tuple[float, float | None]:
    """The combination's logit of "same" with the net's logit 0 (and its logit of the registered pair 0
    where the model takes one), and that aligned logit (None where the model takes none)."""
    za = 0.0 if jv.uses_aligned(settings["combination"]) else None
    aligned = None if za is None else np.zeros(1)
    return float(jv.combined_logit(np.zeros(1), m.evidence[None, :], settings["combination"], aligned)[0]), za


def test_the_rule_fires_only_below_its_logit_and_on_converged_registrations(genuine) -> None:
    settings = json.loads((MODEL_DIR / VERIFY_FILE).read_text(encoding="utf-8"))
    m = jv.measure(jv.view(genuine[0], True), jv.view(genuine[1], True))
    z, za = _logit(settings, m)
    above = settings | {"different": {"logit_below": z + 0.01}}
    below = settings | {"different": {"logit_below": z - 0.01}}
    assert jv.says_different(0.0, m, above, 0.0, za)
    assert not jv.says_different(0.0, m, below, 0.0, za)
    assert not jv.says_different(0.0, dataclasses.replace(m, registered=False), above, 0.0, za)
    assert not jv.says_different(0.0, m, {k: v for k, v in settings.items() if k != "different"})


def test_the_rule_judges_by_its_own_model_where_it_has_one(genuine) -> None:
    """A rule with its own logistic model (a plain fit beside a weighted "same" one) reads the pair's
    logit from it, not from the settings' model."""
    settings = json.loads((MODEL_DIR / VERIFY_FILE).read_text(encoding="utf-8"))
    m = jv.measure(jv.view(genuine[0], True), jv.view(genuine[1], True))
    z, za = _logit(settings, m)
    own = dict(settings["combination"])
    own["weights"] = [*own["weights"][:-1], own["weights"][-1] + 10.0]
    plain_rule = settings | {"different": {"logit_below": z + 5.0}}
    own_rule = settings | {"different": {"logit_below": z + 5.0, "combination": own}}
    assert jv.says_different(0.0, m, plain_rule, 0.0, za)
    assert not jv.says_different(0.0, m, own_rule, 0.0, za)


def test_a_band_uses_its_own_threshold_and_an_unknown_resolution_the_global_one(genuine) -> None:
    rule = {"logit_below": -3.0, "by_band": {"edges_px": [60.0, 80.0], "logit_below": [-3.0, -1.0, -2.0]}}
    assert jv.different_logit_below(rule, 0.0) == -3.0
    assert jv.different_logit_below(rule, 50.0) == -3.0
    assert jv.different_logit_below(rule, 70.0) == -1.0
    assert jv.different_logit_below(rule, 200.0) == -2.0
    assert jv.different_logit_below({"logit_below": -3.0}, 70.0) == -3.0
    settings = json.loads((MODEL_DIR / VERIFY_FILE).read_text(encoding="utf-8"))
    m = jv.measure(jv.view(genuine[0], True), jv.view(genuine[1], True))
    z, za = _logit(settings, m)
    banded = settings | {
        "different": {"logit_below": z - 1, "by_band": {"edges_px": [60.0], "logit_below": [z - 1, z + 1]}}
    }
    assert jv.says_different(0.0, m, banded, 100.0, za)
    assert not jv.says_different(0.0, m, banded, 50.0, za)
    assert not jv.says_different(0.0, m, banded, 0.0, za)


def _judge_with_rule(folder: Path, logit_below: float) -> PatternJudge:
    folder.mkdir(parents=True, exist_ok=True)
    for name in (*JUDGE.onnx, JUDGE.meta):
        shutil.copy(MODEL_DIR / name, folder / name)
    settings = json.loads((MODEL_DIR / VERIFY_FILE).read_text(encoding="utf-8"))
    settings["different"] = {"logit_below": logit_below, "measured_from": 0.0}
    (folder / VERIFY_FILE).write_text(json.dumps(settings), encoding="utf-8")
    return PatternJudge(folder)


def test_the_judge_calls_different_what_the_rule_fires_on(tmp_path: Path, genuine) -> None:
    """Wiring: a rule that fires on every registered pair makes the genuine pair "different" (p_same below
    the net's threshold); one that fires on none leaves it as the judge had it."""
    firing = _judge_with_rule(tmp_path / "fire", 1e6)
    silent = _judge_with_rule(tmp_path / "quiet", -1e6)
    assert firing.measure_from == firing.different_below
    a, b = genuine
    assert firing.compare(a, b).verdict == "different"
    assert firing.p_same_many([tuple(firing.signatures([a, b]))])[0] < firing.different_below
    kept = silent.compare(a, b)
    assert kept.verdict != "different" and kept.p_same >= silent.different_below
    plain = PatternJudge()
    assert kept == plain.compare(a, b)


def test_the_shipped_rule_fires_on_no_genuine_calibration_pair() -> None:
    settings = json.loads((MODEL_DIR / VERIFY_FILE).read_text(encoding="utf-8"))
    rule = settings["different"]
    assert rule["logit_below"] == pytest.approx(rule["genuine_lowest_logit"] - rule["margin"])
    assert rule["margin"] > 0
    assert rule["calibration_fired"]["same"]["fired"] == 0
    assert rule["fit_set_fired"]["same"]["fired"] == 0
    assert min(rule["by_band"]["logit_below"]) >= rule["logit_below"]
    judge = PatternJudge()
    assert judge.measure_from == judge.different_below < judge.gate


def test_calibration_sets_the_rule_below_every_genuine_pair(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    for name in (*JUDGE.onnx, JUDGE.meta):
        shutil.copy(MODEL_DIR / name, folder / name)
    deck = [ProceduralPatternDeck(500, 6, 64)]
    settings = tv.calibrate_verifier(folder, deck, tv.CONFIGS["tiny"], "tiny")
    rule = settings["different"]
    assert rule["logit_below"] == pytest.approx(rule["genuine_lowest_logit"] - tv.DIFFERENT_MARGIN)
    assert rule["calibration_fired"]["same"]["fired"] == 0
    bands = rule["by_band"]
    assert bands["edges_px"] == list(tv.BAND_EDGES_PX)
    for n, t in zip(bands["genuine_pairs"], bands["logit_below"], strict=True):
        assert t >= rule["logit_below"]  # a band never fires below the global threshold
        if n < tv.MIN_BAND_GENUINE:
            assert t == rule["logit_below"]
    assert rule["measured_from"] == pytest.approx(
        json.loads((folder / JUDGE.meta).read_text(encoding="utf-8"))["thresholds"]["different_below"]
    )
    card = tv.write_verify_card(settings, folder).read_text(encoding="utf-8")
    assert "registrations converged" in card
    no_rule = tv.calibrate_verifier(
        folder, deck, dataclasses.replace(tv.CONFIGS["tiny"], different_margin=None), "tiny"
    )
    assert "different" not in no_rule
    assert "stays the net's call" in tv.write_verify_card(no_rule, folder).read_text(encoding="utf-8")
