"""The judge's model card tells who calls "different" in the verifier's high-resolution band."""

import json
from pathlib import Path

from models.training.model_card import _high_lines

MODELS = Path(__file__).resolve().parents[2] / "models"


def test_the_card_describes_the_shipped_high_resolution_band() -> None:
    high = json.loads((MODELS / "judge_verify.json").read_text(encoding="utf-8"))["high"]
    text = "\n".join(_high_lines(high))
    assert f"at least {high['from_px']} px" in text and f"measured at {high['size']} px" in text
    assert f"({high['different']['margin']:g} logit below" in text
    assert text.strip() in (MODELS / "judge.md").read_text(encoding="utf-8")


def test_no_band_no_sentence() -> None:
    assert _high_lines(None) == []
    assert _high_lines({"from_px": 120, "max_px": 200, "size": 128}) == []
