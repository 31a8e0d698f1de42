"""Where frames come from: a camera, a stream, a video file, a folder of images, a rendered scenario.

>>> src = open_source("0")               # camera index 0     # doctest: +SKIP
>>> src = open_source("rtsp://phone:8554/live")                # doctest: +SKIP
>>> src = open_source("game.mp4")                              # doctest: +SKIP
>>> with src:                                                  # doctest: +SKIP
...     for ts, frame in src.frames():
...         obs = pipeline.process(frame, ts)

Live sources (camera index, device path, stream URL) are read by a thread that keeps only the
newest frame, so a slow consumer never builds up lag. Files and folders are read in order, every
frame, with timestamps from the file's frame rate. ``info`` holds the resolution and frame rate
actually delivered (read back from the device, not the requested ones). A camera that does not
open raises :class:`SourceUnavailable` naming the camera indices that do.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import InputError, SourceUnavailable

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mov", ".mkv", ".webm", ".m4v", ".mpg", ".mpeg")
STREAM_RE = re.compile(r"^(rtsp|rtsps|rtmp|http|https|udp|tcp)://", re.IGNORECASE)
PROBE_INDICES = range(0, 6)


@dataclass(frozen=True)
class SourceInfo:
    """What a source delivers."""

    kind: str
    """camera | device | stream | video | folder | scenario"""
    name: str
    """What was asked for (index, path or URL)."""
    width: int
    height: int
    fps: float
    """Frames per second actually delivered (0 when unknown)."""
    frame_count: int | None = None
    """Frames in a file or folder; None for live sources."""


class FrameSource:
    """A source of (timestamp seconds, BGR frame) pairs."""

    info: SourceInfo

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:  # pragma: no cover - interface
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextlib.contextmanager
def _quiet_opencv() -> Iterator[None]:
    """Silence OpenCV's own warnings while probing devices."""
    try:
        old = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    except AttributeError:  # pragma: no cover - older builds
        old = None
    try:
        yield
    finally:
        if old is not None:
            cv2.utils.logging.setLogLevel(old)


def probe_cameras(indices: range | list[int] = PROBE_INDICES) -> list[int]:
    """Camera indices that open and give a frame, probed quietly."""
    found = []
    with _quiet_opencv():
        for i in indices:
            cap = cv2.VideoCapture(i)
            try:
                if cap.isOpened() and cap.read()[0]:
                    found.append(i)
            finally:
                cap.release()
    return found


class LiveSource(FrameSource):
    """A camera or stream read by a background thread that keeps only the newest frame."""

    def __init__(
        self,
        target: int | str,
        kind: str,
        width: int | None = None,
        height: int | None = None,
        fps: float | None = None,
        capture_factory: Callable[[int | str], Any] = cv2.VideoCapture,
        first_frame_timeout_s: float = 5.0,
    ) -> None:
        self._cap = capture_factory(target)
        if not self._cap.isOpened():
            self._cap.release()
            raise SourceUnavailable(_unavailable_message(target, kind))
        if width:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        if height:
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        if fps:
            self._cap.set(cv2.CAP_PROP_FPS, fps)
        ok, frame = self._cap.read()
        if not ok or frame is None:
            self._cap.release()
            raise SourceUnavailable(_unavailable_message(target, kind, opened=True))
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._frame: np.ndarray | None = frame
        self._stamp = time.monotonic()
        self._seq = 1
        self._stopped = False
        self._error: str | None = None
        self._t0 = self._stamp
        self._received = 1
        self.dropped = 0
        """Frames replaced before anyone took them."""
        reported = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        h, w = frame.shape[:2]
        self.info = SourceInfo(kind, str(target), int(w), int(h), reported)
        self._thread = threading.Thread(target=self._reader, name=f"frames-{target}", daemon=True)
        self._thread.start()
        self._first_timeout = first_frame_timeout_s

    @property
    def measured_fps(self) -> float:
        """Frames per second the device delivered since it opened (0 until it gave two)."""
        elapsed = time.monotonic() - self._t0
        return self._received / elapsed if elapsed > 0 and self._received > 1 else 0.0

    def _reader(self) -> None:
        misses = 0
        while not self._stopped:
            ok, frame = self._cap.read()
            if not ok or frame is None:
                misses += 1
                if misses > 50:
                    with self._cond:
                        self._error = f"{self.info.name}: stopped giving frames"
                        self._cond.notify_all()
                    return
                time.sleep(0.01)
                continue
            misses = 0
            self._received += 1
            with self._cond:
                if self._frame is not None:
                    self.dropped += 1
                self._frame = frame
                self._stamp = time.monotonic()
                self._seq += 1
                self._cond.notify_all()

    def latest(self, timeout: float = 1.0) -> tuple[float, np.ndarray]:
        """The newest frame not yet taken (waits up to ``timeout`` seconds for one)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._frame is None and self._error is None and not self._stopped:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SourceUnavailable(f"{self.info.name}: no frame within {timeout:.1f} s")
                self._cond.wait(left)
            if self._frame is None:
                raise SourceUnavailable(self._error or f"{self.info.name}: closed")
            frame, stamp = self._frame, self._stamp
            self._frame = None
        return stamp - self._t0, frame

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        n = 0
        while not self._stopped:
            try:
                yield self.latest(self._first_timeout if n == 0 else 2.0)
            except SourceUnavailable:
                if self._stopped:
                    return
                raise
            n += 1
            if n == 60 and self.info.fps <= 0:
                # Devices that do not report a rate: use the measured one.
                self.info = SourceInfo(**{**self.info.__dict__, "fps": round(self.measured_fps, 2)})

    def close(self) -> None:
        self._stopped = True
        with self._cond:
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=2.0)
        self._cap.release()


def _unavailable_message(target: int | str, kind: str, opened: bool = False) -> str:
    what = "gives no frame" if opened else "does not open"
    if kind in ("camera", "device"):
        working = probe_cameras()
        listed = ", ".join(str(i) for i in working) if working else "none"
        return f"camera {target!r} {what}; camera indices that open: {listed}"
    return f"{kind} {target!r} {what}; expected a reachable stream URL (rtsp://, http://...)"


class VideoFileSource(FrameSource):
    """Every frame of a video file, timestamps from its frame rate."""

    def __init__(self, path: Path) -> None:
        self._cap = cv2.VideoCapture(str(path))
        if not self._cap.isOpened():
            self._cap.release()
            raise SourceUnavailable(f"video {str(path)!r} does not open; expected a readable video file")
        ok, frame = self._cap.read()
        if not ok or frame is None:
            self._cap.release()
            raise SourceUnavailable(f"video {str(path)!r} has no readable frame")
        self._first: np.ndarray | None = frame
        fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        count = int(self._cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0) or None
        h, w = frame.shape[:2]
        self.info = SourceInfo("video", str(path), w, h, fps, count)

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        step = 1.0 / self.info.fps if self.info.fps > 0 else 1.0 / 30.0
        n = 0
        if self._first is not None:
            yield 0.0, self._first
            self._first = None
            n = 1
        while True:
            ok, frame = self._cap.read()
            if not ok or frame is None:
                return
            yield n * step, frame
            n += 1

    def close(self) -> None:
        self._cap.release()


def read_image(path: str | os.PathLike[str]) -> np.ndarray:
    """A BGR image from a file; :class:`InputError` naming the file when it cannot be read."""
    p = Path(path)
    try:
        data = np.fromfile(p, dtype=np.uint8)
    except OSError as exc:
        raise InputError(f"image {str(p)!r} cannot be read: {exc.strerror or exc}") from None
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise InputError(f"image {str(p)!r} is not a readable image; expected PNG, JPEG, BMP, WebP or TIFF")
    return image


class ImageFolderSource(FrameSource):
    """The images of a folder in name order, one frame each at ``fps``."""

    def __init__(self, path: Path, fps: float = 1.0) -> None:
        self._paths = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._paths:
            raise SourceUnavailable(f"folder {str(path)!r} holds no image ({', '.join(IMAGE_SUFFIXES)})")
        first = read_image(self._paths[0])
        h, w = first.shape[:2]
        self._fps = fps
        self.info = SourceInfo("folder", str(path), w, h, fps, len(self._paths))

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        for i, p in enumerate(self._paths):
            yield i / self._fps, read_image(p)


class ScenarioSource(FrameSource):
    """Frames of a rendered scenario (``vision.render.scenario``), with their truth kept in
    ``last_truth`` for tests and benchmarks."""

    def __init__(self, scenario: Any, fps: float = 30.0) -> None:
        self._scenario = scenario
        self._fps = fps
        self.last_truth: Any = None
        it = iter(scenario.frames(fps))
        try:
            t, frame, truth = next(it)
        except StopIteration:
            raise SourceUnavailable("scenario renders no frame") from None
        self._pending: tuple[float, np.ndarray, Any] | None = (t, frame, truth)
        self._it = it
        h, w = frame.shape[:2]
        self.info = SourceInfo("scenario", type(scenario).__name__, w, h, fps)

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        if self._pending is not None:
            t, frame, truth = self._pending
            self._pending = None
            self.last_truth = truth
            yield t, frame
        for t, frame, truth in self._it:
            self.last_truth = truth
            yield t, frame


def _scenario(spec: str, fps: float) -> ScenarioSource:
    """``scenario:NAME[:SEED]``, e.g. ``scenario:twinit_demo:3``."""
    parts = spec.split(":")
    name = parts[1] if len(parts) > 1 and parts[1] else "twinit_demo"
    try:
        seed = int(parts[2]) if len(parts) > 2 else 0
    except ValueError:
        raise InputError(f"source {spec!r}: expected scenario:NAME[:SEED] with an integer seed") from None
    try:
        import importlib

        module = importlib.import_module("vision.render.scenario")
    except ImportError:
        raise SourceUnavailable(f"source {spec!r}: the scenario renderer is not available") from None
    factory = getattr(module, f"{name}_scenario", None)
    if factory is None:
        raise InputError(f"source {spec!r}: no scenario named {name!r}")
    return ScenarioSource(factory(seed), fps=fps)


def open_source(
    spec: str | int,
    width: int | None = None,
    height: int | None = None,
    fps: float | None = None,
    capture_factory: Callable[[int | str], Any] = cv2.VideoCapture,
) -> FrameSource:
    """A frame source from a camera index (``0``), a device path (``/dev/video2``), a stream
    URL (``rtsp://``, ``http://``), a video file, a folder of images, or
    ``scenario:NAME[:SEED]``. ``width``/``height``/``fps`` are requests to a camera; what it
    delivers is in ``info``."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return LiveSource(int(spec), "camera", width, height, fps, capture_factory)
    if not isinstance(spec, str) or not spec.strip():
        raise InputError(
            f"source {spec!r}: expected a camera index, device path, URL, video, folder or scenario"
        )
    spec = spec.strip()
    if spec.startswith("scenario:") or spec == "scenario":
        return _scenario(spec, fps or 30.0)
    if STREAM_RE.match(spec):
        return LiveSource(spec, "stream", width, height, fps, capture_factory)
    path = Path(spec)
    if spec.startswith("/dev/"):
        if not path.exists():
            raise SourceUnavailable(_unavailable_message(spec, "device"))
        return LiveSource(spec, "device", width, height, fps, capture_factory)
    if path.is_dir():
        return ImageFolderSource(path, fps or 1.0)
    if not path.exists():
        raise InputError(
            f"source {spec!r}: no such file or folder; expected a camera index, device, URL or file"
        )
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return _SingleImageSource(path)
    return VideoFileSource(path)


class _SingleImageSource(FrameSource):
    """One image as a one-frame source."""

    def __init__(self, path: Path) -> None:
        self._image = read_image(path)
        h, w = self._image.shape[:2]
        self.info = SourceInfo("image", str(path), w, h, 0.0, 1)

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        yield 0.0, self._image
