"""The verifier's high-resolution band: a pair of two large crops is compared at a larger working size,
with its own logistic model, "same" threshold (as a logit offset) and "different" rule."""

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

AT_170 = AugmentConfig(min_px=165, max_px=175, corner_jitter=0.01, max_rotation_deg=2.0, light=0.3)
BAND = {"from_px": 120, "max_px": 200, "size": 128}


@pytest.fixture(scope="module")
def deck() -> rd.RenderedTwinItDeck:
    return rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]


def _crop(deck: rd.RenderedTwinItDeck, pattern: str, seed: int, aug: AugmentConfig = AT_170) -> np.ndarray:
    return camera_crop(rd.shrink(deck.image(pattern), 220), np.random.default_rng(seed), aug)


def test_a_crop_enters_the_band_by_its_resolution() -> None:
    assert jv.high_eligible(171, BAND)
    assert jv.high_eligible(120, BAND)
    assert not jv.high_eligible(119, BAND)
    # A crop larger than any calibrated, of unknown source (it may have been resampled from a small card).
    assert not jv.high_eligible(250, BAND)
    # The card's size in the camera frame decides where the caller knows it; the crop must be large too.
    assert jv.high_eligible(250, BAND, source_px=400)
    assert not jv.high_eligible(160, BAND, source_px=90)
    assert not jv.high_eligible(100, BAND, source_px=400)
    assert not jv.high_eligible(171, None)


def test_the_working_size_comes_from_the_crops() -> None:
    """The same code measures at 64 and at 128 px: a view of each size, an evidence of each."""
    rng = np.random.default_rng(3)
    crop = rng.integers(0, 255, size=(171, 171, 3), dtype=np.uint8)
    for size in (jv.SIZE, jv.HIGH_SIZE):
        v = jv.view_of_source(jv.source(crop, size), True)
        assert v.turn(0)[0].shape == (size, size, 3)
        ev = jv.measure(v, v, [0]).evidence
        assert ev.shape == (len(jv.FEATURES),) and np.isfinite(ev).all()
        assert ev[0] < 0.05  # a crop against itself: no difference


def _judge_with_band(folder: Path, band: dict | None) -> PatternJudge:
    folder.mkdir()
    for name in (*JUDGE.onnx, JUDGE.meta):
        shutil.copy(MODEL_DIR / name, folder / name)
    settings = json.loads((MODEL_DIR / VERIFY_FILE).read_text(encoding="utf-8"))
    settings.pop("high", None)
    if band is not None:
        settings["high"] = band
    (folder / VERIFY_FILE).write_text(json.dumps(settings), encoding="utf-8")
    return PatternJudge(folder)


def test_the_band_calls_large_pairs_different_by_its_own_rule_and_leaves_the_rest(
    tmp_path: Path, deck
) -> None:
    """Wiring: a band whose rule fires on every registered pair makes a genuine pair of two 170 px crops
    "different", with the p_same of its evidence measured at 128 px; a pair with one 100 px crop, and
    every pair under a band whose rule never fires, are judged exactly as without the band."""
    small = json.loads((MODEL_DIR / VERIFY_FILE).read_text(encoding="utf-8"))
    # The band's model as calibrated: without the net's logit of the registered pair (its column 1 where
    # the small crops' model takes one).
    comb = small["combination"]
    keep = [k for k in range(len(comb["weights"])) if not (jv.uses_aligned(comb) and k == 1)]
    comb = {
        "mean": [comb["mean"][k] for k in keep[:-1]],
        "std": [comb["std"][k] for k in keep[:-1]],
        "weights": [comb["weights"][k] for k in keep],
    }

    def band(logit_below: float) -> dict:
        return BAND | {"combination": comb, "different": {"logit_below": logit_below}}

    firing = _judge_with_band(tmp_path / "fire", band(1e6))
    silent = _judge_with_band(tmp_path / "quiet", band(-1e6))
    plain = _judge_with_band(tmp_path / "plain", None)
    pattern = deck.patterns[0]
    a, b = _crop(deck, pattern, 1), _crop(deck, pattern, 2)
    c = _crop(deck, pattern, 3, AugmentConfig(min_px=100, max_px=100, light=0.3))
    sa, sb, sc = firing.signatures([a, b, c])
    assert sa.lazy_view.has_high and sb.lazy_view.has_high and not sc.lazy_view.has_high
    z = firing.platt[0] * firing.best_logits([(sa, sb)]) + firing.platt[1]
    tried = jv.net_turn_order(firing._head_fn, sa.turns, sb.turns, firing.views)[: jv.TURNS_TRIED]
    m = jv.measure(sa.lazy_view.get(True), sb.lazy_view.get(True), tried)
    assert m.registered
    got = firing.p_same_many([(sa, sb)])[0]
    assert got < firing.different_below
    assert got == pytest.approx(
        min(jv.combined_p(z, m.evidence[None, :], comb, 0.0)[0], firing.different_below),
        rel=1e-9,
    )
    assert not np.allclose(m.evidence, jv.measure(sa.lazy_view.get(), sb.lazy_view.get(), tried).evidence)
    pa, pb, pc = plain.signatures([a, b, c])
    assert not pa.lazy_view.has_high
    before = plain.p_same_many([(pa, pb), (pa, pc)])
    assert before[0] >= plain.gate  # the genuine pair as the judge had it: not "different"
    # A mixed pair under the firing band, and every pair under the silent one: as without the band.
    assert firing.p_same_many([(sa, sc)])[0] == pytest.approx(before[1], rel=1e-12)
    qa, qb, qc = silent.signatures([a, b, c])
    assert silent.p_same_many([(qa, qb), (qa, qc)]) == pytest.approx(before, rel=1e-12)


def test_calibration_writes_the_band_and_its_card(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    for name in (*JUDGE.onnx, JUDGE.meta):
        shutil.copy(MODEL_DIR / name, folder / name)
    settings = tv.calibrate_verifier(folder, [ProceduralPatternDeck(500, 6, 64)], tv.CONFIGS["tiny"], "tiny")
    high = settings["high"]
    assert high["size"] == jv.HIGH_SIZE and high["from_px"] == 120 and high["max_px"] == 200
    assert high["pairs"] == [tv.CONFIGS["tiny"].high_fit_pairs, tv.CONFIGS["tiny"].high_calibration_pairs]
    rule = high["different"]
    assert rule["logit_below"] == pytest.approx(rule["genuine_lowest_logit"] - tv.DIFFERENT_MARGIN)
    assert rule["calibration_fired"]["same"]["fired"] == 0
    for key in ("validation", "small_verifier_validation", "net_alone_validation", "fit_set_check"):
        assert high[key]["pairs"] > 0
    # The band only adds "different": never a "same" the verifier at 64 px did not give.
    assert high["validation"]["same_accuracy"] == high["small_verifier_validation"]["same_accuracy"]
    card = tv.write_verify_card(settings, folder).read_text(encoding="utf-8")
    assert "## High-resolution band" in card
    assert PatternJudge(folder).high is not None


def test_a_large_near_duplicate_the_64_px_verifier_leaves_uncertain_is_called_different(
    tmp_path: Path, deck
) -> None:
    """The shipped band: a near-duplicate of the held-out bench deck (one element changed), both cards
    170 px, which the verifier at 64 px leaves "uncertain", is "different" at 128 px; genuine pairs of
    the same size are never called "different"."""
    x, y, kind = deck.near_duplicates[13]
    assert kind == "element_changed"
    a, b = _crop(deck, x, 130), _crop(deck, y, 1130)
    judge = PatternJudge()
    assert judge.high is not None
    assert judge.compare(a, b).verdict == "different"
    assert _judge_with_band(tmp_path / "plain", None).compare(a, b).verdict == "uncertain"
    genuine = [
        judge.compare(_crop(deck, p, 5000 + i), _crop(deck, p, 6000 + i))
        for i, p in enumerate(deck.patterns[:8])
    ]
    assert all(j.verdict != "different" for j in genuine)
    assert any(j.verdict == "same" for j in genuine)


def test_the_shipped_band_was_calibrated_on_many_large_pairs_and_adds_no_wrong_same() -> None:
    settings = json.loads((MODEL_DIR / VERIFY_FILE).read_text(encoding="utf-8"))
    high = settings["high"]
    fired = high["different"]["calibration_fired"]
    assert fired["same"]["pairs"] >= 1000 and fired["hard"]["pairs"] >= 1000
    assert fired["same"]["fired"] == 0
    assert high["validation"]["same_accuracy"] == high["small_verifier_validation"]["same_accuracy"]
    assert high["validation"]["hard_accuracy"] > high["small_verifier_validation"]["hard_accuracy"]
    assert high["validation"]["confident_wrong_rate"] <= 0.001
