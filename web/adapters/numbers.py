"""What the number-deck adapters share: new cards read once, who laid them, zones by image edge."""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.observation import CardState, TableObservation, TrackedCard
from web.adapters.base import GameAdapter

READ_SURE = 0.8
"""A number read less surely than this is held back (the table corrects it with a tap)."""
EDGE_FRACTION = 0.2


def centre(card: TrackedCard) -> tuple[float, float]:
    x, y = np.asarray(card.quad, dtype=float).mean(axis=0)
    return float(x), float(y)


def edge_of(card: TrackedCard, obs: TableObservation) -> str | None:
    """The image edge whose zone holds the card (a player's area), else ``None`` (the middle)."""
    x, y = centre(card)
    fx, fy = x / max(1, obs.width), y / max(1, obs.height)
    edges = {"left": fx, "right": 1 - fx, "top": fy, "bottom": 1 - fy}
    edge = min(edges, key=edges.get)
    return edge if edges[edge] < EDGE_FRACTION else None


def number_of(identity: str | None) -> int | None:
    """57 from ``"themind:57"`` or ``"trio:7"``; ``None`` when unread."""
    if not identity:
        return None
    parts = identity.split(":")
    return int(parts[1]) if len(parts) >= 2 and parts[1].isdigit() else None


class NumberAdapter(GameAdapter):
    """Tracks seen once; the hand that laid a card; corrections of a card's number."""

    deck = ""

    def __init__(self, live: Any, settings: Any) -> None:
        super().__init__(live, settings)
        self.seen: set[int] = set()
        self.corrected: dict[int, str] = {}
        self.last_hand_seat: dict[int, str] = {}
        """Track -> the seat of the last hand seen over it."""

    def identity(self, card: TrackedCard) -> tuple[str | None, float]:
        if card.track_id in self.corrected:
            return self.corrected[card.track_id], 1.0
        return card.identity, float(card.identity_confidence)

    def note_hands(self, obs: TableObservation) -> None:
        for hand in obs.hands:
            for track in hand.covers:
                self.last_hand_seat[track] = str(hand.seat)
        for event in obs.events:
            self.last_hand_seat[event.track_id] = str(event.seat)

    def layer_of(self, card: TrackedCard) -> int | None:
        seat = self.last_hand_seat.get(card.track_id)
        return self.player_at(seat) if seat else None

    def new_cards(self, obs: TableObservation) -> list[TrackedCard]:
        """Visible cards seen for the first time with a clean view, read or not."""
        out = []
        for card in obs.cards:
            if (
                card.state == CardState.VISIBLE
                and card.last_clean_view is not None
                and card.track_id not in self.seen
            ):
                out.append(card)
        return out

    def identity_of(self, track_id: int, identity: str | None) -> str | None:
        return self.corrected.get(track_id, identity)

    def check_correction(self, fact: dict[str, Any]) -> str | None:
        if fact.get("kind") != "card":
            return f"a {self.deck} correction is about a card, not {fact.get('kind')!r}"
        if not str(fact.get("identity", "")).startswith(f"{self.deck}:"):
            return f"identity {fact.get('identity')!r}: expected '{self.deck}:<number>'"
        return None

    def correct(self, fact: dict[str, Any]) -> None:
        track = int(fact["track_id"])
        self.corrected[track] = str(fact["identity"])
        self.seen.discard(track)  # read again with the corrected identity
