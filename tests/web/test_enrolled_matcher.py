"""The enrolled judge as the live Twin It adapter's judge: a drop-in for the pair judge, each crop
matched against the deck once however many pairs it is in."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from calibration.deck import EnrolledDeck
from calibration.enroll import enroll
from models.training.augment import AugmentConfig, camera_crop
from vision.identity import PatternJudge
from vision.identity import render_decks as rd
from vision.identity.enrolled import ClosedSetRule, EnrolledJudge
from web.adapters.twinit_match import Matcher, judge_compare

CLEAN = AugmentConfig(min_px=110, max_px=120, light=0.2, corner_jitter=0.01)
ROUGH = AugmentConfig(min_px=50, max_px=70)


@pytest.fixture(scope="module")
def enrolled(tmp_path_factory: pytest.TempPathFactory) -> tuple[EnrolledJudge, list[np.ndarray]]:
    judge = PatternJudge()
    faces = rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]
    patterns = faces.patterns[:8]
    rng = np.random.default_rng(11)
    crop = lambda p, cfg: camera_crop(rd.shrink(faces.image(p), 220), rng, cfg)  # noqa: E731
    deck = EnrolledDeck.create(Path(tmp_path_factory.mktemp("deck")), "twinit")
    enroll(deck, {f"c{i}": crop(p, CLEAN) for i, p in enumerate(patterns)}, judge=judge)
    table = [crop(p, ROUGH) for p in patterns[:4] for _ in range(2)]
    # a rule of its own (the calibrated one is the identity bench's business, not this test's)
    return EnrolledJudge(judge, deck, rule=ClosedSetRule(judge.same_at, 0.5, 1.0, 1.0)), table


def test_the_matcher_takes_the_enrolled_judge_as_it_takes_the_pair_judge(enrolled) -> None:
    judge, crops = enrolled
    m = Matcher(judge_compare(judge), judge)
    m.card_px = 60.0
    sigs = m.signatures(crops)
    assert all(isinstance(s.square, bool) for s in sigs)
    pairs = list(combinations(sigs, 2))
    p = m.p_same_many(pairs)
    assert p == [round(judge.judge_signatures(a, b).p_same, 6) for a, b in pairs]
    assert m.p_same(sigs[0], sigs[1]) == pytest.approx(p[0], abs=1e-6)
    # the two crops of one face settled "same", crops of two faces "different", by the deck
    assert judge.verdict(p[0]) == "same" and p[0] >= judge.same_at
    assert judge.verdict(p[1]) == "different" and p[1] < judge.different_below
    assert (judge.same_at, judge.different_below) == (judge.judge.same_at, judge.judge.different_below)


def test_each_crop_is_matched_against_the_deck_once(enrolled, monkeypatch: pytest.MonkeyPatch) -> None:
    judge, crops = enrolled
    calls: list[int] = []
    score = judge.score
    monkeypatch.setattr(judge, "score", lambda sig: calls.append(id(sig)) or score(sig))
    m = Matcher(judge_compare(judge), judge)
    sigs = m.signatures(crops)
    pairs = list(combinations(sigs, 2))
    first = m.p_same_many(pairs)
    assert sorted(calls) == sorted(id(s) for s in sigs)
    assert m.p_same_many(pairs) == first and len(calls) == len(sigs)


def test_compare_is_the_signatures_judgement(enrolled) -> None:
    judge, crops = enrolled
    a, b = judge.signatures(crops[:2])
    assert judge.compare(crops[0], crops[1]) == judge.judge_signatures(a, b)
