"""Fixtures shared by the vision tests: the table photo the hand, tracking and pipeline tests start from."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision._frames import table_frame
from vision.cards import find_cards


@pytest.fixture(scope="module")
def table() -> np.ndarray:
    """A real photo of 12 cards at 1280 x 720, no hands (see :func:`tests.vision._frames.table_frame`;
    one per test module, as before)."""
    return table_frame()


@pytest.fixture(scope="module")
def quads(table: np.ndarray) -> dict[int, np.ndarray]:
    """The quads the finder gives for :func:`table`'s cards, by index."""
    return {i: d.quad for i, d in enumerate(find_cards(table))}
