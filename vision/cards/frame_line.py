"""Sides of a card quad that ended at the card's printed frame, moved out to where the others say.

Many card designs print a thin frame (a line) a few pixels inside the card's edge, at one inset
all round. Where a side of the card lies against the table, its edge is found; where it lies over
another card of the same paper (the top card of an overlap, a pile), nothing but the printed
frame shows along it, and the quad ends there. Such a quad has the printed line a few px inside
some of its sides and right at the others.

:func:`frame_insets` measures, for each side, how far inside it the nearest thin line runs: a
strip of ink (one colour, darker than what lies on both sides of it, those two alike: the paper),
straight along the side. :func:`align_to_frame` moves each side whose line lies at the side (or
just beyond it) out by the inset of the side opposite (by the other sides' where the opposite
side shows no line), when the sides on the card's edge agree on their inset (within a pixel or
a quarter of it), the line is of their line's colour, and plain paper lies inside it as deep as
that inset (not the gap to a neighbour whose own frame the side reached).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.cards.border import side_profiles
from vision.cards.geometry import as_quad, line_intersection, side_directions, side_lengths

STEP = 0.5
"""Profile sampling step across each side, px."""


@dataclass(frozen=True)
class FrameLineConfig:
    """The printed-frame rule's thresholds."""

    samples: int = 20
    """Points sampled along each side."""
    span: tuple[float, float] = (0.2, 0.8)
    """The part of each side sampled (corner indices and rounded corners left out)."""
    reach: float = 0.12
    """How far inside each side a line is looked for, as a fraction of the quad's short side."""
    half_width: float = 2.0
    """The paper is looked at this many px (and half a px less) either side of a line's centre."""
    min_contrast: float = 40.0
    """A line differs from the paper on both sides of it by at least this (colour distance of the
    medians along the side) ..."""
    max_paper: float = 24.0
    """... and the paper on its two sides differs by at most this."""
    min_inset: float = 2.0
    """A side whose line lies at least this far inside is on the card's edge ..."""
    max_at_side: float = 0.5
    """... and one whose line lies at most this far inside (or beyond it) ended at the frame ..."""
    max_line_colour: float = 0.12
    """... where that line is of the frame's colour (its colour as a unit vector within this of
    the other sides' line's)."""
    min_agree: int = 1
    """At least this many sides on the card's edge, their insets agreeing, and no side whose line
    is not seen but one ..."""
    agree_px: float = 1.0
    """... within this many px, or a quarter of their median, whichever is more."""


def frame_insets(
    image: np.ndarray, quad: np.ndarray, cfg: FrameLineConfig | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per side of ``quad`` (full-resolution, corners in order around the card), how far inside
    it the nearest thin printed line runs, px (NaN where none is seen; negative: beyond the side),
    the line's colour (4, 3), and how far inside the side the paper just inside the line stays
    plain (within :attr:`FrameLineConfig.max_paper` of its colour), px."""
    cfg = cfg or FrameLineConfig()
    q = as_quad(quad).astype(np.float64)
    short = float(side_lengths(q).min())
    out = np.full(4, np.nan)
    colours = np.zeros((4, 3))
    plain = np.zeros(4)
    if short < 24:
        return out, colours, plain
    offsets = np.arange(
        -max(4.0, cfg.reach * short) - cfg.half_width - 1.0, 2.0 + cfg.half_width + STEP / 2, STEP
    )
    prof, inside, _, _ = side_profiles(image, q, offsets, cfg)
    k_len = len(offsets)
    for side in range(4):
        ok = inside[side]
        if ok.sum() < max(5, cfg.samples // 2):
            continue
        m = np.median(prof[side][ok].astype(np.float32), axis=0)  # (K, 3)
        line = np.zeros(k_len, bool)  # per offset: a line's centre there
        # a line of 1 to 2 px: the paper looked at 1.5 and 2 px either side of its centre
        for half in (cfg.half_width - STEP, cfg.half_width):
            sh = round(half / STEP)
            centre, before, after = m[sh:-sh], m[: -2 * sh], m[2 * sh :]
            line[sh:-sh] |= (
                (np.linalg.norm(centre - before, axis=1) >= cfg.min_contrast)
                & (np.linalg.norm(centre - after, axis=1) >= cfg.min_contrast)
                & (np.linalg.norm(before - after, axis=1) <= cfg.max_paper)
                # ink: darker than the paper
                & (centre.sum(axis=1) < np.minimum(before.sum(axis=1), after.sum(axis=1)))
            )
        line &= offsets <= 1.5
        if not line.any():
            continue
        # the outermost run of line offsets: its middle is the line's centre
        k = int(np.nonzero(line)[0][-1])
        j = k
        while j > 0 and line[j - 1]:
            j -= 1
        out[side] = -float(offsets[j] + offsets[k]) / 2.0
        colours[side] = m[(j + k) // 2]
        # the paper inside the line, clear of its blur, and how deep it stays plain
        inner = max(0, j - round((cfg.half_width + 0.5) / STEP))
        paper = m[inner]
        far = np.linalg.norm(m[: inner + 1] - paper, axis=1) > cfg.max_paper
        plain[side] = -float(offsets[int(np.nonzero(far)[0][-1]) if far.any() else 0])
    return out, colours, plain


def align_to_frame(
    image: np.ndarray, quad: np.ndarray, cfg: FrameLineConfig | None = None
) -> np.ndarray | None:
    """``quad`` with each side that ended at the card's printed frame moved out to the card's
    edge, as far as the sides on the edge say the frame lies inside it, or ``None`` where no side
    moves (see the module docstring)."""
    cfg = cfg or FrameLineConfig()
    insets, colours, plain = frame_insets(image, quad, cfg)
    deep = [s for s in range(4) if insets[s] >= cfg.min_inset]
    shallow = [s for s in range(4) if insets[s] <= cfg.max_at_side]
    if len(deep) < cfg.min_agree or not shallow or len(deep) + len(shallow) < 3:
        return None
    mid = float(np.median(insets[deep]))
    if np.abs(insets[deep] - mid).max() > max(cfg.agree_px, 0.25 * mid):
        return None
    # colours compared by hue and saturation (their direction), not brightness: light and shade
    hue = colours / np.maximum(np.linalg.norm(colours, axis=1, keepdims=True), 1e-6)
    frame = np.median(hue[deep], axis=0)
    move = np.zeros(4)
    for s in shallow:
        # the frame's own line (not an outline, a shadow or the table in a gap)
        if np.linalg.norm(hue[s] - frame) > cfg.max_line_colour:
            return None
        # the side opposite on the card's edge (a frame's inset may differ between long and short
        # sides), or not seen at all
        opposite = (s + 2) % 4
        if opposite not in deep and not np.isnan(insets[opposite]):
            return None
        # and plain paper inside it as deep as the frame's inset (not a gap to a neighbour
        # whose frame the side has reached)
        depth = insets[opposite] if opposite in deep else mid
        if plain[s] < depth + 1.0:
            return None
        move[s] = depth - insets[s]
    q = as_quad(quad).astype(np.float64)
    dirs, normals = side_directions(q)
    out = q.copy()
    for i in range(4):
        a, b = (i - 1) % 4, i
        p = line_intersection(q[a] + normals[a] * move[a], dirs[a], q[b] + normals[b] * move[b], dirs[b])
        if p is None:
            return None
        out[i] = p
    return out.astype(np.float32)
