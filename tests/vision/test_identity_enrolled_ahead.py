"""The enrolled judge's deck matches made ahead on a worker: the same answers, each match made once."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np

from calibration.deck import EnrolledDeck
from calibration.enroll import enroll
from models.training.augment import AugmentConfig, camera_crop
from vision.identity import PatternJudge
from vision.identity import render_decks as rd
from vision.identity.enrolled import AHEAD, ClosedSetRule, EnrolledJudge

ROUGH = AugmentConfig(min_px=50, max_px=70)
CLEAN = AugmentConfig(min_px=110, max_px=120, light=0.2, corner_jitter=0.01)
RULE = ClosedSetRule(merge_at=0.99, p_floor=0.5, same_margin=2.0, different_margin=3.0)


def _crop(
    faces: rd.RenderedTwinItDeck, pattern: Any, rng: np.random.Generator, cfg: AugmentConfig
) -> np.ndarray:
    return camera_crop(rd.shrink(faces.image(pattern), 220), rng, cfg)


def _setup(tmp_path: Path) -> tuple[PatternJudge, EnrolledDeck, list[np.ndarray]]:
    judge = PatternJudge()
    faces = rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]
    rng = np.random.default_rng(8)
    deck = EnrolledDeck.create(tmp_path / "deck", "twinit")
    crops = {f"c{i}": _crop(faces, p, rng, CLEAN) for i, p in enumerate(faces.patterns[:4])}
    enroll(deck, crops, judge=judge)
    views = [_crop(faces, faces.patterns[i], rng, ROUGH) for i in (0, 0, 1, 2)]
    return judge, deck, views


def _counted(helped: EnrolledJudge, hold: threading.Event | None = None) -> list[str]:
    """Wraps ``helped.score``: the list of the threads that made a match (``hold``: each waits for it)."""
    threads: list[str] = []
    score = helped.score

    def counted(sig: Any) -> Any:
        threads.append(threading.current_thread().name)
        if hold is not None:
            hold.wait()
        return score(sig)

    helped.score = counted  # type: ignore[method-assign]
    return threads


def test_matches_made_ahead_give_the_same_answers_and_are_not_made_again(tmp_path: Path) -> None:
    judge, deck, views = _setup(tmp_path)
    plain = EnrolledJudge(judge, deck, rule=RULE)
    pairs = [(0, 1), (0, 2), (2, 3), (1, 3)]
    sigs = plain.signatures(views)
    expected = plain.p_same_many([(sigs[a], sigs[b]) for a, b in pairs])
    helped = EnrolledJudge(judge, deck, rule=RULE, ahead=True)
    threads = _counted(helped)
    sigs = helped.signatures(views)
    AHEAD.submit(lambda: None).result()  # the worker has gone through what was queued before
    assert len(threads) == len(views) and all(t.startswith("tableref-deck") for t in threads)
    got = helped.p_same_many([(sigs[a], sigs[b]) for a, b in pairs])
    assert len(threads) == len(views)  # the pairs found every match made
    assert np.array_equal(got, expected)
    assert [helped.match(s) for s in sigs] == [plain.match(s) for s in plain.signatures(views)]


def test_a_match_being_made_ahead_is_waited_for_not_made_twice(tmp_path: Path) -> None:
    judge, deck, views = _setup(tmp_path)
    helped = EnrolledJudge(judge, deck, rule=RULE, ahead=True)
    hold = threading.Event()
    threads = _counted(helped, hold)
    (sig,) = helped.signatures(views[:1])
    while not threads:  # the worker is in the match now, held
        hold.wait(0.01)
    timer = threading.Timer(0.05, hold.set)
    timer.start()
    found = helped.match(sig)  # waits for the worker's match
    timer.join()
    assert len(threads) == 1 and threads[0].startswith("tableref-deck")
    fresh = EnrolledJudge(judge, deck, rule=RULE)
    assert found == fresh.match(fresh.signature(views[0]))


def test_without_a_rule_or_ahead_nothing_is_matched_before_a_pair_needs_it(tmp_path: Path) -> None:
    judge, deck, views = _setup(tmp_path)
    no_rule = EnrolledJudge(judge, deck, rule=RULE, ahead=True)
    no_rule.rule = None  # as without the calibrated rule file: matches are never used
    for helped in (EnrolledJudge(judge, deck, rule=RULE), no_rule):
        threads = _counted(helped)
        helped.signatures(views)
        AHEAD.submit(lambda: None).result()
        assert threads == []
