"""A rendered Twixt game with hands placing pegs: every move committed, in the referee's notation."""

from __future__ import annotations

import random

from web.bench.twixt import _video_suite


def test_rendered_game_moves_are_committed_exactly() -> None:
    result = _video_suite(random.Random(7), 6, 640, 360, 5)
    assert result == {"moves": 6, "moves_exact": 6}
