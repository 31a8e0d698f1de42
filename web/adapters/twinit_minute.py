"""Twin It's cooperative minute: the stack of cards spread on the table starts the 60 s countdown
(or, in competitive play, hands the game over to the minute), and sets laid in a player's area
during the minute are claims.

:class:`Minute` is mixed into :class:`web.adapters.twinit.TwinItAdapter` and works on its state.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.observation import CardState, TableObservation
from web.adapters.twinit_table import Spot, center_of, clusters, fresh_views, nearest, visible_spots
from web.frame_history import FrameHistory

log = logging.getLogger(__name__)

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
STACK_PILE_SHARE = 0.5
"""...once the referee counts at most this share of the cards in the piles (the normal game nearly
played out; a few may be counted there still, plays the camera missed)..."""
STACK_MEMORY_S = 20.0
"""...and a spread counts only this long after the stack was seen."""
ANEW_FRACTION = 0.5
"""A spread's cards are laid anew: at least this share of a frame's cards lie where the normal
game left none (its table cards, piles and captures, where the adapter placed them); the normal
game's own table, seen again after hands or a glitch hid it, is no spread."""
WHOLE_FRACTION = 0.9
"""A spread showing this fraction of the cards, once the referee counts every pile empty, needs no
stack seen before it."""
SET_SETTLE_S = 1.5
"""Cooperative minute: a set laid in a player's area counts once it has stayed this long (a
third card may still come), or at once with three cards."""
COOP_MODES = ("cooperative", "cooperative-competitive")
REST_FRACTION = 0.02
REST_MIN_PX = 1.5
"""Two frames show the spread at rest when (all but one of) their cards lie within this fraction of
a card (and this many pixels) of each other: a card still sliding moves more between two frames."""
SLIDE_FRACTION = 0.5
"""...and no card lies farther than that but within this fraction of a card of where the other
frame shows one: the one card allowed to differ may be hidden or missed, not still sliding."""


REST_CARDS = 3
REST_SHARE = 0.5
"""The spread's rest is dated from the frame history when a frame shows at least this many cards in
the middle, this share of which (and two) came to rest among the frames it holds since the spread
began (fewer: it holds only the end of the spread, or a hand's moves after it): when the last
of them did..."""
LATE_S = 0.5
"""...unless it came to rest this long after the next to last one: moved since (a hand nudging it,
laying it back), it dates the spread from the next to last one (a spread's cards come down
within a few frames of each other: 30 ms apart on the live bench)."""

LYING = (CardState.VISIBLE, CardState.COVERED)
"""The cards of the hand-over frame dated from a frame of the history where the table lay still:
seen, or under a hand there (where the tracker last saw them)."""

KEEP_MARKS = 40
"""Frames of the spread kept to date its rest (a few seconds of vision)."""

LABELLER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tableref-labels")
"""Labels the spread's cards off the vision thread (one at a time: one minute starts at once)."""
LABEL_WAIT_S = 0.5
"""A frame this long (capture clock) after the spread's labelling began waits for it to end (a
slow machine, or frames fed faster than real time, still start the minute within this)."""


@dataclass(frozen=True)
class SpreadView:
    """One frame that showed the spread: its cards, the image and observation they were seen in."""

    mono: float
    spots: list[Spot]
    image: Any
    obs: TableObservation
    skipped: int = 0
    """Captured frames vision skipped since the frame it saw before this one."""
    period: float = 0.0
    """Seconds between two captured frames then."""

    def dated(self) -> float:
        """When the spread came to rest, ``mono`` being the first frame seen at rest: the middle of
        the frames skipped before it (it came to rest among them; the middle halves the worst
        error), else this frame."""
        return _dated(self.mono, self.skipped, self.period)


@dataclass(frozen=True)
class SpreadMark:
    """One frame that showed the spread, without its image: when, its cards, and the frames
    vision skipped before it (:meth:`SpreadView.dated`)."""

    mono: float
    spots: list[Spot]
    skipped: int = 0
    period: float = 0.0
    index: int | None = None
    """The frame's capture index (``None``: frames not numbered)."""
    hands: tuple[tuple[int, int, int, int], ...] = ()
    """The boxes of the hands it showed (:func:`hand_boxes`)..."""
    hand_mask: Any = None
    """...and vision's hand mask at the frame history's thumbnail size (``None``: none)."""

    def dated(self) -> float:
        return _dated(self.mono, self.skipped, self.period)


def _dated(mono: float, skipped: int, period: float) -> float:
    """``mono`` less half the ``skipped`` frames before it (rounded up), each ``period`` long."""
    return mono - ((skipped + 1) // 2) * period


def hand_boxes(obs: TableObservation) -> list[tuple[int, int, int, int]]:
    """The boxes ``(x, y, w, h)`` of the hands an observation shows."""
    boxes = []
    for hand in obs.hands:
        x, y, w, h = (int(v) for v in hand.bbox)
        boxes.append((x, y, w, h))
    return boxes


def settled_since(marks: list[SpreadMark], tol: float, slide: float = 0.0) -> float | None:
    """When the spread came to rest, from the frames that showed it: the first of the last run of
    frames whose cards lie (all but one) where the newest frame shows them (:func:`at_rest`),
    dated from the middle of the frames vision skipped before it; ``None`` without frames."""
    if not marks:
        return None
    last = marks[-1]
    k = len(marks) - 1
    while k > 0 and at_rest(marks[k - 1].spots, last.spots, tol, slide):
        k -= 1
    return marks[k].dated()


def at_rest(a: list[Spot], b: list[Spot], tol: float, slide: float = 0.0) -> bool:
    """Whether two views show the same cards at the same places (within ``tol`` pixels), all but
    one card of each (a hand may hide one, the finder miss one), and none still sliding: moved by
    more than ``tol`` but less than ``slide`` pixels (the last card laid comes down after the
    others: at rest but for it, the spread was dated 60 to 100 ms before it was done)."""
    moved = [s for s in a if nearest(b, s.center, tol) is None]
    extra = sum(1 for s in b if nearest(a, s.center, tol) is None)
    if len(moved) > 1 or extra > 1:
        return False
    return not any(nearest(b, s.center, slide) is not None for s in moved)


class Minute:
    """The spread that starts the minute, and the sets claimed during it."""

    frame_history: FrameHistory | None = None
    """The session's thumbnails of every captured frame (:meth:`use_history`): the spread's rest
    is dated from the frames vision skipped (:meth:`_rest_seen`); ``None``: frames fed one by one."""
    _spread_from: int | None = None
    """The capture index of the frame vision saw before the spread's first frame."""

    def use_history(self, history: FrameHistory) -> bool:
        self.frame_history = history
        return True

    def _spread_seen(self, obs: TableObservation, mono: float) -> bool:
        """Competitive play: the stack was spread; hands over to the minute (``on_spread``) as
        soon as two frames show the spread at rest (:meth:`_note_spread`), dated from the first
        of them. Hands hiding some of the spread for a frame do not start it again; when hands
        reach for the cards before the spread is ever at rest, it hands over from the fullest
        view of the spread once the spread has been in sight :data:`SPREAD_WAIT_S`. Only cards laid
        anew make a spread (:meth:`_laid_anew`)."""
        seen = visible_spots(obs)
        need = max(SPREAD_MIN_CARDS, int(SPREAD_FRACTION * self.expected_cards))
        spread = len(seen) >= need and self._laid_anew(seen)
        if spread and self._whole_spread(seen):
            self._spread_whole_at = mono
        if not self._stack_recent(mono) or (not spread and self._spread_first is None):
            self._forget_spread()
            return False
        if spread:
            self._note_spread(seen, obs, mono)
        snapshot = self.stable.update(obs, mono, allow_hands=True, image=getattr(self._frame, "image", None))
        if self._spread_rest is not None:
            snapshot = self._spread_view(self._spread_rest[1])
        elif snapshot is None or len(snapshot) < need:
            assert self._spread_first is not None
            if mono - self._spread_first < SPREAD_WAIT_S - 1e-6 or len(self._spread_counts) < 2:
                return True
            snapshot = self._spread_view(self._spread_best)
        self.stable.snapshot = list(snapshot)
        hook, self.on_spread = self.on_spread, None
        assert hook is not None
        hook(len(snapshot), self._spread_done(), obs, self._frame)
        return True

    def _laid_anew(self, seen: list[Spot]) -> bool:
        """Whether at least :data:`ANEW_FRACTION` of the cards in sight lie where the normal game
        left none: its table cards, piles and captures, where the adapter placed them. The normal
        game's last table shows most of its cards in the middle and may follow a "stack" (hands or
        a glitch hiding all but a card or two for a moment): seen again, it is no spread (the full
        bench's seeds 1 and 3 started their minutes 4.7 and 8.3 s before the spread, both times
        while the normal game's last table lay there: 20 cards in sight, 16 in the middle, enough
        for a spread); the stacked cards spread at random lie mostly at new places (seed 3's
        replay: 3 of 25 at an old place)."""
        known = [
            *self.table_at.values(),
            *self.pile_at.values(),
            *(at for places in self.captures_at.values() for at in places),
        ]
        if not known:
            return True
        tol = 0.5 * self.stable.card_px
        new = sum(1 for s in seen if not any(np.linalg.norm(s.center - at) <= tol for at in known))
        return new >= ANEW_FRACTION * len(seen)

    def _forget_spread(self) -> None:
        self._spread_first, self._spread_counts, self._spread_marks = None, [], []
        self._spread_from = None
        self._spread_best = self._spread_last = self._spread_rest = None

    def _note_spread(self, seen: list[Spot], obs: TableObservation, mono: float) -> None:
        """One frame showing the spread (enough cards apart). The spread is at rest from the first
        frame whose cards (all but one) lie where the next such frame shows them, within
        :data:`REST_FRACTION` of a card: the cards have stopped moving, so the spread was done
        by then (hands may reach for the cards at once, and the table is never still for long)."""
        if self._spread_first is None:
            self._spread_first = mono
            self._spread_from = self._prev_mark[1] if self._prev_mark is not None else None
        self._spread_counts.append((mono, len(seen)))
        skipped, period = self._skipped()
        view = SpreadView(mono, seen, getattr(self._frame, "image", None), obs, skipped, period)
        index = self._mark[1] if self._mark is not None else None
        small = None
        if self.frame_history is not None and obs.hand_mask is not None:
            small = self.frame_history.small_mask(obs.hand_mask)
        self._spread_marks.append(
            SpreadMark(mono, seen, skipped, period, index, tuple(hand_boxes(obs)), small)
        )
        del self._spread_marks[: max(0, len(self._spread_marks) - KEEP_MARKS)]
        tol = max(REST_MIN_PX, REST_FRACTION * self.stable.card_px)
        last = self._spread_last
        slide = SLIDE_FRACTION * self.stable.card_px
        if self._spread_rest is None and last is not None and at_rest(last.spots, seen, tol, slide):
            # the fuller of the two frames is the spread handed over (a hand may hide a card)
            self._spread_rest = (last.dated(), view if len(seen) > len(last.spots) else last)
        if self._spread_best is None or len(seen) >= len(self._spread_best.spots):
            self._spread_best = view
        self._spread_last = view

    def _skipped(self) -> tuple[int, float]:
        """Captured frames vision skipped between the frame before and this one (the newest frame
        wins when vision is slow), and the capture period; (0, 0.0) when frames are not numbered."""
        now, before = self._mark, self._prev_mark
        if now is None or before is None or now[1] is None or before[1] is None:
            return 0, 0.0
        gap = int(now[1]) - int(before[1])
        if gap <= 1:
            return 0, 0.0
        return gap - 1, (now[0] - before[0]) / gap

    def _spread_view(self, view: SpreadView | None) -> list[Spot]:
        """The spread as one frame showed it, with views cut from that frame."""
        if view is None:
            return []
        return fresh_views(view.spots, view.image, view.obs, view.mono)

    def _spread_done(self) -> float | None:
        """When the spread's last card came down: from the frame history (:meth:`_rest_seen`), no
        later than the frame vision handed over at rest; else, as vision saw it.
        (The history holds every captured frame; vision skips many while it works on a spread,
        and its own dating is only known to lie among them.) The history's dating only refines
        vision's: when it fails, vision's dating starts the minute (the competitive game hands over
        once, :meth:`_spread_seen`: an exception here would lose the minute for that game)."""
        seen = self._spread_seen_done()
        try:
            found = self._rest_seen()
        except Exception:
            log.exception("dating the spread from the frame history failed: vision's dating kept")
            return seen
        if found is None:
            return seen
        if self._spread_rest is not None:
            found = min(found, self._spread_rest[1].mono)
        return found

    def _rest_seen(self) -> float | None:
        """When the spread's cards came to rest, from the session's frame history: for each card
        a frame of the spread shows in the middle, the first frame since the one vision saw before
        the spread from which its area looks as there (:meth:`FrameHistory.arrivals`: a card still
        sliding changes it until it stops; hands elsewhere, passing over it after, or over it in
        that frame, do not count; a card mostly under them is left out), the last of them (but
        :data:`LATE_S`). That frame is the first vision saw showing (all but one of) the most
        cards the spread showed, the table lying still from it to the next frame captured
        (:meth:`FrameHistory.still_after`: no card sliding, seen or not, no hand moving): hands
        reaching for the cards by the hand-over frame may hide the last ones to stop (emulated
        seed 1: 3 of 12 middle cards dated, 300 to 400 ms early). Without one, the first frame of
        the history after the slide from which the whole table lay still
        (:meth:`FrameHistory.first_still`), the hand-over frame's cards (seen or under a hand)
        dated against it; else the hand-over frame. ``None`` without a history (frames fed one by
        one), or when too few cards came to rest among its frames (:data:`REST_SHARE`: the
        spread was at rest before them)."""
        history, obs, mark = self.frame_history, self._obs, self._mark
        if history is None or obs is None or mark is None or mark[1] is None:
            return None
        first = self._spread_from if self._spread_from is not None else 0
        most = max((len(m.spots) for m in self._spread_marks), default=0)
        for ref in self._spread_marks:
            if ref.index is None or ref.index >= mark[1] or len(ref.spots) < most - 1:
                continue
            middle = [s.quad for s in ref.spots if self.zone(s.center) is None]
            if not history.still_after(ref.index, middle, ref.hands, hidden_small=ref.hand_mask):
                continue
            found = self._rest_among(first, ref.index, middle, ref.hands, None, ref.hand_mask)
            if found is not None:
                return min(found, ref.mono)
        middle = [s.quad for s in visible_spots(obs) if self.zone(s.center) is None]
        lying = [np.asarray(c.quad) for c in obs.cards if c.state in LYING]
        lying = [q for q in lying if self.zone(center_of(q)) is None]
        still = history.first_still(self._moving_since(first), mark[1], lying)
        if still is not None:
            found = self._rest_among(first, still, lying, (), None)
            if found is not None:
                return min(found, history.mono_of(still) or found)
        return self._rest_among(first, mark[1], middle, hand_boxes(obs), obs.hand_mask)

    def _moving_since(self, first: int) -> int:
        """The capture index from which to look for the table lying still after the spread: the
        last frame vision saw of the spread with a card still sliding after it (the table not still
        to the next frame), else the spread's first frame vision saw (``first`` without them)."""
        history = self.frame_history
        marks = [m for m in self._spread_marks if m.index is not None]
        if history is None or not marks:
            return first
        for m in reversed(marks[:-1]):
            middle = [s.quad for s in m.spots if self.zone(s.center) is None]
            if history.still_after(m.index, middle, m.hands, hidden_small=m.hand_mask) is False:
                return int(m.index) + 1
        return int(marks[0].index)

    def _rest_among(
        self,
        first: int,
        ref: int,
        quads: list[np.ndarray],
        hands: Any,
        hand_mask: np.ndarray | None,
        small: np.ndarray | None = None,
    ) -> float | None:
        """When the cards ``quads`` of frame ``ref`` came to rest since frame ``first``
        (:meth:`_rest_seen`), or ``None``."""
        history = self.frame_history
        if history is None or len(quads) < REST_CARDS:
            return None
        arrived = history.arrivals(first, ref, quads, hands, hand_mask, small)
        if arrived is None:
            return None
        known = [a for a in arrived if not np.isnan(a)]
        inside = sorted(a for a in known if np.isfinite(a))
        if len(known) < REST_CARDS or len(inside) < max(2, REST_SHARE * len(known)):
            return None
        return inside[-1] if inside[-1] - inside[-2] <= LATE_S + 1e-6 else inside[-2]

    def _spread_seen_done(self) -> float | None:
        """When the spread's last card came down, as vision saw it: the first frame of the spread
        at rest (:meth:`_note_spread`); without one (the table memory took the layout as still,
        within a quarter card, before two frames showed it at rest), the first of the last frames whose
        cards lie where the newest frame shows them (:func:`settled_since`), when the newest
        shows (all but one of) the most cards the spread showed; else the first frame that showed
        that many; without frames, the still layout's first frame. (The first frame showing
        most of the cards, taken so before, came while they still slid: the live bench's seed 2
        started 580 ms early, emulated in real time 180 to 680 ms.)"""
        if self._spread_rest is not None:
            return self._spread_rest[0]
        if not self._spread_counts:
            return self.stable.since if self.stable.since is not None else self._spread_first
        most = max(n for _, n in self._spread_counts)
        marks = self._spread_marks
        if marks and len(marks[-1].spots) >= most - 1:
            tol = max(REST_MIN_PX, REST_FRACTION * self.stable.card_px)
            return settled_since(marks, tol, SLIDE_FRACTION * self.stable.card_px)
        return next(m for m, n in self._spread_counts if n >= most - 1)

    def _stack_recent(self, mono: float) -> bool:
        """Whether the stack was seen lately, or a spread of nearly every card (the stack may
        have come and gone between two frames while vision was slow)."""
        return any(
            at is not None and mono - at <= STACK_MEMORY_S for at in (self._stack_at, self._spread_whole_at)
        )

    def _piles_low(self) -> bool:
        """Whether the referee counts at most :data:`STACK_PILE_SHARE` of the cards in the piles:
        early on, hands over the table may leave a few middle cards alone in sight for a while (the
        seed-4 replay's minute started 52 s early at such a "stack", 18 of 22 cards in the piles;
        seed 3's real stack came with 3 of 25 still counted there; an app joining 8 s before the
        spread reads the piles it sees as a deal: 9 of 22)."""
        piles = self.live.snapshot_state().get("piles", [])
        return sum(int(size) for size, _top in piles) <= STACK_PILE_SHARE * self.expected_cards

    def _whole_spread(self, seen: list[Spot]) -> bool:
        """Nearly every card in sight (:data:`WHOLE_FRACTION`), a spread's share of them
        (:data:`SPREAD_FRACTION`) in the middle, once the referee counts every pile empty
        (:meth:`_piles_played`): early in competitive play most cards lie stacked in the piles, the
        won ones at the players' edges, but late on nearly every card may lie on the table."""
        middle = sum(1 for s in seen if self.zone(s.center) is None)
        need = max(SPREAD_MIN_CARDS, int(SPREAD_FRACTION * self.expected_cards))
        whole = len(seen) >= WHOLE_FRACTION * self.expected_cards and middle >= need
        return whole and self._piles_played()

    def _piles_played(self) -> bool:
        """Whether the referee counts every pile empty: the normal game is over, so the cards are
        gathered and spread next. A spread of nearly every card before that is the normal game's
        table late on (the full bench's seed 1 started its minute 19 s early so, with the last two
        piles' cards still to play)."""
        piles = self.live.snapshot_state().get("piles", [])
        return all(int(size) == 0 for size, _top in piles)

    def _watch_spread(self, obs: TableObservation, mono: float) -> None:
        if self._labelled(mono):
            self.stable.update(obs, mono, allow_hands=True, image=getattr(self._frame, "image", None))
            return
        need = max(SPREAD_MIN_CARDS, int(SPREAD_FRACTION * self.expected_cards))
        seen = visible_spots(obs)
        if self._whole_spread(seen):
            self._spread_whole_at = mono
        if len(seen) < need and self.spread_hint is None:
            self._forget_spread()
        if len(seen) >= need and self.spread_hint is None:
            self._note_spread(seen, obs, mono)
        snapshot = self.stable.update(obs, mono, allow_hands=True, image=getattr(self._frame, "image", None))
        if snapshot is None and self.spread_snapshot is not None:
            # handed over at rest: hands may reach for the cards before the table is still again
            snapshot, self.spread_snapshot = self.spread_snapshot, None
        if self.spread_hint is None and self._spread_rest is not None:
            snapshot = self._spread_view(self._spread_rest[1])
        if snapshot is None or len(snapshot) < need:
            return
        if self.spread_hint is None and not self._stack_recent(mono):
            return
        first = self.spread_hint if self.spread_hint is not None else self._spread_done()
        ordered = sorted(
            snapshot, key=lambda s: (round(s.center[1] / max(1.0, self.stable.card_px)), s.center[0])
        )
        # labelling every card takes the judge a few hundred milliseconds: a worker does it while
        # this thread goes on with the next frames; the minute starts on the first frame after
        start = first if first is not None else mono
        job = LABELLER.submit(self.labels_for, [s.view for s in ordered])
        self._labelling = (job, ordered, start, mono)

    def _labelled(self, mono: float) -> bool:
        """Whether the spread's labelling is under way (:meth:`_watch_spread`): once done, the
        minute starts with those faces, dated from the spread as it was when it was submitted;
        a frame :data:`LABEL_WAIT_S` after the submission waits for it."""
        job = self._labelling
        if job is None:
            return False
        future, ordered, start, submitted = job
        if not future.done() and mono - submitted < LABEL_WAIT_S - 1e-6:
            return True
        self._labelling = None
        self._start_minute(ordered, list(future.result()), start)
        return True

    def _start_minute(self, ordered: list[Spot], labels: list[str], start: float) -> None:
        faces: list[str | None] = list(labels)
        faces += [None] * max(0, self.expected_cards - len(faces))
        result = self._propose_seen(
            {"type": "start", "faces": faces[: self.expected_cards]},
            [(f"table:{i}", spot) for i, spot in enumerate(ordered[: self.expected_cards])],
        )
        if result is None:
            self._forget_spread()  # seen again from the next frames, not retried on every one
            return
        for i, spot in enumerate(ordered[: self.expected_cards]):
            self.table_at[i] = spot.center
            self.seq_of[("table", i)] = result[0]
            self.view_at[("table", i)] = spot.view
            self.face_shown[spot.track] = faces[i] or ""
        self.spread_mono = start
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
