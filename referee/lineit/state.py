"""Line-it's state values: immutable, JSON round-trip exact."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from referee.errors import InvalidState
from referee.lineit import cards as C

# Phases of play.
DEAL = "deal"
"""Waiting for the next market to be dealt."""
TURNS = "turns"
"""Players take their turns, from the first player clockwise."""
FINAL_PLAYS = "final_plays"
"""End of the game: players, from the first player, may play a first then a second card from hand."""
FINAL_CLOSE = "final_close"
"""End of the game: every player closes their last line."""
OVER = "over"


@dataclass(frozen=True)
class Seat:
    """One player's cards."""

    line: tuple[str, ...] = ()
    """The open line, in the order played."""
    hand: tuple[str, ...] = ()
    """At most two cards."""
    score_pile: tuple[str, ...] = ()
    """Number cards won (closed lines and jackpots): one point each."""
    tokens: tuple[int, ...] = ()
    """Bet bonus (+) and malus (-) tokens from closed lines."""

    @property
    def score(self) -> int:
        return len(self.score_pile) + sum(self.tokens)


@dataclass(frozen=True)
class Turn:
    """What the current player has done so far this turn."""

    took: bool = False
    played_from_hand: bool = False
    closed: bool = False


@dataclass(frozen=True)
class LineItState:
    phase: str
    """deal, turns, final_plays, final_close or over."""
    seats: tuple[Seat, ...]
    deck: tuple[str, ...]
    """Cards not yet dealt, sorted (their order is unknown to the referee)."""
    market: tuple[str, ...] = ()
    jackpots: tuple[tuple[str, ...], ...] = ((), (), (), ())
    """Per colour of :data:`cards.COLOURS`, the cards under its jackpot token."""
    discard: tuple[str, ...] = ()
    """Discarded cards, sorted (closed lines' three cards, spent bets, market bets)."""
    round: int = 0
    """Rounds dealt so far."""
    first_player: int = 0
    """Holder of the first-player token."""
    step: int = 0
    """In turns: how many players have ended their turn this round. In final_plays: how many
    (player, card) opportunities have passed. In final_close: how many players have closed."""
    turn: Turn = Turn()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "seats":
                value = [
                    {
                        "line": list(s.line),
                        "hand": list(s.hand),
                        "score_pile": list(s.score_pile),
                        "tokens": list(s.tokens),
                    }
                    for s in value
                ]
            elif f.name == "turn":
                value = {
                    "took": value.took,
                    "played_from_hand": value.played_from_hand,
                    "closed": value.closed,
                }
            elif f.name == "jackpots":
                value = {c: list(j) for c, j in zip(C.COLOURS, value, strict=True)}
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> LineItState:
        try:
            return cls(
                phase=str(obj["phase"]),
                seats=tuple(
                    Seat(
                        line=tuple(s["line"]),
                        hand=tuple(s["hand"]),
                        score_pile=tuple(s["score_pile"]),
                        tokens=tuple(int(t) for t in s["tokens"]),
                    )
                    for s in obj["seats"]
                ),
                deck=tuple(obj["deck"]),
                market=tuple(obj["market"]),
                jackpots=tuple(tuple(obj["jackpots"][c]) for c in C.COLOURS),
                discard=tuple(obj["discard"]),
                round=int(obj["round"]),
                first_player=int(obj["first_player"]),
                step=int(obj["step"]),
                turn=Turn(**{k: bool(v) for k, v in obj["turn"].items()}),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidState(f"not a Line-it state ({exc!r}): {dict(obj)!r:.200}") from exc

    def with_seat(self, index: int, seat: Seat) -> LineItState:
        seats = list(self.seats)
        seats[index] = seat
        return replace(self, seats=tuple(seats))
