"""One frame in, the recognised table out: change gate, cards, hands, tracks.

>>> pipe = TablePipeline()
>>> obs = pipe.process(frame, timestamp)    # doctest: +SKIP
>>> [c.track_id for c in obs.cards if c.state == "covered"]   # doctest: +SKIP

Per frame:

1. Change gate: a tiny grey copy of the frame is compared with the last processed one. Nothing
   changed -> the previous observation is returned with the new time (a still table costs a
   resize and a difference); one still frame in a few searches the next tile of a slow
   background sweep, so a card no search found is not left unseen for good. Most of the frame
   changed at once -> a new scene (the next game, the camera moved): the table is forgotten and
   the frame searched whole, as the first frame is.
2. Otherwise each changed region (plus every card it touches, plus a margin) is searched for
   cards, far-apart regions apart, and so is the place of a card first found in the last frame on
   a card already tracked (tentative: it is kept once found there again); a change over most of
   the frame searches the whole frame. A hand's fringe (a thin band of change along its edge: its
   shadow, its blurred outline) is not searched while the hand is there, nor is a change by it
   that is only darker than before (a moving arm's shadow; for at most a second): a frame where
   hands land on cards does not wait for a search of the cards beside them.
3. Hands are found against the table memory; tracks are matched, covered or gone; clean views
   are taken of cards fully seen with no hand on them; hand events are emitted. The place a card
   was carried away from is searched again once no hand is near it (the hand may have left it).
4. An optional ``identify`` callback names a track's card once, from its first clean view.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards.finder import CardDetection, FinderConfig, find_cards
from vision.cards.geometry import quad_diagonal, quad_iou
from vision.cards.rectify import rectify
from vision.cards.segment import table_colours, table_model_mask
from vision.errors import InputError
from vision.hands import HandConfig, HandResult, HandTracker, quad_coverage
from vision.observation import CardState, HandEvent, HandObservation, TableObservation
from vision.tracking import CardTracker, Track, TrackerConfig, signature, signature_distance, signature_energy

log = logging.getLogger(__name__)

Identify = Callable[[np.ndarray], tuple[str | None, float]]
"""A rectified clean view -> (identity or None, confidence 0..1)."""

Find = Callable[..., list[CardDetection]]
"""The card finder: called as :func:`vision.cards.finder.find_cards` is."""

Box = tuple[int, int, int, int]
"""x, y, width, height in full-resolution pixels."""


def _merge_boxes(boxes: list[tuple[float, float, float, float]]) -> list[tuple[float, float, float, float]]:
    """Boxes (x0, y0, x1, y1) that overlap, replaced by their union until none overlap."""
    out = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]:
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def _union(rois: list[Box] | None) -> Box | None:
    """The box around every searched region ((0, 0, 0, 0): none searched; None: the whole frame)."""
    if rois is None:
        return None
    if not rois:
        return (0, 0, 0, 0)
    x0 = min(b[0] for b in rois)
    y0 = min(b[1] for b in rois)
    x1 = max(b[0] + b[2] for b in rois)
    y1 = max(b[1] + b[3] for b in rois)
    return (x0, y0, x1 - x0, y1 - y0)


@dataclass(frozen=True)
class PipelineConfig:
    """Thresholds of the change gate; the stages have their own configs."""

    gate_width: int = 160
    """Width of the grey copy the change gate compares."""
    gate_threshold: int = 14
    """Grey difference that counts as a change."""
    gate_min_pixels: int = 3
    """Changed pixels (of the gate copy) needed to process a frame."""
    full_frame_fraction: float = 0.6
    """A changed region over this fraction of the frame is processed whole."""
    colours_every: int = 30
    """The table's colours are learned again every this many processed frames."""
    revealed_novel: float = 0.05
    """A hidden card's place with at most this fraction to search is as it was."""
    speck_pixels: int = 4
    """A change of fewer gate pixels than this, none differing twice ``gate_threshold``, is not
    searched."""
    stayed_found: float = 0.85
    """A card a hand seemed to carry off, in sight where it lay (:meth:`TablePipeline._stayed`), is
    taken at its place unless the finder has a quad on it overlapping it at least this much."""
    verify_s: float = 10.0
    """How long the place a card was carried away from waits for the hand to leave it."""
    hand_margin: int = 2
    """Pixels of the gate's copy around a hand not searched while the hand is there (its shadow
    and blurred edge change every frame; no card is found there)."""
    fringe_reach: int = 3
    """A thin change within this many gate pixels of a hand's margin is the hand's fringe ..."""
    fringe_thickness: float = 2.0
    """... when no pixel of it lies further than this from its outside (a strip at most about
    four gate pixels wide: a hand's shadow band, not a card, a card being some 12 gate pixels a
    side). It is not searched, nor taken as accounted for, while the hand is there."""
    shadow_darker: float = 0.95
    """Any other change touching a hand's margin (within ``fringe_reach``) with at least this
    fraction of its pixels darker than what was accounted for is the hand's shadow (a moving arm's
    soft shadow, which the hand mask leaves out, sweeps a band up to two thirds of a card wide over
    the table and the cards beside it): not searched, nor taken as accounted for, while the hand is
    there (for at most ``hand_defer_s``). Once the arm has passed, the band is as it was: nothing
    to search. Searched, such a band (with every card it touches) took 40-190 ms of CPU on frames
    where hands landed on cards in the demo scenario."""
    hand_defer_s: float = 1.0
    """How long a hand's shadow (see ``shadow_darker``) is left unsearched at most; 0: never."""
    cut_fraction: float = 0.6
    """A change over this fraction of the gate's copy in one frame is a new scene (the next
    game's table, the camera moved; a hand changes at most about a quarter of it): the table is
    forgotten and the frame searched whole, as a first frame is."""
    sweep_every: int = 4
    """One still frame in this many searches the next tile of a slow background sweep of the
    whole frame (a card a search missed, or one lying where nothing changed since, is searched
    again within ``sweep_every * sweep_grid[0] * sweep_grid[1]`` still frames); 0: no sweep."""
    bare_not_table: float = 0.05
    """A hidden card's place in sight, no hand on it, with at most this fraction of it not in
    the table's colours is bare: the card is gone at once."""
    swept_in_sight: float = 0.3
    """A hidden card's place a hand lies over, with at least this fraction of it in sight and
    bare there (see ``bare_not_table``), no longer holds the card: it is gone."""
    pile_iou: float = 0.5
    """A card first found, within ``verify_s``, where a hand carried a card off (IoU at least this
    with the place) makes the place a pile: the next time a hand carries a card off it, the next
    card lies under the hand."""
    lift_wait_s: float = 1.0
    """How long a pile's place a card was carried off waits for the carried card to leave it."""
    sweep_grid: tuple[int, int] = (3, 2)
    """Tiles of the sweep across and down (each grown by a card's diagonal, so every card lies
    wholly inside one); every other pass has one more each way."""


class TablePipeline:
    """Turns frames into :class:`TableObservation` values, keeping the table memory."""

    def __init__(
        self,
        finder: FinderConfig | None = None,
        tracker: TrackerConfig | None = None,
        hands: HandConfig | None = None,
        config: PipelineConfig | None = None,
        identify: Identify | None = None,
        find: Find | None = None,
    ) -> None:
        """``find`` replaces the card finder (the bench passes a rendered scene's truth, to tell
        the tracker's and hands' own losses from the finder's)."""
        self.finder_cfg = finder or FinderConfig()
        self.cfg = config or PipelineConfig()
        self.tracker = CardTracker(tracker)
        self.hands = HandTracker(hands)
        self.identify = identify
        self.find: Find = find or find_cards
        self._frame_index = -1
        self._gate_prev: np.ndarray | None = None
        self._last: TableObservation | None = None
        self._size: tuple[int, int] | None = None
        self._table_colours: np.ndarray | None = None
        self._since_colours = 0
        self._accounted: np.ndarray | None = None
        self._verify: dict[int, tuple[np.ndarray, float]] = {}
        self._origins: dict[int, tuple[np.ndarray, float]] = {}
        """Track id -> (quad, time): where a card a hand carried away lay, until the card is
        seen again (a card found there with its look is the one the hand left: it rose off it)."""
        self._lifted: dict[int, tuple[np.ndarray, float]] = {}
        """Track id -> (quad, time): the place a hand just carried a card off (see :meth:`_piles_next`)."""
        self._lifts: list[tuple[np.ndarray, float, int]] = []
        """(quad, time, first track id after it) of the places hands carried cards off, for
        ``verify_s``: a card first found there after it makes the place a pile."""
        self._piles: list[np.ndarray] = []
        """The quads of the places known to be piles."""
        self._guesses: dict[int, np.ndarray] = {}
        """Track id -> pile quad: the cards guessed under a hand on a pile, not seen yet."""
        self._deferred: np.ndarray | None = None
        """The gate's copy's pixels of a hand's shadow not searched yet: when each was first left
        (NaN: none; see :attr:`PipelineConfig.shadow_darker`)."""
        self._sweep_later = False
        """Whether a still frame's sweep tile waits for :meth:`idle` (see :meth:`background`)."""
        self._sweep_due: tuple[np.ndarray, float] | None = None
        """The still frame (and its time) whose sweep tile waits for :meth:`idle`."""
        self._refresh = False
        """Whether :meth:`idle` added tracks the last observation does not show yet."""
        self._forget = False
        self._still = 0
        self._sweep_tile = 0
        self._sweep_pass = 0
        """Track id -> (quad, time): where a card a hand carried away lay; searched once no hand
        is near it (the hand may have left the card there and carried nothing)."""

    def reset(self) -> None:
        """Forget the table (a new game, the camera moved) before the next frame is processed:
        safe to call from another thread while a frame is being processed (the live app's
        source starts the next game while the vision thread works on the last one's frame)."""
        self._forget = True

    def _forget_table(self) -> None:
        self._forget = False
        self.tracker.reset()
        self.hands.reset()
        self._gate_prev = None
        self._last = None
        self._size = None
        self._table_colours = None
        self._accounted = None
        self._verify = {}
        self._origins = {}
        self._lifted = {}
        self._lifts = []
        self._piles = []
        self._guesses = {}
        self._still = 0
        self._sweep_tile = 0
        self._sweep_pass = 0
        self._deferred = None
        self._sweep_due = None
        self._refresh = False

    def _gate(self, frame: np.ndarray) -> tuple[bool, np.ndarray | None, np.ndarray]:
        """(changed?, changed-pixel mask of the gate copy, the gate copy)."""
        h, w = frame.shape[:2]
        gw = min(self.cfg.gate_width, w)
        gh = max(1, round(h * gw / w))
        small = cv2.cvtColor(cv2.resize(frame, (gw, gh), interpolation=cv2.INTER_LINEAR), cv2.COLOR_BGR2GRAY)
        if self._gate_prev is None or self._gate_prev.shape != small.shape:
            return True, None, small
        diff = cv2.absdiff(small, self._gate_prev)
        _, changed = cv2.threshold(diff, self.cfg.gate_threshold, 255, cv2.THRESH_BINARY)
        return cv2.countNonZero(changed) >= self.cfg.gate_min_pixels, changed, small

    def _rois(self, changed: np.ndarray | None, shape: tuple[int, int]) -> list[Box] | None:
        """The full-resolution regions to search: each group of changed pixels, the cards it
        touches and a margin (regions that overlap are one); None for the whole frame (a change
        over most of it). Far-apart changes (two hands' edges, a card put down across the table)
        are searched apart, not as the one box around them all."""
        if changed is None:
            return None
        h, w = shape
        n, _, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        if n <= 1:
            return None
        f = w / changed.shape[1]
        diag = [quad_diagonal(t.quad) for t in self.tracker.on_table()]
        margin = 0.6 * (float(np.median(diag)) if diag else 0.1 * max(h, w)) + 2 * f
        boxes = [
            (x * f - margin, y * f - margin, (x + bw) * f + margin, (y + bh) * f + margin)
            for x, y, bw, bh, _ in stats[1:]
        ]
        boxes = _merge_boxes(boxes)
        # Grow to take in every card a region touches (a card cut by a region's edge is not found).
        cards = [(*t.quad.min(axis=0), *t.quad.max(axis=0)) for t in self.tracker.on_table()]
        grown = []
        for x0, y0, x1, y1 in boxes:
            for qx0, qy0, qx1, qy1 in cards:
                if qx1 >= x0 and qx0 <= x1 and qy1 >= y0 and qy0 <= y1:
                    x0, y0 = min(x0, qx0 - 4), min(y0, qy0 - 4)
                    x1, y1 = max(x1, qx1 + 4), max(y1, qy1 + 4)
            grown.append((x0, y0, x1, y1))
        out: list[Box] = []
        for x0, y0, x1, y1 in _merge_boxes(grown):
            bx0, by0 = max(0, int(x0)), max(0, int(y0))
            bx1, by1 = min(w, int(np.ceil(x1))), min(h, int(np.ceil(y1)))
            if bx1 > bx0 and by1 > by0:
                out.append((bx0, by0, bx1 - bx0, by1 - by0))
        if sum(b[2] * b[3] for b in out) > self.cfg.full_frame_fraction * w * h:
            return None
        return out

    def process(self, frame: np.ndarray, timestamp: float) -> TableObservation:
        """The recognised table in ``frame`` (BGR uint8), taken at ``timestamp`` seconds."""
        t0 = time.perf_counter()
        if (
            not isinstance(frame, np.ndarray)
            or frame.ndim != 3
            or frame.shape[2] != 3
            or frame.dtype != np.uint8
        ):
            got = getattr(frame, "shape", type(frame).__name__)
            raise InputError(f"frame: expected a BGR uint8 image of shape (H, W, 3), got {got}")
        h, w = frame.shape[:2]
        if self._forget:
            self._forget_table()
        if self._size is not None and self._size != (w, h):
            log.info("frame size changed from %s to %s: forgetting the table", self._size, (w, h))
            self._forget_table()
        self._size = (w, h)
        self._frame_index += 1
        changed, change_mask, small = self._gate(frame)
        if (
            change_mask is not None
            and cv2.countNonZero(change_mask) > self.cfg.cut_fraction * change_mask.size
        ):
            log.info("most of the frame changed at once (a new scene): forgetting the table")
            self._forget_table()
            self._size = (w, h)
            changed, change_mask = True, None
        # (An unchanged frame is skipped, unless a still "hand" has turned out to be a card left at
        # the image edge: the hands are looked at again, and the card searched.)
        # (Nor when a card first found in the last frame waits to be found again: its place is
        # searched now, not left until something there changes.)
        if (
            not changed
            and self._last is not None
            and not self.hands.card_left(timestamp)
            and not any(t.tentative for t in self.tracker.tracks)
        ):
            held = {tid for hand in self._last.hands for tid in hand.covers}
            expired = self.tracker.expire(timestamp, held)
            swept = self._sweep(frame, timestamp)
            cards = (
                self._last.cards
                if not (expired or swept or self._refresh)
                else tuple(t.snapshot() for t in self.tracker.confirmed())
            )
            self._refresh = False
            obs = TableObservation(
                frame_index=self._frame_index,
                timestamp=timestamp,
                width=w,
                height=h,
                cards=cards,
                hands=self._last.hands,
                events=(),
                hand_mask=self._last.hand_mask,
                extras={
                    "ms": (time.perf_counter() - t0) * 1000.0,
                    "changed": False,
                    "roi": None,
                    "swept": swept,
                },
            )
            self._last = obs
            return obs

        self._sweep_due = None  # (a sweep is for a still table)
        self._refresh = False
        on_table = {t.track_id: t.quad for t in self.tracker.on_table()}
        # (No card is held out of the hand mask: a hand landing on a card is what matters; a card
        # put down on its own is not joined to the image border, so it is no hand.)
        hidden = {t.track_id for t in self.tracker.on_table() if t.state is not CardState.VISIBLE}
        colours = self._colours(frame)
        unseen = [t.quad for t in self.tracker.on_table() if "unseen" in t.extra]
        hand_res = self.hands.update(
            frame, timestamp, on_table, [], colours=colours, hidden=hidden, unseen=unseen
        )
        # A hand rising off a card can read as carrying it (the hand moves off, the card does
        # not): a card whose place no hand is on, showing its own look, stayed where it was.
        stayed: list[CardDetection] = []
        for track in self.tracker.tracks:
            if track.track_id in hand_res.carried:
                place = self._origins.get(track.track_id, (track.quad, timestamp))[0]
                if self._stayed(frame, track, place, hand_res):
                    stayed.append(CardDetection(place.copy(), track.confidence))
                    continue
                if track.track_id not in self._origins:
                    self._lifted[track.track_id] = (track.quad.copy(), timestamp)
                    self._lifts.append((track.quad.copy(), timestamp, self.tracker.next_id))
                self._verify.setdefault(track.track_id, (track.quad.copy(), timestamp))
                self._origins.setdefault(track.track_id, (track.quad.copy(), timestamp))
                track.quad = hand_res.carried[track.track_id]
                on_table[track.track_id] = track.quad
        cover = {tid: quad_coverage(hand_res.low_mask, q, hand_res.scale) for tid, q in on_table.items()}
        change_mask = self._to_search(small, hand_res.low_mask, timestamp, w)
        # Where the frame went back to what was accounted for (a hand left), nothing new can be
        # found: the hidden cards there are those that were there before the hand came.
        restored: list[CardDetection] = []
        if change_mask is not None:
            restored, clear = self._revealed(frame, hand_res, cover, change_mask)
            for tid in clear:
                cover[tid] = 0.0
        if change_mask is not None:
            self._add_tentative(change_mask, w)
        rois: list[Box] | None
        if change_mask is not None and cv2.countNonZero(change_mask) == 0:
            rois = []
        else:
            rois = self._rois(change_mask, (h, w))
        detections: list[CardDetection] = []
        if rois is None or rois:
            known = self._unchanged(change_mask, w)
            for box in [None] if rois is None else rois:
                detections += self.find(frame, self.finder_cfg, roi=box, known=known, colours=colours)
        detections = detections + [
            r for r in restored if all(quad_iou(r.quad, d.quad) < 0.5 for d in detections)
        ]
        for r in stayed:
            # (a quad the finder has on the card is taken; one over the card and more, such as
            # the hand rising off it, gives way to the card's place)
            if all(quad_iou(r.quad, d.quad) < self.cfg.stayed_found for d in detections):
                detections = [d for d in detections if quad_iou(r.quad, d.quad) < 0.5] + [r]
        touch_mask = cv2.dilate(hand_res.low_mask.astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
        scale = hand_res.scale

        def touched(quad: np.ndarray) -> bool:
            return quad_coverage(touch_mask, quad, scale) > 0.0

        def bare(quad: np.ndarray) -> bool:
            return not touched(quad) and self._bare(frame, quad, colours)

        hand_255: list[np.ndarray] = []  # the hand mask as 0 / 255, made once a track needs it

        def swept(quad: np.ndarray) -> bool:
            if not hand_255:
                hand_255.append(hand_res.mask.astype(np.uint8) * 255)
            return self._swept(frame, quad, hand_255[0], colours)

        # A card found where a hand seemed to carry one away from is the card it left there.
        seen_before = {t.track_id for t in self.tracker.tracks if t.state is CardState.VISIBLE}
        self._origins = {
            tid: (q, since)
            for tid, (q, since) in self._origins.items()
            if tid not in seen_before and timestamp - since <= self.cfg.verify_s
        }
        origins = {tid: q for tid, (q, _) in self._origins.items()}
        self.tracker.update(
            detections,
            timestamp,
            frame,
            rois,
            hand_cover=cover,
            hand_touch=touched,
            bare=bare,
            origins=origins,
            swept=swept,
        )
        late = self._piles_next(timestamp)
        if self.identify is not None:
            self._identify_new()
        self._gate_prev = small
        hands = self._hands_with_current_tracks(
            tuple(
                HandObservation(h.hand_id, h.seat, (*h.covers, *late.get(h.hand_id, ())), h.bbox)
                for h in hand_res.hands
            )
        )
        # A card seen whole in this frame is under no hand (the hand mask can take in a card a
        # hand just put down next to it): its "covered" is dropped, here and in the hand memory.
        seen = {t.track_id for t in self.tracker.confirmed() if t.state is CardState.VISIBLE}
        hands = tuple(
            HandObservation(h.hand_id, h.seat, tuple(c for c in h.covers if c not in seen), h.bbox)
            for h in hands
        )
        self.hands.set_covers({h.hand_id: h.covers for h in hands}, seen)
        late_events = tuple(
            HandEvent(timestamp, "covered", h.hand_id, h.seat, tid)
            for h in hands
            for tid in late.get(h.hand_id, ())
        )
        events = tuple(
            e for e in hand_res.events + late_events if not (e.kind == "covered" and e.track_id in seen)
        )
        obs = TableObservation(
            frame_index=self._frame_index,
            timestamp=timestamp,
            width=w,
            height=h,
            cards=tuple(t.snapshot() for t in self.tracker.confirmed()),
            hands=hands,
            events=events,
            hand_mask=hand_res.mask,
            extras={
                "ms": (time.perf_counter() - t0) * 1000.0,
                "changed": True,
                "roi": _union(rois),
                "rois": rois,
                "detections": len(detections),
            },
        )
        self._last = obs
        return obs

    def _to_search(
        self, small: np.ndarray, hand: np.ndarray, timestamp: float, width: int
    ) -> np.ndarray | None:
        """The gate's pixels worth a search (None: the whole frame): those unlike what the
        pipeline has accounted for, away from every hand. Under a hand, and in a margin around
        it (its shadow, its blurred edge), no card can be found: those pixels keep what was
        accounted for before the hand came, so a card put down there is searched once the hand
        has left, and the table or cards as they were are not searched again."""
        acc = self._accounted
        zone = None
        if hand.any():
            zone = cv2.resize(hand.astype(np.uint8) * 255, small.shape[::-1], interpolation=cv2.INTER_NEAREST)
            k = 2 * self.cfg.hand_margin + 1
            zone = cv2.dilate(zone, np.ones((k, k), np.uint8))
        if acc is None or acc.shape != small.shape:
            self._accounted = small.copy()
            return None
        diff = cv2.absdiff(small, acc)
        _, todo = cv2.threshold(diff, self.cfg.gate_threshold, 255, cv2.THRESH_BINARY)
        # Specks (a few pixels, faint: noise, the fringe of a hand's soft shadow) are no card.
        n, labels, stats, _ = cv2.connectedComponentsWithStats(todo, connectivity=8)
        if n > 1:
            strong = np.unique(labels[diff >= 2 * self.cfg.gate_threshold])
            keep = (stats[:, cv2.CC_STAT_AREA] >= self.cfg.speck_pixels) | np.isin(np.arange(n), strong)
            keep[0] = False
            todo = np.where(keep[labels], np.uint8(255), np.uint8(0))
        if zone is None:
            self._accounted = small.copy()
            self._deferred = None
        else:
            todo = cv2.bitwise_and(todo, cv2.bitwise_not(zone))
            fringe = self._fringe(todo, zone)
            keep = zone > 0
            if fringe is not None:
                todo[fringe] = 0
                keep |= fringe
            later = self._defer_by_hand(todo, zone, small, acc, timestamp)
            if later is not None:
                todo[later] = 0
                keep |= later
            self._accounted = np.where(keep, acc, small)
        self._add_verified(todo, zone, timestamp, small.shape[1] / width)
        return todo

    def _by_hand(self, todo: np.ndarray, zone: np.ndarray) -> tuple[int, np.ndarray, np.ndarray] | None:
        """The groups of changed pixels (``todo``, of the gate's copy) as ``(n, labels, touching)``:
        8-connected components, and which of them reach within ``fringe_reach`` of a hand's margin
        (``zone``); None when no changed pixel does."""
        if not todo.any():
            return None
        r = self.cfg.fringe_reach
        near = cv2.dilate(zone, np.ones((2 * r + 1, 2 * r + 1), np.uint8)) > 0
        n, labels = cv2.connectedComponents(todo, connectivity=8)
        touching = np.zeros(n, bool)
        touching[np.unique(labels[near & (todo > 0)])] = True
        touching[0] = False
        return (n, labels, touching) if touching.any() else None

    def _fringe(self, todo: np.ndarray, zone: np.ndarray) -> np.ndarray | None:
        """The changed pixels (bool, of the gate's copy) that are a hand's fringe: thin strips by
        its margin (see :attr:`PipelineConfig.fringe_thickness`); None when there are none."""
        groups = self._by_hand(todo, zone)
        if groups is None:
            return None
        n, labels, touching = groups
        dist = cv2.distanceTransform(todo, cv2.DIST_L2, 3)
        thick = np.zeros(n, np.float32)
        np.maximum.at(thick, labels.ravel(), dist.ravel())
        fringe = touching & (thick <= self.cfg.fringe_thickness)
        return fringe[labels] if fringe.any() else None

    def _defer_by_hand(
        self, todo: np.ndarray, zone: np.ndarray, small: np.ndarray, acc: np.ndarray, timestamp: float
    ) -> np.ndarray | None:
        """The changed pixels (bool, of the gate's copy) of a hand's shadow, left for later: each
        group of them that touches a hand's margin (within ``fringe_reach``) and is darker than
        what was accounted for nearly all over (``shadow_darker``), unless one of its pixels has
        waited ``hand_defer_s`` already. Notes when each pixel was first left."""
        groups = self._by_hand(todo, zone) if self.cfg.hand_defer_s > 0.0 else None
        if groups is None:
            self._deferred = None
            return None
        n, labels, touching = groups
        area = np.bincount(labels.ravel(), minlength=n)
        darker = np.bincount(labels[small < acc], minlength=n)
        shadow = touching & (darker >= self.cfg.shadow_darker * np.maximum(area, 1))
        since = self._deferred
        if since is None or since.shape != todo.shape:
            since = np.full(todo.shape, np.nan)
        first = np.full(n, np.inf)
        waited = ~np.isnan(since)
        np.minimum.at(first, labels[waited], since[waited])
        later = shadow & (timestamp - first < self.cfg.hand_defer_s)
        if not later.any():
            self._deferred = None
            return None
        mask = later[labels]
        self._deferred = np.where(mask, np.where(np.isnan(since), timestamp, since), np.nan)
        return mask

    def _add_verified(self, todo: np.ndarray, zone: np.ndarray | None, timestamp: float, f: float) -> None:
        """Adds to ``todo`` (in place) the places cards were carried away from that no hand is near
        any more: what lies there now is searched (the card the hand only passed over)."""
        for tid, (quad, since) in list(self._verify.items()):
            if timestamp - since > self.cfg.verify_s:
                del self._verify[tid]
                continue
            q = np.round(quad * f).astype(np.int32)
            if zone is not None and quad_coverage(zone > 0, quad, f) > 0.0:
                continue
            cv2.fillConvexPoly(todo, q, 255)
            del self._verify[tid]

    def _add_tentative(self, todo: np.ndarray, width: int) -> None:
        """Adds to ``todo`` (the gate's pixels to search, in place) the place of every tentative
        track (a card first found in the last frame on a card already tracked): it is confirmed or
        dropped by the next search of its place, which is this frame's, whatever changed (what
        changed next may lie elsewhere, and nothing may change there again)."""
        f = todo.shape[1] / width
        for t in self.tracker.tracks:
            if t.tentative:
                cv2.fillConvexPoly(todo, np.round(t.quad * f).astype(np.int32), 255)

    def _piles_next(self, timestamp: float) -> dict[int, tuple[int, ...]]:
        """Piles: a place a hand carried a card off, where a card first found after it lay (the
        pile's next card), is a pile. When a hand carries a card off a pile again, the pile's next
        card lies under the hand: as soon as the carried card has left its place, a covered track
        (:meth:`CardTracker.add_unseen_hidden`) is added there, covered by the hand (the finder
        cannot find a card a hand hides; the hand covers it all the same). A guess not found there
        once in sight was the pile's last card: the place is no pile any more. Returns hand id ->
        the tracks added under it."""
        tracks = {t.track_id: t for t in self.tracker.tracks}
        iou = self.cfg.pile_iou
        for tid, quad in list(self._guesses.items()):
            t = tracks.get(tid)
            if t is None or t.state is CardState.GONE:
                self._piles = [p for p in self._piles if quad_iou(p, quad) < iou]
                del self._guesses[tid]
            elif "unseen" not in t.extra:
                del self._guesses[tid]
        lifts = []
        for quad, since, first in self._lifts:
            if timestamp - since > self.cfg.verify_s:
                continue
            if any(
                t.track_id >= first and t.state is CardState.VISIBLE and quad_iou(t.quad, quad) >= iou
                for t in self.tracker.confirmed()
            ):
                self._piles = [p for p in self._piles if quad_iou(p, quad) < iou] + [quad]
                log.debug("a pile at %s", quad.mean(axis=0).round().tolist())
                continue
            lifts.append((quad, since, first))
        self._lifts = lifts
        out: dict[int, tuple[int, ...]] = {}
        for tid, (quad, since) in list(self._lifted.items()):
            carried = tracks.get(tid)
            if (
                carried is not None
                and carried.state is not CardState.VISIBLE
                and quad_iou(carried.quad, quad) >= iou
            ):
                if timestamp - since > self.cfg.lift_wait_s:
                    del self._lifted[tid]
                continue  # the carried card has not left its place yet
            del self._lifted[tid]
            over = self.hands.hand_over(quad)
            if (
                over is None
                or not any(quad_iou(p, quad) >= iou for p in self._piles)
                or any(
                    quad_iou(t.quad, quad) >= iou
                    for t in self.tracker.tracks
                    if t.state is not CardState.GONE and t.track_id != tid
                )
            ):
                continue
            tr = self.tracker.add_unseen_hidden(quad, timestamp)
            self._guesses[tr.track_id] = quad
            out[over[0]] = (*out.get(over[0], ()), tr.track_id)
            log.debug("pile's next card %d under hand %d (card %d carried off)", tr.track_id, over[0], tid)
        return out

    def _revealed(
        self, frame: np.ndarray, hand_res: HandResult, cover: dict[int, float], search: np.ndarray
    ) -> tuple[list[CardDetection], set[int]]:
        """Cards in sight where they were, found without a search, where nothing is to search
        (``search``: the gate's pixels unlike what was accounted for) and the card's look is the
        one it had (a card carried away leaves the table, or the next card of a pile, in its
        place; a hand over a card hides its look). Returns detections of hidden cards no hand is
        on any more, and the ids of visible cards that the hand mask only reaches (its shadow,
        its edge)."""
        f = search.shape[1] / frame.shape[1]
        back: list[CardDetection] = []
        clear: set[int] = set()
        for t in self.tracker.confirmed():
            under = cover.get(t.track_id, 0.0) > 0.0
            if (
                t.state is CardState.GONE
                or t.signature is None
                or t.track_id in hand_res.carried
                or (t.state is CardState.VISIBLE) != under
            ):
                continue
            if quad_coverage(search > 0, t.quad, f) > self.cfg.revealed_novel:
                continue
            look = signature(rectify(frame, t.quad))
            dist = signature_distance(look, t.signature)
            tcfg = self.tracker.cfg
            if dist > tcfg.look_threshold or dist > tcfg.flat_ratio * signature_energy(t.signature):
                continue
            if t.state is CardState.VISIBLE:
                clear.add(t.track_id)
            else:
                back.append(CardDetection(t.quad.copy(), t.confidence))
        return back, clear

    def _stayed(self, frame: np.ndarray, track: Track, place: np.ndarray, hand_res: HandResult) -> bool:
        """Whether a hidden card the hand tracker says a hand carries off lies at ``place``, where
        it was before, in sight: no hand there, and the place shows the card's own look."""
        if track.signature is None or track.state is not CardState.COVERED:
            return False
        if quad_coverage(hand_res.low_mask, place, hand_res.scale) > 0.0:
            return False
        dist = signature_distance(signature(rectify(frame, place)), track.signature)
        tcfg = self.tracker.cfg
        return dist <= tcfg.look_threshold and dist <= tcfg.flat_ratio * signature_energy(track.signature)

    def _bare(self, frame: np.ndarray, quad: np.ndarray, colours: np.ndarray) -> bool:
        """Whether the quad lies in the frame and shows the table's own colours nearly all over
        (no card there: a card's face and rim are not the table's colours)."""
        h, w = frame.shape[:2]
        q = np.asarray(quad)
        if (q[:, 0] < 0).any() or (q[:, 1] < 0).any() or (q[:, 0] > w - 1).any() or (q[:, 1] > h - 1).any():
            return False
        crop = rectify(frame, q, (32, 32))
        return (
            cv2.countNonZero(table_model_mask(crop, colours)) <= self.cfg.bare_not_table * crop[..., 0].size
        )

    def _swept(self, frame: np.ndarray, quad: np.ndarray, hand: np.ndarray, colours: np.ndarray) -> bool:
        """Whether a place a hand lies partly over shows, where it is in sight, the bare table
        nearly all over (``hand``: the frame's hand mask, uint8 0 / 255): the card that lay there
        is not there any more (a hand swept it away; a card under a hand shows its face or rim
        beside it)."""
        h, w = frame.shape[:2]
        q = np.asarray(quad)
        if (q[:, 0] < 0).any() or (q[:, 1] < 0).any() or (q[:, 0] > w - 1).any() or (q[:, 1] > h - 1).any():
            return False
        size = (32, 32)
        under = rectify(hand, q, size)
        under = cv2.dilate(under, np.ones((5, 5), np.uint8))
        seen = under == 0
        n = int(np.count_nonzero(seen))
        if n < self.cfg.swept_in_sight * seen.size:
            return False
        not_table = table_model_mask(rectify(frame, q, size), colours) > 0
        return int(np.count_nonzero(not_table & seen)) <= self.cfg.bare_not_table * n

    def _sweep_grid(self, sweep: int) -> tuple[int, int]:
        """Tiles across and down of the ``sweep``-th pass: every other pass one more each way
        (tiles of another size and place: the finder can miss a card in a region of one size
        and find it in the next)."""
        cols, rows = self.cfg.sweep_grid
        return (cols, rows) if sweep % 2 == 0 else (cols + 1, rows + 1)

    def _sweep_box(self, sweep: int, index: int, shape: tuple[int, int]) -> Box:
        """Tile ``index`` of the ``sweep``-th pass of the background sweep, grown by a card's
        diagonal, in the frame."""
        h, w = shape
        cols, rows = self._sweep_grid(sweep)
        col, row = index % cols, (index // cols) % rows
        diag = [quad_diagonal(t.quad) for t in self.tracker.on_table()]
        margin = float(np.median(diag)) if diag else 0.15 * max(h, w)
        x0 = max(0, int(col * w / cols - margin))
        y0 = max(0, int(row * h / rows - margin))
        x1 = min(w, int(np.ceil((col + 1) * w / cols + margin)))
        y1 = min(h, int(np.ceil((row + 1) * h / rows + margin)))
        return (x0, y0, x1 - x0, y1 - y0)

    def _sweep(self, frame: np.ndarray, timestamp: float) -> int:
        """On one still frame in ``sweep_every``, the next tile of the background sweep is
        searched; cards found there on no track, away from every hand, become tracks (a card
        the first search missed, or lying where nothing has changed since, is not left unseen
        for good). Other tracks are left as they are. Returns how many tracks it added."""
        if self.cfg.sweep_every <= 0 or self._last is None:
            return 0
        self._still += 1
        if self._still % self.cfg.sweep_every:
            return 0
        if self._sweep_later:
            self._sweep_due = (frame, timestamp)
            return 0
        return self._search_tile(frame, timestamp)

    def background(self) -> Callable[[], int]:
        """Takes the background sweep out of :meth:`process` (a tile's search takes 10-200 ms:
        the still frame it fell on, such as the one a slap is ruled on once hands lie still,
        waited for it): from now on a still frame only notes that a tile is due, and the returned
        :meth:`idle` searches it, to be called once the frame's observation has been used, when
        no frame waits. The live session calls it; offline callers that never do keep the sweep
        in :meth:`process`."""
        self._sweep_later = True
        return self.idle

    def idle(self) -> int:
        """The sweep tile a still frame left for later (see :meth:`background`), on that frame;
        dropped when a frame that changed came since. The cards it adds are in the next
        observation. Returns how many tracks it added."""
        due, self._sweep_due = self._sweep_due, None
        if due is None or self._forget or self._last is None:
            return 0
        added = self._search_tile(*due)
        self._refresh = self._refresh or added > 0
        return added

    def _search_tile(self, frame: np.ndarray, timestamp: float) -> int:
        """Searches the sweep's next tile; cards found there on no track, away from every hand,
        become tracks. Returns how many."""
        box = self._sweep_box(self._sweep_pass, self._sweep_tile, frame.shape[:2])
        cols, rows = self._sweep_grid(self._sweep_pass)
        self._sweep_tile += 1
        if self._sweep_tile >= cols * rows:
            self._sweep_tile = 0
            self._sweep_pass += 1
        colours = self._colours(frame)
        found = self.find(frame, self.finder_cfg, roi=box, known=[], colours=colours)
        mask = self._last.hand_mask
        if mask is not None and mask.any():
            f = mask.shape[1] / frame.shape[1]
            found = [d for d in found if quad_coverage(mask > 0, d.quad, f) == 0.0]
        added = self.tracker.add_unseen(found, timestamp, frame)
        if added:
            log.info("background sweep of %s found %d card(s) no search had", box, len(added))
            if self.identify is not None:
                self._identify_new()
        return len(added)

    def _colours(self, frame: np.ndarray) -> np.ndarray:
        """The table's colours, learned from the whole frame's border every ``colours_every``
        processed frames (the table does not change; a searched region's own border would be
        the wrong place to learn it)."""
        if self._table_colours is None or self._since_colours >= self.cfg.colours_every:
            small = cv2.resize(frame, (320, max(1, round(frame.shape[0] * 320 / frame.shape[1]))))
            self._table_colours = table_colours(small)
            self._since_colours = 0
        self._since_colours += 1
        return self._table_colours

    def _unchanged(self, change_mask: np.ndarray | None, width: int) -> list[CardDetection]:
        """Visible cards none of whose pixels changed since the last processed frame."""
        if change_mask is None:
            return []
        f = change_mask.shape[1] / width
        out = []
        for t in self.tracker.tracks:
            if t.state is not CardState.VISIBLE:
                continue
            x, y, bw, bh = cv2.boundingRect(np.round(t.quad * f).astype(np.int32))
            x0, y0 = max(0, x - 1), max(0, y - 1)
            if cv2.countNonZero(change_mask[y0 : y + bh + 1, x0 : x + bw + 1]) == 0:
                out.append(CardDetection(t.quad, t.confidence))
        return out

    def _hands_with_current_tracks(self, hands: tuple[HandObservation, ...]) -> tuple[HandObservation, ...]:
        live = {t.track_id for t in self.tracker.tracks if t.state is not CardState.GONE}
        return tuple(
            HandObservation(h.hand_id, h.seat, tuple(c for c in h.covers if c in live), h.bbox) for h in hands
        )

    def _identify_new(self) -> None:
        assert self.identify is not None
        for t in self.tracker.confirmed():
            if t.identity is None and t.last_clean_view is not None and not t.extra.get("identified"):
                identity, conf = self.identify(t.last_clean_view)
                t.identity, t.identity_confidence = identity, float(conf)
                t.extra["identified"] = True
