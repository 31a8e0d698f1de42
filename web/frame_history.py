"""The last seconds of captured frames as small grey thumbnails.

Vision takes up to a second or more on a busy frame, and the newest frame wins, so it skips the
frames captured meanwhile. The capture thread sees every frame: it keeps each one's thumbnail here
(a 720p frame becomes 320 x 180 grey, 57.6 kB), so a moment that fell among skipped frames (the
spread that starts Twin It's minute coming to rest) can still be dated to the frame.

    history = FrameHistory()
    history.add(frame.index, frame.mono, frame.image)  # capture thread
    history.arrivals(first, rest, quads)  # any thread: when each quad's area came to rest
"""

from __future__ import annotations

import math
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import cv2
import numpy as np

HISTORY_S = 10.0
"""Seconds of frames kept: a frame's skipped frames are searched once vision is done with it, up to
twice vision's time on one frame after the first of them (1.3 s a frame on the spread on a quiet
machine, over 2 s on a loaded one: a threaded live replay at load 10 handed the spread over 5.4 s
after the frame vision saw before it)."""
MAX_FRAMES = 200
"""At most this many thumbnails (10 s at 20 fps; a 720p frame's: 11.5 MB at most, 5.8 MB at the
live bench's 10 fps)."""
THUMB_WIDTH = 320
"""Frames are shrunk by the whole factor that brings them to at most this width."""
PIXEL_LEVEL = 12
"""Grey levels two thumbnails must differ by at a pixel for it to count as changed (sensor noise,
averaged over the shrink, stays well under it)."""
CHANGED_FRACTION = 0.02
CHANGED_MIN_PX = 6
"""A thing looks as at rest in a frame when at most this fraction of its area's pixels (and this
many) changed: a card sliding its last few millimetres changes a third of them or more."""
SEEN_FRACTION = 0.25
"""A thing with less than this fraction of its area in sight (hands over the rest) is not dated."""


@dataclass(frozen=True)
class Thumb:
    """One captured frame, shrunk and grey."""

    index: int
    """The capture index (the session's ``Frame.index``)."""
    mono: float
    """The server's monotonic clock when it was captured."""
    image: np.ndarray
    """Grey uint8, read-only."""
    factor: int
    """Frame pixels per thumbnail pixel."""

    @property
    def nbytes(self) -> int:
        return int(self.image.nbytes)


def thumbnail(image: np.ndarray, width: int = THUMB_WIDTH) -> tuple[np.ndarray, int]:
    """``image`` (grey, BGR or BGRA uint8) shrunk by a whole factor to at most ``width`` wide, grey:
    the thumbnail and the factor."""
    h, w = image.shape[:2]
    factor = max(1, math.ceil(w / width))
    small = image
    if factor > 1:
        small = cv2.resize(image, (max(1, w // factor), max(1, h // factor)), interpolation=cv2.INTER_AREA)
    if small.ndim == 3:
        code = cv2.COLOR_BGRA2GRAY if small.shape[2] == 4 else cv2.COLOR_BGR2GRAY
        small = cv2.cvtColor(small, code)
    small = np.ascontiguousarray(small)
    small.flags.writeable = False
    return small, factor


class FrameHistory:
    """Thumbnails of the last :data:`HISTORY_S` seconds of frames, oldest first. One thread adds
    (capture), any thread reads; the thumbnails never change once added."""

    def __init__(self, seconds: float = HISTORY_S, max_frames: int = MAX_FRAMES, width: int = THUMB_WIDTH):
        self.seconds = seconds
        self.width = width
        self._lock = threading.Lock()
        self._thumbs: deque[Thumb] = deque(maxlen=max_frames)

    def add(self, index: int, mono: float, image: np.ndarray) -> None:
        """Keeps frame ``index`` captured at ``mono`` (shrunk outside the lock); drops frames older
        than :attr:`seconds`, and all of them when the capture index goes back (a new source)."""
        small, factor = thumbnail(image, self.width)
        thumb = Thumb(int(index), float(mono), small, factor)
        with self._lock:
            if self._thumbs and self._thumbs[-1].index >= thumb.index:
                self._thumbs.clear()
            self._thumbs.append(thumb)
            while self._thumbs and self._thumbs[0].mono < thumb.mono - self.seconds:
                self._thumbs.popleft()

    def between(self, first: int, last: int) -> list[Thumb]:
        """The kept frames whose index lies in ``[first, last]``, oldest first."""
        with self._lock:
            return [t for t in self._thumbs if first <= t.index <= last]

    def mono_of(self, index: int) -> float | None:
        """When frame ``index`` was captured, if kept."""
        with self._lock:
            return next((t.mono for t in self._thumbs if t.index == index), None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._thumbs)

    @property
    def nbytes(self) -> int:
        """The bytes of the thumbnails kept now."""
        with self._lock:
            return sum(t.nbytes for t in self._thumbs)

    def arrivals(
        self,
        first: int,
        rest: int,
        quads: Sequence[np.ndarray],
        hidden: Sequence[tuple[int, int, int, int]] = (),
        hidden_mask: np.ndarray | None = None,
        hidden_small: np.ndarray | None = None,
    ) -> list[float] | None:
        """When each of ``quads`` (frame pixels, as frame ``rest`` shows them) came to look as in frame
        ``rest``: the capture time of the first frame after ``first`` (up to ``rest``) whose pixels
        there look so, after one that did not. A thing still moving into place differs from how it
        lies at rest until it stops, so this is when it stopped (a hand passing over it later,
        or moving elsewhere, changes nothing). ``-inf`` for a quad already so in the first frame
        searched (frame ``first``, or the oldest kept after it): it stopped before. Pixels under
        the hands in frame ``rest`` do not count: ``hidden_mask`` (frame-sized, true on hands)
        when given, else the boxes ``hidden`` (``(x, y, w, h)``); ``nan`` for a quad mostly under
        them (:data:`SEEN_FRACTION`); ``hidden_small``: that mask already thumbnail-sized
        (:meth:`small_mask`). ``None`` when the history lacks frame ``rest``."""
        thumbs = self.between(first, rest)
        if not thumbs or thumbs[-1].index != rest:
            return None
        ref = thumbs[-1]
        whole = area_labels(ref.image.shape, ref.factor, quads)
        labels = whole.copy()
        labels[hidden_pixels(ref, hidden, hidden_mask, hidden_small)] = 0
        inside = labels > 0
        area = np.bincount(labels[inside], minlength=len(quads) + 1)[1:]
        full = np.bincount(whole[whole > 0], minlength=len(quads) + 1)[1:]
        allowed = np.maximum(CHANGED_MIN_PX, CHANGED_FRACTION * area)
        arrived = np.full(len(quads), -np.inf)
        arrived[area < np.maximum(1, SEEN_FRACTION * full)] = np.nan
        unlike = np.zeros(len(quads), bool)
        found = np.zeros(len(quads), bool)
        for k, thumb in enumerate(thumbs):
            if thumb.image.shape != ref.image.shape:
                unlike[:] = True
                continue
            changed = changed_mask(thumb.image, ref.image, inside)
            counts = np.bincount(labels[changed], minlength=len(quads) + 1)[1:]
            like = counts <= allowed
            if k == 0:
                found |= like  # at rest from the first frame searched on
            new = like & unlike & ~found & ~np.isnan(arrived)
            arrived[new] = thumb.mono
            found |= new
            unlike |= ~like
        return [float(a) for a in arrived]

    def still_after(
        self,
        ref: int,
        quads: Sequence[np.ndarray],
        hidden: Sequence[tuple[int, int, int, int]] = (),
        hidden_mask: np.ndarray | None = None,
        hidden_small: np.ndarray | None = None,
    ) -> bool | None:
        """Whether the table lay still from frame ``ref`` to the next frame kept: outside the hands
        of frame ``ref`` (``hidden_small``, ``hidden_mask``, else the boxes ``hidden``), fewer
        pixels changed than one of ``quads`` (the cards frame ``ref`` shows) changes when it moves
        (:data:`CHANGED_FRACTION` of the median quad's area, and :data:`CHANGED_MIN_PX`). A card
        still sliding anywhere, seen or not, or a hand moving out of where it lay, changes more.
        ``None`` when the history lacks frame ``ref`` or the frame after it."""
        with self._lock:
            thumbs = list(self._thumbs)
        at = next((k for k, t in enumerate(thumbs) if t.index == ref), None)
        if at is None or at + 1 >= len(thumbs) or thumbs[at + 1].image.shape != thumbs[at].image.shape:
            return None
        this, after = thumbs[at], thumbs[at + 1]
        inside = ~hidden_pixels(this, hidden, hidden_mask, hidden_small)
        changed = changed_mask(after.image, this.image, inside) & inside
        areas = [cv2.contourArea(np.asarray(q, np.float32).reshape(-1, 2)) / this.factor**2 for q in quads]
        allowed = max(CHANGED_MIN_PX, CHANGED_FRACTION * float(np.median(areas))) if areas else CHANGED_MIN_PX
        return int(np.count_nonzero(changed)) <= allowed

    def first_still(self, start: int, end: int, quads: Sequence[np.ndarray]) -> int | None:
        """The index of the first frame kept in ``[start, end)`` from which the whole table lies
        still to the next frame kept (:meth:`still_after` with no hands known: a hand moving
        anywhere is motion), or ``None``."""
        with self._lock:
            thumbs = [t for t in self._thumbs if start <= t.index <= end]
        if not quads:
            return None
        areas = [cv2.contourArea(np.asarray(q, np.float32).reshape(-1, 2)) for q in quads]
        for this, after in pairwise(thumbs):
            if this.index >= end or after.image.shape != this.image.shape:
                continue
            inside = np.ones(this.image.shape[:2], bool)
            changed = changed_mask(after.image, this.image, inside)
            allowed = max(CHANGED_MIN_PX, CHANGED_FRACTION * float(np.median(areas)) / this.factor**2)
            if int(np.count_nonzero(changed)) <= allowed:
                return this.index
        return None

    def small_mask(self, mask: np.ndarray) -> np.ndarray:
        """A frame's hand mask at its thumbnail's size (:func:`shrunk_mask`): what a caller keeps of
        it for :meth:`arrivals` and :meth:`still_after` (57.6 kB at 720p, against 0.9 MB)."""
        h, w = mask.shape[:2]
        factor = max(1, math.ceil(w / self.width))
        return shrunk_mask(mask, (max(1, h // factor), max(1, w // factor)))


def hidden_pixels(
    thumb: Thumb,
    boxes: Sequence[tuple[int, int, int, int]],
    mask: np.ndarray | None,
    small: np.ndarray | None = None,
) -> np.ndarray:
    """The thumbnail's pixels under the hands: ``small`` (thumbnail-sized, as
    :meth:`FrameHistory.small_mask` makes it) when its shape fits, else ``mask`` (frame-sized),
    else the ``boxes`` (``(x, y, w, h)``, frame pixels): bool."""
    shape = thumb.image.shape[:2]
    if small is not None and small.shape[:2] == shape:
        return small.astype(bool)
    if mask is not None:
        return shrunk_mask(mask, shape)
    labels = np.ones(shape, np.int32)
    hide_boxes(labels, thumb.factor, boxes)
    return labels == 0


def area_labels(shape: tuple[int, ...], factor: int, quads: Sequence[np.ndarray]) -> np.ndarray:
    """Each thumbnail pixel inside ``quads[k]`` (frame pixels) labelled ``k + 1`` (a later quad over
    an earlier one wins), 0 elsewhere: int32."""
    labels = np.zeros(shape[:2], np.int32)
    for k, quad in enumerate(quads):
        poly = np.round(np.asarray(quad, np.float64).reshape(-1, 2) / factor).astype(np.int32)
        cv2.fillPoly(labels, [poly], k + 1)
    return labels


def hide_boxes(labels: np.ndarray, factor: int, boxes: Sequence[tuple[int, int, int, int]]) -> None:
    """Clears the thumbnail pixels of ``boxes`` (``(x, y, w, h)``, frame pixels) in ``labels``."""
    for x, y, w, h in boxes:
        x0, y0 = max(0, int(x) // factor), max(0, int(y) // factor)
        x1, y1 = math.ceil((int(x) + int(w)) / factor), math.ceil((int(y) + int(h)) / factor)
        labels[y0:y1, x0:x1] = 0


def shrunk_mask(mask: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """A frame-sized mask at the thumbnail's ``shape``: true where any of a thumbnail pixel's frame
    pixels, or a neighbour's, is (a hand's shadow and blur reach a little past it)."""
    small = cv2.resize(np.asarray(mask, np.uint8), (shape[1], shape[0]), interpolation=cv2.INTER_AREA)
    return cv2.dilate((small > 0).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0


def changed_mask(a: np.ndarray, b: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """Where ``a`` and ``b`` differ by more than :data:`PIXEL_LEVEL`, once the median difference
    over ``inside`` (the light or the exposure changing) is taken out: bool."""
    diff = cv2.subtract(a, b, dtype=cv2.CV_16S)
    shift = int(np.median(diff[inside])) if inside.any() else 0
    if shift:
        diff -= np.int16(shift)
    return np.abs(diff) > PIXEL_LEVEL
