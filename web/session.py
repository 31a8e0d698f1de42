"""The live session: capture, vision and publishing, each on its own thread.

- capture: opens the source, keeps only the newest frame (a slow step never builds up lag);
  when the camera is unplugged or the stream ends, the page is told, the game state is kept and
  the source is re-opened with exponential backoff;
- vision: the newest frame through the pipeline, then the game adapter (observation changes ->
  referee actions). A corrupt frame, or an exception on one frame, is logged and counted;
  the session goes on;
- publishing: the newest frame encoded once as JPEG for every MJPEG viewer, overlays and source
  status pushed to the page, timers ended on the server's monotonic clock.
"""

from __future__ import annotations

import ctypes
import logging
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.errors import InputError
from vision.observation import TableObservation
from web.frame_history import FrameHistory
from web.hub import Hub
from web.live_game import LiveGame
from web.settings import Settings

log = logging.getLogger(__name__)

FrameSource = Callable[[], Iterator[tuple[float, np.ndarray]]]
"""Opens the source and yields ``(t, frame)``; raises :class:`vision.errors.SourceUnavailable`
(or ``OSError``) when it cannot open; the iterator ends when the stream ends."""

Processor = Callable[[np.ndarray, float], TableObservation]
"""One frame in, the recognised table out (``TablePipeline.process``)."""

TRIM_PERIOD_S = 30.0
"""How often the publishing thread hands the C heap's free memory back to the system."""
SWITCH_TRIM_S = 1.0
"""This long after the session switches games, the heap is trimmed at once: the finished game's
adapter (its card views: tens of MB after a Twin It game) is garbage by then, and would otherwise
stay resident up to :data:`TRIM_PERIOD_S` into the next game."""

MMAP_THRESHOLD = 256 << 10
"""Blocks of this size and more (frames, masks, crops: a 720p frame is 2.7 MB) are mapped apart
and handed back to the system as soon as they are freed."""
ARENA_MAX = 2
"""At most this many C heaps for all the session's threads."""
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8


def _libc(name: str) -> Any:
    """The C library's function ``name`` on Linux (glibc), else ``None``."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return getattr(ctypes.CDLL("libc.so.6"), name)
    except (OSError, AttributeError):
        return None


def heap_trimmer() -> Callable[[], None] | None:
    """``malloc_trim(0)`` of the C library on Linux (frames, crops and model buffers of many
    sizes come and go on several threads; without it the freed memory stays resident), else
    ``None``."""
    trim = _libc("malloc_trim")
    if trim is None:
        return None
    trim.argtypes = [ctypes.c_size_t]

    def release() -> None:
        trim(0)

    return release


def tune_heap() -> bool:
    """Sets the C library's heap for a long-running session with many large, short-lived blocks
    (Linux glibc; ``False`` elsewhere). glibc by default raises its mapping threshold to the
    largest block freed, so after the first frame is freed every frame comes from the heaps of
    the thread that made it, where blocks of many sizes fragment them and freed memory stays
    resident (the bench server's heaps held 30-80 MB free). A fixed threshold maps each large
    block apart (freed at once), and fewer arenas leave less memory stranded per thread: 4
    chained bench games, twice, on the loaded shared machine: peak 353 -> 311 and 339 -> 313 MB.
    It does not stop the growth that is memory in use (growth 17.8 -> 11.0 % and 12.8 -> 14.4 %
    in those two pairs of runs)."""
    mallopt = _libc("mallopt")
    if mallopt is None:
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    ok = mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
    return bool(mallopt(_M_ARENA_MAX, ARENA_MAX) == 1 and ok)


@dataclass(frozen=True)
class Frame:
    index: int
    t: float
    """The source's timestamp."""
    mono: float
    """The server's monotonic clock when it was captured."""
    image: np.ndarray


class _NewestSlot:
    """One frame at a time: a newer frame replaces an unread one (which counts as dropped)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._frame: Frame | None = None
        self.dropped = 0

    def put(self, frame: Frame) -> None:
        with self._cond:
            if self._frame is not None:
                self.dropped += 1
            self._frame = frame
            self._cond.notify_all()

    def waiting(self) -> bool:
        """Whether a frame waits to be taken."""
        with self._cond:
            return self._frame is not None

    def take(self, timeout: float) -> Frame | None:
        with self._cond:
            if self._frame is None:
                self._cond.wait(timeout)
            frame, self._frame = self._frame, None
            return frame


def is_sound_frame(image: object) -> bool:
    """A frame the pipeline can use: a non-empty uint8 image, grey or BGR."""
    return (
        isinstance(image, np.ndarray)
        and image.dtype == np.uint8
        and image.size > 0
        and (image.ndim == 2 or (image.ndim == 3 and image.shape[2] in (3, 4)))
        and min(image.shape[:2]) >= 16
    )


class LiveSession:
    """Runs a source, a pipeline and a game adapter for one :class:`LiveGame`."""

    def __init__(
        self,
        settings: Settings,
        live: LiveGame,
        hub: Hub,
        open_source: FrameSource | None = None,
        process: Processor | None = None,
        adapter: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.live = live
        self.hub = hub
        self.open_source = open_source
        self.process = process
        self.adapter = adapter
        self.clock = clock
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._vision_slot = _NewestSlot()
        self._stream_lock = threading.Lock()
        self._stream_frame: Frame | None = None
        self._stream_new = threading.Event()
        self._trim_after: float | None = None
        """When a switch of games asks the publishing thread to trim the heap."""
        self.status = "idle" if open_source is None else "starting"
        self.message = ""
        self.frames = 0
        self.processed = 0
        self.corrupt = 0
        self.errors = 0
        self.encoded = 0
        self.vision_ms = 0.0
        self.resolution: tuple[int, int] | None = None
        self._fps_times: list[float] = []
        self.latest: TableObservation | None = None
        self.latest_frame: Frame | None = None
        self.on_observation: list[Callable[[TableObservation, Frame], None]] = []
        self.source_done = threading.Event()
        self.history = FrameHistory()
        """Every sound frame's thumbnail, kept by the capture thread while vision runs and the
        adapter takes it: the adapter dates what happened among the frames vision skipped from it."""
        self._keep_history = False
        """Whether the adapter took the history (none of the others pays for the thumbnails)."""
        self.history_ms = 0.0
        """The capture thread's time spent on the last frame's thumbnail."""
        self.idle_ms = 0.0
        """The vision thread's time on the processor's deferred work after the last frame."""
        self._idle = _idle_work(process)
        live.subscribe(self._on_game_change)
        self._lend_history(adapter)

    # -- life --------------------------------------------------------------------------------------
    def start(self) -> None:
        if not tune_heap():
            log.info("the C heap keeps its default settings (no glibc)")
        targets = [("publish", self._publish_loop)]
        if self.open_source is not None:
            targets.append(("capture", self._capture_loop))
            targets.append(("vision", self._vision_loop))
        for name, target in targets:
            thread = threading.Thread(target=target, name=f"tableref-{name}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self, timeout: float = 3.0) -> None:
        self._stop.set()
        self._stream_new.set()
        for thread in self._threads:
            thread.join(timeout)
        self._threads.clear()
        close = getattr(getattr(self.process, "__self__", None), "close", None)
        if callable(close):
            close()  # (a processor's own threads: the Twixt board's background check)

    @property
    def running(self) -> bool:
        return any(t.is_alive() for t in self._threads)

    def switch(self, live: LiveGame, adapter: Any) -> None:
        """Referees another game from now on (the page is sent its whole state)."""
        self.live = live
        self.adapter = adapter
        self._trim_after = self.clock() + SWITCH_TRIM_S
        live.subscribe(self._on_game_change)
        self._lend_history(adapter)
        self.hub.publish({"type": "state", "state": self.state_message()})

    def _lend_history(self, adapter: Any) -> None:
        """Offers the frame history to the adapter (``use_history``); it is kept while the adapter
        says it takes it."""
        hook = getattr(adapter, "use_history", None)
        self._keep_history = bool(callable(hook) and hook(self.history))

    # -- capture -----------------------------------------------------------------------------------
    def _set_status(self, status: str, message: str = "") -> None:
        if (status, message) != (self.status, self.message):
            self.status, self.message = status, message
            log.info("source %s %s", status, message)
            self.hub.publish({"type": "source", "source": self.status_json()})

    def _capture_loop(self) -> None:
        assert self.open_source is not None
        delay = self.settings.retry_initial_s
        index = 0
        while not self._stop.is_set():
            try:
                frames = self.open_source()
                got_any = False
                for t, image in frames:
                    if self._stop.is_set():
                        break
                    if not got_any:
                        got_any = True
                        self._set_status("live")
                        delay = self.settings.retry_initial_s
                    index += 1
                    self._offer(Frame(index, float(t), self.clock(), image))
                if self._stop.is_set():
                    break
                self._set_status("ended", "the stream ended")
                if not self.settings.retry_on_end:
                    self.source_done.set()
                    return
            except (InputError, OSError) as exc:
                self._set_status("unavailable", str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
            except Exception as exc:
                log.exception("the source failed")
                self.errors += 1
                self._set_status("unavailable", f"{type(exc).__name__}: {exc}")
            if self._stop.wait(delay):
                break
            delay = min(delay * 2, self.settings.retry_max_s)
            self._set_status("retrying", self.message)

    def _offer(self, frame: Frame) -> None:
        self.frames += 1
        now = frame.mono
        self._fps_times.append(now)
        if len(self._fps_times) > 60:
            del self._fps_times[:-60]
        if not is_sound_frame(frame.image):
            self.corrupt += 1
            log.warning("corrupt frame %d skipped (%s)", frame.index, _describe(frame.image))
            return
        self.resolution = (int(frame.image.shape[1]), int(frame.image.shape[0]))
        with self._stream_lock:
            self._stream_frame = frame
        self._stream_new.set()
        if self.process is not None:
            # vision first: the thumbnail (1-2.5 ms, more on a loaded machine) is no part of the
            # frame's wait; the adapter asks the history about a frame only after vision's work
            # on it, and a frame not kept yet reads as no history (vision's own dating)
            self._vision_slot.put(frame)
            if self._keep_history:
                t0 = time.perf_counter()
                self.history.add(frame.index, frame.mono, frame.image)
                self.history_ms = (time.perf_counter() - t0) * 1000.0

    # -- vision ------------------------------------------------------------------------------------
    def _vision_loop(self) -> None:
        while not self._stop.is_set():
            frame = self._vision_slot.take(0.2)
            if frame is None:
                continue
            self.handle_frame(frame)
            if self._idle is not None and not self._vision_slot.waiting():
                self.run_idle()

    def run_idle(self) -> None:
        """The processor's deferred work (the pipeline's background sweep), once the last frame's
        observation went to the adapter; never raises."""
        assert self._idle is not None
        t0 = time.perf_counter()
        try:
            self._idle()
        except Exception:
            self.errors += 1
            log.exception("vision's background work failed; going on")
        self.idle_ms = (time.perf_counter() - t0) * 1000.0

    def handle_frame(self, frame: Frame) -> TableObservation | None:
        """Vision and the game adapter on one frame; never raises."""
        assert self.process is not None
        t0 = time.perf_counter()
        try:
            obs = self.process(frame.image, frame.t)
        except Exception:
            self.errors += 1
            log.exception("vision failed on frame %d; going on", frame.index)
            return None
        self.vision_ms = (time.perf_counter() - t0) * 1000.0
        self.processed += 1
        self.latest, self.latest_frame = obs, frame
        if self.adapter is not None:
            try:
                self.adapter.observe(obs, frame)
            except Exception:
                self.errors += 1
                log.exception("the game adapter failed on frame %d; going on", frame.index)
        for callback in list(self.on_observation):
            callback(obs, frame)
        return obs

    # -- publishing --------------------------------------------------------------------------------
    def _publish_loop(self) -> None:
        period = 1.0 / self.settings.stream_fps
        overlay_period = 1.0 / self.settings.overlay_hz
        last_overlay = 0.0
        last_overlay_frame = -1
        quality = [int(cv2.IMWRITE_JPEG_QUALITY), self.settings.jpeg_quality]
        trim, last_trim = heap_trimmer(), self.clock()
        while not self._stop.is_set():
            t0 = self.clock()
            try:
                switched = self._trim_after is not None and t0 >= self._trim_after
                if trim is not None and (switched or t0 - last_trim >= TRIM_PERIOD_S):
                    trim()
                    last_trim = t0
                if switched:
                    self._trim_after = None
                if self.live.end_timer_if_due():
                    log.info("timer ended")
                if self.adapter is not None and hasattr(self.adapter, "tick"):
                    self.adapter.tick(t0)
                if self._stream_new.wait(period):
                    self._stream_new.clear()
                    with self._stream_lock:
                        frame = self._stream_frame
                    if frame is not None:
                        ok, buf = cv2.imencode(".jpg", frame.image, quality)
                        if ok:
                            self.encoded += 1
                            self.hub.put_frame(buf.tobytes())
                obs = self.latest
                now = self.clock()
                if (
                    obs is not None
                    and obs.frame_index != last_overlay_frame
                    and now - last_overlay >= overlay_period
                ):
                    last_overlay, last_overlay_frame = now, obs.frame_index
                    self.hub.publish(self.overlay_message(obs))
            except Exception:
                self.errors += 1
                log.exception("publishing failed; going on")
            spent = self.clock() - t0
            if spent < period:
                self._stop.wait(period - spent)

    def overlay_message(self, obs: TableObservation) -> dict[str, Any]:
        cards = [
            {
                "id": c.track_id,
                "quad": np.asarray(c.quad, dtype=float).round(1).tolist(),
                "state": str(c.state),
                "identity": self._shown_identity(c.track_id, c.identity),
                "confidence": round(float(c.identity_confidence), 3),
            }
            for c in obs.cards
            if str(c.state) != "gone"
        ]
        hands = [
            {"id": h.hand_id, "seat": str(h.seat), "bbox": list(h.bbox), "covers": list(h.covers)}
            for h in obs.hands
        ]
        message: dict[str, Any] = {
            "type": "vision",
            "frame": obs.frame_index,
            "t": obs.timestamp,
            "width": obs.width,
            "height": obs.height,
            "cards": cards,
            "hands": hands,
        }
        if self.adapter is not None and hasattr(self.adapter, "overlay"):
            try:
                message.update(self.adapter.overlay(obs))
            except Exception:
                log.exception("adapter overlay failed")
        return message

    def _shown_identity(self, track_id: int, identity: str | None) -> str | None:
        if self.adapter is not None and hasattr(self.adapter, "identity_of"):
            return self.adapter.identity_of(track_id, identity)
        return identity

    def _on_game_change(self, event: dict[str, Any]) -> None:
        self.hub.publish({**event, "state": self.state_message()})

    # -- views -------------------------------------------------------------------------------------
    def fps(self) -> float:
        times = self._fps_times
        if len(times) < 2 or times[-1] == times[0]:
            return 0.0
        return (len(times) - 1) / (times[-1] - times[0])

    def status_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "message": self.message,
            "frames": self.frames,
            "processed": self.processed,
            "dropped": self._vision_slot.dropped,
            "corrupt": self.corrupt,
            "errors": self.errors,
            "fps": round(self.fps(), 1),
            "vision_ms": round(self.vision_ms, 1),
            "idle_ms": round(self.idle_ms, 1),
            "resolution": list(self.resolution) if self.resolution else None,
            "viewers": self.hub.viewers,
            "vision": self.process is not None,
        }

    def state_message(self) -> dict[str, Any]:
        """Everything the page shows, as one JSON object."""
        snap = self.live.snapshot()
        snap["source"] = self.status_json()
        snap["server_time"] = self.clock()
        if self.adapter is not None and hasattr(self.adapter, "panel"):
            try:
                snap["panel"] = self.adapter.panel()
            except Exception:
                log.exception("adapter panel failed")
        return snap


def _idle_work(process: Processor | None) -> Callable[[], object] | None:
    """The work a processor defers until its frame's observation has been used: a bound method
    of an object with ``background()`` (:meth:`vision.pipeline.TablePipeline.background`, which
    returns it), else ``None``."""
    hook = getattr(getattr(process, "__self__", None), "background", None)
    return hook() if callable(hook) else None


def _describe(image: object) -> str:
    if isinstance(image, np.ndarray):
        return f"array {image.shape} {image.dtype}"
    return type(image).__name__
