"""A classical second opinion for the same-pattern judge: put two crops in register, even out the
light, and measure the largest difference that is left.

Two crops of the same face, once registered and normalised for light, differ only by noise, blur,
glare and a pixel or so of corner error; a near-duplicate differs by a whole element, a colour swap
or a mirrored layout: a compact region of large difference. For each relative turn of the second
crop that it tries (the net's likeliest, :data:`TURNS_TRIED`): an affine registration
(``cv2.findTransformECC`` on the high-passed grey at half size), a smooth per-channel gain field
(robust medians of the log ratio over a coarse grid: white balance, gradients, soft shadows), then a
difference that tolerates one pixel of misregistration (each crop's pixel against the min..max
envelope of the other's 3 x 3 neighbourhood, both ways; the chromatic part plus the lightness
part). The turn with the smallest difference counts; its evidence is a few numbers (high
percentiles, the largest connected region above two levels), with a few more on how much each card
holds (:data:`CONTENT_FEATURES`, :data:`WHITE_FEATURES`): the same difference means more on a faint,
sparse card than on a bold, busy one, where a genuine pair's small misregistration and glare leave
more behind.

How far that evidence can be trusted depends on the pair's resolution: on a crop 50 px wide a
changed thin outline hides in the blur, at 100 px it shows. Each crop therefore also gets an
effective resolution (:func:`effective_px`: the card's size in the camera frame, where known), and
the calibration sets the "same" threshold of each resolution band (:func:`band_offset`).

The verifier can also call a pair "different" (:func:`says_different`): where both its registrations
converged (:class:`Measurement`; one that gave up leaves a misregistration's difference) and the
logistic model's logit of "same" lies below every genuine calibration pair's, by a margin.

A pair of two large crops (:func:`high_eligible`) is also measured at :data:`HIGH_SIZE` (the same
code: every size comes from the arrays), where its own calibrated model and "different" rule may call
it "different" before the pair is judged at :data:`SIZE` as any other.

The same code runs at calibration (``models.training.judge_verify``) and at run time
(``vision.identity.judge``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from models.judge_scoring import HeadFn, view_indices
from models.preprocess import balance_channels, to_portrait, to_tensor, turns

EmbedFn = Callable[[np.ndarray], np.ndarray]
"""(N, 3, S, S) network inputs -> (N, ...) feature maps (the judge's embedder)."""

SIZE = 64
"""Working size of the normalised crops (px, square; an oblong card is stretched to it)."""
HIGH_SIZE = 128
"""Working size of the high-resolution band (:func:`high_eligible`): a pair of two large crops is also
measured at this size, with its own logistic model and "different" rule (judge_verify.json's
``high``); where that rule stays silent, the pair is judged at :data:`SIZE` as any other. At 64 px a
large card's thin outlines blur away. Measured on 2400 large calibration pairs (crops 120-200 px,
cross-fitted halves): logistic AUC genuine vs near-duplicate 0.934 at 64 px, 0.935 at 128; the share
of near-duplicates below the lowest genuine pair 1.0 % -> 3.1 %; the band's own "same" threshold gained
no genuine pairs (calibration same 0.376 at 64 px, 0.320 at 128 with its own threshold) and let 12 real
one-attribute pairs through, so "same" stays at 64 px. On the real SET crops (171 px; a check, never
fitted on) the 99th percentile of the difference separates the genuine pairs the net leaves uncertain
from one-attribute pairs with AUC 0.90 at 128 px against 0.86 at 64."""
BORDER = 0.1
"""Share of each side left out of the difference (rounded corners, the finder's corner error)."""
GAIN_CELLS = 4
"""The gain field is the median log ratio of GAIN_CELLS x GAIN_CELLS cells, median-filtered."""
BLUR = 1.0
"""Both registered crops are blurred by this sigma (px) first: focus blur of one crop is not a difference."""
ECC_ITERATIONS = 30
TURNS_TRIED = 1
"""How many relative turns of the pair the verifier registers and compares: the net's likeliest ones
(:func:`net_turn_order`; on genuine pairs the net's best turn is the verifier's own best). Each turn
tried costs one registration and one difference map (about 0.8 ms)."""
DIFFERENCE_FEATURES = ("p99", "p995", "cc20", "cc30")
"""What the difference of one pair says: its 99th and 99.5th percentile, and the area (share of the
compared region) of its largest connected region above 0.2 and 0.3."""
CONTENT_FEATURES = ("grad50", "grad90", "grad99", "ink", "dev90", "dev99")
"""How much there is on the card to misregister (each crop's own, geometric mean of the pair's two):
the 50th, 90th and 99th percentile of the colour gradient's magnitude, the share of the compared
region whose colour lies more than :data:`INK_LEVEL` from the card's median colour, and the 90th and
99th percentile of that distance. A bold, busy pattern leaves more difference on a genuine pair (an
edge a fraction of a pixel off, a glare spot on a strong colour) than a faint, sparse one, whose
near-duplicate differs by little more than that; the logistic model weighs the difference by it."""
WHITE_FEATURES = ("white", "glare")
"""The larger of both crops' share of the compared region that is white once each channel is divided
by its own white point (:data:`WHITE_LEVEL`, :data:`WHITE_CHROMA`): the card's brightest plain colour,
usually its ground, of any hue (a glare spot brighter than the ground takes the white point and
leaves little white); and the larger share brighter than the white point in every channel
(:data:`GLARE_LEVEL`): a glare spot too small to set the white point. Each tells the logistic model
how far a genuine pair's difference may go (in trial fits, calibration same 0.277 -> 0.332 with the
white share, -> 0.347 with glare too)."""
FEATURES = DIFFERENCE_FEATURES + CONTENT_FEATURES + WHITE_FEATURES
"""The evidence of one pair (the logistic model takes the log of each)."""
INK_LEVEL = 0.15
WHITE_LEVEL = 0.97
"""A white pixel: every channel at least this share of the channel's white point (the crop as
``models.preprocess.balance_channels`` leaves it)..."""
WHITE_CHROMA = 0.08
"""...and its channels at most this far apart."""
GLARE_LEVEL = 1.03
"""A glare pixel: every channel above this share of the channel's white point."""

_K3 = np.ones((3, 3), np.uint8)
_K2 = np.ones((2, 2), np.uint8)
_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, ECC_ITERATIONS, 1e-3)


class VerifyView:
    """One crop, normalised for the verifier; each symmetric turn is made on first use and kept (a
    pair needs two of them: the upright crop and the turn it is compared at)."""

    def __init__(self, balanced: np.ndarray, square: bool) -> None:
        self._img = balanced
        self._ks = (0, 1, 2, 3) if square else (0, 2)
        self._turns: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._content: np.ndarray | None = None
        self.net_maps: np.ndarray | None = None
        """The net's feature maps of the upright crop's symmetric turns (:func:`net_maps`), kept by a
        caller that compares this crop with several registered ones (:func:`aligned_net_logit`)."""

    @property
    def count(self) -> int:
        """How many symmetric turns the crop has (4 square, 2 oblong)."""
        return len(self._ks)

    def turn(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Turn ``i`` (of :attr:`count`): the (SIZE, SIZE, 3) float32 crop, each channel divided by
        its own white point, and the (SIZE/2, SIZE/2) float32 high-passed grey that registration
        matches. (Two threads asking at once may both make it; they make the same arrays.)"""
        got = self._turns.get(i)
        if got is None:
            img = np.ascontiguousarray(np.rot90(self._img, self._ks[i]))
            got = (img, _high_pass_half(img))
            self._turns[i] = got
        return got

    @property
    def content(self) -> np.ndarray:
        """:data:`CONTENT_FEATURES` and the white and glare shares (:data:`WHITE_FEATURES`) of the
        upright crop (made on first use and kept)."""
        if self._content is None:
            self._content = content(self.turn(0)[0])
        return self._content

    @property
    def images(self) -> tuple[np.ndarray, ...]:
        return tuple(self.turn(i)[0] for i in range(self.count))

    @property
    def greys(self) -> tuple[np.ndarray, ...]:
        return tuple(self.turn(i)[1] for i in range(self.count))


def effective_px(short_side: float, resolution: dict, source_px: float | None = None) -> float:
    """A crop's effective resolution (px) for the resolution bands: the card's shorter side in the
    camera frame when the caller knows it (``source_px``), else the crop's own shorter side when it
    lies within the sizes the bands were calibrated on (``resolution["max_px"]``); 0 (unknown: the
    global threshold) for a larger crop, which may have been resampled from a small card."""
    if source_px is not None:
        return float(source_px)
    return float(short_side) if short_side <= float(resolution["max_px"]) else 0.0


def band_of(px: float, edges: Sequence[float]) -> int:
    """Index of the resolution band of a pair whose smaller effective resolution is ``px``."""
    return int(np.searchsorted(np.asarray(edges, np.float64), px, side="right"))


def band_offset(px: float, resolution: dict | None) -> float:
    """The logit added to the combination's p_same of a pair in ``px``'s band: 0 where the band keeps
    the global "same" threshold (and for an unknown resolution, ``px`` 0), more where the band's own
    near-duplicates allow a lower one."""
    if resolution is None or px <= 0:
        return 0.0
    return float(resolution["offsets"][band_of(px, resolution["edges_px"])])


def _high_pass_half(img: np.ndarray) -> np.ndarray:
    g = cv2.pyrDown(img.mean(axis=2).astype(np.float32))
    return (g - cv2.GaussianBlur(g, (0, 0), g.shape[0] / 8)).astype(np.float32)


def view(crop: np.ndarray, square: bool) -> VerifyView:
    """The verifier's view of a checked BGR uint8 crop (``models.preprocess.check_crop``)."""
    return view_of_source(source(crop), square)


def source(crop: np.ndarray, size: int = SIZE) -> np.ndarray:
    """What the view is built from: the checked crop upright and shrunk to (size, size, 3) uint8
    (12 KB at :data:`SIZE`; a signature keeps it and builds the view only when a pair needs it)."""
    return cv2.resize(to_portrait(crop), (size, size), interpolation=cv2.INTER_AREA)


def high_eligible(short_side: float, high: dict | None, source_px: float | None = None) -> bool:
    """Whether a crop may be compared in the high-resolution band (``high``: judge_verify.json's
    ``high``; None: no such band): its effective resolution (the card's shorter side in the camera
    frame where known, ``source_px``; else the crop's own shorter side when it lies within the sizes
    the band was calibrated on, ``high["max_px"]``: a larger crop may have been resampled from a small
    card) and the crop's own shorter side both reach ``high["from_px"]``. A pair goes to the band only
    when both its crops do."""
    if high is None:
        return False
    lo = float(high["from_px"])
    if source_px is None:
        return lo <= float(short_side) <= float(high["max_px"])
    return float(source_px) >= lo and float(short_side) >= lo


def view_of_source(small: np.ndarray, square: bool) -> VerifyView:
    """The view of a :func:`source` (its turns made when first compared)."""
    return VerifyView(balance_channels(small), square)


def net_turn_order(head: HeadFn, a_turns: np.ndarray, b_turns: np.ndarray, views: int) -> np.ndarray:
    """b's relative turns (indices of its symmetric turns against upright a), the net's likeliest
    first: the head's view-averaged logit of each, as ``models.judge_scoring.best_logits`` scores them."""
    ia, ib = view_indices(len(b_turns), views if len(a_turns) == len(b_turns) else 1)
    z = np.asarray(head(a_turns[ia.reshape(-1)], b_turns[ib.reshape(-1)]), np.float64).reshape(ia.shape)
    return np.argsort(-z.mean(axis=1), kind="stable")


def register(ga: np.ndarray, gb: np.ndarray) -> np.ndarray:
    """The affine map (inverse, at full SIZE) that puts b's grey onto a's; identity when ECC fails."""
    return register_checked(ga, gb)[0]


def register_checked(ga: np.ndarray, gb: np.ndarray) -> tuple[np.ndarray, bool]:
    """:func:`register`'s map, and whether ECC converged (False: it gave up, and the map is the
    identity)."""
    w = np.eye(2, 3, dtype=np.float32)
    converged = True
    try:
        _, w = cv2.findTransformECC(ga, gb, w, cv2.MOTION_AFFINE, _CRITERIA, None, 3)
    except cv2.error:
        w = np.eye(2, 3, dtype=np.float32)
        converged = False
    w = w.copy()
    # The grey is the working size halved (pyrDown: its size rounded up); the map is at full size.
    w[:, 2] *= 2.0
    return w, converged


def gain_field(a: np.ndarray, b: np.ndarray, log_a: np.ndarray | None = None) -> np.ndarray:
    """Per-channel multiplicative field that brings b's light to a's (smooth, robust to a local change).
    ``log_a``: ``log(a + 0.05)`` when the caller has it already."""
    size = a.shape[0]
    c = size // GAIN_CELLS
    n = c * c
    ratio = (np.log(a + 0.05) if log_a is None else log_a) - np.log(b + 0.05)
    # Each cell's values last and contiguous; the median of an even count (as np.median): the mean of
    # the two middle values, from one partition.
    cells = (
        ratio.reshape(GAIN_CELLS, c, GAIN_CELLS, c, 3)
        .transpose(0, 2, 4, 1, 3)
        .reshape(GAIN_CELLS, GAIN_CELLS, 3, n)
    )
    part = np.partition(cells, (n // 2 - 1, n // 2), axis=-1)
    g = ((part[..., n // 2 - 1] + part[..., n // 2]) * np.float32(0.5)).astype(np.float32)
    g = cv2.medianBlur(g, 3)
    return np.exp(cv2.resize(g, (size, size), interpolation=cv2.INTER_LINEAR))


def _envelope_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How far each pixel of a lies outside the min..max of b's 3 x 3 neighbourhood: the largest
    chromatic part plus the lightness part."""
    e = a - np.minimum(np.maximum(a, cv2.erode(b, _K3)), cv2.dilate(b, _K3))
    e0, e1, e2 = e[:, :, 0], e[:, :, 1], e[:, :, 2]
    m = (e0 + e1 + e2) / np.float32(3.0)
    return np.maximum(np.maximum(np.abs(e0 - m), np.abs(e1 - m)), np.abs(e2 - m)) + np.abs(m)


def difference_map(
    a: np.ndarray, b: np.ndarray, warp: np.ndarray, blurred_a: tuple[np.ndarray, np.ndarray] | None = None
) -> np.ndarray:
    """Per-pixel difference of a and b warped onto it, light evened out, inner region only.
    ``blurred_a``: (a blurred, log of it + 0.05) when the caller has them already (:func:`prepare`)."""
    size = a.shape[0]
    a, log_a = prepare(a) if blurred_a is None else blurred_a
    _, blurred, gain = _warped_gain(a, log_a, b, warp)
    bw = blurred * gain
    d = np.maximum(_envelope_distance(a, bw), _envelope_distance(bw, a))
    m = round(BORDER * size)
    return d[m : size - m, m : size - m]


def _warped_gain(
    blurred_a: np.ndarray, log_a: np.ndarray, b: np.ndarray, warp: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """b warped onto a, that blurred as :func:`difference_map` compares it, and the gain field that
    evens its light out onto a's."""
    size = blurred_a.shape[0]
    bw = cv2.warpAffine(
        b, warp, (size, size), flags=cv2.INTER_LINEAR + cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
    )
    blurred = cv2.GaussianBlur(bw, (0, 0), BLUR)
    return bw, blurred, gain_field(blurred_a, blurred, log_a)


def registered_evened(
    a: np.ndarray, b: np.ndarray, warp: np.ndarray, blurred_a: tuple[np.ndarray, np.ndarray] | None = None
) -> np.ndarray:
    """b (a normalised crop) warped onto a by ``warp`` (:func:`register`), its light evened out onto
    a's by the gain field :func:`difference_map` uses, unblurred: what the net compares with a in
    :func:`aligned_net_logit`. ``blurred_a``: :func:`prepare` of a when the caller has it."""
    ref, log_a = prepare(a) if blurred_a is None else blurred_a
    bw, _, gain = _warped_gain(ref, log_a, b, warp)
    return bw * gain


def prepare(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The reference crop blurred as :func:`difference_map` compares it, and the log it takes of it."""
    blurred = cv2.GaussianBlur(a, (0, 0), BLUR)
    return blurred, np.log(blurred + 0.05)


def _percentiles(d: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    """``np.percentile(d, qs)`` (linear interpolation) from one partial sort."""
    flat = d.reshape(-1)
    pos = [q / 100.0 * (flat.size - 1) for q in qs]
    ks = sorted({int(np.floor(p)) for p in pos} | {min(int(np.floor(p)) + 1, flat.size - 1) for p in pos})
    part = np.partition(flat, ks)
    out = []
    for p in pos:
        lo = int(np.floor(p))
        hi = min(lo + 1, flat.size - 1)
        out.append(float(part[lo] + (part[hi] - part[lo]) * (p - lo)))
    return out


def content(img: np.ndarray) -> np.ndarray:
    """:data:`CONTENT_FEATURES` of one normalised (SIZE, SIZE, 3) crop, blurred as it is compared, and
    its white and glare shares (unblurred), inside the compared region. (Channel by channel: numpy's
    reductions over an axis of 3 are several times slower than these sums.)"""
    g = cv2.GaussianBlur(img, (0, 0), BLUR)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    size = img.shape[0]
    m = round(BORDER * size)
    inner = (slice(m, size - m), slice(m, size - m))
    s0, s1, s2 = cv2.split(gx * gx + gy * gy)
    magnitude = np.sqrt(s0 + s1 + s2)[inner]
    n = size * size
    dev = None
    for ch in cv2.split(g):
        part = np.partition(ch.reshape(-1), (n // 2 - 1, n // 2))
        # The median of an even count, as np.median takes it: the mean of the two middle values.
        median = (part[n // 2 - 1] + part[n // 2]) / np.float32(2.0)
        d = np.abs(ch[inner] - median)
        dev = d if dev is None else np.maximum(dev, d)
    assert dev is not None
    c0, c1, c2 = (c[inner] for c in cv2.split(img))
    lo, hi = np.minimum(np.minimum(c0, c1), c2), np.maximum(np.maximum(c0, c1), c2)
    white = float(((lo > WHITE_LEVEL) & (hi - lo < WHITE_CHROMA)).mean())
    glare = float((lo > GLARE_LEVEL).mean())
    return np.array(
        [
            *_percentiles(magnitude, (50.0, 90.0, 99.0)),
            float((dev > INK_LEVEL).mean()),
            *_percentiles(dev, (90.0, 99.0)),
            white,
            glare,
        ],
        np.float64,
    )


def _largest_region(d: np.ndarray, level: float) -> float:
    mask = cv2.morphologyEx((d > level).astype(np.uint8), cv2.MORPH_OPEN, _K2)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return float(stats[1:, cv2.CC_STAT_AREA].max()) / d.size if n > 1 else 0.0


@dataclass(frozen=True, eq=False)
class Measurement:
    """What the verifier measured on one pair."""

    evidence: np.ndarray
    """:data:`FEATURES`, as :func:`evidence` gives them."""
    registered: bool
    """Whether both registrations of the counted turn (b onto a, a onto b) converged. Where one gave
    up, the difference may be a misregistration's rather than the cards': the verifier never calls
    such a pair "different" (:func:`says_different`)."""
    aligned: np.ndarray | None = None
    """b at the counted turn, registered onto upright a and its light evened out onto a's
    (:func:`registered_evened`), where :func:`measure` was asked to keep it (``keep_aligned``)."""


def evidence(a: VerifyView, b: VerifyView, tried: Sequence[int] | None = None) -> np.ndarray:
    """The evidence (:data:`FEATURES`) of the relative turn of b that best matches a (smallest 99th
    percentile of the difference) among ``tried`` (indices of b's turns; every turn when None): the
    difference numbers, the geometric mean of b onto a and a onto b at that turn, then the geometric
    mean of both crops' content numbers and the larger white and glare shares. Both crops of one shape."""
    return measure(a, b, tried).evidence


def measure(
    a: VerifyView, b: VerifyView, tried: Sequence[int] | None = None, keep_aligned: bool = False
) -> Measurement:
    """:func:`evidence`, and whether its registrations converged; with ``keep_aligned``, b at the counted
    turn registered and light-evened onto a (:attr:`Measurement.aligned`)."""
    best: np.ndarray | None = None
    best_turn = 0
    best_ok = False
    best_warp = np.eye(2, 3, dtype=np.float32)
    a0, ga0 = a.turn(0)
    ref = prepare(a0)
    for k in range(b.count) if tried is None else tried:
        img, grey = b.turn(int(k))
        warp, ok = register_checked(ga0, grey)
        d = difference_map(a0, img, warp, ref)
        p99, p995 = _percentiles(d, (99.0, 99.5))
        if best is not None and p99 >= best[0]:
            continue
        best, best_turn, best_ok, best_warp = _summary(d, p99, p995), int(k), ok, warp
    if best is None:
        raise ValueError("judge verifier: no turn to try")
    aligned = registered_evened(a0, b.turn(best_turn)[0], best_warp, ref) if keep_aligned else None
    # The same relative turn the other way round (a turned back onto upright b): less noise from
    # one registration or one crop's edge.
    b0, gb0 = b.turn(0)
    ab, gab = a.turn((-best_turn) % a.count)
    warp, back_ok = register_checked(gb0, gab)
    d = difference_map(b0, ab, warp)
    diff = np.sqrt(best * _summary(d, *_percentiles(d, (99.0, 99.5))))
    n = len(CONTENT_FEATURES)
    ca, cb = a.content, b.content
    ev = np.concatenate([diff, np.sqrt(ca[:n] * cb[:n]), np.maximum(ca[n:], cb[n:])])
    return Measurement(ev, best_ok and back_ok, aligned)


def _summary(d: np.ndarray, p99: float, p995: float) -> np.ndarray:
    return np.array([p99, p995, _largest_region(d, 0.2), _largest_region(d, 0.3)], np.float64)


def design_row(net_logit: np.ndarray, ev: np.ndarray, aligned: np.ndarray | None = None) -> np.ndarray:
    """The logistic model's inputs: the net's calibrated logit, with ``aligned`` the net's calibrated
    logit of the pair registered and light-evened (:func:`aligned_net_logit`), and the log of each
    evidence number."""
    cols = [np.asarray(net_logit, np.float64)]
    if aligned is not None:
        cols.append(np.asarray(aligned, np.float64))
    return np.column_stack([*cols, np.log(np.asarray(ev, np.float64) + 1e-3)])


def uses_aligned(settings: dict) -> bool:
    """Whether a fitted logistic model (judge_verify.json's ``combination``) takes the net's logit of
    the registered, light-evened pair (:func:`aligned_net_logit`) as an input."""
    return bool(settings.get("aligned_net", False))


def combined_logit(
    net_logit: np.ndarray, ev: np.ndarray, settings: dict, aligned: np.ndarray | None = None
) -> np.ndarray:
    """The fitted logistic model's logit of "same" (``settings``: judge_verify.json's ``combination``;
    ``aligned``: each pair's :func:`aligned_net_logit`, needed where the model takes it)."""
    if uses_aligned(settings) and aligned is None:
        raise ValueError("judge verifier: this combination needs the net's logit of the registered pair")
    x = design_row(net_logit, ev, aligned if uses_aligned(settings) else None)
    mean = np.asarray(settings["mean"], np.float64)
    std = np.asarray(settings["std"], np.float64)
    w = np.asarray(settings["weights"], np.float64)
    return ((x - mean) / std) @ w[:-1] + w[-1]


def combined_p(
    net_logit: np.ndarray,
    ev: np.ndarray,
    settings: dict,
    floor: float,
    offset: np.ndarray | float = 0.0,
    aligned: np.ndarray | None = None,
) -> np.ndarray:
    """p_same of pairs the verifier measured: the logistic model's (plus each pair's resolution band
    ``offset``, a logit), never below ``floor``."""
    z = np.clip(combined_logit(net_logit, ev, settings, aligned) + offset, -40, 40)
    return np.maximum(1.0 / (1.0 + np.exp(-z)), floor)


def aligned_net_logit(
    embed: EmbedFn,
    head: HeadFn,
    a: np.ndarray,
    b_aligned: np.ndarray,
    square: bool,
    platt: tuple[float, float],
    size: int,
    balance: bool = False,
    a_maps: np.ndarray | None = None,
) -> float:
    """The net's calibrated logit of "same" for a (a normalised upright crop, :meth:`VerifyView.turn`)
    against b registered and light-evened onto it (:attr:`Measurement.aligned`): both as the net's
    input (:data:`ALIGNED_SCALE`), every symmetric turn of a against the same turn of b, the head's
    logits averaged (one relative turn: the registration has found it), then the net's Platt scaling.
    ``a_maps``: :func:`net_maps` of a where the caller kept them. The net compares the two crops
    without the finder's corner error and with one light. Measured by ``tableref train judge-verify``
    (calibration set, 8000 pairs, "same" at the same confident wrong rate): as an input of the plain fit
    0.366 -> 0.370 (the verifier's evidence already carries most of it); of the fit weighted towards the
    different pairs (``models.training.judge_verify.VerifyConfig.different_weight``, 30) 0.381 -> 0.424."""
    if a_maps is None:
        a_maps = net_maps(embed, a, square, size, balance)
    b_maps = net_maps(embed, b_aligned, square, size, balance)
    z = float(np.mean(np.asarray(head(a_maps, b_maps), np.float64)))
    return platt[0] * z + platt[1]


def net_maps(embed: EmbedFn, img: np.ndarray, square: bool, size: int, balance: bool = False) -> np.ndarray:
    """The net's feature maps of each symmetric turn of a normalised crop (:data:`ALIGNED_SCALE`)."""
    return embed(turns(to_tensor(_as_u8(img), size, size, balance), square).astype(np.float32))


ALIGNED_SCALE = 200.0
"""A normalised crop (each channel divided by its white point, about 0..1.3) times this, clipped, is
the uint8 image the net's own preprocessing takes (which divides by its own bright level again)."""


def _as_u8(img: np.ndarray) -> np.ndarray:
    return np.clip(img * ALIGNED_SCALE, 0, 255).astype(np.uint8)


def says_different(
    net_logit: float, m: Measurement, settings: dict, px: float = 0.0, aligned: float | None = None
) -> bool:
    """Whether the verifier calls a pair "different" (``settings``: judge_verify.json): only where its
    registrations converged and the logistic model's logit of "same" lies below the calibrated
    threshold of the pair's resolution band (:func:`different_logit_below`: below every genuine
    calibration pair's, by a margin), by the rule's own logistic model where it has one (a plain fit
    beside a weighted "same" one), else the settings'; never where the settings have no such rule.
    ``px``: the pair's smaller effective resolution (0: unknown, the global threshold); ``aligned``: the
    pair's
    :func:`aligned_net_logit`, where the model takes it."""
    rule = settings.get("different")
    if rule is None or not m.registered:
        return False
    z = combined_logit(
        np.asarray([net_logit], np.float64),
        m.evidence[None, :],
        rule.get("combination", settings["combination"]),
        None if aligned is None else np.asarray([aligned], np.float64),
    )
    return bool(z[0] < different_logit_below(rule, px))


def different_logit_below(rule: dict, px: float) -> float:
    """The "different" rule's logit threshold for a pair whose smaller effective resolution is ``px``:
    its band's own (``rule["by_band"]``, set on that band's genuine calibration pairs where they were
    many enough, never below the global one) or, for an unknown resolution (0), the global one."""
    bands = rule.get("by_band")
    if bands is None or px <= 0:
        return float(rule["logit_below"])
    return float(bands["logit_below"][band_of(px, bands["edges_px"])])
