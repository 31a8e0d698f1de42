"""The judge's harder training pairs: one element recoloured to a near colour, and harsher light."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from models.training.augment import AugmentConfig, _shadow_band, camera_crop
from models.training.judge_data import (
    NEAR_PALETTE,
    PairSampler,
    near_colour_edit,
    near_colours,
    shows_a_difference,
)
from models.training.patterns import ProceduralPatternDeck
from models.training.train_judge import CONFIGS, HARSH_LIGHT, JudgeConfig, near_colour_recipe

YELLOW, PEACH, TEAL, BLACK, WHITE, LIME, BLUE = (
    NEAR_PALETTE.index(c)
    for c in (
        (40, 215, 250),
        (150, 190, 250),
        (110, 120, 20),
        (35, 35, 35),
        (245, 245, 245),
        (120, 230, 200),
        (170, 70, 30),
    )
)


def _face() -> np.ndarray:
    """A white card frame round a peach field with a yellow and a blue element."""
    img = np.full((120, 120, 3), NEAR_PALETTE[WHITE], np.uint8)
    img[8:112, 8:112] = NEAR_PALETTE[PEACH]
    img[25:55, 25:55] = NEAR_PALETTE[YELLOW]
    img[70:95, 60:100] = NEAR_PALETTE[BLUE]
    return img


def test_near_colours_are_the_confusable_neighbours() -> None:
    assert LIME in near_colours(YELLOW)
    assert BLACK in near_colours(TEAL)
    assert PEACH in near_colours(WHITE)
    for c in range(len(NEAR_PALETTE)):
        near = near_colours(c)
        assert len(near) == 3 and c not in near
    assert YELLOW not in near_colours(BLUE)  # far colours are never "near"


def test_one_element_changes_to_a_near_colour_and_nothing_else() -> None:
    face = _face()
    rng = np.random.default_rng(0)
    moved: set[tuple[int, int]] = set()
    for _ in range(24):
        edited = near_colour_edit(face, rng)
        if edited is None:  # blue to royal blue: too close to show, no pair made
            continue
        assert shows_a_difference(face, edited, min_pixels=16)
        changed = np.abs(edited.astype(int) - face.astype(int)).max(axis=2) > 0
        in_yellow = changed[24:56, 24:56].sum()
        in_blue = changed[69:96, 59:101].sum()
        assert changed.sum() == in_yellow + in_blue and (in_yellow == 0) != (in_blue == 0)
        old = YELLOW if in_yellow else BLUE
        inside = edited[40, 40] if in_yellow else edited[82, 80]
        new = NEAR_PALETTE.index(tuple(int(v) for v in inside))
        assert new in near_colours(old, 4)
        moved.add((old, new))
    assert len(moved) >= 3 and len({old for old, _ in moved}) == 2  # either element may be the one


def test_frame_backdrop_and_plain_faces_are_never_edited() -> None:
    rng = np.random.default_rng(1)
    plain = np.full((96, 96, 3), NEAR_PALETTE[PEACH], np.uint8)
    framed = _face()
    framed[25:55, 25:55] = framed[70:95, 60:100] = NEAR_PALETTE[PEACH]  # elements gone
    assert all(near_colour_edit(img, rng) is None for img in (plain, framed) for _ in range(4))


def test_batches_with_near_colour_couples_are_labelled_near_duplicates() -> None:
    sampler = PairSampler([ProceduralPatternDeck(1, 12, 64)], 32, seed=0)
    x, labels, hard = sampler.group_batch(
        8, 2, hard_share=1.0, hard_aligned=1.0, synthetic_share=1.0, near_colour_share=1.0
    )
    assert x.shape == (16, 3, 32, 32) and len(labels) == 16
    assert hard.any() and (hard == hard.T).all()


def test_harsher_light_is_off_by_default_and_changes_crops_when_on() -> None:
    face = _face()
    default = camera_crop(face, np.random.default_rng(5), AugmentConfig())
    again = camera_crop(face, np.random.default_rng(5), AugmentConfig(shadow_band_p=0.0))
    np.testing.assert_array_equal(default, again)
    banded = camera_crop(face, np.random.default_rng(5), AugmentConfig(shadow_band_p=1.0, shadow_p=0.0))
    assert banded.shape == default.shape and not np.array_equal(banded, default)
    # A shadow band darkens a strip of the card by its depth and leaves the rest as it was.
    xx = (np.arange(64, dtype=np.float32) / 64)[None, :]
    yy = (np.arange(64, dtype=np.float32) / 64)[:, None]
    for seed in range(6):
        field = _shadow_band(xx, yy, np.random.default_rng(seed), (0.6, 0.6))
        assert field.shape == (64, 64) and field.max() > 0.99
        assert 0.39 < field.min() < 0.6 and 0.02 < (field < 0.7).mean() < 0.6


def test_the_full_recipe_says_what_it_trains_on() -> None:
    full = replace(CONFIGS["full"], near_colour_share=0.6, aug=HARSH_LIGHT)
    text = near_colour_recipe(full)
    assert "nearest print colours by Lab distance" in text and "calibration crops under the default" in text
    assert near_colour_recipe(JudgeConfig()) == ""


def test_mirrored_couples_pair_a_face_with_its_mirror_and_are_off_by_default() -> None:
    deck = ProceduralPatternDeck(1, 12, 64)
    plain = PairSampler([deck], 32, seed=3).group_batch(8, 2, hard_share=1.0, synthetic_share=0.0)
    same_draw = PairSampler([deck], 32, seed=3).group_batch(
        8, 2, hard_share=1.0, synthetic_share=0.0, mirror_share=0.0
    )
    np.testing.assert_array_equal(plain[0], same_draw[0])
    sampler = PairSampler([deck], 32, seed=3)
    x, _, hard = sampler.group_batch(8, 2, hard_share=1.0, hard_aligned=1.0, mirror_share=1.0)
    assert x.shape == (16, 3, 32, 32) and hard.any() and (hard == hard.T).all()
    # Every pattern of the batch came in a couple (a face and its mirror).
    assert (hard.sum(axis=1) >= 1).all()
    assert "whole-face mirror" in near_colour_recipe(replace(JudgeConfig(), mirror_share=0.3))
