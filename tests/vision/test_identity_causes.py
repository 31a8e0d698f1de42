"""The cause measurement of the judge's uncertain genuine pairs (vision.identity.judge_causes)."""

from __future__ import annotations

import numpy as np
import pytest

from models.training.augment import AugmentConfig
from models.training.patterns import ProceduralPatternDeck
from vision.identity import PatternJudge
from vision.identity import judge_causes as jc


@pytest.fixture(scope="module")
def judge() -> PatternJudge:
    return PatternJudge()


def test_variants_switch_off_light_and_geometry_only() -> None:
    v = jc.variants()
    assert v["bench"] == AugmentConfig()
    assert v["no_light"].light == 0.0 and v["no_light"].corner_jitter == AugmentConfig().corner_jitter
    assert v["no_geometry"].corner_jitter == 0.0 and v["no_geometry"].max_rotation_deg == 0.0
    assert v["no_geometry"].light == AugmentConfig().light
    both = v["no_light_no_geometry"]
    assert (both.light, both.corner_jitter, both.max_rotation_deg) == (0.0, 0.0, 0.0)


def test_draw_is_seeded_and_keeps_patterns_and_sizes_across_variants() -> None:
    decks = [ProceduralPatternDeck(1, 6, 64)]
    crops, kinds = jc.draw(decks, 12, 3, AugmentConfig())
    again, kinds2 = jc.draw(decks, 12, 3, AugmentConfig())
    assert kinds == kinds2 and len(crops) == 24 and {"same", "hard"} <= set(kinds)
    assert all(np.array_equal(a, b) for a, b in zip(crops, again, strict=True))
    dark, kinds3 = jc.draw(decks, 12, 3, jc.variants()["no_light"])
    assert kinds3 == kinds
    # The same card sizes and turns; only the light differs.
    assert [c.shape for c in dark] == [c.shape for c in crops]
    assert any(not np.array_equal(a, b) for a, b in zip(crops, dark, strict=True))


def test_judged_counts_every_pair_once(judge: PatternJudge) -> None:
    crops, kinds = jc.draw([ProceduralPatternDeck(2, 6, 64)], 10, 1, AugmentConfig())
    res = jc.judged(judge, crops, kinds)
    assert res["same_pairs"] + res["hard_pairs"] == 10
    assert sum(b["same_pairs"] + b["hard_pairs"] for b in res["by_side"].values()) == 10
    for key in ("same_accuracy", "same_called_different", "hard_accuracy", "hard_called_same"):
        assert 0.0 <= res[key] <= 1.0


def test_a_crop_against_itself_is_the_same(judge: PatternJudge) -> None:
    crops, _ = jc.draw([ProceduralPatternDeck(1, 6, 64)], 6, 2, jc.variants()["no_light_no_geometry"])
    twins = [c for crop in crops[::2] for c in (crop, crop.copy())]
    res = jc.judged(judge, twins, ["same"] * 6)
    assert res["same_accuracy"] == 1.0 and res["same_called_different"] == 0.0


def test_bad_pair_count_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert jc.main(["--pairs", "0"]) == 2
    assert "--pairs" in capsys.readouterr().err


def test_effects_count_the_bench_genuine_pairs_with_each_effect_left_out(judge: PatternJudge) -> None:
    """On the bench deck's first 40 faces (a smaller deck, for time): every genuine pair counted once in
    each class, each effect and group left out, and the crops the bench draws from its seed."""
    import copy

    from models.training.augment import EFFECTS
    from vision.identity import render_decks as rd

    deck = copy.copy(rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0])
    deck.faces = deck.faces[:40]
    res = jc.effects(judge, 0, deck)
    pairs = jc.bench_genuine_pairs(deck)
    assert res["pairs"] == len(pairs) > 0
    assert all(deck.faces[i] == deck.faces[j] for i, j in pairs)
    for key in ("by_side", "by_relative_turn", "by_crops_with_glare"):
        assert sum(v["pairs"] for v in res[key].values()) == len(pairs), key
    assert set(res["without"]) == set(EFFECTS) | set(jc.EFFECT_GROUPS)
    for r in res["without"].values():
        assert 0.0 <= r["same_accuracy"] <= 1.0
        assert r["same_accuracy"] == pytest.approx(
            res["same_accuracy"] + (r["to_same"] - r["from_same"]) / len(pairs), abs=1e-4
        )
    crops, turns = rd.camera_faces(deck, np.random.default_rng(0), AugmentConfig())
    again, _ = rd.camera_faces(deck, np.random.default_rng(0), AugmentConfig())
    assert len(crops) == len(turns) == 40 and all(
        np.array_equal(a, b) for a, b in zip(crops, again, strict=True)
    )


def test_effects_take_the_bench_seed_unless_told(monkeypatch, capsys: pytest.CaptureFixture[str]) -> None:
    seeds: list[int] = []

    def fake(judge, seed):
        seeds.append(seed)
        return {"deck": "d", "pairs": 1, "same_accuracy": 1.0, "without": {}}

    monkeypatch.setattr(jc, "effects", fake)
    monkeypatch.setattr(jc, "PatternJudge", lambda: None)
    assert jc.main(["--effects"]) == 0 and jc.main(["--effects", "--seed", "3"]) == 0
    assert seeds == [0, 3]
    assert "d: 1 genuine pairs" in capsys.readouterr().out
