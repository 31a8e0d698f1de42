"""Find every card's quadrilateral in a frame.

The steps, all numpy / OpenCV:

1. Work on a copy scaled so its long side is at most ``work_long`` px.
2. Candidates from three sources:

   - *white*: bright, low-saturation pixels compared with the table near them ("whiteness",
     the smallest of B, G, R, against a wide morphological opening; the margin scales with the
     local level so shadow bands keep their contrast). Skipped as a trusted source when white
     is one of the table's colours (a white-checked cloth).
   - *not table*: pixels outside the table's colours (:func:`vision.cards.segment.table_model_mask`,
     colours learned from the image's border band).
   - *edge loops*: regions enclosed by colour edges, and holes in them.

   Mask blobs are split where cards touch (colour edges carved out of the mask), then, for a
   blob that still does not look like one card, by a distance-transform watershed.
3. Each blob's outline becomes a quad (convex hull, dominant-line fit), checked for aspect
   ratio, rectangularity, size, edge support all round (:func:`vision.cards.segment.side_support`)
   and, for the untrusted sources, for not being table-coloured.
4. Candidates are reconciled: merged touching cards vs. one card with big prints (whichever is
   nearer the typical card size), prints and glare inside a card dropped (not a quad of the
   deck's shape, scored clearly higher, inside one of no card's shape), duplicates merged
   (of near-equal scores, one of the deck's shape before one of no card's shape, then the
   larger), sizes far from the typical card dropped, a quad that several others inside it fill (touching
   cards merged) dropped, a quad of no card's shape around one of the deck's shape (a card with
   half its neighbour or with the card beneath it) dropped for the card inside, a quad not of the
   deck's shape over two learned card centres dropped for the one card-shaped quad inside it
   (``one_of_group``), and a plain patch (no print inside: a cloth's check under glare) dropped;
   where the learned segmenter is sure of two or more of the frame's candidates, one it is sure is
   table (a cloth's check, a prop) is dropped (``seg_table``).
   With the learned segmenter (:mod:`vision.segmenter`, ``FinderConfig.segmenter``), its card
   instances are a fourth source (:mod:`vision.cards.seg_candidates`; each quad first fitted to
   the working image's edges) where the classical sources found nothing; optionally
   (``seg_veto``) a classical candidate the segmenter sees as table is dropped. With a model that
   has card centres (CenterNet-style, one per card even where cards touch or pile up): a mask blob
   or a segmenter core holding two or more centres is also split at them, a classical quad over
   two or more centres does not hold the learned candidates back (and is dropped where as many
   card-shaped quads of one size lie inside it: a group of touching cards), and each centre's regressed quad
   (fitted to the working image's edges) competes with the others (``instances``).
5. Corners are refined to subpixel on the full-resolution image (:mod:`vision.cards.refine`:
   each side fitted to its edge; a printed outline counts as part of the card; a printed frame
   inside a plain margin is moved out to the card's edge, the margin looked for in grey, then in
   each colour channel), then each side is snapped to the card's outer edge, where card lies
   inside and table outside (:mod:`vision.cards.snap`: not a print inside the card, not a
   neighbour or a shadow beyond it; a side whose margin showed beyond a printed frame is not
   snapped back in to the frame, ``margin_holds``). A quad that ended at the print inside a card's
   plain border (of nearly the table's colour) is moved out to the border's outer edge where the
   segmenter's own quad of the card reaches beyond it too (:mod:`vision.cards.border`), or where
   three or more cards of the frame show a border of one relative width (the deck's) and what it
   adds is not table-coloured between this card and things that are not (the table in a row's
   gaps).
6. A quad too square for the deck that left out a plain band across one end of the card is
   grown over it (:mod:`vision.cards.band`); sides that ended at the card's printed frame (over
   another card of the same paper) move out by the frame's inset that the opposite side shows
   (:mod:`vision.cards.frame_line`).
7. Two quads that overlap in a thin strip along facing sides (touching cards, one side fitted to
   the neighbour's border) both end at the strip's middle; two that leave a thin gap of card
   between facing sides (each ended at its printed frame) both move out to the gap's middle
   (:mod:`vision.cards.shared_edges`).
8. A quad one dimension of which matches its neighbours' while the other is far longer has the
   side that ran past the card pulled in to the card's edge (:mod:`vision.cards.stretch`).
9. Touching cards laid in a grid (the segmenter's card instances on whole steps of one another,
   the sides between them card, not table): three or more found quads that agree on the grid
   give every card of it its cell's quad, in place of quads over two cards or ended on a print
   (:mod:`vision.cards.grid`).
10. A quad whose sides show the card's printed frame at one depth, with one border colour all
    round, and one side showing it deeper (a pile's or a fan's top card found with the strip of
    the card beneath that sticks out beyond it) has that side moved to the frame less the border's
    width (:mod:`vision.cards.own_edges`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.cards.band import BandConfig, grow_band
from vision.cards.border import BorderConfig, learned_agrees, outer_border
from vision.cards.frame_line import FrameLineConfig, align_to_frame
from vision.cards.geometry import aspect_ratio, corner_angles, order_quad, quad_area
from vision.cards.grid import GridConfig, apply_grid, grid_cells
from vision.cards.own_edges import OwnEdgesConfig, own_sides
from vision.cards.refine import margin_widths, move_sides, refine_quad
from vision.cards.regular import RegularConfig, regular_mask
from vision.cards.seg_candidates import seg_instances
from vision.cards.segment import (
    colour_gradient,
    colour_gradient_magnitude,
    side_support,
    table_colours,
    table_model_mask,
)
from vision.cards.shared_edges import close_gaps, split_shared_edges
from vision.cards.snap import SnapConfig, snap_quad
from vision.cards.stretch import StretchConfig, pull_stretched
from vision.segmenter import Segmentation, Segmenter

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FinderConfig:
    """Every threshold of the finder in one place."""

    work_long: int = 1280
    """Long side of the working copy, px."""
    min_area_frac: float = 0.0004
    """Smallest card, as a fraction of the image area."""
    max_area_frac: float = 0.12
    """Largest card, as a fraction of the image area."""
    min_aspect: float = 0.38
    """Short / long side at least this (a 0.64 card seen at 35 degrees tilt stays above)."""
    max_angle_dev: float = 24.0
    """Every corner within this many degrees of a right angle (35 degrees of tilt bends a
    corner by ~12; a flattened sliver of wood grain is far off)."""
    min_fill: float = 0.78
    """Blob area over quad area at least this (a card >= 80 % visible)."""
    local_margin: float = 22.0
    """Whiteness above the local table level, grey levels (scaled by the level)."""
    table_model: bool = True
    """Also segment by the table's colours (cards of any colour on any table)."""
    edge_loops: bool = True
    """Also take regions enclosed by colour edges."""
    support_gradient: float = 20.0
    """Gradient (quarter Sobel units) that counts as edge support."""
    min_side_support: float = 0.4
    """Every side of a card has at least this fraction on an edge."""
    min_support: float = 0.7
    """The outline as a whole has at least this fraction on an edge."""
    min_foreground: float = 0.25
    """At least this fraction of a card is not table-coloured (or is card-white)."""
    box_alternative: bool = True
    """Also try each blob's smallest enclosing box as a card."""
    refine: bool = True
    """Refine corners to subpixel on the full-resolution image."""
    outer_margin: bool = True
    """Move a quad found on a card's printed frame out to the card's edge (its plain margin)."""
    colour_margin: bool = True
    """When the grey image shows no margin, look for it in each colour channel."""
    min_confidence: float = 0.3
    """Detections below this are dropped."""
    segmenter: bool = True
    """Use the learned segmenter (``models/table_seg.onnx``; a missing file is an error)."""
    seg_veto: float = 0.0
    """A classical candidate whose mean card probability is below this is dropped (0: none; the
    segmenter is trained on rendered frames only, and on the real SET photos it sees white cards
    as table: a veto of 0.3 drops two thirds of them)."""
    seg_fill_only: bool = True
    """Segmenter candidates only where no classical candidate lies (IoU <= 0.3): on 48 held-out
    rendered frames, letting them compete with the classical ones lost precision (0.51 against
    0.59) for no recall."""
    seg_refine: float = 1.2
    """A segmenter quad's sides are first fitted to edges within this many map pixels (0: not)."""
    peak_split: bool = True
    """A mask blob holding two or more of the segmenter's card centres is also split at them
    (touching cards merged into one blob), when the model has card instances."""
    drop_multi_centre: bool = False
    """Drop a classical candidate that holds two or more of the segmenter's card centres."""
    instances: bool = True
    """Take the segmenter's card instances (a centre peak and its four corners: touching cards and
    a pile's top card each their own) as candidates, when the model has them."""
    inst_threshold: float = 0.3
    """A centre peak at least this probable is a candidate."""
    inst_refine: float = 1.2
    """An instance quad's sides are first fitted to edges within this many map pixels (0: not)."""
    inst_fill_only: bool = False
    """Instance quads only where no classical candidate lies (IoU <= 0.3)."""
    inst_min_side_support: float = 0.4
    """Every side of an instance quad has at least this fraction on an edge (touching cards'
    shared side is a weak edge)."""
    inst_min_support: float = 0.7
    """An instance quad's outline as a whole has at least this fraction on an edge."""
    snap: SnapConfig | None = field(default_factory=SnapConfig)
    """After refining, snap each side to the card's outer edge (card inside, table outside:
    :mod:`vision.cards.snap`); ``None``: not."""
    margin_holds: float | None = 1.0
    """After a quad moved out past its printed frame to its plain margin's outer edge
    (``outer_margin``), the snap moves no side whose margin showed further in than this many
    pixels (a margin of nearly the table's colour reads as table to the snap, which would take the
    quad back to the frame); ``None``: no limit."""
    shared_edges: float = 0.15
    """Where two found quads overlap along facing sides by a strip at most this fraction of the
    smaller one's short side deep (touching cards, one side on the neighbour's border), both sides
    end at the strip's middle (:mod:`vision.cards.shared_edges`); 0: not."""
    close_gaps: float = 0.25
    """Where two found quads' facing sides leave a gap at most this fraction of the smaller one's
    short side, and the gap is card, not table (touching cards, each quad ended at its printed
    frame), both sides move out to the gap's middle (:func:`vision.cards.shared_edges.close_gaps`);
    0: not."""
    gap_card: float = 0.6
    """... the gap is card where at least this fraction of it is not table-coloured ..."""
    gap_seg_card: float = 0.9
    """... and the segmenter's mean card probability over it is at least this (a patterned
    cloth's checks between cards laid apart can be of no table colour the border band showed)."""
    border: BorderConfig | None = field(default_factory=BorderConfig)
    """After snapping, move a quad that ended at the print inside a card's plain border out to
    the card's outline (:mod:`vision.cards.border`), where the segmenter's own quad of the card
    reaches beyond it too; ``None``: not."""
    border_agree: int = 3
    """Where at least this many cards of a frame show a plain border beyond their quad
    (:func:`vision.cards.border.outer_border`), one whose border's relative width is the frame's
    median's (within :data:`BORDER_AGREEMENT`) is grown to it without the segmenter's agreement;
    0: not."""
    band: BandConfig | None = field(default_factory=BandConfig)
    """After the border steps, a quad too square for the deck (the aspect nearest the frame's
    quads' median) that left out a plain band across one end of the card (dark on wood, in shadow)
    is grown over it (:mod:`vision.cards.band`); ``None``: not."""
    frame_line: FrameLineConfig | None = field(default_factory=FrameLineConfig)
    """Then sides that ended at the card's printed frame (over another card of the same paper,
    where the card's own edge does not show) move out by the frame's inset that the other sides
    show (:mod:`vision.cards.frame_line`); ``None``: not."""
    stretch: StretchConfig | None = field(default_factory=StretchConfig)
    """Last, a quad whose one dimension matches its neighbours' while the other runs far longer
    (a side over the card beneath, a gap or a neighbour) has that side pulled in to the card's edge
    (:mod:`vision.cards.stretch`); ``None``: not."""
    grid: GridConfig | None = field(default_factory=GridConfig)
    """Very last, touching cards laid in a grid (the segmenter's card instances on whole steps of
    one another) take the quads of the grid that two or more found quads agree on
    (:mod:`vision.cards.grid`); ``None``: not."""
    own_edges: OwnEdgesConfig | None = field(default_factory=OwnEdgesConfig)
    """After the grid, a side that ran over a card beneath (its printed frame deeper than the
    other sides show theirs) moves in to the card's own border (:mod:`vision.cards.own_edges`);
    ``None``: not."""
    centre_groups: bool = True
    """A quad holding two or more of the segmenter's card centres and as many card-shaped quads
    of alike size is a group of touching cards, dropped for the cards inside it."""
    overgrown: bool = True
    """A quad of no card's shape holding one of the deck's shape (a card with half its
    neighbour, or with the card beneath) gives way to the card inside it."""
    shaped_ties: bool = True
    """Of two overlapping candidates whose scores are near-equal (equal to one decimal), one of the
    deck's shape goes before one of no card's shape, before the larger goes first (a card with a
    strip of the card beneath it or of its neighbour is the larger)."""
    inner_cards: bool = True
    """A candidate inside another is not dropped as a print where it has the deck's shape, most of
    the outer one's size and a clearly higher score (the outer one: a card with part of the card
    beneath it)."""
    one_of_group: bool = True
    """A quad not of the deck's shape, holding two or more of the segmenter's card centres and one
    candidate inside it of a card's shape (under some tilt) and at most :data:`GROUP_SHARE` of its
    area, is cards together (a card with its neighbour, or with the card beneath), dropped for the
    card inside it (one of the deck's shape is a card with its prints: the real photos' SET cards,
    where the segmenter, trained on rendered frames, sees two centres on one card)."""
    clear_inner: bool = True
    """A candidate of the deck's shape inside another (most of its size) is kept as the card, not
    dropped as its print, where it scores :data:`INNER_CARD_CLEAR` higher, even where the outer one
    has the deck's shape too (a loose quad around a card and the table or shadow beside it)."""
    min_texture: float = 0.01
    """At least this fraction of a card's inner three quarters lies on an edge (its print): on
    rendered frames a card's fraction is >= 0.07, a cloth's check under glare mostly below 0.01;
    on the real SET photos >= 0.015 (at full resolution); 0: not checked."""
    seg_table: float = 0.1
    """A candidate over which the learned segmenter's mean card probability is below this (it is
    nine tenths sure the place is no card: a cloth's check, a prop, a glare patch) is dropped where
    the segmenter shows it sees this frame's cards: at least :attr:`seg_table_support` of the
    reconciled candidates at :attr:`seg_card_sure` or more. Its "no card" alone is not trusted: on
    the real SET photos, unlike anything it was trained on, it sees the white cards as table (their
    mean card probability mostly 0.05-0.4, at most one card a photo at 0.7 or more); 0: not."""
    seg_table_support: int = 2
    """... at least this many candidates ..."""
    seg_card_sure: float = 0.7
    """... whose mean card probability is at least this."""
    plausible_sizes: bool = True
    """The typical card size that reconciling drops far-off sizes against is taken from the quads
    the texture and segmenter checks keep (not a cloth's checks or a plain patch: where they
    outnumber the cards, the cards were dropped as too large)."""
    regular_first: RegularConfig | None = field(default_factory=RegularConfig)
    """Of overlapping candidates, one of a card's regular shape (opposite sides near parallel and
    of near one length: :mod:`vision.cards.regular`) goes before one that is not, whatever their
    scores (a quad with a side along a shadow, across a print or over the card beneath fits the
    edges as well as the card's own); ``None``: scores first."""
    no_card_shape: RegularConfig | None = field(
        default_factory=lambda: RegularConfig(max_skew=25.0, max_length_ratio=1.4)
    )
    """Last, a found quad this far from a parallelogram (opposite sides more than 25 degrees from
    parallel, or one 1.4 times the other's length) is dropped: no card's quad, wherever its sides
    were fitted (true quads: 4.4 degrees and 1.073 at most on rendered frames, 3.8 and 1.098 on the
    real SET photos); ``None``: kept."""


@dataclass(frozen=True, eq=False)
class CardDetection:
    """One card found in one frame."""

    quad: np.ndarray
    """(4, 2) float32 corners, clockwise from the top-left-most, full-resolution pixels."""
    confidence: float
    """0..1: how card-like (rectangularity, aspect, edge contrast)."""

    def to_json(self) -> dict[str, object]:
        return {
            "quad": [[round(float(x), 2), round(float(y), 2)] for x, y in self.quad],
            "confidence": round(float(self.confidence), 4),
        }


def _odd(n: float) -> int:
    n = max(3, int(n))
    return n if n % 2 else n + 1


def whiteness(bgr: np.ndarray) -> np.ndarray:
    """The smallest of B, G, R per pixel (bright and grey-ish -> high), uint8."""
    b, g, r = cv2.split(bgr)
    return cv2.min(cv2.min(b, g), r)


def card_mask(small: np.ndarray, cfg: FinderConfig, ref_long: float | None = None) -> np.ndarray:
    """Card-like pixels (uint8 0/255) of a working-size BGR image (``ref_long``: the long side
    of the whole working image when ``small`` is a part of it)."""
    white = cv2.GaussianBlur(whiteness(small), (3, 3), 0)
    h, w = white.shape
    # Local table level: an opening wider than a card removes the cards, then smooth it.
    k = _odd((ref_long or max(h, w)) / 6)
    shrink = 4
    tiny = cv2.resize(white, (max(1, w // shrink), max(1, h // shrink)), interpolation=cv2.INTER_AREA)
    ker = cv2.getStructuringElement(cv2.MORPH_RECT, (_odd(k / shrink), _odd(k / shrink)))
    level = cv2.morphologyEx(tiny, cv2.MORPH_OPEN, ker)
    level = cv2.blur(level, (_odd(k / shrink), _odd(k / shrink)))
    level = cv2.resize(level, (w, h), interpolation=cv2.INTER_LINEAR)
    # threshold = level + margin * (0.5 + level / 255), saturating at 255
    thr = cv2.convertScaleAbs(level, alpha=1.0 + cfg.local_margin / 255.0, beta=0.5 * cfg.local_margin)
    local = cv2.compare(white, thr, cv2.CMP_GT)
    otsu, _ = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    _, globally = cv2.threshold(white, 0.6 * otsu, 255, cv2.THRESH_BINARY)
    return cv2.bitwise_and(local, globally)


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 255, thickness=cv2.FILLED)
    return out


def fit_quad(contour: np.ndarray) -> np.ndarray | None:
    """A quad around a blob outline: the 4 dominant sides of its convex hull, intersected."""
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    if peri <= 0:
        return None
    for eps in (0.02, 0.03, 0.045, 0.06, 0.08):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return order_quad(approx.reshape(4, 2).astype(np.float32))
        if len(approx) < 4:
            break
    approx = cv2.approxPolyDP(hull, 0.02 * peri, True).reshape(-1, 2).astype(np.float64)
    if len(approx) > 4:
        # Keep the 4 longest sides of the polygon (a clipped corner leaves a short side).
        n = len(approx)
        lengths = np.linalg.norm(np.roll(approx, -1, axis=0) - approx, axis=1)
        keep = np.sort(np.argsort(lengths)[-4:])
        corners = []
        for i in range(4):
            a, b = keep[i], keep[(i + 1) % 4]
            p1, d1 = approx[a], approx[(a + 1) % n] - approx[a]
            p2, d2 = approx[b], approx[(b + 1) % n] - approx[b]
            m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]])
            if abs(np.linalg.det(m)) < 1e-9:
                break
            t = np.linalg.solve(m, p2 - p1)
            corners.append(p1 + t[0] * d1)
        if len(corners) == 4:
            quad = np.array(corners, np.float32)
            if cv2.isContourConvex(quad.reshape(-1, 1, 2)) and quad_area(quad) < 1.4 * cv2.contourArea(hull):
                return order_quad(quad)
    box = cv2.boxPoints(cv2.minAreaRect(hull))
    return order_quad(box.astype(np.float32))


def _on_border(quad: np.ndarray, shape: tuple[int, int]) -> bool:
    """Whether a side of the quad runs along the image border (a blob cut by the frame)."""
    h, w = shape
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        for axis, limit in ((0, 0.0), (0, w - 1.0), (1, 0.0), (1, h - 1.0)):
            if abs(a[axis] - limit) < 6 and abs(b[axis] - limit) < 6:
                return True
    return False


def _score(blob_area: float, quad: np.ndarray, img_area: float, cfg: FinderConfig) -> float:
    """0..1 card-likeness of a blob and its quad; 0 when it cannot be one card."""
    area = quad_area(quad)
    if area < cfg.min_area_frac * img_area or area > cfg.max_area_frac * img_area:
        return 0.0
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        return 0.0
    if np.abs(corner_angles(quad) - 90.0).max() > cfg.max_angle_dev:
        return 0.0
    ar = aspect_ratio(quad)
    fill = blob_area / area
    if ar < cfg.min_aspect or fill < cfg.min_fill or fill > 1.15:
        return 0.0
    fill_score = np.clip((min(fill, 1.0) - cfg.min_fill) / (0.97 - cfg.min_fill), 0.0, 1.0)
    return float(0.5 + 0.5 * fill_score)


def _split_watershed(blob: np.ndarray) -> list[np.ndarray]:
    """Split a blob of touching cards at the necks of its distance transform."""
    dist = cv2.distanceTransform(blob, cv2.DIST_L2, 5)
    peak = float(dist.max())
    if peak < 3:
        return []
    for frac in (0.45, 0.6, 0.75):
        _, cores = cv2.threshold(dist, frac * peak, 255, cv2.THRESH_BINARY)
        n, markers = cv2.connectedComponents(cores.astype(np.uint8))
        if n - 1 >= 2:
            break
    else:
        return []
    markers = markers.astype(np.int32)
    markers[blob == 0] = n  # background label
    ws_img = cv2.cvtColor(blob, cv2.COLOR_GRAY2BGR)
    cv2.watershed(ws_img, markers)
    return [((markers == i) & (blob > 0)).astype(np.uint8) * 255 for i in range(1, n)]


def _split_at_peaks(blob: np.ndarray, peaks: np.ndarray) -> list[np.ndarray]:
    """Split a blob (uint8 0/255) into one part per card centre (``peaks``, (N, 2) in the blob's
    pixels): a watershed from a small disc at each centre, over a flat relief, so touching cards
    in a row part half-way between their centres."""
    markers = np.zeros(blob.shape, np.int32)
    for k, (x, y) in enumerate(np.round(peaks).astype(int)):
        cv2.circle(markers, (int(x), int(y)), 2, k + 1, -1)
    markers[blob == 0] = len(peaks) + 1
    cv2.watershed(np.zeros((*blob.shape, 3), np.uint8), markers)
    return [((markers == k + 1) & (blob > 0)).astype(np.uint8) * 255 for k in range(len(peaks))]


def _peak_split(
    c: np.ndarray, peaks: np.ndarray, shape: tuple[int, int], img_area: float, cfg: FinderConfig
) -> list[tuple[np.ndarray, float]]:
    """Quads of a blob's parts, one per learned card centre inside it (two or more)."""
    inside = [p for p in peaks if cv2.pointPolygonTest(c, (float(p[0]), float(p[1])), True) > 2.0]
    if len(inside) < 2:
        return []
    x, y, w, h = cv2.boundingRect(c)
    pad = 2
    blob = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(blob, [c], -1, 255, cv2.FILLED, offset=(pad - x, pad - y))
    shift = np.float32([x - pad, y - pad])
    out = []
    for part in _split_at_peaks(blob, np.float32(inside) - shift):
        pcs, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not pcs:
            continue
        pc = max(pcs, key=cv2.contourArea)
        q = fit_quad(pc)
        if q is None:
            continue
        s = _score(cv2.contourArea(pc), q, img_area, cfg)
        if s > 0 and not _on_border(q + shift, shape):
            out.append((q + shift, s * 0.9))
    return out


def _candidates(
    mask: np.ndarray,
    img_area: float,
    cfg: FinderConfig,
    nested: bool = False,
    peaks: np.ndarray | None = None,
) -> list[tuple[np.ndarray, float]]:
    """(quad, score) for every blob of the mask that looks like one card, splitting the others
    (``nested``: every component, also those inside holes of others, none split; ``peaks``: the
    learned card centres, working-image pixels: a blob holding two or more is also split at them)."""
    out: list[tuple[np.ndarray, float]] = []
    min_area = cfg.min_area_frac * img_area
    max_area = cfg.max_area_frac * img_area
    if nested:
        # Outer boundaries of the regions edges enclose, and the holes edges leave in a region
        # (a card whose face is cut up by its print is a hole, outlined, in the table's region).
        contours, _ = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    else:
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for c in contours:
        area = cv2.contourArea(c)
        if area < 0.6 * min_area or (nested and area > max_area):
            continue
        if peaks is not None and len(peaks) >= 2 and not nested and area <= 6 * max_area:
            out += _peak_split(c, peaks, mask.shape[:2], img_area, cfg)
        quad = fit_quad(c)
        score = _score(area, quad, img_area, cfg) if quad is not None else 0.0
        if score > 0 and _on_border(quad, mask.shape[:2]):
            continue
        if score > 0:
            out.append((quad, score))
            if cfg.box_alternative:
                # A blob that is a card plus something (its shadow, a neighbour's corner) has a
                # hull of five or six sides: its smallest box is another guess at the card.
                box = order_quad(cv2.boxPoints(cv2.minAreaRect(c)).astype(np.float32))
                bs = _score(area, box, img_area, cfg)
                if bs > 0 and np.abs(box - quad).max() > 2.0 and not _on_border(box, mask.shape[:2]):
                    out.append((box, bs * 0.95))
            continue
        if nested or area < 1.6 * min_area or area > 6 * max_area:
            continue
        # Several cards in one blob (a solid one: an arm or a glare patch is not): watershed.
        if area < 0.8 * cv2.contourArea(cv2.convexHull(c)):
            continue
        x, y, w, h = cv2.boundingRect(c)
        pad = 2
        blob = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
        cv2.drawContours(blob, [c], -1, 255, cv2.FILLED, offset=(pad - x, pad - y))
        for part in _split_watershed(blob):
            pcs, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            if not pcs:
                continue
            pc = max(pcs, key=cv2.contourArea)
            q = fit_quad(pc)
            if q is None:
                continue
            s = _score(cv2.contourArea(pc), q, img_area, cfg)
            if s > 0 and not _on_border(q + np.float32([x - pad, y - pad]), mask.shape[:2]):
                out.append((q + np.float32([x - pad, y - pad]), s * 0.9))
    return out


def _seg_candidates(
    seg: Segmentation,
    scale: float,
    origin: tuple[int, int],
    shape: tuple[int, int],
    img_area: float,
    cfg: FinderConfig,
    grey: np.ndarray | None = None,
) -> list[tuple[np.ndarray, float]]:
    """Quads of the segmenter's card instances, in the working image's pixels (``grey``: the
    working image, to fit each quad's sides to its edges)."""
    out: list[tuple[np.ndarray, float]] = []
    search = cfg.seg_refine * scale / max(seg.scale)
    for inst in seg_instances(seg, scale=scale, origin=origin):
        # The map is coarse and its corners round: the blob's hull quad and its smallest box, each
        # fitted to the image's edges, are both guesses at the card.
        guesses = [fit_quad(inst.outline), cv2.boxPoints(cv2.minAreaRect(inst.outline))]
        kept: list[np.ndarray] = []
        for k, quad in enumerate(guesses):
            if quad is None:
                continue
            quad = order_quad(np.asarray(quad, np.float32))
            if grey is not None and cfg.seg_refine > 0:
                quad, _ = refine_quad(grey, quad, search_px=max(3.0, search))
                quad = order_quad(quad)
            s = _score(inst.area, quad, img_area, cfg)
            if s <= 0 or _on_border(quad, shape) or any(np.abs(quad - q).max() <= 2.0 for q in kept):
                continue
            kept.append(quad)
            out.append((quad, s * (1.0 if k == 0 else 0.95)))
    return out


def _instance_candidates(
    seg: Segmentation,
    scale: float,
    origin: tuple[int, int],
    shape: tuple[int, int],
    img_area: float,
    cfg: FinderConfig,
    grey: np.ndarray | None = None,
) -> list[tuple[np.ndarray, float]]:
    """Quads of the segmenter's card centres (each peak's four corners), in the working image's
    pixels, fitted to the working image's edges (``grey``)."""
    out: list[tuple[np.ndarray, float]] = []
    search = cfg.inst_refine * scale / max(seg.scale)
    for quad, prob in seg.card_quads(cfg.inst_threshold):
        quad = order_quad(((quad - np.float32(origin)) * np.float32(scale)).astype(np.float32))
        if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
            continue
        if grey is not None and cfg.inst_refine > 0:
            quad, _ = refine_quad(grey, quad, search_px=max(3.0, search))
            quad = order_quad(quad)
        s = _score(quad_area(quad), quad, img_area, cfg)
        if s <= 0 or _on_border(quad, shape):
            continue
        out.append((quad, s * (0.6 + 0.4 * prob)))
    return out


def _centres_inside(quad: np.ndarray, centres: np.ndarray) -> int:
    """How many of the points lie inside the quad, at least a tenth of its side from the edge."""
    if len(centres) == 0:
        return 0
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    near = centres[((centres >= lo) & (centres <= hi)).all(axis=1)]
    margin = 0.1 * np.sqrt(max(quad_area(quad), 1.0))
    contour = quad.reshape(-1, 1, 2).astype(np.float32)
    return sum(cv2.pointPolygonTest(contour, (float(x), float(y)), True) > margin for x, y in near)


def _mask_candidates(
    mask: np.ndarray, cut: np.ndarray, img_area: float, cfg: FinderConfig, peaks: np.ndarray | None = None
) -> list[tuple[np.ndarray, float]]:
    """Candidates of a card mask: blobs split along edges, and whole blobs (a card's margin
    can be cut by its own print); ``peaks``: learned card centres to split blobs at."""
    carved = _fill_holes(cv2.bitwise_and(mask, cut))
    out = _candidates(carved, img_area, cfg, peaks=peaks)
    out += [(q, s * 0.95) for q, s in _candidates(_fill_holes(mask), img_area, cfg, peaks=peaks)]
    return out


BORDER_AGREEMENT = 0.25
"""A border's relative width within this fraction of the frame's median is the deck's border."""


def _border_reach(quad: np.ndarray, grown: np.ndarray) -> float:
    """How far ``grown`` reaches beyond ``quad`` (area gained over the perimeter), over the square
    root of ``quad``'s area (a card's border width relative to its size)."""
    area = quad_area(quad)
    perimeter = float(np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1).sum())
    return (quad_area(grown) - area) / max(perimeter, 1e-6) / max(np.sqrt(area), 1e-6)


def _ring_foreground(mask: np.ndarray, quad: np.ndarray, grown: np.ndarray, scale: float) -> float:
    """The fraction of the ring between ``quad`` and ``grown`` (full-resolution pixels) where the
    working-size ``mask`` is set."""
    inner, outer = quad * np.float32(scale), grown * np.float32(scale)
    a_in, a_out = quad_area(inner), quad_area(outer)
    if a_out <= a_in:
        return 0.0
    fg = _fraction_inside(mask, outer) * a_out - _fraction_inside(mask, inner) * a_in
    return float(np.clip(fg / (a_out - a_in), 0.0, 1.0))


def _table_gap(mask: np.ndarray | None, quad: np.ndarray, grown: np.ndarray, scale: float) -> bool:
    """Whether what ``grown`` adds around ``quad`` (full-resolution) is mostly table-coloured while
    what lies beyond it, as wide again, mostly is not (``mask``: the working image's not-table
    pixels): the table in the gaps between cards laid in rows, not a border of the card's own."""
    if mask is None:
        return False
    c = grown.mean(axis=0)
    beyond = c + (grown - c) * np.float32(np.sqrt(quad_area(grown) / max(quad_area(quad), 1.0)))
    ring = _ring_foreground(mask, quad, grown, scale)
    return ring < 0.5 and _ring_foreground(mask, grown, beyond, scale) >= 0.5


def _fraction_inside(mask: np.ndarray, quad: np.ndarray, shrink: float = 1.0, level: float = 0.0) -> float:
    """Fraction of the quad's pixels where ``mask`` is above ``level`` (``shrink``: of the quad
    scaled by that much about its centre)."""
    if shrink != 1.0:
        c = quad.mean(axis=0)
        quad = c + (quad - c) * np.float32(shrink)
    x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(mask.shape[1], x + w), min(mask.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    poly = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(poly, np.round(quad - np.float32([x0, y0])).astype(np.int32), 255)
    total = cv2.countNonZero(poly)
    if total == 0:
        return 0.0
    return (
        cv2.countNonZero(cv2.bitwise_and(poly, (mask[y0:y1, x0:x1] > level).astype(np.uint8) * 255)) / total
    )


def _contained(inner: np.ndarray, a_in: float, outer: np.ndarray, a_out: float) -> bool:
    """Whether ``inner`` lies (almost) wholly inside a quad at least ~1.4 times its area."""
    if a_in <= 0 or a_in > 0.7 * a_out:
        return False
    if (inner.min(axis=0) < outer.min(axis=0) - 0.2 * np.sqrt(a_in)).any() or (
        inner.max(axis=0) > outer.max(axis=0) + 0.2 * np.sqrt(a_in)
    ).any():
        return False
    inter, _ = cv2.intersectConvexConvex(inner, outer)
    return float(inter) > 0.8 * a_in


MERGED_COVER = 0.8
"""A quad that two or more distinct candidates inside it cover this much of is merged cards (a
card's prints inside its margin cover less), whatever the typical card size says."""


def _covered_fraction(outer: np.ndarray, inner: list[np.ndarray]) -> float:
    """The fraction of ``outer``'s area that the ``inner`` quads cover together."""
    x, y, w, h = cv2.boundingRect(np.round(outer).astype(np.int32))
    shift = np.float32([x, y])
    base = np.zeros((h + 1, w + 1), np.uint8)
    cv2.fillConvexPoly(base, np.round((outer - shift) * 4).astype(np.int32), 255, cv2.LINE_8, 2)
    union = np.zeros_like(base)
    for q in inner:
        cv2.fillConvexPoly(union, np.round((q - shift) * 4).astype(np.int32), 255, cv2.LINE_8, 2)
    total = cv2.countNonZero(base)
    return cv2.countNonZero(cv2.bitwise_and(base, union)) / total if total else 0.0


CARD_ASPECTS = (1.0, 0.645)
"""Short over long side of the games' cards: Twin It's are square, the others' about 0.645."""
CARD_SHAPE = 0.06
"""A quad's aspect ratio within this of its deck's is card-shaped (tilt bends it a little)."""
NO_CARD_SHAPE = 0.12
"""... and off it by at least this is no card's shape."""
MIN_INNER = 0.4
"""The card-shaped quad inside covers at least this fraction of the overgrown one."""


INNER_CARD_SIZE = 0.5
"""A candidate of the deck's shape inside another, at least this fraction of its area ..."""
INNER_CARD_MARGIN = 0.15
"""... and scored at least this much higher, is a card (the outer one: the card with part of the
card beneath or of a neighbour), not a print inside a card."""


INNER_CARD_CLEAR = 0.3
"""... or scored this much higher, whatever the outer one's shape (a loose quad of the deck's shape
around a card, with its shadow or the table beside it, fits the edges far worse)."""


TILT_COS = 0.82
"""A card's aspect ratio seen under the camera's largest tilt (35 degrees) shrinks to this much."""


GROUP_SIZES = 2.0
"""Card quads inside a group of touching cards are alike in size: the largest at most this many
times the smallest."""


GROUP_SHARE = 0.6
"""A quad over two or more card centres holding a card-shaped quad of at most this share of its
area (and at least 0.15) is a group of cards, not one card with a card-shaped print."""


def _card_shaped(aspect: float) -> bool:
    """Whether an aspect ratio (short / long) is a card's (:data:`CARD_ASPECTS`) under some camera
    tilt (:data:`TILT_COS`, less :data:`CARD_SHAPE` / 2 for perspective and lens)."""
    return any(d * TILT_COS - CARD_SHAPE / 2 <= aspect <= d + CARD_SHAPE for d in CARD_ASPECTS)


def _holds_cards(cands: list[tuple[np.ndarray, float]], areas: list[float], inner: list[int]) -> bool:
    """Whether two or more of the ``inner`` candidates have one card's shape (the nearest of
    :data:`CARD_ASPECTS`, within :data:`CARD_SHAPE`, the same for all) and alike sizes."""
    shaped: dict[float, list[float]] = {}
    for i in inner:
        a = aspect_ratio(cands[i][0])
        deck = min(CARD_ASPECTS, key=lambda c: abs(c - a))
        if abs(a - deck) <= CARD_SHAPE:
            shaped.setdefault(deck, []).append(areas[i])
    return any(len(v) >= 2 and max(v) <= GROUP_SIZES * min(v) for v in shaped.values())


def _overgrown(
    cands: list[tuple[np.ndarray, float]],
    areas: list[float],
    inside: np.ndarray,
    top: list[int],
    keep: list[int],
) -> set[int]:
    """The candidates (of ``keep``) of no card's shape that hold one of the deck's shape.

    The deck is the card aspect (:data:`CARD_ASPECTS`) nearest the median aspect of the candidates
    that lie in no other (``top``). A candidate within :data:`CARD_SHAPE` of it, lying inside one
    off it by :data:`NO_CARD_SHAPE` or more and covering at least :data:`MIN_INNER` of it, marks
    that one as a card grown over what lies beside or beneath it."""
    if not top:
        return set()
    aspects = np.array([aspect_ratio(q) for q, _ in cands])
    deck = min(CARD_ASPECTS, key=lambda a: abs(a - float(np.median(aspects[top]))))
    shaped = np.abs(aspects - deck) <= CARD_SHAPE
    out: set[int] = set()
    kept = set(keep)
    for j in keep:
        if abs(aspects[j] - deck) < NO_CARD_SHAPE:
            continue
        if any(
            inside[i, j] and shaped[i] and i in kept and areas[i] >= MIN_INNER * areas[j]
            for i in range(len(cands))
        ):
            out.add(j)
    return out


def _dedupe(
    cands: list[tuple[np.ndarray, float]],
    multi: list[bool] | None = None,
    overgrown: bool = True,
    shaped_ties: bool = True,
    inner_cards: bool = True,
    one_of_group: bool = True,
    clear_inner: bool = True,
    regular: RegularConfig | None = None,
    plausible: Callable[[np.ndarray], bool] | None = None,
) -> list[tuple[np.ndarray, float]]:
    """Drop quads that span two or more other candidates (touching cards merged) and blobs inside
    a card, keep the best of overlapping candidates (IoU > 0.5), drop sizes far off the typical.
    ``multi``: per candidate, whether it holds two or more of the segmenter's card centres (and a
    quad holding as many card-shaped quads is a group of cards); ``overgrown``: drop a quad of no
    card's shape that holds one of the deck's shape (:func:`_overgrown`); ``shaped_ties``: of
    overlapping candidates of near-equal scores, one of the deck's shape goes first;
    ``inner_cards``: a candidate inside another is kept when it is a card there
    (:data:`INNER_CARD_SIZE`, :data:`INNER_CARD_MARGIN`); ``one_of_group``: a quad holding two or
    more card centres and one card-shaped candidate of at most :data:`GROUP_SHARE` of its area is
    dropped for it; ``clear_inner``: a candidate of the deck's shape inside another is kept as a card
    where it scores :data:`INNER_CARD_CLEAR` higher, whatever the other's shape; ``regular``: of
    overlapping candidates, one of a card's regular shape (:func:`vision.cards.regular.is_regular`)
    goes first, and one inside a quad of no regular shape is a card there, not its print, where it
    has the deck's shape and most of that quad's size; ``plausible``: whether a kept quad may be a
    card at all (not one the finder's later checks drop as the table's pattern or a plain patch):
    where a kept quad is far off the median size of all kept ones, the typical card size that
    far-off sizes are dropped against is the median of those (where three or more are)."""
    areas = [quad_area(q) for q, _ in cands]
    n = len(cands)
    inside = np.zeros((n, n), bool)  # inside[i, j]: candidate i lies within candidate j
    for i in range(n):
        for j in range(n):
            if i != j:
                inside[i, j] = _contained(cands[i][0], areas[i], cands[j][0], areas[j])
    # Cards on one table are alike in size: the typical size is the median of the quads that lie
    # in no other (merged groups are few, prints and glare patches lie inside cards).
    top = [i for i in range(n) if not inside[i].any()]
    typical = float(np.median([areas[i] for i in top])) if top else 0.0
    aspects = np.array([aspect_ratio(q) for q, _ in cands])
    deck = min(CARD_ASPECTS, key=lambda a: abs(a - float(np.median(aspects[top])))) if top else None
    # A quad holding two or more distinct card-sized quads is either one card with big prints or
    # touching cards merged: keep whichever is nearer the typical card size.
    spans_two = np.zeros(n, bool)
    for j in range(n):
        distinct: list[int] = []
        for i in sorted((i for i in range(n) if inside[i, j]), key=lambda i: -areas[i]):
            if all(_iou_fast(cands[i][0], areas[i], cands[k][0], areas[k]) < 0.5 for k in distinct):
                distinct.append(i)
        big = [i for i in distinct if areas[i] >= 0.15 * areas[j]]
        if len(big) >= 2 and typical > 0:
            inner_size = float(np.mean([areas[i] for i in big]))
            spans_two[j] = abs(np.log(inner_size / typical)) < abs(np.log(areas[j] / typical))
        # several cards side by side that fill the quad: merged, whatever the typical size says
        if not spans_two[j] and len(distinct) >= 2:
            spans_two[j] = _covered_fraction(cands[j][0], [cands[i][0] for i in distinct]) >= MERGED_COVER
        # two or more card centres, and as many card-shaped quads of one size inside: a group of
        # touching cards, however small each is beside the group
        if not spans_two[j] and multi is not None and multi[j]:
            spans_two[j] = _holds_cards(cands, areas, [i for i in distinct if not multi[i]])
            # or one card of them: of a card's shape (under some tilt), a card's share of the
            # group, inside a quad not of the deck's shape (one of it is a card with its prints)
            if (
                not spans_two[j]
                and one_of_group
                and not (deck is not None and abs(aspects[j] - deck) <= CARD_SHAPE)
            ):
                spans_two[j] = any(
                    not multi[i] and _card_shaped(aspects[i]) and areas[i] <= GROUP_SHARE * areas[j]
                    for i in big
                )
    keep = [i for i in range(n) if not spans_two[i]]
    # A quad of no card's shape around one that has the deck's shape is a card with what lies
    # beside or beneath it (a neighbour's half, the card under it): the inner one is the card.
    if overgrown:
        grown = _overgrown(cands, areas, inside, top, keep)
        keep = [i for i in keep if i not in grown]
    shaped = np.zeros(n, bool)  # of the deck's shape
    if deck is not None:
        shaped = np.abs(aspects - deck) <= CARD_SHAPE

    # of a card's regular shape or not (near a parallelogram: vision.cards.regular)
    irregular = np.zeros(n, bool)
    if regular is not None and n:
        irregular = ~regular_mask(np.stack([q for q, _ in cands]), regular)

    def a_card_inside(i: int, j: int) -> bool:
        # a card inside a quad of it and part of the card beneath (or a neighbour), not a print:
        # of the deck's shape, most of the outer one's size, and scored clearly higher or of a
        # card's regular shape inside a quad that is not (a side along a shadow or a neighbour)
        return (
            inner_cards
            and shaped[i]
            and areas[i] >= INNER_CARD_SIZE * areas[j]
            and (
                (not shaped[j] and cands[i][1] >= cands[j][1] + INNER_CARD_MARGIN)
                or (clear_inner and cands[i][1] >= cands[j][1] + INNER_CARD_CLEAR)
                or (irregular[j] and not irregular[i])
            )
        )

    # A blob inside a card (its print, a glare patch) is not a card.
    keep = [i for i in keep if not any(inside[i, j] and not a_card_inside(i, j) for j in keep)]
    kept: list[tuple[np.ndarray, float, float]] = []
    # Near-equal scores: a quad of the deck's shape before one of no card's shape (a card with a
    # strip of the card beneath it), then the larger (a card's printed outline belongs to the card).
    if not shaped_ties:
        shaped = np.zeros(n, bool)
    # A candidate of a card's regular shape before one that is not.
    for i in sorted(keep, key=lambda i: (irregular[i], -round(cands[i][1], 1), not shaped[i], -areas[i])):
        q = cands[i][0]
        if all(_iou_fast(q, areas[i], k, ka) < 0.5 for k, _, ka in kept):
            kept.append((q, cands[i][1], areas[i]))
    # Cards on one table are of one size, give or take perspective: drop the far-off sizes.
    if len(kept) >= 3:
        typical = float(np.median([a for _, _, a in kept]))
        if plausible is not None and any(not 0.3 * typical <= a <= 2.5 * typical for _, _, a in kept):
            # (asked only where a size would go: the checks cost a little on every search)
            basis = [a for q, _, a in kept if plausible(q)]
            if len(basis) >= 3:
                typical = float(np.median(basis))
        kept = [k for k in kept if 0.3 * typical <= k[2] <= 2.5 * typical]
    return [(q, s) for q, s, _ in kept]


def _seg_sure_cards(probs: list[float], cfg: FinderConfig) -> bool:
    """Whether the segmenter shows it sees this frame's cards: at least
    :attr:`FinderConfig.seg_table_support` of the reconciled candidates (``probs``: the mean card
    probability over each) at :attr:`FinderConfig.seg_card_sure` or more."""
    return sum(p >= cfg.seg_card_sure for p in probs) >= cfg.seg_table_support


def _iou_fast(a: np.ndarray, area_a: float, b: np.ndarray, area_b: float) -> float:
    if (a.max(axis=0) < b.min(axis=0)).any() or (b.max(axis=0) < a.min(axis=0)).any():
        return 0.0
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = area_a + area_b - float(inter)
    return float(inter) / union if union > 0 else 0.0


def _known_match(quad: np.ndarray, known: list[CardDetection]) -> CardDetection | None:
    """The known card a rough quad lies on (IoU >= 0.8), if any."""
    area = quad_area(quad)
    for k in known:
        if _iou_fast(quad, area, k.quad, quad_area(k.quad)) >= 0.8:
            return k
    return None


def find_cards(
    image: np.ndarray,
    cfg: FinderConfig | None = None,
    roi: tuple[int, int, int, int] | None = None,
    known: list[CardDetection] | None = None,
    colours: np.ndarray | None = None,
    segmentation: Segmentation | None = None,
) -> list[CardDetection]:
    """Every card at least ~80 % visible in a BGR image, as quads in the image's pixels.

    With ``roi`` (x, y, width, height) only that part is searched, with the whole image's scale
    and size limits (cards cut by the ROI's edge are left out): the pipeline's way of working
    only on what changed. ``known``: cards whose pixels did not change since they were found
    (full-image coordinates); a candidate on one of them takes its quad without refining again.
    ``colours``: the table's colours (:func:`vision.cards.segment.table_colours` of the whole
    frame); learned from the searched image's own border when not given. ``segmentation``: the
    learned segmenter's maps of this frame (:meth:`vision.segmenter.Segmenter.segment`, run once
    per frame by the pipeline); made here when not given and ``cfg.segmenter`` is on.
    """
    cfg = cfg or FinderConfig()
    if image is None or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("find_cards expects a BGR image of shape (H, W, 3)")
    h, w = image.shape[:2]
    scale = min(1.0, cfg.work_long / max(h, w))
    img_area = float(h * w) * scale * scale
    ox, oy = 0, 0
    if roi is not None:
        x0, y0 = max(0, int(roi[0])), max(0, int(roi[1]))
        x1, y1 = min(w, int(roi[0] + roi[2])), min(h, int(roi[1] + roi[3]))
        if x1 - x0 < 8 or y1 - y0 < 8:
            return []
        image = image[y0:y1, x0:x1]
        ox, oy = x0, y0
    interp = cv2.INTER_AREA if scale < 0.5 else cv2.INTER_LINEAR
    small = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale, interpolation=interp)

    # Edge thresholds follow the image's own contrast (a dim table under a dim light has weak
    # edges everywhere): from the strong end of the gradient distribution, capped at the defaults.
    mag0 = colour_gradient_magnitude(small)
    strong = float(np.percentile(mag0[::4, ::4], 99))
    gain = float(np.clip(strong / 60.0, 0.3, 1.0))
    mag, edges = colour_gradient(small, low=int(60 * gain), high=int(150 * gain))
    support_level = cfg.support_gradient * gain
    cut = cv2.bitwise_not(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
    white = cv2.morphologyEx(
        card_mask(small, cfg, ref_long=max(h, w) * scale), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)
    )
    seg = segmentation
    if cfg.segmenter and seg is None:
        seg = Segmenter.load().segment(image, frame_size=(w, h), offset=(ox, oy))
    centres = np.zeros((0, 2), np.float32)
    if seg is not None:
        centres = (seg.card_centres(cfg.inst_threshold)[0] - np.float32([ox, oy])) * np.float32(scale)
    peaks = centres if cfg.peak_split and len(centres) >= 2 else None
    # (candidates, whether each must prove it is not table-coloured)
    sources: list[tuple[list[tuple[np.ndarray, float]], bool]] = []
    white_cands = _mask_candidates(white, cut, img_area, cfg, peaks)
    # Bright cards on a darker table; but on a cloth with white checks, white is table colour.
    bsz = max(2, int(0.03 * min(white.shape)))
    band_white = float(
        np.mean([white[:bsz].mean(), white[-bsz:].mean(), white[:, :bsz].mean(), white[:, -bsz:].mean()])
        / 255
    )
    white_is_table = band_white > 0.25 or len(white_cands) > 36
    sources.append((white_cands, white_is_table))
    foreground = None
    if cfg.table_model:
        # Not table-coloured: what a card must mostly be.
        # (at half resolution: it is a coarse cue, and the HSV histogram work is the costly part)
        half = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA)
        if colours is None:
            colours = table_colours(half)
        foreground = cv2.resize(
            table_model_mask(half, colours), (small.shape[1], small.shape[0]), interpolation=cv2.INTER_NEAREST
        )
        fg = cv2.morphologyEx(foreground, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        sources.append((_mask_candidates(fg, cut, img_area, cfg, peaks), True))
    if cfg.edge_loops:
        # Regions enclosed by edges (a card's outline, the gaps around touching cards).
        sources.append(([(q, s * 0.9) for q, s in _candidates(cut, img_area, cfg, nested=True)], True))
    n_classical = sum(len(c) for c, _ in sources)
    if seg is not None:
        grey_small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if cfg.seg_refine > 0 else None
        seg_cands = _seg_candidates(seg, scale, (ox, oy), small.shape[:2], img_area, cfg, grey_small)
        sources.append((seg_cands, False))
    n_seg = sum(len(c) for c, _ in sources)
    if seg is not None and cfg.instances and seg.center is not None:
        grey_small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        inst = _instance_candidates(seg, scale, (ox, oy), small.shape[:2], img_area, cfg, grey_small)
        sources.append((inst, False))
    # Edge support: a card's outline lies on strong gradient all round.
    band = cv2.dilate(mag, np.ones((9, 9), np.uint8))
    # How exactly a quad's sides lie on edges (ranks overlapping candidates: a card with its
    # cast shadow, or with the card beneath a pile's top card, is a worse fit than the card).
    tight = cv2.dilate(mag, np.ones((5, 5), np.uint8))
    supported = []
    merged: list[bool] = []
    n_supported = 0
    k = 0
    for cands, check_colour in sources:
        for q, s in cands:
            k += 1
            learned = k > n_classical
            instance = k > n_seg
            sup = side_support(band, q, support_level)
            if instance:
                if sup.min() < cfg.inst_min_side_support or sup.mean() < cfg.inst_min_support:
                    continue
            elif sup.min() < cfg.min_side_support or sup.mean() < cfg.min_support:
                continue
            if (
                check_colour
                and foreground is not None
                and _fraction_inside(foreground, q) < cfg.min_foreground
            ):
                continue
            if (
                seg is not None
                and cfg.seg_veto > 0
                and not learned
                and seg.fraction(seg.card, q / scale + np.float32([ox, oy])) < cfg.seg_veto
            ):
                continue
            n_centres = _centres_inside(q, centres)
            if not learned and n_centres >= 2 and cfg.drop_multi_centre:
                continue
            if learned and (cfg.inst_fill_only if instance else cfg.seg_fill_only):
                area = quad_area(q)
                # a classical quad over two or more card centres (touching cards merged) does not
                # hold the learned ones back
                if any(
                    _iou_fast(q, area, c, quad_area(c)) > 0.3 and not multi
                    for (c, _), multi in zip(supported[:n_supported], merged, strict=False)
                ):
                    continue
            fit = float(side_support(tight, q, 1.5 * support_level).mean())
            supported.append((q, s * (0.5 + 0.5 * fit)))
            merged.append(n_centres >= 2)
            if not learned:
                n_supported = len(supported)

    seg_shift, seg_scale = np.float32([ox, oy]), np.float32(scale)

    def plausible(q: np.ndarray) -> bool:
        # what the checks below keep: a print inside (min_texture), not what the segmenter is
        # sure is table (seg_table)
        if cfg.min_texture > 0 and _fraction_inside(mag, q, 0.75, support_level) < cfg.min_texture:
            return False
        return (
            seg is None
            or cfg.seg_table <= 0
            or seg.fraction(seg.card, q / seg_scale + seg_shift) >= cfg.seg_table
        )

    cands = _dedupe(
        supported,
        merged if cfg.centre_groups else None,
        cfg.overgrown,
        cfg.shaped_ties,
        cfg.inner_cards,
        cfg.one_of_group,
        cfg.clear_inner,
        cfg.regular_first,
        plausible=plausible if cfg.plausible_sizes else None,
    )
    if cfg.min_texture > 0:
        # a card carries a print; a plain patch (a cloth's check under glare, a sheet) does not
        cands = [(q, s) for q, s in cands if _fraction_inside(mag, q, 0.75, support_level) >= cfg.min_texture]
    if seg is not None and cfg.seg_table > 0 and len(cands) > cfg.seg_table_support:
        # where the segmenter shows it sees the frame's cards, what it is sure is table goes
        shift, f = np.float32([ox, oy]), np.float32(scale)
        probs = [seg.fraction(seg.card, q / f + shift) for q, _ in cands]
        if _seg_sure_cards(probs, cfg):
            cands = [c for c, p in zip(cands, probs, strict=True) if p >= cfg.seg_table]

    full_grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if cfg.refine else None
    # the segmenter's own quads (each centre's regressed corners), in the searched image's pixels
    learned = (
        [lq - np.float32([ox, oy]) for lq, _ in seg.card_quads(cfg.inst_threshold)] if seg is not None else []
    )
    channels: tuple[np.ndarray, ...] | None = None
    dets = []
    borders: list[float] = []  # each border found's relative width (:func:`_border_reach`)
    unconfirmed: list[tuple[int, float, np.ndarray]] = []  # (det, relative width, grown quad)
    reused: set[int] = set()  # ids of the known cards taken as they were (every step done on them)
    for q, s in cands:
        quad = q / scale if scale != 1.0 else q.copy()
        # The carved mask lies ~1 px inside the card's edge: grow by the carve before refining.
        c = quad.mean(axis=0)
        quad = c + (quad - c) * (1.0 + 1.5 / max(1.0, np.sqrt(quad_area(q))))
        conf = s
        same = _known_match((quad + np.float32([ox, oy])).astype(np.float32), known) if known else None
        if same is not None:
            dets.append(same)
            reused.add(id(same))
            continue
        if full_grey is not None:
            search = max(6.0, 5.0 / scale)
            first, edge = refine_quad(full_grey, quad, search_px=search)
            if np.abs(first - quad).max() > 0.3 * search:
                # Moved far (an outline's outer edge was near the window's end): once more.
                first, edge = refine_quad(full_grey, first, search_px=search)
            widths = None
            if cfg.outer_margin:
                # a printed frame found instead of the card's edge: the card's margin beyond
                widths = margin_widths(full_grey, first)
                if widths is None and cfg.colour_margin:
                    # a margin of the table's brightness but not of its colour (cream on pale blue)
                    if channels is None:
                        channels = cv2.split(image)
                    for ch in channels:
                        widths = margin_widths(ch, first)
                        if widths is not None:
                            break
                if widths is not None:
                    measured = widths[~np.isnan(widths)]
                    grown = move_sides(first, np.where(np.isnan(widths), float(np.median(measured)), widths))
                if widths is not None and grown is not None:
                    first, edge = refine_quad(full_grey, grown, search_px=2.0)
            quad = first
            conf = s * (0.6 + 0.4 * edge)
        if cfg.snap is not None:
            # a quad moved out past its printed frame to the margin's outer edge does not snap back
            # in to the frame (a margin of nearly the table's colour reads as table to the snap)
            inward = None
            if (
                cfg.margin_holds is not None
                and full_grey is not None
                and widths is not None
                and grown is not None
            ):
                inward = np.where(np.isnan(widths), -np.inf, -cfg.margin_holds)
            quad, _ = snap_quad(image, quad, colours, cfg.snap, min_offset=inward)
        pending: np.ndarray | None = None
        if cfg.border is not None and learned:
            grown = outer_border(image, quad, cfg.border)
            if grown is not None:
                borders.append(_border_reach(quad, grown))
                if learned_agrees(quad, grown, learned):
                    quad = grown
                else:
                    pending = grown
        if conf >= cfg.min_confidence:
            if pending is not None:
                unconfirmed.append((len(dets), _border_reach(quad, pending), pending))
            dets.append(CardDetection(order_quad(quad + np.float32([ox, oy])), float(conf)))
    if cfg.border_agree > 0 and len(borders) >= cfg.border_agree and unconfirmed:
        # cards of one deck have one border: where enough cards show a border of one relative
        # width, a card showing the same is taken as grown without the segmenter's word
        typical = float(np.median(borders))
        for k, reach, grown in unconfirmed:
            quad = dets[k].quad - np.float32([ox, oy])
            if abs(reach - typical) <= BORDER_AGREEMENT * typical and not _table_gap(
                foreground, quad, grown, scale
            ):
                dets[k] = CardDetection(order_quad(grown + np.float32([ox, oy])), dets[k].confidence)
    if cfg.band is not None and dets:
        median_aspect = float(np.median([aspect_ratio(d.quad) for d in dets]))
        deck = min(CARD_ASPECTS, key=lambda a: abs(a - median_aspect))
        for k, d in enumerate(dets):
            grown = grow_band(image, d.quad - np.float32([ox, oy]), deck, colours, cfg.band)
            if grown is not None:
                dets[k] = CardDetection(order_quad(grown + np.float32([ox, oy])), d.confidence)
    if cfg.frame_line is not None:
        for k, d in enumerate(dets):
            moved = align_to_frame(image, d.quad - np.float32([ox, oy]), cfg.frame_line)
            if moved is not None:
                dets[k] = CardDetection(order_quad(moved + np.float32([ox, oy])), d.confidence)
    if cfg.shared_edges > 0 and len(dets) >= 2:
        split = split_shared_edges([d.quad for d in dets], cfg.shared_edges)
        dets = [
            d if np.array_equal(q, d.quad) else CardDetection(order_quad(q), d.confidence)
            for d, q in zip(dets, split, strict=True)
        ]
    if cfg.close_gaps > 0 and foreground is not None and len(dets) >= 2:
        shift = np.float32([ox, oy])

        def is_card(strip: np.ndarray) -> bool:
            if _fraction_inside(foreground, (strip - shift) * np.float32(scale)) < cfg.gap_card:
                return False
            return seg is None or seg.fraction(seg.card, strip) >= cfg.gap_seg_card

        median_aspect = float(np.median([aspect_ratio(d.quad) for d in dets]))
        deck = min(CARD_ASPECTS, key=lambda a: abs(a - median_aspect))
        closed = close_gaps([d.quad for d in dets], is_card, cfg.close_gaps, deck)
        dets = [
            d if np.array_equal(q, order_quad(d.quad)) else CardDetection(order_quad(q), d.confidence)
            for d, q in zip(dets, closed, strict=True)
        ]
    if cfg.stretch is not None and len(dets) >= 2:
        offset = np.float32([ox, oy])
        pulled = pull_stretched(image, [d.quad - offset for d in dets], cfg.stretch)
        dets = [
            d if np.allclose(q + offset, d.quad) else CardDetection(order_quad(q + offset), d.confidence)
            for d, q in zip(dets, pulled, strict=True)
        ]
    if (
        cfg.grid is not None
        and seg is not None
        and foreground is not None
        and len(dets) >= cfg.grid.min_cards
    ):
        shift = np.float32([ox, oy])

        def seam_card(strip: np.ndarray) -> float:
            return _fraction_inside(foreground, (strip - shift) * np.float32(scale))

        dets = _grid_step(dets, seg, cfg, (ox, oy, image.shape[1], image.shape[0]), seam_card)
    if cfg.own_edges is not None and dets:
        offset = np.float32([ox, oy])
        median_aspect = float(np.median([aspect_ratio(d.quad) for d in dets]))
        deck = min(CARD_ASPECTS, key=lambda a: abs(a - median_aspect))
        for k, d in enumerate(dets):
            if id(d) in reused:
                continue
            own = own_sides(image, d.quad - offset, deck, cfg.own_edges)
            if own is not None:
                dets[k] = CardDetection(order_quad(own + offset), d.confidence)
    if cfg.no_card_shape is not None and dets:
        dets = [
            d
            for d, ok in zip(
                dets, regular_mask(np.stack([d.quad for d in dets]), cfg.no_card_shape), strict=True
            )
            if ok
        ]
    log.debug("found %d cards in %dx%d (roi %s)", len(dets), w, h, roi)
    return dets


def _grid_step(
    dets: list[CardDetection],
    seg: Segmentation,
    cfg: FinderConfig,
    area: tuple[int, int, int, int],
    seam_card: Callable[[np.ndarray], float] | None = None,
) -> list[CardDetection]:
    """Touching cards in a grid: the found quads the grid disowns give way to its cells
    (:mod:`vision.cards.grid`); ``area``: the searched part (x, y, width, height); ``seam_card``:
    how much of a strip is not table-coloured."""
    assert cfg.grid is not None
    instances = [q for q, _ in seg.card_quads(cfg.inst_threshold)]
    if len(instances) < 2:
        return dets
    grids = grid_cells(instances, [d.quad for d in dets], cfg.grid, seam_card)
    if not grids:
        return dets
    x, y, w, h = area
    # a cell beyond the searched part is left to the search that covers it
    grids = [
        [
            c
            for c in cells
            if c[:, 0].min() >= x and c[:, 1].min() >= y and c[:, 0].max() <= x + w and c[:, 1].max() <= y + h
        ]
        for cells in grids
    ]
    keep, added = apply_grid([d.quad for d in dets], [g for g in grids if g], cfg.grid)
    if len(keep) == len(dets) and not added:
        return dets
    conf = float(np.median([d.confidence for d in dets]))
    return [dets[k] for k in keep] + [CardDetection(order_quad(c), conf) for c in added]
