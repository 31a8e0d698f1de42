"""When the Twin It adapter says a slap has landed: the still tips' tolerance is a speed (a camera at
30 fps sees hands move less between two frames than one at 10 fps), and an arm cut off by the
image's edge whose mask lies still."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.web.tableobs import card
from tests.web.test_twinit_adapter import BOTTOM, MIDDLE, TOP, P, claims, pile_game
from vision.observation import CardState, HandObservation, Seat
from web.adapters.twinit_slaps import FRAME_S, TIP_STEP_PX, mask_still, tolerance


def test_tolerances_are_speeds_never_looser_than_at_10_fps() -> None:
    assert tolerance(3.0, 0.1, 80.0) == pytest.approx(24.0)  # 10 fps: 0.3 of a card
    assert tolerance(3.0, 1 / 30, 80.0) == pytest.approx(8.0)  # 30 fps: a third of it
    assert tolerance(3.0, 0.35, 80.0) == tolerance(3.0, FRAME_S, 80.0)  # slow vision: as at 10 fps
    assert tolerance(0.8, 1 / 30, 80.0) == TIP_STEP_PX  # never finer than the tips are found


def test_an_arm_moving_slowly_at_30_fps_is_no_still_arm(tmp_path: Path) -> None:
    """An arm moving 6 pixels a frame at 30 fps (2.25 cards a second: a carry's first steps) lies
    within 0.08 of a card of where it lay the frame before, still by the 10 fps rule; as a speed it
    moves: it waits HOLD_S (0.45 s), not STILL_S."""
    live, _ad, table = pile_game(tmp_path)
    middle = card(1, P[0], *MIDDLE)
    covered = [card(3, P[1], *BOTTOM, state=CardState.COVERED), card(2, P[1], *TOP, state=CardState.COVERED)]
    for k in range(12):  # 0.4 s
        arm = HandObservation(7, Seat("bottom"), (2, 3), (600 + 6 * k, 20, 80, 700))
        table.show([middle, *covered], [arm], dt=1 / 30)
        assert claims(live) == 0, k


def _arm(width: int) -> np.ndarray:
    """An arm from the top edge across the whole image (its hand cut off by the bottom edge)."""
    mask = np.zeros((720, 1280), np.uint8)
    cv2.line(mask, (640, 0), (640, 719), 1, width)
    return mask


def _reaching_across(tmp_path: Path, widths: list[int]) -> list[int]:
    """Ben's arm comes in from the top and lies across Ana's pile at the bottom edge, over the
    two cards of one pattern; the claims counted after each frame of ``widths`` (its mask's width)."""
    live, _ad, table = pile_game(tmp_path)
    cards = [card(1, P[0], *MIDDLE), card(2, P[1], *TOP), card(3, P[1], *BOTTOM)]
    covered = [cards[0], card(2, P[1], *TOP, state=CardState.COVERED)]
    covered.append(card(3, P[1], *BOTTOM, state=CardState.COVERED))
    arriving = np.zeros((720, 1280), np.uint8)
    cv2.line(arriving, (640, 0), (640, 150), 1, 60)
    table.show(cards, [HandObservation(1, Seat("top"), (), (610, 0, 60, 150))], mask=arriving)
    counts = []
    for width in widths:
        hands = (HandObservation(1, Seat("bottom"), (2, 3), (640 - width // 2, 0, width, 720)),)
        table.show(covered, hands, mask=_arm(width))
        counts.append(claims(live))
    return counts


def test_an_arm_cut_off_by_the_edge_lying_still_is_ruled_after_still_s_not_hold_s(tmp_path: Path) -> None:
    """Its tip at the image's edge shows nothing of its hand, but its mask does not change: it
    is ruled once still for STILL_S (three frames at 10 fps), not after HOLD_S (0.45 s; the live
    bench's slaps on a far pile or capture waited so, 0.3 to 0.5 s after their hands were down)."""
    assert _reaching_across(tmp_path, [70] * 7) == [0, 0, 1, 1, 1, 1, 1]


def test_an_arm_cut_off_by_the_edge_whose_mask_moves_waits_hold_s(tmp_path: Path) -> None:
    """The same arm, its tip in the same place, but its mask changing (80 and 70 pixels wide by
    turns): it waits the whole HOLD_S."""
    assert _reaching_across(tmp_path, [70, 80] * 3 + [70]) == [0, 0, 0, 0, 0, 1, 1]


def test_mask_still_allows_only_a_sliver_of_change() -> None:
    assert mask_still(_arm(70)[::4, ::4], _arm(70)[::4, ::4])
    assert not mask_still(_arm(80)[::4, ::4], _arm(70)[::4, ::4])
    assert not mask_still(np.zeros((180, 320), bool), np.zeros((180, 320), bool))  # no arm
    assert not mask_still(_arm(70)[::4, ::4], None)
