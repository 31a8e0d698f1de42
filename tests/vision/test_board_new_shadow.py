"""An incremental read (the video's and the live app's) looks for new light or shadow among the cells
that match nothing, as a full read does: a hand's shadow cast on the board after the last full read
is no hand, and the holes under it are read (boards of ``tableref bench twixt``'s render suite, read
once without their hands, then incrementally with them)."""

from __future__ import annotations

import pytest

from tests.vision._board_helpers import clear_then_hand
from web.bench.twixt import _link_visible, near_hands


@pytest.mark.parametrize(
    ("seed", "index", "hole"),
    [
        (83, 10, (0, 5)),  # a shadow along the top row, under which the holes show their pits
        (131, 10, (13, 5)),
    ],
)
def test_an_incremental_read_reads_the_holes_under_a_new_shadow(
    seed: int, index: int, hole: tuple[int, int]
) -> None:
    spec, scene, _, reading = clear_then_hand(seed, index)
    truth = scene.truth
    visible = spec.valid_mask() & ~near_hands(scene, 2.0)
    assert visible[hole] and truth.pegs[hole] == 0
    assert reading.matrix[hole] == 0 and not reading.covered[hole]
    # The board is exact as the bench counts it, and nothing is misread.
    assert (reading.matrix == truth.pegs)[visible].all()
    assert not ((reading.matrix >= 0) & (reading.matrix != truth.pegs) & spec.valid_mask()).any()
    seen = set(reading.links)
    assert seen <= set(truth.links)
    assert {lk for lk in truth.links if _link_visible(lk, visible)} <= seen


def test_a_grey_peg_under_warm_glare_is_not_read_red_once_a_shadow_is_lifted() -> None:
    # Seed 149 board 7: glare clips the board at white under warm light. Once the new shadow check
    # lifts the cells beside hole 11,11 (a grey peg), the hole is read by its shape alone, and its
    # darkness (blue most, red least) must not pass for a red peg's.
    spec, scene, _, reading = clear_then_hand(149, 7)
    truth = scene.truth.pegs
    assert truth[11, 11] == 2
    assert reading.matrix[11, 11] in (-1, 2)
    assert not ((reading.matrix >= 0) & (reading.matrix != truth) & spec.valid_mask()).any()
