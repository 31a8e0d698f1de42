"""The judge's classical verifier: genuine pairs (shifted, turned, relit) against one changed element,
its calibration end to end, and how the judge takes it up."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from models import judge_verify as jv
from models.files import JUDGE, MODEL_DIR
from models.judge_scoring import view_indices
from models.training import judge_verify as tv
from models.training.augment import AugmentConfig, camera_crop
from models.training.patterns import ProceduralPatternDeck
from vision.identity import PatternJudge
from vision.identity import render_decks as rd
from vision.identity.judge import VERIFY_FILE

GENTLE = AugmentConfig(min_px=90, max_px=120, corner_jitter=0.01, max_rotation_deg=2.0, light=0.3)


@pytest.fixture(scope="module")
def deck() -> rd.RenderedTwinItDeck:
    return rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]


def _face(deck: rd.RenderedTwinItDeck, pattern: str) -> np.ndarray:
    return rd.shrink(deck.image(pattern), 220)


def _relit(crop: np.ndarray) -> np.ndarray:
    """Another light: a gradient (0.85 to 1.2 across the card), a bluish white balance and a glare spot
    (the verifier's weak side: a glare spot of 60 levels or more can make a genuine pair uncertain)."""
    h, w = crop.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    field = 0.85 + 0.35 * xx / w
    out = crop.astype(np.float32) * field[:, :, None] * np.float32([1.1, 1.0, 0.9])
    out += 30.0 * np.exp(-((xx - 0.3 * w) ** 2 + (yy - 0.7 * h) ** 2) / (2 * (0.06 * w) ** 2))[:, :, None]
    return np.clip(out, 0, 255).astype(np.uint8)


def _tilted(crop: np.ndarray, degrees: float) -> np.ndarray:
    h, w = crop.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    return cv2.warpAffine(crop, m, (w, h), borderMode=cv2.BORDER_REPLICATE)


def _genuine_variants(face: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    a = camera_crop(face, np.random.default_rng(1), GENTLE)
    b = camera_crop(face, np.random.default_rng(2), GENTLE)
    shifted = np.ascontiguousarray(np.roll(b, 2, axis=1))
    return a, [b, shifted, np.ascontiguousarray(np.rot90(_tilted(b, 3.0))), _relit(b)]


def _evidence(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return jv.evidence(jv.view(a, True), jv.view(b, True))


def test_one_changed_element_shows_more_than_any_genuine_change(deck) -> None:
    """Shifted, turned (and tilted) and relit photos of one face differ less than a near-duplicate
    (one element changed) does, on the 99th percentile and on the largest region of difference."""
    checked = 0
    for a_name, b_name, kind in deck.near_duplicates[:6]:
        face = _face(deck, a_name)
        a, genuine = _genuine_variants(face)
        near = camera_crop(_face(deck, b_name), np.random.default_rng(3), GENTLE)
        ev_near = _evidence(a, near)
        ev_genuine = np.array([_evidence(a, g) for g in genuine])
        assert ev_near[0] > ev_genuine[:, 0].max(), (kind, ev_near, ev_genuine)
        assert ev_near[2] > ev_genuine[:, 2].max(), (kind, ev_near, ev_genuine)
        checked += 1
    assert checked == 6


def test_the_judge_with_its_verifier_calls_genuine_pairs_same_and_near_duplicates_not(deck) -> None:
    judge = PatternJudge()
    assert judge.verifier is not None, f"{VERIFY_FILE} beside the committed judge was not taken up"
    for a_name, b_name, _kind in deck.near_duplicates[:4]:
        a, genuine = _genuine_variants(_face(deck, a_name))
        for g in genuine:
            assert judge.compare(a, g).verdict == "same"
        near = camera_crop(_face(deck, b_name), np.random.default_rng(3), GENTLE)
        assert judge.compare(a, near).verdict != "same"


def test_pairs_are_drawn_reproducibly() -> None:
    decks = [ProceduralPatternDeck(500, 6, 64)]
    one, two = tv.draw_pairs(decks, 6, seed=4), tv.draw_pairs(decks, 6, seed=4)
    for (a1, b1, s1, k1), (a2, b2, s2, k2) in zip(one, two, strict=True):
        assert (s1, k1) == (s2, k2)
        np.testing.assert_array_equal(a1, a2)
        np.testing.assert_array_equal(b1, b2)
    assert {k for *_, k in one} <= {"same", "random", "hard"}


def _judge_copy(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in (*JUDGE.onnx, JUDGE.meta):
        shutil.copy(MODEL_DIR / name, folder / name)
    return folder


def test_calibration_runs_end_to_end_and_the_judge_takes_it_up(tmp_path: Path) -> None:
    folder = _judge_copy(tmp_path / "m")
    settings = tv.calibrate_verifier(folder, [ProceduralPatternDeck(500, 6, 64)], tv.CONFIGS["tiny"], "tiny")
    written = json.loads((folder / VERIFY_FILE).read_text(encoding="utf-8"))
    assert written["same_at_or_above"] == settings["same_at_or_above"] >= settings["gate"]
    assert written["combination"]["aligned_net"] is tv.CONFIGS["tiny"].aligned_net is True
    assert len(written["combination"]["weights"]) == 3 + len(jv.FEATURES)
    assert written["validation"]["pairs"] == tv.CONFIGS["tiny"].calibration_pairs
    assert tv.write_verify_card(settings, folder).is_file()
    judge = PatternJudge(folder)
    assert judge.verifier is not None
    assert judge.same_at == pytest.approx(settings["same_at_or_above"])
    res = written["resolution"]
    assert res["edges_px"] == list(tv.BAND_EDGES_PX)
    assert all(off >= 0 for off in res["offsets"])  # a band never gets a higher threshold
    assert all(t <= written["same_at_or_above"] for t in res["band_thresholds"])
    assert judge.resolution == res
    assert set(written["validation_by_band"]) == {"by_resolution_band", "by_crop_side"}
    assert "## Resolution bands" in (folder / tv.VERIFY_CARD).read_text(encoding="utf-8")


def test_a_verifier_calibrated_for_other_net_files_is_ignored(tmp_path: Path, caplog) -> None:
    folder = _judge_copy(tmp_path / "m")
    settings = json.loads((MODEL_DIR / VERIFY_FILE).read_text(encoding="utf-8"))
    settings["judge_sha256"] = {name: "0" * 64 for name in JUDGE.onnx}
    (folder / VERIFY_FILE).write_text(json.dumps(settings), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        judge = PatternJudge(folder)
    assert judge.verifier is None
    assert "calibrated for other judge files" in caplog.text
    net_meta = json.loads((MODEL_DIR / JUDGE.meta).read_text(encoding="utf-8"))
    assert judge.same_at == net_meta["thresholds"]["same_at_or_above"]


def test_signatures_made_without_the_verifier_are_judged_by_the_net_alone(tmp_path: Path, deck) -> None:
    """A pair whose signatures lack the verifier's view keeps the net's p_same, and is "same" only
    where the net alone would say so (its own threshold)."""
    with_verifier = PatternJudge()
    net_only = PatternJudge(_judge_copy(tmp_path / "net"))
    assert net_only.verifier is None
    crops = [
        camera_crop(_face(deck, p), np.random.default_rng(i), GENTLE) for i, p in enumerate(deck.patterns[:3])
    ]
    crops.append(camera_crop(_face(deck, deck.patterns[0]), np.random.default_rng(9), GENTLE))
    plain = net_only.signatures(crops)
    pairs = [(plain[3], plain[i]) for i in range(3)]
    p_net = net_only.p_same_many(pairs)
    p = with_verifier.p_same_many(pairs)
    for pn, pv in zip(p_net, p, strict=True):
        if pn >= net_only.same_at:
            assert pv == pn
        else:
            assert pv <= pn and pv < with_verifier.same_at


def test_the_train_command_calibrates_the_verifier_beside_the_judge(tmp_path: Path, capsys) -> None:
    from web.cli import main

    folder = _judge_copy(tmp_path / "m")
    assert main(["train", "judge-verify", "--tiny", "--out", str(folder)]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["model"] == "judge-verify" and summary["config"] == "tiny"
    settings = json.loads((folder / VERIFY_FILE).read_text(encoding="utf-8"))
    assert settings["validation"] == summary["validation"]
    assert "tableref train judge-verify --tiny" in (folder / tv.VERIFY_CARD).read_text(encoding="utf-8")
    assert PatternJudge(folder).verifier is not None


def test_the_train_command_names_the_missing_judge(tmp_path: Path, capsys) -> None:
    from web.cli import main

    assert main(["train", "judge-verify", "--tiny", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert str(tmp_path / JUDGE.meta) in err and "tableref train judge" in err


def test_a_signature_builds_its_view_only_when_a_verified_pair_needs_it(deck) -> None:
    """Signatures keep the crop shrunk for the verifier, not its view; a pair the net rules out leaves
    both unbuilt; a pair it finds likely the same builds both views once (the same evidence as views
    made from the crops directly) and keeps them."""
    judge = PatternJudge()
    assert judge.verifier is not None
    face = _face(deck, deck.patterns[0])
    a, genuine = _genuine_variants(face)
    other = camera_crop(_face(deck, deck.patterns[5]), np.random.default_rng(4), GENTLE)
    sa, sb, so = judge.signatures([a, genuine[0], other])
    views = [s.lazy_view for s in (sa, sb, so)]
    assert all(v is not None and not v.built for v in views)
    assert judge.p_same_many([(sa, so)])[0] < judge.gate
    assert not any(v.built for v in views)
    p = judge.p_same_many([(sa, sb)])[0]
    assert views[0].built and views[1].built and not views[2].built
    built = sa.view
    assert judge.p_same_many([(sa, sb)])[0] == p and sa.view is built
    assert np.allclose(jv.evidence(sa.view, sb.view), _evidence(a, genuine[0]), rtol=0, atol=1e-6)


def test_the_judge_card_points_to_the_verifier_it_is_calibrated_with(tmp_path: Path) -> None:
    """The judge's card (regenerated by ``tableref train judge``) keeps the paragraph on the verifier
    beside it, with its threshold and who calls "different"; a verifier of other judge files is named as
    ignored; none, nothing."""
    from models.training.model_card import verifier_section

    folder = _judge_copy(tmp_path / "m")
    assert verifier_section(folder, JUDGE) == []
    settings = json.loads((MODEL_DIR / VERIFY_FILE).read_text(encoding="utf-8"))
    (folder / VERIFY_FILE).write_text(json.dumps(settings), encoding="utf-8")
    text = "\n".join(verifier_section(folder, JUDGE))
    assert "## Second opinion" in text and f"({settings['same_at_or_above']:.6f})" in text
    says_different = 'calls a pair "different" where both its registrations converged'
    assert (says_different in text) == ("different" in settings)
    without_rule = {k: v for k, v in settings.items() if k != "different"}
    (folder / VERIFY_FILE).write_text(json.dumps(without_rule), encoding="utf-8")
    text = "\n".join(verifier_section(folder, JUDGE))
    assert "stays the net's call" in text and says_different not in text
    settings["judge_sha256"] = {name: "0" * 64 for name in JUDGE.onnx}
    (folder / VERIFY_FILE).write_text(json.dumps(settings), encoding="utf-8")
    assert "calibrated for other judge files" in "\n".join(verifier_section(folder, JUDGE))


def test_the_turn_the_verifier_tries_is_the_one_the_net_scores_best(deck) -> None:
    """``net_turn_order`` ranks b's relative turns by the same view-averaged logit whose best the judge
    reports; on a genuine pair turned a quarter, the verifier's own best turn over all turns is the
    net's first, so trying that one alone gives the same evidence."""
    judge = PatternJudge()
    face = _face(deck, deck.patterns[1])
    a, genuine = _genuine_variants(face)
    turned = genuine[2]
    sa, sb = judge.signatures([a, turned])
    order = jv.net_turn_order(judge._head_fn, sa.turns, sb.turns, judge.views)
    assert sorted(order.tolist()) == [0, 1, 2, 3]
    ia, ib = view_indices(4, judge.views)
    z = judge._head_fn(sa.turns[ia.reshape(-1)], sb.turns[ib.reshape(-1)]).reshape(ia.shape).mean(axis=1)
    assert np.isclose(z[order[0]], judge.best_logits([(sa, sb)])[0], atol=1e-5)
    va, vb = jv.view(a, True), jv.view(turned, True)
    assert np.array_equal(jv.evidence(va, vb, order[:1]), jv.evidence(va, vb))


def test_the_fit_weighs_different_pairs_and_keeps_p_a_probability() -> None:
    """Different pairs weighing 30: the fit is the weighted likelihood's optimum, its intercept then
    raised by log(30), so where a logistic model is right (two classes of equal spread) its p is the
    plain fit's, a probability; weight 1 is the plain fit."""
    rng = np.random.default_rng(0)
    y = (rng.random(4000) < 0.8).astype(float)
    x = (y * 1.5 + rng.normal(size=4000))[:, None]
    plain = tv.fit_logistic(x, y, 1e-3)
    assert tv.fit_logistic(x, y, 1e-3, 1.0) == plain
    weighted = tv.fit_logistic(x, y, 1e-3, 30.0)

    def logit(fit: dict) -> np.ndarray:
        return (x[:, 0] - fit["mean"][0]) / fit["std"][0] * fit["weights"][0] + fit["weights"][1]

    # The weighted likelihood's gradient vanishes once log(30) is taken off the intercept again.
    r = np.where(y > 0, 1.0, 30.0)
    r /= r.mean()
    q = 1.0 / (1.0 + np.exp(-(logit(weighted) - np.log(30.0))))
    z = np.column_stack([(x[:, 0] - weighted["mean"][0]) / weighted["std"][0], np.ones(len(y))])
    grad = z.T @ (r * (q - y)) / len(y) + 1e-3 * (np.asarray(weighted["weights"]) - [0.0, np.log(30.0)])
    assert np.abs(grad).max() < 1e-6
    p_plain, p_weighted = (1.0 / (1.0 + np.exp(-logit(f))) for f in (plain, weighted))
    assert np.abs(p_weighted - p_plain).mean() < 0.02
    assert tv.CONFIGS["full"].different_weight == 10.0
