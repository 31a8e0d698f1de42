"""A rendered deck laid out under the camera in batches, cut out by the card finder: enrolment's
end-to-end test bench (the same path a real deck takes, with known truth)."""

from __future__ import annotations

import dataclasses
import logging

import numpy as np

from vision.cards.finder import find_cards
from vision.cards.geometry import quad_iou
from vision.cards.rectify import rectify
from vision.render.faces import deck_identities
from vision.render.scene import render
from vision.render.scene_layout import random_scene

log = logging.getLogger(__name__)

BATCH = 9
MIN_IOU = 0.8


@dataclasses.dataclass(frozen=True)
class RenderedEnrolment:
    crops: dict[str, np.ndarray]
    """card id -> the finder's rectified crop."""
    truth: dict[str, str]
    """card id -> identity laid out at that place (found or not)."""
    missing: list[str]
    """card ids the finder did not cut out."""


def rendered_deck_crops(deck: str, seed: int, limit: int | None = None, style: int = 0) -> RenderedEnrolment:
    """Lay the deck (Twin It deck seed ``seed``) out 9 cards at a time on rendered tables."""
    faces = deck_identities(deck, seed if deck == "twinit" else 0)
    if limit is not None:
        faces = faces[:limit]
    crops: dict[str, np.ndarray] = {}
    truth: dict[str, str] = {}
    missing: list[str] = []
    for b in range(0, len(faces), BATCH):
        batch = faces[b : b + BATCH]
        spec = random_scene(
            seed * 1000 + b // BATCH, deck=deck, layout="rows", n_cards=len(batch), hands=0,
            deck_seed=seed if deck == "twinit" else 0, styles=[style],
        )  # fmt: skip
        cards = [dataclasses.replace(c, identity=i) for c, i in zip(spec.cards, batch, strict=False)]
        spec = dataclasses.replace(spec, cards=cards)
        img, frame = render(spec)
        dets = find_cards(img)
        for k, ct in enumerate(frame.cards):
            cid = f"b{b // BATCH:02d}c{k}"
            truth[cid] = ct.identity
            best, best_iou = None, 0.0
            for d in dets:
                iou = quad_iou(np.asarray(d.quad, np.float32), np.asarray(ct.quad, np.float32))
                if iou > best_iou:
                    best, best_iou = d, iou
            if best is None or best_iou < MIN_IOU:
                missing.append(cid)
                continue
            crops[cid] = rectify(img, np.asarray(best.quad, np.float32))
    log.info("rendered enrolment of %s: %d cards, %d cut out", deck, len(truth), len(crops))
    return RenderedEnrolment(crops, truth, missing)
