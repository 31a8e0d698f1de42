"""An incremental read tells a shadow or light from a hand as a full read does: its check judges the
holes under the odd cells as a fresh reader would, not with the classes the last full read learnt
(tighter, they left a hand's shadow over whole rows taken for a hand), and it leaves the board
model as it found it (boards of ``tableref bench twixt``'s render suite, read once without their
hands, then incrementally with them)."""

from __future__ import annotations

import numpy as np

from tests.vision._board_helpers import clear_then_hand
from web.bench.twixt import _link_visible, near_hands


def _visible(spec, scene):  # type: ignore[no-untyped-def]
    return spec.valid_mask() & ~near_hands(scene, 2.0)


def test_an_incremental_read_reads_what_a_full_read_reads_beside_a_hand() -> None:
    # Seed 113 board 4: a full read of the frame with the hand is exact; the incremental read
    # took four more cells by the hand's margin for the hand and abstained on five holes there.
    spec, scene, _, reading = clear_then_hand(113, 4)
    truth = scene.truth
    visible = _visible(spec, scene)
    for hole in ((21, 8), (21, 9), (22, 8), (22, 9), (22, 10)):
        assert visible[hole] and reading.matrix[hole] == truth.pegs[hole], hole
    assert (reading.matrix == truth.pegs)[visible].all()
    assert not ((reading.matrix >= 0) & (reading.matrix != truth.pegs) & spec.valid_mask()).any()
    seen = set(reading.links)
    assert seen <= set(truth.links)
    assert {lk for lk in truth.links if _link_visible(lk, visible)} <= seen


def test_a_hands_shadow_over_rows_is_lifted_by_an_incremental_read() -> None:
    # Seed 67 board 5: the hand's shadow runs over rows 1 to 5 on the left; a full read finds its
    # cells show pits and pegs and reads rows 1 and 2; the incremental read abstained on them.
    spec, scene, _, reading = clear_then_hand(67, 5)
    truth = scene.truth
    visible = _visible(spec, scene)
    row = [(1, c) for c in range(1, 13)] + [(2, c) for c in range(1, 7)]
    assert all(visible[h] for h in row)
    assert all(reading.matrix[h] == truth.pegs[h] for h in row)
    # Nothing is misread, visible or under the hand.
    assert not ((reading.matrix >= 0) & (reading.matrix != truth.pegs) & spec.valid_mask()).any()
    assert set(reading.links) <= set(truth.links)


def test_the_shadow_check_leaves_the_board_model_as_it_found_it() -> None:
    # The check fits a board of its own (every odd cell taken as board): a read that lifts nothing
    # goes on with its own model's light, clipping and suspect holes, not the check's.
    _spec, scene, reader, _ = clear_then_hand(67, 5)
    f = reader._features(scene.image)
    _board, occluded = reader._board_model(f.cell_log, None)
    assert occluded.any()
    state = [a.copy() for a in (reader._suspect, reader._glare, reader._faded, reader._clipped)]
    reader._not_hands(f, occluded, None)
    after = (reader._suspect, reader._glare, reader._faded, reader._clipped)
    for a, b in zip(state, after, strict=True):
        np.testing.assert_array_equal(a, b)
