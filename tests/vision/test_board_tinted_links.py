"""Grey bridges on a board clipped at white under tinted light: a washed-out grey darkens the light's
weaker channels more (here red most, blue least), so a bridge's difference from the board has a hue,
the one its pegs' rings show; it is a bridge all the same (seed 97's board 10 of ``tableref bench
twixt``'s render suite: cool light, glare over holes 8..11, 13..16)."""

from __future__ import annotations

from tests.vision._board_helpers import read_suite_board
from web.bench.twixt import _link_visible


def test_grey_bridges_under_tinted_glare_are_seen_and_the_board_is_exact() -> None:
    scene, reading, visible = read_suite_board(97, 10)
    truth = scene.truth
    assert truth.pegs[8, 16] == 2 and reading.matrix[8, 16] == 2  # a washed-out grey peg
    seen = set(reading.links)
    for link in ((9, 14, 11, 13), (8, 16, 9, 14)):
        assert link in truth.links and link in seen
    assert seen <= set(truth.links)
    assert {lk for lk in truth.links if _link_visible(lk, visible)} <= seen
    assert (reading.matrix == truth.pegs)[visible].all()
