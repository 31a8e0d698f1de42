"""Pairs of camera crops for the judge: same pattern, random other pattern, near-duplicates."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from models.preprocess import is_square, to_tensor, turns
from models.training.augment import DEFAULT_AUG, AugmentConfig, camera_crop
from models.training.decks import PatternDeck

FACE_LONG_SIDE = 220
"""Faces are shrunk to this long side once (crops are smaller still)."""


class FaceCache:
    """Faces of a deck, shrunk once."""

    def __init__(self, deck: PatternDeck) -> None:
        self.deck = deck
        self._faces: dict[str, np.ndarray] = {}

    def face(self, pattern: str) -> np.ndarray:
        img = self._faces.get(pattern)
        if img is None:
            img = self.deck.image(pattern)
            s = FACE_LONG_SIDE / max(img.shape[:2])
            if s < 1:
                img = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
            self._faces[pattern] = img
        return img


def _turn_stack(img: np.ndarray) -> list[np.ndarray]:
    """A 48 px copy of ``img`` at each symmetric turn (4 for a square face, 0 and 180 else)."""
    small = cv2.resize(img, (48, 48), interpolation=cv2.INTER_AREA).astype(np.int16)
    ks = (0, 1, 2, 3) if is_square(img) else (0, 2)
    return [np.rot90(small, k) for k in ks]


def shows_a_difference(face: np.ndarray, edited: np.ndarray, min_pixels: int = 24) -> bool:
    """Whether ``edited`` differs visibly from ``face`` at every symmetric turn (at 48 px: at least
    ``min_pixels`` pixels change by more than 40 levels in some channel)."""
    small = cv2.resize(edited, (48, 48), interpolation=cv2.INTER_AREA).astype(np.int16)
    return all(int((np.abs(small - t).max(axis=2) > 40).sum()) >= min_pixels for t in _turn_stack(face))


def local_edit(face: np.ndarray, other: np.ndarray, rng: np.random.Generator) -> np.ndarray | None:
    """A near-duplicate of ``face`` that no deck lists: one round patch replaced by the same place of
    ``other``, its colours permuted, or mirrored; or the whole face mirrored. None when the change
    would not show (a plain stretch of background, a symmetric face)."""
    h, w = face.shape[:2]
    kind = int(rng.integers(4))
    if kind == 3:
        edited = np.ascontiguousarray(face[:, ::-1])
    else:
        r = int(rng.uniform(0.08, 0.16) * min(h, w))
        cy, cx = int(rng.uniform(0.15 * h + r, 0.85 * h - r)), int(rng.uniform(0.15 * w + r, 0.85 * w - r))
        if kind == 0:
            patch = cv2.resize(other, (w, h), interpolation=cv2.INTER_AREA)
        elif kind == 1:
            perm = [(0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)][int(rng.integers(5))]
            patch = np.ascontiguousarray(face[:, :, list(perm)])
        else:
            patch = np.zeros_like(face)
            y0, y1, x0, x1 = cy - r, cy + r, cx - r, cx + r
            patch[y0:y1, x0:x1] = face[y0:y1, x0:x1][::-1, ::-1]
        mask = np.zeros((h, w), np.uint8)
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
        alpha = (mask.astype(np.float32) / 255.0)[:, :, None]
        edited = (face * (1 - alpha) + patch * alpha).astype(np.uint8)
    return edited if shows_a_difference(face, edited) else None


NEAR_PALETTE: tuple[tuple[int, int, int], ...] = (
    (40, 40, 215),  # red
    (30, 140, 250),  # orange
    (0, 140, 255),  # deep orange
    (40, 215, 250),  # yellow
    (30, 200, 240),  # golden yellow
    (60, 200, 120),  # green
    (40, 170, 40),  # grass green
    (120, 230, 200),  # lime
    (110, 120, 20),  # teal
    (200, 200, 40),  # turquoise
    (220, 190, 60),  # sky blue
    (170, 70, 30),  # blue
    (200, 60, 40),  # royal blue
    (150, 40, 120),  # purple
    (170, 40, 150),  # violet
    (170, 70, 230),  # pink
    (150, 60, 230),  # rose
    (40, 70, 120),  # brown
    (60, 110, 160),  # light brown
    (35, 35, 35),  # black
    (245, 245, 245),  # white
    (150, 190, 250),  # peach
)
"""BGR print colours of pattern cards: a near-colour edit moves one element to a neighbour among them."""


def _lab(bgr: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0..100) of BGR uint8 colours of any shape (..., 3), float32."""
    flat = np.asarray(bgr, np.float32).reshape(-1, 1, 3) / 255.0
    return cv2.cvtColor(flat, cv2.COLOR_BGR2Lab).reshape(np.shape(bgr))


_PALETTE_LAB = _lab(np.asarray(NEAR_PALETTE, np.uint8))


def _palette_lut(max_distance: float = 14.0) -> np.ndarray:
    """For each colour quantised to 5 bits per channel (index b << 10 | g << 5 | r): the nearest
    palette colour in Lab, or -1 when none lies within ``max_distance``."""
    q = np.arange(32, dtype=np.uint8) * 8 + 4
    b, g, r = np.meshgrid(q, q, q, indexing="ij")
    lab = _lab(np.stack([b, g, r], axis=-1).reshape(-1, 3))
    dist = np.linalg.norm(lab[:, None, :] - _PALETTE_LAB[None], axis=2)
    lut = dist.argmin(axis=1).astype(np.int16)
    lut[dist.min(axis=1) > max_distance] = -1
    return lut


_LUT = _palette_lut()


def near_colours(colour: int, k: int = 3, min_distance: float = 8.0) -> list[int]:
    """The ``k`` palette colours nearest to ``NEAR_PALETTE[colour]`` in Lab (closer than
    ``min_distance``: the same ink, skipped), nearest first."""
    d = np.linalg.norm(_PALETTE_LAB - _PALETTE_LAB[colour], axis=1)
    order = [int(i) for i in np.argsort(d, kind="stable") if d[i] >= min_distance]
    return order[:k]


def near_colour_edit(
    face: np.ndarray, rng: np.random.Generator, k: int = 4, min_area: float = 0.006, max_area: float = 0.2
) -> np.ndarray | None:
    """A near-duplicate of ``face`` with ONE element recoloured to a nearby print colour (one of the
    ``k`` nearest palette colours by Lab distance, the nearest most often): yellow to peach, teal to
    black, lime to green. An element is a connected region of one palette colour (within 14 Lab units)
    of ``min_area``..``max_area`` of the face that does not touch its edge (not the card's frame or
    backdrop). None when no element qualifies or the change would not show at every turn."""
    h, w = face.shape[:2]
    q = (face >> 3).astype(np.int32)
    nearest = _LUT[(q[:, :, 0] << 10) | (q[:, :, 1] << 5) | q[:, :, 2]]
    candidates: list[tuple[int, np.ndarray]] = []
    for colour in np.unique(nearest):
        if colour < 0:
            continue
        n, comp, stats, _ = cv2.connectedComponentsWithStats((nearest == colour).astype(np.uint8), 8)
        for c in range(1, n):
            x, y, bw, bh, area = (int(v) for v in stats[c])
            inside = x > 1 and y > 1 and x + bw < w - 1 and y + bh < h - 1
            if inside and min_area * h * w <= area <= max_area * h * w:
                candidates.append((int(colour), comp == c))
    if not candidates:
        return None
    colour, mask = candidates[int(rng.integers(len(candidates)))]
    options = near_colours(colour, k)
    weights = np.asarray([0.4, 0.25, 0.2, 0.15][: len(options)])
    new = options[int(rng.choice(len(options), p=weights / weights.sum()))]
    shift = np.asarray(NEAR_PALETTE[new], np.float32) - np.asarray(NEAR_PALETTE[colour], np.float32)
    # Anti-aliased rims take part of the shift (blurred mask, within one pixel of the element).
    m = mask.astype(np.float32)
    alpha = np.maximum(m, cv2.GaussianBlur(m, (0, 0), 0.8)) * cv2.dilate(m, np.ones((3, 3), np.uint8))
    edited = np.clip(face.astype(np.float32) + alpha[:, :, None] * shift, 0, 255).astype(np.uint8)
    return edited if shows_a_difference(face, edited, min_pixels=16) else None


class PairSampler:
    """Draws labelled pairs of network inputs. Positives share a turn; negatives get any turns."""

    def __init__(
        self, decks: Sequence[PatternDeck], size: int, seed: int, aug: AugmentConfig = DEFAULT_AUG,
        mix: tuple[float, float, float] = (0.45, 0.3, 0.25),
        fresh: float = 1.0,
        pool_size: int = 4,
        balance: bool = False,
    ) -> None:  # fmt: skip
        if not decks:
            raise ValueError("PairSampler needs at least one deck")
        self.caches = [FaceCache(d) for d in decks]
        self.size = size
        self.rng = np.random.default_rng(seed)
        self.aug = aug
        self.mix = np.asarray(mix, np.float64) / sum(mix)
        self.fresh = fresh
        self.pool_size = pool_size
        self.balance = balance
        self._pools: dict[tuple[int, str], list[np.ndarray]] = {}

    def _input(self, face: np.ndarray) -> np.ndarray:
        crop = camera_crop(face, self.rng, self.aug)
        return to_tensor(crop, self.size, self.size, self.balance)

    def _pooled_input(self, di: int, pattern: str) -> np.ndarray:
        """A crop of the pattern: a fresh one with probability ``fresh``, else one made before
        (pools of ``pool_size`` per pattern save most of the augmentation's cost)."""
        key = (di, pattern)
        pool = self._pools.setdefault(key, [])
        if len(pool) < self.pool_size and (not pool or self.rng.random() < self.fresh):
            x = self._input(self.caches[di].face(pattern)).astype(np.float16)
            pool.append(x)
        elif self.rng.random() < self.fresh:
            x = self._input(self.caches[di].face(pattern)).astype(np.float16)
            pool[int(self.rng.integers(len(pool)))] = x
        else:
            x = pool[int(self.rng.integers(len(pool)))]
        return x.astype(np.float32)

    def _pick_turn(self, x: np.ndarray, square: bool, k: int | None = None) -> np.ndarray:
        options = turns(x, square)
        return options[self.rng.integers(len(options)) if k is None else k % len(options)]

    def pair(self) -> tuple[np.ndarray, np.ndarray, float, str, bool]:
        """(input a, input b, label 1.0 same / 0.0 different, kind, square card)."""
        cache = self.caches[self.rng.integers(len(self.caches))]
        deck = cache.deck
        kind = str(self.rng.choice(["same", "random", "hard"], p=self.mix))
        if kind == "hard" and not deck.near_duplicates:
            kind = "random"
        if kind == "same":
            p = deck.patterns[self.rng.integers(len(deck.patterns))]
            a_face = b_face = cache.face(p)
        elif kind == "random":
            i, j = self.rng.choice(len(deck.patterns), size=2, replace=False)
            a_face, b_face = cache.face(deck.patterns[i]), cache.face(deck.patterns[j])
        else:
            a, b, _ = deck.near_duplicates[self.rng.integers(len(deck.near_duplicates))]
            if self.rng.random() < 0.5:
                a, b = b, a
            a_face, b_face = cache.face(a), cache.face(b)
        square = is_square(a_face)
        xa, xb = self._input(a_face), self._input(b_face)
        if kind == "same":
            k = int(self.rng.integers(4))
            xa, xb = self._pick_turn(xa, square, k), self._pick_turn(xb, square, k)
        else:
            xa, xb = self._pick_turn(xa, square), self._pick_turn(xb, square)
        return xa, xb, 1.0 if kind == "same" else 0.0, kind, square

    def batch(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        pairs = [self.pair() for _ in range(n)]
        xa = np.stack([p[0] for p in pairs])
        xb = np.stack([p[1] for p in pairs])
        y = np.asarray([p[2] for p in pairs], np.float32)
        return xa, xb, y

    def group_batch(
        self, n_patterns: int, per_pattern: int, hard_share: float = 0.5, hard_aligned: float = 0.0,
        synthetic_share: float = 0.0, near_colour_share: float = 0.0, mirror_share: float = 0.0,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
        """(inputs, pattern labels, near-duplicate partner matrix) for all-pairs training.

        A share ``hard_share`` of the patterns come as near-duplicate couples (both members), the
        rest at random; all crops of one pattern share a quarter turn, so same-pattern pairs are
        aligned as at run time after the best turn is found; a couple shares its turn with
        probability ``hard_aligned`` (the turn the run-time max over turns finds hardest).
        Labels are unique per (deck, pattern). A share ``synthetic_share`` of the couples is a
        pattern and a :func:`local_edit` of it (made afresh, crops not pooled): near-duplicates of
        every kind, anywhere on the face, beyond the decks' own; a share ``near_colour_share`` of
        those is a :func:`near_colour_edit` instead (one element in a nearby colour). A share
        ``mirror_share`` of the couples is drawn first as a face and its whole-face mirror (kept only
        when the mirror shows at every turn), on top of the mirrors among the edits and the decks' own.
        """
        xs, labels = [], []
        hard_pairs: list[tuple[int, int]] = []
        chosen: list[tuple[int, str]] = []
        seen: dict[tuple[int, str], int] = {}

        def add(di: int, pattern: str) -> int:
            key = (di, pattern)
            if key not in seen:
                seen[key] = len(chosen)
                chosen.append(key)
            return seen[key]

        edits: dict[int, np.ndarray] = {}
        while len(chosen) < n_patterns:
            di = int(self.rng.integers(len(self.caches)))
            deck = self.caches[di].deck
            room = len(chosen) <= n_patterns - 2
            if mirror_share > 0 and room and self.rng.random() < hard_share * mirror_share:
                base = deck.patterns[self.rng.integers(len(deck.patterns))]
                face = self.caches[di].face(base)
                mirrored = np.ascontiguousarray(face[:, ::-1])
                if shows_a_difference(face, mirrored):
                    i = add(di, base)
                    j = add(di, f"{base}~mirror{len(chosen)}")
                    edits[j] = mirrored
                    hard_pairs.append((i, j))
                continue
            if synthetic_share > 0 and room and self.rng.random() < hard_share * synthetic_share:
                base = deck.patterns[self.rng.integers(len(deck.patterns))]
                other = deck.patterns[self.rng.integers(len(deck.patterns))]
                face = self.caches[di].face(base)
                if near_colour_share > 0 and self.rng.random() < near_colour_share:
                    edited = near_colour_edit(face, self.rng)
                else:
                    edited = local_edit(face, self.caches[di].face(other), self.rng)
                if edited is not None:
                    i = add(di, base)
                    j = add(di, f"{base}~edit{len(chosen)}")
                    edits[j] = edited
                    hard_pairs.append((i, j))
                continue
            if deck.near_duplicates and self.rng.random() < hard_share and room:
                a, b, _ = deck.near_duplicates[self.rng.integers(len(deck.near_duplicates))]
                hard_pairs.append((add(di, a), add(di, b)))
            else:
                add(di, deck.patterns[self.rng.integers(len(deck.patterns))])
        turn = [int(self.rng.integers(4)) for _ in chosen]
        for i, j in hard_pairs:
            if self.rng.random() < hard_aligned:
                turn[j] = turn[i]
        for label, (di, pattern) in enumerate(chosen):
            face = edits[label] if label in edits else self.caches[di].face(pattern)
            square = is_square(face)
            k = turn[label]
            for _ in range(per_pattern):
                x = self._input(face) if label in edits else self._pooled_input(di, pattern)
                xs.append(self._pick_turn(x, square, k))
                labels.append(label)
        hard = np.zeros((len(chosen), len(chosen)), bool)
        for i, j in hard_pairs:
            hard[i, j] = hard[j, i] = True
        return np.stack(xs), np.asarray(labels), hard

    def fixed_set(self, n: int) -> list[tuple[np.ndarray, np.ndarray, float, str, bool]]:
        """``n`` pairs for evaluation (b at a random turn; the judge tries every turn)."""
        return [self.pair() for _ in range(n)]
