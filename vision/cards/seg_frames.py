"""Training frames of the table segmenter (:mod:`vision.segmenter`): rendered scenes and targets.

``tableref train seg`` hands :func:`make_frames` to :mod:`models.training.train_seg` (the
training package imports nothing of ``vision``). Every frame is a pure function of its index:
``random_scene(SEED_BASE + index)`` (layouts and decks cycling like the bench's, the frame size
drawn from :data:`FRAME_SIZES`), rendered, scaled so its long side is the network's input size
times a drawn jitter, exposure-normalised like the run time, with four target maps at the
network's output resolution (half the input's), in :data:`vision.segmenter.CHANNELS` order:

- ``core``: each visible card's area, eroded by :data:`CORE_SHRINK` of the card's side, so
  touching and overlapping cards have disjoint cores;
- ``card``: every visible card pixel (cards painted in stacking order, hands over them);
- ``boundary``: pixels where the owner changes between a card and anything else;
- ``hand``: the renderer's hand and arm mask.

and the card *instance* targets (:func:`make_instance_targets`, CenterNet-style: every card at least
:data:`CENTER_MIN_VISIBLE` visible is one peak, even touching cards and a pile's top card):

- ``center``: a Gaussian at each such card's centre (the mean of its corners), sigma
  :data:`CENTER_SIGMA` of its side;
- ``weight``: where the corner offsets are learned (the nearest peak's Gaussian above 0.3);
- 8 ``offsets``: the card's four corners (clockwise on screen) minus the pixel, in output pixels
  divided by :data:`OFFSET_UNIT` (the loss takes the best of the four cyclic orders).

Training seeds start at :data:`SEED_BASE`, validation seeds at :data:`VAL_SEED_BASE`, far from
the bench's (``seed * 100_003 + i``, i below 2000, for bench seeds below 70).
"""

from __future__ import annotations

import cv2
import numpy as np

from models.preprocess import normalise_exposure
from vision.segmenter import input_size

SEED_BASE = 7_000_000
VAL_SEED_BASE = 8_000_000
DECKS = ("twinit", "themind", "trio", "lineit")
FRAME_SIZES: tuple[tuple[int, int], ...] = (
    (1280, 720),
    (1280, 720),
    (960, 540),
    (640, 480),
    (1024, 768),
    (1920, 1080),
)
OUTPUT_STRIDE = 2
CORE_SHRINK = 0.15
"""A card's core: its visible area eroded by this fraction of the card's side (at output scale)."""

CENTER_MIN_VISIBLE = 0.5
"""A card at least this visible is a centre peak (the bench counts cards >= 0.8 visible)."""
CENTER_SIGMA = 0.12
"""The centre Gaussian's sigma, as a fraction of the card's side (clipped to 0.8 .. 3 output px)."""
OFFSET_UNIT = 8.0
"""Corner offsets are learned in units of this many output pixels."""

RECIPE = (
    f"vision.render.random_scene(seed {SEED_BASE} + i) (validation: {VAL_SEED_BASE} + i), layouts cycling"
    " through scattered/rows/piles/fanned/overlapping/touching, decks twinit/themind/trio/lineit, frame"
    f" size drawn from {list(FRAME_SIZES)}, 0..2 hands, props (vision/cards/seg_frames.py). Targets at"
    f" 1/{OUTPUT_STRIDE} of the input: card cores (visible area eroded by {CORE_SHRINK:.2f} x the card's"
    " side), visible card area, card boundaries, hand/arm mask; card centre heat map (cards >="
    f" {CENTER_MIN_VISIBLE} visible, sigma {CENTER_SIGMA} x side) with the four corner offsets"
    f" (/ {OFFSET_UNIT:g}) around each centre. Rendered frames only: no real photo."
)


def to_output(points: np.ndarray, fx: float, fy: float) -> np.ndarray:
    """Frame pixel coordinates -> output-map coordinates (pixel centres on both sides)."""
    p = np.asarray(points, np.float64)
    return np.stack([(p[:, 0] + 0.5) * fx - 0.5, (p[:, 1] + 0.5) * fy - 0.5], axis=1)


def make_targets(truth: object, out_w: int, out_h: int) -> np.ndarray:
    """(4, out_h, out_w) uint8 0/1 targets of a rendered frame's truth (see the module docstring)."""
    width, height = truth.width, truth.height  # type: ignore[attr-defined]
    fx, fy = out_w / width, out_h / height
    idmap = np.full((out_h, out_w), -1, np.int32)
    cards = list(truth.cards)  # type: ignore[attr-defined]
    order = sorted(range(len(cards)), key=lambda i: (cards[i].z, i))
    quads = {}
    for i in order:
        q = to_output(cards[i].quad, fx, fy)
        quads[i] = q
        pts = np.round(q * 16).astype(np.int32).reshape(-1, 1, 2)
        cv2.fillPoly(idmap, [pts], int(i), lineType=cv2.LINE_8, shift=4)
    hand_small = cv2.resize(
        truth.hand_mask.astype(np.uint8) * 255,  # type: ignore[attr-defined]
        (out_w, out_h),
        interpolation=cv2.INTER_AREA,
    )
    hand = hand_small >= 128
    idmap[hand] = -2
    card = idmap >= 0
    core = np.zeros((out_h, out_w), bool)
    for i, q in quads.items():
        own = idmap == i
        if not own.any():
            continue
        ys, xs = np.nonzero(own)
        y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
        sub = np.pad(own[y0:y1, x0:x1], 1).astype(np.uint8)
        dist = cv2.distanceTransform(sub, cv2.DIST_L2, 3)[1:-1, 1:-1]
        side = float(np.sqrt(max(cv2.contourArea(q.astype(np.float32)), 1.0)))
        r = float(np.clip(CORE_SHRINK * side, 1.0, 8.0))
        core[y0:y1, x0:x1] |= dist > r
    idf = idmap.astype(np.float32)
    hi = cv2.dilate(idf, np.ones((3, 3), np.uint8))
    lo = cv2.erode(idf, np.ones((3, 3), np.uint8))
    boundary = (hi != lo) & (hi >= 0)
    return np.stack([core, card, boundary, hand]).astype(np.uint8)


def clockwise(quad: np.ndarray) -> np.ndarray:
    """The quad's corners in clockwise order on screen (x right, y down), same first corner."""
    q = np.asarray(quad, np.float64)
    d1, d2 = q[1] - q[0], q[2] - q[1]
    if d1[0] * d2[1] - d1[1] * d2[0] < 0:
        q = q[[0, 3, 2, 1]]
    return q


def make_instance_targets(truth: object, out_w: int, out_h: int) -> np.ndarray:
    """(10, out_h, out_w) float32: centre heat, offset weight, 8 corner offsets (see the module
    docstring) of a rendered frame's truth."""
    width, height = truth.width, truth.height  # type: ignore[attr-defined]
    fx, fy = out_w / width, out_h / height
    out = np.zeros((10, out_h, out_w), np.float32)
    owner_heat = np.zeros((out_h, out_w), np.float32)
    cards = list(truth.cards)  # type: ignore[attr-defined]
    # upper cards last: where two peaks' Gaussians tie, the upper card owns the offsets
    for i in sorted(range(len(cards)), key=lambda i: (cards[i].z, i)):
        c = cards[i]
        if c.visible_fraction < CENTER_MIN_VISIBLE:
            continue
        q = clockwise(to_output(c.quad, fx, fy))
        centre = q.mean(axis=0)
        side = float(np.sqrt(max(cv2.contourArea(q.astype(np.float32)), 1.0)))
        sigma = float(np.clip(CENTER_SIGMA * side, 0.8, 3.0))
        r = int(np.ceil(3 * sigma))
        cx, cy = int(np.rint(centre[0])), int(np.rint(centre[1]))
        x0, x1 = max(0, cx - r), min(out_w, cx + r + 1)
        y0, y1 = max(0, cy - r), min(out_h, cy + r + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        xs = np.arange(x0, x1, dtype=np.float32)[None, :]
        ys = np.arange(y0, y1, dtype=np.float32)[:, None]
        g = np.exp(-((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) / (2 * sigma * sigma))
        g /= g.max()  # 1 at the pixel nearest the centre: the peak to find
        heat = out[0, y0:y1, x0:x1]
        np.maximum(heat, g, out=heat)
        own = (g >= 0.3) & (g >= owner_heat[y0:y1, x0:x1])
        owner_heat[y0:y1, x0:x1][own] = g[own]
        out[1, y0:y1, x0:x1][own] = 1.0
        for k in range(4):
            dx = (q[k, 0] - xs) / OFFSET_UNIT + np.zeros_like(ys)
            dy = (q[k, 1] - ys) / OFFSET_UNIT + np.zeros_like(xs)
            out[2 + 2 * k, y0:y1, x0:x1][own] = dx[own]
            out[3 + 2 * k, y0:y1, x0:x1][own] = dy[own]
    return out


def frame_spec(index: int, base: int = SEED_BASE) -> object:
    """The scene of frame ``index`` counted from seed ``base``."""
    from vision.render.scene_layout import LAYOUTS, random_scene

    rng = np.random.default_rng([base, index])
    width, height = FRAME_SIZES[int(rng.integers(len(FRAME_SIZES)))]
    layout = LAYOUTS[index % len(LAYOUTS)]
    deck = DECKS[(index // len(LAYOUTS)) % len(DECKS)]
    return random_scene(base + index, width=width, height=height, layout=layout, deck=deck)


def make_frame(
    index: int, input_long: int, jitter: tuple[float, float], base: int = SEED_BASE
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(input (h, w, 3) float16, targets (4, h / 2, w / 2) uint8, instance targets (10, h / 2,
    w / 2) float16) of frame ``index``: rendered, scaled to a long side of ``input_long`` x a
    factor drawn in ``jitter``."""
    from vision.render.scene import render

    cv2.setNumThreads(1)
    image, truth = render(frame_spec(index, base))
    rng = np.random.default_rng([base, index, 1])
    w, h = input_size(truth.width, truth.height, input_long * float(rng.uniform(*jitter)))
    small = cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA)
    x = (normalise_exposure(small) - 0.5).astype(np.float16)
    ow, oh = w // OUTPUT_STRIDE, h // OUTPUT_STRIDE
    return x, make_targets(truth, ow, oh), make_instance_targets(truth, ow, oh).astype(np.float16)


def _make_frame_args(
    args: tuple[int, int, tuple[float, float], int],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return make_frame(*args)


def make_frames(
    indices: list[int],
    input_long: int,
    jitter: tuple[float, float],
    validation: bool = False,
    workers: int = 1,
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Training (or validation) frames in index order; ``workers`` processes render them (the
    frames do not depend on it)."""
    base = VAL_SEED_BASE if validation else SEED_BASE
    args = [(i, input_long, jitter, base) for i in indices]
    if workers <= 1 or len(args) < 4:
        return [_make_frame_args(a) for a in args]
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(_make_frame_args, args, chunksize=4))
