"""A rendered deck laid out under the camera in batches, cut out by the card finder: enrolment's
end-to-end test bench (the same path a real deck takes, with known truth).

As a player would, every face of the deck is laid out: a face the layout had no room for goes into
the next batch, and a card the finder did not cut out, or cut out at another shape than the deck's
cards (a square Twin It card as an oblong: its outline took in a neighbour's edge), is laid out
again (at most :data:`TRIES` times in all, each time on another rendered table) before it is
reported missing."""

from __future__ import annotations

import dataclasses
import logging

import numpy as np

from models.preprocess import is_square
from vision.cards.finder import find_cards
from vision.cards.geometry import quad_iou
from vision.cards.rectify import rectify
from vision.render.faces import CARD_SIZE_MM, deck_identities
from vision.render.scene import render
from vision.render.scene_layout import random_scene

log = logging.getLogger(__name__)

BATCH = 9
MIN_IOU = 0.8
TRIES = 6
"""Times a card the finder missed is laid out before it is reported missing."""


@dataclasses.dataclass(frozen=True)
class RenderedEnrolment:
    crops: dict[str, np.ndarray]
    """card id -> the finder's rectified crop."""
    truth: dict[str, str]
    """card id -> identity of the card (cut out or not)."""
    missing: list[str]
    """card ids the finder did not cut out (at the deck's shape) in any of their :data:`TRIES` layouts."""


def card_id(k: int) -> str:
    """The id of the deck's ``k``-th face (one physical card)."""
    return f"card{k:03d}"


def rendered_deck_crops(deck: str, seed: int, limit: int | None = None, style: int = 0) -> RenderedEnrolment:
    """Lay the deck (Twin It deck seed ``seed``) out 9 cards at a time on rendered tables until every
    face is cut out or was missed :data:`TRIES` times."""
    faces = deck_identities(deck, seed if deck == "twinit" else 0)
    if limit is not None:
        faces = faces[:limit]
    truth = {card_id(k): f for k, f in enumerate(faces)}
    width, height = CARD_SIZE_MM[deck]
    square = width == height
    crops: dict[str, np.ndarray] = {}
    missing: list[str] = []
    queue = list(range(len(faces)))
    tries = [0] * len(faces)
    b = 0
    while queue:
        batch, queue = queue[:BATCH], queue[BATCH:]
        spec = random_scene(
            seed * 1000 + b, deck=deck, layout="rows", n_cards=len(batch), hands=0,
            deck_seed=seed if deck == "twinit" else 0, styles=[style],
        )  # fmt: skip
        b += 1
        laid = batch[: len(spec.cards)]
        queue = batch[len(laid) :] + queue  # no room on this table: first in the next batch
        if not laid:
            raise RuntimeError(f"rendered enrolment of {deck}: a table with room for no card (scene {b - 1})")
        cards = [dataclasses.replace(c, identity=faces[k]) for c, k in zip(spec.cards, laid, strict=False)]
        img, frame = render(dataclasses.replace(spec, cards=cards))
        dets = find_cards(img)
        for k, ct in zip(laid, frame.cards, strict=True):
            tries[k] += 1
            best, best_iou = None, 0.0
            for d in dets:
                iou = quad_iou(np.asarray(d.quad, np.float32), np.asarray(ct.quad, np.float32))
                if iou > best_iou:
                    best, best_iou = d, iou
            crop = None
            if best is not None and best_iou >= MIN_IOU:
                crop = rectify(img, np.asarray(best.quad, np.float32))
            if crop is not None and is_square(crop) == square:
                crops[card_id(k)] = crop
            elif tries[k] < TRIES:
                queue.append(k)
            else:
                missing.append(card_id(k))
    log.info("rendered enrolment of %s: %d cards, %d cut out, %d tables", deck, len(truth), len(crops), b)
    return RenderedEnrolment(crops, truth, sorted(missing))
