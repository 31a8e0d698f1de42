"""Camera crops of number cards at any quarter turn, with their number and colour classes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from models.labels import COLOUR_CLASSES, parse_identity
from models.preprocess import to_tensor
from models.training.augment import DEFAULT_AUG, AugmentConfig, camera_crop
from models.training.decks import NumberDeck

FACE_LONG_SIDE = 240

IGNORE = -100
"""Colour target of a crop whose colour says nothing (cross entropy ignores it)."""

_ROTATIONS = (None, cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE)


def _shrink(img: np.ndarray) -> np.ndarray:
    s = FACE_LONG_SIDE / max(img.shape[:2])
    return cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else img


class NumberSampler:
    """Draws (input, number class, colour class, deck name) from a list of decks."""

    def __init__(
        self,
        decks: Sequence[NumberDeck],
        width: int,
        height: int,
        seed: int,
        aug: AugmentConfig = DEFAULT_AUG,
        fresh: float = 1.0,
        pool_size: int = 4,
        colour_drop: float = 0.0,
        bet_share: float = 0.0,
        small_share: float = 0.0,
        small_px: int = 80,
    ) -> None:
        if not decks:
            raise ValueError("NumberSampler needs at least one deck")
        self.decks = list(decks)
        self.width, self.height = width, height
        self.rng = np.random.default_rng(seed)
        self.aug = aug
        self._faces: dict[tuple[int, str], np.ndarray] = {}
        self.fresh = fresh
        self.colour_drop = colour_drop
        self.pool_size = pool_size
        self._pools: dict[tuple[int, str], list[np.ndarray]] = {}
        self.bet_share = bet_share
        """Share of a Line-it deck's draws that are bet cards (0: every identity equally often). The
        3 bets among 103 faces would otherwise be seen too rarely to be read as surely as numbers."""
        self.small_share = small_share
        """Share of fresh crops drawn no larger than ``small_px`` on their short side (the rest over
        the augmentation's whole size range): small crops are where the views disagree most."""
        self.small_aug = replace(aug, max_px=max(aug.min_px, min(aug.max_px, small_px)))

    def face(self, i: int, identity: str) -> np.ndarray:
        key = (i, identity)
        img = self._faces.get(key)
        if img is None:
            img = _shrink(self.decks[i].image(identity))
            self._faces[key] = img
        return img

    def _fresh_crop(self, i: int, identity: str) -> np.ndarray:
        """A new camera crop; a varied deck (new style on every draw) draws a new face for it."""
        deck = self.decks[i]
        face = _shrink(deck.image(identity)) if getattr(deck, "varied", False) else self.face(i, identity)
        small = self.small_share > 0 and self.rng.random() < self.small_share
        return camera_crop(face, self.rng, self.small_aug if small else self.aug)

    def _draw_identity(self, deck: NumberDeck) -> str:
        ids = deck.identities
        if self.bet_share > 0 and deck.deck == "lineit":
            bets = [i for i in ids if ":bet:" in i]
            if bets and len(bets) < len(ids):
                ids = bets if self.rng.random() < self.bet_share else [i for i in ids if ":bet:" not in i]
        return ids[int(self.rng.integers(len(ids)))]

    def sample(
        self, deck_index: int | None = None, identity: str | None = None
    ) -> tuple[np.ndarray, int, int, str]:
        """(input, number class, colour class, deck name) of one crop."""
        crop, number_cls, colour_cls, name = self.sample_crop(deck_index, identity)
        return to_tensor(crop, self.width, self.height), number_cls, colour_cls, name

    def sample_crop(
        self, deck_index: int | None = None, identity: str | None = None
    ) -> tuple[np.ndarray, int, int, str]:
        """(BGR crop at a random quarter turn, number class, colour class, deck name)."""
        i = int(self.rng.integers(len(self.decks))) if deck_index is None else deck_index
        deck = self.decks[i]
        ident = self._draw_identity(deck) if identity is None else identity
        name, number_cls, colour = parse_identity(ident)
        pool = self._pools.setdefault((i, ident), [])
        if len(pool) < self.pool_size and (not pool or self.rng.random() < self.fresh):
            crop = self._fresh_crop(i, ident)
            pool.append(crop)
        elif self.rng.random() < self.fresh:
            crop = self._fresh_crop(i, ident)
            pool[int(self.rng.integers(len(pool)))] = crop
        else:
            crop = pool[int(self.rng.integers(len(pool)))]
        rot = _ROTATIONS[int(self.rng.integers(4))]
        if rot is not None:
            crop = cv2.rotate(crop, rot)
        colour_cls = COLOUR_CLASSES.index(colour) if getattr(deck, "colour_known", True) else IGNORE
        if self.colour_drop and self.rng.random() < self.colour_drop:
            # Colours scrambled (grey or channels swapped): the number must be read from shapes alone.
            if self.rng.random() < 0.5:
                crop = cv2.cvtColor(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
            else:
                crop = np.ascontiguousarray(crop[:, :, self.rng.permutation(3)])
            colour_cls = IGNORE
        return crop, number_cls, colour_cls, name

    def batch(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        items = [self.sample() for _ in range(n)]
        return (
            np.stack([it[0] for it in items]),
            np.asarray([it[1] for it in items], np.int64),
            np.asarray([it[2] for it in items], np.int64),
        )
