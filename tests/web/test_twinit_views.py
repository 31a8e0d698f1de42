"""The penalty views' history (:mod:`web.adapters.twinit_views`): a place keeps the pixels only of
the views a call can still return, and every call answers as if it kept them all."""

from __future__ import annotations

import random

import numpy as np

from web.adapters.twinit_table import Spot
from web.adapters.twinit_views import CONFIRM_GAP_S, KEEP_VIEWS, THIN_S, PlaceViews


class EveryPixelKept:
    """The history as it was before views' pixels were dropped (each view kept whole): the
    reference every answer must match."""

    def __init__(self) -> None:
        self.places: list[tuple[np.ndarray, list[Spot], float]] = []

    def add(self, spot: Spot, tol: float) -> None:
        i = self._nearest(spot.center, tol)
        _, views, since = self.places.pop(i) if i is not None else (spot.center, [], float(spot.seen))
        if len(views) >= 2 and views[-1].seen - views[-2].seen < THIN_S and views[-1].sound <= spot.sound:
            views[-1] = spot
        else:
            views.append(spot)
        del views[: max(0, len(views) - KEEP_VIEWS)]
        self.places.append((spot.center, views, since))

    def _nearest(self, point: np.ndarray, within: float) -> int | None:
        d = [float(np.linalg.norm(c - point)) for c, _, _ in self.places]
        i = int(np.argmin(d)) if d else None
        return i if i is not None and d[i] <= within else None

    def views(self, point: np.ndarray, tol: float) -> list[Spot]:
        i = self._nearest(point, tol)
        return [] if i is None else self.places[i][1]

    def evidence(self, point: np.ndarray, tol: float, since: float) -> tuple[Spot, list[Spot]] | None:
        views = self.views(point, tol)
        sound = [v for v in views if v.sound and v.seen >= since - 1e-6]
        if not sound:
            return None
        view = sound[-1]
        return view, [v for v in reversed(views) if v.seen <= view.seen - CONFIRM_GAP_S + 1e-6]


def _spot(x: float, seen: float, sound: bool) -> Spot:
    quad = np.array([[x - 40, 60], [x + 40, 60], [x + 40, 140], [x - 40, 140]], np.float64)
    view = np.full((192, 192, 3), int(seen * 10) % 256, np.uint8)
    return Spot(np.array([x, 100.0]), quad, view, 1, seen, True, sound)


def _pixels(views: PlaceViews, x: float) -> int:
    place = views.near(np.array([x, 100.0]), 10.0)
    assert place is not None
    return sum(v.view.nbytes for v in place.views)


def test_a_card_lying_still_keeps_the_pixels_of_four_views_not_eight() -> None:
    """A card seen whole every frame at 10 fps for 3 s: its place dates eight views (each two
    frames apart), but only the newest, the view before it and the two that may confirm a newer
    one keep their 110 KB crops (before: all eight, the bulk of a live game's growth)."""
    views = PlaceViews()
    for k in range(30):
        views.add(_spot(200.0, round(0.1 * k, 1), True), tol=10.0)
    place = views.near(np.array([200.0, 100.0]), 10.0)
    assert place is not None and len(place.views) == KEEP_VIEWS
    assert _pixels(views, 200.0) <= 4 * 192 * 192 * 3
    ev = views.evidence(np.array([200.0, 100.0]), 10.0, since=2.0)
    assert ev is not None and ev.view.seen == 2.9 and ev.view.view.size
    assert [round(v.seen, 1) for v in ev.older] == [2.6, 2.4] and all(v.view.size for v in ev.older)


def test_every_answer_is_the_one_of_a_history_that_keeps_every_pixel() -> None:
    """Random frames (hands coming within reach and going, frames late or doubled, two places):
    each evidence returns the very views the whole history would (the newest sound one and the
    two newest that may confirm it), with their pixels, and so do the place's last two views
    (the resync's)."""
    rng = random.Random(7)
    for _ in range(40):
        views, whole = PlaceViews(), EveryPixelKept()
        t = 0.0
        for _ in range(120):
            t += rng.choice((0.0, 0.05, 0.1, 0.1, 0.1, 0.2, 0.35))
            x = rng.choice((200.0, 200.0, 200.0, 600.0))
            spot = _spot(x + rng.uniform(-3, 3), round(t, 3), rng.random() < 0.7)
            views.add(spot, tol=10.0)
            whole.add(spot, tol=10.0)
            for px in (200.0, 600.0):
                point = np.array([px, 100.0])
                place = views.near(point, 10.0)
                kept = whole.views(point, 10.0)
                if place is None:
                    assert not kept
                    continue
                assert [v.seen for v in place.views] == [v.seen for v in kept]
                assert all(a is b for a, b in zip(place.views[-2:], kept[-2:], strict=True))
                for since in (t - 1.5, t - 1.0, t - 0.3, t):
                    ev, ref = views.evidence(point, 10.0, since), whole.evidence(point, 10.0, since)
                    assert (ev is None) == (ref is None)
                    if ev is None or ref is None:
                        continue
                    assert ev.view is ref[0] and ev.view.view.size
                    assert len(ev.older) == min(2, len(ref[1]))
                    assert all(a is b and a.view.size for a, b in zip(ev.older, ref[1], strict=False))
