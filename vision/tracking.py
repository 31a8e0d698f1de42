"""Card tracks and the table memory: stable ids, last clean views, visible / covered / gone.

Each frame's detections are matched to the tracks greedily, first by quad IoU, then (for cards
that moved further than their own size allows an overlap) by their look (the last clean view's
:func:`signature`; among tracks that look alike, twins, the nearest wins: a card carried under a
hand is where the hand took it), then by centre distance (not for a visible card still showing
its look where it lay: it did not move); what is left
becomes a new track (a *tentative* one, kept out of the observation until it is found again,
when it lies on a card already tracked, is much smaller than the cards on the table, or lies
near a card out of sight: a finder's flicker is no new card, and a card sliding out of a stack
shows its look once it is clear). A track not seen in
an examined region is *covered* (under a hand, or another object) and keeps its last quad and
clean view; after ``patience_s`` out of sight without a hand on it (at once when its place shows
the bare table), it is *gone*, and after
``forget_s`` more it is dropped. A track left on a found card's place with that card's look is
the same card twice and is dropped. Tracks outside the region a frame changed in are left as
they are: a still table costs nothing here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.cards.finder import CardDetection
from vision.cards.geometry import quad_centre, quad_diagonal, quad_iou
from vision.cards.rectify import rectify
from vision.observation import CardState, TrackedCard

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TrackerConfig:
    """Thresholds of the card tracker."""

    iou_match: float = 0.3
    """Detections and tracks overlapping at least this much are the same card."""
    move_match: float = 1.5
    """A card that moved keeps its id when its centre moved at most this many card diagonals."""
    patience_s: float = 1.0
    """A card missing (no hand on it) this long is gone."""
    forget_s: float = 5.0
    """A gone card is dropped from the observation after this long."""
    clean_margin_px: float = 4.0
    """A clean view needs the card this far inside the image."""
    hidden_fraction: float = 0.2
    """A card this much under a hand cannot be found: when searched and not found, it is covered."""
    unsearched_hidden: float = 0.5
    """A card outside the searched region this much under a hand is covered (one less under a
    hand, not searched, is as it was: a hand's edge or shadow over a corner hides no card)."""
    still_px: float = 1.5
    """A visible card found again with no corner this far off did not move (no look check)."""
    look_reach: float = 4.0
    """A visible card that moved is looked for this many card diagonals away by its look."""
    look_threshold: float = 10.0
    """Largest mean Lab difference of two looks (:func:`signature`) of the same card."""
    in_place_slack: float = 1.3
    """A hidden card found again in place (IoU >= 0.7) may differ this many times more (fingers
    still over an edge)."""
    tentative_overlap: float = 0.3
    """A new track on a known card's place (IoU at least this with a track on the table) is
    tentative until found again in the next examined frame (a finder's flicker is no card)."""
    tentative_searches: int = 3
    """A tentative track not found again in this many examined frames is a flicker, dropped (its
    place is searched in each: a card whose pale border barely shows on a pale cloth is found in
    some frames and not in others, and once nothing changes near it, no search comes again)."""
    twin_margin: float = 2.0
    """Looks of a detection this close to its best match are alike (twins): the nearest track of
    those takes it."""
    flat_ratio: float = 0.6
    """A look matches a card's only when it is nearer than this fraction of the card's distance from
    a blank look (:func:`signature_energy`): a low-contrast card's look is near that of anything
    plain, a hand over it included."""
    other_look: float = 2.0
    """A detection over a visible card whose look is this many ``look_threshold`` from the card's
    is likely another card (one it lay on, uncovered as it was lifted): a detection near the card's
    place takes the card's track first, whatever its look (it moved off, blurred)."""
    small_area: float = 0.5
    """A new detection of less than this fraction of the median area of the cards on the table is
    tentative too (a sliver over a card's edge and a hand is no card; a card is found again)."""
    duplicate_iou: float = 0.7
    """A track lying this much over a track found in the frame, with the same look and not found
    itself, is the same card twice: it is dropped."""
    pace_gap_s: float = 0.35
    """A card found in two examined frames at most this far apart has the pace between them (its
    centre's velocity); a visible card seen moving overlaps a detection as much as the larger of
    its overlaps where it was and where its pace takes it (see :meth:`Track.ahead`)."""
    pace_reach_s: float = 0.35
    """A card's pace is followed at most this long after it was last seen."""
    hidden_near: float = 1.5
    """A new detection (one no track took) within this many card diagonals of a card out of sight
    whose look is known is tentative too: the next examined frame tells whether it is that card
    (its look clear) or a new one."""
    pace_overlap: float = 0.5
    """A detection overlapping this much where a visible card's pace takes it (more than where
    the card was) is matched to it before any card lying there (the moving card lies on top)."""
    touched_holds: int = 10
    """A tentative track on the place of a card out of sight (IoU at least ``tentative_overlap``)
    that a hand still touches is not confirmed by a detection while the hand touches it, for up to
    this many examined frames: it holds the detection, still tentative. The fingers over a card a
    hand is leaving spoil its look, so the card out of sight fails its look test, and a track of
    the fingered card would be confirmed in its place (a new id for the same card, the old one
    left covered under it); once the hand is off, the look tells the card that lay there (it
    takes the detection, and the tentative track goes) from a new one put down on it."""


@dataclass
class Track:
    """A card's mutable track (the tracker's own; observations carry frozen copies)."""

    track_id: int
    quad: np.ndarray
    confidence: float
    state: CardState = CardState.VISIBLE
    last_seen: float = 0.0
    last_clean_view: np.ndarray | None = None
    last_clean_time: float | None = None
    identity: str | None = None
    identity_confidence: float = 0.0
    hits: int = 1
    signature: np.ndarray | None = None
    """A small blurred Lab thumbnail of the last clean view (for re-finding a moved card)."""
    tentative: bool = False
    """Not confirmed yet: kept out of the observation until found again (see
    :attr:`TrackerConfig.tentative_overlap`)."""
    extra: dict[str, object] = field(default_factory=dict)
    pace: np.ndarray | None = None
    """Pixels per second its centre moved between the last two examined frames it was found in
    (None: not found in two such frames, or still)."""

    def ahead(self, timestamp: float, reach_s: float) -> np.ndarray:
        """How far (x, y pixels) its pace takes it from its quad by ``timestamp`` (at most
        ``reach_s`` after it was last seen); zero when it has no pace."""
        if self.pace is None:
            return np.zeros(2, np.float32)
        return (self.pace * min(max(0.0, timestamp - self.last_seen), reach_s)).astype(np.float32)

    def snapshot(self) -> TrackedCard:
        return TrackedCard(
            track_id=self.track_id,
            quad=self.quad.copy(),
            state=self.state,
            confidence=self.confidence,
            last_clean_view=self.last_clean_view,
            last_clean_time=self.last_clean_time,
            identity=self.identity,
            identity_confidence=self.identity_confidence,
        )


SIG_SIZE = 16
SIG_INSET = 0.12
"""Each side of the crop left out of the look (where a quad a pixel off shows the table)."""
QUICK_SIZE = 64
"""Side of the small rectified crop a quick look (a card that did not move) is taken from."""


def signature(crop: np.ndarray) -> np.ndarray:
    """A card's look: the inside of its rectified crop as a 16 x 16 blurred Lab thumbnail (float32),
    less its mean colour (the light over one part of the table is not the card's look)."""
    h, w = crop.shape[:2]
    dy, dx = round(SIG_INSET * h), round(SIG_INSET * w)
    inner = crop[dy : h - dy, dx : w - dx] if h - 2 * dy >= 4 and w - 2 * dx >= 4 else crop
    small = cv2.resize(inner, (SIG_SIZE, SIG_SIZE), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    return lab - lab.reshape(-1, 3).mean(axis=0)


def signature_energy(sig: np.ndarray) -> float:
    """A look's distance from a blank one (:func:`signature_distance` to a plain surface)."""
    return float(np.abs(sig).mean())


def signature_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Mean absolute Lab difference, the smallest over the card's turns (a card may be put back
    rotated)."""
    return min(float(np.abs(np.rot90(a, k) - b).mean()) for k in range(4))


Region = tuple[int, int, int, int] | list[tuple[int, int, int, int]] | None
"""Where a frame was searched: one box (x, y, width, height), several, or None (the whole frame)."""


def _inside_roi(quad: np.ndarray, roi: Region) -> bool:
    """Whether the quad lies wholly inside the searched region (inside one of its boxes)."""
    if roi is None:
        return True
    if isinstance(roi, list):
        return any(_inside_roi(quad, box) for box in roi)
    x, y, w, h = roi
    q = np.asarray(quad)
    return bool(
        (q[:, 0] >= x).all()
        and (q[:, 0] <= x + w).all()
        and (q[:, 1] >= y).all()
        and (q[:, 1] <= y + h).all()
    )


class CardTracker:
    """Keeps card tracks across frames."""

    def __init__(self, cfg: TrackerConfig | None = None) -> None:
        self.cfg = cfg or TrackerConfig()
        self.tracks: list[Track] = []
        self._next_id = 1

    def reset(self) -> None:
        self.tracks = []
        self._next_id = 1

    @property
    def next_id(self) -> int:
        """The id the next new track will get (every track made after now has one at least this)."""
        return self._next_id

    def on_table(self) -> list[Track]:
        """Confirmed tracks visible or covered (not gone)."""
        return [t for t in self.tracks if t.state is not CardState.GONE and not t.tentative]

    def confirmed(self) -> list[Track]:
        """Every track but the tentative ones (those the observation shows)."""
        return [t for t in self.tracks if not t.tentative]

    def update(
        self,
        detections: list[CardDetection],
        timestamp: float,
        frame: np.ndarray | None = None,
        roi: Region = None,
        hand_cover: dict[int, float] | None = None,
        hand_touch: Callable[[np.ndarray], bool] | None = None,
        bare: Callable[[np.ndarray], bool] | None = None,
        origins: dict[int, np.ndarray] | None = None,
        swept: Callable[[np.ndarray], bool] | None = None,
    ) -> list[Track]:
        """Match ``detections`` (found in ``roi``: a box, a list of boxes, or the whole frame) to
        the tracks.

        ``hand_cover``: track id -> fraction under a hand (from the previous hand mask);
        ``hand_touch``: quad -> whether a hand touches it (no clean view then);
        ``bare``: quad -> whether the place is in sight and shows the bare table (a card missing
        there is gone at once, not after its patience: it was taken away, or slid off unseen);
        ``origins``: track id -> where a hidden card lay before a hand seemed to carry it off (a
        card found there with its look is that card, left there: the hand rose off it);
        ``swept``: quad -> whether a hand lies over part of the place and the rest of it, in
        sight, shows the bare table (the card is not there: the hand swept it away unseen).
        Returns the tracks that changed (new, moved, state changed)."""
        cfg = self.cfg
        hand_cover = hand_cover or {}
        # Cards in the searched region, and cards a hand is on (hidden: no search finds them).
        examined = [
            t
            for t in self.tracks
            if t.state is not CardState.GONE
            and (_inside_roi(t.quad, roi) or hand_cover.get(t.track_id, 0.0) >= cfg.unsearched_hidden)
        ]
        # Gone tracks may come back (a card put back where it was).
        examined += [t for t in self.tracks if t.state is CardState.GONE and _inside_roi(t.quad, roi)]
        in_examined = {t.track_id for t in examined}
        # Cards that were hidden may have been taken anywhere (a slap carries the card away).
        examined += [
            t for t in self.tracks if t.state is not CardState.VISIBLE and t.track_id not in in_examined
        ]
        in_region = {id(t) for t in examined}
        sig_cache: dict[int, np.ndarray | None] = {}

        def det_sig(i: int) -> np.ndarray | None:
            if i not in sig_cache:
                sig_cache[i] = None if frame is None else signature(rectify(frame, detections[i].quad))
            return sig_cache[i]

        still: set[tuple[int, int]] = set()  # (detection, track id): in place, plainly another look
        place_cache: dict[tuple[int, bool], np.ndarray] = {}
        look_dist: dict[tuple[int, int], float] = {}  # (detection, track id) -> look distance

        def place_sig(tr: Track, at_origin: bool) -> np.ndarray:
            key = (tr.track_id, at_origin)
            if key not in place_cache:
                assert frame is not None
                place_cache[key] = signature(rectify(frame, origins[tr.track_id] if at_origin else tr.quad))
            return place_cache[key]

        def same_look(
            i: int, tr: Track, slack: float = 1.0, visible_too: bool = True, lay: bool | None = None
        ) -> bool:
            """A track must look like the detection to take it (a card that did not move at all
            is the same card: a stack's new top card is not)."""
            if tr.signature is None or (tr.state is CardState.VISIBLE and not visible_too):
                return True
            if tr.state is CardState.VISIBLE and np.abs(detections[i].quad - tr.quad).max() <= cfg.still_px:
                # Not moved: the same card, unless a quick look shows plainly another (the next
                # card of a stack whose top card left, the stack's outline unchanged).
                if frame is None:
                    return True
                quick = signature(rectify(frame, detections[i].quad, (QUICK_SIZE, QUICK_SIZE)))
                if signature_distance(quick, tr.signature) <= cfg.other_look * cfg.look_threshold:
                    return True
                still.add((i, tr.track_id))
            sig = det_sig(i)
            if sig is None:
                return True
            dist = signature_distance(sig, tr.signature)
            look_dist[i, tr.track_id] = dist
            log.debug("track %d look distance %.1f", tr.track_id, dist)
            if dist > cfg.look_threshold * slack and lay is not None and tr.state is not CardState.VISIBLE:
                # A hidden card found where it lay (``lay``: at the place a hand seemed to carry
                # it from, else at its quad): its look is also taken there (the card did not
                # move; a finder's quad a few pixels off shows a shifted look).
                dist = min(dist, signature_distance(place_sig(tr, lay), tr.signature))
                log.debug("track %d look distance where it lay %.1f", tr.track_id, dist)
            return dist <= cfg.look_threshold * slack

        there: dict[int, bool] = {}

        def still_there(tr: Track) -> bool:
            """Whether a visible card still shows its look where it was (it did not move: a
            detection near it, not on it, is something else, such as a quad half over a hand)."""
            if tr.state is not CardState.VISIBLE or tr.signature is None or frame is None:
                return False
            if tr.track_id not in there:
                dist = signature_distance(signature(rectify(frame, tr.quad)), tr.signature)
                there[tr.track_id] = dist <= cfg.look_threshold and dist <= cfg.flat_ratio * signature_energy(
                    tr.signature
                )
            return there[tr.track_id]

        origins = origins or {}
        # The quads of the cards in sight before this frame (two seen apart are two cards).
        seen_apart = {id(t): t.quad for t in examined if t.state is CardState.VISIBLE and not t.tentative}
        # Where each visible card seen moving is headed: its pace since it was last seen (a card
        # sliding fast overlaps where it was less than where its pace took it).
        ahead = {
            j: tr.quad + tr.ahead(timestamp, cfg.pace_reach_s)
            for j, tr in enumerate(examined)
            if tr.pace is not None and tr.state is CardState.VISIBLE
        }
        pairs = []
        lies: dict[tuple[int, int], bool] = {}  # (det, track) found in place -> at the track's origin
        for i, det in enumerate(detections):
            for j, tr in enumerate(examined):
                iou = quad_iou(det.quad, tr.quad)
                on_path = False
                if j in ahead:  # a card seen moving is also where its pace took it
                    on_it = quad_iou(det.quad, ahead[j])
                    # A card sliding onto another's place lies on it: where its pace takes it, it
                    # comes first (the card under it may look just like it: a Twin It pair).
                    on_path = on_it >= cfg.pace_overlap and on_it >= iou
                    iou = max(iou, on_it)
                origin = origins.get(tr.track_id)
                if iou >= 0.7:
                    lies[i, j] = False
                if origin is not None and tr.state is not CardState.VISIBLE:
                    at_origin = quad_iou(det.quad, origin)
                    if at_origin >= 0.7 and at_origin > iou:
                        lies[i, j] = True
                    iou = max(iou, at_origin)
                if iou >= cfg.iou_match:
                    # (A card only guessed under a hand, never seen, comes after those seen: a
                    # card found there with a known card's look is that one.)
                    known = tr.state is not CardState.GONE and not tr.tentative and "unseen" not in tr.extra
                    pairs.append((on_path, iou + (1.0 if known else 0.0), i, j))
        pairs.sort(reverse=True)
        det_to_tr: dict[int, int] = {}
        used: set[int] = set()
        unlike: list[tuple[int, int]] = []
        unlike_far: list[tuple[int, int]] = []  # the same, the look plainly another card's
        # A tentative track (a card first found in the last frame) takes what lies on it only
        # after the tracks found by their look (below): a card hidden long enough to be gone
        # (in a stack) may first show too blurred or half covered to know it.
        later = [(i, j) for _, _, i, j in pairs if examined[j].tentative]
        for _, score, i, j in pairs:
            if i in det_to_tr or j in used or examined[j].tentative:
                continue
            # In place (a hand lifted off it, fingers may still hide a corner): more slack.
            lay = lies.get((i, j)) if score >= 1.7 else None
            if not same_look(i, examined[j], cfg.in_place_slack if score >= 1.7 else 1.0, lay=lay):
                tr = examined[j]
                if tr.state is CardState.VISIBLE:
                    plain = look_dist[i, tr.track_id] > cfg.other_look * cfg.look_threshold
                    (unlike_far if plain else unlike).append((i, j))
                continue
            det_to_tr[i] = j
            used.add(j)
        # Moved cards, by their look first: every unmatched (detection, track) pair whose looks
        # agree (a hidden track anywhere; a visible one within reach), best agreement first.
        look_pairs = []
        for i, det in enumerate(detections):
            if i in det_to_tr:
                continue
            sig = det_sig(i)
            if sig is None:
                continue
            c = quad_centre(det.quad)
            reach = cfg.look_reach * quad_diagonal(det.quad)
            for j, tr in enumerate(examined):
                if j in used or tr.signature is None:
                    continue
                apart = float(np.linalg.norm(quad_centre(tr.quad) - c))
                if tr.state is CardState.VISIBLE and apart > reach:
                    continue
                dist = signature_distance(sig, tr.signature)
                # Where the card was last known (put down where a hand carried it): more slack.
                near = apart <= quad_diagonal(det.quad)
                if dist <= cfg.look_threshold * (cfg.in_place_slack if near else 1.0):
                    look_pairs.append((dist, apart, i, j))
        # Looks within ``twin_margin`` of a detection's best are alike (a Twin It pair, the same
        # card twice): among them the track nearest the detection takes it (a card carried under
        # a hand is where the hand took it; its twin is where it was left).
        best = {i: min(p[0] for p in look_pairs if p[2] == i) for i in {p[2] for p in look_pairs}}
        look_pairs.sort(key=lambda p: (best[p[2]] if p[0] <= best[p[2]] + cfg.twin_margin else p[0], p[1]))
        for _, _, i, j in look_pairs:
            if i in det_to_tr or j in used:
                continue
            det_to_tr[i] = j
            used.add(j)
        held: dict[int, int] = {}  # detection -> tentative track (index) holding it unconfirmed
        for i, j in later:
            if (
                i in det_to_tr
                or i in held
                or j in used
                or j in held.values()
                or not same_look(i, examined[j])
            ):
                continue
            holds = int(examined[j].extra.get("held", 0))  # type: ignore[call-overload]
            if holds < cfg.touched_holds and self._on_hidden_touched(
                detections[i].quad, examined, used, hand_touch
            ):
                held[i] = j
                continue
            det_to_tr[i] = j
            used.add(j)
        # A visible card overlapping a detection that does not look like it, and seen nowhere
        # else, is still that card (a quad a little off, a glare); when it was seen elsewhere by
        # its look, this is another card (a stack's new top card). (When the detection's look is
        # plainly another card's, see below.)
        for i, j in unlike:
            if i not in det_to_tr and i not in held and j not in used:
                det_to_tr[i] = j
                used.add(j)
        # Then the nearest centre among the live tracks within reach, not under a hand (a card
        # under a hand is not what is found elsewhere); not for a detection lying on a card left
        # unmatched (a quad a little off, whose look does not agree: not another card moved there).
        for i, det in enumerate(detections):
            if i in det_to_tr or i in held:
                continue
            if any(
                j not in used and tr.state is not CardState.GONE and quad_iou(det.quad, tr.quad) >= 0.5
                for j, tr in enumerate(examined)
            ):
                continue
            c = quad_centre(det.quad)
            best_j, best_d = None, cfg.move_match * quad_diagonal(det.quad)
            for j, tr in enumerate(examined):
                if (
                    j in used
                    or tr.state is CardState.GONE
                    or hand_cover.get(tr.track_id, 0.0) >= cfg.hidden_fraction
                    or not same_look(i, tr, visible_too=False)
                    or still_there(tr)
                ):
                    continue
                dist = float(np.linalg.norm(quad_centre(tr.quad) - c))
                if dist < best_d:
                    best_j, best_d = j, dist
            if best_j is not None:
                det_to_tr[i] = best_j
                used.add(best_j)
        # A visible card overlapping a detection whose look is plainly another card's
        # (``other_look``) is still that card only when no detection near it took it above by
        # its centre (the card was lifted off the one under it, now uncovered, and moved off
        # blurred).
        # Not when the card did not move at all: that is the next card of a stack (see
        # ``same_look``), the card that was on top having left it unseen.
        for i, j in unlike_far:
            if (
                i not in det_to_tr
                and i not in held
                and j not in used
                and (i, examined[j].track_id) not in still
            ):
                det_to_tr[i] = j
                used.add(j)

        changed: list[Track] = []
        placed = [t for t in self.tracks if t.state is not CardState.GONE and not t.tentative]
        areas = [float(cv2.contourArea(t.quad)) for t in placed]
        least = cfg.small_area * float(np.median(areas)) if len(areas) >= 3 else 0.0
        for i, det in enumerate(detections):
            view = False  # a clean view worth taking
            if i in held:
                # (a tentative track under a hand's fingers follows the detection, unconfirmed)
                tr = examined[held[i]]
                tr.quad = det.quad.astype(np.float32)
                tr.confidence = det.confidence
                tr.last_seen = timestamp
                tr.extra["held"] = int(tr.extra.get("held", 0)) + 1  # type: ignore[call-overload]
                continue
            if i in det_to_tr:
                tr = examined[det_to_tr[i]]
                moved = quad_iou(det.quad, tr.quad) < 0.95
                was = tr.state
                # A card seen moving since the last frame is blurred (carried, slid): its clean
                # view waits until it is found still again.
                if moved and was is CardState.VISIBLE:
                    tr.extra["moving"] = True
                else:
                    settled = bool(tr.extra.pop("moving", False))
                    view = settled or moved or was is not CardState.VISIBLE or tr.tentative
                self._set_pace(tr, det.quad, timestamp, was)
                tr.quad = det.quad.astype(np.float32)
                tr.confidence = det.confidence
                tr.state = CardState.VISIBLE
                tr.extra.pop("unseen", None)
                tr.last_seen = timestamp
                tr.hits += 1
                if moved or was is not CardState.VISIBLE or tr.tentative:
                    changed.append(tr)
                tr.tentative = False
                tr.extra.pop("missed", None)
            else:
                # (Or found with a hand still on it where a hand seemed to carry a card off: the
                # look under the fingers may be that card's, left there, as the next frame tells.)
                tentative = (
                    any(quad_iou(det.quad, t.quad) >= cfg.tentative_overlap for t in placed)
                    or float(cv2.contourArea(det.quad.astype(np.float32))) < least
                ) or (
                    hand_touch is not None
                    and hand_touch(det.quad)
                    and any(quad_iou(det.quad, q) >= cfg.tentative_overlap for q in origins.values())
                ) or self._near_hidden(det.quad)
                tr = Track(
                    self._next_id,
                    det.quad.astype(np.float32),
                    det.confidence,
                    last_seen=timestamp,
                    tentative=tentative,
                )
                self._next_id += 1
                self.tracks.append(tr)
                changed.append(tr)
                view = True
            if view or tr.last_clean_view is None:
                self._take_clean_view(tr, frame, timestamp, bool(hand_touch and hand_touch(tr.quad)))
        found = {id(examined[j]) for j in used}
        dropped = self._duplicates(
            [examined[j] for j in used],
            [t for t in examined if id(t) not in found],
            {id(examined[j]): i for i, j in det_to_tr.items()},
            det_sig,
            seen_apart,
        )

        holding = set(held.values())
        for j, tr in enumerate(examined):
            if j in used or j in holding or id(tr) in dropped:
                continue
            if tr.tentative:  # not found again: a flicker, once its searches are spent
                missed = int(tr.extra.get("missed", 0)) + 1  # type: ignore[call-overload]
                tr.extra["missed"] = missed
                # (what another track took on its place was that card: it goes at once)
                taken = any(quad_iou(detections[i].quad, tr.quad) >= 0.5 for i in det_to_tr)
                if missed >= cfg.tentative_searches or taken:
                    dropped.add(id(tr))
                continue
            was = tr.state
            under_hand = hand_cover.get(tr.track_id, 0.0) > 0.0
            if tr.state is CardState.GONE:
                continue
            if (
                "unseen" in tr.extra
                and not under_hand
                and not (hand_touch is not None and hand_touch(tr.quad))
                and (_inside_roi(tr.quad, roi) or (bare is not None and bare(tr.quad)))
            ):
                # A card guessed under a hand (see :meth:`add_unseen_hidden`), not found where
                # it was guessed, searched with no hand on it: there was none.
                dropped.add(id(tr))
                continue
            if under_hand and swept is not None and swept(tr.quad):
                tr.state = CardState.GONE
            elif under_hand:
                tr.state = CardState.COVERED
                tr.last_seen = timestamp  # a hand on it renews its patience
                tr.pace = None  # (a hand carries it, or holds it: its own pace is no more)
            elif timestamp - tr.last_seen > cfg.patience_s or (bare is not None and bare(tr.quad)):
                tr.state = CardState.GONE
            else:
                tr.state = CardState.COVERED
            if tr.state is not was:
                changed.append(tr)
        # Visible cards outside the examined region are as they were: still in sight. One last
        # seen moving has stopped where it was found (nothing changed there): its clean view, which
        # waited for it to be found still, is taken now (else the blurred look it was first found
        # with stays its look, and the next search of its place takes it for another card).
        for tr in self.tracks:
            if tr.state is CardState.VISIBLE and id(tr) not in in_region:
                tr.last_seen = timestamp
                tr.pace = None
                if tr.extra.pop("moving", False) and not tr.tentative:
                    self._take_clean_view(tr, frame, timestamp, bool(hand_touch and hand_touch(tr.quad)))
        # Drop long-gone tracks, flickers and duplicates.
        self.tracks = [
            t
            for t in self.tracks
            if id(t) not in dropped
            and not (t.state is CardState.GONE and timestamp - t.last_seen > cfg.forget_s)
        ]
        return changed

    def _on_hidden_touched(
        self,
        quad: np.ndarray,
        examined: list[Track],
        used: set[int],
        hand_touch: Callable[[np.ndarray], bool] | None,
    ) -> bool:
        """Whether a hand touches ``quad`` and it lies on the place of a card out of sight whose
        look is known, one no detection took in this frame (see ``touched_holds``)."""
        if hand_touch is None or not hand_touch(quad):
            return False
        return any(
            j not in used
            and tr.state is not CardState.VISIBLE
            and not tr.tentative
            and tr.signature is not None
            and "unseen" not in tr.extra
            and quad_iou(quad, tr.quad) >= self.cfg.tentative_overlap
            for j, tr in enumerate(examined)
        )

    def _near_hidden(self, quad: np.ndarray) -> bool:
        """Whether a quad lies within ``hidden_near`` card diagonals of a card out of sight (covered
        or gone) whose look is known: a card first found there may be that one, its look not clear
        yet (blurred as it slides out of a stack, half under a hand)."""
        reach = self.cfg.hidden_near * quad_diagonal(quad)
        c = quad_centre(quad)
        return any(
            t.state is not CardState.VISIBLE
            and not t.tentative
            and t.signature is not None
            and float(np.linalg.norm(quad_centre(t.quad) - c)) <= reach
            for t in self.tracks
        )

    def _set_pace(self, tr: Track, quad: np.ndarray, timestamp: float, was: CardState) -> None:
        """The pace of a card found at ``quad`` now, from where it was found last (none when that
        was too long ago, or when it did not move)."""
        dt = timestamp - tr.last_seen
        step = quad_centre(quad) - quad_centre(tr.quad)
        if (
            tr.tentative
            or was is CardState.GONE
            or not 0.0 < dt <= self.cfg.pace_gap_s
            or float(np.linalg.norm(step)) <= self.cfg.still_px
        ):
            tr.pace = None
        else:
            tr.pace = (step / dt).astype(np.float32)

    def add_unseen(
        self, detections: list[CardDetection], timestamp: float, frame: np.ndarray | None = None
    ) -> list[Track]:
        """New tracks for the ``detections`` that lie on no track still on the table (a card a
        background sweep found where nothing was searched before); the other tracks are left as
        they are (the sweep examined none of them). Returns the new tracks."""
        out: list[Track] = []
        for det in detections:
            others = [t for t in self.tracks if t.state is not CardState.GONE] + out
            if any(quad_iou(det.quad, t.quad) > 0.1 for t in others):
                continue
            tr = Track(self._next_id, det.quad.astype(np.float32), det.confidence, last_seen=timestamp)
            self._next_id += 1
            self.tracks.append(tr)
            self._take_clean_view(tr, frame, timestamp, False)
            out.append(tr)
        return out

    def add_unseen_hidden(self, quad: np.ndarray, timestamp: float) -> Track:
        """A covered track for a card not seen yet that a hand hides (the next card of a pile whose
        top card a hand carried off, its part in sight showing a card): found at its place once in
        sight, it takes its look; not found there once no hand hides it, it is dropped (it was a
        guess: nothing on it shows before that)."""
        tr = Track(
            self._next_id, np.asarray(quad, np.float32).copy(), 0.0, CardState.COVERED, last_seen=timestamp
        )
        tr.extra["unseen"] = True
        self._next_id += 1
        self.tracks.append(tr)
        return tr

    def _duplicates(
        self,
        found: list[Track],
        missed: list[Track],
        det_of: dict[int, int],
        det_sig: Callable[[int], np.ndarray | None],
        seen_apart: dict[int, np.ndarray] | None = None,
    ) -> set[int]:
        """Tracks (``id()``) among ``missed`` that lie on a ``found`` track's card, with its look:
        the same card tracked twice (a track left behind while its card was followed by another).
        ``seen_apart``: ``id()`` -> quad of the tracks visible before this frame; two of them seen
        apart (overlapping less than ``duplicate_iou``) are two cards (one slid onto the other,
        its twin: a Twin It pair)."""
        seen_apart = seen_apart or {}
        out: set[int] = set()
        for tr in found:
            for other in missed:
                a, b = seen_apart.get(id(tr)), seen_apart.get(id(other))
                if (
                    (a is not None and b is not None and quad_iou(a, b) < self.cfg.duplicate_iou)
                    or id(other) in out
                    or other.tentative
                    or other.state is CardState.GONE
                    or other.signature is None
                    or quad_iou(other.quad, tr.quad) < self.cfg.duplicate_iou
                ):
                    continue
                sig = det_sig(det_of[id(tr)])
                if sig is not None and signature_distance(sig, other.signature) <= self.cfg.look_threshold:
                    log.debug("track %d duplicates track %d: dropped", other.track_id, tr.track_id)
                    out.add(id(other))
        return out

    def expire(self, timestamp: float, held: set[int] | frozenset[int] = frozenset()) -> bool:
        """Time passes on a still frame: covered tracks past their patience go, except those a
        hand still holds (``held``), whose patience is renewed; long-gone tracks are dropped.
        Returns whether any track changed."""
        changed = False
        for tr in self.tracks:
            if tr.state is CardState.VISIBLE:  # still in sight: its patience starts when it is not
                tr.last_seen = timestamp
                tr.pace = None  # (and nothing moved)
                continue
            if tr.state is not CardState.COVERED:
                continue
            if tr.track_id in held:
                tr.last_seen = timestamp
            elif timestamp - tr.last_seen > self.cfg.patience_s:
                tr.state = CardState.GONE
                changed = True
        kept = [
            t
            for t in self.tracks
            if not (t.state is CardState.GONE and timestamp - t.last_seen > self.cfg.forget_s)
        ]
        changed = changed or len(kept) != len(self.tracks)
        self.tracks = kept
        return changed

    def _take_clean_view(self, tr: Track, frame: np.ndarray | None, timestamp: float, touched: bool) -> None:
        if frame is None or touched:
            return
        h, w = frame.shape[:2]
        m = self.cfg.clean_margin_px
        q = tr.quad
        if (
            (q[:, 0] < m).any()
            or (q[:, 1] < m).any()
            or (q[:, 0] > w - 1 - m).any()
            or (q[:, 1] > h - 1 - m).any()
        ):
            return
        tr.last_clean_view = rectify(frame, q)
        tr.last_clean_time = timestamp
        tr.signature = signature(tr.last_clean_view)
