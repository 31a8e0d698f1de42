"""The cards bench's diagnosis: what each false positive on a rendered frame lies on."""

from __future__ import annotations

import numpy as np

from vision.cards import FinderConfig, find_cards
from vision.cards.scoring import match_quads
from vision.render.scene import render
from vision.render.scene_layout import random_scene
from web.bench.cards_false import CLASSES, false_positive_classes


def _frame(seed: int, layout: str, deck: str):  # type: ignore[no-untyped-def]
    return render(random_scene(seed, layout=layout, deck=deck))


def test_every_false_positive_has_one_class() -> None:
    # seed 1's render set, frame 57: a checked cloth's squares taken for cards (the segmenter's
    # table check off, as before it existed)
    image, truth = _frame(100_003 + 57, "fanned", "themind")
    quads = [d.quad for d in find_cards(image, FinderConfig(seg_table=0.0))]
    counts, _ = match_quads(
        quads, [c.quad for c in truth.cards], [c.visible_fraction >= 0.8 for c in truth.cards], 0.9
    )
    classes = false_positive_classes(quads, truth)
    assert set(classes) <= set(CLASSES)
    assert sum(classes.values()) == counts.false_positives
    assert classes["table"] >= 40, classes


def test_a_card_s_quad_fitted_off_a_print_inside_it_and_a_duplicate() -> None:
    _, truth = _frame(100_003 + 54, "scattered", "themind")
    card = next(c for c in truth.cards if c.visible_fraction >= 0.99 and not c.covered_by_hands)
    centre = card.quad.mean(axis=0)
    side = float(np.linalg.norm(card.quad[1] - card.quad[0]))
    off = card.quad + np.float32([0.08 * side, 0.0])  # shifted: IoU about 0.85
    inner = centre + (card.quad - centre) * 0.5  # a print inside the card
    classes = false_positive_classes([card.quad, card.quad + 0.5, off, inner], truth)
    assert classes == {"duplicate": 1, "off": 1, "inside_card": 1}, classes
