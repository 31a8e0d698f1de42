"""A card inside a loose quad of the deck's shape that fits far worse is the card, not a print."""

from __future__ import annotations

import numpy as np

from tests.vision._finder_helpers import bench_frame, best_ious
from vision.cards import FinderConfig
from vision.cards.finder import _dedupe


def _rect(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])


def test_a_card_scored_far_higher_than_the_loose_quad_around_it_is_kept() -> None:
    # three cards of 0.645 (the deck), one of them (index 3) inside a loose quad of the same shape
    # (the card with the table beside it: ~0.66 of its area) that fits its edges far worse
    cards = [_rect(0, 0, 64.5, 100), _rect(200, 0, 64.5, 100), _rect(400, 0, 64.5, 100)]
    card, loose = _rect(600, 0, 64.5, 100), _rect(590, -12, 80, 124)
    cands = [(q, 0.9) for q in cards] + [(card, 0.9), (loose, 0.4)]
    kept = _dedupe(cands)
    assert any(np.array_equal(q, card) for q, _ in kept)
    assert not any(np.array_equal(q, loose) for q, _ in kept)
    old = _dedupe(cands, clear_inner=False)
    assert not any(np.array_equal(q, card) for q, _ in old)


def test_a_print_scored_alike_stays_a_print() -> None:
    # the same inner quad scored like the card around it: a print (its printed frame), dropped
    cards = [_rect(0, 0, 64.5, 100), _rect(200, 0, 64.5, 100), _rect(400, 0, 64.5, 100)]
    frame, card = _rect(600, 0, 64.5, 100), _rect(590, -12, 80, 124)
    kept = _dedupe([(q, 0.9) for q in cards] + [(frame, 0.9), (card, 0.8)])
    assert not any(np.array_equal(q, frame) for q, _ in kept)


def test_rendered_frame_84_keeps_the_card_inside_a_loose_quad() -> None:
    """The quick bench's frame 84 (scattered Trio cards): card 4's quad (score 0.95) lay inside a
    loose quad of the deck's shape scored 0.24, and was dropped as its print; it is found (IoU >=
    0.9) now, and no card is lost."""
    image, counted = bench_frame(84, "scattered", "trio")
    without = best_ious(image, counted, FinderConfig(clear_inner=False))
    with_clear = best_ious(image, counted, FinderConfig())
    assert (with_clear >= 0.9).sum() >= (without >= 0.9).sum() + 1, (without, with_clear)
    assert ((with_clear >= 0.9) | (without < 0.9)).all(), (without, with_clear)
