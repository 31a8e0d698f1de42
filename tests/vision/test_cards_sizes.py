"""Reconciling the finder's candidates: the typical card size that far-off sizes are dropped
against is not set by the table's pattern (``FinderConfig.plausible_sizes``)."""

from __future__ import annotations

import pytest

from tests.vision._finder_helpers import bench_frame, best_ious
from vision.cards import FinderConfig, find_cards
from vision.cards.scoring import match_quads
from vision.render.scene import render
from vision.render.scene_layout import random_scene


@pytest.mark.parametrize(("seed", "layout", "deck"), [(14, "piles", "trio"), (141, "fanned", "lineit")])
def test_the_table_pattern_does_not_set_the_card_size(seed: int, layout: str, deck: str) -> None:
    """The quick bench's frames 14 (piles) and 141 (a fan), both on a check cloth: at reconciling,
    small quads on the cloth's checks (IoU 0 with every card: 9 of ~1800 px and 7 of ~4800 px, most
    of them later dropped as table) outnumbered the cards' quads, so the typical size was a check's
    and the cards' own candidates (IoU 0.94 and 0.99) were dropped as too large. Sized against the
    quads the later texture and segmenter checks keep, they stay."""
    image, counted = bench_frame(seed, layout, deck)
    before = best_ious(image, counted, FinderConfig(plausible_sizes=False))
    after = best_ious(image, counted, FinderConfig())
    assert (after >= 0.9).sum() >= (before >= 0.9).sum() + 1, (before, after)
    assert ((after >= 0.9) | (before < 0.9)).all(), (before, after)


def test_the_checks_of_a_cloth_go_with_the_size_they_set() -> None:
    """The quick bench's frame 117 (a fan on a white and pink check cloth): 9 quads on the checks
    were false positives as the bench scores them; sized against the quads the later checks keep,
    none is (what is left lies on the fan's cards less than 80 % visible)."""
    image, truth = render(random_scene(117, layout="fanned", deck="lineit"))
    quads = [c.quad for c in truth.cards]
    counted = [c.visible_fraction >= 0.8 for c in truth.cards]
    before, _ = match_quads(
        [d.quad for d in find_cards(image, FinderConfig(plausible_sizes=False))], quads, counted
    )
    after, _ = match_quads([d.quad for d in find_cards(image, FinderConfig())], quads, counted)
    assert before.false_positives >= 5, before
    assert after.false_positives == 0, after
