"""The verifier's content numbers: how much each card holds (gradient, ink), so that the same difference
counts for more on a faint, sparse card than on a bold, busy one; and the judge refuses settings
calibrated on other evidence numbers than its code measures."""

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

CONTENT = slice(len(jv.DIFFERENCE_FEATURES), len(jv.FEATURES))


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
    assert len(faint) == len(names)
    ink, grad99 = names.index("ink"), names.index("grad99")
    assert blank[ink] == 0.0 and blank[grad99] < 0.05
    assert (bold > faint).all(), dict(zip(names, zip(faint, bold, strict=True), strict=True))


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
    np.testing.assert_allclose(ab[CONTENT], np.sqrt(va.content * vb.content), rtol=1e-12)


def test_the_shipped_verifier_is_calibrated_on_the_evidence_the_code_measures() -> None:
    settings = json.loads((MODEL_DIR / VERIFY_FILE).read_text(encoding="utf-8"))
    assert settings["verifier"]["features"] == list(jv.FEATURES)
    assert len(settings["combination"]["weights"]) == 2 + len(jv.FEATURES)
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
