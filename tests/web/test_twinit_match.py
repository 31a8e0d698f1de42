"""The judge's resolution bands in the live app: the adapter's crops are all rectified to one size,
so each crop's band must come from its card's size in the camera image (the tracked quad), not
from the crop."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from referee.registry import make_game
from tests.web.tableobs import card, crop, pixel_compare
from tests.web.test_twinit_adapter import BOTTOM, MIDDLE, TOP, P, Table
from tests.web.test_twinit_labels import CountingJudge, Sig
from vision.identity.judge import PatternJudge
from web.adapters.twinit import TwinItAdapter
from web.adapters.twinit_match import Matcher, judge_compare, short_side
from web.live_game import LiveGame
from web.settings import Settings
from web.store import EventStore


class SizedJudge(CountingJudge):
    """The counting test judge, taking each crop's card size as the real judge does."""

    def __init__(self) -> None:
        super().__init__()
        self.sizes: dict[int, float | None] = {}

    def signatures(self, crops: list[np.ndarray], source_px: list[float | None] | None = None) -> list[Sig]:
        for i, c in enumerate(crops):
            self.sizes[id(c)] = None if source_px is None else source_px[i]
        return super().signatures(crops)


def square(cx: float, cy: float, side: float) -> np.ndarray:
    h = side / 2.0
    return np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]], np.float32)


def test_a_quads_short_side_is_the_shorter_mean_of_its_opposite_sides() -> None:
    quad = np.array([[0, 0], [100, 0], [100, 60], [0, 64]], np.float64)
    assert short_side(quad) == 62.0
    assert short_side(square(300, 200, 77)) == 77.0


def test_the_judge_puts_a_rectified_crop_in_the_band_of_its_cards_size_in_the_camera_image() -> None:
    judge = PatternJudge()
    assert judge.resolution is not None
    matcher = Matcher(judge_compare(judge), judge)
    big = np.ascontiguousarray(np.tile(crop(P[0]), (2, 2, 1)))  # 192 px: larger than every band
    assert judge.signature(big).px == 0.0  # alone, the judge cannot tell: the global band
    matcher.note_source(big, square(400, 300, 72))
    assert matcher.signature(big).px == 72.0
    other = big.copy()  # a crop of unknown source: the table's card size
    assert matcher.signature(other).px == 0.0
    matcher.card_px = 88.0
    assert matcher.signature(other).px == 88.0
    assert [s.px for s in matcher.signatures([big, other])] == [72.0, 88.0]


def test_a_slaps_crops_reach_the_judge_with_their_cards_size_in_the_camera_image(tmp_path: Path) -> None:
    options = {"cards": 10}
    settings = Settings(game="twinit", players=("Ana", "Ben"), options=options, data_dir=tmp_path)
    live = LiveGame.open(
        make_game("twinit", settings.players, "competitive", options), EventStore(settings.db_path)
    )
    judge = SizedJudge()
    adapter = TwinItAdapter(live, settings, pixel_compare, judge=judge)
    table = Table(adapter)
    table.settle([card(1, P[0], *BOTTOM), card(2, P[1], *TOP)])
    cards = [card(1, P[0], *MIDDLE), card(2, P[1], *TOP), card(3, P[0], *BOTTOM)]
    table.settle(cards)
    views: list[Any] = [s.view for s in adapter.recent]
    adapter.matcher.signatures(views)
    # the test cards' quads are 80 px squares; their views are cut from the frame at the crop size
    assert views and all(judge.sizes[id(v)] == 80.0 for v in views)
