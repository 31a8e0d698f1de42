"""The capture thread keeps a thumbnail of every frame while vision skips frames, and lends the
history to the game adapter."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from tests.web.test_session import wait_for
from vision.observation import TableObservation
from web.app import build_context
from web.frame_history import FrameHistory
from web.settings import Settings


def frame(value: int) -> np.ndarray:
    return np.full((360, 640, 3), value % 256, np.uint8)


class Recorder:
    """An adapter that keeps the history it is lent and the frames vision hands it."""

    def __init__(self) -> None:
        self.histories: list[FrameHistory] = []
        self.observed: list[int] = []

    def use_history(self, history: FrameHistory) -> bool:
        self.histories.append(history)
        return True

    def observe(self, obs: TableObservation, frame: Any) -> None:
        self.observed.append(frame.index)


def source() -> Iterator[tuple[float, object]]:
    for i in range(40):
        time.sleep(0.005)
        yield i * 0.005, frame(i) if i != 7 else "a corrupt frame"
    time.sleep(0.3)


def slow(image: np.ndarray, t: float) -> TableObservation:
    time.sleep(0.05)
    return TableObservation(0, t, image.shape[1], image.shape[0])


def test_every_sound_frame_is_kept_small_while_vision_skips_frames(tmp_path: Path) -> None:
    settings = Settings(game="lineit", players=("Ana", "Ben"), data_dir=tmp_path, retry_on_end=False)
    adapter = Recorder()
    ctx = build_context(settings, source, slow, lambda live, s: adapter)
    session = ctx.session
    assert adapter.histories == [session.history]
    session.start()
    try:
        assert session.source_done.wait(10)
        assert wait_for(lambda: adapter.observed and adapter.observed[-1] == 40)
    finally:
        session.stop()
    kept = session.history.between(0, 100)
    assert [t.index for t in kept] == [i for i in range(1, 41) if i != 8]  # all but the corrupt one
    assert len(adapter.observed) < 20  # vision skipped most of them
    assert kept[0].image.shape == (180, 320) and kept[0].factor == 2
    assert int({t.index: t for t in kept}[13].image[0, 0]) == 12  # frame 13 shows value 12
    assert session.history_ms > 0.0
    other = Recorder()
    session.switch(ctx.live, other)
    assert other.histories == [session.history]


def test_a_session_without_vision_keeps_no_history(tmp_path: Path) -> None:
    settings = Settings(game="lineit", players=("Ana", "Ben"), data_dir=tmp_path, retry_on_end=False)
    ctx = build_context(settings, source, None)
    ctx.session.start()
    try:
        assert ctx.session.source_done.wait(10)
    finally:
        ctx.session.stop()
    assert ctx.session.frames == 40 and len(ctx.session.history) == 0


def test_an_adapter_that_takes_no_history_gets_no_thumbnails_made(tmp_path: Path) -> None:
    """Only an adapter that dates events from the skipped frames costs the capture thread their
    thumbnails (Line-it's adapter takes none)."""
    settings = Settings(game="lineit", players=("Ana", "Ben"), data_dir=tmp_path, retry_on_end=False)
    ctx = build_context(settings, source, slow)
    ctx.session.start()
    try:
        assert ctx.session.source_done.wait(10)
        assert wait_for(lambda: ctx.session.processed > 0)
    finally:
        ctx.session.stop()
    assert ctx.session.frames == 40 and len(ctx.session.history) == 0 and ctx.session.history_ms == 0.0


class SlowHistory(FrameHistory):
    """A history whose thumbnails take 0.15 s each (a loaded machine)."""

    def add(self, index: int, mono: float, image: np.ndarray) -> None:
        time.sleep(0.15)
        super().add(index, mono, image)


def test_vision_gets_a_frame_before_the_capture_thread_makes_its_thumbnail(tmp_path: Path) -> None:
    """The frame goes to vision first: its thumbnail is no part of its age when vision starts."""
    started = time.monotonic()

    def timed_source() -> Iterator[tuple[float, object]]:
        for i in range(6):
            time.sleep(0.2)
            yield time.monotonic() - started, frame(i)
        time.sleep(0.3)

    ages: list[float] = []

    def process(image: np.ndarray, t: float) -> TableObservation:
        ages.append(time.monotonic() - started - t)
        return TableObservation(0, t, image.shape[1], image.shape[0])

    settings = Settings(game="lineit", players=("Ana", "Ben"), data_dir=tmp_path, retry_on_end=False)
    ctx = build_context(settings, timed_source, process, lambda live, s: Recorder())
    ctx.session.history = SlowHistory()
    ctx.session.start()
    try:
        assert ctx.session.source_done.wait(10)
    finally:
        ctx.session.stop()
    assert len(ages) >= 4 and sorted(ages)[len(ages) // 2] < 0.1, ages
    assert len(ctx.session.history) == 6


def test_the_first_photo_finish_of_a_session_pays_no_font_loading() -> None:
    """A fresh process: once an adapter exists, a ruling's photo-finish takes no 70-80 ms of
    OpenCV loading its caption font."""
    code = (
        "import time, numpy as np\n"
        "from web.adapters.base import GameAdapter, photo_finish\n"
        "class Live:\n"
        "    pass\n"
        "class Facts:\n"
        "    def seat_of_player(self):\n"
        "        return {}\n"
        "GameAdapter(Live(), Facts())\n"
        "crop = np.full((120, 80, 3), 200, np.uint8)\n"
        "t = time.perf_counter()\n"
        "photo_finish([crop, crop], 'Ana: p(same) 0.97')\n"
        "print((time.perf_counter() - t) * 1000)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert float(done.stdout.split()[-1]) < 30.0
