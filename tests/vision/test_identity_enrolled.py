"""The judge with an enrolled deck: right answers, and at least as sure as without the deck."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from calibration.deck import EnrolledDeck
from calibration.enroll import enroll
from models.training.augment import AugmentConfig, camera_crop
from vision.identity import PatternJudge
from vision.identity import render_decks as rd
from vision.identity.enrolled import EnrolledJudge

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
        helped.SHORTLIST = 100
        full = helped.score(sig)
        helped.SHORTLIST = 3
        short = helped.score(sig)
        assert (short.group, short.p_same) == (full.group, full.p_same)
