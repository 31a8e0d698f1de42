"""Trio: a centre card turned face up is a reveal of that slot by the player whose turn it is.

Centre slots are the face-down cards in the middle, numbered in reading order (rows top to
bottom, left to right) when the deal is seen. Cards revealed from a hand (asks) cannot be told
apart from the camera alone: they are held back for the table to enter.
"""

from __future__ import annotations

from typing import Any

from vision.observation import CardState, TableObservation
from web.adapters.base import row
from web.adapters.numbers import READ_SURE, NumberAdapter, centre, edge_of, number_of
from web.live_game import LiveGame
from web.settings import Settings


class TrioAdapter(NumberAdapter):
    deck = "trio"

    def __init__(self, live: LiveGame, settings: Settings) -> None:
        super().__init__(live, settings)
        self.slot_of: dict[int, int] = {}

    def observe(self, obs: TableObservation, frame: Any) -> None:
        self.note_hands(obs)
        state = self.live.snapshot_state()
        middle = [c for c in obs.cards if c.state != CardState.GONE and edge_of(c, obs) is None]
        if not state.get("dealt"):
            if middle:
                ordered = sorted(middle, key=lambda c: (round(centre(c)[1] / 80), centre(c)[0]))
                if self.propose({"type": "deal", "first": 0}) is not None:
                    self.slot_of = {c.track_id: i for i, c in enumerate(ordered)}
            return
        for card in self.new_cards(obs):
            identity, sure = self.identity(card)
            number = number_of(identity)
            if number is None:
                continue  # a card back: nothing to rule
            slot = self.slot_of.get(card.track_id)
            if sure < READ_SURE or slot is None:
                self.hold(
                    {"type": "reveal", "number": number},
                    f"card {card.track_id} ({identity}) not placed surely",
                    f"carte {card.track_id} ({identity}) incertaine",
                )
                continue
            self.seen.add(card.track_id)
            self.propose({"type": "reveal", "player": state.get("turn", 0), "slot": slot, "number": number})

    def panel_rows(self) -> list[dict[str, Any]]:
        scores = self.live.game.scores(self.live.state)
        rows = [row("Goal", "But", scores.get("goal", ""))]
        for name, trios in (scores.get("trios") or {}).items():
            rows.append(row(f"{name}: trios", f"{name} : trios", ", ".join(str(t) for t in trios) or "-"))
        rows.append(row("Turn", "Tour", scores.get("turn", "")))
        outcome = self.live.game.outcome(self.live.state)
        if outcome is not None:
            rows.append(
                row("Winner", "Gagnant", ", ".join(self.live.game.players[i] for i in outcome.winners))
            )
        return rows


def make_adapter(live: LiveGame, settings: Settings) -> TrioAdapter:
    return TrioAdapter(live, settings)
