"""The judge's model card gives the closed-set rule used with an enrolled deck, as calibrated."""

import json
from pathlib import Path

from models.training.model_card import ENROLLED_RULE, enrolled_section

MODELS = Path(__file__).resolve().parents[2] / "models"


def test_the_card_gives_the_shipped_rule_and_its_calibration() -> None:
    rule = json.loads((MODELS / ENROLLED_RULE).read_text(encoding="utf-8"))
    text = "\n".join(enrolled_section(MODELS))
    assert f"p_same >= {rule['merge_at']:.6f}" in text
    assert f"margins >= {rule['same_margin']:.3f}" in text
    assert f"margins >= {rule['different_margin']:.3f}" in text
    assert json.dumps(rule["calibration"]["enrolled_judge"]) in text
    cal = rule["calibration"]
    assert f"above the {cal['merge_rank']}th highest p_same" in text  # not the single highest pair
    assert f"{cal['merge_reference_pair_p']:.6f}; the highest is" in text
    assert text.strip() in (MODELS / "judge.md").read_text(encoding="utf-8")


def test_no_rule_no_section(tmp_path: Path) -> None:
    assert enrolled_section(tmp_path) == []
    (tmp_path / ENROLLED_RULE).write_text("{", encoding="utf-8")
    assert "unreadable" in "\n".join(enrolled_section(tmp_path))
