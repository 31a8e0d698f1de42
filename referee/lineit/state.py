"""Line-it's state values: immutable, JSON round-trip exact."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
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
PHASES = (DEAL, TURNS, FINAL_PLAYS, FINAL_CLOSE, OVER)


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
        """The state as plain JSON: one key per field; jackpots keyed by colour."""
        t = self.turn
        return {
            "phase": self.phase,
            "seats": [
                {
                    "line": list(s.line),
                    "hand": list(s.hand),
                    "score_pile": list(s.score_pile),
                    "tokens": list(s.tokens),
                }
                for s in self.seats
            ],
            "deck": list(self.deck),
            "market": list(self.market),
            "jackpots": dict(zip(C.COLOURS, map(list, self.jackpots), strict=True)),
            "discard": list(self.discard),
            "round": self.round,
            "first_player": self.first_player,
            "step": self.step,
            "turn": {"took": t.took, "played_from_hand": t.played_from_hand, "closed": t.closed},
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> LineItState:
        """The state from its JSON form, every field type-checked; raises :class:`InvalidState`
        quoting ``obj`` (whether the cards add up is :meth:`LineItGame.check_state`'s job)."""
        try:
            if not isinstance(obj, Mapping):
                raise ValueError("not a JSON object")
            seats = _field(obj, "seats", list)
            jackpots = _field(obj, "jackpots", dict)
            turn = _field(obj, "turn", dict)
            if set(turn) != {"took", "played_from_hand", "closed"}:
                raise ValueError(f"turn {turn!r} must hold took, played_from_hand and closed")
            return cls(
                phase=_field(obj, "phase", str),
                seats=tuple(_seat(s) for s in seats),
                deck=_cards(obj, "deck"),
                market=_cards(obj, "market"),
                jackpots=tuple(_cards(jackpots, c) for c in C.COLOURS),
                discard=_cards(obj, "discard"),
                round=_field(obj, "round", int),
                first_player=_field(obj, "first_player", int),
                step=_field(obj, "step", int),
                turn=Turn(**{k: _field(turn, k, bool) for k in turn}),
            )
        except KeyError as exc:
            raise InvalidState(f"not a Line-it state (no {exc}): {short(obj)}") from None
        except (TypeError, ValueError) as exc:
            raise InvalidState(f"not a Line-it state ({exc}): {short(obj)}") from None

    def with_seat(self, index: int, seat: Seat) -> LineItState:
        seats = list(self.seats)
        seats[index] = seat
        return replace(self, seats=tuple(seats))


def _field(obj: Mapping[str, Any], key: str, kind: type) -> Any:
    value = obj[key]
    if isinstance(value, bool) is not (kind is bool) or not isinstance(value, kind):
        raise ValueError(f"{key} {short(value)} is not {kind.__name__}")
    return value


def _cards(obj: Mapping[str, Any], key: str) -> tuple[str, ...]:
    cards = _field(obj, key, list)
    try:
        "".join(cards)  # raises TypeError unless every item is a string; fast on long piles
    except TypeError:
        raise ValueError(f"{key} {short(cards)} is not a list of cards") from None
    return tuple(cards)


def _seat(obj: object) -> Seat:
    if not isinstance(obj, Mapping):
        raise ValueError(f"seat {short(obj)} is not an object")
    tokens = _field(obj, "tokens", list)
    if not all(isinstance(t, int) and not isinstance(t, bool) for t in tokens):
        raise ValueError(f"tokens {short(tokens)} are not integers")
    return Seat(
        line=_cards(obj, "line"),
        hand=_cards(obj, "hand"),
        score_pile=_cards(obj, "score_pile"),
        tokens=tuple(tokens),
    )


def short(obj: object, limit: int = 160) -> str:
    """``repr(obj)`` cut to ``limit`` characters, for one-line error messages."""
    text = repr(obj)
    return text if len(text) <= limit else text[: limit - 3] + "..."
