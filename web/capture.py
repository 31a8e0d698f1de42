"""Frame sources for the live session: a camera, a device, a stream URL or a video file (OpenCV),
and a rendered scenario played in real time (the demo). Each is a :data:`web.session.FrameSource`:
calling it opens the source and yields ``(t, frame)`` until the stream ends.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import SourceUnavailable
from web.session import FrameSource

log = logging.getLogger(__name__)


def parse_source(spec: str) -> int | str:
    """A camera index (``"0"``) as an int; a device path, URL or file as given."""
    spec = spec.strip()
    if not spec:
        raise SourceUnavailable("source '' is empty: expected a camera index, a device path, a URL or a file")
    return int(spec) if spec.isdigit() else spec


def opencv_source(spec: str, width: int = 1280, height: int = 720) -> FrameSource:
    """Frames from OpenCV. A video file plays at its own frame rate; a camera or stream as fast as
    it gives frames. Raises :class:`SourceUnavailable` when it does not open."""
    target = parse_source(spec)
    is_file = isinstance(target, str) and "://" not in target and not target.startswith("/dev/")
    if is_file and not Path(target).exists():
        raise SourceUnavailable(
            f"source {spec!r} does not exist: expected a camera index, a device, a URL or a file"
        )

    def open_() -> Iterator[tuple[float, np.ndarray]]:
        cap = cv2.VideoCapture(target)
        if not cap.isOpened():
            raise SourceUnavailable(f"cannot open source {spec!r}")
        try:
            if not is_file:
                cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
                cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
            fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
            start = time.monotonic()
            index = 0
            while True:
                ok, frame = cap.read()
                if not ok:
                    return
                if is_file:
                    t = index / fps
                    delay = start + t - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                else:
                    t = time.monotonic() - start
                index += 1
                yield t, frame
        finally:
            cap.release()

    return open_


def scenario_source(
    scenario: Any,
    fps: float,
    on_truth: Callable[[float, float, Any], None] | None = None,
    speed: float = 1.0,
    clock: Callable[[], float] = time.monotonic,
) -> FrameSource:
    """A rendered scenario played in real time (``speed`` x). The truth of each frame goes only to
    ``on_truth(t, mono, truth)`` (tests and benchmark scoring), never to the pipeline."""

    def open_() -> Iterator[tuple[float, np.ndarray]]:
        start = clock()
        for t, image, truth in scenario.frames(fps):
            delay = start + t / speed - clock()
            if delay > 0:
                time.sleep(delay)
            if on_truth is not None:
                on_truth(t, clock(), truth)
            yield t, image

    return open_
