"""The judge's resolution bands: a pair's "same" threshold depends on how large the cards were in the
camera frame (the verifier's evidence is surer on large crops), each band calibrated on its own."""

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
from vision.errors import InputError
from vision.identity import PatternJudge
from vision.identity import render_decks as rd

AT_110 = AugmentConfig(min_px=110, max_px=110)
"""The bench's camera crops (light, shadow, blur, finder error), every card 110 px in the frame."""


@pytest.fixture(scope="module")
def judge() -> PatternJudge:
    return PatternJudge()


@pytest.fixture(scope="module")
def deck() -> rd.RenderedTwinItDeck:
    return rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]


def _crop(deck: rd.RenderedTwinItDeck, pattern: str, rng: np.random.Generator) -> np.ndarray:
    return camera_crop(rd.shrink(deck.image(pattern), 220), rng, AT_110)


def test_the_shipped_verifier_has_a_band_for_each_resolution(judge) -> None:
    res = judge.resolution
    assert res is not None
    assert res["edges_px"] == list(tv.BAND_EDGES_PX)
    assert len(res["offsets"]) == len(res["band_thresholds"]) == len(tv.BAND_EDGES_PX) + 1
    # Each offset moves its band's own threshold onto the global one.
    for t, off in zip(res["band_thresholds"], res["offsets"], strict=True):
        z = np.log(t / (1 - t)) + off
        assert 1 / (1 + np.exp(-z)) == pytest.approx(judge.same_at, abs=1e-9)


def test_large_cards_get_a_lower_same_threshold_than_small_ones(judge) -> None:
    """On the calibration decks, near-duplicates of cards 100 px or more in the frame stay further
    from genuine pairs than those of small cards: the large band's threshold is the lowest."""
    t = judge.resolution["band_thresholds"]
    assert t[-1] < judge.same_at
    assert t[-1] < t[0]


def test_a_large_genuine_pair_is_same_and_the_same_crops_from_small_cards_are_not(judge, deck) -> None:
    """Genuine pairs of camera crops 110 px wide: several are "same", while the very same crops,
    declared as cut from cards 50 px wide in the frame (a resampled crop), stay "uncertain"."""
    rng = np.random.default_rng(11)
    patterns = sorted(set(deck.faces))[:24]
    crops = [c for p in patterns for c in (_crop(deck, p, rng), _crop(deck, p, rng))]
    large = judge.signatures(crops)
    small = judge.signatures(crops, source_px=[50.0] * len(crops))
    assert all(s.px == 110 for s in large) and all(s.px == 50 for s in small)
    p_large = judge.p_same_many([(large[2 * k], large[2 * k + 1]) for k in range(len(patterns))])
    p_small = judge.p_same_many([(small[2 * k], small[2 * k + 1]) for k in range(len(patterns))])
    v_large = [judge.verdict(float(p)) for p in p_large]
    v_small = [judge.verdict(float(p)) for p in p_small]
    assert "different" not in v_large
    assert v_large.count("same") > v_small.count("same")
    # Same evidence, a band further up: never a lower p_same.
    assert np.all(p_large >= p_small - 1e-12)
    assert any(a == "same" and b == "uncertain" for a, b in zip(v_large, v_small, strict=True))


def test_near_duplicates_of_large_cards_are_not_same(judge, deck) -> None:
    rng = np.random.default_rng(12)
    pairs = [(_crop(deck, a, rng), _crop(deck, b, rng)) for a, b, _ in deck.near_duplicates[:20]]
    sigs = judge.signatures([c for pair in pairs for c in pair])
    assert all(s.px == 110 for s in sigs)
    p = judge.p_same_many([(sigs[2 * k], sigs[2 * k + 1]) for k in range(len(pairs))])
    assert all(judge.verdict(float(v)) != "same" for v in p), p


def test_a_crop_larger_than_any_calibrated_keeps_the_global_threshold() -> None:
    res = {"max_px": 120, "edges_px": [60.0, 80.0, 100.0], "offsets": [-0.5, 0.0, 0.2, 0.7]}
    assert jv.effective_px(110, res) == 110
    assert jv.effective_px(192, res) == 0.0  # may be resampled from a small card: unknown
    assert jv.band_offset(0.0, res) == 0.0
    assert jv.effective_px(192, res, source_px=58) == 58
    assert jv.band_offset(58, res) == -0.5
    assert jv.band_offset(60, res) == 0.0
    assert jv.band_offset(110, res) == 0.7
    assert jv.band_offset(110, None) == 0.0


def test_source_px_needs_one_value_per_crop(judge, deck) -> None:
    crop = _crop(deck, deck.faces[0], np.random.default_rng(1))
    with pytest.raises(InputError, match="source_px"):
        judge.signatures([crop, crop], source_px=[60.0])


def test_each_band_sets_its_own_threshold_from_its_own_near_duplicates() -> None:
    """A band whose different pairs stay far below gets a lower threshold (positive offset); one whose
    different pairs come close, and one with too few measured different pairs, keep the global one."""
    rng = np.random.default_rng(0)
    px, p, same = [], [], []
    for centre, neg_top in ((50.0, 0.995), (90.0, 0.9), (110.0, 0.7)):
        n_neg = 40 if centre < 100 else tv.MIN_BAND_NEGATIVES - 1
        px += [centre] * (n_neg + 100)
        p += [*rng.uniform(0.3, neg_top - 0.05, n_neg - 1), neg_top, *rng.uniform(0.9, 1.0, 100)]
        same += [False] * n_neg + [True] * 100
    p_arr, same_arr, px_arr = np.asarray(p), np.asarray(same), np.asarray(px)
    thresholds, offsets = tv.band_offsets(p_arr, same_arr, px_arr, np.ones(len(p), bool), 0.98, 0.0006, 0.3)
    # bands: <60, 60-80 (empty), 80-100, >=100
    assert thresholds[0] == 0.98 and offsets[0] == 0.0
    assert thresholds[1] == 0.98 and offsets[1] == 0.0
    assert 0.9 < thresholds[2] < 0.901 and offsets[2] > 0
    assert thresholds[3] == 0.98 and offsets[3] == 0.0


def test_a_verifier_without_resolution_bands_judges_every_pair_by_the_global_threshold(
    tmp_path: Path, deck
) -> None:
    """Settings calibrated before the bands existed: no offsets, the crops' px stays 0."""
    for name in (*JUDGE.onnx, JUDGE.meta):
        shutil.copy(MODEL_DIR / name, tmp_path / name)
    settings = json.loads((MODEL_DIR / "judge_verify.json").read_text(encoding="utf-8"))
    del settings["resolution"]
    (tmp_path / "judge_verify.json").write_text(json.dumps(settings), encoding="utf-8")
    judge = PatternJudge(tmp_path)
    assert judge.verifier is not None and judge.resolution is None
    rng = np.random.default_rng(5)
    pattern = deck.faces[0]
    sigs = judge.signatures([_crop(deck, pattern, rng), _crop(deck, pattern, rng)])
    assert [s.px for s in sigs] == [0.0, 0.0]
    assert PatternJudge().signatures([_crop(deck, pattern, rng)])[0].px == 110  # the shipped one has bands
