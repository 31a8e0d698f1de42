"""The Mind: a new card on the pile in the middle is a play by the hand that laid it."""

from __future__ import annotations

from typing import Any

from vision.observation import TableObservation
from web.adapters.base import row
from web.adapters.numbers import READ_SURE, NumberAdapter, edge_of, number_of
from web.live_game import LiveGame
from web.settings import Settings


class TheMindAdapter(NumberAdapter):
    deck = "themind"

    def observe(self, obs: TableObservation, frame: Any) -> None:
        self.note_hands(obs)
        state = self.live.snapshot_state()
        if state.get("phase") == "deal":
            self.propose({"type": "deal"})
            state = self.live.snapshot_state()
        for card in self.new_cards(obs):
            if edge_of(card, obs) is not None:
                continue  # a card in a player's area is not on the pile
            identity, sure = self.identity(card)
            number = number_of(identity)
            player = self.layer_of(card)
            if number is None or sure < READ_SURE:
                self.hold(
                    {"type": "play", "card": identity},
                    f"card {card.track_id} not read surely ({sure:.2f})",
                    f"carte {card.track_id} mal lue ({sure:.2f})",
                )
                continue
            if player is None:
                self.hold(
                    {"type": "play", "card": number},
                    f"no hand seen laying {number}",
                    f"aucune main vue posant {number}",
                )
                continue
            self.seen.add(card.track_id)
            self.propose({"type": "play", "player": player, "card": number})

    def panel_rows(self) -> list[dict[str, Any]]:
        s = self.live.snapshot_state()
        pile = s.get("pile") or []
        top = pile[-1] if pile else "-"
        return [
            row("Level", "Niveau", s.get("level")),
            row("Lives", "Vies", s.get("lives")),
            row("Stars", "Étoiles", s.get("stars")),
            row("Pile top", "Sommet de la pile", top[1] if isinstance(top, list) and len(top) > 1 else top),
            row("Cards played", "Cartes jouées", len(pile)),
            row("Errors (discards)", "Erreurs (défausses)", len(s.get("discards") or [])),
            row("Phase", "Phase", s.get("phase")),
        ]


def make_adapter(live: LiveGame, settings: Settings) -> TheMindAdapter:
    return TheMindAdapter(live, settings)
