"""Trio's fixed facts for the rules, and who has won: shared by the rule modules."""

from __future__ import annotations

from dataclasses import dataclass

from referee.trio.cards import partners, reaches_goal
from referee.trio.state import TrioState


@dataclass(frozen=True)
class Setup:
    """The fixed facts the rules need."""

    names: tuple[str, ...]
    teams: bool
    goal: str
    """``"simple"`` or ``"picante"``."""
    known: bool
    """True when the deal lists the hands; False when only reveals are seen."""

    @property
    def n(self) -> int:
        return len(self.names)

    def team_count(self) -> int:
        return self.n // 2 if self.teams else 0


def collections(setup: Setup, state: TrioState) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(seats, trio numbers) per player, or per team in team mode (partners share their trios)."""
    if not state.trios:
        return []
    if setup.teams:
        out = []
        for team in range(setup.team_count()):
            a, b = partners(team, setup.n)
            out.append(((a, b), state.trios[a] + state.trios[b]))
        return out
    return [((seat,), trios) for seat, trios in enumerate(state.trios)]


def winners(setup: Setup, state: TrioState) -> tuple[int, ...] | None:
    """The winning seats, or ``None`` while nobody has reached the goal."""
    for seats, trios in collections(setup, state):
        if reaches_goal(trios, setup.goal):
            return seats
    return None


def names_of(setup: Setup, seats: tuple[int, ...]) -> str:
    return " & ".join(setup.names[s] for s in seats)
