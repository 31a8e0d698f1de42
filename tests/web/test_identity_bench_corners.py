"""The identity bench's render crops take the card finder's measured corner errors; the former Gaussian
and the bank with badly cut cards run beside it on the same draws, and the bank's source is printed."""

from __future__ import annotations

import pytest

from models.training.augment import AugmentConfig
from web.bench import identity as ib


class _Drawn(Exception):
    pass


def test_the_render_part_draws_its_crops_with_the_measured_bank(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[AugmentConfig] = []

    def faces(deck, rng, aug, off=frozenset()):
        seen.append(aug)
        raise _Drawn

    monkeypatch.setattr(ib.rd, "camera_faces", faces)
    with pytest.raises(_Drawn):
        ib._render_part(None, None, True, 0, enrolled=False)  # type: ignore[arg-type]
    assert seen == [AugmentConfig(corner_bank=ib.CORNER_BANK)]


def test_every_run_gives_the_gaussian_and_the_loose_bank_beside_the_headline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = []

    def part(judge, reader, quick, seed, enrolled=True, aug=None):
        calls.append((quick, seed, enrolled, aug))
        return {"same_accuracy": len(calls), "_by_crop_side": {}}

    monkeypatch.setattr(ib, "_render_part", part)
    out = ib._render_with_other_corners(None, None, True, 3)  # type: ignore[arg-type]
    assert calls == [
        (True, 3, True, None),
        (True, 3, False, AugmentConfig()),
        (True, 3, False, AugmentConfig(corner_bank=ib.CORNER_BANK_LOOSE)),
    ]
    assert out["same_accuracy"] == 1 and "_by_crop_side" in out
    assert out["_corners_gaussian"] == {"same_accuracy": 2}
    assert out["_corners_iou05"] == {"same_accuracy": 3}
    src = out["_corners_bank_source"]
    assert src["file"] == ib.CORNER_BANK and src["cards"] == 1386 and src["min_iou"] == 0.9
