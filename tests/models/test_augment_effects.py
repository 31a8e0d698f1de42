"""camera_crop can leave out one effect while drawing every number as usual (for measuring what keeps
the judge's genuine pairs uncertain): the other effects, and later crops, stay exactly as they were."""

from __future__ import annotations

import numpy as np
import pytest

from models.training.augment import EFFECTS, AugmentConfig, camera_crop
from tests.models._faces import squares_face as _face


@pytest.mark.parametrize("effect", EFFECTS)
def test_leaving_one_effect_out_keeps_the_next_crop_identical(effect: str) -> None:
    """Whatever one crop leaves out, the generator's next crop is the same: every number was drawn."""
    face = _face()
    cfg = AugmentConfig(shadow_band_p=0.5)
    for seed in range(6):
        plain, other = np.random.default_rng(seed), np.random.default_rng(seed)
        camera_crop(face, plain, cfg)
        camera_crop(face, other, cfg, frozenset({effect}))
        assert np.array_equal(camera_crop(face, plain, cfg), camera_crop(face, other, cfg))


def test_each_effect_left_out_changes_some_crop_and_nothing_left_out_changes_none() -> None:
    face = _face()
    for effect in EFFECTS:
        changed = 0
        for seed in range(12):
            a = camera_crop(face, np.random.default_rng(seed))
            assert np.array_equal(a, camera_crop(face, np.random.default_rng(seed), off=frozenset()))
            changed += not np.array_equal(
                a, camera_crop(face, np.random.default_rng(seed), off=frozenset({effect}))
            )
        assert changed > 0, effect


def test_everything_left_out_is_the_clean_card_rectified() -> None:
    """Without light, geometry and pixel effects a crop is the face resampled: close to it everywhere."""
    face = _face()
    crop = camera_crop(
        face, np.random.default_rng(3), AugmentConfig(min_px=100, max_px=100), frozenset(EFFECTS)
    )
    small = face[:: face.shape[0] // crop.shape[0], :: face.shape[1] // crop.shape[1]][
        : crop.shape[0], : crop.shape[1]
    ]
    assert crop.shape[:2] == (100, 100)
    assert np.median(np.abs(crop.astype(int)[10:-10, 10:-10] - small.astype(int)[10:-10, 10:-10])) <= 2


def test_an_unknown_effect_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown effects \\['flare'\\]"):
        camera_crop(_face(), np.random.default_rng(0), off=frozenset({"flare"}))
