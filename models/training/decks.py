"""What the training scripts need from a deck of card faces (a small protocol)."""

from __future__ import annotations

from typing import Protocol

import numpy as np


class PatternDeck(Protocol):
    """A deck of pattern cards (Twin It-like) in one style."""

    name: str
    patterns: list[str]
    """Distinct pattern ids."""
    near_duplicates: list[tuple[str, str, str]]
    """(a, b, kind) pairs of different patterns made to be confused."""

    def image(self, pattern: str) -> np.ndarray:
        """The BGR uint8 face of ``pattern``, upright."""
        ...


class NumberDeck(Protocol):
    """A deck of number cards (The Mind, Trio, Line-it) in one style."""

    name: str
    deck: str
    """``"themind"``, ``"trio"`` or ``"lineit"``."""
    identities: list[str]
    """Every distinct face identity, e.g. ``"lineit:57:heart"``."""

    def image(self, identity: str) -> np.ndarray:
        """The BGR uint8 face of ``identity``, upright."""
        ...
