"""Line-it's actions as frozen values, and their JSON form (one record line each).

{"type": "market", "cards": ["47:diamond", "27:diamond", "55:diamond", "85:heart"]}
{"type": "take", "player": 0, "card": "85:heart", "to": "line"}
{"type": "play", "player": 0, "card": "bet:+3"}
{"type": "close", "player": 0, "discard": ["85:heart", "60:star", "41:heart"]}
{"type": "end_turn", "player": 0}
{"type": "pass", "player": 1}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from referee.errors import MalformedAction
from referee.fields import SeatReader
from referee.lineit.cards import Deck
from referee.protocol import require
from referee.types import JSON

ACTION_TYPES = ("market", "take", "play", "close", "end_turn", "pass")


@dataclass(frozen=True)
class Market:
    """The market dealt from the deck (a table event): players + 2 cards."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class Take:
    """The current player takes a market card into their line or their hand."""

    player: int
    card: str
    to: str
    """``"line"`` or ``"hand"``."""


@dataclass(frozen=True)
class Play:
    """A card from the player's hand into their line."""

    player: int
    card: str


@dataclass(frozen=True)
class Close:
    """The player closes their line, discarding the three number cards they choose (every number
    card of a line of three or fewer; ``discard`` may then be left empty)."""

    player: int
    discard: tuple[str, ...]


@dataclass(frozen=True)
class EndTurn:
    """The current player ends their turn (after taking a market card)."""

    player: int


@dataclass(frozen=True)
class Pass:
    """At the end of the game, the player does not play a card from hand."""

    player: int


Action = Market | Take | Play | Close | EndTurn | Pass


def parse_action(obj: Mapping[str, JSON], deck: Deck, player: SeatReader) -> Action:
    """The action from its JSON form; raises :class:`MalformedAction` quoting ``obj``."""
    kind = require(obj, "type", str)
    if kind == "market":
        return Market(tuple(deck.check_card(c, obj) for c in require(obj, "cards", list)))
    if kind == "take":
        to = require(obj, "to", str)
        if to not in ("line", "hand"):
            raise MalformedAction(f"to {to!r} in {dict(obj)!r} is not 'line' or 'hand'")
        return Take(player(obj, "player"), deck.check_card(require(obj, "card", str), obj), to)
    if kind == "play":
        return Play(player(obj, "player"), deck.check_card(require(obj, "card", str), obj))
    if kind == "close":
        raw = obj.get("discard", [])
        if not isinstance(raw, list):
            raise MalformedAction(f"discard {raw!r} in {dict(obj)!r} is not a list of cards")
        return Close(player(obj, "player"), tuple(deck.check_card(c, obj) for c in raw))
    if kind == "end_turn":
        return EndTurn(player(obj, "player"))
    if kind == "pass":
        return Pass(player(obj, "player"))
    raise MalformedAction(
        f"unknown Line-it action type {kind!r} in {dict(obj)!r}: expected one of {', '.join(ACTION_TYPES)}"
    )


def action_to_json(action: Action) -> dict[str, JSON]:
    """The action's record line."""
    match action:
        case Market(cards):
            return {"type": "market", "cards": list(cards)}
        case Take(player, card, to):
            return {"type": "take", "player": player, "card": card, "to": to}
        case Play(player, card):
            return {"type": "play", "player": player, "card": card}
        case Close(player, discard):
            return {"type": "close", "player": player, "discard": list(discard)}
        case EndTurn(player):
            return {"type": "end_turn", "player": player}
        case Pass(player):
            return {"type": "pass", "player": player}
    raise MalformedAction(f"not a Line-it action: {action!r}")
