"""Fan-out from the session's threads to any number of viewers on the server's event loop.

Threads call :meth:`Hub.publish` (JSON messages) and :meth:`Hub.put_frame` (an encoded JPEG);
viewers ``await`` them. A viewer that falls behind loses its oldest messages, never the newest,
and never slows the others: each frame is encoded once and shared.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from typing import Any

log = logging.getLogger(__name__)

QUEUE_SIZE = 64


class Hub:
    """Messages and the newest video frame, from threads to asyncio viewers."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queues: set[asyncio.Queue[str]] = set()
        self._lock = threading.Lock()
        self.frame: bytes | None = None
        self.frame_seq = 0
        self._frame_event: asyncio.Event | None = None
        self.sent_messages = 0

    # -- loop side -------------------------------------------------------------------------------
    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Binds the hub to the server's event loop (at start-up)."""
        self._loop = loop
        self._frame_event = asyncio.Event()

    def detach(self) -> None:
        self._loop = None

    @property
    def viewers(self) -> int:
        return len(self._queues)

    def subscribe(self) -> asyncio.Queue[str]:
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=QUEUE_SIZE)
        with self._lock:
            self._queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[str]) -> None:
        with self._lock:
            self._queues.discard(queue)

    async def next_frame(self, after: int, timeout: float = 5.0) -> tuple[int, bytes | None]:
        """The first frame newer than ``after`` (waits up to ``timeout``; the old one on timeout)."""
        while self.frame_seq <= after:
            event = self._frame_event
            if event is None:
                await asyncio.sleep(0.05)
                continue
            try:
                await asyncio.wait_for(event.wait(), timeout)
            except TimeoutError:
                break
        return self.frame_seq, self.frame

    # -- thread side -----------------------------------------------------------------------------
    def publish(self, message: dict[str, Any]) -> None:
        """Sends ``message`` to every viewer (from any thread)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        text = json.dumps(message, ensure_ascii=False, default=_json_default)
        with contextlib.suppress(RuntimeError):  # the loop is closing
            loop.call_soon_threadsafe(self._deliver, text)

    def _deliver(self, text: str) -> None:
        with self._lock:
            queues = list(self._queues)
        for queue in queues:
            if queue.full():
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(text)
        self.sent_messages += 1

    def put_frame(self, jpeg: bytes) -> None:
        """The newest encoded video frame (from any thread)."""
        loop = self._loop
        self.frame = jpeg
        if loop is None or loop.is_closed():
            self.frame_seq += 1
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._new_frame)

    def _new_frame(self) -> None:
        self.frame_seq += 1
        old = self._frame_event
        self._frame_event = asyncio.Event()
        if old is not None:
            old.set()


def _json_default(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "value"):
        return value.value
    return str(value)
