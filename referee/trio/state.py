"""Trio's state value: hands as sorted slots (known or not), the centre, this turn's reveals, trios.

A hand is a tuple of slots sorted from smallest to largest. With the hands known every slot holds
its number; with the hands unknown a slot holds ``None`` until a reveal shows it, and keeps the
number afterwards (everyone saw it go back). ``low`` and ``high`` keep what reveals proved about
the whole hand after the cards that proved it left as a trio: every card is ``>= low`` and
``<= high``. An exchange forgets all of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import InvalidState
from referee.types import JSON


@dataclass(frozen=True)
class Hand:
    """One player's hand."""

    cards: tuple[int | None, ...]
    """Slots from smallest to largest; ``None`` where the number is not known."""
    low: int = 1
    """Every card of the hand is proved to be at least this."""
    high: int = 12
    """Every card of the hand is proved to be at most this."""


@dataclass(frozen=True)
class CentreCard:
    """One face-down card of the centre."""

    slot: int
    """Its place, numbered at the deal from 0; it keeps it when cards around it leave."""
    number: int | None
    """Its number, ``None`` while it has not been seen."""


@dataclass(frozen=True)
class Reveal:
    """A card revealed during the current turn (face up until the turn ends)."""

    seat: int | None
    """The hand it comes from, ``None`` for the centre."""
    index: int
    """Its slot: the centre slot, or its position in the sorted hand."""
    number: int
    """Its number."""


@dataclass(frozen=True)
class TrioState:
    """One play of Trio."""

    dealt: bool = False
    """False until the deal action."""
    turn: int = 0
    """The seat whose turn it is."""
    hands: tuple[Hand, ...] = ()
    """Per seat."""
    centre: tuple[CentreCard, ...] = ()
    """The face-down cards left in the centre."""
    revealed: tuple[Reveal, ...] = ()
    """This turn's reveals, in order (at most two: a third resolves the turn)."""
    trios: tuple[tuple[int, ...], ...] = ()
    """Per seat, the numbers of the trios won, in order."""
    exchanges: tuple[int, ...] = ()
    """Team mode: the teams that may exchange a card now (closed by the next reveal)."""


def state_to_json(state: TrioState) -> dict[str, JSON]:
    return {
        "dealt": state.dealt,
        "turn": state.turn,
        "hands": [{"cards": list(h.cards), "low": h.low, "high": h.high} for h in state.hands],
        "centre": [{"slot": c.slot, "number": c.number} for c in state.centre],
        "revealed": [{"seat": r.seat, "index": r.index, "number": r.number} for r in state.revealed],
        "trios": [list(t) for t in state.trios],
        "exchanges": list(state.exchanges),
    }


def _int(obj: Mapping[str, Any], key: str, optional: bool = False) -> int | None:
    value = obj.get(key) if isinstance(obj, Mapping) else None
    if value is None and optional and isinstance(obj, Mapping) and key in obj:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidState(f"trio state field {key!r} in {obj!r} is not an integer")
    return value


def _list(obj: Any, what: str) -> list[Any]:
    if not isinstance(obj, list):
        raise InvalidState(f"trio state field {what!r} is not a list: {obj!r}")
    return obj


def _slot_value(value: Any, what: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidState(f"trio state {what} holds {value!r}, expected a number or null")
    return value


def _slots(value: Any) -> tuple[int | None, ...]:
    """A hand's slots: numbers or nulls (checked in one pass; the rules are checked by the game)."""
    cards = _list(value, "cards")
    if all(v is None or type(v) is int for v in cards):
        return tuple(cards)
    return tuple(_slot_value(v, "hand") for v in cards)


def _number(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidState(f"trio state {what} holds {value!r}, expected an integer")
    return value


def state_from_json(obj: Mapping[str, JSON]) -> TrioState:
    """The state from JSON, structure checked (the rules are checked by the game)."""
    if not isinstance(obj, Mapping):
        raise InvalidState(f"trio state {obj!r} is not a JSON object")
    try:
        dealt = obj["dealt"]
        if not isinstance(dealt, bool):
            raise InvalidState(f"trio state field 'dealt' is not a boolean: {dealt!r}")
        hands = tuple(
            Hand(
                cards=_slots(h.get("cards")),
                low=_int(h, "low"),
                high=_int(h, "high"),
            )
            for h in _list(obj["hands"], "hands")
        )
        centre = tuple(
            CentreCard(slot=_int(c, "slot"), number=_slot_value(c.get("number"), "centre"))
            for c in _list(obj["centre"], "centre")
        )
        revealed = tuple(
            Reveal(seat=_int(r, "seat", optional=True), index=_int(r, "index"), number=_int(r, "number"))
            for r in _list(obj["revealed"], "revealed")
        )
        trios = tuple(
            tuple(_number(n, "trios") for n in _list(t, "trios")) for t in _list(obj["trios"], "trios")
        )
        exchanges = tuple(_number(t, "exchanges") for t in _list(obj["exchanges"], "exchanges"))
        return TrioState(
            dealt=dealt,
            turn=_int(obj, "turn"),
            hands=hands,
            centre=centre,
            revealed=revealed,
            trios=trios,
            exchanges=exchanges,
        )
    except (KeyError, AttributeError, TypeError) as exc:
        raise InvalidState(f"trio state {dict(obj)!r} is missing or mistypes a field ({exc})") from exc
