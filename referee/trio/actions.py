"""Trio's actions and their JSON form (one record line each).

{"type": "deal", "hands": [[1, 4, ...], ...], "centre": [3, 9, ...], "first": 0}
{"type": "deal", "first": 2}                                   # hands unknown (camera)
{"type": "reveal", "player": 0, "slot": 4, "number": 5}        # a centre card
{"type": "ask", "player": 0, "target": 1, "end": "smallest", "number": 5}
{"type": "exchange", "players": [0, 2], "cards": [3, 11]}      # team mode
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import MalformedAction
from referee.fields import SeatReader, seat_list
from referee.protocol import require
from referee.types import JSON

ENDS = ("smallest", "largest")


@dataclass(frozen=True)
class Deal:
    """The deal: the hands and centre when they are known, else only who starts."""

    hands: tuple[tuple[int, ...], ...] | None
    """Per seat, the cards dealt (any order; players sort them); ``None`` when unknown."""
    centre: tuple[int, ...] | None
    """The centre cards by slot; ``None`` when unknown."""
    first: int = 0
    """The seat that plays first."""


@dataclass(frozen=True)
class RevealCentre:
    """The player whose turn it is turns one centre card face up."""

    player: int
    slot: int
    """The centre slot (numbered at the deal from 0)."""
    number: int | None = None
    """The number seen; required when the hands are unknown, checked when they are known."""
    count: int = 1
    """How many cards were turned at once (anything but 1 is a mistake)."""
    confirmed: bool = False
    """The table confirmed the number although it contradicts earlier reveals."""


@dataclass(frozen=True)
class Ask:
    """The player whose turn it is asks ``target`` (maybe themself) for their smallest or largest."""

    player: int
    target: int
    end: str
    """``"smallest"`` or ``"largest"``."""
    number: int | None = None
    """The number shown; required when the hands are unknown, checked when they are known."""
    count: int = 1
    """How many cards were shown at once (anything but 1 is a mistake)."""
    confirmed: bool = False
    """The table confirmed the number although it contradicts earlier reveals."""


@dataclass(frozen=True)
class Exchange:
    """Team mode: two partners secretly swap one card each."""

    players: tuple[int, int]
    cards: tuple[int, int] | None = None
    """The card the first player gives and the card the second gives; ``None`` when unknown."""


TrioAction = Deal | RevealCentre | Ask | Exchange


def _number(obj: Mapping[str, Any], key: str = "number") -> int | None:
    if obj.get(key) is None:
        return None
    value = require(obj, key, int)
    if not 1 <= value <= 12:
        raise MalformedAction(f"{key} {value!r} in {dict(obj)!r} is not a Trio number 1..12")
    return value


def _count(obj: Mapping[str, Any]) -> int:
    if "count" not in obj:
        return 1
    value = require(obj, "count", int)
    if value < 1:
        raise MalformedAction(f"count {value!r} in {dict(obj)!r} is not a positive integer")
    return value


def _confirmed(obj: Mapping[str, Any]) -> bool:
    return bool(require(obj, "confirmed", bool)) if "confirmed" in obj else False


def _card_list(obj: Mapping[str, Any], value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or any(
        isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 12 for v in value
    ):
        raise MalformedAction(f"{what} {value!r} in {dict(obj)!r} is not a list of numbers 1..12")
    return tuple(value)


def parse_action(obj: Mapping[str, JSON], player: SeatReader) -> TrioAction:
    """The action from JSON; ``player`` reads a seat (index or name) from a field."""
    kind = require(obj, "type", str)
    if kind == "deal":
        hands = obj.get("hands")
        centre = obj.get("centre")
        first = player(obj, "first") if "first" in obj else 0
        if hands is None:
            if centre is not None:
                raise MalformedAction(f"deal {dict(obj)!r} gives a centre without hands")
            return Deal(None, None, first)
        if not isinstance(hands, list):
            raise MalformedAction(f"hands {hands!r} in {dict(obj)!r} is not a list of hands")
        parsed = tuple(_card_list(obj, h, "hand") for h in hands)
        return Deal(parsed, _card_list(obj, centre if centre is not None else [], "centre"), first)
    if kind == "reveal":
        slot = require(obj, "slot", int)
        if slot < 0:
            raise MalformedAction(f"slot {slot!r} in {dict(obj)!r} is negative")
        return RevealCentre(player(obj, "player"), slot, _number(obj), _count(obj), _confirmed(obj))
    if kind == "ask":
        end = require(obj, "end", str)
        if end not in ENDS:
            raise MalformedAction(f"end {end!r} in {dict(obj)!r} is not 'smallest' or 'largest'")
        return Ask(
            player(obj, "player"), player(obj, "target"), end, _number(obj), _count(obj), _confirmed(obj)
        )
    if kind == "exchange":
        seats = seat_list(obj, "players", player)
        if len(seats) != 2:
            raise MalformedAction(f"players {obj['players']!r} in {dict(obj)!r} is not two partners")
        pair = (seats[0], seats[1])
        cards = obj.get("cards")
        if cards is None:
            return Exchange(pair)
        given = _card_list(obj, cards, "cards")
        if len(given) != 2:
            raise MalformedAction(f"cards {cards!r} in {dict(obj)!r} is not one card per partner")
        return Exchange(pair, (given[0], given[1]))
    raise MalformedAction(
        f"unknown Trio action type {kind!r} in {dict(obj)!r}: expected deal, reveal, ask or exchange"
    )


def action_to_json(action: TrioAction) -> dict[str, JSON]:
    out: dict[str, JSON]
    if isinstance(action, Deal):
        out = {"type": "deal", "first": action.first}
        if action.hands is not None:
            out["hands"] = [list(h) for h in action.hands]
            out["centre"] = list(action.centre or ())
        return out
    if isinstance(action, Exchange):
        out = {"type": "exchange", "players": list(action.players)}
        if action.cards is not None:
            out["cards"] = list(action.cards)
        return out
    if isinstance(action, RevealCentre):
        out = {"type": "reveal", "player": action.player, "slot": action.slot}
    else:
        out = {"type": "ask", "player": action.player, "target": action.target, "end": action.end}
    if action.number is not None:
        out["number"] = action.number
    if action.count != 1:
        out["count"] = action.count
    if action.confirmed:
        out["confirmed"] = True
    return out
