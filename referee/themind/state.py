"""The Mind's state value and its JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import InvalidState
from referee.types import JSON

PHASES = ("deal", "play", "reveal", "won", "lost")
"""deal: waiting for the level's cards; play: the level is on; reveal: blind mode with hands
unknown, every card played face down, waiting for the pile to be turned over; won / lost: over."""
CAUSES = ("error", "star")


@dataclass(frozen=True)
class Play:
    """A card put on the pile."""

    player: int
    card: int | None
    """``None`` for a face-down card the camera cannot read (blind mode, hands unknown)."""


@dataclass(frozen=True)
class Discard:
    """A card put face up in front of its owner."""

    player: int
    card: int
    cause: str
    """``"error"`` (it was lower than a card played) or ``"star"`` (a throwing star)."""


@dataclass(frozen=True)
class MindState:
    """One play of The Mind."""

    level: int
    """The level being played (or about to be dealt), from 1."""
    phase: str
    """One of :data:`PHASES`."""
    lives: int
    stars: int
    hands: tuple[tuple[int, ...], ...]
    """Per seat, the cards still held, sorted; empty tuples when the hands are unknown."""
    counts: tuple[int, ...]
    """Per seat, how many cards are still held."""
    pile: tuple[Play, ...] = ()
    """This level's pile, in the order played."""
    discards: tuple[Discard, ...] = ()
    """This level's face-up discards, in order."""
    charged: int | None = None
    """Hands unknown: the pile card whose error already cost a life (one life per error)."""


def state_to_json(state: MindState) -> dict[str, JSON]:
    return {
        "level": state.level,
        "phase": state.phase,
        "lives": state.lives,
        "stars": state.stars,
        "hands": [list(h) for h in state.hands],
        "counts": list(state.counts),
        "pile": [{"player": p.player, "card": p.card} for p in state.pile],
        "discards": [{"player": d.player, "card": d.card, "cause": d.cause} for d in state.discards],
        "charged": state.charged,
    }


def _int(value: Any, what: str, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidState(f"The Mind state field {what} holds {value!r}, expected an integer")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidState(f"The Mind state field {what} holds {value!r}, expected a list")
    return value


def state_from_json(obj: Mapping[str, JSON]) -> MindState:
    """The state from JSON, structure checked (the rules are checked by the game)."""
    if not isinstance(obj, Mapping):
        raise InvalidState(f"The Mind state {obj!r} is not a JSON object")
    try:
        phase = obj["phase"]
        if phase not in PHASES:
            raise InvalidState(f"The Mind phase {phase!r} is not one of {', '.join(PHASES)}")
        discards = []
        for d in _list(obj["discards"], "discards"):
            if d["cause"] not in CAUSES:
                raise InvalidState(f"The Mind discard cause {d['cause']!r} is not one of {CAUSES}")
            discards.append(Discard(_int(d["player"], "player"), _int(d["card"], "card"), d["cause"]))
        return MindState(
            level=_int(obj["level"], "level"),
            phase=phase,
            lives=_int(obj["lives"], "lives"),
            stars=_int(obj["stars"], "stars"),
            hands=tuple(
                tuple(_int(c, "hands") for c in _list(h, "hands")) for h in _list(obj["hands"], "hands")
            ),
            counts=tuple(_int(c, "counts") for c in _list(obj["counts"], "counts")),
            pile=tuple(
                Play(_int(p["player"], "player"), _int(p["card"], "card", optional=True))
                for p in _list(obj["pile"], "pile")
            ),
            discards=tuple(discards),
            charged=_int(obj.get("charged"), "charged", optional=True),
        )
    except (KeyError, TypeError) as exc:
        raise InvalidState(f"The Mind state {dict(obj)!r} is missing or mistypes a field ({exc})") from exc
