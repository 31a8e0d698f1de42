"""The views a Twin It penalty may rest on: per place on the table, a short history of its clean
views (no hand on the card), each marked sound when no hand lay within reach of the card either
(:func:`web.adapters.twinit_table.hands_within`).

A penalty costs a player, so each card's view must be one a real table would trust
(:meth:`PlaceViews.evidence`): a sound view, taken shortly before the hands landed, after the
card's arrival there had settled, and confirmed: it shows the same pattern as an older clean view
of the same place, taken at least :data:`CONFIRM_GAP_S` earlier, or as the view of the card the
referee recorded at that place. One frame's view of a card a hand still half covered (a dark hand
the hands' mask misses beyond its sleeve), or of a card still coming down, confirms nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from web.adapters.twinit_table import Spot

REACH_CARDS = 1.0
"""A hand this many cards or less from a card's box may lie on the card: fingers reach about a
card past the sleeve the hands' mask holds."""
CONFIRM_GAP_S = 0.2
"""An older view confirms a newer one when taken at least this long before it (two frames at
10 fps: the next frame of a glitch, a hand lingering, does not confirm it); so too a card must
have lain at its place this long before a view of it counts (its arrival settled)."""
THIN_S = 0.15
"""Views of a place kept at least this far apart (but the newest)."""
KEEP_VIEWS = 8
KEEP_PLACES = 48


@dataclass
class Place:
    """One place a card lay, and its clean views, oldest first."""

    center: np.ndarray
    views: list[Spot] = field(default_factory=list)
    since: float = 0.0
    """When the first clean view of the place was taken."""


@dataclass(frozen=True)
class Evidence:
    """A card's view a penalty may rest on, and the views that may confirm it."""

    view: Spot
    older: tuple[Spot, ...]
    """Older clean views of the place, :data:`CONFIRM_GAP_S` or more before ``view``, newest first."""
    settled: bool
    """Whether the place had been seen :data:`CONFIRM_GAP_S` or more before ``view``."""


class PlaceViews:
    """Per place, the last few clean views (dated, each marked sound or not)."""

    def __init__(self) -> None:
        self.places: list[Place] = []

    def add(self, spot: Spot, tol: float) -> None:
        """Keeps ``spot`` (a dated clean view) at its place (within ``tol`` pixels)."""
        if spot.seen is None or not spot.clean:
            return
        i = self._nearest(spot.center, tol)
        place = self.places.pop(i) if i is not None else Place(spot.center, since=float(spot.seen))
        views = place.views
        if len(views) >= 2 and _seen(views[-1]) - _seen(views[-2]) < THIN_S and views[-1].sound <= spot.sound:
            views[-1] = spot
        else:
            views.append(spot)
        del views[: max(0, len(views) - KEEP_VIEWS)]
        place.center = spot.center
        self.places.append(place)  # the most recently seen last
        del self.places[: max(0, len(self.places) - KEEP_PLACES)]

    def _nearest(self, point: np.ndarray, within: float) -> int | None:
        """Index of the place nearest ``point`` if closer than ``within`` (every frame, every card
        in sight: one array operation, not a loop over the places)."""
        if not self.places:
            return None
        d = np.linalg.norm(np.array([p.center for p in self.places], dtype=np.float64) - point, axis=1)
        i = int(np.argmin(d))
        return i if d[i] <= within else None

    def near(self, point: np.ndarray, within: float) -> Place | None:
        """The place nearest ``point`` if closer than ``within``, else ``None``."""
        i = self._nearest(point, within)
        return self.places[i] if i is not None else None

    def evidence(self, center: np.ndarray, tol: float, since: float) -> Evidence | None:
        """The newest sound view of the place taken at ``since`` or later, with the older clean
        views that may confirm it; ``None`` when there is none."""
        i = self._nearest(center, tol)
        if i is None:
            return None
        place = self.places[i]
        sound = [v for v in place.views if v.sound and _seen(v) >= since - 1e-6]
        if not sound:
            return None
        view = sound[-1]
        cut = _seen(view) - CONFIRM_GAP_S + 1e-6
        older = tuple(v for v in reversed(place.views) if _seen(v) <= cut)
        return Evidence(view, older, place.since <= cut)


def _seen(spot: Spot) -> float:
    return float(spot.seen or 0.0)
