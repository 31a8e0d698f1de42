"""The judge with an enrolled deck: right answers, and at least as sure as without the deck."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from calibration.deck import EnrolledDeck
from calibration.enroll import enroll
from models.training.augment import AugmentConfig, camera_crop
from vision.identity import PatternJudge
from vision.identity import render_decks as rd
from vision.identity.enrolled import (
    RULE_FILE,
    ClosedSetRule,
    DeckMatch,
    EnrolledJudge,
    judge_fingerprint,
    load_rule,
)

ROUGH = AugmentConfig(min_px=50, max_px=70)
CLEAN = AugmentConfig(min_px=110, max_px=120, light=0.2, corner_jitter=0.01)


def _crop(
    faces: rd.RenderedTwinItDeck, pattern: Any, rng: np.random.Generator, cfg: AugmentConfig
) -> np.ndarray:
    """A camera crop of one face of a rendered deck."""
    return camera_crop(rd.shrink(faces.image(pattern), 220), rng, cfg)


def test_an_enrolled_deck_settles_pairs_at_least_as_surely(tmp_path: Path) -> None:
    judge = PatternJudge()
    deck_faces = rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]
    patterns = deck_faces.patterns[:8]
    rng = np.random.default_rng(3)
    crops = {f"c{i}": _crop(deck_faces, p, rng, CLEAN) for i, p in enumerate(patterns)}
    deck = EnrolledDeck.create(tmp_path / "deck", "twinit")
    enroll(deck, crops, judge=judge)
    helped = EnrolledJudge(judge, deck)
    assert len(helped.groups) == len(patterns)
    for i in range(4):
        a = _crop(deck_faces, patterns[i], rng, ROUGH)
        b = _crop(deck_faces, patterns[i], rng, ROUGH)
        c = _crop(deck_faces, patterns[i + 4], rng, ROUGH)
        same_direct, same_helped = judge.compare(a, b), helped.compare(a, b)
        diff_direct, diff_helped = judge.compare(a, c), helped.compare(a, c)
        assert same_helped.verdict in ("same", "uncertain") and same_helped.p_same >= same_direct.p_same
        assert diff_helped.verdict in ("different", "uncertain") and diff_helped.p_same <= diff_direct.p_same


def test_the_shortlist_finds_the_same_match_as_a_full_scan(tmp_path: Path) -> None:
    judge = PatternJudge()
    faces = rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]
    patterns = faces.patterns[:10]
    rng = np.random.default_rng(5)
    deck = EnrolledDeck.create(tmp_path / "deck", "twinit")
    crops = {f"c{i}": _crop(faces, p, rng, CLEAN) for i, p in enumerate(patterns)}
    enroll(deck, crops, judge=judge)
    helped = EnrolledJudge(judge, deck)
    for i in (0, 3, 7):
        sig = judge.signature(_crop(faces, patterns[i], rng, ROUGH))
        helped.SHORTLIST, helped.PRESHORT = 100, 100
        full = helped.score(sig)
        helped.SHORTLIST = 3
        short = helped.score(sig)
        helped.PRESHORT = 5  # the pooled maps' cosine first keeps 5 of the 10 references
        pre = helped.score(sig)
        assert (short.group, short.p_same) == (pre.group, pre.p_same) == (full.group, full.p_same)
        assert full.group == helped.groups.index([f"c{i}"])


def test_a_deck_with_an_unreadable_card_does_not_rule(tmp_path: Path, caplog) -> None:
    judge = PatternJudge()
    faces = rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]
    rng = np.random.default_rng(8)
    deck = EnrolledDeck.create(tmp_path / "deck", "twinit")
    enroll(
        deck,
        {f"c{i}": _crop(faces, p, rng, CLEAN) for i, p in enumerate(faces.patterns[:3])},
        missing={"c3": "not cut out by the card finder"},
    )
    helped = EnrolledJudge(judge, deck, rule=_rule())
    assert helped.rule is None and helped.unreadable == ["c3"] and "c3" in caplog.text
    a = judge.signature(_crop(faces, faces.patterns[0], rng, ROUGH))
    b = judge.signature(_crop(faces, faces.patterns[0], rng, ROUGH))
    assert helped.p_same_many([(a, b)]).tolist() == judge.p_same_many([(a, b)]).tolist()


def _rule(**kw: float) -> ClosedSetRule:
    return ClosedSetRule(
        **{"merge_at": 0.99, "p_floor": 0.5, "same_margin": 2.0, "different_margin": 3.0, **kw}
    )


def test_the_closed_set_rule_rules_on_margins_over_the_runner_up_group(tmp_path: Path) -> None:
    judge = PatternJudge()
    faces = rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]
    rng = np.random.default_rng(4)
    deck = EnrolledDeck.create(tmp_path / "deck", "twinit")
    enroll(deck, {f"c{i}": _crop(faces, p, rng, CLEAN) for i, p in enumerate(faces.patterns[:3])})
    helped = EnrolledJudge(judge, deck, rule=_rule())
    lo, hi = judge.different_below, judge.same_at
    sure, close = DeckMatch(0, 0.9, 0.01), DeckMatch(0, 0.9, 0.6)  # margins 6.6 and 1.8 logits
    other = DeckMatch(1, 0.95, 0.02)
    mid = (lo + hi) / 2
    # same group, both margins at least same_margin: same (never below the pair judge's p)
    assert helped.closed_set_verdict(sure, sure) == "same"
    assert judge.verdict(round(helped.decide(mid, sure, sure), 6)) == "same"
    assert helped.decide(0.999, sure, sure) == 0.999
    # one crop's group barely ahead of another group: the pair judge answers
    assert helped.closed_set_verdict(sure, close) == "" and helped.decide(mid, sure, close) == mid
    # a crop matching its group at worse than p_floor: the pair judge answers
    assert helped.closed_set_verdict(DeckMatch(0, 0.3, 0.0), sure) == ""
    # two groups, each margin at least different_margin: different
    assert helped.closed_set_verdict(sure, other) == "different"
    assert judge.verdict(round(helped.decide(mid, sure, other), 6)) == "different"
    assert helped.closed_set_verdict(close, other) == ""
    # the pair judge sure of the opposite: uncertain
    assert judge.verdict(helped.decide(lo / 2, sure, sure)) == "uncertain"
    assert judge.verdict(helped.decide(hi, sure, other)) == "uncertain"
    # no rule: the pair judge's answer
    helped.rule = None
    assert helped.decide(mid, sure, sure) == mid


def test_a_rule_calibrated_for_another_judge_is_not_used(tmp_path: Path, caplog) -> None:
    judge = PatternJudge()
    settings = {
        "judge": "0" * 64,
        "merge_at": 0.99,
        "p_floor": 0.5,
        "same_margin": 2.0,
        "different_margin": 3,
    }
    (tmp_path / RULE_FILE).write_text(json.dumps(settings), encoding="utf-8")
    assert load_rule(judge, tmp_path) is None and "another judge" in caplog.text
    (tmp_path / RULE_FILE).write_text(
        json.dumps({**settings, "judge": judge_fingerprint(judge)}), encoding="utf-8"
    )
    assert load_rule(judge, tmp_path) == ClosedSetRule(0.99, 0.5, 2.0, 3.0)
    (tmp_path / RULE_FILE).write_text("{", encoding="utf-8")
    assert load_rule(judge, tmp_path) is None


def test_the_deck_keeps_its_groups_until_a_card_changes(tmp_path: Path, monkeypatch) -> None:
    judge = PatternJudge()
    faces = rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]
    rng = np.random.default_rng(6)
    deck = EnrolledDeck.create(tmp_path / "deck", "twinit")
    crops = {f"c{i}": _crop(faces, p, rng, CLEAN) for i, p in enumerate(faces.patterns[:4])}
    enroll(deck, crops)
    first = EnrolledJudge(judge, deck, rule=_rule()).groups
    import vision.identity.enrolled as enrolled_module

    calls = []
    real = enrolled_module.report
    monkeypatch.setattr(enrolled_module, "report", lambda *a, **k: calls.append(1) or real(*a, **k))
    again = EnrolledJudge(judge, EnrolledDeck.load(tmp_path / "deck"), rule=_rule())
    assert again.groups == first and not calls
    EnrolledJudge(judge, EnrolledDeck.load(tmp_path / "deck"), rule=_rule(merge_at=0.995))
    assert len(calls) == 1  # made by another rule's merge threshold: made again
    deck = EnrolledDeck.load(tmp_path / "deck")
    deck.put("c0", crops["c1"])
    deck.save()
    assert EnrolledDeck.load(tmp_path / "deck").groups is None


def test_a_crop_of_the_same_pixels_is_matched_against_the_deck_once(tmp_path: Path) -> None:
    """The live adapter cuts a new view of a still card every frame, often the very same pixels: the
    deck pass is made once for them, and the answers are those of a fresh match."""
    judge = PatternJudge()
    faces = rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]
    rng = np.random.default_rng(6)
    deck = EnrolledDeck.create(tmp_path / "deck", "twinit")
    enroll(deck, {f"c{i}": _crop(faces, p, rng, CLEAN) for i, p in enumerate(faces.patterns[:4])})
    helped = EnrolledJudge(judge, deck, rule=_rule())
    scored: list[Any] = []
    score = helped.score
    helped.score = lambda sig: scored.append(sig) or score(sig)  # type: ignore[method-assign]
    view = _crop(faces, faces.patterns[1], rng, ROUGH)
    other = _crop(faces, faces.patterns[2], rng, ROUGH)
    first = helped.p_same_many([tuple(helped.signatures([view, other]))])  # type: ignore[list-item]
    assert len(scored) == 2
    again = helped.p_same_many([tuple(helped.signatures([view.copy(), other.copy()]))])  # type: ignore[list-item]
    assert len(scored) == 2 and np.array_equal(first, again)
    # other pixels, or the same pixels signed at another source size, are matched anew
    moved = view.copy()
    moved[0, 0] = 255 - moved[0, 0]
    a, b = helped.signatures([moved, other], source_px=[None, 80.0])
    helped.p_same_many([(a, b)])
    assert len(scored) == 4
    fresh = EnrolledJudge(judge, deck, rule=_rule())
    sigs = fresh.signatures([view, other])
    assert [fresh.score(s) for s in sigs] == [helped.match(s) for s in helped.signatures([view, other])]
