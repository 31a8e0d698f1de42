"""Hands and arms over the table: a mask, the seat each comes from, the cards each covers.

Not a skin-colour detector: a hand is what differs from the table memory (a slowly learned
image of the table with its cards, kept at low resolution), is not a card the finder sees, is
not in the table's own colours (that would be the ghost of something that left), and reaches in
from an image border (an arm always does). The blob's longest run along the border
gives the seat. The table memory learns everywhere a hand is not, quickly where something
changed that is not a hand (a card put down or taken away) and slowly elsewhere (light drift).

>>> tracker = HandTracker()
>>> hands = tracker.update(frame, t, card_quads)   # doctest: +SKIP
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.cards.segment import table_model_mask
from vision.observation import HandEvent, HandObservation, Seat

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class HandConfig:
    """Thresholds of the hand detector."""

    work_width: int = 320
    """Width of the low-resolution copy the mask is computed on."""
    diff_threshold: int = 28
    """Colour difference from the table memory (max over B, G, R) that counts as foreground."""
    min_area_frac: float = 0.004
    """Smallest hand blob, as a fraction of the image."""
    border_px: int = 2
    """How close to the image border a blob must reach (low-resolution pixels)."""
    learn_rate: float = 0.05
    """Table memory update where nothing changed."""
    absorb_rate: float = 0.25
    """Table memory update where something changed that is not a hand."""
    min_not_table: float = 0.25
    """A hand blob has at least this fraction of pixels not in the table's colours (else it is
    the ghost of something that left)."""
    ghost_stand: float = 1.5
    """A blob mostly in the table's colours is still a hand (a dark hand on a wood of dark grain)
    when what the frame shows in it differs from the table just around it at least this many times
    as much as what the memory holds there does (a ghost is the other way round: the memory holds
    what left, the frame the table); see :meth:`HandTracker._stands_out`."""
    ghost_ring: int = 3
    """... the table around it: this many working pixels beyond the blob."""
    ghost_min: float = 0.25
    """The place of a card that left (see :meth:`HandTracker._ghost`) is a region of at least
    this fraction of a card's area."""
    cover_fraction: float = 0.5
    """A card is covered by a hand when more than this fraction of it is under the hand."""
    carry_start: float = 0.08
    """A hand over a hidden card moving at least this many card diagonals in one frame after it
    rested on the card takes the card with it; when it rests again, it has put the card down."""
    carry_cover: float = 0.3
    """A carried card at least this much under a hand stays covered by it."""
    patch_grow: float = 0.2
    """The hand's motion over a card is measured on the card grown by this many diagonals a side."""
    patch_search: float = 1.0
    """... searched this many card diagonals around (the most a hand moves between two frames)."""
    patch_max_rms: float = 40.0
    """Largest RMS colour difference (0..255) of the hand's pixels at a trusted motion measurement."""
    pace_weight: float = 5.0
    """A carried card's hand is matched at the least RMS colour difference plus this much per card
    diagonal away from where its pace takes it (a hand of one colour matches about as well all
    along its arm: of near matches, the one that keeps the pace)."""
    shadow_min_ratio: float = 0.35
    """A hand's shadow dims the table to at least this fraction of its brightness ..."""
    shadow_max_ratio: float = 0.92
    """... and at most this fraction, ..."""
    shadow_hue: float = 0.08
    """... every channel by ratios at most this far apart (the table's hue kept) ..."""
    rim_colour: float = 16.0
    """Pixels taken for a hand's shadow next to a hand, within this (largest channel difference) of
    the hand's median colour, are the hand's own rim (a dark hand on a wood dims it by one ratio in
    every channel, as a shadow would; a shadow is the table darkened, not the hand's colour)."""
    shadow_reach: int = 4
    """... within this many working pixels of the foreground's outside (see :meth:`HandTracker._shadow`)."""
    still_iou: float = 0.7
    """A blob overlapping the previous frame's hand by at least this IoU ..."""
    still_diff: float = 8.0
    """... whose pixels differ from the previous frame's by at most this on average (max over B,
    G, R; a card left where a hand was is the same place, not the same look) has not moved ..."""
    still_pixel: int = 10
    """On a card guessed under a hand and not seen yet (``unseen``, see :meth:`HandTracker.update`),
    a pixel that changed at most this much (max over B, G, R) since the last frame is the card
    lying still, not the hand that left it (so is one in colours the hand around it does not
    show)."""
    still_card_s: float = 0.5
    """... and one that has not moved for this many seconds while shaped like a card (see
    :func:`card_shaped`) ..."""
    card_left_shrink: float = 0.7
    """... after the hand with it shrank to at most this fraction of its largest area (the arm
    that put it down left). A card-shaped blob ..."""
    card_fill: float = 0.75
    """A card-shaped blob fills at least this fraction of its smallest enclosing rectangle ..."""
    card_reach: float = 1.25
    """... whose sides are at most this many times a card's longer side, its area this many times
    a card's, is a card put down at the image edge, not a hand: the memory takes it."""
    grain_min: float = 8.0
    """Where the table memory shows a grain (a wood's: the variance of its grey level about the
    3 x 3 mean, averaged over ``grain_window``, at least this), a shadow is told from something over
    the table by whether the frame shows that grain (see :meth:`HandTracker._grain`) ..."""
    grain_window: int = 5
    """... over this many working pixels a side: ..."""
    grain_lost: float = 0.4
    """... the frame's grain (its least-squares gain on the memory's) under this fraction of the
    brightness ratio (frame over memory, at most 1) is lost: something lies over the table (in a
    shadow, the frame is the memory times a smooth ratio and its grain goes on) ..."""
    grain_kept: float = 0.7
    """... and over this fraction, it is kept: the table is seen, darkened or not. Only on a table
    with a grain (the memory's median over the image at least ``grain_min``, looked at every
    ``grain_every`` frames): on a plain cloth, what the memory shows as grain is a card's print or
    the ghost of one, not the table."""
    grain_every: int = 30
    hole_max: float = 1.5
    """A hole a hand's blob closes all round, at most this many cards' area, is the hand's too: a
    palm lying flat on a card of its own colour differs from no memory there."""


@dataclass
class _Hand:
    hand_id: int
    seat: Seat
    mask: np.ndarray  # low-res bool
    bbox: tuple[int, int, int, int]  # low-res
    covers: tuple[int, ...] = ()
    tip: tuple[float, float] = (0.0, 0.0)  # low-res: the far end from the seat's edge
    still_since: float = 0.0  # when its mask last moved
    peak: int = 0  # its largest area (low-res pixels) so far


@dataclass
class HandResult:
    """The hands of one frame, at full resolution."""

    hands: tuple[HandObservation, ...]
    events: tuple[HandEvent, ...]
    mask: np.ndarray
    """(H, W) bool at the frame's size."""
    low_mask: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((1, 1), bool))
    """The same mask at the working resolution."""
    scale: float = 1.0
    """Working resolution over full resolution."""
    carried: dict[int, np.ndarray] = field(default_factory=dict)
    """Track id -> new quad (full resolution) of hidden cards a hand moved with it."""


RING_SAMPLES = 32
"""Colours of the table around a blob compared with (:meth:`HandTracker._stands_out`) ..."""
BLOB_SAMPLES = 256
"""... and at most this many of the blob's pixels."""

PATCH_SCALE = 0.25
"""Scale of the copies the hands' motion over cards is measured on."""


@dataclass(frozen=True)
class _Patch:
    """A small copy (``PATCH_SCALE``) of the region around a covered card, and which of its pixels are
    the hand's (only the hand is followed, not the still table around it)."""

    image: np.ndarray
    """(h, w, 3) float32 BGR."""
    mask: np.ndarray
    """(h, w) float32, 1 on the hand."""
    x0: int
    y0: int
    """Full-resolution top-left corner of the region."""


def _region(quad: np.ndarray, grow: float, shape: tuple[int, int]) -> tuple[int, int, int, int]:
    """The quad's bounding box grown by ``grow`` diagonals a side, clipped: x0, y0, x1, y1."""
    q = np.asarray(quad, np.float32)
    d = float(np.linalg.norm(q.max(axis=0) - q.min(axis=0)))
    x0, y0 = q.min(axis=0) - grow * d
    x1, y1 = q.max(axis=0) + grow * d
    h, w = shape
    return max(0, int(x0)), max(0, int(y0)), min(w, int(np.ceil(x1))), min(h, int(np.ceil(y1)))


def _half(frame: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    x0, y0, x1, y1 = box
    small = cv2.resize(
        frame[y0:y1, x0:x1], None, fx=PATCH_SCALE, fy=PATCH_SCALE, interpolation=cv2.INTER_AREA
    )
    return small.astype(np.float32)


def make_patch(frame: np.ndarray, box: tuple[int, int, int, int], hand: np.ndarray, scale: float) -> _Patch:
    """The patch of ``frame`` in ``box`` (full resolution); ``hand``: the low-resolution hand mask
    at ``scale`` of the frame."""
    image = _half(frame, box)
    x0, y0, x1, y1 = box
    lx0, ly0 = int(x0 * scale), int(y0 * scale)
    lx1, ly1 = max(lx0 + 1, int(np.ceil(x1 * scale))), max(ly0 + 1, int(np.ceil(y1 * scale)))
    # The hand and a rim of what is around it: a plain hand's own pixels fit anywhere inside it,
    # its outline does not.
    rim = cv2.dilate(hand[ly0:ly1, lx0:lx1].astype(np.uint8), np.ones((3, 3), np.uint8))
    low = rim.astype(np.float32)
    mask = cv2.resize(low, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_NEAREST)
    return _Patch(image, mask, x0, y0)


def _vertex(left: float, mid: float, right: float) -> float:
    """Offset (-0.5..0.5) of the lowest point of the parabola through three samples."""
    den = left - 2.0 * mid + right
    return 0.0 if den <= 1e-9 else float(np.clip(0.5 * (left - right) / den, -0.5, 0.5))


def patch_motion(
    patch: _Patch,
    frame: np.ndarray,
    quad: np.ndarray,
    search: float,
    expect: np.ndarray | None = None,
    pace_weight: float = 0.0,
) -> tuple[np.ndarray, float] | None:
    """Where the hand in ``patch`` went in ``frame``: (full-resolution shift, RMS colour
    difference of its pixels there), looked for ``search`` card diagonals around (the best fit,
    to a fraction of a pixel) the ``expect``-ed shift (the hand's pace), each shift's RMS raised by
    ``pace_weight`` per card diagonal away from it; None when the patch holds too little hand or
    the region left the frame."""
    ph, pw = patch.image.shape[:2]
    n = float(patch.mask.sum())
    if ph < 4 or pw < 4 or n < 0.1 * ph * pw:
        return None
    q = np.asarray(quad, np.float32)
    reach = search * float(np.linalg.norm(q.max(axis=0) - q.min(axis=0)))
    h, w = frame.shape[:2]
    ex, ey = (0.0, 0.0) if expect is None else (float(expect[0]), float(expect[1]))
    box = (
        max(0, int(patch.x0 + ex - reach)),
        max(0, int(patch.y0 + ey - reach)),
        min(w, int(patch.x0 + ex + pw / PATCH_SCALE + reach)),
        min(h, int(patch.y0 + ey + ph / PATCH_SCALE + reach)),
    )
    if box[2] - box[0] < pw or box[3] - box[1] < ph:  # (the expected place left the frame)
        return None
    area = _half(frame, box)
    if area.shape[0] < ph or area.shape[1] < pw:
        return None
    res = cv2.matchTemplate(area, patch.image, cv2.TM_SQDIFF, mask=cv2.merge([patch.mask] * 3))
    rms = np.sqrt(np.maximum(res, 0.0) / (3.0 * n))
    if expect is not None and pace_weight > 0.0:
        # A hand all of one colour fits almost as well anywhere along its arm: of near fits, the
        # one nearest the hand's pace.
        rh, rw = res.shape
        sx = box[0] + np.arange(rw, dtype=np.float32) / PATCH_SCALE - patch.x0 - ex
        sy = box[1] + np.arange(rh, dtype=np.float32) / PATCH_SCALE - patch.y0 - ey
        off = np.sqrt(sy[:, None] ** 2 + sx[None, :] ** 2) / max(1.0, reach / search)
        cost = (rms + pace_weight * off).astype(np.float32)
    else:
        cost = rms.astype(np.float32)
    best, _, (bx, by), _ = cv2.minMaxLoc(cost)
    rh, rw = res.shape
    fx = _vertex(cost[by, bx - 1], best, cost[by, bx + 1]) if 0 < bx < rw - 1 else 0.0
    fy = _vertex(cost[by - 1, bx], best, cost[by + 1, bx]) if 0 < by < rh - 1 else 0.0
    shift = np.float32(
        [box[0] + (bx + fx) / PATCH_SCALE - patch.x0, box[1] + (by + fy) / PATCH_SCALE - patch.y0]
    )
    return shift, float(rms[by, bx])


def _seat_of(blob: np.ndarray, border: int) -> Seat | None:
    """The image edge along which the blob runs longest (None when it touches none)."""
    counts = {
        Seat.TOP: int(blob[:border].any(axis=0).sum()),
        Seat.BOTTOM: int(blob[-border:].any(axis=0).sum()),
        Seat.LEFT: int(blob[:, :border].any(axis=1).sum()),
        Seat.RIGHT: int(blob[:, -border:].any(axis=1).sum()),
    }
    seat, n = max(counts.items(), key=lambda kv: kv[1])
    return seat if n > 0 else None


def _tip(blob: np.ndarray, seat: Seat, bbox: tuple[int, int, int, int] | None = None) -> tuple[float, float]:
    """The mean point of the blob's far end (the fifth of its extent farthest from its seat);
    ``bbox`` (x, y, w, h): a box the blob lies in (only it is looked at)."""
    if bbox is None:
        ys, xs = np.nonzero(blob)
    else:
        x, y, w, h = bbox
        ys, xs = np.nonzero(blob[y : y + h, x : x + w])
        ys, xs = ys + y, xs + x
    if seat is Seat.BOTTOM:
        sel = ys <= ys.min() + 0.2 * (ys.max() - ys.min())
    elif seat is Seat.TOP:
        sel = ys >= ys.max() - 0.2 * (ys.max() - ys.min())
    elif seat is Seat.RIGHT:
        sel = xs <= xs.min() + 0.2 * (xs.max() - xs.min())
    else:
        sel = xs >= xs.max() - 0.2 * (xs.max() - xs.min())
    return float(xs[sel].mean()), float(ys[sel].mean())


def quad_diagonal_len(quad: np.ndarray) -> float:
    """The diagonal of a quad's bounding box (a card's size, whatever its turn)."""
    q = np.asarray(quad, np.float32)
    return float(np.linalg.norm(q.max(axis=0) - q.min(axis=0)))


def card_size(card_quads: dict[int, np.ndarray], scale: float) -> tuple[float, float] | None:
    """The cards' median longer side and median area, at ``scale`` (None without cards)."""
    if not card_quads:
        return None
    rects = [cv2.minAreaRect(np.asarray(q, np.float32))[1] for q in card_quads.values()]
    side = float(np.median([max(r) for r in rects])) * scale
    area = float(np.median([r[0] * r[1] for r in rects])) * scale * scale
    return side, area


def card_shaped(blob: np.ndarray, size: tuple[float, float], fill: float, reach: float) -> bool:
    """Whether a blob is a card's visible part (``size``: a card's longer side and area): no
    larger than a card (a hand with its arm is larger, what is seen of a card no larger than the
    card), its outline (convex hull: a card's face may match the table in places, holes and notches
    in its blob) filling its smallest enclosing rectangle, that rectangle no longer than a card
    (an arm reaching in from the edge is longer)."""
    side, area = size
    pts = cv2.findNonZero(blob.astype(np.uint8))
    if pts is None or len(pts) > reach * area:
        return False
    hull = cv2.convexHull(pts)
    (_, _), (w, h), _ = cv2.minAreaRect(hull)
    if max(w, h) + 1.0 > reach * side:
        return False
    # (Through pixel centres: the outline is half a pixel short on each side.)
    perimeter = cv2.arcLength(hull, True)
    return cv2.contourArea(hull) + 0.5 * perimeter + 1.0 >= fill * (w + 1.0) * (h + 1.0)


def quad_coverage(mask: np.ndarray, quad: np.ndarray, scale: float) -> float:
    """Fraction of a full-resolution quad's area that lies under a low-resolution mask."""
    q = np.round(np.asarray(quad, np.float32) * scale).astype(np.int32)
    x, y, w, h = cv2.boundingRect(q)
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(mask.shape[1], x + w), min(mask.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    poly = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(poly, q - np.int32([x, y]), 1)
    inside = poly[y0 - y : y1 - y, x0 - x : x1 - x].astype(bool)
    total = int(poly.sum())
    if total == 0:
        return 0.0
    return float(np.count_nonzero(mask[y0:y1, x0:x1] & inside)) / total


def _like_around(low: np.ndarray, place: np.ndarray, fg: np.ndarray, reach: int = 5) -> np.ndarray:
    """Pixels (bool) whose colour (8 levels a channel, give or take one) shows in the foreground
    within ``reach`` pixels around ``place`` (uint8, nonzero inside): a hand over the place has
    its colours beside it too (a plain palm moving over a place looks still there)."""
    k = 2 * reach + 1
    ring = (cv2.dilate(place, np.ones((k, k), np.uint8)) > 0) & (place == 0) & (fg > 0)
    if not ring.any():
        return np.zeros(place.shape, bool)
    q = (low >> 5).astype(np.int32)
    code = (q[..., 0] * 8 + q[..., 1]) * 8 + q[..., 2]
    bins = np.zeros((8, 8, 8), bool)
    bins.ravel()[np.unique(code[ring])] = True
    near = bins.copy()
    for axis in range(3):
        for step in (1, -1):
            shifted = np.roll(bins, step, axis=axis)
            edge = [slice(None)] * 3
            edge[axis] = 0 if step == 1 else -1
            shifted[tuple(edge)] = False
            near |= shifted
    return near.ravel()[code]


def _channel_max(image: np.ndarray) -> np.ndarray:
    """The largest of a 3-channel uint8 image's channels, per pixel."""
    b, g, r = cv2.split(image)
    return cv2.max(cv2.max(b, g), r)


class _BoxedTableMask:
    """:func:`table_model_mask` of an image, worked out (once, when first asked) only in the box
    around the nonzero pixels of ``where`` grown by ``grow`` pixels a side: the only pixels a
    caller looks at (0 elsewhere; the foreground, and what closing it with a 5 x 5 kernel adds,
    which can reach 2 pixels past its box at the image's border). The table's model is pixel by
    pixel, so the box's values are the whole image's; without ``colours`` (learned from the image
    itself) the whole image is worked on."""

    def __init__(
        self, image: np.ndarray, colours: np.ndarray | None, where: np.ndarray, grow: int = 3
    ) -> None:
        self._image, self._colours, self._where, self._grow = image, colours, where, grow
        self._mask: np.ndarray | None = None

    def mask(self) -> np.ndarray:
        if self._mask is None:
            if self._colours is None:
                self._mask = table_model_mask(self._image, None)
            else:
                self._mask = np.zeros(self._image.shape[:2], np.uint8)
                x, y, w, h = cv2.boundingRect(self._where.view(np.uint8))
                if w and h:
                    g = self._grow
                    x0, y0 = max(0, x - g), max(0, y - g)
                    x1, y1 = min(self._image.shape[1], x + w + g), min(self._image.shape[0], y + h + g)
                    self._mask[y0:y1, x0:x1] = table_model_mask(self._image[y0:y1, x0:x1], self._colours)
        return self._mask


class HandTracker:
    """Finds hands frame by frame against a learned table memory; keeps hand ids; emits events."""

    def __init__(self, cfg: HandConfig | None = None) -> None:
        self.cfg = cfg or HandConfig()
        self._memory: np.ndarray | None = None  # float32 low-res BGR
        self._hands: list[_Hand] = []
        self._next_id = 1
        self._scale = 1.0
        self._size: tuple[int, int] = (0, 0)
        self._patches: dict[int, _Patch] = {}
        self._phase: dict[int, str] = {}
        """Covered card -> "landing" (the hand over it has not rested yet), "rest", "carry"
        (moving with the hand), "placed" (put down: stays, whatever the hand does next)."""
        self._last_shift: dict[int, np.ndarray] = {}
        self._prev_low: np.ndarray | None = None
        """The last frame at working resolution (whether a blob stayed still)."""
        self._card_size: tuple[float, float] | None = None
        """The cards' median longer side and area at working resolution (see :func:`card_size`)."""
        self._grainy = False
        """Whether the table shows a grain (see ``HandConfig.grain_kept``) ..."""
        self._grain_age = 0
        """... as of this many frames ago."""

    def reset(self) -> None:
        self._memory = None
        self._grain_age = 0
        self._prev_low = None
        self._hands = []
        self._patches = {}
        self._phase = {}
        self._last_shift = {}

    @property
    def memory(self) -> np.ndarray | None:
        """The table memory image (low resolution, uint8 BGR), None before the first frame."""
        return None if self._memory is None else self._memory.astype(np.uint8)

    def _low(self, frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        self._scale = min(1.0, self.cfg.work_width / w)
        size = (max(1, round(w * self._scale)), max(1, round(h * self._scale)))
        if (w, h) != self._size:
            self._size = (w, h)
            self._memory = None
        return cv2.resize(frame, size, interpolation=cv2.INTER_LINEAR)

    def update(
        self,
        frame: np.ndarray,
        timestamp: float,
        card_quads: dict[int, np.ndarray],
        visible_quads: list[np.ndarray] | None = None,
        colours: np.ndarray | None = None,
        hidden: set[int] | frozenset[int] = frozenset(),
        unseen: list[np.ndarray] | tuple[np.ndarray, ...] = (),
    ) -> HandResult:
        """Hands in ``frame``. ``card_quads``: track id -> quad of every card on the table (last
        known where covered); ``visible_quads``: the cards the finder sees in this frame (not
        hands, whatever their difference from the memory); ``colours``: the table's colours
        (:func:`vision.cards.segment.table_colours`), learned from this frame when not given;
        ``hidden``: cards not seen in the last frame. A hidden card a hand rested on and then
        moved away with went with the hand (a slap carries the card away): its quad follows the
        hand's motion over it and it stays covered (``HandResult.carried``, see :meth:`_carry`).
        ``unseen``: quads of cards known to lie under a hand but not seen yet (a pile's next card
        when its top card was carried off): there, what differs from the memory (which holds
        the card carried off) but has not changed since the last frame (a hand leaving it
        changes it), or shows colours that the foreground around the place does not, is that
        card, not a hand; the memory takes it quickly."""
        cfg = self.cfg
        low = self._low(frame)
        s = self._scale
        lh, lw = low.shape[:2]
        if self._memory is None:
            self._memory = low.astype(np.float32)
            self._grain_age = 0
        diff = cv2.absdiff(low, cv2.convertScaleAbs(self._memory))
        b, g, r = cv2.split(diff)
        d = cv2.max(cv2.max(b, g), r)
        fg = (d > cfg.diff_threshold).astype(np.uint8)
        # Where the memory shows a grain: lost in the frame (something flat lies over it), kept
        # (the table is seen), and lost where the frame is flat too (no edge of a card, which
        # the memory held there, nor the table's own grain where a card left).
        lost, kept, flat = self._grain(low, fg)
        fg[flat] = 1
        shadow = self._shadow(low, fg, kept)
        # A dark hand dims the wood by about one ratio as a shadow would; its grain is lost.
        shadow &= ~lost
        fg[shadow] = 0
        # Shadow pixels the hand's colour may be its rim (_with_rim), unless the grain is seen.
        rim_maybe = shadow & ~kept
        self._card_size = card_size(card_quads, s)
        # Whether each pixel of ``low`` shows the table's colours, worked out only in the box
        # around the foreground (nothing outside it is ever asked) and at most once.
        low_table = _BoxedTableMask(low, colours, fg)
        ghost = self._ghost(low, fg, colours, low_table)
        fg[ghost] = 0
        prev = self._prev_low
        # what changed since the last frame (the largest channel change), made once when needed
        # (None: no last frame to compare)
        change: np.ndarray | None = None
        lying = None
        if len(unseen) and prev is not None and prev.shape == low.shape:
            change = _channel_max(cv2.absdiff(low, prev))
            place = np.zeros((lh, lw), np.uint8)
            for q in unseen:
                cv2.fillConvexPoly(place, np.round(np.asarray(q, np.float32) * s).astype(np.int32), 1)
            lying = (place > 0) & (fg > 0)
            if lying.any():
                lying &= (change <= cfg.still_pixel) | ~_like_around(low, place, fg)
            fg[lying] = 0
        fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        not_hand = np.zeros((lh, lw), np.uint8)
        for q in visible_quads or []:
            qq = np.round(np.asarray(q, np.float32) * s).astype(np.int32)
            cv2.fillConvexPoly(not_hand, qq, 1)
        not_hand = cv2.erode(not_hand, np.ones((3, 3), np.uint8))
        cand = fg & (1 - not_hand)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(cand, connectivity=8)
        min_area = cfg.min_area_frac * lh * lw
        bd = cfg.border_px
        blobs: list[tuple[np.ndarray, Seat, tuple[int, int, int, int], float, int]] = []
        table_colour: np.ndarray | None = None
        for i in range(1, n):
            x, y, w, h, area = stats[i]
            if area < min_area:
                continue
            if not (x < bd or y < bd or x + w > lw - bd or y + h > lh - bd):
                continue
            blob = labels == i
            seat = _seat_of(blob, bd)
            if seat is None:
                continue
            if table_colour is None:
                table_colour = low_table.mask() > 0
            if (
                np.count_nonzero(table_colour & blob) < cfg.min_not_table * area
                # (the table's grain lost under as much of it: something lies over the table now)
                and np.count_nonzero(lost & blob) < cfg.min_not_table * area
                and not self._stands_out(low, blob, (int(x), int(y), int(w), int(h)), fg | not_hand, colours)
            ):
                # Table-coloured where the memory differs: a ghost of something that has left
                # (a hand that was there when the memory began). The memory takes the table back.
                self._memory[blob] = low[blob]
                continue
            if change is None and prev is not None and prev.shape == low.shape:
                change = _channel_max(cv2.absdiff(low, prev))
            since = self._still_since(blob, change, timestamp)
            peak = max([int(area)] + [h.peak for h in self._hands if (h.mask & blob).any()])
            if self._left_card(blob, int(area), since, peak, timestamp):
                # A hand never rests that still, card-shaped and card-sized with no arm: a card put
                # down at the image edge, its hand gone. The memory takes it (it is then searched).
                log.debug("still card-shaped blob at %s: a card, not a hand", (int(x), int(y)))
                self._memory[blob] = low[blob]
                continue
            if cfg.rim_colour > 0 and rim_maybe.any():
                blob = self._with_rim(low, blob, (int(x), int(y), int(w), int(h)), rim_maybe)
            blob = self._fill_holes(blob, (int(x), int(y), int(w), int(h)))
            blobs.append((blob, seat, (int(x), int(y), int(w), int(h)), since, peak))

        hand_mask = np.zeros((lh, lw), bool)
        for blob, *_ in blobs:
            hand_mask |= blob
        # Learn the table: slowly where still, quickly where a non-hand change happened, never
        # under (a margin around) a hand, nor in its shadow.
        near_hand = cv2.dilate(hand_mask.astype(np.uint8), np.ones((7, 7), np.uint8)).astype(bool)
        rate = np.where(fg.astype(bool), cfg.absorb_rate, cfg.learn_rate).astype(np.float32)
        rate[near_hand | shadow] = 0.0
        if lying is not None:
            rate[lying] = cfg.absorb_rate
        step = low.astype(np.float32)
        np.subtract(step, self._memory, out=step)
        step *= rate[..., None]
        self._memory += step

        self._prev_low = low
        hands = self._match(blobs)
        carried = self._carry(frame, card_quads, hidden) if hands else {}
        if carried:
            card_quads = {**card_quads, **carried}
        events: list[HandEvent] = []
        prev = {h.hand_id: h for h in self._hands}
        cover_of: dict[int, tuple[float, _Hand]] = {}
        for hand in hands:
            hand.tip = _tip(hand.mask, hand.seat, hand.bbox)
            covered = set()
            # The mask itself (its shadow left out of it): a card is covered by what is truly over it.
            for tid, q in card_quads.items():
                cov = quad_coverage(hand.mask, q, s)
                if cov > cfg.cover_fraction:
                    covered.add(tid)
                if tid in carried and cov >= cfg.carry_cover and cov > cover_of.get(tid, (0.0, hand))[0]:
                    cover_of[tid] = (cov, hand)
            hand.covers = tuple(sorted(covered))
        for tid, (_, hand) in cover_of.items():
            if tid not in hand.covers:
                hand.covers = tuple(sorted((*hand.covers, tid)))
        for hand in hands:
            covers = hand.covers
            before = set(prev[hand.hand_id].covers) if hand.hand_id in prev else set()
            for tid in covers:
                if tid not in before:
                    events.append(HandEvent(timestamp, "covered", hand.hand_id, hand.seat, tid))
            for tid in sorted(before - set(covers)):
                events.append(HandEvent(timestamp, "uncovered", hand.hand_id, hand.seat, tid))
        live = {h.hand_id for h in hands}
        for old in self._hands:
            if old.hand_id not in live:
                for tid in old.covers:
                    events.append(HandEvent(timestamp, "uncovered", old.hand_id, old.seat, tid))
        self._hands = hands

        self._keep_patches(frame, card_quads, {t for h in hands for t in h.covers}, hand_mask)
        inv = 1.0 / s
        obs = tuple(
            HandObservation(
                hand_id=h.hand_id,
                seat=h.seat,
                covers=h.covers,
                bbox=(
                    int(h.bbox[0] * inv),
                    int(h.bbox[1] * inv),
                    int(np.ceil(h.bbox[2] * inv)),
                    int(np.ceil(h.bbox[3] * inv)),
                ),
            )
            for h in hands
        )
        full = cv2.resize(hand_mask.view(np.uint8), self._size, interpolation=cv2.INTER_NEAREST).view(bool)
        return HandResult(obs, tuple(events), full, hand_mask, s, carried)

    def _fill_holes(self, blob: np.ndarray, bbox: tuple[int, int, int, int] | None = None) -> np.ndarray:
        """The blob (bool, working resolution) with the holes it closes all round filled, each at
        most ``hole_max`` cards' area: a palm lying flat on a card of the palm's colour (a cream
        card under a pale hand) matches the memory there, and would leave a card-shaped hole just
        where the hand hides a card. A region the blob does not close (open to the image's
        border) is no hole. ``bbox`` (x, y, w, h): a box the blob lies in; only it is looked at,
        with a rim of outside around it (a region that reaches the box's edge reaches the
        image's border through what lies outside the box, all outside the blob)."""
        bx, by, bw, bh = bbox if bbox is not None else (0, 0, blob.shape[1], blob.shape[0])
        outside = cv2.copyMakeBorder(
            (~blob[by : by + bh, bx : bx + bw]).view(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=1
        )
        n, labels, stats, _ = cv2.connectedComponentsWithStats(outside, connectivity=4)
        if n <= 2:
            return blob
        lh, lw = outside.shape
        x, y, w, h, area = (stats[:, k] for k in range(5))
        open_ = (x == 0) | (y == 0) | (x + w == lw) | (y + h == lh)
        card = self._card_size[1] if self._card_size is not None else 0.01 * blob.size
        hole = ~open_ & (area <= self.cfg.hole_max * card)
        hole[0] = False
        if not hole.any():
            return blob
        out = blob.copy()
        out[by : by + bh, bx : bx + bw] |= hole[labels[1:-1, 1:-1]]
        return out

    def _with_rim(
        self, low: np.ndarray, blob: np.ndarray, bbox: tuple[int, int, int, int], shadow: np.ndarray
    ) -> np.ndarray:
        """The blob (bool, working resolution) with the pixels beside it taken for its shadow that
        are of its own colour (within ``rim_colour`` of its median): a dark hand's rim."""
        r = self.cfg.shadow_reach + 1
        x, y, w, h = bbox
        lh, lw = blob.shape
        x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(lw, x + w + r), min(lh, y + h + r)
        near = shadow[y0:y1, x0:x1] & (
            cv2.dilate(blob[y0:y1, x0:x1].view(np.uint8), np.ones((2 * r + 1, 2 * r + 1), np.uint8)) > 0
        )
        if not near.any():
            return blob
        box = low[y0:y1, x0:x1]
        own = box[blob[y0:y1, x0:x1]]
        colour = np.median(own[:: max(1, len(own) // BLOB_SAMPLES)], axis=0)
        close = np.abs(box[near].astype(np.float32) - colour).max(axis=1) <= self.cfg.rim_colour
        if not close.any():
            return blob
        rim = np.zeros(near.shape, bool)
        rim[near] = close
        out = blob.copy()
        out[y0:y1, x0:x1] |= rim
        return out

    def _stands_out(
        self,
        low: np.ndarray,
        blob: np.ndarray,
        bbox: tuple[int, int, int, int],
        busy: np.ndarray,
        colours: np.ndarray | None = None,
    ) -> bool:
        """Whether a blob (bool, working resolution) in the table's colours is something over the
        table, not the ghost of what left: the frame's pixels in it differ from the table's colours
        just around it by ``ghost_stand`` times as much as the memory's pixels there do (medians
        over the blob of each pixel's largest channel difference from the nearest of the colours
        the memory holds in a ring ``ghost_ring`` pixels wide, where nothing differs from the
        memory and no card is seen: ``busy`` is 0 there; the memory's, as a dark hand's rim taken
        for its shadow lies in the ring; the nearest, as a checked cloth has several colours). A dark hand
        on a wood whose grain has its colours differs from the wood around it, and the memory
        there holds that wood; a ghost is the frame's table where the memory holds what left.
        Only the blob's pixels where the memory holds the table's colours (``colours``, see
        :func:`table_model_mask`) are compared: where it holds a card, the memory differs from the
        table around as much under a hand lying on that card as under a ghost (a dark hand
        landing on a pile was taken for a ghost, and the memory took the hand in); all of them
        when fewer than 8 are. Too little ring seen to tell: a ghost, as before."""
        assert self._memory is not None
        r = self.cfg.ghost_ring
        x, y, w, h = bbox
        lh, lw = blob.shape
        x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(lw, x + w + r), min(lh, y + h + r)
        inside = blob[y0:y1, x0:x1]
        grown = cv2.dilate(inside.view(np.uint8), np.ones((2 * r + 1, 2 * r + 1), np.uint8)) > 0
        ring = grown & ~inside & (busy[y0:y1, x0:x1] == 0)
        if np.count_nonzero(ring) < max(8, 0.05 * np.count_nonzero(inside)):
            return False
        mem = self._memory[y0:y1, x0:x1]
        # the table's colours around (a patterned cloth has several): a sample of the ring's
        table = mem[ring]
        table = table[:: max(1, len(table) // RING_SAMPLES)][:, None, :]
        if colours is None:
            held = table_model_mask(self._memory.astype(np.uint8), None)[y0:y1, x0:x1] == 0
        else:
            held = table_model_mask(np.ascontiguousarray(mem).astype(np.uint8), colours) == 0
        pixels = np.flatnonzero(inside & held)
        if len(pixels) < 8:
            pixels = np.flatnonzero(inside)
        pixels = pixels[:: max(1, len(pixels) // BLOB_SAMPLES)]

        def off_table(colours: np.ndarray) -> float:
            # each pixel's largest channel difference from the nearest of the table's colours
            return float(np.median(np.abs(colours[None, :, :] - table).max(axis=2).min(axis=0)))

        d_cur = off_table(low[y0:y1, x0:x1].reshape(-1, 3)[pixels].astype(np.float32))
        d_mem = off_table(mem.reshape(-1, 3)[pixels])
        return d_cur >= self.cfg.ghost_stand * max(d_mem, 1.0)

    def _ghost(
        self,
        low: np.ndarray,
        fg: np.ndarray,
        colours: np.ndarray | None,
        low_table: _BoxedTableMask | None = None,
    ) -> np.ndarray:
        """The foreground pixels (bool, working resolution) that show the table's own colours where
        the memory does not: the place of a card that has left (slid away beside a hand, swept
        off), not a hand: a region of at least ``ghost_min`` of a card (a few pixels of a hand's
        shading in the table's colours stay the hand). Away from the hands the memory takes the
        table back there quickly (as it does any change that is not a hand)."""
        if not fg.any():
            return np.zeros(fg.shape, bool)
        assert self._memory is not None
        low_table = low_table or _BoxedTableMask(low, colours, fg)
        ghost = ((fg > 0) & (low_table.mask() == 0)).view(np.uint8)
        # The memory's colours matter only where the frame's are the table's, in the foreground.
        x, y, w, h = cv2.boundingRect(ghost)
        if colours is None:
            was_card = table_model_mask(self._memory.astype(np.uint8), colours) > 0
            ghost &= was_card
        elif w and h:
            box = ghost[y : y + h, x : x + w]
            box &= table_model_mask(self._memory[y : y + h, x : x + w].astype(np.uint8), colours) > 0
        # A card's place, not a few pixels of a hand's shading: opened, and a region of at
        # least ``ghost_min`` of a card's area.
        ghost = cv2.morphologyEx(ghost, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        if not cv2.countNonZero(ghost):
            return np.zeros(fg.shape, bool)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(ghost, connectivity=8)
        if n <= 1:
            return np.zeros(fg.shape, bool)
        area = self._card_size[1] if self._card_size is not None else 0.002 * fg.size
        keep = stats[:, cv2.CC_STAT_AREA] >= self.cfg.ghost_min * area
        keep[0] = False
        return keep[labels]

    def _grain(self, low: np.ndarray, fg: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Where the table memory shows a grain (``grain_min``), whether the frame shows it
        (bools, working resolution): (lost, kept, lost and the frame flat there).

        A shadow is the table darkened: the frame is the memory times a smooth ratio, so the grain
        goes on through it (the least-squares gain of the frame's grain, its grey level less its
        3 x 3 mean, on the memory's, over ``grain_window``, is about the brightness ratio). A hand
        is flat over the grain (the gain is about 0), whether it dims the wood by one ratio as a
        shadow would (a dark hand) or shows the wood's own colours (its difference from the memory
        under ``diff_threshold`` but on the grain's stripes). Flat: the frame's own grain is under
        ``grain_min`` too (not where a card the memory holds has left the table's grain in sight,
        nor on a card's edge). Worked out only in the box around the foreground, and only on a
        table with a grain (``grain_every``)."""
        cfg = self.cfg
        assert self._memory is not None
        lh, lw = fg.shape
        lost = np.zeros((lh, lw), bool)
        kept = np.zeros((lh, lw), bool)
        flat = np.zeros((lh, lw), bool)
        if self._grain_age % cfg.grain_every == 0:
            m = cv2.cvtColor(self._memory, cv2.COLOR_BGR2GRAY)
            hm = cv2.subtract(m, cv2.blur(m, (3, 3)))
            smm = cv2.blur(cv2.multiply(hm, hm), (cfg.grain_window, cfg.grain_window))
            self._grainy = float(np.median(smm)) >= cfg.grain_min
        self._grain_age += 1
        x, y, w, h = cv2.boundingRect(fg)
        if not (self._grainy and w and h):
            return lost, kept, flat
        g = 2 * cfg.grain_window  # (the filters' reach, and a margin for what the hand hides)
        x0, y0, x1, y1 = max(0, x - g), max(0, y - g), min(lw, x + w + g), min(lh, y + h + g)
        f = cv2.cvtColor(low[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
        m = cv2.cvtColor(self._memory[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
        hf = cv2.subtract(f, cv2.blur(f, (3, 3)))
        hm = cv2.subtract(m, cv2.blur(m, (3, 3)))
        win = (cfg.grain_window, cfg.grain_window)
        smm = cv2.blur(cv2.multiply(hm, hm), win)
        sfm = cv2.blur(cv2.multiply(hf, hm), win)
        grain = smm >= cfg.grain_min
        # gain / ratio < c  <=>  sfm * (m + 1) < c * smm * min(f + 1, m + 1)
        m1 = m + 1.0
        base = cv2.multiply(smm, cv2.min(f + 1.0, m1))
        weighted = cv2.multiply(sfm, m1)
        lost_box = grain & (weighted < cfg.grain_lost * base)
        kept[y0:y1, x0:x1] = grain & (weighted >= cfg.grain_kept * base)
        lost[y0:y1, x0:x1] = lost_box
        if lost_box.any():
            sff = cv2.blur(cv2.multiply(hf, hf), win)
            flat[y0:y1, x0:x1] = lost_box & (sff < cfg.grain_min)
        return lost, kept, flat

    def _shadow(self, low: np.ndarray, fg: np.ndarray, kept: np.ndarray | None = None) -> np.ndarray:
        """The foreground pixels (bool, working resolution) that are a hand's shadow: the table
        only darker there, every channel dimmed by about the same ratio (a shadow keeps the
        table's hue; skin, a sleeve or a card does not), within ``shadow_reach`` of the
        foreground's outside (a shadow is cast beside the hand: a grey sleeve over a grey table
        dims it evenly too, but only its rim lies there), or anywhere the table's grain is seen
        through (``kept``, see :meth:`_grain`: a soft shadow wider than the reach)."""
        cfg = self.cfg
        assert self._memory is not None
        k = 2 * cfg.shadow_reach + 1
        rim = (cv2.dilate((fg == 0).astype(np.uint8), np.ones((k, k), np.uint8)) > 0) & (fg > 0)
        if kept is not None:
            rim |= kept & (fg > 0)
        ys, xs = np.nonzero(rim)
        ratio = (low[ys, xs].astype(np.float32) + 1.0) / (self._memory[ys, xs] + 1.0)
        r0, r1, r2 = ratio[:, 0], ratio[:, 1], ratio[:, 2]
        lo, hi = np.minimum(np.minimum(r0, r1), r2), np.maximum(np.maximum(r0, r1), r2)
        dim = (hi <= cfg.shadow_max_ratio) & (lo >= cfg.shadow_min_ratio) & (hi - lo <= cfg.shadow_hue)
        out = np.zeros(fg.shape, bool)
        out[ys[dim], xs[dim]] = True
        return out

    def _carry(
        self, frame: np.ndarray, card_quads: dict[int, np.ndarray], hidden: set[int] | frozenset[int]
    ) -> dict[int, np.ndarray]:
        """Hidden cards a hand moves with it: track id -> new quad.

        Under a hand a card cannot be seen, but the hand over it can: the region around each
        covered card in the last frame is looked for in this one. A hand that rested on a card
        and then moves takes it along (a slap carries the card away, a player carries a pile's
        top card to the table) until it rests again (the card is put down; a hand rising off it
        leaves it there). A hand passing over a card without stopping leaves it. A card seen
        again is found by its look (the tracker), whatever was guessed here."""
        cfg = self.cfg
        out: dict[int, np.ndarray] = {}
        for tid, patch in self._patches.items():
            if tid not in hidden or tid not in card_quads:
                continue
            phase = self._phase.get(tid, "landing")
            if phase == "placed":
                continue
            quad = card_quads[tid]
            pace = self._last_shift.get(tid) if phase == "carry" else None
            found = patch_motion(patch, frame, quad, cfg.patch_search, pace, cfg.pace_weight)
            if found is None or found[1] > cfg.patch_max_rms:
                if phase == "carry" and tid in self._last_shift:
                    # Blurred or turned too much to match: the hand keeps its pace.
                    out[tid] = (quad + self._last_shift[tid]).astype(np.float32)
                continue
            shift, rms = found
            self._last_shift[tid] = shift
            log.debug("card %d: hand moved %s (rms %.1f), %s", tid, shift.round(1).tolist(), rms, phase)
            moving = float(np.linalg.norm(shift)) >= cfg.carry_start * quad_diagonal_len(quad)
            if phase in ("landing", "rest"):
                phase = "carry" if moving and phase == "rest" else ("landing" if moving else "rest")
            elif not moving:
                phase = "placed"
            self._phase[tid] = phase
            if phase == "carry":
                out[tid] = (quad + shift).astype(np.float32)
        return out

    def _keep_patches(
        self, frame: np.ndarray, card_quads: dict[int, np.ndarray], covered: set[int], hand_mask: np.ndarray
    ) -> None:
        """The regions around the covered cards, for the next frame's :meth:`_carry`."""
        shape = frame.shape[:2]
        patches: dict[int, _Patch] = {}
        for tid in covered:
            if tid not in card_quads:
                continue
            box = _region(card_quads[tid], self.cfg.patch_grow, shape)
            if box[2] - box[0] >= 8 and box[3] - box[1] >= 8:
                patches[tid] = make_patch(frame, box, hand_mask, self._scale)
        self._patches = patches
        self._phase = {t: p for t, p in self._phase.items() if t in covered}
        self._last_shift = {t: v for t, v in self._last_shift.items() if t in covered}

    def hand_over(self, quad: np.ndarray) -> tuple[int, Seat] | None:
        """The hand of the last :meth:`update` over more than ``cover_fraction`` of a
        full-resolution quad (the most of it, of several): (hand id, seat), None when none is."""
        best: tuple[float, _Hand] | None = None
        for hand in self._hands:
            cov = quad_coverage(hand.mask, quad, self._scale)
            if cov > self.cfg.cover_fraction and (best is None or cov > best[0]):
                best = (cov, hand)
        return None if best is None else (best[1].hand_id, best[1].seat)

    def set_covers(
        self, covers: dict[int, tuple[int, ...]], seen: set[int] | frozenset[int] = frozenset()
    ) -> None:
        """Correct what each hand covers (hand id -> track ids) after the frame's cards are known,
        so that the next frame's events start from it; a card ``seen`` is in no hand."""
        for hand in self._hands:
            if hand.hand_id in covers:
                hand.covers = covers[hand.hand_id]
        for tid in seen:
            self._patches.pop(tid, None)
            self._phase.pop(tid, None)
            self._last_shift.pop(tid, None)

    def card_left(self, timestamp: float) -> bool:
        """Whether a hand of the last frame has been still and card-shaped long enough to be a card
        put down at the image edge (the next :meth:`update` gives it to the memory): a caller that
        skips unchanged frames calls :meth:`update` again when this says so."""
        return any(
            self._left_card(h.mask, int(np.count_nonzero(h.mask)), h.still_since, h.peak, timestamp)
            for h in self._hands
        )

    def _left_card(self, blob: np.ndarray, area: int, since: float, peak: int, timestamp: float) -> bool:
        """Whether a blob is a card left at the image edge: what stayed, still (since ``since``)
        and card-shaped, of a hand that was larger (``peak``: its arm has left)."""
        cfg = self.cfg
        size = self._card_size
        return (
            size is not None
            and timestamp - since >= cfg.still_card_s
            and area <= cfg.card_left_shrink * peak
            and card_shaped(blob, size, cfg.card_fill, cfg.card_reach)
        )

    def _still_since(self, blob: np.ndarray, change: np.ndarray | None, timestamp: float) -> float:
        """Since when the blob has not moved: that of the previous frame's hand it matches with at
        least ``still_iou`` where the pixels did not change (``change``: the largest channel change
        since the last frame, None without one; at most ``still_diff`` on average), else now."""
        if change is None or float(change[blob].mean()) > self.cfg.still_diff:
            return timestamp
        for old in self._hands:
            inter = int(np.count_nonzero(old.mask & blob))
            if inter and inter >= self.cfg.still_iou * int(np.count_nonzero(old.mask | blob)):
                return old.still_since
        return timestamp

    def _match(
        self, blobs: list[tuple[np.ndarray, Seat, tuple[int, int, int, int], float, int]]
    ) -> list[_Hand]:
        """Give each blob the id of the previous hand it overlaps most (same seat), else a new id."""
        out: list[_Hand] = []
        used: set[int] = set()
        for blob, seat, bbox, since, peak in sorted(blobs, key=lambda b: -int(b[0].sum())):
            best, best_overlap = None, 0
            for old in self._hands:
                if old.hand_id in used or old.seat != seat:
                    continue
                overlap = int(np.count_nonzero(old.mask & blob))
                if overlap > best_overlap:
                    best, best_overlap = old, overlap
            if best is not None:
                hid = best.hand_id
            else:
                hid = self._next_id
                self._next_id += 1
            used.add(hid)
            out.append(_Hand(hid, seat, blob, bbox, still_since=since, peak=peak))
        return out
