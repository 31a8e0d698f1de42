"""Twin It's cooperative minute: the stack of cards spread on the table starts the 60 s countdown
(or, in competitive play, hands the game over to the minute), and sets laid in a player's area
during the minute are claims.

:class:`Minute` is mixed into :class:`web.adapters.twinit.TwinItAdapter` and works on its state.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.observation import TableObservation
from web.adapters.twinit_table import Spot, clusters, fresh_views, visible_spots

SPREAD_MIN_CARDS = 6
SPREAD_FRACTION = 0.6
"""The minute starts when at least this fraction of the cards (and 6) lie apart on the table."""
SPREAD_WAIT_S = 1.0
"""The spread hands over once at rest, or from its fullest view after this long in sight (hands
may reach for the cards before the table is ever still)."""
STACK_MAX_CARDS = 3
STACK_HOLD_S = 0.4
"""A table showing this few cards, none in a player's area, this long is the stack before a
spread..."""
STACK_MEMORY_S = 20.0
"""...and a spread counts only this long after the stack was seen."""
SET_SETTLE_S = 1.5
"""Cooperative minute: a set laid in a player's area counts once it has stayed this long (a
third card may still come), or at once with three cards."""
COOP_MODES = ("cooperative", "cooperative-competitive")


class Minute:
    """The spread that starts the minute, and the sets claimed during it."""

    def _spread_seen(self, obs: TableObservation, mono: float) -> bool:
        """Competitive play: the stack was spread; hands over to the minute (``on_spread``).
        Hands hiding some of the spread for a frame do not start it again; when hands reach for
        the cards before the spread is ever still, it hands over from the fullest view of the
        spread once the spread has been in sight :data:`SPREAD_WAIT_S`."""
        seen = visible_spots(obs)
        need = max(SPREAD_MIN_CARDS, int(SPREAD_FRACTION * self.expected_cards))
        if not self._stack_recent(mono) or (len(seen) < need and self._spread_first is None):
            self._spread_first, self._spread_counts, self._spread_best = None, [], []
            return False
        if len(seen) >= need:
            if self._spread_first is None:
                self._spread_first = mono
            self._spread_counts.append((mono, len(seen)))
            if len(seen) >= len(self._spread_best):
                self._spread_best = fresh_views(seen, getattr(self._frame, "image", None), obs, mono)
        snapshot = self.stable.update(obs, mono, allow_hands=True, image=getattr(self._frame, "image", None))
        if snapshot is None or len(snapshot) < need:
            assert self._spread_first is not None
            if mono - self._spread_first < SPREAD_WAIT_S - 1e-6 or len(self._spread_counts) < 3:
                return True
            snapshot = self.stable.snapshot = list(self._spread_best)
        hook, self.on_spread = self.on_spread, None
        assert hook is not None
        hook(len(snapshot), self._spread_done(), obs, self._frame)
        return True

    def _spread_done(self) -> float | None:
        """When the spread's last card came down: the first frame that showed (all but one of)
        the most cards the spread showed. The table may not be still again for long (hands
        reach for the cards at once), so this does not wait for a still layout; that layout's
        first frame is the fallback."""
        if not self._spread_counts:
            return self.stable.since if self.stable.since is not None else self._spread_first
        most = max(n for _, n in self._spread_counts)
        return next(m for m, n in self._spread_counts if n >= most - 1)

    def _stack_recent(self, mono: float) -> bool:
        return self._stack_at is not None and mono - self._stack_at <= STACK_MEMORY_S

    def _watch_spread(self, obs: TableObservation, mono: float) -> None:
        need = max(SPREAD_MIN_CARDS, int(SPREAD_FRACTION * self.expected_cards))
        count = len(visible_spots(obs))
        if count >= need and self._spread_first is None:
            self._spread_first = mono
        elif count < need and self.spread_hint is None:
            self._spread_first = None
            self._spread_counts = []
        if count >= need and self.spread_hint is None:
            self._spread_counts.append((mono, count))
        snapshot = self.stable.update(obs, mono, allow_hands=True, image=getattr(self._frame, "image", None))
        if snapshot is None and self.spread_snapshot is not None:
            # handed over at rest: hands may reach for the cards before the table is still again
            snapshot, self.spread_snapshot = self.spread_snapshot, None
        if snapshot is None or len(snapshot) < need:
            return
        if self.spread_hint is None and not self._stack_recent(mono):
            return
        first = self.spread_hint if self.spread_hint is not None else self._spread_done()
        ordered = sorted(
            snapshot, key=lambda s: (round(s.center[1] / max(1.0, self.stable.card_px)), s.center[0])
        )
        faces: list[str | None] = [self.label(s.view) for s in ordered]
        faces += [None] * max(0, self.expected_cards - len(faces))
        result = self._propose_seen(
            {"type": "start", "faces": faces[: self.expected_cards]},
            [(f"table:{i}", spot) for i, spot in enumerate(ordered[: self.expected_cards])],
        )
        if result is None:
            return
        for i, spot in enumerate(ordered[: self.expected_cards]):
            self.table_at[i] = spot.center
            self.seq_of[("table", i)] = result[0]
            self.view_at[("table", i)] = spot.view
            self.face_shown[spot.track] = faces[i] or ""
        self.spread_mono = first if first is not None else mono
        self.spread_hint = None
        self.live.start_timer("coop", self.seconds, "vision", started_mono=self.spread_mono)

    def _coop_sets(self, snapshot: list[Spot], mono: float) -> None:
        """Sets laid in a player's area: matched to the table cards that left their places."""
        tol = 0.5 * self.stable.card_px
        in_zones = [
            s
            for s in snapshot
            if self._seat_of_zone(s.center) is not None
            and not any(np.linalg.norm(s.center - d) <= tol for d in self._sets_done)
            and not any(np.linalg.norm(s.center - p) <= tol for p in self.table_at.values())
        ]
        for group in clusters(in_zones, 1.2 * self.stable.card_px):
            spots = [in_zones[i] for i in group]
            grid = 0.25 * self.stable.card_px
            key = tuple(sorted(round(float(v) / grid) for s in spots for v in s.center))
            first = self._set_seen.setdefault(key, mono)
            if len(spots) < 2 or (len(spots) < 3 and mono - first < SET_SETTLE_S):
                continue
            self._coop_claim(spots[:3], mono)

    def _coop_claim(self, spots: list[Spot], mono: float) -> None:
        tol = 0.5 * self.stable.card_px
        snapshot = self.stable.snapshot
        empty = [
            card
            for card, at in self.table_at.items()
            if not any(np.linalg.norm(s.center - at) <= tol for s in snapshot)
        ]
        chosen: list[int] = []
        for spot in spots:
            sig = self.matcher.signature(spot.view)
            options = [c for c in empty if c not in chosen]
            if not options:
                break
            scores = [
                self.matcher.p_same(sig, self.matcher.signature(self.view_at[("table", c)])) for c in options
            ]
            chosen.append(options[int(np.argmax(scores))])
        self._sets_done.extend(s.center for s in spots)
        if len(chosen) != len(spots):
            self.hold(
                {"type": "claim"},
                "a set whose cards did not come from the table",
                "un lot dont les cartes ne viennent pas de la table",
            )
            return
        seat = self._seat_of_zone(spots[0].center)
        action: dict[str, Any] = {
            "type": "claim",
            "players": [seat] * len(chosen),
            "cards": [{"table": c} for c in chosen],
        }
        if self.live.timer is not None:
            action["at"] = round(max(0.0, mono - self.live.timer.started_mono), 3)
        result = self.propose(action, force=True)
        if result is not None:
            for c in chosen:
                self.table_at.pop(c, None)

    def tick(self, now: float) -> None:
        timer = self.live.timer
        if not self.coop or self._ended or timer is None or not timer.ended:
            return
        self._ended = True
        self.propose({"type": "end"})
