"""Small value types shared by every game: verdicts, bilingual reasons, rulings and outcomes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

JSON = Any
"""A value made of dict, list, str, int, float, bool and None only."""


class Verdict(StrEnum):
    """What the referee says of an action or claim."""

    VALID = "valid"
    """The action is legal, or the claim is right: it takes effect."""
    INVALID = "invalid"
    """The action is refused or the claim is wrong (its penalty, if any, takes effect)."""
    UNCERTAIN = "uncertain"
    """The referee cannot tell from what it knows; the table decides."""


@dataclass(frozen=True)
class Reason:
    """Why a ruling was given, in words a player understands, in English and French."""

    code: str
    """A stable machine-readable key, e.g. ``"not_identical"``."""
    en: str
    """The English sentence."""
    fr: str
    """The French sentence."""

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "en": self.en, "fr": self.fr}

    @classmethod
    def from_json(cls, obj: Mapping[str, str]) -> Reason:
        return cls(code=obj["code"], en=obj["en"], fr=obj["fr"])


@dataclass(frozen=True)
class Ruling:
    """The referee's answer to one action: a verdict, its reason and what it changed.

    ``applies`` tells whether :meth:`referee.protocol.Game.apply` changes the state with this
    action. A valid action applies; a wrong Twin It claim is invalid *and* applies (its penalty);
    a peg in an occupied hole is invalid and does not apply: the state stays as it was. A game
    record may only hold actions that apply.
    """

    verdict: Verdict
    """valid, invalid or uncertain."""
    reason: Reason
    """Why, in English and French."""
    applies: bool
    """True when applying the action changes the state (see above)."""
    details: Mapping[str, JSON] = field(default_factory=dict)
    """Structured facts for displays: cards moved, points, penalties, the winner..."""

    @property
    def valid(self) -> bool:
        return self.verdict is Verdict.VALID

    def to_json(self) -> dict[str, JSON]:
        return {
            "verdict": self.verdict.value,
            "reason": self.reason.to_json(),
            "applies": self.applies,
            "details": dict(self.details),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, JSON]) -> Ruling:
        return cls(
            verdict=Verdict(obj["verdict"]),
            reason=Reason.from_json(obj["reason"]),
            applies=bool(obj["applies"]),
            details=dict(obj.get("details", {})),
        )


def valid(code: str, en: str, fr: str, **details: JSON) -> Ruling:
    """A valid ruling that applies."""
    return Ruling(Verdict.VALID, Reason(code, en, fr), True, details)


def refused(code: str, en: str, fr: str, **details: JSON) -> Ruling:
    """An invalid ruling that changes nothing (an illegal action)."""
    return Ruling(Verdict.INVALID, Reason(code, en, fr), False, details)


def penalised(code: str, en: str, fr: str, **details: JSON) -> Ruling:
    """An invalid ruling whose penalty applies (a wrong claim)."""
    return Ruling(Verdict.INVALID, Reason(code, en, fr), True, details)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    winners: tuple[int, ...]
    """Seats of the winners (several on a shared victory or for a team); empty on a draw or loss."""
    reason: Reason
    """Why the game ended."""
    draw: bool = False
    """True when the game ended drawn."""

    def to_json(self) -> dict[str, JSON]:
        return {"winners": list(self.winners), "reason": self.reason.to_json(), "draw": self.draw}
