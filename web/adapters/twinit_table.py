"""Twin It's table as the adapter remembers it: cards at stable positions, not track ids.

A card finder's track ids can churn while hands move over the table, so the adapter keeps a
*stable snapshot*: the visible cards, matched by position, once they have held still with no
hand over the table for a moment. Differences between two snapshots are what happened (a card
played, a pile top revealed, a capture laid down). Slaps are read while the hands are down, from
which snapshot cards the hands cover.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.observation import CardState, HandObservation, TableObservation, TrackedCard


@dataclass
class Spot:
    """A card lying still at one place."""

    center: np.ndarray
    quad: np.ndarray
    view: np.ndarray
    """Its last clean view (rectified crop)."""
    track: int
    seen: float | None = None
    """When ``view`` was cut from a frame (``None``: the finder's own view, of an unknown time)."""
    clean: bool = False
    """Whether no hand lay anywhere on the card in that frame."""
    sound: bool = False
    """Whether no hand lay within reach of the card in that frame either (:func:`hands_within`)."""


def center_of(quad: np.ndarray) -> np.ndarray:
    """The mean of a quad's corners (its sum over four: the same value as ``mean``, without its
    overhead on a 4 x 2 array, paid for every card each frame)."""
    return np.asarray(quad, dtype=np.float64).reshape(4, 2).sum(axis=0) / 4.0


def card_size(quads: list[np.ndarray]) -> float:
    """The median side of the cards, in pixels (60 when nothing is known)."""
    sides = []
    for quad in quads:
        q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
        sides.append(float(np.linalg.norm(q[1] - q[0])))
        sides.append(float(np.linalg.norm(q[2] - q[1])))
    return float(np.median(sides)) if sides else 60.0


def rectify(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card's face at the finder's canonical crop size (what the identity judge expects)."""
    from vision.cards.rectify import rectify as canonical

    return canonical(image, np.asarray(quad, dtype=np.float32).reshape(4, 2))


def fresh_views(
    spots: list[Spot], image: np.ndarray | None, obs: TableObservation, now: float | None = None
) -> list[Spot]:
    """The spots with views cut from this frame (the finder's last clean view can lag behind a
    pile whose top card changed in place), except where a hand lies. A view cut from this frame
    is dated ``now`` and says whether any hand touched the card (:func:`touched_by_hands`)."""
    if image is None or not isinstance(image, np.ndarray) or image.ndim != 3:
        return spots
    return [
        s
        if under_a_hand(obs, s.center) is not None
        else Spot(s.center, s.quad, rectify(image, s.quad), s.track, now, not touched_by_hands(obs, s.quad))
        for s in spots
    ]


def touched_by_hands(obs: TableObservation, quad: np.ndarray, margin: int = 3) -> bool:
    """Whether a hand lies anywhere on the card (its box, ``margin`` pixels wider): a pixel of
    the hands' mask there, or, without a mask, a hand's box over it."""
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    x0, y0 = np.floor(q.min(axis=0)).astype(int) - margin
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + margin
    mask = obs.hand_mask
    if isinstance(mask, np.ndarray) and mask.ndim == 2:
        h, w = mask.shape
        return bool(mask[max(0, y0) : max(0, min(h, y1 + 1)), max(0, x0) : max(0, min(w, x1 + 1))].any())
    for hand in obs.hands:
        x, y, bw, bh = hand.bbox
        if x <= x1 and x0 <= x + bw and y <= y1 and y0 <= y + bh:
            return True
    return False


def hands_within(obs: TableObservation, quad: np.ndarray, track: int, reach: float) -> bool:
    """Whether a hand may lie on the card in this frame: a pixel of the hands' mask or a hand's box
    within ``reach`` pixels of the card's box (the boxes only without a mask: an arm's box takes in
    cards far from the arm), or a hand vision says covers it. Stricter than
    :func:`touched_by_hands`: the mask can miss a dark hand beyond its sleeve."""
    if any(track in hand.covers for hand in obs.hands):
        return True
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    x0, y0 = q.min(axis=0) - reach
    x1, y1 = q.max(axis=0) + reach
    mask = obs.hand_mask
    if isinstance(mask, np.ndarray) and mask.ndim == 2:
        h, w = mask.shape
        ys = slice(max(0, int(np.floor(y0))), max(0, min(h, int(np.ceil(y1)) + 1)))
        xs = slice(max(0, int(np.floor(x0))), max(0, min(w, int(np.ceil(x1)) + 1)))
        return bool(mask[ys, xs].any())
    for hand in obs.hands:
        x, y, bw, bh = hand.bbox
        if x <= x1 and x0 <= x + bw and y <= y1 and y0 <= y + bh:
            return True
    return False


_VISIBLE: list[tuple[weakref.ref[TableObservation], list[Spot]]] = []
"""The last observation's visible spots (the adapter asks for them several times a frame)."""


def visible_spots(obs: TableObservation) -> list[Spot]:
    """The cards in sight with a clean view, as spots (a new list each call; the spots themselves
    are shared between the calls for one observation and must not be changed)."""
    last = next(iter(_VISIBLE), None)  # read once: another thread may replace it
    if last is not None and last[0]() is obs:
        return list(last[1])
    spots = [
        Spot(center_of(c.quad), np.asarray(c.quad), c.last_clean_view, c.track_id)
        for c in obs.cards
        if c.state == CardState.VISIBLE and c.last_clean_view is not None
    ]
    _VISIBLE[:] = [(weakref.ref(obs), spots)]
    return list(spots)


def nearest(spots: list[Spot], point: np.ndarray, within: float) -> int | None:
    """Index of the spot nearest ``point`` if closer than ``within`` (one array operation for all
    the spots: the adapter asks this for every card in sight against every place it keeps, each
    frame; a call per spot took a quarter of its time)."""
    if not spots:
        return None
    diff = np.array([s.center for s in spots], dtype=np.float64) - np.asarray(point, dtype=np.float64)
    d = np.sqrt((diff * diff).sum(axis=1))
    i = int(np.argmin(d))
    return i if float(d[i]) <= within else None


def same_layout(a: list[Spot], b: list[Spot], tol: float) -> bool:
    """The same cards at the same places (within ``tol`` pixels)."""
    if len(a) != len(b):
        return False
    return all(nearest(b, s.center, tol) is not None for s in a)


class Stabiliser:
    """Turns the noisy visible cards of each frame into stable snapshots."""

    def __init__(self, hold_s: float = 0.35) -> None:
        self.hold_s = hold_s
        self.snapshot: list[Spot] = []
        self.card_px = 60.0
        self._cand: list[Spot] = []
        self._since: float | None = None
        self._committed_cand = False
        self.since: float | None = None
        """When the last committed layout was first seen (its cards came to rest)."""

    def update(
        self, obs: TableObservation, now: float, allow_hands: bool = False, image: np.ndarray | None = None
    ) -> list[Spot] | None:
        """A new stable snapshot when one is ready now, else ``None``."""
        if obs.hands and not allow_hands:
            self._since = None
            return None
        spots = visible_spots(obs)
        if spots:
            self.card_px = 0.8 * self.card_px + 0.2 * card_size([s.quad for s in spots])
        tol = 0.25 * self.card_px
        if self._since is None or not same_layout(spots, self._cand, tol):
            self._cand, self._since, self._committed_cand = spots, now, False
            return None
        self._cand = spots  # fresher views of the same cards
        if self._committed_cand or now - self._since < self.hold_s - 1e-6:
            return None
        self._committed_cand = True
        self.since = self._since
        spots = fresh_views(spots, image, obs)
        # a card hidden under a hand is still there: keep it until the hand has gone
        for old in self.snapshot:
            if nearest(spots, old.center, tol) is None and under_a_hand(obs, old.center):
                spots = [*spots, old]
        if same_layout(spots, self.snapshot, tol) and self.snapshot:
            self.snapshot = spots
            return None
        self.snapshot = spots
        return spots


def under_a_hand(obs: TableObservation, point: np.ndarray, margin: float = 8.0) -> HandObservation | None:
    """The smallest hand whose box holds ``point``, else ``None``."""
    best = None
    for hand in obs.hands:
        x, y, w, h = hand.bbox
        inside = x - margin <= point[0] <= x + w + margin and y - margin <= point[1] <= y + h + margin
        if inside and (best is None or w * h < best.bbox[2] * best.bbox[3]):
            best = hand
    return best


def occluded_spots(obs: TableObservation, snapshot: list[Spot], tol: float) -> dict[int, tuple[int, str]]:
    """Snapshot spot -> (hand id, seat) for the cards no longer seen where a hand now lies."""
    seen = visible_spots(obs)
    out: dict[int, tuple[int, str]] = {}
    for i, spot in enumerate(snapshot):
        if nearest(seen, spot.center, tol) is not None:
            continue
        hand = under_a_hand(obs, spot.center)
        if hand is not None:
            out[i] = (hand.hand_id, str(hand.seat))
    return out


def on_the_mask(mask: np.ndarray | None, point: np.ndarray, radius: int = 3) -> bool:
    """Whether a hand or arm lies on ``point`` (within ``radius`` pixels); ``True`` without a mask."""
    if mask is None or not isinstance(mask, np.ndarray) or mask.ndim != 2:
        return True
    h, w = mask.shape
    x, y = round(float(point[0])), round(float(point[1]))
    if not (0 <= x < w and 0 <= y < h):
        return False
    return bool(mask[max(0, y - radius) : y + radius + 1, max(0, x - radius) : x + radius + 1].any())


RING_COVERED = 0.8
"""A card whose surroundings (a band :data:`RING_WIDTH` of its size wide all round its outline)
the hands' mask covers at least this much lies under a hand."""
RING_WIDTH = 0.2


def ringed_by_mask(mask: np.ndarray, quad: np.ndarray) -> bool:
    """Whether the hands' mask covers the band all round the card's outline (at least
    :data:`RING_COVERED` of it): the card lies under a hand even where the mask has a hole over
    the card itself."""
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    c = q.mean(axis=0)
    outer = c + (q - c) * (1.0 + 2.0 * RING_WIDTH)
    inner = c + (q - c) * 1.05
    h, w = mask.shape
    x0, y0 = np.maximum(np.floor(outer.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(outer.max(axis=0)).astype(int) + 1, (w, h))
    if x1 <= x0 or y1 <= y0:
        return False
    band = np.zeros((y1 - y0, x1 - x0), np.uint8)
    origin = np.array([x0, y0], np.float64)
    cv2.fillPoly(band, [np.round(outer - origin).astype(np.int32)], 1)
    cv2.fillPoly(band, [np.round(inner - origin).astype(np.int32)], 0)
    ring = band.astype(bool)
    return bool(ring.any()) and float(mask[y0:y1, x0:x1][ring].mean()) >= RING_COVERED


def hidden_under_hands(obs: TableObservation, snapshot: list[Spot], tol: float) -> dict[int, tuple[int, str]]:
    """Snapshot spot -> (hand id, seat) for the cards no longer seen whose centre a hand or arm
    covers: the hands' pixel mask when vision gives one (a box around two merged arms takes in
    cards that lie between them, in plain sight of the table), else the hands' boxes. With a
    mask, so too a card the mask rings all round (:func:`ringed_by_mask`), though vision may
    still find a card there: a palm of the card's own colour, that the mask leaves a hole for and
    the finder takes for the card (the live bench's seed 3, 26.1 s: a slap never seen)."""
    found = occluded_spots(obs, snapshot, tol)
    out = {i: v for i, v in found.items() if on_the_mask(obs.hand_mask, snapshot[i].center)}
    mask = obs.hand_mask
    if isinstance(mask, np.ndarray) and mask.ndim == 2:
        for i, spot in enumerate(snapshot):
            if i in out:
                continue
            hand = under_a_hand(obs, spot.center)
            if hand is not None and ringed_by_mask(mask, spot.quad):
                out[i] = (hand.hand_id, str(hand.seat))
    return out


def _oriented(mask: np.ndarray, seat: str) -> np.ndarray:
    """The mask turned so that ``seat``'s edge is the top row."""
    return {"top": mask, "bottom": mask[::-1], "left": mask.T, "right": mask.T[::-1]}[seat]


def _prominent_peaks(profile: np.ndarray, prominence: float) -> list[int]:
    """Indices of the maxima of ``profile`` that stand at least ``prominence`` above the lowest
    point between them and any higher part of the profile (both sides; the ends count as 0)."""
    n = len(profile)
    out = []
    i = 0
    while i < n:
        if profile[i] <= 0:
            i += 1
            continue
        j = i
        while j + 1 < n and profile[j + 1] == profile[i]:
            j += 1
        left_ok = i == 0 or profile[i - 1] < profile[i]
        right_ok = j == n - 1 or profile[j + 1] < profile[i]
        if left_ok and right_ok:
            top = profile[i]
            low_left, k = top, i - 1
            while k >= 0 and profile[k] <= top:
                low_left = min(low_left, profile[k])
                k -= 1
            low_left = min(low_left, 0.0) if k < 0 else low_left
            low_right, k = top, j + 1
            while k < n and profile[k] <= top:
                low_right = min(low_right, profile[k])
                k += 1
            low_right = min(low_right, 0.0) if k >= n else low_right
            if top - max(low_left, low_right) >= prominence:
                out.append((i + j) // 2)
        i = j + 1
    return out


TIP_APART = 1.5
"""Two arm tips at least this many cards apart are two hands."""
CUT_HAND = 2.5
"""Two tips of one seat cut off by the image's edge at most this many cards apart, on the same card,
are one hand: a hand cut off by the edge shows a cut as wide as the hand (a palm is 8.4 cm, a Twin
It card 5 cm), split where its fingers part."""
TIP_REACH = 3.0
"""A fingertip lies at most this many cards beyond the centre of the card its palm is on."""
UNDER_FINGERS = 0.5
"""A card whose centre lies within this many cards of an arm's tip lies under the fingertips."""
PALM_FROM = 1.5
"""A hand's palm lies this many cards or more behind its fingertips (the rendered hands' palms lie
1.5 to 3.5 cards behind, fingers reaching over the next card: the live bench's seeds 1 and 2
claimed the card under the fingers instead of the pile under the palm, 39.8 and 56.3 s)."""
PALM_BEHIND = 2.5
"""Where a whole hand's palm centre lies, in cards behind its fingertips (towards its edge): a
hand's palm centre lies 12 to 13 cm from the tip of its middle finger, a Twin It card is 5 cm
wide. The claimed cards of the offline replays of seeds 0, 1, 2 and 4 lay 2.2 to 3.5 cards behind
an arm tip the image showed whole, the cards under the fingers 0.1 to 1.5 cards."""
PALM_RADIUS = 1.25
"""A hidden card whose centre lies within this many cards of where the palm lies (:data:`PALM_BEHIND`)
may be under it, though farther than :data:`TIP_REACH` from the tip (a palm card beside the arm)."""
TIP_BEYOND = 0.35
"""A card whose centre lies farther than this many cards past an arm's tip (seen from the edge
the arm comes from) is not under that hand: a hand covers the card it lies on up to its
fingertips (another arm crossing the card hides it)."""


def past_the_tip(tip: np.ndarray, seat: str, point: np.ndarray) -> float:
    """How far ``point`` lies past ``tip``, along an arm coming from ``seat``'s edge (pixels;
    negative: between the edge and the tip)."""
    dx, dy = float(point[0] - tip[0]), float(point[1] - tip[1])
    return {"top": dy, "bottom": -dy, "left": dx, "right": -dx}.get(seat, 0.0)


Tip = tuple[np.ndarray, str, float]
"""An arm's tip: where (image pixels), the seat it comes from, when the arm came onto the table."""


def arm_tips(
    mask: np.ndarray | None,
    card_px: float,
    step: int = 4,
    memory: list[tuple[np.ndarray, str, float]] | None = None,
    now: float = 0.0,
) -> list[Tip]:
    """Where each arm over the table ends (its fingertips, image pixels), with the seat it comes
    from. Two arms that vision sees as one blob still show two tips: the blob's reach from its edge
    has two peaks with a dip between them (a hand's own fingers dip far less than a card).

    ``memory`` (a list the caller keeps between frames) holds each blob, its seat and when it came:
    an arm that reaches across to the opposite edge keeps the edge it came in from."""
    if mask is None or not isinstance(mask, np.ndarray) or mask.ndim != 2 or not mask.any():
        if memory is not None:
            memory.clear()
        return []
    small = np.ascontiguousarray(mask[::step, ::step]).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(small, connectivity=8)
    sh, sw = small.shape
    tips: list[Tip] = []
    seen: list[tuple[np.ndarray, str, float]] = []
    for k in range(1, count):
        x, y, w, h, _area = stats[k]
        touches = {"top": y == 0, "bottom": y + h >= sh, "left": x == 0, "right": x + w >= sw}
        blob = labels == k
        edge_px = {
            "top": int(blob[0].sum()),
            "bottom": int(blob[-1].sum()),
            "left": int(blob[:, 0].sum()),
            "right": int(blob[:, -1].sum()),
        }
        edges = [e for e in touches if touches[e]]
        seat = max(edges, key=lambda e: edge_px[e], default=None)
        since = now
        if memory:
            before = max(
                memory, key=lambda m: int(np.count_nonzero(m[0] & blob)) if m[0].shape == blob.shape else 0
            )
            if before[0].shape == blob.shape and (before[0] & blob).any():
                since = before[2]
                if len(edges) > 1 and before[1] in edges:
                    seat = before[1]
        if seat is None:
            continue
        seen.append((blob, seat, since))
        turned = _oriented(blob, seat)
        rows = turned.shape[0]
        has = turned.any(axis=0)
        reach = np.where(has, rows - np.argmax(turned[::-1], axis=0), 0).astype(np.float64)
        for col in _prominent_peaks(reach, 0.6 * card_px / step):
            depth = reach[col] - 0.5
            u, v = (col + 0.5) * step, depth * step
            full_h, full_w = mask.shape
            point = {
                "top": (u, v),
                "bottom": (u, full_h - v),
                "left": (v, u),
                "right": (full_w - v, u),
            }[seat]
            tips.append((np.array(point, dtype=np.float64), seat, since))
    if memory is not None:
        memory[:] = seen
    return tips


ARM_ROOT = 1.0
"""An arm crosses the image's edge at least this many cards wide (a forearm is 6 cm wide or more,
a Twin It card 5 cm): narrower runs of the hands' mask along an edge are fingers or a hand's
side reaching it."""

Root = tuple[str, int, int, float]
"""Where an arm crosses the edge it came in from: the seat, the run along that edge (first and
last pixel, image pixels), when it came onto the table."""


def edge_runs(line: np.ndarray, min_len: float) -> list[tuple[int, int]]:
    """The runs of ``line`` (a row of a mask) at least ``min_len`` long: (first, past the last)."""
    padded = np.concatenate(([False], np.asarray(line, dtype=bool), [False]))
    change = np.flatnonzero(padded[1:] != padded[:-1])
    return [(int(a), int(b)) for a, b in zip(change[::2], change[1::2], strict=True) if b - a >= min_len]


def arm_roots(
    memory: list[tuple[np.ndarray, str, float]],
    card_px: float,
    before: Sequence[tuple[Root, int]] = (),
    now: float = 0.0,
    step: int = 4,
) -> list[tuple[Root, int]]:
    """Where each arm of :func:`arm_tips`' blobs (its ``memory``) crosses the edge it came in
    from, with the index of its blob: a run of the blob along that edge at least :data:`ARM_ROOT`
    wide. Two such runs in one blob are two arms that vision sees as one (both hands of a player
    who slaps cards side by side). A run overlapping a run of the frame ``before`` on the same edge
    keeps the time it came."""
    out: list[tuple[Root, int]] = []
    for index, (blob, seat, _since) in enumerate(memory):
        edge = _oriented(blob, seat)[0]
        for a, b in edge_runs(edge, ARM_ROOT * card_px / step):
            first, last = a * step, b * step - 1
            came = [r[3] for r, _ in before if r[0] == seat and r[1] <= last and first <= r[2]]
            out.append(((seat, first, last, min(came, default=now)), index))
    return out


def on_blob(blob: np.ndarray, point: np.ndarray, step: int, radius: int = 1) -> bool:
    """Whether a blob of a mask subsampled every ``step`` pixels lies on ``point`` (image pixels),
    within ``radius`` of its pixels."""
    h, w = blob.shape
    x, y = round(float(point[0]) / step), round(float(point[1]) / step)
    if not (0 <= x < w and 0 <= y < h):
        return False
    return bool(blob[max(0, y - radius) : y + radius + 1, max(0, x - radius) : x + radius + 1].any())


def tip_pair(
    tips: list[Tip],
    hidden: dict[int, tuple[int, str]],
    snapshot: list[Spot],
    card_px: float,
    size: tuple[int, int] | None = None,
) -> list[int] | None:
    """The two hidden cards two hands lie on (:func:`card_at_tip`), a different card for each;
    ``None`` unless exactly two hands find cards (an arm resting where no hidden card lies does not
    count). Tips less than :data:`TIP_APART` apart are one hand's fingers: the hand's tip is their
    middle, its axis running between its outer fingers (seed 5 at 47.9 s: the index finger's tip
    alone put the palm as near the card beside the claimed one). Two hands of one seat on the same
    card are one hand cut off by the image's edge when both tips are (:func:`clipped`) and at most
    :data:`CUT_HAND` apart (seed 7 at 69.4 s: a hand reaching past the bottom edge, its cut split
    where the fingers part, 1.7 cards apart); else no pair."""
    apart = hands_of(tips, card_px)
    chosen: list[int] = []
    found_by: list[tuple[np.ndarray, str]] = []
    for tip, seat in apart:
        found = card_at_tip(tip, seat, hidden, snapshot, card_px, size)
        if found is None:
            continue  # an arm resting where no hidden card lies
        if found in chosen:
            other, other_seat = found_by[chosen.index(found)]
            if not (
                other_seat == seat
                and clipped(tip, seat, size)
                and clipped(other, seat, size)
                and float(np.linalg.norm(tip - other)) <= CUT_HAND * card_px
            ):
                return None
            continue  # one hand cut off by the image's edge, its cut showing two tips
        chosen.append(found)
        found_by.append((tip, seat))
    return sorted(chosen) if len(chosen) == 2 else None


def hands_of(tips: list[Tip], card_px: float) -> list[tuple[np.ndarray, str]]:
    """One point per hand: tips less than :data:`TIP_APART` apart are one hand's fingers, the hand's
    tip their middle (its axis runs between its outer fingers)."""
    groups: list[tuple[list[np.ndarray], str]] = []
    for tip, seat, _since in tips:
        near = [g for g, _ in groups if float(np.linalg.norm(tip - g[0])) < TIP_APART * card_px]
        if near:
            near[0].append(tip)
        else:
            groups.append(([tip], seat))
    return [(np.mean(group, axis=0), seat) for group, seat in groups]


def hand_off_the_cards(
    tips: list[Tip],
    hidden: Mapping[int, object],
    snapshot: list[Spot],
    card_px: float,
    size: tuple[int, int] | None = None,
) -> bool:
    """Whether, of two hands from one edge (:func:`hands_of`), one lies on a hidden card
    (:func:`card_at_tip`) and the other on none: a slap whose second card the referee does not
    know (the finder lost it), the other hidden cards under its arms only."""
    found: dict[str, list[int | None]] = {}
    for tip, seat in hands_of(tips, card_px):
        found.setdefault(seat, []).append(card_at_tip(tip, seat, hidden, snapshot, card_px, size))
    return any(None in cards and any(c is not None for c in cards) for cards in found.values())


def tips_on(
    tips: list[Tip],
    pair: list[int],
    hidden: Mapping[int, object],
    snapshot: list[Spot],
    card_px: float,
    size: tuple[int, int] | None = None,
) -> dict[int, Tip]:
    """Card -> the arm tip that lies on it (:func:`card_at_tip`), for the cards of ``pair``; its
    seat is the edge the arm came in from (``arm_tips``: the first edge an arm crossed, kept while
    it reaches across to another)."""
    out: dict[int, Tip] = {}
    for tip in tips:
        found = card_at_tip(tip[0], tip[1], hidden, snapshot, card_px, size)
        if found in pair and found not in out:
            out[found] = tip
    return out


def tips_at_rest(tips: list[Tip], before: list[np.ndarray], tol: float) -> bool:
    """Whether every tip lies within ``tol`` pixels of a tip of the frame before: the hands have
    stopped (a slap's hands come down fast, then lie still; hands still coming down over the cards
    move several times more between two frames)."""
    return bool(tips) and all(any(float(np.linalg.norm(t[0] - b)) <= tol for b in before) for t in tips)


def tips_still(now: list[np.ndarray], before: list[np.ndarray], tol: float) -> bool:
    """Whether the arm tips of two frames are the same tips at the same places: each tip lies
    within ``tol`` pixels of a tip of the other frame, both ways (a tip come or gone is a change)."""
    if not now or not before:
        return False
    near = [[float(np.linalg.norm(a - b)) <= tol for b in before] for a in now]
    return all(any(row) for row in near) and all(any(col) for col in zip(*near, strict=True))


def clipped(tip: np.ndarray, seat: str, size: tuple[int, int] | None, margin: float = 8.0) -> bool:
    """Whether an arm's tip lies at the image's edge it points to (``size``: width, height): the
    hand goes on beyond the image, its real tip unseen; ``False`` when the size is not known."""
    if size is None:
        return False
    width, height = size
    x, y = float(tip[0]), float(tip[1])
    return {
        "top": y >= height - 1 - margin,
        "bottom": y <= margin,
        "left": x >= width - 1 - margin,
        "right": x <= margin,
    }.get(seat, False)


def palm_point(tip: np.ndarray, seat: str, card_px: float) -> np.ndarray:
    """Where the palm of a whole hand whose fingertips lie at ``tip`` lies (:data:`PALM_BEHIND`)."""
    back = PALM_BEHIND * card_px
    dx, dy = {"top": (0.0, -back), "bottom": (0.0, back), "left": (-back, 0.0), "right": (back, 0.0)}.get(
        seat, (0.0, 0.0)
    )
    return np.asarray(tip, dtype=np.float64) + np.array([dx, dy])


def _reach(
    tip: np.ndarray, seat: str, center: np.ndarray, card_px: float, whole: bool
) -> tuple[float, float] | None:
    """(distance to the tip, to the palm) of a card the hand whose fingertips lie at ``tip`` may
    lie on (:func:`card_at_tip`), else ``None``."""
    if past_the_tip(tip, seat, center) > TIP_BEYOND * card_px:
        return None
    d = float(np.linalg.norm(center - tip))
    to_palm = float(np.linalg.norm(center - palm_point(tip, seat, card_px)))
    if d <= TIP_REACH * card_px or (whole and to_palm <= PALM_RADIUS * card_px):
        return d, to_palm
    return None


def alone_in_reach(
    tips: list[Tip],
    pair: list[int],
    hidden: Mapping[int, object],
    snapshot: list[Spot],
    card_px: float,
    size: tuple[int, int] | None = None,
) -> bool:
    """Whether the two cards of ``pair`` are the only hidden cards any arm's hand may lie on, each
    under the palm of a tip the image shows whole (within :data:`PALM_RADIUS` of it) or nearest
    a tip cut off by its edge: the other hidden cards lie under arms only, far from any hand, and
    the pair is the one the hands claimed though more cards are hidden."""
    for i in hidden:
        if i in pair:
            continue
        center = snapshot[i].center
        if any(_reach(tip, seat, center, card_px, not clipped(tip, seat, size)) for tip, seat, _ in tips):
            return False
    on = tips_on(tips, pair, hidden, snapshot, card_px, size)
    if len(on) != 2:
        return False
    for i, (tip, seat, _since) in on.items():
        if clipped(tip, seat, size):
            continue
        if float(np.linalg.norm(snapshot[i].center - palm_point(tip, seat, card_px))) > PALM_RADIUS * card_px:
            return False
    return True


def card_at_tip(
    tip: np.ndarray,
    seat: str,
    hidden: Mapping[int, object],
    snapshot: list[Spot],
    card_px: float,
    size: tuple[int, int] | None = None,
) -> int | None:
    """The hidden card the hand whose fingertips lie at ``tip`` lies on, else ``None``; never a
    card lying past the tip (:data:`TIP_BEYOND`).

    A tip the image shows whole: the card nearest where the palm lies (:func:`palm_point`), among
    those within :data:`TIP_REACH` of the tip or :data:`PALM_RADIUS` of the palm (a slap lays the
    palm on the card, the fingers reach over the next one: seeds 1, 2 and 4 claimed the card under
    the fingers, 39.8, 69.7 and 67.2 s). A tip cut off by the image's edge (:func:`clipped`; the
    palm lies nearer it than a whole hand's): the hidden card nearest the tip within
    :data:`TIP_REACH`; but a card the fingertips lie on (its centre within :data:`UNDER_FINGERS`
    of the tip) when a hidden card lies where the palm would (:data:`PALM_FROM` cards or more
    behind the tip)."""
    whole = not clipped(tip, seat, size)
    near: list[tuple[float, float, int]] = []
    """(distance to the tip, to the palm, card)"""
    for i in hidden:
        found = _reach(tip, seat, snapshot[i].center, card_px, whole)
        if found is not None:
            near.append((*found, i))
    if not near:
        return None
    if whole:
        return min(near, key=lambda x: (x[1], x[0]))[2]
    near.sort()
    if near[0][0] < UNDER_FINGERS * card_px:
        palm_cards = [(d, i) for d, _, i in near if d >= PALM_FROM * card_px]
        if palm_cards:
            return palm_cards[0][1]
    return near[0][2]


def same_places(a: list[np.ndarray], b: list[np.ndarray], tol: float) -> bool:
    """The same set of places (within ``tol`` pixels), in any order."""
    if len(a) != len(b):
        return False
    return all(min(float(np.linalg.norm(p - q)) for q in b) <= tol for p in a)


def fingertip(hand: HandObservation) -> np.ndarray:
    """The point of a hand farthest from its table edge (where the fingers are)."""
    x, y, w, h = hand.bbox
    seat = str(hand.seat)
    return {
        "bottom": np.array([x + w / 2, y]),
        "top": np.array([x + w / 2, y + h]),
        "left": np.array([x + w, y + h / 2]),
        "right": np.array([x, y + h / 2]),
    }[seat].astype(np.float64)


def covered_spots(obs: TableObservation, snapshot: list[Spot], within: float) -> dict[int, tuple[int, str]]:
    """Snapshot spot -> (hand id, seat) for the card each hand lies on (the one nearest its tip)."""
    out: dict[int, tuple[int, str]] = {}
    for hand in obs.hands:
        tip = fingertip(hand)
        best: tuple[float, int] | None = None
        for track in hand.covers:
            card: TrackedCard | None = obs.card(track)
            if card is None:
                continue
            i = nearest(snapshot, center_of(card.quad), within)
            if i is None or i in out:
                continue
            d = float(np.linalg.norm(snapshot[i].center - tip))
            if best is None or d < best[0]:
                best = (d, i)
        if best is not None:
            out[best[1]] = (hand.hand_id, str(hand.seat))
    return out


Zone = Callable[[np.ndarray], str | None]


def edge_zone(width: int, height: int, fraction: float) -> Zone:
    """The image edge whose band holds a point (a player's area), else ``None`` (the middle)."""

    def zone(point: np.ndarray) -> str | None:
        fx, fy = point[0] / max(1, width), point[1] / max(1, height)
        edges = {"left": fx, "right": 1 - fx, "top": fy, "bottom": 1 - fy}
        edge = min(edges, key=edges.__getitem__)
        return edge if edges[edge] < fraction else None

    return zone


def clusters(spots: list[Spot], gap: float) -> list[list[int]]:
    """Groups of spots whose centres chain within ``gap`` pixels."""
    groups: list[list[int]] = []
    seen: set[int] = set()
    for i in range(len(spots)):
        if i in seen:
            continue
        group, todo = [], [i]
        seen.add(i)
        while todo:
            j = todo.pop()
            group.append(j)
            for k in range(len(spots)):
                if k not in seen and np.linalg.norm(spots[k].center - spots[j].center) <= gap:
                    seen.add(k)
                    todo.append(k)
        groups.append(sorted(group))
    return groups
