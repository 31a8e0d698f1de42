"""The views a Twin It penalty may rest on: per place on the table, a short history of its clean
views (no hand on the card), each marked sound when no hand lay within reach of the card either
(:func:`web.adapters.twinit_table.hands_within`).

A penalty costs a player, so each card's view must be one a real table would trust
(:meth:`PlaceViews.evidence`): a sound view, taken shortly before the hands landed, after the
card's arrival there had settled, and confirmed: it shows the same pattern as an older clean view
of the same place, taken at least :data:`CONFIRM_GAP_S` earlier, or as the view of the card the
referee recorded at that place. One frame's view of a card a hand still half covered (a dark hand
the hands' mask misses beyond its sleeve), or of a card still coming down, confirms nothing.

Each place keeps the dates of its last :data:`KEEP_VIEWS` views, but the pixels only of those an
evidence or the resync can still return (:func:`_drop_unreachable`): the newest sound view and the
:data:`CONFIRM_VIEWS` views that may confirm it, the views a newer sound view's confirmations may
be, and the last two. A crop is 110 KB (the finder's 192 px), and the views no call could return
held half of what the places kept late in a game (seed 0 at 85 s, 20.3 of 47.6 MB the adapter
held): that memory rose through every game and fell at the next one, so the live bench's growth
figure depended on where its minutes fell.
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
"""Views of a place whose dates are kept (the oldest dropped first)."""
KEEP_PLACES = 48
CONFIRM_VIEWS = 2
"""Older views offered to confirm a view (:attr:`Evidence.older`)."""
_DROPPED = np.zeros((0, 0, 3), np.uint8)
"""The pixels of a kept view that no call can return any more (its date and soundness stay)."""


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
    """The :data:`CONFIRM_VIEWS` newest clean views of the place taken :data:`CONFIRM_GAP_S` or more
    before ``view``, newest first."""
    settled: bool
    """Whether the place had been seen :data:`CONFIRM_GAP_S` or more before ``view``."""


class PlaceViews:
    """Per place, the last few clean views (dated, each marked sound or not)."""

    def __init__(self) -> None:
        self.places: list[Place] = []

    def add(self, spot: Spot, tol: float) -> None:
        """Keeps ``spot`` (a dated clean view) at its place (within ``tol`` pixels). Views come in
        the order of their dates (frame after frame)."""
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
        _drop_unreachable(views)
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
        older = tuple(v for v in reversed(place.views) if _seen(v) <= cut)[:CONFIRM_VIEWS]
        return Evidence(view, older, place.since <= cut)


def _seen(spot: Spot) -> float:
    return float(spot.seen or 0.0)


def _drop_unreachable(views: list[Spot]) -> None:
    """Drops the pixels of the views (dated, oldest first) that neither :meth:`PlaceViews.evidence`
    nor the place's last two views can return, now or after newer views come: the newest sound
    view and its :data:`CONFIRM_VIEWS` confirmations; for any newer sound view (dated at or after
    the newest view), every view within :data:`CONFIRM_GAP_S` of the newest and the
    :data:`CONFIRM_VIEWS` views before those; the last two. Their dates stay: which views
    :data:`KEEP_VIEWS` keeps, and which one a newer view replaces, are as if every pixel were kept.
    (One pass over at most :data:`KEEP_VIEWS` views, for every card in sight each frame: 20 us on
    the loaded two-core machine, a tenth of finding the place.)"""
    n = len(views)
    if n <= 2:
        return
    cut_new = _seen(views[-1]) - CONFIRM_GAP_S + 1e-6
    sound = next((i for i in range(n - 1, -1, -1) if views[i].sound), -1)
    cut_sound = _seen(views[sound]) - CONFIRM_GAP_S + 1e-6 if sound >= 0 else -1.0
    for_new = for_sound = 0
    for i in range(n - 1, -1, -1):
        v = views[i]
        seen = v.seen or 0.0
        keep = i >= n - 2 or i == sound or seen > cut_new
        if seen <= cut_new and for_new < CONFIRM_VIEWS:
            for_new += 1
            keep = True
        if seen <= cut_sound and for_sound < CONFIRM_VIEWS:
            for_sound += 1
            keep = True
        if not keep and v.view is not _DROPPED:
            views[i] = Spot(v.center, v.quad, _DROPPED, v.track, v.seen, v.clean, v.sound)
