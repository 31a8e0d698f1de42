"""The spread that starts Twin It's minute, dated from the capture thread's frame history when vision
skipped the frames in which it came to rest."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.web.tableobs import Captured, card, hand_on, obs, table_image
from tests.web.test_twinit_adapter import MIDDLE, P, spread_watch
from vision.observation import CardState
from web.frame_history import FrameHistory

FACES = [P[0], P[0], P[1], P[2], P[1], P[3], P[2], P[3]]
PLACES = [(250 + 110 * i, 300 + 60 * (i % 2)) for i in range(len(FACES))]
SLIDE_PX = 200.0
STACK = range(100, 105)
"""The stack's frames (10 fps from 10.0 s), every one seen by vision."""


def smooth(u: float) -> float:
    u = min(1.0, max(0.0, u))
    return u * u * (3 - 2 * u)


def mono(index: int) -> float:
    return 10.0 + 0.1 * (index - 100)


def spread_at(index: int, rest: int, nudged: int | None = None) -> list:
    """The spread's cards in frame ``index``: each slides ``SLIDE_PX`` in from the left from the
    stack's last frame on, easing to a stop at frame ``rest``; from frame ``nudged`` on, the last
    card lies 6 px to the right of where it stopped (a hand nudged it)."""
    left = SLIDE_PX * (1.0 - smooth((index - STACK[-1]) / (rest - STACK[-1])))
    cards = [
        card(i + 1, face, x - left, y) for i, (face, (x, y)) in enumerate(zip(FACES, PLACES, strict=True))
    ]
    if nudged is not None and index >= nudged:
        x, y = PLACES[-1]
        cards[-1] = card(len(FACES), FACES[-1], x + 6.0, y)
    return cards


def camera(cards: list, index: int, hand: bool) -> np.ndarray:
    """The frame: the cards on the table and, when ``hand``, an arm moving about the bottom left,
    away from the cards."""
    image = table_image(cards)
    if hand:
        x = 60 + 15 * (index % 9)
        cv2.rectangle(image, (x, 480), (x + 120, 719), (120, 160, 210), -1)
    return image


def play(
    tmp_path: Path,
    seen: list[int],
    rest: int,
    history_from: int | None = 100,
    nudged: int | None = None,
    hand: bool = False,
) -> float:
    """Frames 100 to the last of ``seen`` captured at 10 fps (each kept in the frame history from
    ``history_from`` on; ``None``: no history), vision seeing only ``seen``: the stack, then the
    spread coming to rest at frame ``rest``. The spread's rest as handed over to the minute."""
    ad, _table, handed = spread_watch(tmp_path)
    history = FrameHistory()
    if history_from is not None:
        ad.use_history(history)
    for index in range(100, max(seen) + 1):
        cards = [card(1, P[0], *MIDDLE)] if index in STACK else spread_at(index, rest, nudged)
        image = camera(cards, index, hand and index not in STACK)
        if history_from is not None and index >= history_from:
            history.add(index, mono(index), image)
        if index in seen:
            frame = Captured(mono(index), image)
            frame.index = index
            ad.observe(obs(index, mono(index), cards), frame)
    assert len(handed) == 1, handed
    return handed[0]


# vision sees the stack, one frame of the cards sliding, then skips 20 frames (108 to 127) while
# they come to rest at frame 110, then sees them at rest twice
SEEN = [*STACK, 105, 106, 127, 128]


def test_a_rest_among_20_skipped_frames_is_dated_from_the_frame_history(tmp_path: Path) -> None:
    assert play(tmp_path, SEEN, rest=110) == pytest.approx(mono(110), abs=0.101)


def test_without_a_history_the_rest_is_dated_from_the_middle_of_the_skipped_frames(tmp_path: Path) -> None:
    """Frames fed one by one (no capture thread): vision's own dating, as before: 0.8 s late here."""
    assert play(tmp_path, SEEN, rest=110, history_from=None) == pytest.approx(mono(127) - 1.0)


def test_a_history_that_no_longer_holds_the_frames_before_the_spread_is_not_used(tmp_path: Path) -> None:
    """The history lost the frames before the rest: the cards lie still in all it holds (they
    may have stopped long before), so vision's dating stands."""
    assert play(tmp_path, SEEN, rest=110, history_from=115) == pytest.approx(mono(127) - 1.0)


def test_a_history_that_holds_only_the_end_of_the_spread_dates_it(tmp_path: Path) -> None:
    """The history lost the stack and the spread's first frames, not the cards' last moves."""
    assert play(tmp_path, SEEN, rest=110, history_from=107) == pytest.approx(mono(110), abs=0.101)


def test_hands_moving_elsewhere_and_a_card_nudged_later_do_not_move_the_rest(tmp_path: Path) -> None:
    """An arm moves about the table's corner the whole time, and a hand nudges one card 6 px
    after the spread was done (it stopped 1 s after the others): still dated from the rest."""
    got = play(tmp_path, SEEN, rest=110, nudged=120, hand=True)
    assert got == pytest.approx(mono(110), abs=0.101)


@pytest.mark.parametrize("rest", [109, 118, 126])
def test_the_rest_is_dated_wherever_it_fell_among_the_skipped_frames(tmp_path: Path, rest: int) -> None:
    assert play(tmp_path, SEEN, rest=rest) == pytest.approx(mono(rest), abs=0.101)


def staggered_at(index: int, rests: list[int]) -> list:
    """The spread's cards in frame ``index``: card ``i`` slides in as in :func:`spread_at`, easing
    to a stop at frame ``rests[i]`` (one after another, as a hand deals them)."""
    cards = []
    for i, (face, (x, y)) in enumerate(zip(FACES, PLACES, strict=True)):
        left = SLIDE_PX * (1.0 - smooth((index - STACK[-1]) / (rests[i] - STACK[-1])))
        cards.append(card(i + 1, face, x - left, y))
    return cards


def play_staggered(tmp_path: Path, seen: list[int], rests: list[int], hand_from: int) -> float:
    """As :func:`play` (every frame in the history), the cards coming to rest one after another;
    from frame ``hand_from`` on, a hand lies over :data:`LAST` (reaching for it): vision sees it
    covered."""
    ad, _table, handed = spread_watch(tmp_path)
    history = FrameHistory()
    ad.use_history(history)
    for index in range(100, max(seen) + 1):
        cards = [card(1, P[0], *MIDDLE)] if index in STACK else staggered_at(index, rests)
        hands: tuple = ()
        if index >= hand_from:
            cards[LAST] = card(LAST + 1, FACES[LAST], *PLACES[LAST], state=CardState.COVERED)
            hands = (hand_on(1, "bottom", cards[LAST]),)
        image = table_image([c for c in cards if c.state == CardState.VISIBLE])
        for h in hands:
            x, y, w, hh = h.bbox
            cv2.rectangle(image, (x - 10, y), (x + w + 10, y + hh), (120, 160, 210), -1)
        history.add(index, mono(index), image)
        if index in seen:
            frame = Captured(mono(index), image)
            frame.index = index
            ad.observe(obs(index, mono(index), cards, hands=hands), frame)
    assert len(handed) == 1, handed
    return handed[0]


LAST = 3
"""The card in the middle of the row that comes to rest last."""
RESTS = [106, 108, 110, 120, 112, 114, 116, 118]
"""The frames the cards stop at: 0.2 s apart, the last (:data:`LAST`) at frame 120."""
STAGGERED = [*STACK, 115, 122, 128]
"""Vision sees the cards sliding at frame 115, at rest at frame 122 with no hand about, then (6
frames later) at frame 128."""


def test_the_spread_is_dated_from_the_first_frame_vision_saw_it_still_not_the_hand_over(
    tmp_path: Path,
) -> None:
    """The hand-over frame (128) hides the last card to stop under a hand: dated from it, the
    spread ended when the next to last card stopped (0.2 s early); frame 122 showed every card
    and the table lay still to the frame after it."""
    assert play_staggered(tmp_path, STAGGERED, RESTS, hand_from=125) == pytest.approx(mono(120), abs=0.101)


def test_a_frame_with_a_card_still_sliding_after_it_does_not_date_the_spread(tmp_path: Path) -> None:
    """The last card still slides after frame 122 (it stops at frame 124): the table was not still
    there, so the spread is dated from the hand-over frame, where that card is seen and dated."""
    rests = [*RESTS[:LAST], 124, *RESTS[LAST + 1 :]]
    assert play_staggered(tmp_path, STAGGERED, rests, hand_from=200) == pytest.approx(mono(124), abs=0.101)


def test_a_spread_vision_never_saw_still_is_dated_from_the_history_where_the_table_lay_still(
    tmp_path: Path,
) -> None:
    """Vision sees the cards sliding (frame 115), then only the hand-over frame (128), a hand over
    the last card to stop: the first frame of the history after the slide from which the table
    lay still (120) dates every card, the hidden one too (dated from the hand-over frame's other
    cards: 0.2 s early)."""
    got = play_staggered(tmp_path, [*STACK, 115, 128], RESTS, hand_from=125)
    assert got == pytest.approx(mono(120), abs=0.101)


def test_a_hand_over_8_s_after_the_spread_began_is_still_dated_from_the_history(tmp_path: Path) -> None:
    """Vision on a loaded machine: after one frame of the cards sliding it sees the table next
    8 s later (the live replay at load 10: 5.4 s from the frame before the spread to the
    hand-over); the history still holds the slide."""
    got = play(tmp_path, [*STACK, 105, 106, 185, 186], rest=110)
    assert got == pytest.approx(mono(110), abs=0.101)
