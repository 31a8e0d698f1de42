"""The countdown's start: dated from when the table showed it began, and the page told so."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.registry import make_game
from web.live_game import LiveGame
from web.store import EventStore


def test_a_backdated_countdown_says_so_and_keeps_it_after_a_restart(tmp_path: Path) -> None:
    now = {"t": 100.0}
    game = make_game("twinit", ("Ana", "Ben"), "cooperative", {"cards": 10, "seconds": 60})
    live = LiveGame.open(game, EventStore(tmp_path / "db.sqlite"), clock=lambda: now["t"])
    live.start_timer("coop", 60.0, "vision", started_mono=99.6)  # the spread, seen 0.4 s earlier
    shown = live.timer_json()
    assert shown is not None
    assert shown["backdated_s"] == pytest.approx(0.4)
    assert shown["remaining"] == pytest.approx(59.6)
    live.start_timer("coop", 60.0, "table")  # started by hand: not back-dated
    assert live.timer_json()["backdated_s"] == 0.0
    live.start_timer("coop", 60.0, "vision", started_mono=99.0)
    again = LiveGame.open(game, EventStore(tmp_path / "db.sqlite"), clock=lambda: now["t"])
    assert again.timer is not None and again.timer.backdated_s == pytest.approx(1.0)
