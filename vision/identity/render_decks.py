"""The renderer's decks in the shape the training scripts and the bench take (models.training.decks).

Which decks and styles train, calibrate and test the models is fixed here, so the bench always
tests on Twin It deck seeds and styles that training never used.
"""

from __future__ import annotations

import cv2
import numpy as np

from models.training.augment import AugmentConfig, camera_crop
from vision.render.faces import N_STYLES, deck_identities, render_face, twinit_deck

FACE_PX_PER_MM = 4.0
"""Faces are rendered at this scale (crops are smaller still)."""

TWINIT_TRAIN_SEEDS = tuple(range(1, 7))
TWINIT_VAL_SEEDS = (200, 201)
TWINIT_BENCH_SEEDS = (1000, 1001, 1002)
TWINIT_TRAIN_STYLES = tuple(range(N_STYLES["twinit"] - 1))
TWINIT_BENCH_STYLES = (N_STYLES["twinit"] - 1,)
NUMBER_TRAIN_STYLES = {d: tuple(range(N_STYLES[d] - 1)) for d in ("themind", "trio", "lineit")}
NUMBER_BENCH_STYLES = {d: (N_STYLES[d] - 1,) for d in ("themind", "trio", "lineit")}


class RenderedTwinItDeck:
    """A Twin It deck of the renderer (one seed, one style) as a training PatternDeck."""

    def __init__(self, seed: int, style: int) -> None:
        deck = twinit_deck(seed)
        self.seed, self.style = seed, style
        self.name = f"twinit-s{seed}-style{style}"
        self.patterns = list(deck.patterns)
        self.faces = list(deck.faces)
        self.near_duplicates = list(deck.near_duplicates)

    def image(self, pattern: str) -> np.ndarray:
        return render_face(pattern, self.style, FACE_PX_PER_MM)


class RenderedNumberDeck:
    """A number deck of the renderer in one style as a training NumberDeck."""

    def __init__(self, deck: str, style: int) -> None:
        self.deck, self.style = deck, style
        self.name = f"{deck}-style{style}"
        self.identities = sorted(set(deck_identities(deck)))

    def image(self, identity: str) -> np.ndarray:
        return render_face(identity, self.style, FACE_PX_PER_MM)


def twinit_decks(seeds: tuple[int, ...], styles: tuple[int, ...]) -> list[RenderedTwinItDeck]:
    return [RenderedTwinItDeck(seed, style) for seed in seeds for style in styles]


def number_decks(styles: dict[str, tuple[int, ...]]) -> list[RenderedNumberDeck]:
    return [RenderedNumberDeck(deck, style) for deck, ss in styles.items() for style in ss]


def camera_faces(
    deck: RenderedTwinItDeck, rng: np.random.Generator, aug: AugmentConfig, off: frozenset[str] = frozenset()
) -> tuple[list[np.ndarray], list[int]]:
    """Each face of the deck as its own camera crop (``models.training.augment.camera_crop`` of the face
    shrunk to 220 px, ``off`` its effects left out) at a random quarter turn, and each crop's turn: the
    identity bench's render crops, drawn in its order from its generator."""
    crops, turns = [], []
    for ident in deck.faces:
        crop = camera_crop(shrink(deck.image(ident), 220), rng, aug, off)
        turns.append(int(rng.integers(4)))
        crops.append(np.ascontiguousarray(np.rot90(crop, turns[-1])))
    return crops, turns


def shrink(img: np.ndarray, long_side: int) -> np.ndarray:
    s = long_side / max(img.shape[:2])
    return cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else img
