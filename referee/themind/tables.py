"""The Mind's fixed tables: levels per player count, level rewards and caps, and the blind count."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

LOWEST, HIGHEST = 1, 100
"""The deck: one card of each number 1..100."""
LEVELS: dict[int, int] = {2: 12, 3: 10, 4: 8}
"""Players -> number of levels to complete."""
REWARDS: dict[int, str] = {2: "star", 3: "life", 5: "star", 6: "life", 8: "star", 9: "life"}
"""Level completed -> what the team receives (RULES-NOTES)."""
MAX_LIVES = 5
MAX_STARS = 3
START_STARS = 1


@dataclass(frozen=True)
class LineCard:
    """One card of the blind count's line, with the cards slid under it."""

    card: int
    under: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        return {"card": self.card, "under": list(self.under)}


SLIDE_UNDER = ("earliest", "latest")
"""Which higher card of the line a late card slides under (the seed does not say; decision:
``"earliest"``, the card that was played while the late card was still held)."""


def blind_count(played: Sequence[int], under: str = "earliest") -> tuple[LineCard, ...]:
    """The seed's end-of-level count in blind mode.

    The pile is turned over and its cards laid in a line in the order they were played. A card
    that is not the highest so far is slid under a card of the line that is higher than it: the
    earliest one (default), or with ``under="latest"`` the highest so far. Lives lost: the number
    of line cards with at least one card under them.

    >>> [c.card for c in blind_count([10, 50, 60, 20]) if c.under]
    [50]
    >>> [c.card for c in blind_count([10, 50, 60, 20], under="latest") if c.under]
    [60]
    """
    line: list[tuple[int, list[int]]] = []
    for card in played:
        if not line or card > line[-1][0]:
            line.append((card, []))
        elif under == "latest":
            line[-1][1].append(card)
        else:
            next(slid for top, slid in line if top > card).append(card)
    return tuple(LineCard(top, tuple(slid)) for top, slid in line)


def lives_lost(line: Sequence[LineCard]) -> int:
    return sum(1 for c in line if c.under)
