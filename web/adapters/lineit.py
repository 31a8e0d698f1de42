"""Line-it: the page shows lines, jackpots, bets and scores; the market is entered from what the
camera reads in the middle when a round starts, the rest through the table's taps."""

from __future__ import annotations

from typing import Any

from vision.observation import CardState, TableObservation
from web.adapters.base import row
from web.adapters.numbers import READ_SURE, NumberAdapter, edge_of
from web.live_game import LiveGame
from web.settings import Settings


class LineItAdapter(NumberAdapter):
    deck = "lineit"

    def observe(self, obs: TableObservation, frame: Any) -> None:
        self.note_hands(obs)
        state = self.live.snapshot_state()
        if state.get("market"):
            return
        middle = [c for c in obs.cards if c.state == CardState.VISIBLE and edge_of(c, obs) is None]
        want = self.live.game.num_players + 2
        read = [self.identity(c) for c in middle]
        if len(middle) == want and all(i and s >= READ_SURE for i, s in read):
            self.propose({"type": "market", "cards": [str(i).removeprefix("lineit:") for i, _ in read]})

    def panel_rows(self) -> list[dict[str, Any]]:
        scores = self.live.game.scores(self.live.state)
        state = self.live.snapshot_state()
        rows = []
        for name, seat in scores.items():
            if not isinstance(seat, dict):
                continue
            rows.append(row(f"{name}: score", f"{name} : score", seat.get("score", 0)))
            rows.append(row(f"{name}: line", f"{name} : ligne", " ".join(seat.get("line") or []) or "-"))
            if seat.get("tokens"):
                rows.append(
                    row(f"{name}: jackpots", f"{name} : jackpots", ", ".join(map(str, seat["tokens"])))
                )
        rows.append(row("Market", "Marché", " ".join(state.get("market") or []) or "-"))
        rows.append(row("Round", "Manche", state.get("round", "")))
        return rows


def make_adapter(live: LiveGame, settings: Settings) -> LineItAdapter:
    return LineItAdapter(live, settings)
