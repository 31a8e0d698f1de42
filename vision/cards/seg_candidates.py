"""Card candidates from the learned segmenter's maps (:mod:`vision.segmenter`).

Instances are the connected components of the core map (touching cards' cores are disjoint),
grown back into the card map by a watershed on the boundary map; each instance's outline is
traced on its card probability upsampled 4 times (a subpixel-ish outline at the map's coarse
scale), mapped to frame pixels, and fitted with a quad (:func:`vision.cards.finder.fit_quad`). The
finder then checks, ranks and refines them with its classical candidates.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.segmenter import Segmentation

UPSAMPLE = 4


@dataclass(frozen=True, eq=False)
class SegInstance:
    """One card instance of the segmenter, in frame pixels."""

    outline: np.ndarray
    """(N, 1, 2) float32 contour, in the working image's pixels (see :func:`seg_instances`)."""
    area: float
    """The outline's area, working-image px^2."""
    core_prob: float
    """Mean core probability over the instance's core component."""


def _labels(
    seg: Segmentation, core_thr: float, card_thr: float, min_core_px: int, centre_thr: float = 0.3
) -> tuple[int, np.ndarray]:
    """(number of labels + 1, int32 label map): core components grown into the card map (a core
    holding two or more card centres split into its centres)."""
    core = (seg.core >= core_thr).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=4)
    # a core holding two or more card centres (touching cards' cores run together at the map's
    # scale) gives way to its centres as markers
    xs, ys = seg.peak_pixels(centre_thr)
    per_core = np.bincount(labels[ys, xs], minlength=n) if len(xs) else np.zeros(n, int)
    keep = np.zeros(n, np.int32)
    k = 0
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] >= min_core_px and per_core[i] < 2:
            k += 1
            keep[i] = k
    labels = keep[labels]
    for x, y, c in zip(xs.tolist(), ys.tolist(), labels[ys, xs].tolist(), strict=True):
        if c == 0 and core[y, x]:
            k += 1
            cv2.circle(labels, (x, y), 1, k, -1)
    if k == 0:
        return 1, labels
    card = (seg.card >= card_thr) | (labels > 0)
    markers = labels.copy()
    markers[~card] = k + 1  # the table
    relief = np.clip(seg.boundary * 255.0, 0, 255).astype(np.uint8)
    cv2.watershed(cv2.merge([relief, relief, relief]), markers)
    markers[(markers == k + 1) | (markers < 0)] = 0
    return k + 1, markers


def seg_instances(
    seg: Segmentation,
    scale: float = 1.0,
    origin: tuple[int, int] = (0, 0),
    core_thr: float = 0.5,
    card_thr: float = 0.5,
    min_core_px: int = 3,
) -> list[SegInstance]:
    """Card instances of a segmentation, outlines in the working image's pixels: (frame pixels -
    ``origin``) x ``scale``."""
    n, labels = _labels(seg, core_thr, card_thr, min_core_px)
    out: list[SegInstance] = []
    if n <= 1:
        return out
    h, w = labels.shape
    for i in range(1, n):
        own = labels == i
        ys, xs = np.nonzero(own)
        if len(xs) == 0:
            continue
        x0, y0 = max(0, xs.min() - 2), max(0, ys.min() - 2)
        x1, y1 = min(w, xs.max() + 3), min(h, ys.max() + 3)
        region = cv2.dilate(own[y0:y1, x0:x1].astype(np.uint8), np.ones((3, 3), np.uint8))
        prob = np.maximum(seg.card[y0:y1, x0:x1], seg.core[y0:y1, x0:x1]) * region
        big = cv2.resize(prob, ((x1 - x0) * UPSAMPLE, (y1 - y0) * UPSAMPLE), interpolation=cv2.INTER_LINEAR)
        # the upsampled own-region, so that a neighbour's probability is not traced
        mask_big = cv2.resize(
            own[y0:y1, x0:x1].astype(np.uint8), big.shape[::-1], interpolation=cv2.INTER_NEAREST
        )
        mask_big = cv2.dilate(mask_big, np.ones((UPSAMPLE + 1, UPSAMPLE + 1), np.uint8))
        fg = ((big >= card_thr) & (mask_big > 0)).astype(np.uint8)
        contours, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not contours:
            continue
        c = max(contours, key=cv2.contourArea).reshape(-1, 2).astype(np.float64)
        # upsampled pixel centres -> map coordinates -> frame pixels
        m = (c + 0.5) / UPSAMPLE - 0.5 + np.float64([x0, y0])
        pts = (seg.to_image(m) - np.float32(origin)) * np.float32(scale)
        outline = pts.astype(np.float32).reshape(-1, 1, 2)
        area = float(cv2.contourArea(outline))
        if area <= 0:
            continue
        core_prob = float(seg.core[own].mean())
        out.append(SegInstance(outline, area, core_prob))
    return out
