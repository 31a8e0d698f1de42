"""The reader's extra training variety: zeros drawn four ways, heavy strokes, small crops."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from models.training import reader_faces
from models.training.augment import AugmentConfig
from models.training.reader_data import NumberSampler
from models.training.reader_faces import ZERO_STYLES, VariedNumberDeck, _put

FONT = cv2.FONT_HERSHEY_SIMPLEX


def _drawn(text: str, zero: str, weight: float = 0.1, max_width: float = 400.0, keep: bool = False):
    img = np.full((160, 320, 3), 255, np.uint8)
    _put(img, text, 160, 80, 80, max_width, FONT, weight, (0, 0, 0), False, zero=zero, keep_stroke=keep)
    return img


def _inside_right_glyph(img: np.ndarray, plain: np.ndarray) -> float:
    """Share of the pixels where ``img`` has ink and the plain-O drawing has none that lie inside the
    right-hand glyph's box, shrunk by a fifth (in the O's hole); 0 when there are none."""
    ink, ink_plain = img[:, :, 0] < 128, plain[:, :, 0] < 128
    cols, rows = np.flatnonzero(ink_plain.any(axis=0)), np.flatnonzero(ink_plain.any(axis=1))
    right = cols[cols > (cols[0] + cols[-1]) / 2]
    extra = np.argwhere(ink & ~ink_plain)
    if len(extra) == 0:
        return 0.0
    (y0, y1), (x0, x1) = (rows[0], rows[-1]), (right[0], right[-1])
    my, mx = 0.2 * (y1 - y0), 0.2 * (x1 - x0)
    inside = (
        (extra[:, 0] > y0 + my) & (extra[:, 0] < y1 - my) & (extra[:, 1] > x0 + mx) & (extra[:, 1] < x1 - mx)
    )
    return float(inside.mean())


def test_each_zero_style_draws_its_own_glyph() -> None:
    images = {z: _drawn("30", z) for z in ZERO_STYLES}
    for a in ZERO_STYLES:
        for b in ZERO_STYLES:
            if a < b:
                assert np.mean(np.abs(images[a].astype(int) - images[b].astype(int))) > 0.05, (a, b)
    # the dot lies in the plain O's hole; the long slash crosses it (and pokes out of the O)
    assert _inside_right_glyph(images["dotted"], images["plain"]) == 1.0
    assert 0.3 < _inside_right_glyph(images["slashed"], images["plain"]) < 1.0
    # other digits are untouched
    assert np.array_equal(_drawn("7", "dotted"), _drawn("7", "font"))


def test_a_narrowed_number_can_keep_its_bold_stroke() -> None:
    # OpenCV 5's font draws thickness 1 regular and every thickness from 2 in one bold weight: a
    # number narrowed to half its width thins from 2 to 1 (regular) unless it keeps its stroke.
    thin = _drawn("100", "font", weight=0.025, max_width=80.0, keep=False)
    bold = _drawn("100", "font", weight=0.025, max_width=80.0, keep=True)
    ink_thin, ink_bold = (np.mean(im[:, :, 0] < 128) for im in (thin, bold))
    assert ink_bold > 1.2 * ink_thin
    # not narrowed: the choice makes no difference
    assert np.array_equal(_drawn("7", "font", 0.025, keep=True), _drawn("7", "font", 0.025, keep=False))


def test_varied_faces_draw_every_zero_style_and_heavy_strokes(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, float, str]] = []
    real_put = reader_faces._put

    def spy(img, text, cx, cy, height, max_width, font, weight, *args, **kwargs):  # type: ignore[no-untyped-def]
        zero = kwargs.get("zero", args[4] if len(args) > 4 else "font")
        calls.append((text, weight, zero))
        return real_put(img, text, cx, cy, height, max_width, font, weight, *args, **kwargs)

    monkeypatch.setattr(reader_faces, "_put", spy)
    deck = VariedNumberDeck("themind", 11, extra=True)
    for _ in range(60):
        deck.image("themind:30")
        deck.image("themind:7")
    zeros = {z for text, _, z in calls if "0" in text}
    assert zeros == set(ZERO_STYLES)
    assert {z for text, _, z in calls if "0" not in text} == {"font"}
    weights = np.asarray([w for _, w, _ in calls])
    assert 0.15 < np.mean(weights > 0.17) < 0.45  # about 0.3 x 0.7 of the faces
    assert weights.max() <= 0.24
    # without the extra variety: the font's zero and the usual weights only
    calls.clear()
    plain = VariedNumberDeck("themind", 11)
    for _ in range(30):
        plain.image("themind:30")
    assert {z for _, _, z in calls} == {"font"}
    assert max(w for _, w, _ in calls) <= 0.17


@pytest.mark.parametrize(("share", "low", "high"), [(1.0, 1.0, 1.0), (0.0, 0.2, 0.75)])
def test_small_share_draws_crops_under_80_px(share: float, low: float, high: float) -> None:
    deck = VariedNumberDeck("trio", 2)
    sampler = NumberSampler([deck], 32, 48, seed=4, aug=AugmentConfig(), fresh=1.0, small_share=share)
    sides = [min(sampler.sample_crop(0, "trio:7")[0].shape[:2]) for _ in range(40)]
    small = np.mean(np.asarray(sides) <= 81)
    assert low <= small <= high
    assert min(sides) >= 43
