"""The offline replay of the live bench's games (``scripts/live_replay.py``): its cache keeps each
observation as vision gave it, and a replay feeds it to the demo's own context."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

from vision.observation import CardState, HandObservation, Seat, TableObservation, TrackedCard

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("live_replay", ROOT / "scripts" / "live_replay.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["live_replay"] = module
    spec.loader.exec_module(module)
    return module


def _obs(index: int, crop: np.ndarray, mask: np.ndarray) -> TableObservation:
    card = TrackedCard(
        7, np.array([[1, 2], [30, 2], [30, 40], [1, 40]], np.float32), CardState.VISIBLE, 0.9, crop, 1.5
    )
    hand = HandObservation(3, Seat.BOTTOM, (7,), (0, 10, 20, 30))
    return TableObservation(index, 0.1 * index, 64, 48, (card,), (hand,), (), mask, None, {"ms": 1.0})


def test_cache_round_trip(tmp_path: Path) -> None:
    """Observations read back equal, a crop shared by two frames is stored once and read back as
    one array (the adapter keys its signatures by the view's identity, as live)."""
    tool = _tool()
    rng = np.random.default_rng(0)
    crop = rng.integers(0, 255, (192, 192, 3), dtype=np.uint8)
    masks = [rng.random((48, 64)) > 0.5 for _ in range(2)]
    sizes = []
    known: set[bytes] = set()
    blobs = []
    for k in range(2):
        buf = tool.io.BytesIO()
        tool._Writer(buf, known).dump(_obs(k, crop, masks[k]))
        blobs.append(buf.getvalue())
        sizes.append(len(blobs[-1]))
    assert sizes[1] < crop.nbytes < sizes[0]  # the crop only in the first
    arrays: dict[bytes, np.ndarray] = {}
    back = [tool._Reader(blob, arrays).load() for blob in blobs]
    for k, obs in enumerate(back):
        assert obs.frame_index == k
        assert np.array_equal(obs.hand_mask, masks[k]) and obs.hand_mask.dtype == bool
        assert np.array_equal(obs.cards[0].last_clean_view, crop)
        assert np.array_equal(obs.cards[0].quad, _obs(k, crop, masks[k]).cards[0].quad)
        assert obs.hands[0].seat == Seat.BOTTOM and obs.hands[0].covers == (7,)
    assert back[0].cards[0].last_clean_view is back[1].cards[0].last_clean_view


def test_replays_seed_0_deal(tmp_path: Path) -> None:
    """Seed 0's first second, built and replayed: every frame renders again as cached, and the
    adapter deals the three piles from the cached observations, as live."""
    tool = _tool()
    meta = tool.build(0, tmp_path, until=1.0)
    assert len(meta["times"]) == 11 and meta["fingerprint"] == tool.fingerprint(ROOT)
    run = tool.replay(0, tmp_path)
    deals = [m["entry"]["action"] for _, m in run.seen if m["type"] == "ruling"]
    assert [a["type"] for a in deals] == ["deal"] and len(deals[0]["piles"]) == 3
    assert len(run.adapter_ms) == 11
    slaps = tool.score([run])
    assert slaps["total"] == 0 and slaps["spurious"] == 0


def test_slow_vision_cache_and_history(tmp_path: Path) -> None:
    """A cache of every other frame (a live vision slower than the camera sees so) keeps the frames'
    capture indices; its replay feeds the adapter those frames with them, and with ``history``
    every captured frame, the skipped ones too, goes to the session's frame history as the live
    capture thread puts it there; ``every`` skips cached frames as such a vision would."""
    tool = _tool()
    meta = tool.build(0, tmp_path, until=1.0, every=2, phase=1)
    assert meta["indices"] == [1, 3, 5, 7, 9] and meta["times"] == [0.1, 0.3, 0.5, 0.7, 0.9]
    seen: list[int] = []
    run = tool.replay(0, tmp_path, on_frame=lambda frame, obs, ctx: seen.append(frame.index), history=True)
    assert seen == [2, 4, 6, 8, 10] and run.fed == [0.1, 0.3, 0.5, 0.7, 0.9]
    history = run.context.session.history
    assert [thumb.index for thumb in history.between(1, 10)] == list(range(1, 11))
    assert history.mono_of(1) == 0.0 and history.mono_of(10) == 0.9
    seen.clear()
    run = tool.replay(0, tmp_path, on_frame=lambda frame, obs, ctx: seen.append(frame.index), every=2)
    assert seen == [2, 6, 10] and len(run.adapter_ms) == 3 and len(run.context.session.history) == 0


def test_report_says_when_the_minute_started() -> None:
    """The report dates the minute's countdown against the scripted spread, or says it never
    started (the full bench's seed 1 live: its game's minute never started)."""
    tool = _tool()
    slaps = {
        "claims": [],
        "diagnosis": {"spurious": [], "missed": []},
        **dict.fromkeys(("total", "correct", "uncertain", "missed", "wrong", "spurious"), 0),
        "latency_ms_p50": None,
        "latency_ms_p95": None,
    }
    timer = {"type": "timer", "timer": {"started_mono": 90.55}}
    run = tool.Replayed(1, seen=[(91.2, timer)], truth={"claims": [], "spread": 90.5}, fed=[90.0, 91.0])
    assert "    90.50 the spread: the minute's countdown dated 90.55 (+50 ms)" in tool.report([run], slaps)
    run = tool.Replayed(1, truth={"claims": [], "spread": 90.5}, fed=[90.0, 91.0])
    assert "    90.50 the spread: the minute's countdown never started" in tool.report([run], slaps)
    run = tool.Replayed(1, truth={"claims": [], "spread": 90.5}, fed=[90.0])  # replayed to before it
    assert not any("spread" in line for line in tool.report([run], slaps))
