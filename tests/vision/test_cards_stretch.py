"""A card quad run one side too far out, pulled back to its neighbours' size (vision.cards.stretch)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards import find_cards
from vision.cards.finder import FinderConfig
from vision.cards.geometry import aspect_ratio, quad_iou
from vision.cards.stretch import StretchConfig, pull_stretched
from vision.render.scene import render
from vision.render.scene_layout import random_scene


@pytest.fixture(scope="module")
def row_of_square_cards():
    """Twin It cards in rows, a gap of table between them (some wider than a quarter card)."""
    return render(random_scene(102, layout="rows", deck="twinit"))


def _widen_to_neighbour(quads: list[np.ndarray]) -> tuple[int, np.ndarray]:
    """(index, quad) of a card whose right-hand side is pushed out to its nearest neighbour's
    left-hand side, over the gap between them (what the finder did on this frame)."""
    centres = np.array([q.mean(axis=0) for q in quads])
    for i, q in enumerate(quads):
        # the nearest card to the right, on the same row
        d = centres - centres[i]
        right = [j for j in range(len(quads)) if d[j, 0] > 0 and abs(d[j, 1]) < 0.3 * np.ptp(q[:, 1])]
        if not right:
            continue
        j = min(right, key=lambda k: d[k, 0])
        gap = float(quads[j][:, 0].min() - q[:, 0].max())
        if 0.25 * np.ptp(q[:, 0]) < gap < 0.5 * np.ptp(q[:, 0]):
            wide = q.copy()
            order = np.argsort(wide[:, 0])[2:]  # the two right-hand corners
            wide[order, 0] += gap - 1.0
            return i, wide
    raise AssertionError("no card with a neighbour across a gap in the frame")


def test_a_side_over_the_gap_to_a_neighbour_is_pulled_back(row_of_square_cards) -> None:
    image, truth = row_of_square_cards
    quads = [c.quad.astype(np.float32) for c in truth.cards if c.visible_fraction >= 0.8]
    assert len(quads) >= 4
    i, wide = _widen_to_neighbour(quads)
    assert quad_iou(wide, quads[i]) < 0.9
    given = [*quads[:i], wide, *quads[i + 1 :]]
    out = pull_stretched(image, given)
    assert quad_iou(out[i], quads[i]) >= 0.95
    # the cards as they are stay as they are
    for k, q in enumerate(given):
        if k != i:
            assert out[k] is q


def test_a_card_of_its_neighbours_shape_is_left_alone(row_of_square_cards) -> None:
    image, truth = row_of_square_cards
    quads = [c.quad.astype(np.float32) for c in truth.cards if c.visible_fraction >= 0.8]
    out = pull_stretched(image, quads)
    assert all(o is q for o, q in zip(out, quads, strict=True))


def test_one_neighbour_counts_only_when_it_shows_a_cards_aspect(row_of_square_cards) -> None:
    image, truth = row_of_square_cards
    quads = [c.quad.astype(np.float32) for c in truth.cards if c.visible_fraction >= 0.8]
    i, wide = _widen_to_neighbour(quads)
    j = (i + 1) % len(quads)
    assert aspect_ratio(quads[j]) > 0.97  # a Twin It card's, seen nearly square
    assert pull_stretched(image, [wide])[0] is wide
    assert quad_iou(pull_stretched(image, [wide, quads[j]])[0], quads[i]) >= 0.95
    # a lone neighbour whose shape is no card's (itself run on by a tenth) says nothing
    odd = quads[j].copy()
    order = np.argsort(odd[:, 0])[2:]
    odd[order, 0] += 0.1 * np.ptp(odd[:, 0])
    assert abs(aspect_ratio(odd) - 1.0) > 0.03
    assert pull_stretched(image, [wide, odd])[0] is wide


def _lengthen(q: np.ndarray, frac: float) -> np.ndarray:
    """``q`` (the card's own corner order: top-left, top-right, bottom-right, bottom-left) with its
    bottom side moved on along the long sides by ``frac`` of their length."""
    out = q.copy()
    out[2] = q[2] + frac * (q[2] - q[1])
    out[3] = q[3] + frac * (q[3] - q[0])
    return out


def test_a_long_side_run_on_is_pulled_back_where_the_neighbours_show_no_tilt() -> None:
    """Line-it cards in rows, seen from nearly straight above: a quad 20 % too long (aspect 0.54,
    which a tilted camera could show a real card at) is pulled back, because its neighbours agree
    on the card's own aspect (0.645) and so show no tilt to undo."""
    image, truth = render(random_scene(112, layout="rows", deck="lineit"))
    quads = [c.quad.astype(np.float32) for c in truth.cards if c.visible_fraction >= 0.8]
    assert len(quads) >= 6
    for i in (0, len(quads) // 2, len(quads) - 1):
        given = list(quads)
        given[i] = _lengthen(quads[i], 0.2)
        assert quad_iou(given[i], quads[i]) < 0.85
        assert quad_iou(pull_stretched(image, given)[i], quads[i]) >= 0.95
        # with the fixed tilt range alone the quad's aspect passes for a card's
        assert pull_stretched(image, given, StretchConfig(untilted_neighbours=99))[i] is given[i]


def test_finder_pulls_in_a_quad_that_ran_over_the_card_beneath() -> None:
    """The quick cards bench's frame 220 (overlapping Twin It cards): two top cards' quads ran ~20 px
    over the cards beneath them; the finder's last step pulls them back to the cards' edges."""
    image, truth = render(random_scene(220, layout="overlapping", deck="twinit"))
    counted = [c.quad for c in truth.cards if c.visible_fraction >= 0.8]

    def found(cfg: FinderConfig) -> int:
        quads = [d.quad for d in find_cards(image, cfg)]
        return sum(max((quad_iou(q, t) for q in quads), default=0.0) >= 0.9 for t in counted)

    without = found(FinderConfig(stretch=None))
    assert found(FinderConfig()) >= without + 2
