"""Trio's cards and tables: the 36-card deck, the deal table, teams, links and the winning goals."""

from __future__ import annotations

from functools import lru_cache

NUMBERS = tuple(range(1, 13))
"""The numbers printed on the cards."""
COPIES = 3
"""Every number is printed on three cards."""
DECK_SIZE = len(NUMBERS) * COPIES
SEVEN = 7
"""The trio of 7 always wins."""

DEAL_TABLE: dict[int, tuple[int, int]] = {3: (9, 9), 4: (7, 8), 5: (6, 6), 6: (5, 6)}
"""Players -> (cards per player, cards in the centre), from the seed's table."""
TEAM_DEAL: dict[int, int] = {4: 9, 6: 6}
"""Team mode: players -> cards per player; every card is dealt, none in the centre."""

GOALS = ("simple", "picante")
"""Simple: three trios of any numbers; Picante: two linked trios. The 7 trio wins in both."""


def deck() -> list[int]:
    """The 36 cards, sorted."""
    return [n for n in NUMBERS for _ in range(COPIES)]


def deal_sizes(num_players: int, teams: bool) -> tuple[int, int]:
    """(cards per player, cards in the centre) for ``num_players``."""
    if teams:
        return TEAM_DEAL[num_players], 0
    return DEAL_TABLE[num_players]


def team_of(seat: int, num_players: int) -> int:
    """The team of ``seat``: partners sit face to face (seats ``i`` and ``i + n/2``)."""
    return seat % (num_players // 2)


def partners(team: int, num_players: int) -> tuple[int, int]:
    """The two seats of ``team``."""
    return team, team + num_players // 2


def linked(a: int, b: int) -> bool:
    """Picante links: two trios are linked when their numbers add up to 7 or differ by 7."""
    return a + b == SEVEN or abs(a - b) == SEVEN


@lru_cache(maxsize=4096)
def reaches_goal(trios: tuple[int, ...], goal: str) -> bool:
    """True when a collection of trio numbers wins under ``goal``."""
    if SEVEN in trios:
        return True
    if goal == "simple":
        return len(trios) >= 3
    return any(linked(a, b) for i, a in enumerate(trios) for b in trios[i + 1 :])
