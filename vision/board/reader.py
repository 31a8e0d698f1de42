"""Read every hole (or intersection) of a located board: empty, colour 1 or colour 2, and links.

The frame is rectified with the board's homography to a canonical top-down grid (``PX`` pixels
per pitch). The bare board is modelled from the cell centres (the points between four holes,
which no peg, stone or link ever covers): a smooth quadratic colour surface plus each hole's
local correction, so light gradients, tints and soft shadows divide out. Each hole's colour in a
small disc becomes a log-ratio against that local board colour and is compared with three
prototypes (empty, colour 1, colour 2) learned from the board itself, starting from nominal
colours, then again against local prototypes learnt from each class's confident members around
each hole (light added on top, lamp or glare, lifts a dark piece more than a ratio says), and, with
its own light taken off, against the pieces' classes learnt with their members' light taken off (a
class learnt as seen is a piece under its members' mean light: one under none is darker). A cell
that does not look like the board (a hand, an arm, a sleeve) makes its four holes abstain; so
does a hole that matches no prototype. Abstaining is never a misread. A shadow or a light changes
the cells' hue too, but the holes under it still show themselves (pits, pegs in their colours,
judged against those cells): such cells are bare board, in whole groups or in the parts of a group
that runs into a hand (a hand hides the holes under it). A class with few members learns nothing
from holes beside holes that match nothing side by side (a hand the board's colour). No class is
expected darker than the camera's black (a black peg in deep shadow).

Links: for each pair of same-colour pegs a knight's move apart, samples along the segment
between the peg discs vote "peg colour" or "board" (light added on top taken off, as for holes).
On a board clipped at white a hueless bridge is seen darker than the board (or than the board beside
it, off any peg there), without hue or with the hue tinted light gives its pegs.

Where glare clips the board at white, holes are read by the shape of what still shows (a pit, a
piece's round disc: :mod:`vision.board.glare`) or abstain. Where it carries only one or two of the
board's channels to white (a pale wood's red), the others rise alike: such cells are light, not a
hand; the light added there is measured on the channels still below white, and the board under it in
the others is the smooth model's (so the holes beside them are judged as anywhere else). Beside
holes that match nothing, a hole plainly empty (its pit inside a ring of bare board) is seen. Beside
a hand, a hole whose ring differs from its class only by a brightness shift (the hand's shadow) is
read. A piece standing alone that matches nothing under added light is tried under more light, up to
what a pit beside it measures (a glare's narrow peak lifts it more than the board's cells around it);
cells taken for a hand by their hue against a smooth model run past white are bare board when they
show the hue of the board's cells below white. A Go point read empty must show bare board in the
quarters between its lines; under added light a Go point showing one even disc brighter than the
board is the white stone, and one whose quarters, centre and ring are dark once that light is taken
off, the black one; a stone's ring may be a little brighter or darker than its class's alike in
every channel (a shadow's edge beside it). Incremental reads remember each hole's last confident
value and keep it while glare alone hides the hole and no hand came near (``BoardReading.remembered``);
while a hand is over the board, a piece they find turned into the other colour abstains (something
lies over it). They judge plainly empty holes beside a hand as a full read does, and look for new
light or shadow among the cells that match nothing as it does.

    >>> reader = BoardReader(BoardSpec.twixt(), location)          # doctest: +SKIP
    >>> reading = reader.read(frame)                                # doctest: +SKIP
    >>> reading.matrix[3, 5], reading.confidence[3, 5]              # doctest: +SKIP
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.board_finder import BoardLocation, distort_points
from vision.board.glare import OFFSET_X, OFFSET_Y, board_pit_lean, clean_pits, read_shapes
from vision.board.spec import BoardSpec
from vision.errors import InputError

log = logging.getLogger(__name__)

PX = 16
"""Canonical pixels per lattice pitch."""
DISC_RADIUS = 0.25
"""Radius (in pitches) of the disc whose colour stands for a hole."""
INNER_RADIUS = 0.1
"""Radius of the disc's centre part (a hole itself), read apart from the ring around it."""
SIGMA = 0.15
"""Spread (log-ratio units) of a class around its prototype, for confidences."""
OUTLIER = 0.6
"""A hole farther than this from every learnt prototype matches nothing: it abstains."""
SPREAD_MIN = 0.04
"""Smallest per-channel spread of a learnt class (log-ratio units)."""
LIFT = 0.02
"""Light added on top of a piece, as a share of the board's brightness, that a class's spread allows for."""
SPREAD_DEFAULT = 0.1
"""Per-channel spread of a class until it has enough members to measure its own."""
SPREAD_Z = 3.5
"""A point farther than this many of its class's spreads (root mean square) matches nothing."""
HUED_SHIFT = 0.2
"""A coloured piece's ring may differ from its class's by this much brightness (log units, alike in
every channel) beyond its spread (see ``_classify``)."""
GLARE_HUE = 0.05
"""Hue change left over once glare's pull towards grey is taken out, below which a cell is lit,
not covered."""
MIN_HAND_CELLS = 3
"""Occluded cells count as a hand only in groups of at least this many."""
NEAR_HAND = 0.7
"""Next to a covered hole, a hole abstains from this fraction of the usual limits."""
CHROMA_TOL = 0.2
"""How far a point's hue (its log colour less its mean, centre and ring) may be from its class's."""
CHROMA_SCALE = (0.7, 1.3)
"""The range of shares of its class's hue a piece's hue may show (paler, stronger) untaxed."""
OUTLIER_NOMINAL = 1.2
"""The same for a prototype still at its nominal colour (no such piece seen on this board yet)."""
EMPTY_RING = 0.3
"""A point whose ring is this close to the board colour is taken as empty to learn that class."""
TRUST = 1.3
"""Only holes this close to a nominal prototype may move it (so a hand cannot become a peg)."""
GLARE_MIN = 0.0
"""A hole's board brighter than the smooth board model by more than this (log units) is lit: its
hole is also read with that extra light taken off (the better fit wins)."""
CLIP_LEVEL = 240.0
"""A board this bright (0..255, every channel) is clipped at white by glare."""
SAT_LEVEL = 250.0
"""A channel this bright (0..255) in a cell is at white (see ``_saturated_glare``) ..."""
SAT_LIFT = 10.0
"""... a cell lit by glare there has some channel lifted by at least this (0..255) ..."""
SAT_EVEN = 0.3
"""... and each channel within this share of that lift (plus ``NOISE_LEVEL``) of its board plus the
lift, clipped at white (white light)."""
WHITE_EVEN = 0.15
"""A cell lit by glare whatever its channels reach: each within this share of the lift (plus twice
``NOISE_LEVEL``) of its board plus the lift, clipped at white (see ``_saturated_glare``; 0: only
where the light carries some channel to white)."""
BLACK_LEVEL = 10.0
"""The darkest a camera shows anything (0..255, noise included): no class is expected darker."""
NOISE_LEVEL = 3.0
"""Noise (0..255) in a cell's colour."""
CLIP_PIT = 0.04
"""There an empty hole's centre is still darker than its ring by at least this (log units) ..."""
CLIP_RING = 0.05
"""... and its ring within this of the board in every channel (a piece's ring is not)."""
CLIP_MATCH = 0.5
"""The distance (in outlier limits) given to an empty hole read that way (a weak match)."""
CLIP_DARK = 0.15
"""There a ring darker than the board by this much (log units, mean) is a piece's."""
CLIP_COS = 0.95
"""... and one whose hue points this closely (cosine) along the one coloured class's is that piece."""
CLIP_HUE = 0.3
"""There a hueless piece's ring differs from the board with at most this share of hue."""
DARK_SEED = 0.5
"""A ring darker than its board by this much (log units, mean), without hue, may teach the hueless
piece's class (see ``_learn_dark``)."""
LIT_DARK = 0.3
"""Under added light, a ring darker than its board by this much (log units, mean) without hue is
the hueless piece's (see ``_lit_dark_pieces``)."""
LIT_PIT = 0.5
"""... and whose centre is darker than its ring by less than this share of an empty hole's pit."""
SAT_BASE = True
"""Where one or two of a lit board's channels are at white, the added light is measured on the
others and the board under it there is the smooth model's (see ``_board_model``)."""
SAT_SUSPECT = False
"""Whether a hole beside cells lit past white in some channel must match its class as closely as
beside a hand (``NEAR_HAND``). Off since the light there is measured on the channels below white
(``SAT_BASE``): over the 16 seeds' render boards, grey pegs under strong glare there matched within
0.71 and 0.99 and abstained (seeds 113 and 131), and with it off no hole is misread."""
PIT_LIFT = True
PIT_CALM = 20.0
"""Percentile of the empty holes' pit-to-board ratios taken as unlit by added light."""
PIT_LIFT_MIN = 3.0
"""Added light (0..255) below which a hole is taken as unlit."""
LIT_MIN = 2.0
"""Added light (0..255) below which a hole is read only as seen (the difference is noise)."""
STONE_SHIFT = True
"""Whether a Go stone's ring may differ from its class's by ``HUED_SHIFT`` of brightness beyond its
spread, as a coloured Twixt peg's may."""
PAST_WHITE_HUE = True
"""Whether a cell below white taken for a hand by its hue where the smooth board model runs past
white is bare board when it shows the hue of the board's cells below white (``_past_white_chroma``)."""
PAST_WHITE_CELLS = 12
"""... learnt from at least this many of the model's cells below white."""
PEAK_LIGHT = True
"""Whether a piece unread under added light is also tried under more light, up to the most that a
pit beside it measures (``_peak_light``): the light the board's cells and the smoothed pits give a
hole falls short at a narrow glare's peak, where a pit one hole away shows twice as much."""
PEAK_PITS = 2
"""... where at least this many of its eight neighbours' pits were measured."""
PEAK_STEPS = 6
"""... at this many amounts of light between the hole's own estimate and that most."""
GLARE_FADE = 0.02
"""... and by this much, its pieces and links may look faded towards it (see ``FADE_MIN``)."""
FADE_MIN = 0.4
"""Under glare a piece's contrast with the board may fade to this share, no further."""
FADE_SEEN = 0.2
"""... and a hole showing less than this share of it (projected on the class) is not read as it faded."""
FADE_CHROMA = 0.5
"""Only a class with this much hue (log units, centre and ring) is tried faded."""
RING_MATCH = 0.35
"""A hole beside one next to a hand is read when this close to its class (in outlier limits)."""
OPEN_EMPTY = 0.2
"""Beside holes that match nothing, a hole a full read finds matching the empty hole this closely (in
outlier limits: its pit and its bare ring) is seen, unless next to an occluded cell (``_assemble``)."""
OPEN_BESIDE = 0.1
"""... and one next to at most ``OPEN_BESIDE_CELLS`` occluded cells (a hand's margin, its shadow) is
seen when it matches the empty hole this closely: a finger over part of it would fill its pit or
tint its ring, and a peg it hid shows no pit (over the 16 seeds' hand boards, the closest a hole
under a hand came to an empty hole with a peg in it was 0.26; 0: never read so)."""
OPEN_BESIDE_CELLS = 2
"""(0: never.) A hand's edge may lie within a hole's footprint while its pit and ring still show, so
such a hole is seen only where the board all round it, ``OPEN_BESIDE_REACH`` pitches out in
``OPEN_BESIDE_POINTS`` directions, is bare: its hue within ``OPEN_BESIDE_HUE`` of its board's and
its brightness within ``OPEN_BESIDE_SHADE`` (log units; over the 16 seeds' hand boards, no hole with
a hand within 0.35 pitches of its centre passed)."""
OPEN_BESIDE_REACH = 0.4
OPEN_BESIDE_POINTS = 16
OPEN_BESIDE_HUE = 0.08
OPEN_BESIDE_SHADE = 0.12
EDGE = 0.2
"""Brightness change (log units) of an empty hole's ring against its board that a shadow's edge explains."""
PIT = 0.2
"""Half the least depth (log units) of an empty hole's centre below the board ring around it."""
CHANGE = 0.07
"""Change of a hole's log colour that sends it back to the classifier (incremental reads)."""
UNSURE = 0.9
"""Below this confidence a hole is reported as uncertain."""
BLOB_RING_MATCH = 0.05
"""Beside holes that match nothing, a hole this close to its class (in outlier limits) is read."""
SHAPE_MATCH = 0.8
"""The distance (in outlier limits) given to a hole read on a board clipped at white by the shape
of what still shows (see :mod:`vision.board.glare`): beside a hand, past ``NEAR_HAND``, it abstains."""
CLEAN_MATCH = 0.3
"""The distance (in outlier limits) given to an empty hole on a board clipped at white whose pit shows
and every eighth of the patch round it is clipped clean (:func:`vision.board.glare.clean_pits`): under
``NEAR_HAND`` and ``RING_MATCH``, so it is read beside a hand too (1.0: never so)."""
SHADE_HUE = 0.06
"""A hole one step beside a hand whose ring differs from its class's (local) prototype by no more
hue than this (log units, the brightness shift taken out) ..."""
SHADE_MATCH = 0.7
"""... and that matches its class within this (in outlier limits) is read: what sets it apart is
the hand's shadow (a smooth dimming), not a fingertip over part of it (a fingertip brings its own
hue)."""
SHADOW_CHECK = True
SHADOW_UPDATE = True
"""Whether an incremental read also looks for new light or shadow among its occluded cells (as a
full read does), beyond the cells the last full read found."""
NOT_HANDS_NOMINAL = True
"""Whether that check judges the holes as a fresh reader does (see ``_classify_nominal``), not with
the classes the last full read learnt (an incremental read then lifts what a full read lifts)."""
NOT_HANDS_KEEP_MODEL = True
"""Whether that check leaves the board model's state as it found it (see ``_not_hands``)."""
SHADOW_LEARN = True
"""Whether that check learns the empty hole from the board first (pits look shallower on some boards
and under added light than the nominal prototype)."""
SHADOW_CONNECT = 4
"""Cells join a group for that check side by side (4) or also corner to corner (8)."""
SHADOW_FIT = 0.5
"""A hole under occluded cells this close to a class (judged against those cells) shows itself ..."""
SHADOW_SHARE = 0.5
"""... and in a group of occluded cells where this share of the holes do, such cells are light or
shadow, not a hand ..."""
SHADOW_SMALL = 6
"""... and a group of at most this many occluded cells all of whose holes show themselves, too."""
SHADOW_SMALL_FIT = 0.8
"""... each of whose holes matches a class within this (judged against those cells), too."""
SHADOW_THIN = True
"""... and a group of any length with no hole inside (a line of cells) all of whose holes do."""
SHADOW_SMALL_CELLS = True
"""... or, in such a small group, each cell whose own holes all show themselves so (one of its cells
at a hand's edge)."""
SHADOW_CELL = 3
"""How many of a cell's four holes must show themselves for it to be lifted."""
SHADOW_HOLES = 4
"""... if it has at least this many holes inside it."""
SPLIT_HOLES = 8
"""A part of such a group, its cells side by side, with this many holes inside that all show
themselves, is light or shadow however much of its group does not (a hand it runs into)."""
SPLIT_RIM = 4
"""... and a run of such cells along the board's rim beside this many holes, all showing themselves."""
LINK_CELL_DIST = 0.3
"""A cell whose centre lies this close (pitches) to a link's axis, between its pegs, may show the link."""
LINK_BLEND = (0.05, 0.95)
"""A link's cell is a blend of the board and the link's colour in this range of shares (a cell
centre lies beside a link, never all over it: a flat colour all over is something else)."""
LINK_FIT = 0.13
"""How far (log units) a cell may be from the best such blend to be explained by a link."""
LINK_GROUP = 12
"""Occluded cells explained by links are lifted in groups of at most this many (a hand is bigger)."""
LINK_PEG = 1.0
"""A peg that ends a link explaining cells matches its class within this (in outlier limits: a peg
that is read at all)."""
MODEL_CLAMP = 0.1
"""The smooth board model stays within this (log units) of the colours of the cells it was fitted on."""
LOCAL_SIGMA = 2.0
"""Spread (pitches) of the neighbourhood whose confident members set a hole's local prototypes."""
LOCAL_PRIOR = 0.02
"""Weight of the board-wide prototype in a local one (about half a member at the hole itself)."""
LOCAL_FIT = 0.5
"""A hole this close to its class (in outlier limits) may teach its neighbourhood."""
PEG_CENTRE_HUE = 0.5
"""Weight of a dark peg's centre hue against its ring's in the hue test (its highlight sits there) ..."""
PEG_DARK = 1.0
"""... a peg whose nominal ring is darker than the board by this (log units, mean) being dark."""
QUAD = 0.25
"""How far (pitches, along each diagonal) a Go point's quarters between its lines are sampled ..."""
QUAD_BARE = 0.25
"""... and how far from the board's brightness (log units, median of the four) an empty one's may be;"""
QUAD_STONE = 0.3
"""... a dark stone's are all darker than the board by this, as are its centre and ring."""
QUAD_PALE = 0.03
"""Under glare, a white stone's quarters, centre and ring are brighter than the board by at least
this (log units), and within this of one another: an even disc."""
QUAD_CLIPPED = 0.03
"""On a board clipped at white, an empty point's brightest quarter is that white within this (log
units): the board's brightness is known there, and a black stone lifted to grey by the glare
darkens all four quarters a little (seen: 0.06 to 0.16)."""
PALE_UNREAD = True
"""Whether a Go point read empty but matching nothing, whose quarters, centre and ring are one even disc
brighter than the board under added light (``QUAD_PALE``), is the pale stone (see ``_crossings``) ..."""
PALE_CHANNELS = True
"""... and whether that disc is judged on the board's channels below white only, where some are at
white (they say nothing of what lies there)."""
CLIPPED_CROSSING = True
"""Whether on a board clipped at white a Go point read empty must be darker at its centre than its ring
by ``CLIP_PIT`` (see ``_crossings``)."""
CROSSING_QUARTERS = 0.01
"""(log units, about 2.5 levels at white) how much darker than the board a lifted stone's every quarter is."""
QUAD_LIT = True
"""Whether a dark stone is also judged with the added light taken off (see ``_crossings``)."""
LONE_AFTER_LIFT = True
"""Whether cells left of a group of occluded cells once its light or shadow is lifted, fewer than
``MIN_HAND_CELLS`` side by side, count as lone odd cells (see ``_board_model``)."""
CLIP_GREY_RING = True
"""Whether on a board clipped at white a hole read empty with an evenly dark ring and no pit of its own
matches nothing (see ``_clipped_holes``)."""
TEACH_APART = True
"""Whether holes beside holes that match nothing side by side teach no class of fewer than
``TEACH_MANY`` members (see ``_classify_board``)."""
TEACH_MANY = 8
MEMORY_REACH = 3
"""A hand within this many holes (or in a white patch that reaches there) makes a hole's earlier
reading void (see ``BoardReader._recall``)."""
LINK_OTHER = 2.0
"""A link sample counts for its colour only when no more than this many times as far from it as from
the other colour."""
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2))
LINK_T = np.linspace(0.24, 0.76, 8)
LINK_SIDE = 0.3
"""On a board clipped at white, a faint bridge is judged against the board this far (pitches) off its
axis ..."""
LINK_SIDE_PEGS = True
"""Whether a side point that falls on a peg (within ``LINK_PEG_RADIUS`` of a hole read as a piece) is
left out (the other side, or where both do, the board model, stands for the board there): the two
holes beside a knight's bridge's middle lie 0.45 pitch off its axis, and their pegs reach 0.3."""
LINK_PEG_RADIUS = 0.35
LINK_CLIP_DARK = 0.045
"""... where a hueless bridge is darker than that board (and the board model) by this (log units, mean)."""
PINCHED = True
"""Whether a hole seen plainly empty (``_open_empty``) with holes that match nothing, side by side (a
hand the board's colour), on two opposite sides of it abstains (see ``_assemble``): it lies in a gap
between fingers."""
LIT_EXPLAIN = 0.33
"""A ring read as the hueless piece under added light (``_lit_dark_pieces``) must have that light, as
the pits measure it, explain at least this share of how far it lies above the piece's nominal colour
(0: no such test)."""
LINK_HUE = 0.2
"""A sample votes for a hued colour's bridge only when its hue along that colour's reaches this share
of the (faded) colour's own (see ``_links``; 0: no such test)."""
LINK_TINT = True
"""Whether a hueless bridge there may lean as its pegs' rings lean (tinted light darkens a washed-out
grey unevenly, in the order of the light's gains), its difference's hue within ``CLIP_COS`` of theirs."""
UNLIT_CLASSES = True
"""Each hole is also judged, its light taken off, against the pieces' classes learnt with their
members' light taken off (``_unlit_classes``)."""


@dataclass(frozen=True, eq=False)
class BoardReading:
    """One reading of a board."""

    spec: BoardSpec
    matrix: np.ndarray
    """(size, size) int8: 0 empty, 1 colour 1, 2 colour 2, -1 unknown (covered or unsure)."""
    confidence: np.ndarray
    """(size, size) float32 in 0..1: how sure the value in ``matrix`` is (0 where unknown)."""
    covered: np.ndarray
    """(size, size) bool: holes hidden by a hand or something that is not the board."""
    guess: np.ndarray
    """(size, size) int8: the best guess everywhere (0 / 1 / 2), for displays and the CLI."""
    links: tuple[tuple[int, int, int, int], ...]
    """Links seen, (r1, c1, r2, c2) with (r1, c1) the upper end (then the left one)."""
    uncertain_links: tuple[tuple[int, int, int, int], ...]
    """Knight pairs of same-colour pegs whose link could not be told present or absent."""
    link_confidence: float
    """The lowest confidence over all link decisions (1.0 when there are none)."""
    ms: float = 0.0
    """Time the read took."""
    changed: int = 0
    """How many holes were classified again (all of them on a full read)."""
    remembered: np.ndarray | None = None
    """(size, size) bool: holes glare hides now whose value in ``matrix`` is the one an earlier read
    of this reader saw, no hand having come near since (None: none)."""

    @property
    def size(self) -> int:
        return self.spec.size

    @property
    def hand_over_board(self) -> bool:
        return bool(self.covered.any())

    @property
    def overall_confidence(self) -> float:
        """The lowest confidence over every existing hole and link decision."""
        valid = self.spec.valid_mask()
        hole = float(self.confidence[valid].min()) if valid.any() else 1.0
        return min(hole, self.link_confidence)

    def to_json(self, corners: np.ndarray | None = None) -> dict[str, object]:
        """``{"size", "corners", "matrix", "links", "confidence"}`` (the ``tableref board`` form)."""
        out: dict[str, object] = {"size": self.size}
        if corners is not None:
            out["corners"] = [
                [round(float(x), 1), round(float(y), 1)] for x, y in np.asarray(corners).reshape(4, 2)
            ]
        out["matrix"] = self.guess.astype(int).tolist()
        out["links"] = [list(link) for link in self.links]
        out["confidence"] = round(self.overall_confidence, 4)
        return out


@dataclass
class _Features:
    hole_log: np.ndarray  # (N, N, 6) log colour of each hole's centre, then of its ring
    cell_log: np.ndarray  # (N+1, N+1, 3) log colour at each cell centre
    image: np.ndarray  # the frame (BGR uint8)
    quad_log: np.ndarray | None = None  # (N, N, 4, 3) log colour between a Go point's lines


@dataclass(frozen=True)
class _LinkTable:
    """Every knight's-move pair of holes (``BoardReader._link_table``): (K, 4) pairs (r1, c1, r2, c2),
    the flat indices of their two holes and of the two holes beside their middle, and (K, len(LINK_T))
    float32 image x and y of the samples along each."""

    pairs: np.ndarray
    first: np.ndarray
    second: np.ndarray
    mid_low: np.ndarray
    mid_high: np.ndarray
    map_x: np.ndarray
    map_y: np.ndarray


class BoardReader:
    """Reads one located board; :meth:`read` is a full read, :meth:`update` an incremental one."""

    def __init__(self, spec: BoardSpec, location: BoardLocation) -> None:
        if location.size != spec.size:
            raise InputError(f"board location of size {location.size} for a board spec of size {spec.size}")
        self.spec = spec
        self.location = location
        n = spec.size
        self.side = (n + 1) * PX
        canon = np.array([[PX, 0, PX], [0, PX, PX], [0, 0, 1]], np.float64)
        self.img_to_canon = canon @ np.linalg.inv(location.homography)
        self.valid = spec.valid_mask()
        self.printed = spec.printed_cells()
        rad = DISC_RADIUS * PX
        dy, dx = np.mgrid[-int(rad) - 1 : int(rad) + 2, -int(rad) - 1 : int(rad) + 2]
        d2 = dx**2 + dy**2
        inner = d2 <= (INNER_RADIUS * PX) ** 2 + 0.5
        ring = (d2 > (INNER_RADIUS * PX + 0.6) ** 2) & (d2 <= rad**2 + 0.5)
        self._inner = (dy[inner], dx[inner])
        self._ring = (dy[ring], dx[ring])
        centres = (np.arange(n) + 1) * PX
        self._hy = centres[:, None] * np.ones((1, n), int)
        self._hx = np.ones((n, 1), int) * centres[None, :]
        cc = (np.arange(n + 1) + 0.5) * PX
        self._cy = np.round(cc[:, None] * np.ones((1, n + 1))).astype(int)
        self._cx = np.round(np.ones((n + 1, 1)) * cc[None, :]).astype(int)
        # Quadratic board model over the cells, in lattice units centred on the board.
        u = (np.arange(n + 1) - 0.5 - (n - 1) / 2) / n
        uu, vv = np.meshgrid(u, u)
        self._design_cells = np.stack([np.ones_like(uu), uu, vv, uu * uu, uu * vv, vv * vv], -1).reshape(
            -1, 6
        )
        h = (np.arange(n) - (n - 1) / 2) / n
        hu, hv = np.meshgrid(h, h)
        self._design_terms = {k: np.ascontiguousarray(self._design_cells[:, :k]) for k in (1, 3, 6)}
        """The first 1, 3 and 6 columns of ``_design_cells`` (the models' terms), each contiguous."""
        self._design_holes = np.stack([np.ones_like(hu), hu, hv, hu * hu, hu * hv, hv * hv], -1).reshape(
            -1, 6
        )
        self.prototypes = spec.prototypes()
        nominal = spec.prototypes()
        self._dark_classes = nominal[:, 3:].mean(-1) < -PEG_DARK
        """The classes whose nominal ring is darker than ``PEG_DARK`` (a constant of the spec)."""
        self._adapted = np.zeros(3, bool)
        self._spread = np.full((3, 6), SPREAD_DEFAULT)
        self._suspect = np.zeros((n, n), bool)
        self._glare = np.zeros((n, n))
        self._faded = np.zeros((n, n), bool)
        self._clipped = np.zeros((n, n), bool)
        self._lift = np.zeros((n, n))
        self._pit_own = np.full((n, n), np.nan)
        self._peak = np.zeros((n, n))
        self._peak_used = np.zeros((n, n))
        self._past_white = np.zeros((n + 1, n + 1), bool)
        self._white_base = np.full((n, n, 3), np.nan)
        # A Go grid's edge and corner points (T and L crossings) look less like its middle ones.
        self._outlier_scale = np.array([2.0 if spec.kind == "go" else 1.0, 1.0, 1.0])
        self._canon_to_img = np.linalg.inv(self.img_to_canon)
        self._canon_maps: tuple[np.ndarray, np.ndarray] | None = None
        self._pair_table: _LinkTable | None = None
        self._hue_of: tuple[bytes, np.ndarray, np.ndarray] | None = None
        """The prototypes' bytes and which classes are hued (``_hued``) when last measured."""
        self._build_maps()
        self._prev: _Features | None = None
        self._ref_hole: np.ndarray | None = None
        self._reading: BoardReading | None = None
        self._local: np.ndarray | None = None
        n1 = spec.size + 1
        self._lifted = np.zeros((n1, n1), bool)
        """Occluded cells the last full read found to be links or light, not a hand ..."""
        self._lifted_ref = np.zeros((n1, n1, 3))
        """... and their colours then (an incremental read keeps them lifted while they stay so)."""
        self._memory = np.full((n, n), -1, np.int8)
        """Each hole's last confident value, while no hand has come near it since (-1: none)."""
        self._memory_conf = np.zeros((n, n), np.float32)
        self._pit_lean: float | None = None
        """The lean of the board's pits where glare clipped it, as the last full read measured it
        (``glare.board_pit_lean``; None: too few pits)."""
        self._unlit: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        """The pieces' classes (prototypes, spreads, adapted) with their members' light taken off,
        as the last full read learnt them where light was added (``_unlit_classes``), else None."""

    @property
    def clipped(self) -> np.ndarray:
        """(N, N) bool: holes whose board was clipped at white by glare in the last read."""
        return self._clipped.copy()

    @property
    def added_light(self) -> np.ndarray:
        """(N, N) light (0..255) taken as added on top of each hole (glare, a lamp) in the last read."""
        return self._glare.copy()

    # -- features ------------------------------------------------------------------------------
    def rectify(self, image: np.ndarray) -> np.ndarray:
        """The canonical top-down view of the board (``(size + 1) * PX`` square, BGR)."""
        if image is None or image.ndim != 3 or image.shape[2] != 3:
            raise InputError("image: expected a BGR colour image")
        return self._warp(image, cv2.INTER_LINEAR)

    def _warp(self, image: np.ndarray, interpolation: int) -> np.ndarray:
        """``image`` resampled on the canonical square (through the lens, when it has one)."""
        if not self.location.k1:
            return cv2.warpPerspective(image, self.img_to_canon, (self.side, self.side), flags=interpolation)
        if self._canon_maps is None:
            ys, xs = np.mgrid[0 : self.side, 0 : self.side].astype(np.float64)
            self._canon_maps = self._to_image(xs, ys)
        return cv2.remap(image, *self._canon_maps, interpolation)

    def _to_image(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Canonical coordinates -> image coordinates (float32 maps for ``cv2.remap``), through the
        board's homography and then its lens (``location.k1``)."""
        pts = np.stack([xs, ys], -1).reshape(-1, 1, 2).astype(np.float64)
        img = cv2.perspectiveTransform(pts, self._canon_to_img).reshape(*xs.shape, 2)
        if self.location.k1:
            img = distort_points(img, self.location.k1, self.location.image_size)
        return img[..., 0].astype(np.float32), img[..., 1].astype(np.float32)

    def _build_maps(self) -> None:
        """Image coordinates of every canonical pixel the reader samples, computed once: a read
        then samples only those (about 30 000) instead of warping the whole board."""
        n = self.spec.size
        parts = []
        for dy, dx in (self._inner, self._ring):
            ys = (self._hy.reshape(-1, 1) + dy[None, :]).astype(np.float64)
            xs = (self._hx.reshape(-1, 1) + dx[None, :]).astype(np.float64)
            parts.append((xs, ys))
        # A hole's samples (k of them, 3 channels each) summed channel by channel: one product.
        self._sum_inner = np.tile(np.eye(3, dtype=np.float32), (len(self._inner[0]), 1))
        self._sum_ring = np.tile(np.eye(3, dtype=np.float32), (len(self._ring[0]), 1))
        if self.spec.pattern == "lines":
            # A Go point's four quarters between its lines, QUAD pitches out along the diagonals.
            q = QUAD * PX
            dy, dx = np.array([-q, -q, q, q]), np.array([-q, q, -q, q])
            ys = (self._hy.reshape(-1, 1) + dy[None, :]).astype(np.float64)
            xs = (self._hx.reshape(-1, 1) + dx[None, :]).astype(np.float64)
            parts.append((xs, ys))
        mx = [self._to_image(xs, ys)[0].ravel() for xs, ys in parts]
        my = [self._to_image(xs, ys)[1].ravel() for xs, ys in parts]
        cx, cy = self._to_image(self._cx.astype(np.float64), self._cy.astype(np.float64))
        self._split = (len(mx[0]), len(mx[1]), (n + 1) ** 2, len(mx[2]) if len(mx) > 2 else 0)
        self._map_x = np.concatenate([*mx[:2], cx.ravel(), *mx[2:]])[None, :]
        self._map_y = np.concatenate([*my[:2], cy.ravel(), *my[2:]])[None, :]

    def _features(self, image: np.ndarray) -> _Features:
        if image is None or image.ndim != 3 or image.shape[2] != 3:
            raise InputError("image: expected a BGR colour image")
        n = self.spec.size
        vals = cv2.remap(image, self._map_x, self._map_y, cv2.INTER_LINEAR)[0].astype(np.float32)
        a, b, c, q = self._split
        # Each hole's mean over its disc: sums of whole numbers (exact in float32 in any order, so
        # as a product), divided by the count as ``ndarray.mean`` divides.
        inner = _mean_of(vals[:a].reshape(n * n, -1) @ self._sum_inner, len(self._inner[0]))
        ring = _mean_of(vals[a : a + b].reshape(n * n, -1) @ self._sum_ring, len(self._ring[0]))
        inner, ring = inner.reshape(n, n, 3), ring.reshape(n, n, 3)
        hole_log = np.log(np.concatenate([inner, ring], -1) + 8.0)
        cell_log = np.log(vals[a + b : a + b + c].reshape(n + 1, n + 1, 3) + 8.0)
        quad_log = np.log(vals[a + b + c :].reshape(n, n, 4, 3) + 8.0) if q else None
        return _Features(hole_log, cell_log, image, quad_log)

    def _crossings(
        self,
        quad_log: np.ndarray | None,
        hole_log: np.ndarray,
        board: np.ndarray,
        label: np.ndarray,
        conf: np.ndarray,
        dmin: np.ndarray,
        clipped: np.ndarray | None = None,
        glare: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Go points judged by their four quarters between the lines too (``quad_log``; the
        other arguments are those points' own): an empty point's quarters are bare board (their
        median brightness within ``QUAD_BARE`` of the board's, log units), a stone covers them.
        A point read empty whose quarters are not bare matches nothing; one whose quarters,
        centre and ring are all darker than the board by ``QUAD_STONE`` is the dark stone (a
        black stone lifted towards the board by glare), read as a weak match (``SHAPE_MATCH``)."""
        if quad_log is None:
            return label, conf, dmin
        q = (quad_log - board[..., None, :]).mean(-1)
        bare = np.abs(np.median(q, axis=-1)) <= QUAD_BARE
        # Where the board is clipped at white (``clipped``, default: the last read's), bare board
        # is that white: quarters all a little darker are a stone lifted by glare (QUAD_CLIPPED).
        clipped = self._clipped if clipped is None else clipped
        bare &= ~clipped | (q.max(-1) >= -QUAD_CLIPPED)
        dmin = np.where((label == 0) & ~bare, np.maximum(dmin, 1.0), dmin)
        v = hole_log - np.concatenate([board, board], -1)
        if CLIPPED_CROSSING:
            # There too an empty point's lines darken its centre, where they cross, more than its
            # ring: a point as dark at its centre as round it, its four quarters all darker than the
            # white board (``CROSSING_QUARTERS``), is a black stone lifted to one even grey.
            even = v[..., :3].mean(-1) - v[..., 3:].mean(-1) > -CLIP_PIT
            even &= q.max(-1) <= -CROSSING_QUARTERS
            dmin = np.where((label == 0) & clipped & even, np.maximum(dmin, 1.0), dmin)
        # Under glare (``glare``, default: the last read's) a white stone is lifted about as much
        # as the board and keeps little of its contrast: a point read as the pale stone whose
        # quarters, centre and ring are one even disc a little brighter than the board is that
        # stone (an empty point's centre shows its lines, darker than the board).
        glare = self._glare if glare is None else glare
        pale_class = self.spec.prototypes()[1:].mean(-1) > QUAD_STONE
        disc = np.concatenate([q, v[..., :3].mean(-1, keepdims=True), v[..., 3:].mean(-1, keepdims=True)], -1)
        even = (disc.min(-1) >= QUAD_PALE) & (disc.max(-1) - disc.min(-1) <= QUAD_PALE)
        if PALE_CHANNELS:
            # Where light carries some of the board's channels to white, they say nothing of what
            # lies there: the disc may be so on the others alone.
            below = np.exp(board) - 8.0 < SAT_LEVEL
            some = below.any(-1) & ~below.all(-1)
            if some.any():
                w = below[some] / below[some].sum(-1, keepdims=True)
                qc = ((quad_log[some] - board[some][:, None, :]) * w[:, None, :]).sum(-1)
                dc = np.concatenate(
                    [
                        qc,
                        (v[some][:, :3] * w).sum(-1, keepdims=True),
                        (v[some][:, 3:] * w).sum(-1, keepdims=True),
                    ],
                    -1,
                )
                even[some] |= (dc.min(-1) >= QUAD_PALE) & (dc.max(-1) - dc.min(-1) <= QUAD_PALE)
        even &= (glare > LIT_MIN) & (dmin >= 1.0)
        pale = even & (label > 0) & pale_class[np.maximum(label, 1) - 1]
        # A point read empty that shows such a disc is that stone too (``PALE_UNREAD``): its lines
        # would darken its centre and leave its quarters bare. Where light carries the board's
        # other channels to white, a white stone is seen brighter in one channel (blue) only and
        # lies as near the empty point as the stone.
        pale_k = np.nonzero(pale_class)[0] + 1
        if PALE_UNREAD and len(pale_k) == 1:
            pale |= even & (label == 0)
        if pale.any():
            label, conf, dmin = label.copy(), conf.copy(), dmin.copy()
            if len(pale_k) == 1:
                label[pale] = int(pale_k[0])
            conf[pale], dmin[pale] = 1.0, SHAPE_MATCH
        dark_class = np.nonzero(self.spec.prototypes()[1:].mean(-1) < -QUAD_STONE)[0] + 1
        if len(dark_class) != 1:
            return label, conf, dmin
        dark = (
            (q.max(-1) <= -QUAD_STONE)
            & (v[..., :3].mean(-1) <= -QUAD_STONE)
            & (v[..., 3:].mean(-1) <= -QUAD_STONE)
        )
        lit = glare > LIT_MIN
        if QUAD_LIT and lit.any():
            # Light added on top lifts a dark stone towards the board more than a ratio does: its
            # quarters, centre and ring are judged with that light taken off too, off the board
            # and the stone alike (an empty point's quarters stay bare board either way).
            g = glare[lit][:, None]
            base = np.log(np.maximum(np.exp(board[lit]) - g, 8.0))
            qg = (np.log(np.maximum(np.exp(quad_log[lit]) - g[..., None], 8.0)) - base[:, None, :]).mean(-1)
            hg = np.log(np.maximum(np.exp(hole_log[lit]) - g, 8.0)) - np.concatenate([base, base], -1)
            dark[lit] |= (
                (qg.max(-1) <= -QUAD_STONE)
                & (hg[:, :3].mean(-1) <= -QUAD_STONE)
                & (hg[:, 3:].mean(-1) <= -QUAD_STONE)
            )
        dark &= (dmin >= 1.0) | (conf < UNSURE)
        if dark.any():
            label, conf, dmin = label.copy(), conf.copy(), dmin.copy()
            label[dark], conf[dark], dmin[dark] = int(dark_class[0]), 1.0, SHAPE_MATCH
        return label, conf, dmin

    def _board_model(
        self, cell_log: np.ndarray, hand_cells: np.ndarray | None, not_hand: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(board log colour at each hole (N, N, 3), occluded cells (N+1, N+1) bool). Cells in
        ``not_hand`` are known to be bare board (a shadow, light) however they look."""
        n = self.spec.size
        y = cell_log.reshape(-1, 3).astype(np.float64)
        use = ~self.printed.ravel()
        if hand_cells is not None:
            use &= ~hand_cells.ravel()
        a = self._design_cells
        # Grow the model from a robust constant to a quadratic, each step on the cells the
        # previous one explains, so that a large hand cannot drag the board colour with it.
        coef = np.zeros((6, 3))
        # Rows are picked by their indices (``take``): the same rows as a boolean mask picks, for
        # half its cost here.
        y_use = y.take(np.flatnonzero(use), 0) if use.any() else None
        coef[0] = _median_rows(y_use) if y_use is not None else _median_rows(y)
        last: tuple[int, np.ndarray] | None = None
        src: np.ndarray | None = None
        for terms, limit in ((1, 0.3), (3, 0.25), (6, 0.15), (6, 0.12)):
            norm = _cnorm(y - a @ coef)
            inl = use & (norm < limit)
            rows = np.flatnonzero(inl)
            if len(rows) < 12:
                break
            if last is not None and last[0] == terms and np.array_equal(last[1], inl):
                continue  # the same fit on the same cells: the same coefficients
            coef = np.zeros((6, 3))
            src = y.take(rows, 0)
            coef[:terms], *_ = np.linalg.lstsq(self._design_terms[terms].take(rows, 0), src, rcond=None)
            last = (terms, inl)
        # Where no cell supports it (a hard shadow's other side), a quadratic may run far past
        # any colour the board shows: it is kept within the colours its cells have.
        if src is None:
            src = y_use if y_use is not None else y
        cols = np.ascontiguousarray(src.T)  # a reduction along contiguous rows is the quick one
        lo, hi = cols.min(1) - MODEL_CLAMP, cols.max(1) + MODEL_CLAMP
        fitted = np.clip(a @ coef, lo, hi) if MODEL_CLAMP > 0 else a @ coef
        res = (y - fitted).reshape(n + 1, n + 1, 3)
        bright = _cmean(res)
        chroma = _cnorm(res - bright[..., None])
        limit = 0.12
        # Shadows and glare change brightness, hands and sleeves the hue: only a hue change or an
        # extreme brightness means something lies on the board.
        occluded = (chroma > limit) | (bright < -1.3) | (bright > 0.8)
        if PAST_WHITE_HUE and not_hand is None:
            past = self._past_white_chroma(y, fitted, src)
            self._past_white = (past <= limit) & (bright >= -1.3) & (bright <= 0.8)
        # Glare adds white light: it brightens the board and pulls its colour towards grey, so
        # its hue change points away from the board's own hue. That is light, not a hand.
        board_log = fitted.reshape(n + 1, n + 1, 3)
        own = board_log - _cmean(board_log)[..., None]
        hue = res - bright[..., None]
        k = np.clip(-_csum(hue * own) / np.maximum(_csum(own * own), 1e-9), 0.0, 1.0)
        leftover = _cnorm(hue + k[..., None] * own)
        glare = (bright > 0.02) & (bright < 0.8) & (leftover < GLARE_HUE) & (k > 0.1)
        # A cell clipped at white may even look darker than a smooth model that runs past white.
        white = _cmin(cell_log) >= np.log(CLIP_LEVEL + 8.0)
        glare |= white & (leftover < GLARE_HUE) & (k > 0.1)
        occluded &= ~glare
        sat_lit = self._saturated_glare(cell_log, fitted.reshape(n + 1, n + 1, 3), occluded & ~self.printed)
        occluded &= ~sat_lit
        occluded &= ~self.printed
        if occluded.any():
            # A hand covers several cells; a lone odd cell is a link's or a peg's blur.
            _n, lab, stats, _ = cv2.connectedComponentsWithStats(occluded.astype(np.uint8), connectivity=8)
            small = np.nonzero(stats[:, cv2.CC_STAT_AREA] < MIN_HAND_CELLS)[0]
            lone = np.isin(lab, small[small > 0])
            occluded &= ~lone
            # ... or a fingertip: the holes beside it must match their class more closely.
            self._suspect = lone[:-1, :-1] | lone[:-1, 1:] | lone[1:, :-1] | lone[1:, 1:]
        else:
            self._suspect = np.zeros((n, n), bool)
        # Beside cells lit past white in some channel, a hole's colour was measured against a board
        # whose brightness there was unknown: it had to match its class more closely, as beside a
        # hand. The light is now measured on the channels below white (``SAT_BASE``).
        if SAT_SUSPECT:
            self._suspect |= sat_lit[:-1, :-1] | sat_lit[:-1, 1:] | sat_lit[1:, :-1] | sat_lit[1:, 1:]
        if not_hand is not None:
            occluded &= ~not_hand
            if LONE_AFTER_LIFT and occluded.any():
                # What light or shadow leaves of a group, fewer than ``MIN_HAND_CELLS`` side by side,
                # is judged as a lone odd cell is: the holes beside it must match closely.
                _n, lab, stats, _ = cv2.connectedComponentsWithStats(
                    occluded.astype(np.uint8), connectivity=8
                )
                small = np.nonzero(stats[:, cv2.CC_STAT_AREA] < MIN_HAND_CELLS)[0]
                lone = np.isin(lab, small[small > 0])
                if lone.any():
                    occluded &= ~lone
                    self._suspect |= lone[:-1, :-1] | lone[:-1, 1:] | lone[1:, :-1] | lone[1:, 1:]
        if hand_cells is not None:
            occluded |= hand_cells
        # Each hole's board colour: the model plus the median residual of its clean cells.
        good = (~(occluded | self.printed)).astype(np.float64)
        r = res * good[..., None]
        total = r[:-1, :-1] + r[:-1, 1:] + r[1:, :-1] + r[1:, 1:]
        count = good[:-1, :-1] + good[:-1, 1:] + good[1:, :-1] + good[1:, 1:]
        local = total / np.maximum(count, 1.0)[..., None]
        model = (self._design_holes @ coef).reshape(n, n, 3)
        if MODEL_CLAMP > 0:
            model = np.clip(model, lo, hi)
        board = model + local
        # Glare is white light added on top of the board, the pieces and the holes alike: where the
        # board is brighter than its smooth model, that much light is taken off again (linear
        # units) before a hole is compared with its board, so a washed-out peg regains its colour.
        lin_board, lin_model = np.exp(board), np.exp(model)
        added = lin_board - lin_model
        extra = _cmean(added)
        white = lin_board - 8.0 >= SAT_LEVEL - 0.01
        some = _cany(white) & ~_call(white)
        if SAT_BASE and not some.any():
            self._white_base = np.full(board.shape, np.nan)
        elif SAT_BASE:
            # White light adds the same in every channel, but a channel stops at white: where one
            # or two of the board's channels are at white, the light is measured on the others,
            # and the board under it in those channels is the model's (``_ratio``).
            seen = _csum(np.where(white, 0.0, added)) / np.maximum(_csum((~white).astype(np.intp)), 1)
            # Only where the model is a board that light carried to white in each such channel (a
            # quadratic run past white, as at the board's edge, is no board).
            base = lin_model - 8.0
            fits = (base < SAT_LEVEL) & (base + seen[..., None] >= SAT_LEVEL - NOISE_LEVEL)
            use = some & _call(fits | ~white)
            extra = np.where(use, np.maximum(extra, seen), extra)
            self._white_base = np.where(white & use[..., None], model, np.nan)
        local_mean = _cmean(local)
        self._glare = np.where(local_mean > GLARE_MIN, np.maximum(extra, 0.0), 0.0)
        # Only clear glare may fade a piece's colour (a faded red matches a printed red line).
        self._faded = local_mean > GLARE_FADE
        # Where the board itself is clipped at white, glare's true strength is unknown.
        self._clipped = _cmin(board) >= np.log(CLIP_LEVEL + 8.0)
        return board, occluded

    def _past_white_chroma(self, y: np.ndarray, fitted: np.ndarray, src: np.ndarray) -> np.ndarray:
        """(N+1, N+1) each cell's hue change against the hue of the board's cells that show every
        channel below white (``src``: the model's cells), where the smooth model (``fitted``) runs
        past white in some channel and the cell is below white in every one; infinite elsewhere.
        There the model's hue is no board's (a quadratic pulled up by glare that clips some
        channels runs on past white in the others, towards a darker corner)."""
        n1 = self.spec.size + 1
        out = np.full(n1 * n1, np.inf)
        past = _cany(fitted > np.log(SAT_LEVEL + 8.0)) & _call(y < np.log(CLIP_LEVEL + 8.0))
        if not past.any():
            return out.reshape(n1, n1)
        clean = src[_call(src < np.log(CLIP_LEVEL + 8.0))]
        if len(clean) < PAST_WHITE_CELLS:
            return out.reshape(n1, n1)
        hue = np.median(clean - _cmean(clean)[..., None], axis=0)
        own = y[past] - _cmean(y[past])[..., None]
        out[past] = _cnorm(own - hue)
        return out.reshape(n1, n1)

    @staticmethod
    def _saturated_glare(cell_log: np.ndarray, fitted: np.ndarray, occluded: np.ndarray) -> np.ndarray:
        """(N+1, N+1) bool: ``occluded`` cells lit by glare on a board that one or two of the
        camera's channels show near white (a pale wood's red). White light adds the same amount to
        every channel (linear units), but a channel stops at white: the hue change then points
        nowhere near grey and the cell would pass for a hand. Such a cell is lit when it is its
        board plus one amount of light (at least ``SAT_LIFT``, the largest rise of any channel)
        in every channel, each clipped at white, within ``SAT_EVEN`` of that amount, and the
        light carried some channel to white; or, short of that, each within ``WHITE_EVEN`` of it
        (strong glare on a dark board, brighter than the hue test allows light to make a cell).
        A hand (skin, a sleeve) darkens some channel or lifts them unevenly. Only whole groups of
        occluded cells are lit so: a fingertip in the glare leaves some of its group unexplained."""
        none = np.zeros(cell_log.shape[:2], bool)
        if not occluded.any():
            return none
        obs = np.exp(cell_log) - 8.0
        base = np.exp(fitted) - 8.0
        lift = _cmax(obs - base)
        reach = base + lift[..., None]
        want = np.minimum(reach, 255.0)
        err = _cmax(np.abs(obs - want))
        lit = occluded & (lift >= SAT_LIFT) & (err <= SAT_EVEN * lift + NOISE_LEVEL)
        white = obs >= SAT_LEVEL - 0.01
        white_all = _call(white)
        sat = _cany(reach >= SAT_LEVEL) & _cany(white) & ~white_all
        if WHITE_EVEN > 0:
            # Strong glare adds one amount of light to every channel: past what the hue test
            # takes as light (a cell over 0.8 log units brighter), or with a channel short of white
            # by the noise and compression, each channel is still its board plus that amount,
            # clipped at white, within ``WHITE_EVEN`` of it.
            sat |= (err <= WHITE_EVEN * lift + 2.0 * NOISE_LEVEL) & ~white_all
        lit &= sat
        if not lit.any():
            return none
        k, lab, _stats, _ = cv2.connectedComponentsWithStats(occluded.astype(np.uint8), connectivity=8)
        whole = np.ones(k, bool)
        np.logical_and.at(whole, lab[occluded], lit[occluded])
        whole[0] = False
        return whole[lab]

    def _ratio(
        self,
        hole_log: np.ndarray,
        board: np.ndarray,
        glare: np.ndarray | None = None,
        white_base: np.ndarray | None = None,
    ) -> np.ndarray:
        """Each hole's log colour (centre, ring) less its board's; with ``glare`` (linear light
        added on top of the board, per hole), that light is taken off first. ``white_base``
        (per hole and channel, NaN where none) is the board under that light in the channels the
        camera shows at white (the board's own value there is unknown: white, not board + light)."""
        v = hole_log - np.concatenate([board, board], -1)
        g = glare
        if g is None or not (g > 0).any():
            return v
        lit = g > 0
        gl = g[lit][:, None]
        hole = np.log(np.maximum(np.exp(hole_log[lit]) - gl, 8.0))
        base = np.log(np.maximum(np.exp(board[lit]) - gl, 8.0))
        if white_base is not None:
            wb = white_base[lit]
            base = np.where(np.isnan(wb), base, wb)
        v[lit] = hole - np.concatenate([base, base], -1)
        return v

    def _hand_cells(self, hand_mask: np.ndarray | None) -> np.ndarray | None:
        if hand_mask is None:
            return None
        m = self._warp(hand_mask.astype(np.uint8) * 255, cv2.INTER_NEAREST)
        m = cv2.dilate(m, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (PX // 2 * 2 + 1,) * 2))
        return m[self._cy, self._cx] > 0

    def _hued(self) -> tuple[np.ndarray, np.ndarray]:
        """(3,) bool each: which classes' prototypes show a hue past ``FADE_CHROMA`` over their centre
        and ring, and over their ring alone. Measured again whenever the prototypes' values differ
        from the last measured (they are replaced and changed in place alike), else as then."""
        key = self.prototypes.tobytes()
        if self._hue_of is None or self._hue_of[0] != key or self.prototypes.shape != (3, 6):
            chroma = _chroma(self.prototypes)
            self._hue_of = (key, _cnorm(chroma) > FADE_CHROMA, _cnorm(chroma[:, 3:]) > FADE_CHROMA)
        return self._hue_of[1], self._hue_of[2]

    # -- classification ------------------------------------------------------------------------
    def _classify(self, v: np.ndarray, protos: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(label 0..2, confidence, distance to nearest) for log-ratio colours ``v`` (..., 3)."""
        # ``protos`` is (3, 6), or (..., 3, 6): one set per point (faded by glare, see below).
        d = _cnorm(v[..., None, :] - protos)
        centre, ring_mean = _cmean(v[..., :3]), _cmean(v[..., 3:])  # each half's mean, used thrice
        limit = np.where(self._adapted, OUTLIER, OUTLIER_NOMINAL) * self._outlier_scale
        if self.spec.pattern == "holes":
            # An empty hole is bare board around a pit; how dark the pit looks depends on the
            # light (glare and low sun fill it), so past being darker than its ring by 2 PIT its
            # depth is free; a flat centre (a finger, a sleeve) is twice the limit away.
            # Its ring is bare board: only its hue must match; a shadow's edge between it and the
            # cells that set the board colour may change its brightness by up to EDGE.
            rd = v[..., 3:] - protos[..., 0, 3:]
            shift = _cmean(rd)
            ring = np.hypot(_cnorm(rd - shift[..., None]), np.maximum(np.abs(shift) - EDGE, 0.0)) / limit[0]
            pit = np.maximum(centre - ring_mean + 2 * PIT, 0.0) / PIT
            d = d.copy()
            alt = np.hypot(ring, pit)
            # Only as a match: a point far from both stays as far as its colour says.
            d[..., 0] = np.where(alt < 1.0, np.minimum(d[..., 0], limit[0] * alt), d[..., 0])
        label = d.argmin(-1)
        mine = _pick(protos, label)
        z = -0.5 * (d / SIGMA) ** 2
        z -= _cmax(z)[..., None]
        p = np.exp(z)
        p /= _csum(p)[..., None]
        conf = _pick_last(p, label)
        # Distance to the nearest prototype in units of its outlier limit: >= 1 matches nothing.
        dmin = _cmin(d) / limit[label]
        # And in units of the class's own spread, channel by channel (a learnt class only), on
        # the ring: a piece's centre varies with its highlight, its ring hardly at all.
        z = v[..., 3:] - mine[..., 3:]
        if self.spec.pattern == "holes":
            z = np.where((label == 0)[..., None], z - _cmean(z)[..., None], z)
            # A coloured piece's ring brighter or darker than its class's alike in every channel
            # (up to HUED_SHIFT) is that piece under a board estimate a little off (beside the
            # printed lines, a soft shadow's edge): its hue, which no other piece shares, is what
            # its spread measures. Not where glare may fade it (its colour is judged faded there).
            hued = self._hued()[1]
            shift = np.clip(_cmean(z)[..., None], -HUED_SHIFT, HUED_SHIFT)
            calm = ~self._faded if self._faded.shape == label.shape else False
            z = np.where(((label > 0) & hued[label] & calm)[..., None], z - shift, z)
        elif STONE_SHIFT:
            # So is a stone's ring brighter or darker than its class's alike in every channel: a
            # shadow's edge between the stone and the cells that set its board. A shift that
            # small makes no stone another, nor the bare board (far apart in brightness), and the
            # stone's distance to its class still counts it.
            shift = np.clip(_cmean(z)[..., None], -HUED_SHIFT, HUED_SHIFT)
            z = np.where((label > 0)[..., None], z - shift, z)
        z = z / self._spread[label][..., 3:]
        zn = np.sqrt(_cmean(z**2)) / (SPREAD_Z * self._outlier_scale[label])
        dmin = np.maximum(dmin, np.where(self._adapted[label], zn, 0.0))
        # Glare washes a colour out towards the board's; what is left of its hue must still agree
        # with the class (a pale red peg is not a grey one).
        # An empty hole's centre is a dark pit whose hue is mostly noise: its ring alone counts.
        # A piece's hue may be paler or stronger than its class's (light added on top, blur with
        # the board around a small peg) in the same direction: its share of the class's hue may
        # range over CHROMA_SCALE; past that, and across, it counts.
        cm = _chroma(mine)
        cv = np.concatenate([v[..., :3] - centre[..., None], v[..., 3:] - ring_mean[..., None]], -1)
        share = _csum(cv * cm) / np.maximum(_csum(cm * cm), 1e-9)
        share = np.where(label > 0, np.clip(share, CHROMA_SCALE[0], CHROMA_SCALE[1]), 1.0)
        chroma = cv - share[..., None] * cm
        # So is a stone's centre, where its highlight sits (a Go stone's ring is stone too).
        # A dark Twixt peg's centre holds its highlight too, whose place and tint vary with the
        # view, and a dark colour's hue in log units is mostly noise: its hue there counts for
        # PEG_CENTRE_HUE of its ring's (not a pale piece's: a hand the board's colour over a hole
        # looks like a pale grey peg but for its centre's hue).
        weight = np.where(self._dark_classes, PEG_CENTRE_HUE, 1.0)[label]
        weight = np.where((label != 0) & (self.spec.pattern == "holes"), weight, 0.0)
        chroma[..., :3] *= weight[..., None]
        off = _cnorm(chroma) / CHROMA_TOL
        dmin = np.maximum(dmin, off)
        # However washed out, an empty hole's centre is darker than its ring (a piece's is not: a
        # flat or highlighted centre is a piece, or something lying on the board). An empty
        # intersection shows its lines: darker than the board at the crossing (glare that washes
        # them out hides a white stone as well).
        flat = (centre - ring_mean if self.spec.pattern == "holes" else centre) > -CLIP_PIT
        dmin = np.where((label == 0) & flat, np.maximum(dmin, 1.0), dmin)
        return label.astype(np.int8), conf.astype(np.float32), dmin

    def _floored(self, protos: np.ndarray, board: np.ndarray, lit: np.ndarray) -> np.ndarray:
        """``protos`` ((3, 6), or (..., 3, 6) per hole) for holes on ``board`` (..., 3), each
        channel no darker than a camera shows anything (``BLACK_LEVEL``): in deep shadow a black
        peg's ratio to the board is the black level's, not its own (nothing darker shows). Not
        where light is added on top (``lit``): that lifts a dark piece off the black. The same
        array where no hole's board is that dark."""
        low = np.log(BLACK_LEVEL + 8.0) - board  # (..., 3): the black level's log ratio
        low = np.where(lit[..., None], -np.inf, low)
        if not BLACK_LEVEL or not board.size or (protos.min() >= low).all():
            return protos
        return np.maximum(protos, np.concatenate([low, low], -1)[..., None, :])

    def _classify_lit(
        self,
        v: np.ndarray,
        vg: np.ndarray,
        lit: np.ndarray,
        protos: np.ndarray,
        fade: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`_classify` of both readings of a hole (as is, and with the glare taken off,
        ``vg``), keeping for each lit hole the one that matches its class better: brighter light
        may be more light (a ratio) or glare (an added white), and only the right model fits.
        Pieces are tried faded only where ``fade`` (default: wherever lit)."""
        label, conf, dmin = self._classify(v, protos)
        if lit.any():
            # Where glare is too strong to measure (the board clips at white), a piece fades
            # towards the board by an unknown share: each class is also tried faded as far as
            # fits (down to FADE_MIN of its contrast), on the hole as seen.
            w = v[lit]
            # ``protos`` is (3, 6) for all holes or (..., 3, 6) for each one (local prototypes).
            pl = protos[lit] if protos.ndim > 2 else np.broadcast_to(protos, (len(w), 3, 6))
            share = _csum(w[:, None, :] * pl) / np.maximum(_csum(pl * pl), 1e-9)
            # Only a coloured piece keeps its hue as it fades; a grey or black one would become
            # the board itself.
            # The empty class is never faded: its pit is judged apart (see _classify).
            piece = self._hued()[0] & (np.arange(3) > 0)
            share = np.where(piece, share, 1.0)
            # A faded piece still shows some of its contrast: a hole that shows almost none of
            # it (flat, or darkened without the piece's hue, as where glare clips the board and
            # the hole alike at white) is no faded piece: that would be a guess.
            shows = share >= FADE_SEEN
            share = np.clip(share, FADE_MIN, 1.0)
            faded = share[..., None] * pl
            # Not on a Go board: there a washed-out stone's neighbours must stay unread (they
            # keep a lone stone at the edge, which looks empty, from being read at all).
            for cand in (vg[lit], None) if self.spec.pattern == "holes" else (vg[lit],):
                if cand is None and fade is not None and not fade[lit].any():
                    continue
                lg, cg, dg = self._classify(w, faded) if cand is None else self._classify(cand, pl)
                better = dg < dmin[lit]
                if cand is None:
                    # Only a faded piece's own match counts here.
                    better &= piece[lg] & np.take_along_axis(shows, lg[:, None].astype(np.intp), 1)[:, 0]
                    if fade is not None:
                        better &= fade[lit]
                for a, b in ((label, lg), (conf, cg), (dmin, dg)):
                    sub = a[lit]
                    sub[better] = b[better]
                    a[lit] = sub
        return label, conf, dmin

    @staticmethod
    def _links_maybe(occluded: np.ndarray, hand_cells: np.ndarray | None) -> bool:
        """Whether every group of ``occluded`` cells is small enough to be links (``LINK_GROUP``)
        and away from the given hand."""
        if hand_cells is not None and (occluded & hand_cells).any():
            return False
        k, _lab, stats, _ = cv2.connectedComponentsWithStats(occluded.astype(np.uint8), connectivity=8)
        return bool(k > 1 and stats[1:, cv2.CC_STAT_AREA].max() <= LINK_GROUP)

    def _link_cells(
        self,
        cell_log: np.ndarray,
        board: np.ndarray,
        pegs: np.ndarray,
        ring: np.ndarray,
        occluded: np.ndarray,
        hand_cells: np.ndarray | None,
    ) -> np.ndarray:
        """Occluded cells that are links, not a hand: groups of at most ``LINK_GROUP`` cells each of
        which lies beside the axis of a knight's-move pair of same-colour ``pegs`` (N, N: 0, 1, 2,
        confident ones only) and looks like a blend of the board and that pair's ring colour
        (``ring``, (N, N, 3) log ratio to the board) within ``LINK_FIT``. A cluster of links
        between pegs changes the cells' hue as a hand does, but a hand is bigger, and its cells
        are no partial blend towards the pegs at both ends of a line through them."""
        n = self.spec.size
        out = np.zeros_like(occluded)
        if not occluded.any() or not (pegs > 0).any():
            return out
        # The board at each cell: the mean of the holes around it (edge cells: the nearest ones).
        padded = np.pad(board, ((1, 1), (1, 1), (0, 0)), mode="edge")
        cell_board = 0.25 * (padded[:-1, :-1] + padded[:-1, 1:] + padded[1:, :-1] + padded[1:, 1:])
        v_cell = cell_log - cell_board
        explained = np.zeros_like(occluded)
        shares = np.linspace(LINK_BLEND[0], LINK_BLEND[1], 18)
        for (dr, dc), offsets in _LINK_CELL_OFFSETS.items():
            r0, r1 = max(0, -dr), min(n, n - dr)
            c0, c1 = max(0, -dc), min(n, n - dc)
            a = pegs[r0:r1, c0:c1]
            b = pegs[r0 + dr : r1 + dr, c0 + dc : c1 + dc]
            rr, cc = np.nonzero((a > 0) & (a == b))
            if not len(rr):
                continue
            rr, cc = rr + r0, cc + c0
            colour = 0.5 * (ring[rr, cc] + ring[rr + dr, cc + dc])  # (P, 3) log ratio
            target = np.log(1.0 - shares[None, :, None] + shares[None, :, None] * np.exp(colour)[:, None, :])
            for oa, ob in offsets:
                ci, cj = rr + oa, cc + ob
                on = occluded[ci, cj]
                if not on.any():
                    continue
                d = np.linalg.norm(v_cell[ci[on], cj[on]][:, None, :] - target[on], axis=-1).min(1)
                fit = d < LINK_FIT
                explained[ci[on][fit], cj[on][fit]] = True
        if not explained.any():
            return out
        k, lab, stats, _ = cv2.connectedComponentsWithStats(occluded.astype(np.uint8), connectivity=8)
        for c in range(1, k):
            if stats[c, cv2.CC_STAT_AREA] > LINK_GROUP:
                continue
            comp = lab == c
            if hand_cells is not None and (comp & hand_cells).any():
                continue
            if explained[comp].all():
                out |= comp
        if out.any():
            log.debug("board reader: %d occluded cells are links, not a hand", int(out.sum()))
        return out

    def _not_hands(self, f: _Features, occluded: np.ndarray, hand_cells: np.ndarray | None) -> np.ndarray:
        """:meth:`_find_not_hands`, leaving the board model's state (light, clipping, suspect holes)
        as the caller's model set it: the check fits a board of its own, with every occluded cell
        taken as board, and a read that lifts nothing goes on with the model it has."""
        saved = self._suspect, self._glare, self._faded, self._clipped, self._white_base
        try:
            return self._find_not_hands(f, occluded, hand_cells)
        finally:
            if NOT_HANDS_KEEP_MODEL:
                self._suspect, self._glare, self._faded, self._clipped, self._white_base = saved

    def _find_not_hands(
        self, f: _Features, occluded: np.ndarray, hand_cells: np.ndarray | None
    ) -> np.ndarray:
        """Occluded cells that are no hand: a hard shadow's or a coloured light's edge changes the
        board's hue as a hand does, but a hand hides the holes under it. Judged against the cells
        themselves (the empty hole learnt from the holes clear of them), a cell whose four holes
        all match a class closely (pits showing, pegs in their colours), in a group where at least
        ``SHADOW_SHARE`` of the holes do, is bare board; so are a small group's cells whose holes
        all do, and the parts of a mixed group (light running into a hand) whose holes all show
        themselves (see ``_showing_part``, ``_showing_rim``). Groups are cells side by side
        (``SHADOW_CONNECT``)."""
        none = np.zeros_like(occluded)
        if not occluded.any() or not SHADOW_CHECK:
            return none
        # Cells taken for a hand only by their hue against a model run past white (see
        # ``_board_model``) that show the board's own hue are bare board.
        past = occluded & self._past_white if PAST_WHITE_HUE else none
        if hand_cells is not None:
            past = past & ~hand_cells
        board, _occ = self._board_model(f.cell_log, None, occluded)
        v = self._ratio(f.hole_log, board)
        protos = self.spec.prototypes()
        # The empty hole as this board shows it (how deep its pits look varies with the board and
        # the light), learnt from the holes clear of the occluded cells, as the classes are later.
        ok = self.valid & ~self._covered(occluded)
        bare = ok & (np.linalg.norm(v[..., 3:], axis=-1) < EMPTY_RING)
        if SHADOW_LEARN and bare.sum() >= max(8, 0.1 * ok.sum()):
            protos[0] = np.median(v[bare], axis=0)
        _label, conf, dmin = self._classify_nominal(v, protos)
        good = ((conf > 0.95) & (dmin < SHADOW_FIT)) | ~self.valid
        shows = ((conf > 0.95) & (dmin < SHADOW_SMALL_FIT)) | ~self.valid
        # A cell's four holes (the outer ring of cells has two, or one at a corner).
        pad = np.pad(good, 1, constant_values=True).astype(int)
        cell_ok = pad[:-1, :-1] + pad[:-1, 1:] + pad[1:, :-1] + pad[1:, 1:] >= SHADOW_CELL
        # Groups of cells side by side: a light's or a shadow's edge that meets a hand's group at
        # one corner only is judged apart from it.
        k, lab, _stats, _ = cv2.connectedComponentsWithStats(
            occluded.astype(np.uint8), connectivity=SHADOW_CONNECT
        )
        out = none.copy()
        for c in range(1, k):
            comp = lab == c
            if hand_cells is not None and (comp & hand_cells).any():
                continue
            inner = comp[:-1, :-1] & comp[:-1, 1:] & comp[1:, :-1] & comp[1:, 1:] & self.valid
            if inner.sum() >= SHADOW_HOLES and good[inner].mean() >= SHADOW_SHARE:
                out |= comp & cell_ok
                continue
            out |= self._showing_part(comp & cell_ok, good)
            out |= self._showing_rim(comp, shows)
            # A small group (a shadow's or light's edge, often along the board's rim): every hole
            # at its cells' corners shows itself, so nothing lies over any of them.
            touch = (comp[:-1, :-1] | comp[:-1, 1:] | comp[1:, :-1] | comp[1:, 1:]) & self.valid
            # So is a thin one of any length (a line of cells, no hole inside).
            small = comp.sum() <= SHADOW_SMALL or (SHADOW_THIN and not inner.any())
            if small and touch.sum() >= 2 and shows[touch].all():
                out |= comp
            elif comp.sum() <= SHADOW_SMALL and SHADOW_SMALL_CELLS:
                # ... or, where one of its cells meets a hand's edge, its cells with two holes and
                # more at their corners, all showing themselves (the one at the edge stays).
                out |= comp & self._cells_showing(shows)
        out |= past
        if out.any():
            log.debug("board reader: %d occluded cells are light or shadow, not a hand", int(out.sum()))
        return out

    def _classify_nominal(
        self, v: np.ndarray, protos: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`_classify` as a fresh reader's (classes not yet learnt: nominal limits, no spread
        term), whatever earlier reads learnt: whether a cell is a hand or a shadow is then judged
        alike by a full read and by an incremental one."""
        if not NOT_HANDS_NOMINAL:
            return self._classify(v, protos)
        saved = self._adapted, self._spread, self.prototypes
        self._adapted = np.zeros(3, bool)
        self._spread = np.full((3, 6), SPREAD_DEFAULT)
        self.prototypes = self.spec.prototypes()
        try:
            return self._classify(v, protos)
        finally:
            self._adapted, self._spread, self.prototypes = saved

    def _showing_part(self, showing: np.ndarray, good: np.ndarray) -> np.ndarray:
        """The parts of a group of occluded cells too mixed to pass as a whole (a light or a
        shadow running into a hand) that are light or shadow: runs of cells (``showing``: those
        whose holes show themselves) side by side, with at least ``SPLIT_HOLES`` holes inside
        every one of which shows itself. Under a hand a hole shows a pit or a peg only by
        chance, never a whole patch of them."""
        out = np.zeros_like(showing)
        if not SPLIT_HOLES:
            return out
        k, lab, _stats, _ = cv2.connectedComponentsWithStats(showing.astype(np.uint8), connectivity=4)
        for c in range(1, k):
            part = lab == c
            inner = part[:-1, :-1] & part[:-1, 1:] & part[1:, :-1] & part[1:, 1:] & self.valid
            if inner.sum() >= SPLIT_HOLES and good[inner].all():
                out |= part
        return out

    def _cells_showing(self, shows: np.ndarray) -> np.ndarray:
        """(N+1, N+1) bool: cells with at least two valid holes at their corners, all of which
        are in ``shows``."""
        shown = np.pad(shows | ~self.valid, 1, constant_values=True)
        valid = np.pad(self.valid, 1).astype(int)
        all_show = shown[:-1, :-1] & shown[:-1, 1:] & shown[1:, :-1] & shown[1:, 1:]
        return all_show & (valid[:-1, :-1] + valid[:-1, 1:] + valid[1:, :-1] + valid[1:, 1:] >= 2)

    def _showing_rim(self, comp: np.ndarray, shows: np.ndarray) -> np.ndarray:
        """The cells of a group of occluded cells that lie on the board's rim, outside the lattice,
        in runs along it whose holes beside them (at least ``SPLIT_RIM``) all show themselves: a
        light's or a shadow's edge along the rim. An arm reaching over the rim hides the holes
        beside it (a run stops there)."""
        out = np.zeros_like(comp)
        if not SPLIT_RIM:
            return out
        rim = np.zeros_like(comp)
        rim[[0, -1], :] = True
        rim[:, [0, -1]] = True
        shown = np.pad(shows | ~self.valid, 1, constant_values=True)
        valid = np.pad(self.valid, 1).astype(int)
        all_show = shown[:-1, :-1] & shown[:-1, 1:] & shown[1:, :-1] & shown[1:, 1:]
        holes = valid[:-1, :-1] + valid[:-1, 1:] + valid[1:, :-1] + valid[1:, 1:]
        cand = comp & rim & all_show & (holes > 0)
        if not cand.any():
            return out
        k, lab, _stats, _ = cv2.connectedComponentsWithStats(cand.astype(np.uint8), connectivity=4)
        for c in range(1, k):
            part = lab == c
            if holes[part].sum() >= 2 * SPLIT_RIM:  # each hole beside two cells of a run
                out |= part
        return out

    def _pit_lift(self, hole_log: np.ndarray, board: np.ndarray, empty: np.ndarray) -> np.ndarray:
        """(N, N) light added on top of each hole (linear units), measured by the empty holes'
        pits: light that multiplies keeps a pit's ratio to its board, light that adds (a lamp,
        glare) lifts it. With ``rho`` the least-lit pits' ratio, a pit seen at ratio ``r`` lies
        under an added share ``(r - rho) / (1 - rho)`` of its board's brightness; the shares are
        smoothed over the empty holes around each hole (``LOCAL_SIGMA``)."""
        n = self.spec.size
        empty = empty & ~self._clipped
        self._pit_own = np.full((n, n), np.nan)
        if empty.sum() < 8:
            return np.zeros((n, n))
        pit = (np.exp(hole_log[..., :3]) - 8.0).mean(-1)
        base = (np.exp(board) - 8.0).mean(-1)
        r = pit / np.maximum(base, 1.0)
        rho = float(np.percentile(r[empty], PIT_CALM))
        share = np.clip((r - rho) / max(1.0 - rho, 1e-3), 0.0, 1.0)
        # Each pit's own measure, before smoothing (NaN where no pit was measured).
        self._pit_own = np.where(empty, share * base, np.nan)
        w = empty.astype(np.float32)
        ws = cv2.GaussianBlur(w, (0, 0), LOCAL_SIGMA, borderType=cv2.BORDER_CONSTANT)
        ss = cv2.GaussianBlur(
            (share * w).astype(np.float32), (0, 0), LOCAL_SIGMA, borderType=cv2.BORDER_CONSTANT
        )
        lift = np.where(ws > 0.01, ss / np.maximum(ws, 1e-6), 0.0) * base
        # Not where the board is clipped: there the light's strength is unknown.
        return np.where((lift > PIT_LIFT_MIN) & ~self._clipped, lift, 0.0)

    def _peak_near(self) -> np.ndarray:
        """(N, N) the most added light any pit among a hole's eight neighbours measured
        (``_pit_own``), where at least ``PEAK_PITS`` of them were measured; 0 elsewhere."""
        own = np.pad(self._pit_own, 1, constant_values=np.nan)
        n = self.spec.size
        around = np.stack(
            [
                own[1 + dr : 1 + dr + n, 1 + dc : 1 + dc + n]
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if dr or dc
            ]
        )
        seen = np.isfinite(around)
        most = np.where(seen, around, 0.0).max(0)
        return np.where(seen.sum(0) >= PEAK_PITS, most, 0.0)

    def _alone(self, dmin: np.ndarray, occluded: np.ndarray) -> np.ndarray:
        """(N, N) holes with no hole matching nothing (``dmin`` >= 1) among their eight
        neighbours, no cell taken for a hand at or beside their four, and not suspect: something
        lying on the board (a hand the board's colour, its shadow) leaves several holes side by
        side that match nothing, a glare's narrow peak one piece."""
        lying = np.pad((dmin >= 1.0) & self.valid, 1)
        n = self.spec.size
        around = np.zeros((n, n), bool)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if dr or dc:
                    around |= lying[1 + dr : 1 + dr + n, 1 + dc : 1 + dc + n]
        near = cv2.dilate(occluded.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        by_cell = near[:-1, :-1] | near[:-1, 1:] | near[1:, :-1] | near[1:, 1:]
        return ~around & ~by_cell & ~self._suspect

    def _peak_light(
        self,
        hole_log: np.ndarray,
        board: np.ndarray,
        label: np.ndarray,
        conf: np.ndarray,
        dmin: np.ndarray,
        glare: np.ndarray,
        peak: np.ndarray,
        white_base: np.ndarray,
        used: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A hole under added light that matches nothing, read as a piece under more light on the
        piece than on the board around it: a glare's narrow peak lifts the piece in the hole's
        middle more than the cells that measure its board, and the smoothed pits see less of it
        than the nearest pit does. The board's light stays the hole's estimate (``glare``, taken
        off it as in ``_ratio``); the piece's may be any amount up to ``peak`` (the most a pit
        beside it measures; 0 where it is not to be tried). Taking more light off a bare hole leaves
        its ring bare board's, but a hand the board's colour over holes, so darkened, may pass for a
        grey peg: a full read tries only holes standing alone (``_alone``), an incremental one none.
        Not where the board is clipped at white, nor in a channel (the light is unknown there). Any
        leading shape; ``used`` (that shape) gets the light each piece so read was read under, 0
        elsewhere (``_links`` takes it off its bridges' ends)."""
        if used is not None:
            used[...] = 0.0
        if not PEAK_LIGHT or not label.size:
            return label, conf, dmin
        todo = (dmin >= 1.0) & (glare > LIT_MIN) & (peak > glare + LIT_MIN)
        todo &= (board.min(-1) < np.log(CLIP_LEVEL + 8.0)) & np.isnan(white_base).all(-1)
        if not todo.any():
            return label, conf, dmin
        hole = np.exp(hole_log[todo])
        base = np.log(np.maximum(np.exp(board[todo]) - glare[todo][:, None], 8.0))
        base_log = np.concatenate([base, base], -1)
        lit = np.ones(len(hole), bool)
        protos = self._floored(self.prototypes, board[todo], lit)
        g0, g1 = glare[todo], peak[todo]
        best = (label[todo].copy(), conf[todo].copy(), dmin[todo].copy(), g0.copy())
        for k in range(1, PEAK_STEPS + 1):
            g = g0 + (g1 - g0) * k / PEAK_STEPS
            v = np.log(np.maximum(hole - g[:, None], 8.0)) - base_log
            lab, cf, dm = self._classify(v, protos)
            better = (dm < best[2]) & (lab > 0)
            for a, b in zip(best, (lab, cf, dm, g), strict=True):
                a[better] = b[better]
        got = best[2] < 1.0
        if not got.any():
            return label, conf, dmin
        label, conf, dmin = label.copy(), conf.copy(), dmin.copy()
        sel = tuple(i[got] for i in np.nonzero(todo))
        label[sel], conf[sel], dmin[sel] = best[0][got], best[1][got], best[2][got]
        if used is not None:
            used[sel] = best[3][got]
        return label, conf, dmin

    def _lit_dark_pieces(
        self,
        hole_log: np.ndarray,
        board: np.ndarray,
        label: np.ndarray,
        conf: np.ndarray,
        dmin: np.ndarray,
        glare: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Under added light (a lamp, glare: ``glare``, 0..255, past ``LIT_MIN``), a dark hueless piece
        (black, grey) is lifted towards the board by an amount the pits cannot always tell (though
        not by next to none: ``LIT_EXPLAIN``), so it may match no class.
        Where the spec has exactly one hueless piece, a hole that matches nothing, whose ring is
        clearly darker than its board (``LIT_DARK``) with no hue of its own (``CLIP_HUE``) and
        whose centre is no pit, is that piece, read as a weak match (``CLIP_MATCH``), as on a
        board clipped at white (:meth:`_clipped_holes`)."""
        lit = glare > LIT_MIN
        if self.spec.pattern != "holes" or not lit.any():
            return label, conf, dmin
        hueless = np.linalg.norm(_chroma(self.prototypes), axis=-1) <= FADE_CHROMA
        dark = np.nonzero(hueless & (np.arange(3) > 0))[0]
        if len(dark) != 1:
            return label, conf, dmin
        ring = hole_log[..., 3:]
        rd = ring - board
        pit = hole_log[..., :3].mean(-1) - ring.mean(-1)
        lean = np.linalg.norm(rd - rd.mean(-1, keepdims=True), axis=-1) / np.maximum(
            np.linalg.norm(rd, axis=-1), 1e-6
        )
        # No pit: the centre darker than the ring by less than half an empty hole's on this board
        # (a dark piece's ring, blurred with the bright board round it, is a little lighter).
        empty = self.prototypes[0]
        depth = max(CLIP_PIT, -LIT_PIT * (empty[:3].mean() - empty[3:].mean()))
        # A hole read empty with such a ring is no empty hole either (its ring would be bare board):
        # the light taken off was more than the piece got.
        odd = (dmin >= 1.0) | (label == 0)
        piece = lit & odd & (rd.mean(-1) <= -LIT_DARK) & (lean <= CLIP_HUE) & (pit > -depth)
        if LIT_EXPLAIN > 0 and piece.any():
            # Light added on top lifts the piece's ratio to its board from its nominal ``rho`` to
            # ``(rho * b + g) / (b + g)``: seen at ``r``, the light it took is ``(b + g) * (r - rho) /
            # (1 - rho)``. The pits may misjudge it, but not by that much: a ring far darker than
            # the board under next to no light (a fingertip's brown skin over an empty hole, its
            # shadow) is no piece lifted by it.
            rho = float(np.exp(self.spec.prototypes()[int(dark[0]), 3:].mean()))
            seen = np.exp(rd.mean(-1))
            lit_board = (np.exp(board) - 8.0).mean(-1)
            need = lit_board * np.clip(seen - rho, 0.0, None) / max(1.0 - rho, 1e-3)
            piece &= glare >= LIT_EXPLAIN * need
        if not piece.any():
            return label, conf, dmin
        label, conf, dmin = label.copy(), conf.copy(), dmin.copy()
        k = int(dark[0])
        label[piece], conf[piece], dmin[piece] = k, 1.0, CLIP_MATCH
        return label, conf, dmin

    def _clipped_holes(
        self,
        hole_log: np.ndarray,
        board: np.ndarray,
        label: np.ndarray,
        conf: np.ndarray,
        dmin: np.ndarray,
        clipped: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Empty holes on a board clipped at white: the pit's depth there says nothing (the
        board's true brightness is unknown), but a centre still darker than a ring that is the
        board itself is a hole, not a piece (a piece's centre is as bright as its ring or has a
        highlight). Such a hole is read empty as a weak match (``CLIP_MATCH``). There, too, a hole
        read as a hueless piece whose difference from the board leans to one hue (a washed-out
        red peg) matches nothing; and where the spec has one hueless and one coloured piece, a
        ring darker than the board without hue, or leaning along the coloured class's hue, is
        read as that piece (a weak match too)."""
        if self.spec.pattern != "holes":
            return label, conf, dmin
        clipped = self._clipped if clipped is None else clipped
        if not clipped.any():
            return label, conf, dmin
        ring = hole_log[..., 3:]
        pit = hole_log[..., :3].mean(-1) - ring.mean(-1)
        flat = np.abs(ring - board).max(-1) <= CLIP_RING
        empty = clipped & flat & (pit <= -CLIP_PIT) & (dmin > CLIP_MATCH)
        label, conf, dmin = label.copy(), conf.copy(), dmin.copy()
        label[empty], conf[empty], dmin[empty] = 0, 1.0, CLIP_MATCH
        # A coloured piece washed out there keeps only a little hue, but in proportion to what
        # is left of its contrast: a hole read as a hueless piece (grey, black, white) whose
        # ring's difference from the board leans to one hue matches nothing.
        rd = ring - board
        lean = np.linalg.norm(rd - rd.mean(-1, keepdims=True), axis=-1) / np.maximum(
            np.linalg.norm(rd, axis=-1), 1e-6
        )
        if CLIP_GREY_RING:
            # An empty hole's ring is bare board, and there bare board is that white: a hole read
            # empty whose ring is darker than it, without hue, by ``CLIP_DARK``, around a centre
            # darker than that ring by less (no pit of its own), is a washed-out hueless piece's
            # ring, not a shadow's edge (``EDGE``): it matches nothing.
            greyish = clipped & (label == 0) & (rd.mean(-1) <= -CLIP_DARK) & (lean <= CLIP_HUE)
            greyish &= pit > rd.mean(-1)
            dmin[greyish] = np.maximum(dmin[greyish], 1.0)
        hueless = np.linalg.norm(_chroma(self.prototypes), axis=-1) <= FADE_CHROMA
        odd = clipped & (label > 0) & hueless[label] & (lean > CLIP_HUE)
        dmin[odd] = np.maximum(dmin[odd], 1.0)
        # Where only one piece class is hueless (black or grey beside red), a ring clearly darker
        # than the board with no hue of its own around a centre that is no pit is that piece,
        # however much glare lifted it.
        dark = np.nonzero(hueless & (np.arange(3) > 0))[0]
        if len(dark) == 1:
            k = int(dark[0])
            piece = clipped & (rd.mean(-1) <= -CLIP_DARK) & (lean <= CLIP_HUE) & (pit > -CLIP_PIT)
            piece &= dmin > CLIP_MATCH
            label[piece], conf[piece], dmin[piece] = k, 1.0, CLIP_MATCH
        # And where only one class has a hue (red), a ring whose difference from the board leans
        # clearly that way is that piece, however faded.
        hued = np.nonzero(~hueless & (np.arange(3) > 0))[0]
        if len(hued) == 1:
            k = int(hued[0])
            want = _chroma(self.prototypes[k])[3:]
            got = rd - rd.mean(-1, keepdims=True)
            cos = (got * want).sum(-1) / np.maximum(np.linalg.norm(got, axis=-1) * np.linalg.norm(want), 1e-9)
            piece = (
                clipped & (lean > CLIP_HUE) & (cos >= CLIP_COS) & (np.linalg.norm(got, axis=-1) >= CLIP_DARK)
            )
            piece &= (pit > -CLIP_PIT) & (dmin > CLIP_MATCH)
            label[piece], conf[piece], dmin[piece] = k, 1.0, CLIP_MATCH
        return label, conf, dmin

    def _clipped_shapes(
        self,
        image: np.ndarray,
        rows: np.ndarray,
        cols: np.ndarray,
        label: np.ndarray,
        conf: np.ndarray,
        dmin: np.ndarray,
        full: bool = True,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Holes ``(rows, cols)`` on a board clipped at white, read again by the shape of what still
        shows there (:func:`vision.board.glare.read_shapes`): an unread hole whose shape is sure is
        read (a weak match, ``SHAPE_MATCH``); one read by its ring alone (``CLIP_MATCH``) whose shape
        says otherwise abstains. ``label``, ``conf``, ``dmin`` are those holes' (1-D) values. A full
        read (``full``) measures the board's pits' lean on those holes (``_pit_lean``); an
        incremental one, on its few holes, falls back on the last full read's."""
        if self.spec.pattern != "holes" or not len(rows):
            return label, conf, dmin
        unread = (dmin >= 1.0) | (conf < UNSURE)
        weak = dmin == CLIP_MATCH
        todo = unread | weak
        if not todo.any():
            return label, conf, dmin
        hueless = np.linalg.norm(_chroma(self.prototypes), axis=-1) <= FADE_CHROMA
        grey = np.nonzero(hueless & (np.arange(3) > 0))[0]
        red = np.nonzero(~hueless & (np.arange(3) > 0))[0]
        r, c = rows[todo], cols[todo]
        ys = ((r[:, None, None] + 1) + OFFSET_Y[None]) * PX
        xs = ((c[:, None, None] + 1) + OFFSET_X[None]) * PX
        mx, my = self._to_image(
            xs.reshape(len(r), -1).astype(np.float64), ys.reshape(len(r), -1).astype(np.float64)
        )
        patches = cv2.remap(image, mx, my, cv2.INTER_LINEAR).reshape(len(r), *OFFSET_Y.shape, 3)
        if full:
            self._pit_lean = board_pit_lean(patches)
        shape = read_shapes(
            patches,
            int(red[0]) if len(red) == 1 else None,
            int(grey[0]) if len(grey) == 1 else None,
            self._pit_lean,
        )
        label, conf, dmin = label.copy(), conf.copy(), dmin.copy()
        idx = np.nonzero(todo)[0]
        read = unread[todo] & (shape >= 0)
        label[idx[read]], conf[idx[read]], dmin[idx[read]] = shape[read], 1.0, SHAPE_MATCH
        odd = weak[todo] & (shape >= 0) & (shape != label[idx])
        dmin[idx[odd]] = 1.0
        if CLEAN_MATCH < 1.0:
            # An empty hole beyond doubt (its pit, and every part of the patch round it clipped
            # clean) is read as such beside a hand too (``CLEAN_MATCH``, under ``NEAR_HAND``).
            sure = (shape == 0) & clean_pits(patches)
            label[idx[sure]], conf[idx[sure]], dmin[idx[sure]] = 0, 1.0, CLEAN_MATCH
        return label, conf, dmin

    def _learn_dark(self, v: np.ndarray, ok: np.ndarray) -> None:
        """The hueless piece (black, grey) learnt from the board when no hole matched its nominal
        colour closely enough to teach it: blur spreads the board into a small dark peg, and a
        black peg's ring may then lie nearer an empty hole's (darkened, as by a shadow) than
        the nominal black. Its members: holes whose ring is clearly darker than the board
        (``DARK_SEED``) with no hue of its own (``CLIP_HUE``): an empty hole's ring is bare board
        (the board model follows shadows), however dark its pit; three at least."""
        if self.spec.pattern != "holes":
            return
        hueless = np.linalg.norm(_chroma(self.spec.prototypes()), axis=-1) <= FADE_CHROMA
        dark = np.nonzero(hueless & (np.arange(3) > 0))[0]
        if len(dark) != 1 or self._adapted[dark[0]]:
            return
        k = int(dark[0])
        ring = v[..., 3:]
        lean = np.linalg.norm(ring - ring.mean(-1, keepdims=True), axis=-1) / np.maximum(
            np.linalg.norm(ring, axis=-1), 1e-6
        )
        members = v[ok & (ring.mean(-1) <= -DARK_SEED) & (lean <= CLIP_HUE)]
        if len(members) < 3:
            return
        self.prototypes[k] = np.median(members, axis=0)
        self._adapted[k] = True
        if len(members) >= 8:
            mad = np.median(np.abs(members - self.prototypes[k]), axis=0)
            floor = np.maximum(SPREAD_MIN, np.log1p(LIFT * np.exp(-self.prototypes[k])))
            self._spread[k] = np.maximum(1.4826 * mad, floor)
        log.debug("board reader: hueless class %d learnt from %d dark holes", k, len(members))

    def _adapt(
        self, v: np.ndarray, label: np.ndarray, ok: np.ndarray, strict: np.ndarray | None = None
    ) -> np.ndarray:
        """Prototypes moved to the median of their confident members (three at least); a class with
        fewer than ``TEACH_MANY`` members in ``ok`` learns from those in ``strict`` alone (given)."""
        nominal = self.spec.prototypes()
        protos = self.prototypes.copy()
        for k in range(3):
            near = np.linalg.norm(v - nominal[k], axis=-1) < TRUST
            if k:
                # A piece's ring is the piece, not bare board (glare-washed empty holes are
                # close to a grey piece's nominal colour but keep the board's ring).
                near &= np.linalg.norm(v[..., 3:], axis=-1) >= EMPTY_RING
            members = v[ok & (label == k) & near]
            if strict is not None and len(members) < TEACH_MANY:
                members = v[strict & (label == k) & near]
            if len(members) >= 3 or (len(members) and not self._adapted[k]):
                protos[k] = np.median(members, axis=0)
                self._adapted[k] = True
                # The class's own spread sets how far a member may stray (robust: the MAD).
                if len(members) >= 8:
                    mad = np.median(np.abs(members - protos[k]), axis=0)
                    # Light added on top (a lamp, glare) lifts a dark colour more than a light
                    # one in log units: a dark class may stray further.
                    floor = np.maximum(SPREAD_MIN, np.log1p(LIFT * np.exp(-protos[k])))
                    self._spread[k] = np.maximum(1.4826 * mad, floor)
        return protos

    def _unlit_classes(
        self,
        vg: np.ndarray,
        board: np.ndarray,
        lit: np.ndarray,
        label: np.ndarray,
        conf: np.ndarray,
        dmin: np.ndarray,
        ok: np.ndarray,
        first: np.ndarray,
        strict: np.ndarray | None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each hole, its light taken off (``vg``), judged against the pieces' classes learnt from
        their members with theirs taken off too (``ok`` and ``strict`` as for :meth:`_adapt`, on the
        first labels ``first``); where a piece matches better so, that reading wins. A class learnt
        from its members as seen is a piece under their mean added light (a lamp's, glare's): a piece
        under less (no lamp over it) is darker than that along the light's direction (its dark
        channels most), and read against its class as seen it may match nothing. The measured light
        is no exact figure for every piece, so the class as seen stays and the better fit wins."""
        keep = self.prototypes.copy(), self._spread.copy(), self._adapted.copy()
        try:
            self._unlit = (self._adapt(vg, first, ok, strict), self._spread.copy(), self._adapted.copy())
        finally:
            self.prototypes, self._spread, self._adapted = keep
        return self._judge_unlit(vg, board, lit, label, conf, dmin)

    def _judge_unlit(
        self,
        vg: np.ndarray,
        board: np.ndarray,
        lit: np.ndarray,
        label: np.ndarray,
        conf: np.ndarray,
        dmin: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Holes (any leading shape), their light taken off (``vg``), judged against the unlit
        classes the last full read learnt (``_unlit_classes``); a piece that matches better so wins."""
        if self._unlit is None:
            return label, conf, dmin
        keep = self._spread, self._adapted
        protos, self._spread, self._adapted = self._unlit
        try:
            lu, cu, du = self._classify(vg, self._floored(protos, board, lit))
        finally:
            self._spread, self._adapted = keep
        # Only a class those members taught (a nominal one is judged more loosely).
        better = (du < dmin) & (lu > 0) & self._unlit[2][lu]
        return tuple(np.where(better, a, b) for a, b in ((lu, label), (cu, conf), (du, dmin)))  # type: ignore[return-value]

    def _local_protos(self, v: np.ndarray, label: np.ndarray, sure: np.ndarray) -> np.ndarray:
        """(N, N, 3, 6) prototypes for each hole: a Gaussian-weighted mean (``LOCAL_SIGMA``
        pitches) of each class's confident members around it, drawn towards the board-wide
        prototype by ``LOCAL_PRIOR`` (so a hole with no such neighbour keeps the global one)."""
        n = self.spec.size
        out = np.broadcast_to(self.prototypes, (n, n, 3, 6)).copy()
        for k in range(3):
            w = (sure & (label == k)).astype(np.float32)
            if not w.any():
                continue
            ws = cv2.GaussianBlur(w, (0, 0), LOCAL_SIGMA, borderType=cv2.BORDER_CONSTANT)
            vs = cv2.GaussianBlur(
                (v * w[..., None]).astype(np.float32), (0, 0), LOCAL_SIGMA, borderType=cv2.BORDER_CONSTANT
            )
            out[:, :, k] = (vs + LOCAL_PRIOR * self.prototypes[k]) / (ws + LOCAL_PRIOR)[..., None]
        return out

    def read(self, image: np.ndarray, hand_mask: np.ndarray | None = None) -> BoardReading:
        """A full read of every hole and link; also resets the incremental state."""
        t0 = time.perf_counter()
        f = self._features(image)
        hand_cells = self._hand_cells(hand_mask)
        board, occluded = self._board_model(f.cell_log, hand_cells)
        lifted = self._not_hands(f, occluded, hand_cells)
        if lifted.any():
            board, occluded = self._board_model(f.cell_log, hand_cells, lifted)
        label, conf, dmin = self._classify_board(f, board, occluded)
        if self.spec.has_links and occluded.any():
            # Links between pegs, crowded together, change the cells' hue as a hand does: what
            # the pegs just read explain is no hand (the holes are read again without it).
            pegs = np.where(self.valid & (conf > 0.95) & (dmin < LINK_PEG), label, 0)
            ring = self._ratio(f.hole_log, board)[..., 3:]
            links = self._link_cells(f.cell_log, board, pegs, ring, occluded, hand_cells)
            if links.any():
                lifted = lifted | links
                board, occluded = self._board_model(f.cell_log, hand_cells, lifted)
                label, conf, dmin = self._classify_board(f, board, occluded)
        self._lifted, self._lifted_ref = lifted, f.cell_log.copy()
        reading = self._assemble(f, board, occluded, label, conf, dmin, t0, self.spec.size**2)
        self._prev = f
        self._ref_hole = f.hole_log.copy()
        self._reading = reading
        return reading

    def _classify_board(
        self, f: _Features, board: np.ndarray, occluded: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(label, confidence, distance) of every hole against ``board``, the prototypes learnt
        afresh from the holes clear of ``occluded`` cells."""
        v = self._ratio(f.hole_log, board)
        self.prototypes = self.spec.prototypes()
        self._adapted[:] = False
        self._spread[:] = SPREAD_DEFAULT
        ok = self.valid & ~self._covered(occluded)
        # The empty point first, from the board itself: its ring is bare board (the centre may
        # be more or less dark with focus), while a piece's ring is the piece's colour.
        bare = ok & (np.linalg.norm(v[..., 3:], axis=-1) < EMPTY_RING)
        if bare.sum() >= max(8, 0.1 * ok.sum()):
            self.prototypes[0] = np.median(v[bare], axis=0)
        label, conf, dmin = self._classify(v, self.prototypes)
        first_label, first_conf = label, conf
        self._unlit = None
        self._pit_lean = None
        # A hole beside holes that match nothing, side by side (a hand the board's colour, its
        # shadow), teaches no class that has few members: a fingertip's shadow over an empty hole,
        # or a finger over one, is no piece's colour, and a class learnt from it reads the rest of
        # the hand so (many members outvote it).
        apart = ok & ~self._beside_lying(dmin) if TEACH_APART else None
        self.prototypes = self._adapt(
            v, label, ok & (conf > 0.95), None if apart is None else apart & (conf > 0.95)
        )
        self._learn_dark(v, ok if apart is None else apart)
        if PIT_LIFT and self.spec.pattern == "holes":
            self._lift = self._pit_lift(f.hole_log, board, ok & (label == 0) & (conf > 0.95) & (dmin < 0.5))
            self._glare = np.maximum(self._glare, self._lift)
            self._peak = self._peak_near() if PEAK_LIGHT else np.zeros_like(self._lift)
        lit = self._glare > LIT_MIN
        vg = self._ratio(f.hole_log, board, self._glare, self._white_base if SAT_BASE else None)
        label, conf, dmin = self._classify_lit(
            v, vg, lit, self._floored(self.prototypes, board, lit), self._faded
        )
        if LOCAL_SIGMA > 0:
            # Light is not only a ratio: lamp light or glare added on top lifts a dark piece far
            # more than the board, so each class is also learnt locally from its confident
            # members near each hole, and every hole is judged against its neighbourhood's.
            # Not a hole on a board clipped at white: what it shows is not its class's colour.
            sure = ok & (conf > 0.95) & (dmin < LOCAL_FIT) & ~self._clipped
            self._local = self._local_protos(v, label, sure)
            ll, lc, ld = self._classify_lit(v, vg, lit, self._floored(self._local, board, lit), self._faded)
            # The local model wins where it fits better (a hole with no like neighbours keeps
            # the board-wide one's verdict).
            better = ld < dmin
            label, conf, dmin = (np.where(better, a, b) for a, b in ((ll, label), (lc, conf), (ld, dmin)))
        if UNLIT_CLASSES and lit.any():
            label, conf, dmin = self._unlit_classes(
                vg,
                board,
                lit,
                label,
                conf,
                dmin,
                ok & (first_conf > 0.95),
                first_label,
                None if apart is None else apart & (first_conf > 0.95),
            )
        peak = np.where(self._alone(dmin, occluded), self._peak, 0.0)
        label, conf, dmin = self._peak_light(
            f.hole_log, board, label, conf, dmin, self._glare, peak, self._white_base, self._peak_used
        )
        label, conf, dmin = self._clipped_holes(f.hole_log, board, label, conf, dmin)
        label, conf, dmin = self._lit_dark_pieces(f.hole_log, board, label, conf, dmin, self._glare)
        label, conf, dmin = self._crossings(f.quad_log, f.hole_log, board, label, conf, dmin)
        clip = np.nonzero(self._clipped & self.valid)
        if clip[0].size:
            sub = self._clipped_shapes(f.image, *clip, label[clip], conf[clip], dmin[clip])
            label, conf, dmin = label.copy(), conf.copy(), dmin.copy()
            label[clip], conf[clip], dmin[clip] = sub
        return label, conf, dmin

    def _beside_lying(self, dmin: np.ndarray) -> np.ndarray:
        """(N, N) bool: holes that match nothing (``dmin`` >= 1) in groups of ``MIN_HAND_CELLS`` side
        by side (not on a board clipped at white, where glare makes them), and their neighbours."""
        lying = (dmin >= 1.0) & self.valid & ~self._clipped
        if lying.sum() < MIN_HAND_CELLS:
            return np.zeros_like(lying)
        _n, lab, stats, _ = cv2.connectedComponentsWithStats(lying.astype(np.uint8), connectivity=8)
        big = np.nonzero(stats[:, cv2.CC_STAT_AREA] >= MIN_HAND_CELLS)[0]
        blob = np.isin(lab, big[big > 0])
        return cv2.dilate(blob.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)

    def update(self, image: np.ndarray, hand_mask: np.ndarray | None = None) -> BoardReading:
        """An incremental read: only holes whose colour changed since they were last classified
        are classified again; the first call is a full read."""
        if self._reading is None or self._ref_hole is None:
            return self.read(image, hand_mask)
        t0 = time.perf_counter()
        f = self._features(image)
        hand_cells = self._hand_cells(hand_mask)
        # Cells the last full read found to be links or light stay so while they look the same.
        keep = self._lifted & (_cmax(np.abs(f.cell_log - self._lifted_ref)) < CHANGE)
        board, occluded = self._board_model(f.cell_log, hand_cells, keep if keep.any() else None)
        if SHADOW_UPDATE and occluded.any():
            # A shadow or light that came since (a hand's shadow cast beside it) is no hand either.
            lifted = self._not_hands(f, occluded, hand_cells)
            if lifted.any():
                keep = keep | lifted
                board, occluded = self._board_model(f.cell_log, hand_cells, keep)
        if self.spec.has_links and occluded.any() and self._links_maybe(occluded, hand_cells):
            # A small group of odd cells and no hand given there: new links crowding round a new
            # peg look like a fingertip; a full read tells them apart with fresh labels.
            return self.read(image, hand_mask)
        # The added light the full read measured by the pits stays (a lamp does not move).
        self._glare = np.maximum(self._glare, self._lift)
        covered = self._covered(occluded)
        prev = self._reading
        changed = (_cmax(np.abs(f.hole_log - self._ref_hole)) > CHANGE) & self.valid
        # Holes that were unknown (covered) before are read again once visible.
        changed |= (prev.matrix < 0) & self.valid & ~covered
        # ... and so are holes kept from memory under glare (a hand may since have voided it).
        if prev.remembered is not None:
            changed |= prev.remembered & ~covered
        # The holes one step beside those an occluded cell touches are judged as a full read judges
        # them (``_covered`` with their distances): they are classified again.
        by_cell = occluded[:-1, :-1] | occluded[:-1, 1:] | occluded[1:, :-1] | occluded[1:, 1:]
        beside = covered & ~by_cell & self.valid
        changed |= beside
        label = prev.guess.copy()
        conf = prev.confidence.copy()
        dmin = np.zeros(label.shape)
        # Unchanged holes read empty around a hand are classified in the same pass, for
        # ``_open_empty_update`` only (their readings stay as they were).
        extra = np.zeros_like(changed)
        if covered.any() and OPEN_EMPTY > 0 and self.spec.pattern == "holes":
            around = cv2.dilate(
                ((covered | changed) & self.valid).astype(np.uint8), np.ones((3, 3), np.uint8)
            )
            extra = (label == 0) & around.astype(bool) & ~changed & (self._open_limit(occluded) > 0)
            extra &= self.valid
        both = np.nonzero(changed | extra)
        fresh = None
        if both[0].size:
            lab, c, d = self._reclassify(f, board, both, (covered | extra)[both], adapt=True)
            mine = changed[both]
            if extra.any():
                fresh = (extra, np.zeros(label.shape, np.int8), np.zeros(label.shape), np.zeros(label.shape))
                sel = tuple(i[~mine] for i in both)
                fresh[1][sel], fresh[2][sel], fresh[3][sel] = lab[~mine], c[~mine], d[~mine]
            lab, c, d = lab[mine], c[mine], d[mine]
        idx = np.nonzero(changed)
        if idx[0].size:
            # A piece never turns into the other colour: while something lies on the board (a hand
            # seen, or holes side by side that match nothing), a hole whose piece now reads as the
            # other piece is something over it (a pale hand over a red peg reads grey). It abstains
            # and keeps its piece as its guess, until the hand has gone.
            old = label[idx]
            swap = (old > 0) & (lab > 0) & (lab != old)
            if swap.any() and (covered.any() or int((d >= 1.0).sum()) >= MIN_HAND_CELLS):
                lab, d = lab.copy(), d.copy()
                lab[swap], d[swap] = old[swap], np.maximum(d[swap], 1.0)
            label[idx], conf[idx], dmin[idx] = lab, c, d
            self._ref_hole[idx] = f.hole_log[idx]
        # Unchanged holes that were unsure stay unsure; covered ones abstain below.
        # Links only change with a hand over the board, which changes holes: else keep them.
        if beside.any():
            shaded = (
                self._shaded(f, board, occluded, label, dmin)
                if SHADE_HUE > 0
                else np.zeros_like(occluded[:-1, :-1])
            )
            covered = self._covered(occluded, dmin, shaded)
        open_empty = self._open_empty_update(f, board, occluded, covered, label, conf, dmin, changed, fresh)
        covered = covered & ~open_empty
        same = idx[0].size == 0 and np.array_equal(covered & self.valid, prev.covered)
        reading = self._assemble(
            f, board, occluded, label, conf, dmin, t0, int(idx[0].size), covered, same, open_empty
        )
        self._prev = f
        self._reading = reading
        return reading

    def _reclassify(
        self,
        f: _Features,
        board: np.ndarray,
        idx: tuple[np.ndarray, ...],
        covered_idx: np.ndarray,
        adapt: bool = False,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(label, confidence, distance) of the holes ``idx`` classified afresh as an incremental read
        does (local prototypes, added light, glare); with ``adapt``, a class first confidently seen
        there among holes not ``covered_idx`` learns its prototype."""
        # The holes' values, picked once (no step below writes into them).
        hole, base, glare, clipped = f.hole_log[idx], board[idx], self._glare[idx], self._clipped[idx]
        v = self._ratio(hole, base)
        vg = self._ratio(hole, base, glare, self._white_base[idx] if SAT_BASE else None)
        lit = glare > LIT_MIN
        local = self._local[idx] if self._local is not None else self.prototypes
        lab, c, d = self._classify_lit(v, vg, lit, self._floored(local, base, lit), self._faded[idx])
        if adapt and not self._adapted.all():
            fresh = ~covered_idx & (c > 0.95) & ~self._adapted[lab]
            if fresh.any():
                before = self._adapted.copy()
                self.prototypes = self._adapt(v, lab, fresh)
                if self._local is not None:
                    # A class first seen now has no local model yet: the board-wide one.
                    for k in np.nonzero(self._adapted & ~before)[0]:
                        self._local[:, :, k] = self.prototypes[k]
                local = self._local[idx] if self._local is not None else self.prototypes
                lab, c, d = self._classify_lit(v, vg, lit, self._floored(local, base, lit), self._faded[idx])
        if UNLIT_CLASSES and lit.any():
            lab, c, d = self._judge_unlit(vg, base, lit, lab, c, d)
        # Not here: whether a hole stands alone needs its neighbours' fresh distances (``_alone``).
        self._peak_used[idx] = 0.0
        lab, c, d = self._clipped_holes(hole, base, lab, c, d, clipped)
        lab, c, d = self._lit_dark_pieces(hole, base, lab, c, d, glare)
        clip = clipped
        if clip.any():
            sub = self._clipped_shapes(
                f.image, idx[0][clip], idx[1][clip], lab[clip], c[clip], d[clip], full=False
            )
            lab[clip], c[clip], d[clip] = sub
        if f.quad_log is not None:
            lab, c, d = self._crossings(f.quad_log[idx], hole, base, lab, c, d, clipped, glare)
        return lab, c, d

    def _open_empty(
        self,
        occluded: np.ndarray,
        label: np.ndarray,
        conf: np.ndarray,
        dmin: np.ndarray,
        f: _Features | None = None,
        board: np.ndarray | None = None,
    ) -> np.ndarray:
        """(N, N) bool: holes read empty, surely, matching the empty hole within ``OPEN_EMPTY`` of the
        limit (pit and bare ring) next to no occluded cell, or within ``OPEN_BESIDE`` next to a few
        (see ``_assemble``, ``_open_limit``) where the board round them is bare (``_bare_around``:
        with ``f`` and ``board`` only; else none next to an occluded cell)."""
        if OPEN_EMPTY <= 0 or self.spec.pattern != "holes":
            return np.zeros_like(self.valid)
        seen = (label == 0) & (conf >= UNSURE) & (dmin < self._open_limit(occluded)) & self.valid
        return self._bare_beside(seen, occluded, f, board)

    def _bare_beside(
        self, seen: np.ndarray, occluded: np.ndarray, f: _Features | None, board: np.ndarray | None
    ) -> np.ndarray:
        """``seen`` less the holes next to an occluded cell round which the board is not bare."""
        beside = seen & (occluded[:-1, :-1] | occluded[:-1, 1:] | occluded[1:, :-1] | occluded[1:, 1:])
        if not beside.any():
            return seen
        seen = seen & ~beside
        if f is not None and board is not None:
            idx = np.nonzero(beside)
            seen[idx] = self._bare_around(f, board, idx)
        return seen

    def _bare_around(self, f: _Features, board: np.ndarray, idx: tuple[np.ndarray, ...]) -> np.ndarray:
        """(len(idx[0]),) bool: holes ``idx`` round which the board is bare, ``OPEN_BESIDE_REACH``
        pitches out in ``OPEN_BESIDE_POINTS`` directions: no hue of its own past ``OPEN_BESIDE_HUE``
        against their board's, its brightness within ``OPEN_BESIDE_SHADE``."""
        ang = np.linspace(0.0, 2.0 * np.pi, OPEN_BESIDE_POINTS, endpoint=False)
        rad = OPEN_BESIDE_REACH * PX
        ys = ((idx[0] + 1) * PX)[:, None] + rad * np.sin(ang)[None, :]
        xs = ((idx[1] + 1) * PX)[:, None] + rad * np.cos(ang)[None, :]
        mx, my = self._to_image(xs, ys)
        vals = cv2.remap(f.image, mx.reshape(1, -1), my.reshape(1, -1), cv2.INTER_LINEAR)[0]
        res = np.log(vals.reshape(len(idx[0]), -1, 3).astype(np.float32) + 8.0) - board[idx][:, None, :]
        bright = res.mean(-1)
        hue = np.linalg.norm(res - bright[..., None], axis=-1)
        return ((hue < OPEN_BESIDE_HUE) & (np.abs(bright) < OPEN_BESIDE_SHADE)).all(-1)

    @staticmethod
    def _open_limit(occluded: np.ndarray) -> np.ndarray:
        """(N, N): how closely each hole must match the empty hole to be seen beside a hand
        (``_open_empty``): ``OPEN_EMPTY`` next to no occluded cell, ``OPEN_BESIDE`` next to at most
        ``OPEN_BESIDE_CELLS`` of them, else 0 (never)."""
        occ = occluded.astype(np.int8)
        count = occ[:-1, :-1] + occ[:-1, 1:] + occ[1:, :-1] + occ[1:, 1:]
        beside = OPEN_BESIDE if OPEN_BESIDE_CELLS > 0 else 0.0
        return np.where(count == 0, OPEN_EMPTY, np.where(count <= OPEN_BESIDE_CELLS, beside, 0.0))

    def _open_empty_update(
        self,
        f: _Features,
        board: np.ndarray,
        occluded: np.ndarray,
        covered: np.ndarray,
        label: np.ndarray,
        conf: np.ndarray,
        dmin: np.ndarray,
        changed: np.ndarray,
        fresh: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None,
    ) -> np.ndarray:
        """``_open_empty`` for an incremental read: the holes it classified again (``changed``) are
        judged on their fresh distances; an unchanged hole read empty beside a covered or changed
        hole (where a hand or what matches nothing lies) is classified afresh to be judged, for its
        remembered reading says nothing of its distance now (``conf`` takes the fresh confidence of
        those seen). ``fresh``: (holes, label, confidence, distance) of unchanged holes the read
        already classified afresh."""
        if OPEN_EMPTY <= 0 or self.spec.pattern != "holes":
            return np.zeros_like(self.valid)
        unsure = np.where(changed, dmin, np.inf)  # only those classified again are judged here
        open_empty = self._open_empty(occluded, label, conf, unsure, f, board)
        stir = (covered | changed) & self.valid
        # With nothing covered and too few holes matching nothing for a hand, none is covered.
        if not covered.any() and int((changed & (dmin >= 1.0)).sum()) < MIN_HAND_CELLS:
            return open_empty
        around = cv2.dilate(stir.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        candidate = (label == 0) & (self._open_limit(occluded) > 0) & self.valid & around & ~changed
        idx = np.nonzero(candidate)
        if idx[0].size:
            if fresh is not None and fresh[0][idx].all():
                lab, c, d = fresh[1][idx], fresh[2][idx], fresh[3][idx]
            else:
                lab, c, d = self._reclassify(f, board, idx, covered[idx])
            seen = (lab == 0) & (c >= UNSURE) & (d < self._open_limit(occluded)[idx])
            if seen.any():
                mask = np.zeros_like(self.valid)
                mask[tuple(i[seen] for i in idx)] = True
                seen = self._bare_beside(mask, occluded, f, board)[idx]
            open_empty[idx] = seen
            # A hole covered at the last read has no confidence left: its fresh one.
            conf[idx] = np.where(seen, c, conf[idx])
        return open_empty

    def _shaded(
        self, f: _Features, board: np.ndarray, occluded: np.ndarray, label: np.ndarray, dmin: np.ndarray
    ) -> np.ndarray:
        """(N, N) bool: holes whose ring differs from their class's local prototype by a brightness
        shift (a shadow's or light's soft edge, within ``EDGE``) and hue under ``SHADE_HUE`` only,
        and that match their class within ``SHADE_MATCH``: nothing lies over part of them."""
        v = self._ratio(f.hole_log, board)[..., 3:]
        protos = (
            self._local if self._local is not None else np.broadcast_to(self.prototypes, (*label.shape, 3, 6))
        )
        mine = _pick(protos, label)[..., 3:]
        dv = v - mine
        shift = _cmean(dv)
        hue = _cnorm(dv - shift[..., None])
        # A printed cell (a border line) is never taken as occluded, so a hand reaching over it
        # from an occluded cell goes unseen: a hole beside such a cell is not judged so.
        pr = self.printed & cv2.dilate(occluded.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        blind = pr[:-1, :-1] | pr[:-1, 1:] | pr[1:, :-1] | pr[1:, 1:]
        return (hue < SHADE_HUE) & (np.abs(shift) < EDGE) & (dmin < SHADE_MATCH) & ~blind

    def _covered(
        self, occluded: np.ndarray, dmin: np.ndarray | None = None, shaded: np.ndarray | None = None
    ) -> np.ndarray:
        """Holes next to an occluded cell, and their neighbours (a hand's edge can hide part of a
        peg between two clean cells; a partly hidden peg must abstain, not be misread). With
        ``dmin`` (a full read's distances to the classes), a neighbour that matches its class
        within ``RING_MATCH`` of the limit is read: a hidden part would have spoilt the match."""
        near = occluded[:-1, :-1] | occluded[:-1, 1:] | occluded[1:, :-1] | occluded[1:, 1:]
        if not near.any():
            return near
        ring = cv2.dilate(near.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & ~near
        if dmin is not None:
            ring &= dmin >= RING_MATCH
            if shaded is not None:
                ring &= ~shaded
        return near | ring

    def _assemble(
        self,
        f: _Features,
        board: np.ndarray,
        occluded: np.ndarray,
        label: np.ndarray,
        conf: np.ndarray,
        dmin: np.ndarray,
        t0: float,
        changed: int,
        covered: np.ndarray | None = None,
        reuse_links: bool = False,
        open_empty: np.ndarray | None = None,
    ) -> BoardReading:
        def shading() -> np.ndarray:
            """``_shaded`` of this read, measured when first asked (an incremental read that gives
            ``covered`` and finds no blob never asks)."""
            if not kept:
                kept.append(
                    self._shaded(f, board, occluded, label, dmin)
                    if SHADE_HUE > 0
                    else np.zeros_like(occluded[:-1, :-1])
                )
            return kept[0]

        kept: list[np.ndarray] = []
        # A hole beside holes that match nothing (a hand the board's colour, see below) that shows
        # an empty hole's dark pit inside a ring of bare board of the board's hue, closely, has
        # nothing over it: a hand over part of it would fill the pit or hide part of the ring (and
        # a piece it hid shows no pit). Next to a cell a hand's colour covers (a finger's edge there
        # may cross it), only a very close match on a hand's margin (``_open_limit``). An
        # incremental read gives them (``update``: ``dmin`` is only measured on the holes it
        # classified again).
        if open_empty is None:
            open_empty = (
                self._open_empty(occluded, label, conf, dmin, f, board)
                if covered is None
                else np.zeros_like(self.valid)
            )
        covered = self._covered(occluded, dmin, shading()) if covered is None else covered
        covered = covered & self.valid & ~open_empty
        outlier = (dmin >= 1.0) & self.valid
        # On a board clipped at white, unreadable holes are glare's doing (a pale grey peg there
        # is as white as the board): they abstain alone, they are no hand.
        lying = outlier & ~self._clipped
        if lying.sum() >= MIN_HAND_CELLS:
            # Holes that match nothing, side by side, are something lying on the board (a hand
            # the board's own colour escapes the cells' hue test but hides the holes): it covers
            # them and their neighbours.
            _n, lab, stats, _ = cv2.connectedComponentsWithStats(lying.astype(np.uint8), connectivity=8)
            big = np.nonzero(stats[:, cv2.CC_STAT_AREA] >= MIN_HAND_CELLS)[0]
            blob = np.isin(lab, big[big > 0])
            if blob.any():
                ring = cv2.dilate(blob.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & ~blob
                # As beside occluded cells: a neighbour that matches its class very closely is read.
                # Not by its shading alone here: a hand the board's colour over part of a hole
                # changes only its brightness (a pit half hidden looks like a grey peg) ...
                close = dmin < BLOB_RING_MATCH
                # ... unless the blob lies wholly among holes already covered by a hand seen by its
                # colour: it is that hand's edge or shadow, not a hand of the board's colour reaching
                # further, and as beside that hand, a neighbour whose ring only dims or brightens
                # evenly is read.
                seen = np.isin(lab, [c for c in big[big > 0] if (covered | ~self.valid | (lab != c)).all()])
                if seen.any():
                    by_seen = cv2.dilate(seen.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
                    by_unseen = cv2.dilate((blob & ~seen).astype(np.uint8), np.ones((3, 3), np.uint8))
                    close |= shading() & by_seen & ~by_unseen.astype(bool)
                ring &= ~close
                covered = covered | ((blob | ring) & self.valid & ~open_empty)
                if PINCHED:
                    # A hole seen plainly empty between two such holes on opposite sides lies
                    # between parts of one thing (two fingers of a hand the board's colour): what
                    # shows there as a pit inside bare board is a gap between them over whatever the
                    # hole holds. It abstains.
                    covered = covered | (open_empty & _pinched(blob) & self.valid)
        # Unreadable holes side by side on a board clipped at white are glare's doing, or a hand as
        # white as the glare where they touch a hand seen by its colour: beside those a weak match
        # (a piece read by its dark or tinted ring alone, see _clipped_holes, which sets its
        # distance to CLIP_MATCH) may be a finger's edge over a hole, and abstains.
        white = outlier & self._clipped
        if white.sum() >= MIN_HAND_CELLS and covered.any():
            _n, lab, stats, _ = cv2.connectedComponentsWithStats(white.astype(np.uint8), connectivity=8)
            touch = cv2.dilate(covered.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
            big = np.nonzero(stats[:, cv2.CC_STAT_AREA] >= MIN_HAND_CELLS)[0]
            hand = [c for c in big[big > 0] if (touch & (lab == c)).any()]
            if hand:
                white = np.isin(lab, hand)
                near_white = cv2.dilate(white.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
                outlier |= (dmin == CLIP_MATCH) & near_white & self.valid
        if covered.any() or self._suspect.any():
            # Beside a hand (fingers the colour of the board escape the cells' test), a hole must
            # match its class more closely.
            beside = cv2.dilate(covered.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
            beside |= self._suspect
            outlier |= (dmin >= NEAR_HAND) & beside & self.valid
        guess = np.where(self.valid, label, 0).astype(np.int8)
        matrix = guess.copy()
        unknown = covered | outlier | (conf < UNSURE)
        matrix[unknown & self.valid] = -1
        conf = np.where(covered | outlier, 0.0, conf).astype(np.float32)
        conf[~self.valid] = 1.0
        matrix, conf, remembered = self._recall(matrix, conf, covered)
        guess = np.where(remembered, matrix, guess).astype(np.int8)
        links, unsure, link_conf = (
            self._links(f, board, matrix, covered) if self.spec.has_links else ((), (), 1.0)
        )
        return BoardReading(
            self.spec,
            matrix,
            conf,
            covered,
            guess,
            links,
            unsure,
            link_conf,
            (time.perf_counter() - t0) * 1000.0,
            changed,
            remembered if remembered.any() else None,
        )

    def _recall(
        self, matrix: np.ndarray, conf: np.ndarray, covered: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(matrix, confidence, remembered): holes that abstain only because glare clips them at
        white now keep the value an earlier read saw confidently, while no hand has come near
        since: within ``MEMORY_REACH`` holes of a covered or suspect hole, or anywhere in a white
        patch that reaches there (a hand as white as the glare hides in it), memory is dropped.
        Each confident reading is remembered. A full read of a new reader remembers nothing."""
        stir = covered | self._suspect
        if stir.any():
            size = 2 * MEMORY_REACH + 1
            reach = cv2.dilate(stir.astype(np.uint8), np.ones((size, size), np.uint8)).astype(bool)
            k, lab = cv2.connectedComponents(self._clipped.astype(np.uint8), connectivity=8)
            if k > 1:
                touched = np.unique(lab[reach & self._clipped])
                reach |= np.isin(lab, touched[touched > 0])
            self._memory[reach] = -1
        hidden = (matrix < 0) & self._clipped & ~covered & (self._memory >= 0) & self.valid
        seen = (matrix >= 0) & self.valid
        self._memory[seen] = matrix[seen]
        self._memory_conf[seen] = conf[seen]
        if hidden.any():
            matrix, conf = matrix.copy(), conf.copy()
            matrix[hidden] = self._memory[hidden]
            conf[hidden] = self._memory_conf[hidden]
            log.debug("board reader: %d holes under glare keep their earlier reading", int(hidden.sum()))
        return matrix, conf, hidden

    # -- links ---------------------------------------------------------------------------------
    def _link_table(self) -> _LinkTable:
        """Every knight's-move pair of holes on the board, in the order :meth:`_links` lists a read's
        pairs (``KNIGHT`` direction by direction, then row by row), with the image coordinates of
        the samples along each, computed once: a read then picks its pairs' instead of mapping
        them through the homography and lens."""
        if self._pair_table is None:
            n = self.spec.size
            pairs = []
            for dr, dc in KNIGHT:
                c0, c1 = max(0, -dc), min(n, n - dc)
                r, c = (a.ravel() for a in np.mgrid[0 : n - dr, c0:c1])
                pairs.append(np.stack([r, c, r + dr, c + dc], 1))
            p = np.concatenate(pairs)
            y0, x0 = (p[:, 0] + 1) * PX, (p[:, 1] + 1) * PX
            y1, x1 = (p[:, 2] + 1) * PX, (p[:, 3] + 1) * PX
            xs = x0[:, None] + (x1 - x0)[:, None] * LINK_T[None, :]
            ys = y0[:, None] + (y1 - y0)[:, None] * LINK_T[None, :]
            mx, my = self._to_image(xs.astype(np.float64), ys.astype(np.float64))
            mr, mc = (p[:, 0] + p[:, 2]) / 2, (p[:, 1] + p[:, 3]) / 2
            mid = [
                rr.astype(int) * n + cc.astype(int)
                for rr, cc in ((np.floor(mr), np.floor(mc)), (np.ceil(mr), np.ceil(mc)))
            ]
            self._pair_table = _LinkTable(
                p, p[:, 0] * n + p[:, 1], p[:, 2] * n + p[:, 3], mid[0], mid[1], mx, my
            )
        return self._pair_table

    def _links(
        self, f: _Features, board: np.ndarray, matrix: np.ndarray, covered: np.ndarray
    ) -> tuple[tuple[tuple[int, int, int, int], ...], tuple[tuple[int, int, int, int], ...], float]:
        table = self._link_table()
        flat = matrix.ravel()
        first = flat[table.first]
        sel = np.flatnonzero((first > 0) & (first == flat[table.second]))
        if not len(sel):
            return (), (), 1.0
        p = table.pairs[sel]
        one, two = table.first[sel], table.second[sel]  # the pegs' flat indices
        samples = cv2.remap(f.image, table.map_x[sel], table.map_y[sel], cv2.INTER_LINEAR).astype(np.float32)
        slog = np.log(samples + 8.0)
        cells = board.reshape(-1, 3)
        ref = 0.5 * (cells[one] + cells[two])
        v = slog - ref[:, None, :]
        # Light added on top (a lamp, glare) lifts a bridge towards the board as it lifts its pegs:
        # it is taken off the samples and the board alike, as for the holes (see _ratio).
        glare = self._glare.ravel()
        added = 0.5 * (glare[one] + glare[two])
        lit = added > LIT_MIN
        if lit.any():
            g = added[lit][:, None, None]
            base = np.log(np.maximum(np.exp(ref[lit])[:, None, :] - g, 8.0))
            v[lit] = np.log(np.maximum(samples[lit] + 8.0 - g, 8.0)) - base
            # A peg read under a glare's peak (``_peak_light``): its bridge is lifted by the light
            # its pegs were read under, from one end's to the other's; the board as before.
            ends = np.stack([self._peak_used[p[:, 0], p[:, 1]], self._peak_used[p[:, 2], p[:, 3]]], 1)
            peaked = lit & (ends > 0).any(1)
            if peaked.any():
                own = np.stack([self._glare[p[:, 0], p[:, 1]], self._glare[p[:, 2], p[:, 3]]], 1)
                ends = np.where(ends > 0, ends, own)[peaked]
                gs = ends[:, :1] + (ends[:, 1:] - ends[:, :1]) * LINK_T[None, :]
                v[peaked] = np.log(np.maximum(samples[peaked] + 8.0 - gs[..., None], 8.0)) - base[peaked[lit]]
        colour = flat[one].astype(int)
        # (K, 1, 3): each pair's class, broadcast along its samples by the arithmetic itself.
        proto = self.prototypes[colour, 3:][:, None, :]
        # Under glare a coloured bridge fades towards the board as its pegs do (see _classify_lit).
        faded = self._faded.ravel()
        lit = faded[one] | faded[two]
        hue = self._hued()[0][colour]
        fade = lit & hue
        if fade.any():
            share = _csum(v * proto) / np.maximum(_csum(proto * proto), 1e-9)
            share = np.where(fade[:, None], np.clip(share, FADE_MIN, 1.0), 1.0)
            proto = share[..., None] * proto
        d_peg = _cnorm(v - proto)
        d_board = _cnorm(v)
        # Links never cross, but a bridge of the other colour may cross the segment between two
        # pegs that no bridge joins: a sample much nearer the other colour (LINK_OTHER) is no
        # vote for this one.
        other = self.prototypes[3 - colour, 3:][:, None, :]
        d_other = _cnorm(v - other)
        vote = (d_peg < d_board) & (d_peg <= LINK_OTHER * d_other)
        if LINK_HUE > 0 and hue.any():
            # A bridge of a hued colour (red) shows that hue, faded or not: a hueless sample (a dark
            # bridge of the other colour crossing, its blurred edge, taken darker still where added
            # light is taken off) is far from every class and may pass the tests above, but is no
            # vote for it. Its hue along the class's must reach LINK_HUE of the (faded) class's.
            want = proto - _cmean(proto)[..., None]
            size = _cnorm(want)
            along = _csum((v - _cmean(v)[..., None]) * want) / np.maximum(size, 1e-9)
            vote &= ~hue[:, None] | (along >= LINK_HUE * size)
        votes = vote.sum(1)
        clipped = self._clipped.ravel()
        clip = clipped[one] | clipped[two]
        if clip.any():
            # On a board clipped at white, a bridge is seen as its pegs are (see _clipped_holes):
            # darker than the board without hue (black, grey), or leaning along its hue (red).
            w = v[clip]
            mean = w.mean(-1)
            got = w - mean[..., None]
            norm = np.linalg.norm(w, axis=-1)
            lean = np.linalg.norm(got, axis=-1) / np.maximum(norm, 1e-6)
            want = _chroma(self.prototypes[colour[clip]])[:, None, 3:]
            cos = (got * want).sum(-1) / np.maximum(
                np.linalg.norm(got, axis=-1) * np.linalg.norm(want, axis=-1), 1e-9
            )
            # Tinted light gives a washed-out hueless bridge the hue its pegs' rings show.
            toned = self._tinted(f, board, p[clip], got) if LINK_TINT else np.zeros_like(lean, bool)
            seen = np.where(
                hue[clip][:, None],
                (lean > CLIP_HUE) & (cos >= CLIP_COS) & (np.linalg.norm(got, axis=-1) >= CLIP_DARK),
                (mean <= -CLIP_DARK) & ((lean <= CLIP_HUE) | toned),
            )
            # A bridge is a line 0.2 pitch wide: where glare fades a hueless one past CLIP_DARK it
            # is still darker, evenly, than the board beside it (the brighter of its two sides,
            # LINK_SIDE pitch off its axis: a neighbouring peg may darken one); a shadow or a
            # broad patch of light darkens both sides alike.
            y0, x0 = (p[:, 0] + 1) * PX, (p[:, 1] + 1) * PX
            y1, x1 = (p[:, 2] + 1) * PX, (p[:, 3] + 1) * PX
            xs = x0[:, None] + (x1 - x0)[:, None] * LINK_T[None, :]
            ys = y0[:, None] + (y1 - y0)[:, None] * LINK_T[None, :]
            side = self._link_sides(
                f.image, p[clip], xs[clip], ys[clip], x1 - x0, y1 - y0, clip, matrix, ref[clip]
            )
            near = slog[clip] - side
            nmean = near.mean(-1)
            nlean = np.linalg.norm(near - nmean[..., None], axis=-1) / np.maximum(
                np.linalg.norm(near, axis=-1), 1e-6
            )
            ntoned = (
                self._tinted(f, board, p[clip], near - nmean[..., None])
                if LINK_TINT
                else np.zeros_like(nlean, bool)
            )
            faint = (
                ~hue[clip][:, None]
                & (nmean <= -LINK_CLIP_DARK)
                & ((nlean <= CLIP_HUE) | ntoned)
                & (mean <= -LINK_CLIP_DARK)
            )
            votes[clip] = np.maximum(votes[clip], (seen | faint).sum(1))
        k = len(LINK_T)
        # The pegs, and the two holes beside the segment's middle: a hand there hides the bridge.
        cov = covered.ravel()
        hidden = cov[one] | cov[two] | cov[table.mid_low[sel]] | cov[table.mid_high[sel]]
        # Also hidden when the cells beside the segment's middle are occluded.
        present = (votes >= k - 2) & ~hidden
        absent = (votes <= 2) & ~hidden
        links = tuple(map(tuple, p[present].tolist()))
        unsure = tuple(map(tuple, p[~present & ~absent].tolist()))
        decided = present | absent
        conf_each = 0.9 + 0.1 * np.abs(votes - k / 2) / (k / 2)
        link_conf = float(conf_each[decided].min()) if decided.any() else 1.0
        if unsure:
            link_conf = min(link_conf, 0.5)
        return links, unsure, link_conf  # type: ignore[return-value]

    @staticmethod
    def _tinted(f: _Features, board: np.ndarray, pairs: np.ndarray, got: np.ndarray) -> np.ndarray:
        """(K, len(LINK_T)) bool: whether each sample's hue (``got``: its difference from the board,
        the mean taken out) is within ``CLIP_COS`` of the hue its pair's two pegs' rings show (their
        differences from the board, the means taken out, summed), where one of those rings at least
        is darker than its board by ``LINK_CLIP_DARK`` and they lean so by half ``CLIP_HUE`` (tinted
        light darkens a washed-out hueless piece and its bridge alike, unevenly)."""
        ring = np.stack(
            [
                f.hole_log[pairs[:, 2 * k], pairs[:, 2 * k + 1], 3:]
                - board[pairs[:, 2 * k], pairs[:, 2 * k + 1]]
                for k in (0, 1)
            ]
        )
        dark = (ring.mean(-1) <= -LINK_CLIP_DARK).any(0)
        tint = (ring - ring.mean(-1, keepdims=True)).sum(0)
        # Only where the pegs do lean (under plain light a hueless ring has no hue to follow).
        dark &= np.linalg.norm(tint, axis=-1) >= 0.5 * CLIP_HUE * np.linalg.norm(ring.sum(0), axis=-1)
        cos = (got * tint[:, None, :]).sum(-1) / np.maximum(
            np.linalg.norm(got, axis=-1) * np.linalg.norm(tint, axis=-1)[:, None], 1e-9
        )
        return dark[:, None] & (cos >= CLIP_COS)

    def _link_sides(
        self,
        image: np.ndarray,
        p: np.ndarray,
        xs: np.ndarray,
        ys: np.ndarray,
        dx: np.ndarray,
        dy: np.ndarray,
        keep: np.ndarray,
        matrix: np.ndarray | None = None,
        ref: np.ndarray | None = None,
    ) -> np.ndarray:
        """(K, len(LINK_T), 3) log colour of the brighter of the two points
        ``LINK_SIDE`` pitch either side of each link sample (``xs``, ``ys``: canonical pixels). With
        ``matrix`` and ``ref`` (the board model's log colour of each link, (K, 3)), a point on a peg
        (``LINK_SIDE_PEGS``) is left out: the other one stands, or ``ref`` where both are."""
        length = np.hypot(dx[keep], dy[keep])[:, None]
        ox, oy = -dy[keep][:, None] / length * LINK_SIDE * PX, dx[keep][:, None] / length * LINK_SIDE * PX
        out, on = [], []
        n = self.spec.size
        for sgn in (1.0, -1.0):
            sx, sy = xs + sgn * ox, ys + sgn * oy
            mx, my = self._to_image(sx.astype(np.float64), sy.astype(np.float64))
            out.append(np.log(cv2.remap(image, mx, my, cv2.INTER_LINEAR).astype(np.float32) + 8.0))
            if matrix is not None and LINK_SIDE_PEGS:
                col, row = sx / PX - 1, sy / PX - 1
                rc = np.clip(np.rint(row), 0, n - 1).astype(int)
                cc = np.clip(np.rint(col), 0, n - 1).astype(int)
                on.append((matrix[rc, cc] > 0) & (np.hypot(row - rc, col - cc) < LINK_PEG_RADIUS))
        brighter = (out[0].mean(-1) >= out[1].mean(-1))[..., None]
        side = np.where(brighter, out[0], out[1])
        if on and ref is not None:
            side = np.where((on[0] & ~on[1])[..., None], out[1], side)
            side = np.where((on[1] & ~on[0])[..., None], out[0], side)
            side = np.where((on[0] & on[1])[..., None], ref[:, None, :], side)
        return side


def _link_cell_offsets() -> dict[tuple[int, int], list[tuple[int, int]]]:
    """For each knight direction (dr, dc) from a peg at hole (r, c), the cells (r + a, c + b)
    whose centre (hole coordinates (r + a - 0.5, c + b - 0.5)) lies within ``LINK_CELL_DIST`` of
    the link's axis, between its pegs."""
    out = {}
    for dr, dc in KNIGHT:
        axis = np.array([dr, dc], np.float64)
        length2 = float(axis @ axis)
        cells = []
        for a in range(-1, 4):
            for b in range(-2, 5):
                p = np.array([a - 0.5, b - 0.5])
                t = float(p @ axis) / length2
                dist = abs(p[0] * axis[1] - p[1] * axis[0]) / np.sqrt(length2)
                if 0.15 < t < 0.85 and dist < LINK_CELL_DIST:
                    cells.append((a, b))
        out[(dr, dc)] = cells
    return out


_LINK_CELL_OFFSETS = _link_cell_offsets()


def _pinched(mask: np.ndarray) -> np.ndarray:
    """(N, N) bool: holes with a ``mask`` hole right beside them on two opposite sides (left and
    right, above and below, or along either diagonal)."""
    m = np.pad(mask, 1)
    n0, n1 = mask.shape
    out = np.zeros_like(mask)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        a = m[1 + dr : 1 + dr + n0, 1 + dc : 1 + dc + n1]
        b = m[1 - dr : 1 - dr + n0, 1 - dc : 1 - dc + n1]
        out |= a & b
    return out


def _chroma(v: np.ndarray) -> np.ndarray:
    """The hue part of (..., 6) log-ratio colours: each 3-channel half less its mean."""
    a, b = v[..., :3], v[..., 3:]
    return np.concatenate([a - _cmean(a)[..., None], b - _cmean(b)[..., None]], -1)


def _median_rows(x: np.ndarray) -> np.ndarray:
    """``np.median(x, axis=0)`` for (K, C) float ``x`` (K > 0), the same values (the same order
    statistics, the two middle ones averaged as ``np.median`` averages them, NaN where a column holds
    one; an exact zero's sign aside, see ``_csum``), without its fixed cost."""
    k = len(x)
    h = k // 2
    kth = [h - 1, h, k - 1] if k % 2 == 0 else [h, k - 1]
    part = np.partition(x, kth, axis=0)
    if k % 2:
        out = part[h].copy()
    else:
        out = part[h - 1] + part[h]
        np.true_divide(out, np.intp(2), out=out, casting="unsafe")
    out[np.isnan(part[k - 1])] = np.nan
    return out


def _mean_of(total: np.ndarray, count: int) -> np.ndarray:
    """``total`` (the float32 sum of ``count`` whole numbers: a remap's uint8 levels, exact in any
    order) divided by ``count`` as ``ndarray.mean`` divides (float64 division into float32): the
    same mean, to the last bit."""
    return np.true_divide(total, np.intp(count), out=total, casting="unsafe")


def _pick(x: np.ndarray, label: np.ndarray) -> np.ndarray:
    """Each point's row ``label`` (0..2) of (..., 3, K) ``x`` (or of (3, K) ``x`` for all points): the
    values ``take_along_axis`` gives, by selection."""
    lab = label[..., None]
    return np.where(lab == 0, x[..., 0, :], np.where(lab == 1, x[..., 1, :], x[..., 2, :]))


def _pick_last(x: np.ndarray, label: np.ndarray) -> np.ndarray:
    """Each point's entry ``label`` (0..2) of (..., 3) ``x``, by selection."""
    return np.where(label == 0, x[..., 0], np.where(label == 1, x[..., 1], x[..., 2]))


def _csum(x: np.ndarray) -> np.ndarray:
    """``x.sum(-1)`` for a short last axis (colour channels, 3 or 6), added channel by channel in the
    order numpy's reduction adds them (the same values to the last bit; only an exact zero's sign may
    differ, -0.0 for 0.0, which no comparison, sum or product sees, and the reader never divides by
    an unfloored value), without a reduction's fixed cost (tens of microseconds on a (625, 3)
    array on this machine, where an elementwise add takes a few)."""
    if x.ndim < 2:
        return x.sum(-1)
    out = x[..., 0] + x[..., 1]
    for k in range(2, x.shape[-1]):
        out += x[..., k]
    return out


def _cmean(x: np.ndarray) -> np.ndarray:
    """``x.mean(-1)`` for a short last axis (float), the same values (see ``_csum``, ``_mean_of``)."""
    if x.ndim < 2:
        return x.mean(-1)
    out = _csum(x)
    return np.true_divide(out, np.intp(x.shape[-1]), out=out, casting="unsafe")


def _cnorm(x: np.ndarray) -> np.ndarray:
    """``np.linalg.norm(x, axis=-1)`` for a short last axis (float), the same values (see ``_csum``)."""
    return np.sqrt(_csum(x * x))


def _cmax(x: np.ndarray) -> np.ndarray:
    """``x.max(-1)`` for a short last axis, the same values (NaN propagates as there; see ``_csum``)."""
    if x.ndim < 2:
        return x.max(-1)
    out = np.maximum(x[..., 0], x[..., 1])
    for k in range(2, x.shape[-1]):
        np.maximum(out, x[..., k], out=out)
    return out


def _cmin(x: np.ndarray) -> np.ndarray:
    """``x.min(-1)`` for a short last axis, the same values (see ``_csum``)."""
    if x.ndim < 2:
        return x.min(-1)
    out = np.minimum(x[..., 0], x[..., 1])
    for k in range(2, x.shape[-1]):
        np.minimum(out, x[..., k], out=out)
    return out


def _cany(x: np.ndarray) -> np.ndarray:
    """``x.any(-1)`` for a short last axis of booleans."""
    if x.ndim < 2:
        return x.any(-1)
    out = x[..., 0] | x[..., 1]
    for k in range(2, x.shape[-1]):
        out |= x[..., k]
    return out


def _call(x: np.ndarray) -> np.ndarray:
    """``x.all(-1)`` for a short last axis of booleans."""
    if x.ndim < 2:
        return x.all(-1)
    out = x[..., 0] & x[..., 1]
    for k in range(2, x.shape[-1]):
        out &= x[..., k]
    return out
