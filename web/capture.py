"""Frame sources for the live session: a camera, a device, a stream URL or a video file (OpenCV),
a rendered scenario played in real time (the demo), and a scenario rendered beforehand to JPEG
frames played as a webcam's MJPEG stream (the live bench's camera). Each is a
:data:`web.session.FrameSource`: calling it opens the source and yields ``(t, frame)`` until the
stream ends.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import shutil
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import cv2
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


JPEG_QUALITY = 95
"""The quality pre-rendered frames are kept at: a webcam's MJPEG at its best (a 720p demo frame:
~175 kB, 4.6 ms to decode; mean difference to the raw render 1.7 grey levels)."""
CACHE_FORMAT = 1
"""Bumped when the layout of a pre-rendered folder changes."""


def frames_cache_root() -> Path:
    """Where the live bench keeps scenarios rendered beforehand: ``$XDG_CACHE_HOME/tableref/
    bench-frames`` (default ``~/.cache/...``). A bench artifact: the app never reads it."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tableref" / "bench-frames"


def renderer_fingerprint() -> str:
    """A hash of the renderer's code (``vision/render``: the scenarios, the scene, the camera;
    it reads no other file) and of OpenCV's and numpy's versions: frames rendered beforehand are
    used again only while it is the same."""
    import vision.render

    digest = hashlib.sha1(f"{cv2.__version__} {np.__version__} {CACHE_FORMAT}".encode())
    root = Path(vision.render.__file__).parent
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class PlayedFrame:
    """One frame of a scenario rendered beforehand: its scenario time, its JPEG file and the
    truth the renderer gave with it (only what ``on_truth`` consumers read: the hand events)."""

    t: float
    path: Path
    events: tuple[Any, ...] = ()


@dataclass(frozen=True)
class _Truth:
    events: tuple[Any, ...]


def _frame_count(duration: float, fps: float) -> int:
    """How many frames ``k / fps`` lie in ``[0, duration]``."""
    return int(np.floor(duration * fps + 1e-9)) + 1


def frame_sum(image: np.ndarray) -> int:
    """The checksum of a rendered frame's pixels (before JPEG)."""
    return zlib.crc32(np.ascontiguousarray(image).data)


def _render_frames(
    game: str, seed: int, fps: float, ks: Sequence[int] | tuple[int, int], folder: str | None, quality: int
) -> list[tuple[int, tuple[Any, ...], int, tuple[int, int]]]:
    """(A pool worker.) Renders frames at ``k / fps`` of the scenario, each to JPEG file
    ``folder/<k>.jpg`` (none when ``folder`` is None): each one's index, truth events, pixel
    checksum and size. ``ks`` is a list of indices, or ``(part, parts)``: every ``parts``-th frame
    from ``part`` to the scenario's end."""
    from web.demo_session import load_scenario

    scenario = load_scenario(game, seed)
    if isinstance(ks, tuple):
        ks = range(ks[0], _frame_count(float(scenario.duration), fps), ks[1])
    out = []
    for k in ks:
        image, truth = scenario.render_at(k / fps)
        if folder is not None:
            ok, buf = cv2.imencode(".jpg", image, [int(cv2.IMWRITE_JPEG_QUALITY), quality])
            if not ok:
                raise OSError(f"frame {k} of {game} seed {seed} could not be encoded")
            Path(folder, f"{k:06d}.jpg").write_bytes(buf.tobytes())
        out.append((k, tuple(truth.events), frame_sum(image), (int(image.shape[1]), int(image.shape[0]))))
    return out


def _pool(workers: int) -> ProcessPoolExecutor:
    # (spawned, not forked: the caller may hold threads and models; the renderer's caches stay
    # in the workers, out of the caller's memory)
    return ProcessPoolExecutor(workers, mp_context=get_context("spawn"))


def prerender(
    game: str,
    seed: int,
    fps: float,
    cache: Path | None = None,
    workers: int | None = None,
    quality: int = JPEG_QUALITY,
    check: bool = True,
) -> tuple[list[PlayedFrame], bool]:
    """Every frame of ``game``'s demo scenario ``seed`` at ``t = k / fps`` (up to its end),
    rendered to JPEG files under ``cache`` (default :func:`frames_cache_root`) by ``workers``
    processes (default: one per core), and whether they were found there already. A folder is
    keyed by the game, seed, rate, quality and :func:`renderer_fingerprint`, written whole before
    it is used; one found again is checked (unless not ``check``) by rendering its middle frame
    anew: the same pixel checksum and size. The renderer is deterministic, so these are the
    frames a renderer fast enough for real time would show at those times. The frames stay on
    disk (nothing of them in the caller's memory but their paths and truth)."""
    root = cache or frames_cache_root()
    key = f"{game}-seed{seed}-{fps:g}fps-q{quality}-{renderer_fingerprint()}"
    folder = root / key
    index = folder / "index.pkl"
    if index.is_file():
        with index.open("rb") as f:
            meta = pickle.load(f)
        k = len(meta["frames"]) // 2
        crc, size = meta["frames"][k][2], meta["size"]
        if check:
            with _pool(1) as pool:
                (_, _, crc, size), *_ = pool.submit(
                    _render_frames, game, seed, fps, [k], None, quality
                ).result()
        if (crc, size) == (meta["frames"][k][2], meta["size"]) and all(
            (folder / f"{j:06d}.jpg").is_file() for j in range(len(meta["frames"]))
        ):
            return _played(folder, meta["frames"]), True
        log.warning("frames rendered beforehand in %s differ from the renderer's: rendered again", folder)
        shutil.rmtree(folder)
    root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=root))
    try:
        workers = max(1, workers or os.cpu_count() or 1)
        rows: dict[int, tuple[tuple[Any, ...], int, tuple[int, int]]] = {}
        with _pool(workers) as pool:
            jobs = [
                pool.submit(_render_frames, game, seed, fps, (w, workers), str(work), quality)
                for w in range(workers)
            ]
            for job in jobs:
                rows.update({k: (ev, crc, size) for k, ev, crc, size in job.result()})
        frames = [(k / fps, rows[k][0], rows[k][1]) for k in range(len(rows))]
        with (work / "index.pkl").open("wb") as f:
            pickle.dump({"frames": frames, "size": rows[0][2], "fps": fps, "quality": quality}, f)
        work.rename(folder)  # whole, or not there
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return _played(folder, frames), False


def _played(folder: Path, frames: Sequence[tuple[float, tuple[Any, ...], int]]) -> list[PlayedFrame]:
    return [PlayedFrame(t, folder / f"{k:06d}.jpg", events) for k, (t, events, _) in enumerate(frames)]


def played_source(
    frames: Sequence[PlayedFrame],
    on_truth: Callable[[float, float, Any], None] | None = None,
    speed: float = 1.0,
    clock: Callable[[], float] = time.monotonic,
) -> FrameSource:
    """Frames rendered beforehand (:func:`prerender`) played in real time as a webcam streams
    MJPEG: frame ``k`` is read and decoded when the clock reaches ``start + t_k / speed``, its
    capture clock taken after the decode; a player fallen behind goes on from the newest frame
    due (as a camera's buffer keeps only the newest), so no frame shows a late table. The truth
    goes only to ``on_truth(t, mono, truth)``, never to the pipeline."""

    def open_() -> Iterator[tuple[float, np.ndarray]]:
        start = clock()
        k = 0
        while k < len(frames):
            now = clock()
            while k + 1 < len(frames) and start + frames[k + 1].t / speed <= now:
                k += 1  # frames due while the player was behind: the newest one wins
            frame = frames[k]
            delay = start + frame.t / speed - now
            if delay > 0:
                time.sleep(delay)
            image = cv2.imdecode(np.frombuffer(frame.path.read_bytes(), np.uint8), cv2.IMREAD_COLOR)
            if image is None:
                raise OSError(f"frame {frame.path} could not be decoded")
            if on_truth is not None:
                on_truth(frame.t, clock(), _Truth(frame.events))
            yield frame.t, image
            k += 1

    return open_
