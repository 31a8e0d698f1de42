"""What the card finder's false positives on rendered frames lie on (the cards bench's diagnosis).

A false positive is a found quad that matches no card at the bench's IoU and is not excused (a
quad over a card less than 80 % visible is neither right nor wrong). Each is put in one class, the
first that holds:

- ``duplicate``: a counted card another quad matched is under it at the bench's IoU;
- ``off``: a counted card is under it at IoU 0.6 or more (the card's own quad, fitted off: it costs
  a card of recall too);
- ``hand``: a hand or arm covers 30 % of it or more;
- ``edge``: it touches the image border over a card (IoU 0.3 or more) the border cuts;
- ``merged``: two or more cards each show over 15 % of it;
- ``inside_card``: one card shows over it (85 % of it or more) and it is under 0.8 of that card's
  area (a print, a printed frame, the part of a card a hand leaves in sight);
- ``table``: 60 % of it or more shows no card (a cloth's check, a prop, glare, wood grain);
- ``other``: the rest (one card and the table beside it, a card beneath another).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import cv2
import numpy as np

from vision.cards.geometry import quad_iou
from vision.cards.scoring import match_quads

CLASSES = ("duplicate", "off", "hand", "edge", "merged", "inside_card", "table", "other")


def _poly(shape: tuple[int, int], quad: np.ndarray) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(np.asarray(quad) * 4).astype(np.int32), 1, cv2.LINE_8, 2)
    return mask.astype(bool)


def false_positive_classes(found: list[np.ndarray], truth: Any, iou_threshold: float = 0.9) -> Counter[str]:
    """The classes (:data:`CLASSES`) of the false positives among ``found`` quads in a rendered
    frame with truth ``truth`` (a :class:`vision.render.scene_types.FrameTruth`)."""
    h, w = truth.hand_mask.shape
    cards = truth.cards
    tq = [c.quad for c in cards]
    counted = [c.visible_fraction >= 0.8 for c in cards]
    _, matched = match_quads(found, tq, counted, iou_threshold)
    used = {i for i, _, _ in matched}
    out: Counter[str] = Counter()
    rest = [i for i in range(len(found)) if i not in used]
    if not rest:
        return out
    # which card shows at each pixel (cards drawn bottom to top), -1 where none does
    shows = np.full((h, w), -1, np.int32)
    areas = []
    for k in sorted(range(len(cards)), key=lambda k: cards[k].z):
        shows[_poly((h, w), cards[k].quad)] = k
    for c in cards:
        areas.append(max(1, int(_poly((h, w), c.quad).sum())))
    for i in rest:
        f = found[i]
        ious = [quad_iou(f, t) for t in tq]
        if any(not counted[j] and ious[j] > 0.5 for j in range(len(tq))):
            continue  # over a card mostly hidden: excused
        m = _poly((h, w), f)
        area = int(m.sum())
        if area == 0:
            out["other"] += 1
            continue
        j = int(np.argmax(ious)) if ious else -1
        best = ious[j] if ious else 0.0
        hand = float((m & truth.hand_mask).sum()) / area
        seen = Counter(shows[m & ~truth.hand_mask].tolist())
        table = seen.pop(-1, 0) / area
        big = [k for k, v in seen.items() if v / area > 0.15]
        on_border = bool(
            f[:, 0].min() < 3 or f[:, 1].min() < 3 or f[:, 0].max() > w - 4 or f[:, 1].max() > h - 4
        )
        if best >= iou_threshold and counted[j]:
            cls = "duplicate"
        elif best >= 0.6 and counted[j]:
            cls = "off"
        elif hand >= 0.3:
            cls = "hand"
        elif on_border and best >= 0.3:
            cls = "edge"
        elif len(big) >= 2:
            cls = "merged"
        elif len(big) == 1 and seen[big[0]] / area >= 0.85 and area < 0.8 * areas[big[0]]:
            cls = "inside_card"
        elif table >= 0.6:
            cls = "table"
        else:
            cls = "other"
        out[cls] += 1
    return out
