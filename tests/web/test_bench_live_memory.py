"""The live bench's memory figures, from a resident-size trace (no server run)."""

from __future__ import annotations

from itertools import pairwise
from types import SimpleNamespace

from web.bench.live import _memory


def _watch(rss_at) -> SimpleNamespace:
    """Samples every 0.5 s for 10.5 minutes: (mono, rss MB, cpu s)."""
    return SimpleNamespace(samples=[(100.0 + k / 2, rss_at(k / 2), 0.0) for k in range(1261)])


def test_growth_compares_the_last_minute_with_the_second_and_each_minute_is_listed() -> None:
    # 300 MB for two minutes, a 30 MB step in the third, then flat: the step counts as growth
    memory = _memory(_watch(lambda t: 300.0 if t < 120 else 330.0), quick=False)
    assert memory["window_s"] == 60.0
    assert memory["rss_mb_peak"] == 330.0
    assert memory["rss_growth_pct"] == 10.0
    assert memory["rss_mb_by_window"] == [300.0, 300.0] + [330.0] * 8


def test_a_steady_rise_shows_in_every_minute() -> None:
    memory = _memory(_watch(lambda t: 300.0 + t / 60.0), quick=False)
    by_window = memory["rss_mb_by_window"]
    assert len(by_window) == 10
    assert all(b > a for a, b in pairwise(by_window))
    assert by_window[1] == 301.5
