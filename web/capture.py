"""Frame sources for the live session: a camera, a device, a stream URL or a video file (OpenCV),
and a rendered scenario played in real time (the demo). Each is a :data:`web.session.FrameSource`:
calling it opens the source and yields ``(t, frame)`` until the stream ends.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from web.session import FrameSource

log = logging.getLogger(__name__)


def camera_source(spec: str, width: int = 1280, height: int = 720) -> FrameSource:
    """Frames from ``vision.sources``: a camera, device, stream URL, video file or image folder.
    A file or folder plays at its own frame rate (real time); a camera or stream as it comes.
    Opening raises :class:`SourceUnavailable` (the session retries with backoff)."""
    from vision.sources import open_source

    def open_() -> Iterator[tuple[float, np.ndarray]]:
        source = open_source(spec, width, height)
        paced = getattr(source.info, "kind", "") in ("video", "folder")
        start = time.monotonic()
        try:
            for t, frame in source.frames():
                if paced:
                    delay = start + t - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                yield t, frame
        finally:
            source.close()

    return open_


def scenario_source(
    scenario: Any,
    fps: float,
    on_truth: Callable[[float, float, Any], None] | None = None,
    speed: float = 1.0,
    clock: Callable[[], float] = time.monotonic,
) -> FrameSource:
    """A rendered scenario played in real time (``speed`` x): each frame shows the table at the
    moment it is rendered, as a camera would (a slow renderer gives fewer frames, never a late
    table). The truth of each frame goes only to ``on_truth(t, mono, truth)`` (tests and
    benchmark scoring), never to the pipeline."""
    period = 1.0 / fps

    def open_() -> Iterator[tuple[float, np.ndarray]]:
        start = clock()
        next_at = start
        while True:
            delay = next_at - clock()
            if delay > 0:
                time.sleep(delay)
            t = (clock() - start) * speed
            if t > scenario.duration:
                return
            image, truth = scenario.render_at(t)
            if on_truth is not None:
                on_truth(t, clock(), truth)
            yield t, image
            next_at = max(next_at + period, clock())

    return open_
