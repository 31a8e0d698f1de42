"""A card quad run one side too far out, pulled back to the card's size.

The cards on a table are of one deck, seen from one camera height: neighbouring cards' quads have
nearly one size (perspective changes it slowly across the frame). A found quad whose one dimension
matches its neighbours' while the other is far longer has a side that ran past the card's edge:
over the card beneath in a pile or an overlap, over the gap to a neighbour in a row, over a
neighbour's border. The length it should have follows from the neighbours: the other dimension of
theirs, scaled by how the matching dimension compares. Only when the neighbours agree on their
size, and only when the quad's own aspect ratio is no card's: the games' cards are square (Twin
It) or about 0.645 (the others), and a camera tilted up to 35 degrees shortens one side by its
cosine at most; a quad within that range of the neighbours' card is left as it is (it may be the
neighbours that are wrong), unless four or more neighbours agree closely on their size and show
the card's own aspect: there is no tilt to undo, and the quad's aspect is compared with theirs.

:func:`pull_stretched` tries both sides that bound the long dimension, each moved in (parallel)
to where the length comes right, give or take :attr:`StretchConfig.search` of the excess; at each
offset the edge evidence is the median, over points along the side, of the colour step across it.
The place kept is a local peak of that evidence, a real edge (:attr:`StretchConfig.min_edge`)
standing out of the offsets searched, and at least :attr:`StretchConfig.min_gain` of the card's
outline along its two other sides; of the two sides the stronger one wins.

Measured on every 5th frame of the quick cards bench (finder quads without and with the step,
IoU 0.9): frames 0, 5, ...: P 0.589 R 0.625 -> P 0.608 R 0.645 (7 quads moved, 6 closer to
their card, none of those found before lost); frames 2, 7, ...: P 0.592 R 0.643 -> 0.599 / 0.650
(4 moved, 3 closer); frames 4, 9, ...: unchanged (1 moved, a miss before and after). Most of the
quads left too long have neighbours as wrong as they are (touching cards, piles) or none of a
card's shape; one card on another of its own colour shows too weak an edge where the top one ends.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.cards.border import BorderConfig, side_profiles
from vision.cards.geometry import as_quad, line_intersection, side_lengths


@dataclass(frozen=True)
class StretchConfig:
    """The stretched-side rule's thresholds."""

    neighbours: int = 6
    """The nearest found cards whose sizes make the expected size."""
    min_neighbours: int = 2
    """A quad with fewer other quads found is left alone, unless it has one whose aspect ratio is
    within :attr:`untilted_aspect` of a card's."""
    match: float = 0.12
    """The quad's other dimension is within this fraction of a neighbours' dimension."""
    excess: float = 0.15
    """The long dimension exceeds the expected length by at least this fraction."""
    min_excess_px: float = 4.0
    """... and by at least this many px."""
    card_aspects: tuple[float, ...] = (1.0, 0.645)
    """Short over long side of the games' cards: Twin It's are square, The Mind's, Trio's and
    Line-it's 56 x 87 to 65 x 100 mm."""
    max_tilt_deg: float = 35.0
    """The camera's largest tilt: a card's aspect seen at it shrinks by its cosine along one side."""
    untilted_neighbours: int = 4
    """With at least this many neighbours ..."""
    untilted_spread: float = 0.06
    """... agreeing on their size this closely (interquartile range over median) ..."""
    untilted_aspect: float = 0.03
    """... with the aspect ratio of their card within this, the quad's aspect is compared with
    theirs (:attr:`min_aspect_change`) however far the tilt could have taken it."""
    min_aspect_change: float = 0.05
    """The quad's aspect ratio (short / long) differs from the neighbours' median by at least this."""
    max_spread: float = 0.15
    """The neighbours agree on their size: the interquartile range of their short (long) sides at
    most this fraction of the median."""
    search: float = 0.35
    """The new side is looked for within this fraction of the excess around the expected place."""
    min_edge: float = 12.0
    """The new side's edge steps by at least this (colour distance, median along the side)."""
    min_peak: float = 1.5
    """... and by at least this many times the median step over the offsets searched."""
    min_gain: float = 0.3
    """The edge at the new side is at least this many times the card's outline along its other two
    sides."""


def _dims(q: np.ndarray) -> tuple[float, float]:
    """(mean length of sides 0 and 2, mean length of sides 1 and 3)."""
    s = side_lengths(q)
    return float(s[0] + s[2]) / 2.0, float(s[1] + s[3]) / 2.0


def _expected(
    dims: tuple[float, float], neighbour_dims: np.ndarray, cfg: StretchConfig
) -> list[tuple[int, float]]:
    """(which dimension is too long: 0 sides 0/2's, 1 sides 1/3's, its expected length)."""
    short, long = np.median(neighbour_dims.min(axis=1)), np.median(neighbour_dims.max(axis=1))
    aspect = float(short / long)
    mine = min(dims) / max(dims)
    spread = 0.0
    for d in (neighbour_dims.min(axis=1), neighbour_dims.max(axis=1)):
        q1, q3 = np.percentile(d, [25, 75])
        spread = max(spread, float(q3 - q1) / float(np.median(d)))
    if spread > cfg.max_spread:
        return []
    # the deck the neighbours are of: the card aspect nearest theirs; a quad within that card's
    # range under the camera's tilt is a card as it should be
    card = min(cfg.card_aspects, key=lambda a: abs(a - aspect))
    if len(neighbour_dims) < cfg.min_neighbours and abs(aspect - card) > cfg.untilted_aspect:
        return []
    cos = float(np.cos(np.radians(cfg.max_tilt_deg)))
    # ... unless the neighbours, agreeing closely, show the card's own aspect: no tilt to undo there
    untilted = (
        len(neighbour_dims) >= cfg.untilted_neighbours
        and spread <= cfg.untilted_spread
        and abs(aspect - card) <= cfg.untilted_aspect
    )
    if card * cos <= mine <= min(1.0, card / cos) and not untilted:
        return []
    if abs(mine - aspect) < cfg.min_aspect_change:
        return []
    out = []
    for k in (0, 1):
        other = dims[1 - k]
        for have, want in ((short, long), (long, short)):
            if abs(other / have - 1.0) <= cfg.match:
                expected = want * other / have
                if dims[k] >= expected * (1.0 + cfg.excess) and dims[k] - expected >= cfg.min_excess_px:
                    out.append((k, float(expected)))
    return out


def _edge_strength(prof: np.ndarray, ok: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Per offset (offsets[1:-1]): the median over points of the colour step across the side."""
    p = prof[ok]
    if len(p) == 0:
        return np.zeros(len(offsets) - 2)
    step = np.linalg.norm(p[:, 2:] - p[:, :-2], axis=2)  # (N, K - 2)
    return np.median(step, axis=0)


def _moved(
    q: np.ndarray, side: int, inward: float, normals: np.ndarray, dirs: np.ndarray
) -> np.ndarray | None:
    """The quad with ``side`` moved in by ``inward`` px along its normal (its two corners slid along
    the adjacent sides)."""
    out = q.copy()
    p = q[side] - normals[side] * inward
    for corner, adj in ((side, (side - 1) % 4), ((side + 1) % 4, (side + 1) % 4)):
        x = line_intersection(p, dirs[side], q[adj], dirs[adj])
        if x is None:
            return None
        out[corner] = x
    return out


def pull_side(
    image: np.ndarray, quad: np.ndarray, dim: int, expected: float, cfg: StretchConfig
) -> np.ndarray | None:
    """``quad`` with one of the two sides bounding dimension ``dim`` pulled in to the strongest edge
    near the expected length, or ``None`` (no edge there beats the old side's)."""
    q = as_quad(quad).astype(np.float64)
    length = _dims(q)[dim]
    excess = length - expected
    lo, hi = excess * (1.0 - cfg.search), excess * (1.0 + cfg.search)
    hi = min(hi, length * 0.6)
    step = 0.5
    offsets = np.arange(-(hi + 1.0), 2.0 + step / 2, step)
    prof, inside, normals, dirs = side_profiles(image, q, offsets, BorderConfig())
    zero = int(np.argmin(np.abs(offsets[1:-1])))
    inner = offsets[1:-1]
    window = (-inner >= lo) & (-inner <= hi)
    if not window.any():
        return None
    strengths = [_edge_strength(prof[s], inside[s], offsets) for s in range(4)]
    # the card's own outline: the edge along the two sides that stay where they are
    ref = float(np.median([strengths[s][max(0, zero - 2) : zero + 3].max() for s in (dim, (dim + 2) % 4)]))
    best: tuple[float, int, float] | None = None
    for side in ((dim + 1) % 4, (dim + 3) % 4):
        strength = strengths[side]
        j = int(np.argmax(np.where(window, strength, -1.0)))
        if not 0 < j < len(strength) - 1 or strength[j] < max(strength[j - 1], strength[j + 1]):
            continue
        # an edge, standing out of what lies across the side around it
        if strength[j] < cfg.min_edge or strength[j] < cfg.min_peak * float(np.median(strength[window])):
            continue
        ratio = float(strength[j]) / max(ref, 1e-6)
        if ratio >= cfg.min_gain and (best is None or ratio > best[0]):
            best = (ratio, side, float(-inner[j]))
    if best is None:
        return None
    moved = _moved(q, best[1], best[2], normals, dirs)
    return None if moved is None else moved.astype(np.float32)


def pull_stretched(
    image: np.ndarray, quads: list[np.ndarray], cfg: StretchConfig | None = None
) -> list[np.ndarray]:
    """Each quad, or its side pulled in where it ran past the card (see the module docstring).
    ``image``: BGR, the quads' pixels; corners in order around each card."""
    cfg = cfg or StretchConfig()
    if len(quads) < 2:
        return list(quads)
    qs = [as_quad(q).astype(np.float64) for q in quads]
    dims = np.array([_dims(q) for q in qs])
    centres = np.array([q.mean(axis=0) for q in qs])
    out = []
    for i, q in enumerate(qs):
        d = np.linalg.norm(centres - centres[i], axis=1)
        d[i] = np.inf
        near = np.argsort(d)[: cfg.neighbours]
        near = near[np.isfinite(d[near])]
        result = quads[i]
        if len(near) >= 1:
            for dim, expected in _expected((dims[i, 0], dims[i, 1]), dims[near], cfg):
                pulled = pull_side(image, q, dim, expected, cfg)
                if pulled is not None:
                    result = pulled
                    break
        out.append(result)
    return out
