"""A faint grey bridge on a board clipped at white is judged against the board beside it; beside its
middle lie two holes 0.45 pitch off its axis, and where they hold pegs, the points beside the bridge
fall on those pegs, not on the board (seed 211's board 0 of ``tableref bench twixt``'s render suite:
bridge 10,16 - 12,15 between the red pegs at 11,15 and 11,16)."""

from __future__ import annotations

from tests.vision._board_helpers import read_suite_board
from web.bench.twixt import _link_visible


def test_a_faint_bridge_between_two_pegs_is_seen_and_the_board_is_exact() -> None:
    scene, reading, visible = read_suite_board(211, 0)
    truth = scene.truth
    assert truth.pegs[11, 15] == 1 and truth.pegs[11, 16] == 1
    seen = set(reading.links)
    assert (10, 16, 12, 15) in truth.links and (10, 16, 12, 15) in seen
    assert seen <= set(truth.links)
    assert {lk for lk in truth.links if _link_visible(lk, visible)} <= seen
    assert (reading.matrix == truth.pegs)[visible].all()
