"""The verifier's content numbers: how much each card holds (gradient, ink) and how much of it is white
(ground or glare), so that the same difference counts for more on a faint, sparse card than on a bold,
busy one; and the judge refuses settings calibrated on other evidence numbers than its code measures."""

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
from vision.identity import PatternJudge
from vision.identity.judge import VERIFY_FILE

CONTENT = slice(len(jv.DIFFERENCE_FEATURES), len(jv.DIFFERENCE_FEATURES) + len(jv.CONTENT_FEATURES))
WHITE = slice(CONTENT.stop, len(jv.FEATURES))


def _card(shapes: int, thickness: int, colour: tuple[int, int, int]) -> np.ndarray:
    """A 96 px card on an off-white ground with ``shapes`` circles (filled where ``thickness`` is -1)."""
    img = np.full((96, 96, 3), (225, 232, 236), np.uint8)
    rng = np.random.default_rng(shapes)
    for _ in range(shapes):
        x, y = (int(v) for v in rng.integers(22, 74, size=2))
        cv2.circle(img, (x, y), int(rng.integers(6, 14)), colour, thickness)
    return img


def test_a_busy_bold_card_holds_more_than_a_faint_sparse_one() -> None:
    faint = jv.view(_card(2, 1, (200, 170, 230)), True).content
    bold = jv.view(_card(8, -1, (40, 60, 200)), True).content
    blank = jv.view(_card(0, 1, (0, 0, 0)), True).content
    names = jv.CONTENT_FEATURES
    assert len(faint) == len(names) + len(jv.WHITE_FEATURES)
    ink, grad99 = names.index("ink"), names.index("grad99")
    assert blank[ink] == 0.0 and blank[grad99] < 0.05
    n = len(names)
    assert (bold[:n] > faint[:n]).all(), dict(zip(names, zip(faint, bold, strict=True), strict=False))


def _shares(crop: np.ndarray) -> dict[str, float]:
    content = jv.view(crop, True).content
    return dict(zip(jv.WHITE_FEATURES, content[len(jv.CONTENT_FEATURES) :], strict=True))


def test_the_white_share_is_the_plain_ground_at_the_white_point_unless_glare_takes_it() -> None:
    """Each channel divided by its own white point makes a card's brightest plain colour (its ground,
    of any hue) white: a card of plain ground is mostly white, a card covered in colours is not, and a
    large glare spot brighter than the ground takes the white point and leaves little white."""
    ground = np.full((96, 96, 3), (60, 170, 220), np.uint8)
    cv2.circle(ground, (40, 50), 12, (30, 40, 160), -1)
    covered = ground.copy()
    for i, colour in enumerate([(30, 40, 160), (200, 90, 30), (40, 160, 40), (120, 30, 140)]):
        cv2.rectangle(covered, (0, 24 * i), (95, 24 * i + 23), colour, -1)
    glare = ground.copy()
    cv2.circle(glare, (60, 40), 14, (255, 255, 255), -1)
    white = [_shares(c)["white"] for c in (ground, covered, glare)]
    assert white[0] > 0.8 and white[1] < 0.05 and 0.05 < white[2] < 0.2, white


def test_a_small_glare_spot_shows_as_glare_above_the_white_point() -> None:
    """A glare spot too small to set the white point lies above it in every channel; a plain card has
    none."""
    ground = np.full((96, 96, 3), (60, 170, 220), np.uint8)
    cv2.circle(ground, (40, 50), 12, (30, 40, 160), -1)
    spot = ground.copy()
    cv2.circle(spot, (62, 36), 5, (255, 255, 255), -1)
    plain, glared = _shares(ground), _shares(spot)
    assert plain["glare"] == 0.0
    assert 0.005 < glared["glare"] < 0.05 and glared["white"] > 0.8, glared


def test_content_does_not_depend_on_the_quarter_turn_or_the_order_of_the_pair() -> None:
    card = _card(5, -1, (30, 140, 60))
    other = _card(5, 2, (30, 60, 160))
    c = jv.view(card, True).content
    for k in (1, 2, 3):
        np.testing.assert_allclose(
            jv.view(np.ascontiguousarray(np.rot90(card, k)), True).content, c, atol=1e-5
        )
    va, vb = jv.view(card, True), jv.view(other, True)
    ab, ba = jv.evidence(va, vb), jv.evidence(vb, va)
    assert ab.shape == (len(jv.FEATURES),)
    np.testing.assert_allclose(ab[CONTENT], ba[CONTENT], rtol=1e-12)
    n = len(jv.CONTENT_FEATURES)
    np.testing.assert_allclose(ab[CONTENT], np.sqrt(va.content[:n] * vb.content[:n]), rtol=1e-12)
    np.testing.assert_array_equal(ab[WHITE], np.maximum(va.content[n:], vb.content[n:]))


def test_the_shipped_verifier_is_calibrated_on_the_evidence_the_code_measures() -> None:
    settings = json.loads((MODEL_DIR / VERIFY_FILE).read_text(encoding="utf-8"))
    assert settings["verifier"]["features"] == list(jv.FEATURES)
    aligned = int(jv.uses_aligned(settings["combination"]))
    assert len(settings["combination"]["weights"]) == 2 + aligned + len(jv.FEATURES)
    assert PatternJudge().verifier is not None


def test_settings_calibrated_on_other_evidence_are_ignored(tmp_path: Path, caplog) -> None:
    """Settings whose logistic model weighs other evidence numbers (an older verifier's four) would
    misread this code's evidence: the net judges alone, and a warning names the rebuild command."""
    folder = tmp_path / "m"
    folder.mkdir()
    for name in (*JUDGE.onnx, JUDGE.meta):
        shutil.copy(MODEL_DIR / name, folder / name)
    settings = json.loads((MODEL_DIR / VERIFY_FILE).read_text(encoding="utf-8"))
    settings["verifier"]["features"] = list(jv.DIFFERENCE_FEATURES)
    settings["combination"]["weights"] = settings["combination"]["weights"][: 2 + len(jv.DIFFERENCE_FEATURES)]
    (folder / VERIFY_FILE).write_text(json.dumps(settings), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        judge = PatternJudge(folder)
    assert judge.verifier is None
    assert "other evidence" in caplog.text and "tableref train judge-verify" in caplog.text
    net_meta = json.loads((MODEL_DIR / JUDGE.meta).read_text(encoding="utf-8"))
    assert judge.same_at == pytest.approx(net_meta["thresholds"]["same_at_or_above"])
