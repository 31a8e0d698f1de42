"""Frame sources: files, folders, live capture with a newest-frame reader, clear errors."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import InputError, SourceUnavailable
from vision.sources import (
    ImageFolderSource,
    LiveSource,
    VideoFileSource,
    open_source,
    read_image,
)


def _frame(i: int, size: tuple[int, int] = (160, 120)) -> np.ndarray:
    w, h = size
    img = np.zeros((h, w, 3), np.uint8)
    img[:, :] = (i * 20 % 256, 80, 160)
    cv2.putText(img, str(i), (10, 60), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (255, 255, 255), 3)
    return img


def test_image_folder_in_name_order(tmp_path: Path) -> None:
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), _frame(i))
    (tmp_path / "notes.txt").write_text("not an image")
    src = open_source(str(tmp_path), fps=2.0)
    assert isinstance(src, ImageFolderSource)
    assert (src.info.kind, src.info.width, src.info.height, src.info.frame_count) == ("folder", 160, 120, 3)
    frames = list(src.frames())
    assert [t for t, _ in frames] == [0.0, 0.5, 1.0]
    assert [int(f[0, 0, 0]) for _, f in frames] == [0, 20, 40]


def test_video_file_every_frame_with_its_clock(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (160, 120))
    assert writer.isOpened()
    for i in range(7):
        writer.write(_frame(i))
    writer.release()
    with open_source(str(path)) as src:
        assert isinstance(src, VideoFileSource)
        assert (src.info.width, src.info.height) == (160, 120)
        assert src.info.fps == pytest.approx(10.0)
        frames = list(src.frames())
    assert len(frames) == 7
    assert [round(t, 3) for t, _ in frames] == [round(i / 10, 3) for i in range(7)]


def test_single_image_and_read_errors(tmp_path: Path) -> None:
    good = tmp_path / "a.png"
    cv2.imwrite(str(good), _frame(3))
    assert [f.shape for _, f in open_source(str(good)).frames()] == [(120, 160, 3)]
    bad = tmp_path / "b.png"
    bad.write_text("not really a png")
    with pytest.raises(InputError, match=r"b\.png.*not a readable image"):
        read_image(bad)
    with pytest.raises(InputError, match="cannot be read"):
        read_image(tmp_path / "missing.jpg")
    with pytest.raises(InputError, match="no such file or folder"):
        open_source(str(tmp_path / "nothing-here.mp4"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(SourceUnavailable, match="holds no image"):
        open_source(str(tmp_path / "empty"))


class FakeCapture:
    """A camera that gives numbered frames as fast as asked, at 640x480, reporting 25 fps."""

    def __init__(self, target: object, opens: bool = True, delay: float = 0.002) -> None:
        self.target = target
        self.opens = opens
        self.n = 0
        self.delay = delay
        self.props: dict[int, float] = {}
        self.released = threading.Event()

    def isOpened(self) -> bool:
        return self.opens

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def get(self, prop: int) -> float:
        return 25.0 if prop == cv2.CAP_PROP_FPS else 0.0

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.released.is_set():
            return False, None
        time.sleep(self.delay)
        self.n += 1
        return True, _frame(self.n, (640, 480))

    def release(self) -> None:
        self.released.set()


def test_live_source_keeps_only_the_newest_frame() -> None:
    caps: list[FakeCapture] = []

    def factory(target: object) -> FakeCapture:
        caps.append(FakeCapture(target))
        return caps[-1]

    before_open = time.monotonic()
    src = open_source("rtsp://127.0.0.1:8554/phone", width=1280, height=720, capture_factory=factory)
    after_open = time.monotonic()
    try:
        assert isinstance(src, LiveSource)
        assert (src.info.kind, src.info.width, src.info.height, src.info.fps) == ("stream", 640, 480, 25.0)
        assert caps[0].props[cv2.CAP_PROP_FRAME_WIDTH] == 1280  # asked for, not what it gives
        src.latest()
        # a slow consumer: the reader keeps going, only the newest is kept (waits on the camera's
        # own count, not on the clock: a loaded machine gives the reader fewer turns)
        taken_at = caps[0].n
        deadline = time.monotonic() + 30.0
        while caps[0].n < taken_at + 15 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert caps[0].n >= taken_at + 15
        n_before = caps[0].n
        _, newest = src.latest()
        n_now = caps[0].n
        # >= 14 frames stored since the take (the camera's newest may still be in the reader's
        # hands): the first filled the empty slot, every later one replaced an untaken frame
        assert src.dropped > 10
        assert int(newest[0, 0, 0]) in {(k * 20) % 256 for k in range(n_before - 1, n_now + 1)}
        # the measured rate is the frames delivered over the time since the source opened
        n_a, t_a = caps[0].n, time.monotonic()
        fps = src.measured_fps
        t_b, n_b = time.monotonic(), caps[0].n
        assert (n_a - 1) / (t_b - before_open) <= fps <= n_b / (t_a - after_open)
    finally:
        src.close()
    assert caps[0].released.is_set()


def test_missing_camera_lists_the_indices_that_open(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("vision.sources.probe_cameras", lambda *a, **k: [0, 2])
    with pytest.raises(SourceUnavailable, match=r"camera 5 does not open; camera indices that open: 0, 2"):
        open_source("5", capture_factory=lambda t: FakeCapture(t, opens=False))
    monkeypatch.setattr("vision.sources.probe_cameras", lambda *a, **k: [])
    with pytest.raises(SourceUnavailable, match="camera indices that open: none"):
        open_source(3, capture_factory=lambda t: FakeCapture(t, opens=False))


def test_probe_cameras_is_quiet_and_returns_a_list() -> None:
    from vision.sources import probe_cameras

    found = probe_cameras([90, 91])  # indices no machine has
    assert found == []


def test_unreachable_stream_is_a_clear_error() -> None:
    with pytest.raises(SourceUnavailable, match=r"stream 'rtsp://127.0.0.1:1/x' does not open"):
        open_source("rtsp://127.0.0.1:1/x", capture_factory=lambda t: FakeCapture(t, opens=False))


def test_rendered_scenario_source_gives_frames_and_truth() -> None:
    src = open_source("scenario:twinit_demo:0", fps=5.0)
    assert (src.info.kind, src.info.width, src.info.height, src.info.fps) == ("scenario", 1280, 720, 5.0)
    got = []
    for t, frame in src.frames():
        got.append((t, frame.shape, len(src.last_truth.cards)))
        if len(got) == 3:
            break
    assert [round(t, 3) for t, _, _ in got] == [0.0, 0.2, 0.4]
    assert all(shape == (720, 1280, 3) for _, shape, _ in got)
    with pytest.raises(InputError, match="no scenario named 'nope'"):
        open_source("scenario:nope")
