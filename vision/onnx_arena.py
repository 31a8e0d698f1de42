"""onnxruntime sessions whose CPU memory arena gives back what it no longer uses, now and then.

onnxruntime's CPU arena keeps every region it ever took from the system: a run on a larger input
(the segmenter on a whole frame rather than a small region, the judge's head on 128 pairs rather
than 16) extends it, and inputs of many shapes fragment it, so later large runs extend it again.
The live server's arenas grew in steps of about 8 MB over its first minutes (the memory the bench
counts as growth). Wrapped in :class:`ArenaReleasing`, a session passes onnxruntime's documented
run option ``memory.enable_memory_arena_shrinkage`` on one run every :data:`RELEASE_PERIOD_S`
seconds: at the end of that run the arena frees its regions that hold nothing. Shrinking on every
run would free and fault in the same megabytes again on every frame (the segmenter's whole-frame
run took 21 -> 30 ms); once in a while costs that on one run.

    session = ArenaReleasing(ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"]))
    session.run(None, {"image": x})  # as the wrapped session's run
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

SHRINK_ENTRY = "memory.enable_memory_arena_shrinkage"
"""onnxruntime's run config entry: the arenas (``device:id``) to shrink at the end of the run."""
RELEASE_PERIOD_S = 10.0
"""Seconds between two runs that shrink the arena."""


class ArenaReleasing:
    """An onnxruntime ``InferenceSession`` (any object with its ``run``) whose CPU arena is shrunk at
    the end of one run every ``period`` seconds; everything else is the wrapped session's."""

    def __init__(
        self, session: Any, period: float = RELEASE_PERIOD_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        import onnxruntime as ort

        self.session = session
        self.period = float(period)
        self._clock = clock
        self._lock = threading.Lock()
        self._due = clock() + self.period
        self._shrink = ort.RunOptions()
        self._shrink.add_run_config_entry(SHRINK_ENTRY, "cpu:0")
        self.releases = 0
        """Runs that shrank the arena so far."""

    def _release_now(self) -> bool:
        with self._lock:
            now = self._clock()
            if now < self._due:
                return False
            self._due = now + self.period
            self.releases += 1
            return True

    def run(self, output_names: Any, input_feed: dict[str, Any], run_options: Any = None) -> list[Any]:
        """The wrapped session's ``run``; with no ``run_options`` of the caller's, one run every
        :attr:`period` seconds also shrinks the CPU arena."""
        if run_options is None and self._release_now():
            run_options = self._shrink
        return self.session.run(output_names, input_feed, run_options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)
