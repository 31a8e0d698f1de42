"""Card finding: quads of every card in a frame, subpixel corners, rectified crops.

>>> from vision.cards import find_cards, rectify
>>> dets = find_cards(frame)            # doctest: +SKIP
>>> crops = [rectify(frame, d.quad) for d in dets]  # doctest: +SKIP
"""

from vision.cards.baseline import find_cards_baseline
from vision.cards.finder import CardDetection, FinderConfig, find_cards
from vision.cards.geometry import order_quad, quad_area, quad_iou
from vision.cards.rectify import PORTRAIT_SIZE, SQUARE_SIZE, canonical_size, rectify

__all__ = [
    "PORTRAIT_SIZE",
    "SQUARE_SIZE",
    "CardDetection",
    "FinderConfig",
    "canonical_size",
    "find_cards",
    "find_cards_baseline",
    "order_quad",
    "quad_area",
    "quad_iou",
    "rectify",
]
