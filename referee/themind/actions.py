"""The Mind's actions and their JSON form (one record line each).

{"type": "deal", "hands": [[12, 40], [7, 88]]}       # hands known; {"type": "deal"} if unknown
{"type": "play", "player": 0, "card": 12}            # blind mode with hands unknown: no card
{"type": "star", "hands_up": [0, 1]}                 # hands unknown: "cards": [3, null]
{"type": "discard", "player": 1, "cards": [9]}       # hands unknown: lower cards shown after an error
{"type": "reveal", "cards": [12, 7, 40, 88]}         # blind, hands unknown: the pile in play order
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import MalformedAction
from referee.fields import SeatReader, seat_list
from referee.protocol import require
from referee.themind.tables import HIGHEST, LOWEST
from referee.types import JSON


@dataclass(frozen=True)
class Deal:
    """The cards of a level: per seat when known, else ``None``."""

    hands: tuple[tuple[int, ...], ...] | None = None


@dataclass(frozen=True)
class PlayCard:
    """A player puts a card on the pile."""

    player: int
    card: int | None = None
    """The card; ``None`` when it cannot be seen (blind mode, hands unknown)."""


@dataclass(frozen=True)
class Star:
    """A throwing star: every player raised a hand; everyone discards their lowest card."""

    hands_up: tuple[int, ...]
    """The seats that raised a hand (all of them for the star to be used)."""
    cards: tuple[int | None, ...] | None = None
    """Hands unknown: the card each seat discarded (``None`` for an empty hand)."""


@dataclass(frozen=True)
class DiscardCards:
    """Hands unknown: after an error, a player puts their cards lower than the pile face up."""

    player: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class RevealPile:
    """Blind mode with hands unknown: the pile turned over, its cards in the order played."""

    cards: tuple[int, ...]


MindAction = Deal | PlayCard | Star | DiscardCards | RevealPile


def _card(obj: Mapping[str, Any], value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not LOWEST <= value <= HIGHEST:
        raise MalformedAction(f"{what} {value!r} in {dict(obj)!r} is not a card 1..100")
    return value


def _cards(obj: Mapping[str, Any], key: str) -> tuple[int, ...]:
    value = require(obj, key, list)
    return tuple(_card(obj, v, key) for v in value)


def parse_action(obj: Mapping[str, JSON], player: SeatReader) -> MindAction:
    """The action from JSON; ``player`` reads a seat (index or name) from a field."""
    kind = require(obj, "type", str)
    if kind == "deal":
        if obj.get("hands") is None:
            return Deal(None)
        hands = require(obj, "hands", list)
        out = []
        for hand in hands:
            if not isinstance(hand, list):
                raise MalformedAction(f"hand {hand!r} in {dict(obj)!r} is not a list of cards")
            out.append(tuple(_card(obj, v, "hand card") for v in hand))
        return Deal(tuple(out))
    if kind == "play":
        seat = player(obj, "player")
        card = obj.get("card")
        return PlayCard(seat, None if card is None else _card(obj, card, "card"))
    if kind == "star":
        seats = seat_list(obj, "hands_up", player)
        if obj.get("cards") is None:
            return Star(seats)
        cards = require(obj, "cards", list)
        return Star(seats, tuple(None if c is None else _card(obj, c, "card") for c in cards))
    if kind == "discard":
        return DiscardCards(player(obj, "player"), _cards(obj, "cards"))
    if kind == "reveal":
        return RevealPile(_cards(obj, "cards"))
    raise MalformedAction(
        f"unknown The Mind action type {kind!r} in {dict(obj)!r}: "
        "expected deal, play, star, discard or reveal"
    )


def action_to_json(action: MindAction) -> dict[str, JSON]:
    if isinstance(action, Deal):
        out: dict[str, JSON] = {"type": "deal"}
        if action.hands is not None:
            out["hands"] = [list(h) for h in action.hands]
        return out
    if isinstance(action, PlayCard):
        out = {"type": "play", "player": action.player}
        if action.card is not None:
            out["card"] = action.card
        return out
    if isinstance(action, Star):
        out = {"type": "star", "hands_up": list(action.hands_up)}
        if action.cards is not None:
            out["cards"] = list(action.cards)
        return out
    if isinstance(action, DiscardCards):
        return {"type": "discard", "player": action.player, "cards": list(action.cards)}
    return {"type": "reveal", "cards": list(action.cards)}
