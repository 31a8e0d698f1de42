"""A card lying on others, bounded by its own border where the card beneath shows beside it.

A pile's top card, or a fan's, is found as the outline of it and the cards beneath together: they
stick out a few pixels along one or two sides, as a strip or a thin wedge, often of the top card's
own border colour (a white border on a white border), so that no edge shows where the top card
ends. What does show is the card's print: most designs frame their face inside a plain border of
one width all round. Where three or more sides (two at least) of a quad show that frame at one
depth, with one pair of colours (the border outside it, the face inside), a side that shows the
same frame deeper in ran over a card beneath: the card ends the border's width beyond its frame.

:func:`own_sides` samples the colour profile across each side (:func:`vision.cards.border.side_profiles`)
and scores every straight line inside it (its two end offsets, 0.5 px apart) by the colour step it
crosses at the weakest fifth of its points. Per side, the frame is the outermost such line along an
edge all the way; the sides whose frame runs parallel to them, at depths and with colours that
agree, give the border's width and colours; a side whose own frame line of those colours lies
clearly deeper is moved to it, less the width, at its angle (a pile's top card is turned a few
degrees from the cards beneath). The quad returned must come nearer the deck's aspect ratio.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from vision.cards.border import side_profiles
from vision.cards.geometry import as_quad, aspect_ratio, line_intersection, quad_area, side_lengths

log = logging.getLogger(__name__)

STEP = 0.5
"""Profile sampling step, px."""


@dataclass(frozen=True)
class OwnEdgesConfig:
    """The own-border rule's thresholds."""

    samples: int = 24
    """Points sampled along each side."""
    span: tuple[float, float] = (0.12, 0.88)
    """The part of each side sampled (rounded corners left out)."""
    reach: float = 0.22
    """How far inside the side to look, as a fraction of the quad's short side."""
    min_short: float = 24.0
    """Quads with a shorter side are left as they are, px."""
    min_depth: float = 2.0
    """A frame lies at least this far inside the side, px (nearer, the card's own blurred edge)."""
    max_turn: float = 0.08
    """A frame line turns from its side by at most this (end offsets' difference over the short
    side: about 6 degrees over the sampled span)."""
    quantile: float = 0.2
    """A line's edge strength: this quantile over its points of the colour step it crosses ..."""
    min_edge: float = 18.0
    """... at least this for a line to count as a frame."""
    parallel_px: float = 1.5
    """A reference side's frame is this parallel to it (its two end offsets differ by at most this)."""
    width_tolerance: float = 0.3
    """The reference sides' border widths agree within this fraction of their median (or 1 px)."""
    colour_tolerance: float = 30.0
    """The frames' colours (just outside and just inside the line) agree within this distance."""
    min_step: float = 20.0
    """A point's outline steps by at least this much (colour distance over 1 px) ..."""
    outline_share: float = 0.25
    """... and at least this share of the point's strongest step (a print inside may step more)."""
    outline_depth: float = 1.5
    """The outline counts where it lies at most this far inside the side, px."""
    min_excess: float = 1.5
    """A side moves when its frame lies at least this much deeper than the border's width, px."""
    max_shrink: float = 0.35
    """The quad loses at most this fraction of its area."""


def _steps(prof: np.ndarray) -> np.ndarray:
    """(..., N, K) colour step at each point and offset (central difference over 1 px; 0 at the
    ends) of colour profiles (..., N, K, 3)."""
    out = np.zeros(prof.shape[:-1], np.float32)
    out[..., 1:-1] = np.linalg.norm(prof[..., 2:, :] - prof[..., :-2, :], axis=-1)
    return out


def _outline(step: np.ndarray, cfg: OwnEdgesConfig) -> np.ndarray:
    """Per point, the index of the outermost strong step (a peak across the side, at least
    :attr:`OwnEdgesConfig.min_step` and :attr:`OwnEdgesConfig.outline_share` of the point's
    strongest), or -1."""
    peak = np.ones(step.shape, bool)
    peak[:, 1:] &= step[:, 1:] >= step[:, :-1]
    peak[:, :-1] &= step[:, :-1] >= step[:, 1:]
    strong = peak & (step >= np.maximum(cfg.min_step, cfg.outline_share * step.max(axis=1, keepdims=True)))
    last = step.shape[1] - 1 - np.argmax(strong[:, ::-1], axis=1)
    return np.where(strong.any(axis=1), last, -1)


@lru_cache(maxsize=64)
def _lines(n: int, top: int, max_turn: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The straight lines from offset index ``a`` at the first of ``n`` points to ``b`` at the
    last, for ``a, b < top`` and ``|a - b| <= max_turn``: (a (L,), b (L,), indices (L, n))."""
    a, b = np.meshgrid(np.arange(top), np.arange(top), indexing="ij")
    keep = np.abs(a - b) <= max_turn
    a, b = a[keep], b[keep]
    t = np.linspace(0.0, 1.0, n)
    return a, b, np.rint(a[:, None] + (b - a)[:, None] * t).astype(np.int64)


def _strengths(step: np.ndarray, lines: np.ndarray, cfg: OwnEdgesConfig) -> np.ndarray:
    """Each side's lines' edge strengths (4, L): :attr:`OwnEdgesConfig.quantile` over a line's
    points of the colour step it crosses (the best of its offset and the two beside); ``step``:
    (4, N, K) across each side, ``lines``: (L, N) offset indices."""
    n = step.shape[1]
    tol = step.copy()
    tol[..., 1:] = np.maximum(tol[..., 1:], step[..., :-1])
    tol[..., :-1] = np.maximum(tol[..., :-1], step[..., 1:])
    q = int(cfg.quantile * (n - 1))
    return np.partition(tol[:, np.arange(n)[None, :], lines], q, axis=2)[..., q]


def own_sides(
    image: np.ndarray, quad: np.ndarray, deck_aspect: float, cfg: OwnEdgesConfig | None = None
) -> np.ndarray | None:
    """``quad`` with the sides that ran over a card beneath moved in to the card's own border, or
    ``None`` (see the module docstring). ``image``: BGR, the quad's pixels; corners in order around
    the card; ``deck_aspect``: the card's short over long side."""
    cfg = cfg or OwnEdgesConfig()
    q = as_quad(quad).astype(np.float64)
    short = float(side_lengths(q).min())
    if short < cfg.min_short:
        return None
    reach = cfg.reach * short
    offsets = np.arange(-reach, 2.0 + STEP / 2, STEP)
    top = int(np.searchsorted(offsets, -cfg.min_depth, side="right"))
    prof, inside, normals, _ = side_profiles(image, q, offsets, cfg)
    if not inside.all():
        return None
    turn = int(np.ceil(cfg.max_turn * short / STEP))
    la, lb, lines_idx = _lines(cfg.samples, top, turn)
    steps = _steps(prof)
    da, db = -offsets[la], -offsets[lb]  # each line's depth at the first point and at the last
    # per side, its frame: the strongest line all along it (a print's edges stop short)
    frames: list[int] = []
    widths = np.full(4, np.inf)
    colours = np.zeros((4, 3))
    pts = np.arange(cfg.samples)
    t = np.linspace(0.0, 1.0, cfg.samples)
    strengths = _strengths(steps, lines_idx, cfg)
    last = len(offsets) - 1
    for s in range(4):
        j = int(np.argmax(strengths[s]))
        if strengths[s][j] < cfg.min_edge:
            log.debug("own sides: no frame along side %d", s)
            return None
        frames.append(j)
        # the border's colour: just outside the frame
        colours[s] = prof[s][pts, np.clip(lines_idx[j] + 3, 0, last)].mean(axis=0)
    # one border colour all round: a side whose strongest line has another colour beyond it (the
    # card's own edge over the face of the card beneath) takes its strongest line of the border's
    border = np.median(colours, axis=0)
    for s in np.nonzero(np.linalg.norm(colours - border, axis=1) > cfg.colour_tolerance)[0]:
        beyond = prof[s][pts[None, :], np.clip(lines_idx + 3, 0, last)].mean(axis=1)
        ok = np.linalg.norm(beyond - border, axis=1) <= cfg.colour_tolerance
        j = int(np.argmax(np.where(ok, strengths[s], -1.0)))
        if not ok[j] or strengths[s][j] < cfg.min_edge:
            log.debug("own sides: frames of unlike borders %s", colours.round().tolist())
            return None
        frames[s] = j
    for s in range(4):
        # how far out the card's outline lies beyond the frame, where it lies nearest: the
        # border's width where this card, not one beneath it, makes the outline
        # (points whose outline lies deeper than the side are left out: a card's edge too weak
        # against the table to show, where the frame's own outer step is the outermost one)
        outline = _outline(steps[s], cfg)
        at = (outline >= 0) & (offsets[outline] >= -cfg.outline_depth)
        if at.sum() < cfg.samples // 2:
            continue
        j = frames[s]
        frame_at = -(da[j] + (db[j] - da[j]) * t)
        widths[s] = float(np.quantile((offsets[outline] - frame_at)[at], cfg.quantile))
    order = np.argsort(widths)
    w0, w1 = widths[order[0]], widths[order[1]]
    if not np.isfinite(w1) or w0 < cfg.min_depth or w1 - w0 > max(1.0, cfg.width_tolerance * w0):
        log.debug("own sides: no border width two sides agree on %s", widths.round(1).tolist())
        return None
    width = (w0 + w1) / 2.0
    log.debug(
        "own sides: frames %s, widths %s, border %.1f",
        [(round(float(da[j]), 1), round(float(db[j]), 1)) for j in frames],
        widths.round(1).tolist(),
        width,
    )
    t0, t1 = cfg.span
    lines: list[tuple[np.ndarray, np.ndarray]] = []
    moved = False
    for s in range(4):
        start, end = q[s], q[(s + 1) % 4]
        j = frames[s]
        if max(da[j], db[j]) - width < cfg.min_excess:
            lines.append((start, end - start))
            continue
        # the frame carried out by the border's width (along the side's normal: the turn is small)
        pa = start + (end - start) * t0 - normals[s] * (da[j] - width)
        pb = start + (end - start) * t1 - normals[s] * (db[j] - width)
        lines.append((pa, pb - pa))
        moved = True
    if not moved:
        log.debug("own sides: every frame at the border's width %.1f", width)
        return None
    res = np.zeros((4, 2))
    for c in range(4):
        (p1, d1), (p2, d2) = lines[(c - 1) % 4], lines[c]
        x = line_intersection(p1, d1, p2, d2)
        if x is None:
            return None
        res[c] = x
    res32 = res.astype(np.float32)
    area, new_area = quad_area(q.astype(np.float32)), quad_area(res32)
    if not (1.0 - cfg.max_shrink) * area <= new_area < area:
        log.debug("own sides: area %.0f -> %.0f", area, new_area)
        return None
    if abs(aspect_ratio(res32) - deck_aspect) >= abs(aspect_ratio(q.astype(np.float32)) - deck_aspect):
        log.debug("own sides: aspect %.3f -> %.3f off the deck's", aspect_ratio(q), aspect_ratio(res32))
        return None
    return res32
