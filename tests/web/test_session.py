"""The live session's threads: newest frame wins, a lost source is retried with backoff while
the game is kept, corrupt frames and failing frames are counted and the session goes on."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tests.web.test_api import legal_actions
from vision.errors import SourceUnavailable
from vision.observation import TableObservation
from web.app import build_context
from web.settings import Settings


def wait_for(predicate, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def frame(value: int) -> np.ndarray:
    return np.full((120, 160, 3), value % 256, np.uint8)


def test_unplugged_camera_is_retried_with_backoff_and_the_game_kept(tmp_path: Path) -> None:
    opens: list[float] = []
    plugged = threading.Event()

    def source() -> Iterator[tuple[float, np.ndarray]]:
        opens.append(time.monotonic())
        if not plugged.is_set():
            raise SourceUnavailable("camera 0 does not open")
        for i in range(5):
            yield i * 0.01, frame(i)
        # the stream ends (cable pulled): the session says so and retries

    settings = Settings(
        game="lineit", players=("Ana", "Ben"), data_dir=tmp_path, retry_initial_s=0.05, retry_max_s=0.2
    )
    ctx = build_context(settings, source, lambda f, t: TableObservation(0, t, f.shape[1], f.shape[0]))
    (action,) = legal_actions(ctx, 1)
    seq, _ = ctx.live.act(action, "table")
    ctx.session.start()
    try:
        assert wait_for(lambda: len(opens) >= 3)
        assert ctx.session.status in ("unavailable", "retrying")
        assert "does not open" in ctx.session.message
        gaps = np.diff(opens[:4])
        assert gaps[1] > gaps[0] * 1.5  # backoff grows
        plugged.set()
        assert wait_for(lambda: ctx.session.frames >= 5)
        assert wait_for(lambda: ctx.session.status in ("ended", "retrying"))
        assert ctx.live.entries[0]["seq"] == seq and ctx.live.state is not None
        assert ctx.session.state_message()["source"]["status"] in ("ended", "retrying", "live")
    finally:
        ctx.session.stop()


def test_corrupt_frames_and_failing_frames_are_counted_and_skipped(tmp_path: Path) -> None:
    def source() -> Iterator[tuple[float, object]]:
        yield 0.0, frame(1)
        yield 0.1, np.zeros((0, 0, 3), np.uint8)
        yield 0.2, "not an image"
        yield 0.3, frame(2)
        time.sleep(0.2)
        yield 0.4, frame(3)
        time.sleep(0.2)
        yield 0.5, frame(4)
        time.sleep(0.2)

    def process(image: np.ndarray, t: float) -> TableObservation:
        if int(image[0, 0, 0]) == 3:
            raise RuntimeError("the finder broke on this frame")
        return TableObservation(int(image[0, 0, 0]), t, image.shape[1], image.shape[0])

    settings = Settings(game="lineit", players=("Ana", "Ben"), data_dir=tmp_path, retry_on_end=False)
    ctx = build_context(settings, source, process)
    ctx.session.start()
    try:
        assert ctx.session.source_done.wait(10)
        assert wait_for(lambda: ctx.session.latest is not None and ctx.session.latest.frame_index == 4)
        assert ctx.session.corrupt == 2
        assert ctx.session.errors == 1
        assert ctx.session.status == "ended"
    finally:
        ctx.session.stop()


def test_the_newest_frame_wins_when_vision_is_slow(tmp_path: Path) -> None:
    seen: list[int] = []

    def source() -> Iterator[tuple[float, np.ndarray]]:
        for i in range(40):
            time.sleep(0.005)
            yield i * 0.005, frame(i)
        time.sleep(0.5)

    def slow(image: np.ndarray, t: float) -> TableObservation:
        seen.append(int(image[0, 0, 0]))
        time.sleep(0.05)
        return TableObservation(len(seen), t, image.shape[1], image.shape[0])

    settings = Settings(game="lineit", players=("Ana", "Ben"), data_dir=tmp_path, retry_on_end=False)
    ctx = build_context(settings, source, slow)
    ctx.session.start()
    try:
        assert ctx.session.source_done.wait(10)
        assert wait_for(lambda: seen and seen[-1] == 39)
        assert len(seen) < 20 and ctx.session.status_json()["dropped"] > 20
    finally:
        ctx.session.stop()


HEAP_PROBE = """
import numpy as np
import pytest
from web.session import tune_heap

def rss():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024

assert tune_heap()
first = np.ones((720, 1280, 3), np.uint8)
del first  # glibc's default would now serve every frame from its heap
frames, kept = [], []
for _ in range(40):
    frames.append(np.ones((720, 1280, 3), np.uint8))
    kept.append(np.ones(2000, np.uint8))  # small blocks made between the frames stay
before = rss()
frames.clear()
print(before - rss())
"""


def test_the_tuned_heap_hands_freed_frames_back_to_the_system() -> None:
    """40 freed 720p frames (105 MB) interleaved with small blocks that stay: the process's
    resident size drops by them at once (glibc's default keeps them all resident)."""
    out = subprocess.run(
        [sys.executable, "-c", HEAP_PROBE], capture_output=True, text=True, timeout=60, check=True
    )
    released_mb = float(out.stdout.strip())
    assert released_mb >= 0.9 * 40 * 720 * 1280 * 3 / 2**20


def test_a_switch_of_games_hands_the_finished_games_memory_back_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The heap is trimmed every TRIM_PERIOD_S, and SWITCH_TRIM_S after the session switches games
    (the finished game's adapter is garbage by then), not up to 30 s into the next game."""
    import web.session as session_module

    trims: list[float] = []
    monkeypatch.setattr(session_module, "heap_trimmer", lambda: lambda: trims.append(time.monotonic()))

    def still() -> Iterator[tuple[float, object]]:
        for i in range(400):
            time.sleep(0.01)
            yield i * 0.01, frame(i)

    settings = Settings(game="lineit", players=("Ana", "Ben"), data_dir=tmp_path, retry_on_end=False)
    ctx = build_context(settings, still, lambda image, t: TableObservation(0, t, 160, 120))
    session = ctx.session
    session.start()
    try:
        time.sleep(0.5)
        assert trims == []  # no trim before TRIM_PERIOD_S without a switch
        switched = time.monotonic()
        session.switch(ctx.live, session.adapter)
        assert wait_for(lambda: bool(trims), timeout=5.0)
        assert session_module.SWITCH_TRIM_S <= trims[0] - switched < session_module.SWITCH_TRIM_S + 1.0
        time.sleep(0.3)
        assert len(trims) == 1  # once per switch
    finally:
        session.stop()
