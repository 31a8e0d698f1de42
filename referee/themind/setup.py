"""The Mind's fixed facts for the rules, and what a state shows: shared by the rule modules."""

from __future__ import annotations

from dataclasses import dataclass

from referee.themind.state import MindState
from referee.types import JSON, Reason, Ruling, Verdict


@dataclass(frozen=True)
class Setup:
    """The fixed facts the rules need."""

    names: tuple[str, ...]
    blind: bool
    known: bool
    """True when every deal lists the hands; False when only the pile and face-up cards are seen."""
    levels: int
    slide_under: str = "earliest"
    """Blind count: the higher card a late card slides under (:data:`~referee.themind.tables.SLIDE_UNDER`)."""

    @property
    def n(self) -> int:
        return len(self.names)


def uncertain(code: str, en: str, fr: str, **details: JSON) -> Ruling:
    """An uncertain ruling: the referee cannot tell, the table decides; nothing changes."""
    return Ruling(Verdict.UNCERTAIN, Reason(code, en, fr), False, details)


def cards_text(cards: list[int] | tuple[int, ...]) -> str:
    """``"3, 12, 40"``."""
    return ", ".join(str(c) for c in cards)


def less(counts: tuple[int, ...], seat: int, k: int) -> tuple[int, ...]:
    """``counts`` with ``k`` fewer cards for ``seat``."""
    return tuple(c - k if i == seat else c for i, c in enumerate(counts))


def seen_cards(state: MindState) -> set[int]:
    """Every card of this level known to be out of the hands: the readable pile and the discards."""
    seen = {p.card for p in state.pile if p.card is not None}
    seen.update(d.card for d in state.discards)
    return seen


def top_card(state: MindState) -> int | None:
    """The highest readable card on the pile (the last one played, barring late errors)."""
    cards = [p.card for p in state.pile if p.card is not None]
    return cards[-1] if cards else None


def star_floor(state: MindState, seat: int) -> int:
    """The highest card ``seat`` discarded with a star this level (0 if none): being their lowest
    card then, every card they still hold is higher."""
    return max((d.card for d in state.discards if d.player == seat and d.cause == "star"), default=0)
