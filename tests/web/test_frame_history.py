"""The capture thread's thumbnails, and when a thing came to rest among the frames they show."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from web.frame_history import FrameHistory, thumbnail

W, H = 1280, 720


NOISE = np.random.default_rng(7).normal(0.0, 2.0, (H + 16, W + 16, 3)).round().astype(np.int16)
"""Sensor noise (sigma 2 grey levels); each frame cuts its own window from it."""


def frame(
    cards: list[tuple[float, float, int]], hand: tuple[int, int] | None = None, k: int = 0
) -> np.ndarray:
    """A noisy green table with textured cards ``(x, y, seed)`` (top-left corner, 80 x 120 px)
    and, when given, a skin-coloured hand blob at ``hand``; ``k`` picks the noise."""
    image = np.empty((H, W, 3), np.int16)
    image[:] = (40, 110, 40)
    for x, y, seed in cards:
        face = np.random.default_rng(seed).integers(0, 256, (12, 8, 3), dtype=np.int16)
        x0, y0 = round(x), round(y)
        image[y0 : y0 + 120, x0 : x0 + 80] = np.kron(face, np.ones((10, 10, 1), np.int16))
    if hand is not None:
        hx, hy = hand
        image[hy : hy + 150, hx : hx + 110] = (120, 160, 210)
    dy, dx = (k * 5) % 16, (k * 3) % 16
    image += NOISE[dy : dy + H, dx : dx + W]
    return np.clip(image, 0, 255).astype(np.uint8)


def quad(x: float, y: float) -> np.ndarray:
    return np.array([[x, y], [x + 80, y], [x + 80, y + 120], [x, y + 120]], np.float32)


def smooth(u: float) -> float:
    u = min(1.0, max(0.0, u))
    return u * u * (3 - 2 * u)


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        ((720, 1280, 3), (180, 320)),
        ((1080, 1920, 3), (180, 320)),
        ((720, 1280, 4), (180, 320)),
        ((48, 64), (48, 64)),
    ],
)
def test_a_thumbnail_is_grey_at_most_320_wide_and_read_only(
    shape: tuple[int, ...], expected: tuple[int, int]
) -> None:
    small, factor = thumbnail(np.full(shape, 200, np.uint8))
    assert small.shape == expected and small.dtype == np.uint8
    assert factor == shape[1] // expected[1]
    with pytest.raises(ValueError):
        small[0, 0] = 1


def test_the_history_keeps_the_last_seconds_and_starts_again_with_a_new_source() -> None:
    history = FrameHistory(seconds=1.0, max_frames=50)
    image = np.zeros((H, W, 3), np.uint8)
    for k in range(1, 31):
        history.add(k, k / 10, image)
    kept = history.between(0, 100)
    assert [t.index for t in kept] == list(range(20, 31))  # 1 s back from 3.0 s at 10 fps
    assert history.nbytes == 11 * 320 * 180
    history.add(1, 3.1, image)  # the source opened again: its indices start over
    assert [t.index for t in history.between(0, 100)] == [1]
    small = FrameHistory(seconds=10.0, max_frames=5)
    for k in range(1, 11):
        small.add(k, 0.1 * k, image)
    assert len(small) == 5


def sliding_history(stop: int, hand_after: bool = False) -> tuple[FrameHistory, list[float]]:
    """Frames 1..40 at 10 fps: card A lies still at (200, 200) throughout; card B slides 400 px in
    from the left and stops at frame ``stop`` (at (700, 300)); a hand moves about the right of the
    table the whole time and, when ``hand_after``, passes over B after it stopped, then over A."""
    history, monos = FrameHistory(), []
    for k in range(1, 41):
        u = smooth((k - (stop - 10)) / 10)
        b = (300.0 + 400.0 * u, 300.0)
        hand = (1000 + 10 * (k % 7), 100 + 12 * k)
        if hand_after and stop + 3 <= k <= stop + 6:
            hand = (690, 290)
        if hand_after and 30 <= k <= 33:
            hand = (190, 210)
        history.add(k, 10.0 + 0.1 * k, frame([(200.0, 200.0, 1), (*b, 2)], hand, k))
        monos.append(10.0 + 0.1 * k)
    return history, monos


@pytest.mark.parametrize("hand_after", [False, True])
def test_a_card_comes_to_rest_at_the_first_frame_it_looks_as_it_lies_now(hand_after: bool) -> None:
    history, monos = sliding_history(stop=22, hand_after=hand_after)
    arrived = history.arrivals(5, 40, [quad(200, 200), quad(700, 300)], hidden=[(1000, 500, 200, 200)])
    assert arrived is not None
    assert arrived[0] == -np.inf  # still from the first frame on: came to rest before
    assert arrived[1] == pytest.approx(monos[22 - 1], abs=0.101)  # frame 22, or the one before


def test_arrivals_search_the_frames_kept() -> None:
    history, monos = sliding_history(stop=22)
    assert history.arrivals(5, 41, [quad(700, 300)]) is None  # frame 41 was never kept
    assert history.arrivals(0, 40, [quad(700, 300)]) == [pytest.approx(monos[21])]  # from frame 1 on
    assert history.arrivals(25, 40, [quad(700, 300)]) == [-np.inf]  # at rest from frame 25 on


def test_a_hand_over_the_card_in_the_reference_frame_does_not_count() -> None:
    """The hand lies over B in the frame the areas come from: its box is left out, and B's rest is
    still found from the rest of its area."""
    history = FrameHistory()
    for k in range(1, 31):
        u = smooth((k - 8) / 10)
        hand = (740, 250) if k == 30 else (1100, 50)
        history.add(k, 0.1 * k, frame([(300.0 + 400.0 * u, 300.0, 2)], hand, k))
    hidden = [(740, 250, 110, 150)]
    arrived = history.arrivals(1, 30, [quad(700, 300)], hidden)
    assert arrived is not None and arrived[0] == pytest.approx(1.8, abs=0.101)
    assert history.arrivals(1, 30, [quad(700, 300)]) == [pytest.approx(3.0)]  # the hand counted
    mask = np.zeros((H, W), bool)
    mask[250:400, 740:850] = True  # vision's hand mask, where it has one
    arrived = history.arrivals(1, 30, [quad(700, 300)], hidden_mask=mask)
    assert arrived is not None and arrived[0] == pytest.approx(1.8, abs=0.101)


def test_a_card_mostly_under_a_hand_is_not_dated() -> None:
    history, _ = sliding_history(stop=22)
    arrived = history.arrivals(5, 40, [quad(200, 200), quad(700, 300)], hidden=[(650, 250, 200, 200)])
    assert arrived is not None and arrived[0] == -np.inf and np.isnan(arrived[1])


def test_one_thread_adds_while_another_searches() -> None:
    history = FrameHistory(seconds=0.5)
    images = [frame([(100.0 + 5 * k, 100.0, 3)]) for k in range(8)]
    done = threading.Event()
    errors: list[BaseException] = []

    def capture() -> None:
        try:
            for k in range(1, 400):
                history.add(k, 0.01 * k, images[k % 8])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            done.set()

    thread = threading.Thread(target=capture)
    thread.start()
    while not done.is_set():
        kept = history.between(0, 10**6)
        if kept:
            history.arrivals(kept[0].index, kept[-1].index, [quad(100, 100)])
            assert [t.index for t in kept] == list(range(kept[0].index, kept[-1].index + 1))
    thread.join()
    assert not errors and 50 <= len(history) <= 51


STILL = [(200.0, 200.0, 1), (400.0, 260.0, 2), (600.0, 200.0, 3)]
"""Three cards lying still."""


def still_history(after: np.ndarray | None) -> FrameHistory:
    """Frame 10 shows :data:`STILL` and a hand at (900, 400); frame 11 (when given) is ``after``."""
    history = FrameHistory()
    history.add(10, 1.0, frame(STILL, hand=(900, 400), k=0))
    if after is not None:
        history.add(11, 1.1, after)
    return history


def test_a_table_lying_still_to_the_next_frame_is_still() -> None:
    history = still_history(frame(STILL, hand=(900, 400), k=1))
    assert history.still_after(10, [quad(x, y) for x, y, _ in STILL]) is True


def test_a_card_still_sliding_unseen_or_a_hand_moving_out_of_its_mask_is_no_still_table() -> None:
    """Frame 10's quads name only the three still cards: a fourth one sliding 4 px between the
    two frames (vision never saw it), or the hand moving out of its place, are enough."""
    quads = [quad(x, y) for x, y, _ in STILL]
    sliding = still_history(frame([*STILL, (800.0, 100.0, 4)], hand=(900, 400), k=1))
    sliding.add(12, 1.2, frame([*STILL, (804.0, 100.0, 4)], hand=(900, 400), k=2))
    assert sliding.still_after(11, quads) is False
    mask = np.zeros((H, W), bool)
    mask[396:554, 896:1014] = True  # the hand where frame 10 shows it (and its edge)
    moved = still_history(frame(STILL, hand=(960, 380), k=1))
    assert moved.still_after(10, quads, hidden_mask=mask) is False
    assert moved.still_after(10, quads, hidden_small=moved.small_mask(mask)) is False
    # the hand where it lay changing (fingers moving inside the mask) is not looked at
    inside = still_history(frame(STILL, hand=(905, 400), k=1))
    assert inside.still_after(10, quads, hidden_small=inside.small_mask(mask)) is True
    assert inside.still_after(10, quads, hidden=[(895, 395, 125, 160)]) is True


def test_whether_the_table_lay_still_is_unknown_without_the_frame_after() -> None:
    history = still_history(None)
    assert history.still_after(10, [quad(200, 200)]) is None
    assert history.still_after(9, [quad(200, 200)]) is None


def test_the_first_frame_from_which_the_table_lies_still_is_found_among_the_frames_kept() -> None:
    """A card slides to a stop at frame 22 beside one lying still; a hand moves about from frame 30
    on: the first still frame from 13 (the card sliding) on is 22 (from 25 on: 25; from 30 on,
    none); before the slide (frames 1 to 12) the table lay still too."""
    history = FrameHistory()
    for k in range(1, 41):
        u = smooth((k - 12) / 10)
        hand = (300 + 20 * k, 400) if k >= 30 else None
        history.add(k, 0.1 * k, frame([(200.0, 200.0, 1), (300.0 + 400.0 * u, 300.0, 2)], hand, k))
    quads = [quad(200, 200), quad(700, 300)]
    assert history.first_still(13, 40, quads) == 22
    assert history.first_still(5, 40, quads) == 5
    assert history.first_still(25, 40, quads) == 25
    assert history.first_still(30, 40, quads) is None
    assert history.mono_of(22) == pytest.approx(2.2) and history.mono_of(999) is None
