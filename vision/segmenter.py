"""The learned table segmenter: per-pixel card cores, cards, card boundaries and hands of a frame.

Run it ONCE per frame and hand the same :class:`Segmentation` to whoever needs it::

    seg = Segmenter.load().segment(frame)           # ~8 ms at 720p on one thread
    cards = find_cards(frame, segmentation=seg)     # the card finder's learned candidates
    hand = seg.hand_mask(frame.shape)               # uint8 0/255 at the frame's resolution

The maps are probabilities (float32, 0..1) at the network's output resolution (about 1/6.7 of a
720p frame: 192 x 112 for 1280 x 720); :meth:`Segmentation.to_image` / :meth:`to_map` convert
points, :meth:`Segmentation.hand_mask` and :meth:`Segmentation.upsampled` give full-resolution maps.

For the hands module (``vision/hands.py``): ``seg.hand`` is the probability that a pixel is a hand
or an arm (sleeves included), learned from rendered frames with varied skin tones and sleeves,
not from skin colour alone. ``seg.hand_mask(shape, 0.5)`` is the mask at the frame's size;
``seg.fraction(seg.hand, quad)`` is the mean hand probability over a card's quad (how much of it
a hand covers); with a ROI, ``seg.offset`` is the ROI's origin in the frame. The model is trained
on rendered frames only: on real photos its hand map is untested.

For the card finder: ``seg.center`` (a peak per card at least half visible, touching cards and a
pile's top card included) and ``seg.corners`` (each centre's four corners), read through
:meth:`Segmentation.card_centres` and :meth:`Segmentation.card_quads`; ``None`` / empty with a
model that has only the four maps.

The model files are ``models/table_seg.onnx`` and ``models/table_seg.json``; a missing or corrupt
one raises :class:`models.errors.ModelError` naming the file and ``tableref train seg``.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import cv2
import numpy as np

from models.files import MODEL_DIR, SEG, load_meta, model_error
from models.preprocess import normalise_exposure

log = logging.getLogger(__name__)

CHANNELS = ("core", "card", "boundary", "hand")
"""The maps every model gives, in this order (the hands module reads ``hand``)."""
INSTANCE_CHANNELS = ("center", "c0x", "c0y", "c1x", "c1y", "c2x", "c2y", "c3x", "c3y")
"""A model with card instances gives these after :data:`CHANNELS`: the card-centre logit and the
four corners' offsets from the pixel (clockwise, in ``offset_unit`` map pixels)."""


def input_size(width: int, height: int, long_side: float) -> tuple[int, int]:
    """(w, h) of the network input for a frame: long side ``long_side``, sides multiples of 16
    (the same rounding as the training frames)."""
    s = long_side / max(width, height)
    return max(16, round(width * s / 16) * 16), max(16, round(height * s / 16) * 16)


@dataclass(frozen=True, eq=False)
class Segmentation:
    """The segmenter's maps of one frame (or of a ROI of it)."""

    core: np.ndarray
    """(h, w) float32 0..1: inside a card's core (touching cards' cores are disjoint)."""
    card: np.ndarray
    """(h, w) float32 0..1: a visible card pixel."""
    boundary: np.ndarray
    """(h, w) float32 0..1: on a card's visible outline (between a card and anything else)."""
    hand: np.ndarray
    """(h, w) float32 0..1: a hand or an arm."""
    scale: tuple[float, float]
    """Map pixels per image pixel, (x, y)."""
    image_size: tuple[int, int]
    """(width, height) of the segmented image (the ROI's size with a ROI)."""
    offset: tuple[int, int] = (0, 0)
    """The segmented image's origin in the frame (a ROI's top-left), px."""
    center: np.ndarray | None = None
    """(h, w) float32 0..1: a card's centre (a peak per card at least half visible, touching and
    piled cards included); ``None`` for a model without card instances."""
    corners: np.ndarray | None = None
    """(8, h, w) float32: the four corners (clockwise) of the card centred at a pixel, as map
    coordinates minus the pixel's (x0, y0, .. x3, y3); ``None`` without card instances."""

    def peak_pixels(self, threshold: float = 0.3) -> tuple[np.ndarray, np.ndarray]:
        """(xs, ys) int map pixels of the card-centre peaks at least ``threshold`` (3 x 3 local
        maxima of :attr:`center`); empty without card instances."""
        if self.center is None:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        top = cv2.dilate(self.center, np.ones((3, 3), np.uint8))
        ys, xs = np.nonzero((self.center >= threshold) & (self.center >= top))
        return xs, ys

    def card_centres(self, threshold: float = 0.3) -> tuple[np.ndarray, np.ndarray]:
        """((N, 2) float32 frame pixels, (N,) probabilities) of the card-centre peaks at least
        ``threshold`` (3 x 3 local maxima of :attr:`center`); empty without card instances."""
        xs, ys = self.peak_pixels(threshold)
        if len(xs) == 0:
            return np.zeros((0, 2), np.float32), np.zeros(0, np.float32)
        pts = self.to_image(np.stack([xs, ys], axis=1))
        return pts, self.center[ys, xs].astype(np.float32)

    def card_quads(self, threshold: float = 0.3) -> list[tuple[np.ndarray, float]]:
        """(quad (4, 2) float32 in frame pixels, centre probability) of every centre peak at least
        ``threshold`` (a 3 x 3 local maximum of :attr:`center`); [] without card instances."""
        if self.center is None or self.corners is None:
            return []
        xs, ys = self.peak_pixels(threshold)
        h, w = self.center.shape
        out = []
        for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
            # each pixel around the peak regresses the same corners (offsets from itself): their
            # mean weighted by the centre probability is steadier than the peak's alone
            x0, x1, y0, y1 = max(0, x - 1), min(w, x + 2), max(0, y - 1), min(h, y + 2)
            wt = self.center[y0:y1, x0:x1].astype(np.float64)
            gx, gy = np.meshgrid(np.arange(x0, x1, dtype=np.float64), np.arange(y0, y1, dtype=np.float64))
            c = self.corners[:, y0:y1, x0:x1].reshape(4, 2, *wt.shape) + np.stack([gx, gy])[None]
            q = (c * wt).sum(axis=(2, 3)) / wt.sum()
            out.append((self.to_image(q), float(self.center[y, x])))
        return out

    def to_image(self, points: np.ndarray) -> np.ndarray:
        """Map coordinates (N, 2) -> frame pixel coordinates (pixel centres on both sides)."""
        p = np.asarray(points, np.float64).reshape(-1, 2)
        sx, sy = self.scale
        out = np.stack([(p[:, 0] + 0.5) / sx - 0.5, (p[:, 1] + 0.5) / sy - 0.5], axis=1)
        return (out + np.asarray(self.offset, np.float64)).astype(np.float32)

    def to_map(self, points: np.ndarray) -> np.ndarray:
        """Frame pixel coordinates (N, 2) -> map coordinates."""
        p = np.asarray(points, np.float64).reshape(-1, 2) - np.asarray(self.offset, np.float64)
        sx, sy = self.scale
        return np.stack([(p[:, 0] + 0.5) * sx - 0.5, (p[:, 1] + 0.5) * sy - 0.5], axis=1).astype(np.float32)

    def upsampled(self, channel: str) -> np.ndarray:
        """A map at the segmented image's resolution, float32 (bilinear)."""
        return cv2.resize(getattr(self, channel), self.image_size, interpolation=cv2.INTER_LINEAR)

    def hand_mask(self, threshold: float = 0.5) -> np.ndarray:
        """uint8 0/255 hand-and-arm mask at the segmented image's resolution."""
        return (self.upsampled("hand") >= threshold).astype(np.uint8) * 255

    def fraction(self, prob: np.ndarray, quad: np.ndarray) -> float:
        """Mean of a map (one of this segmentation's) over a quad given in frame pixels (0 when
        the quad lies outside the map)."""
        q = self.to_map(quad)
        h, w = prob.shape
        x0, y0 = np.floor(q.min(axis=0)).astype(int)
        x1, y1 = np.ceil(q.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x1 <= x0 or y1 <= y0:
            return 0.0
        poly = np.zeros((y1 - y0, x1 - x0), np.uint8)
        pts = np.round((q - np.float32([x0, y0])) * 16).astype(np.int32).reshape(-1, 1, 2)
        cv2.fillPoly(poly, [pts], 1, lineType=cv2.LINE_8, shift=4)
        n = int(poly.sum())
        if n == 0:
            return 0.0
        return float(prob[y0:y1, x0:x1][poly > 0].mean())


class Segmenter:
    """The ONNX segmenter on one onnxruntime thread. ``Segmenter.load()`` is cached per folder."""

    _cache: ClassVar[dict[Path, Segmenter]] = {}
    _lock = threading.Lock()

    def __init__(self, folder: Path | None = None) -> None:
        import onnxruntime as ort

        from vision.onnx_arena import ArenaReleasing

        folder = MODEL_DIR if folder is None else Path(folder)
        self.meta: dict[str, Any] = load_meta(SEG, folder)
        path = folder / SEG.onnx[0]
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        try:
            session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types
            raise model_error(path, SEG, f"unreadable ({exc.__class__.__name__})") from exc
        self.session = ArenaReleasing(session)  # its arena gives unused memory back now and then
        try:
            self.long_side = int(self.meta["input"]["long_side"])
            self.stride = int(self.meta["output_stride"])
            self.channels = tuple(self.meta["channels"])
        except (KeyError, TypeError, ValueError) as exc:
            raise model_error(folder / SEG.meta, SEG, f"corrupt (no {exc})") from exc
        if self.channels[: len(CHANNELS)] != CHANNELS or self.channels[len(CHANNELS) :] not in (
            (),
            INSTANCE_CHANNELS,
        ):
            raise model_error(folder / SEG.meta, SEG, f"for other outputs {self.channels}")
        self.instances = len(self.channels) > len(CHANNELS)
        self.offset_unit = float(self.meta.get("offset_unit", 1.0))
        self.input_name = self.session.get_inputs()[0].name
        self._run_lock = threading.Lock()

    @classmethod
    def load(cls, folder: Path | None = None) -> Segmenter:
        key = (MODEL_DIR if folder is None else Path(folder)).resolve()
        with cls._lock:
            seg = cls._cache.get(key)
            if seg is None:
                seg = cls(key)
                cls._cache[key] = seg
            return seg

    def segment(
        self,
        image: np.ndarray,
        frame_size: tuple[int, int] | None = None,
        offset: tuple[int, int] = (0, 0),
    ) -> Segmentation:
        """The maps of a BGR image. ``frame_size`` (width, height): the whole frame's size when
        ``image`` is a ROI of it at ``offset`` (the ROI is scaled like the whole frame would be)."""
        if image is None or image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise ValueError("segment expects a BGR uint8 image of shape (H, W, 3)")
        h, w = image.shape[:2]
        if frame_size is None or tuple(frame_size) == (w, h):
            iw, ih = input_size(w, h, self.long_side)
            small = cv2.resize(image, (iw, ih), interpolation=cv2.INTER_AREA)
            pad_w = pad_h = 0
        else:
            s = self.long_side / max(frame_size)
            rw, rh = max(1, round(w * s)), max(1, round(h * s))
            small = cv2.resize(image, (rw, rh), interpolation=cv2.INTER_AREA)
            iw, ih = max(16, -(-rw // 16) * 16), max(16, -(-rh // 16) * 16)
            pad_w, pad_h = iw - rw, ih - rh
            small = cv2.copyMakeBorder(small, 0, pad_h, 0, pad_w, cv2.BORDER_REPLICATE)
        x = (normalise_exposure(small) - 0.5).transpose(2, 0, 1)[None]
        with self._run_lock:
            logits = self.session.run(None, {self.input_name: np.ascontiguousarray(x, np.float32)})[0][0]
        n_prob = len(CHANNELS) + (1 if self.instances else 0)
        probs = 1.0 / (1.0 + np.exp(-np.clip(logits[:n_prob], -30, 30)))
        mh, mw = probs.shape[1:]
        # the part of the map over the image (a ROI's padding cut off)
        vh, vw = mh - pad_h // self.stride, mw - pad_w // self.stride
        probs = np.ascontiguousarray(probs[:, :vh, :vw], np.float32)
        center = corners = None
        if self.instances:
            center = probs[4]
            corners = np.ascontiguousarray(logits[n_prob:, :vh, :vw] * self.offset_unit, np.float32)
        sx = (iw - pad_w) / self.stride / w if pad_w else mw / w
        sy = (ih - pad_h) / self.stride / h if pad_h else mh / h
        return Segmentation(
            core=probs[0], card=probs[1], boundary=probs[2], hand=probs[3],
            scale=(sx, sy), image_size=(w, h), offset=(int(offset[0]), int(offset[1])),
            center=center, corners=corners,
        )  # fmt: skip
