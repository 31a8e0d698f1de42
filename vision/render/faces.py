"""Generated card faces for the four card games (no copyrighted art).

Identities are strings: ``"twinit:p042"`` (deck seed 0; ``"twinit:s3p042"`` for deck seed 3),
``"themind:57"``, ``"trio:7"``, ``"lineit:57:heart"`` and ``"lineit:bet:+3"``.

>>> img = render_face("themind:57", style=1)   # BGR uint8, 56 x 87 mm at 6 px/mm
>>> img.shape
(522, 336, 3)

Number cards carry corner indices like real cards (top-left upright, bottom-right turned), and
numbers that read as another number upside down (6, 9, 68, ...) are underlined, so a reader can
tell the card's orientation. Each deck has several styles (fonts, strokes, tints, frames) so
that held-out styles test generalisation.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.render.faces_draw import (
    ambiguous_upside_down,
    draw_shape,
    put_text_fit,
    rotated_180_region,
    rounded_rect_mask,
)
from vision.render.faces_twinit import TWINIT_STYLES, TwinItDeck, parse_twinit, render_twinit, twinit_deck

__all__ = [
    "CARD_SIZE_MM",
    "CORNER_RADIUS_MM",
    "DECKS",
    "LINEIT_COLOURS",
    "N_STYLES",
    "TRIO_COLOURS",
    "TwinItDeck",
    "card_size_px",
    "deck_identities",
    "deck_of",
    "render_back",
    "render_face",
    "trio_links",
    "twinit_deck",
]

DECKS: tuple[str, ...] = ("twinit", "themind", "trio", "lineit")
CARD_SIZE_MM: dict[str, tuple[float, float]] = {
    "twinit": (50.0, 50.0),
    "themind": (56.0, 87.0),
    "trio": (65.0, 100.0),
    "lineit": (56.0, 87.0),
}
"""(width, height) in mm."""
CORNER_RADIUS_MM: dict[str, float] = {"twinit": 3.0, "themind": 3.5, "trio": 4.0, "lineit": 3.5}
N_STYLES: dict[str, int] = {"twinit": len(TWINIT_STYLES), "themind": 4, "trio": 4, "lineit": 4}

LINEIT_COLOURS: tuple[str, ...] = ("heart", "leaf", "diamond", "star")
"""Line-it colours; number n has colour ``LINEIT_COLOURS[(n - 1) % 4]`` (the referee's default)."""
LINEIT_BGR: dict[str, tuple[int, int, int]] = {
    "heart": (50, 40, 205),
    "leaf": (60, 150, 40),
    "diamond": (190, 110, 20),
    "star": (20, 160, 235),
}
LINEIT_BETS: tuple[tuple[int, int], ...] = ((3, 2), (4, 2), (5, 2))
TRIO_COLOURS: tuple[tuple[int, int, int], ...] = (
    (60, 50, 200),  # 1 red
    (30, 130, 245),  # 2 orange
    (20, 190, 225),  # 3 yellow
    (50, 170, 90),  # 4 green
    (120, 120, 10),  # 5 teal
    (210, 160, 50),  # 6 light blue
    (150, 60, 30),  # 7 blue
    (150, 50, 130),  # 8 purple
    (160, 90, 230),  # 9 pink
    (40, 80, 130),  # 10 brown
    (70, 70, 70),  # 11 grey
    (90, 30, 110),  # 12 wine
)
"""BGR colour of each Trio value 1..12."""

_FONTS = (
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
)
_STROKE = (0.11, 0.08, 0.14, 0.09)


def deck_of(identity: str) -> str:
    """The deck name of an identity, or ValueError."""
    deck = identity.partition(":")[0]
    if deck not in DECKS:
        raise ValueError(f"card identity {identity!r}: expected '<deck>:...' with deck in {DECKS}")
    return deck


def trio_links(value: int) -> tuple[int, ...]:
    """Trio values linked to ``value`` (sum 7 or difference 7)."""
    return tuple(w for w in range(1, 13) if w != value and (value + w == 7 or abs(value - w) == 7))


def deck_identities(deck: str, seed: int = 0) -> list[str]:
    """Every face of the deck, in deck order (repeated faces repeated)."""
    if deck == "twinit":
        return list(twinit_deck(seed).faces)
    if deck == "themind":
        return [f"themind:{n}" for n in range(1, 101)]
    if deck == "trio":
        return [f"trio:{v}" for v in range(1, 13) for _ in range(3)]
    if deck == "lineit":
        numbers = [f"lineit:{n}:{LINEIT_COLOURS[(n - 1) % 4]}" for n in range(1, 101)]
        return numbers + [f"lineit:bet:+{v}" for v, k in LINEIT_BETS for _ in range(k)]
    raise ValueError(f"deck {deck!r}: expected one of {DECKS}")


def card_size_px(deck: str, px_per_mm: float) -> tuple[int, int]:
    w, h = CARD_SIZE_MM[deck]
    return round(w * px_per_mm), round(h * px_per_mm)


def _parse_number(identity: str) -> tuple[str, int, str]:
    """(deck, number, colour or 'bet') of a number-deck identity; ValueError if malformed."""
    deck, _, rest = identity.partition(":")
    try:
        if deck == "themind":
            n = int(rest)
            if 1 <= n <= 100 and rest == str(n):
                return deck, n, ""
        elif deck == "trio":
            n = int(rest)
            if 1 <= n <= 12 and rest == str(n):
                return deck, n, ""
        elif deck == "lineit":
            a, _, b = rest.partition(":")
            if a == "bet" and b in ("+3", "+4", "+5"):
                return deck, int(b[1:]), "bet"
            n = int(a)
            if 1 <= n <= 100 and a == str(n) and b == LINEIT_COLOURS[(n - 1) % 4]:
                return deck, n, b
    except ValueError:
        pass
    examples = {
        "themind": "'themind:57'",
        "trio": "'trio:7'",
        "lineit": "'lineit:57:heart' or 'lineit:bet:+3'",
    }
    raise ValueError(f"card identity {identity!r}: expected {examples.get(deck, 'a known deck')}")


def _check_style(deck: str, style: int) -> None:
    if not 0 <= style < N_STYLES[deck]:
        raise ValueError(f"style {style} for deck {deck!r}: expected 0..{N_STYLES[deck] - 1}")


def _vertical_gradient(h: int, w: int, top: tuple[int, int, int], bottom: tuple[int, int, int]) -> np.ndarray:
    t = np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None, None]
    col = np.array(top, np.float32) * (1 - t) + np.array(bottom, np.float32) * t
    return np.broadcast_to(col, (h, w, 3)).astype(np.uint8)


def _corner_indices(img: np.ndarray, text: str, ppm: float, colour, font, stroke, underline: bool) -> None:
    """Small index at top-left and, turned, at bottom-right."""

    def draw(im: np.ndarray) -> None:
        put_text_fit(im, text, 8.5 * ppm, 8.5 * ppm, 5.2 * ppm, colour, font, stroke, 11 * ppm, underline)

    draw(img)
    rotated_180_region(img, draw)


def _render_themind(n: int, style: int, w: int, h: int, ppm: float) -> np.ndarray:
    bgs = (((50, 70, 215), (30, 40, 160)), ((120, 60, 20), (70, 30, 10)), ((225, 240, 248), (200, 225, 240)))
    bgs += (((40, 140, 245), (20, 100, 220)),)
    inks = ((250, 250, 250), (240, 240, 240), (40, 30, 160), (25, 25, 25))
    img = _vertical_gradient(h, w, *bgs[style])
    img = np.ascontiguousarray(img)
    ink = inks[style]
    font, stroke = _FONTS[style], _STROKE[style]
    if style == 0:
        cv2.circle(img, (w // 2, h // 2), round(w * 0.42), (70, 95, 235), max(2, round(ppm)), cv2.LINE_AA)
    elif style == 1:
        for k in range(-h, w + h, round(6 * ppm)):
            cv2.line(img, (k, 0), (k + h, h), (100, 52, 18), max(1, round(ppm * 0.6)), cv2.LINE_AA)
    elif style == 2:
        m = round(3 * ppm)
        cv2.rectangle(img, (m, m), (w - 1 - m, h - 1 - m), ink, max(1, round(0.5 * ppm)), cv2.LINE_AA)
    else:
        cv2.ellipse(img, (w // 2, h // 2), (round(w * 0.4), round(h * 0.3)), 0, 0, 360, (30, 90, 200), -1)
    under = ambiguous_upside_down(n)
    put_text_fit(img, str(n), w / 2, h / 2, 24 * ppm, ink, font, stroke, w - 10 * ppm, under)
    _corner_indices(img, str(n), ppm, ink, font, stroke, under)
    return img


def _render_trio(n: int, style: int, w: int, h: int, ppm: float) -> np.ndarray:
    bgs = ((250, 250, 250), (225, 240, 245), (235, 235, 228), (245, 248, 240))
    colour = TRIO_COLOURS[n - 1]
    img = np.empty((h, w, 3), np.uint8)
    img[:] = bgs[style]
    font, stroke = _FONTS[style], _STROKE[style]
    if style in (0, 2):
        m = round(2.5 * ppm)
        cv2.rectangle(img, (m, m), (w - 1 - m, h - 1 - m), colour, max(2, round(ppm)), cv2.LINE_AA)
    if style == 1:
        img[: round(16 * ppm)] = colour
    r = round(24 * ppm)
    if style == 3:
        cv2.circle(img, (w // 2, h // 2), r, colour, -1, cv2.LINE_AA)
        ink = (250, 250, 250)
    else:
        cv2.circle(img, (w // 2, h // 2), r, colour, max(2, round(1.2 * ppm)), cv2.LINE_AA)
        ink = colour
    under = ambiguous_upside_down(n)
    put_text_fit(img, str(n), w / 2, h / 2, 22 * ppm, ink, font, stroke, 36 * ppm, under)
    corner_ink = (250, 250, 250) if style == 1 else colour

    for cx in (9 * ppm, w - 9 * ppm):
        put_text_fit(img, str(n), cx, 8.5 * ppm, 6 * ppm, corner_ink, font, stroke, 12 * ppm, under)
    links = trio_links(n)
    for i, link in enumerate(links[:2] if links else ()):
        cx = 10 * ppm if i == 0 else w - 10 * ppm
        cy = h - 10 * ppm
        cv2.circle(
            img, (round(cx), round(cy)), round(5.5 * ppm), (60, 60, 60), max(1, round(0.4 * ppm)), cv2.LINE_AA
        )
        put_text_fit(img, str(link), cx, cy, 3.6 * ppm, (50, 50, 50), font, stroke, 8 * ppm)
    if n == 7:
        draw_shape(img, "star", w / 2, h - 10 * ppm, 5 * ppm, 0, colour)
    return img


def _render_lineit(n: int, kind: str, style: int, w: int, h: int, ppm: float) -> np.ndarray:
    bgs = ((248, 248, 248), (220, 238, 246), (238, 238, 238), (40, 40, 40))
    font, stroke = _FONTS[style], _STROKE[style]
    img = np.empty((h, w, 3), np.uint8)
    img[:] = bgs[style]
    if kind == "bet":
        gold = (40, 175, 225)
        img[:] = (30, 30, 30) if style != 3 else (40, 120, 200)
        m = round(3 * ppm)
        cv2.rectangle(img, (m, m), (w - 1 - m, h - 1 - m), gold, max(2, round(ppm)), cv2.LINE_AA)
        cv2.circle(img, (w // 2, h // 2), round(20 * ppm), gold, -1, cv2.LINE_AA)
        put_text_fit(img, f"+{n}", w / 2, h / 2, 16 * ppm, (25, 25, 25), font, stroke, 34 * ppm)
        _corner_indices(img, f"+{n}", ppm, gold, font, stroke, False)
        return img
    colour = LINEIT_BGR[kind]
    light = tuple(int(c + (255 - c) * 0.75) for c in colour)
    if style == 3:
        light = tuple(int(c * 0.45) for c in colour)
    draw_shape(img, kind, w / 2, h / 2, 22 * ppm, 0, light)
    if style == 1:
        m = round(2.5 * ppm)
        cv2.rectangle(img, (m, m), (w - 1 - m, h - 1 - m), colour, max(2, round(ppm)), cv2.LINE_AA)
    ink = colour if style != 3 else tuple(min(255, int(c * 1.2 + 40)) for c in colour)
    under = ambiguous_upside_down(n)
    put_text_fit(img, str(n), w / 2, h / 2, 20 * ppm, ink, font, stroke, w - 12 * ppm, under)

    def corner(im: np.ndarray) -> None:
        put_text_fit(im, str(n), 8.5 * ppm, 7.5 * ppm, 5 * ppm, ink, font, stroke, 11 * ppm, under)
        draw_shape(im, kind, 8.5 * ppm, 15.5 * ppm, 3.2 * ppm, 0, colour)

    corner(img)
    rotated_180_region(img, corner)
    return img


@lru_cache(maxsize=2048)
def _render_face_cached(identity: str, style: int, px_per_mm: float) -> np.ndarray:
    deck = deck_of(identity)
    _check_style(deck, style)
    w, h = card_size_px(deck, px_per_mm)
    if deck == "twinit":
        img = render_twinit(identity, style, w, h, px_per_mm)
    else:
        _, n, colour = _parse_number(identity)
        if deck == "themind":
            img = _render_themind(n, style, w, h, px_per_mm)
        elif deck == "trio":
            img = _render_trio(n, style, w, h, px_per_mm)
        else:
            img = _render_lineit(n, colour, style, w, h, px_per_mm)
    # outside the rounded corners: the border colour (the middle of the left edge)
    outside = rounded_rect_mask(w, h, CORNER_RADIUS_MM[deck] * px_per_mm) < 128
    img[outside] = img[h // 2, 0]
    img.setflags(write=False)
    return img


def render_face(identity: str, style: int = 0, px_per_mm: float = 6.0) -> np.ndarray:
    """The card face upright, BGR uint8, exactly ``CARD_SIZE_MM`` x ``px_per_mm`` in size.

    Corners outside the card's rounded rectangle keep the border colour; the scene masks them
    (:data:`CORNER_RADIUS_MM`). Deterministic; raises ValueError for an unknown identity or style.
    """
    if px_per_mm <= 0.5 or px_per_mm > 40:
        raise ValueError(f"px_per_mm {px_per_mm}: expected a value in (0.5, 40]")
    return _render_face_cached(identity, int(style), float(px_per_mm)).copy()


def render_back(deck: str, style: int = 0, px_per_mm: float = 6.0) -> np.ndarray:
    """The back of a card of ``deck`` (the same for every card of the deck and style)."""
    if deck not in DECKS:
        raise ValueError(f"deck {deck!r}: expected one of {DECKS}")
    w, h = card_size_px(deck, px_per_mm)
    tints = ((90, 40, 30), (30, 30, 110), (40, 90, 40), (60, 60, 60))
    img = np.empty((h, w, 3), np.uint8)
    img[:] = tints[style % len(tints)]
    step = max(4, round(4 * px_per_mm))
    light = tuple(min(255, c + 60) for c in tints[style % len(tints)])
    for k in range(-h, w + h, step):
        cv2.line(img, (k, 0), (k + h, h), light, max(1, round(0.5 * px_per_mm)), cv2.LINE_AA)
        cv2.line(img, (k + h, 0), (k, h), light, max(1, round(0.5 * px_per_mm)), cv2.LINE_AA)
    m = round(3 * px_per_mm)
    cv2.rectangle(img, (m, m), (w - 1 - m, h - 1 - m), (235, 235, 235), max(2, round(px_per_mm)), cv2.LINE_AA)
    return img


def twinit_seed_of(identity: str) -> int:
    """The deck seed of a Twin It identity."""
    return parse_twinit(identity)[0]
