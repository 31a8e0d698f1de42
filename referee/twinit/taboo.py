"""Motifs Tabous: last game's winner draws 3 cards of different motifs and may not capture those
motifs (an error, for them only); another player capturing one frees them of it."""

from __future__ import annotations

from referee.twinit.options import Setup
from referee.twinit.types import TwinItState, evolve


def is_taboo_for(setup: Setup, state: TwinItState, seat: int, motif: str) -> bool:
    """True when capturing ``motif`` is an error for ``seat``."""
    return seat == setup.opts.taboo_player and motif in state.taboo


def freed_by(setup: Setup, state: TwinItState, seat: int, motif: str) -> TwinItState:
    """``state`` after ``seat`` captured ``motif``: the taboo player is freed of it when ``seat`` is
    someone else."""
    if setup.opts.taboo_player is None or seat == setup.opts.taboo_player or motif not in state.taboo:
        return state
    return evolve(state, taboo=tuple(t for t in state.taboo if t != motif))
