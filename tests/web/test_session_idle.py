"""The vision thread hands a frame's observation to the adapter before the processor's deferred
work (the pipeline's background sweep), and does that work only when no frame waits."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from tests.web.test_session import frame, wait_for
from vision.observation import TableObservation
from web.app import build_context
from web.settings import Settings


class Processor:
    """A processor with deferred work, noting the order of what the vision thread does;
    ``hold(t)`` runs inside ``process`` (the test decides what happens meanwhile)."""

    def __init__(self, log: list[str], hold: Callable[[float], None] = lambda t: None) -> None:
        self.log = log
        self.hold = hold
        self.backgrounded = False
        self.idled = threading.Event()

    def process(self, image: np.ndarray, t: float) -> TableObservation:
        self.log.append(f"process {t:.2f}")
        self.hold(t)
        return TableObservation(0, t, image.shape[1], image.shape[0])

    def background(self) -> Callable[[], int]:
        self.backgrounded = True
        return self.idle

    def idle(self) -> int:
        self.log.append("idle")
        self.idled.set()
        return 0


class Adapter:
    def __init__(self, log: list[str]) -> None:
        self.log = log

    def observe(self, obs: TableObservation, frame_: object) -> None:
        self.log.append(f"observe {obs.timestamp:.2f}")


def _context(tmp_path: Path, source, proc: Processor, log: list[str]):
    settings = Settings(game="lineit", players=("Ana", "Ben"), data_dir=tmp_path, retry_on_end=False)
    return build_context(settings, source, proc.process, lambda live, s: Adapter(log))


def test_the_deferred_work_comes_after_the_adapter_saw_the_frame(tmp_path: Path) -> None:
    log: list[str] = []
    proc = Processor(log)

    def source() -> Iterator[tuple[float, np.ndarray]]:
        for i in range(3):
            proc.idled.clear()
            yield i * 0.1, frame(i)
            assert proc.idled.wait(10)  # the next frame once vision is done with this one

    ctx = _context(tmp_path, source, proc, log)
    assert proc.backgrounded
    ctx.session.start()
    try:
        assert wait_for(lambda: log.count("idle") == 3)
    finally:
        ctx.session.stop()
    steps = [[f"process {t:.2f}", f"observe {t:.2f}", "idle"] for t in (0.0, 0.1, 0.2)]
    assert log == [step for three in steps for step in three]


def test_no_deferred_work_while_a_frame_waits(tmp_path: Path) -> None:
    log: list[str] = []
    n = 6
    offered = [threading.Event() for _ in range(n)]

    def hold(t: float) -> None:  # vision is slow: the next frame arrives while it works
        k = round(t * 100)
        if k + 1 < n:
            assert offered[k + 1].wait(10)

    proc = Processor(log, hold)

    def source() -> Iterator[tuple[float, np.ndarray]]:
        for i in range(n):
            yield i * 0.01, frame(i)
            offered[i].set()  # (resumed once the session took frame i)

    ctx = _context(tmp_path, source, proc, log)
    ctx.session.start()
    try:
        assert wait_for(lambda: "idle" in log)  # after the last frame: nothing waits then
    finally:
        ctx.session.stop()
    processed = [i for i, step in enumerate(log) if step.startswith("process")]
    assert log[processed[-1]] == f"process {(n - 1) * 0.01:.2f}"
    assert "idle" not in log[: processed[-1]]
    assert log[-1] == "idle" and log.count("idle") == 1
