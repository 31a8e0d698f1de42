"""Number-card faces in random styles, drawn afresh on every call: the reader's training variety.

A :class:`VariedNumberDeck` draws each face with a style of its own (font, weight, italic,
outline, shadow, size and placement of the number; corner indices; paper, gradients, dark cards,
frames, stripes, discs and suit symbols behind the number). The colour target stays meaningful:
the card's key colour (Line-it's suit, Trio's colour of the number, hue and brightness jittered)
is what carries colour on the face -- as ink, as a filled shape under light ink, as a brightened
ink on a dark card, or as a frame and symbols -- and every other colour on the face is neutral or
far from the key hue. The Mind and the bets have no colour, so their faces take any colours.

The renderer's bench styles are never drawn here: the variety is made from independent random
choices, and the bench keeps its held-out decks.
"""

from __future__ import annotations

import colorsys

import cv2
import numpy as np

from models.labels import SUITS, TRIO_COLOUR_NAMES, deck_identities

FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
)
"""Hershey fonts that draw readable digits (the script fonts are left out)."""

SUIT_BGR: dict[str, tuple[int, int, int]] = {
    "heart": (50, 40, 205),
    "leaf": (60, 150, 40),
    "diamond": (190, 110, 20),
    "star": (20, 160, 235),
}
"""Line-it's suit colours (a red heart, a green leaf, a blue diamond, a yellow star)."""

TRIO_BGR: tuple[tuple[int, int, int], ...] = (
    (60, 50, 200),
    (30, 130, 245),
    (20, 190, 225),
    (50, 170, 90),
    (120, 120, 10),
    (210, 160, 50),
    (150, 60, 30),
    (150, 50, 130),
    (160, 90, 230),
    (40, 80, 130),
    (70, 70, 70),
    (90, 30, 110),
)
"""Trio's colour of each value 1..12, in the order of ``TRIO_COLOUR_NAMES``."""
assert len(TRIO_BGR) == len(TRIO_COLOUR_NAMES)

ZERO_STYLES = ("font", "plain", "dotted", "slashed")
"""How a face draws its zeros: the font's own glyph (slashed in OpenCV 5's font), a plain round O,
an O with a dot a little above its centre, or an O crossed by a long slash poking out of it (cards
differ; a network that knows one zero misreads the others)."""

HEAVY_SHARE = 0.3
"""Share of faces whose stroke weight is drawn from 0.15-0.24 of the digit height (else 0.05-0.17).
OpenCV 5's font draws a thickness of 1 px in its regular weight and any thicker in one bold weight,
so the weight decides only where the thickness would round to 1: small corner indices and Trio's
link numbers come out bold on heavy faces; the big number is bold either way."""

CARD_MM = {"themind": (56.0, 87.0), "trio": (65.0, 100.0), "lineit": (56.0, 87.0)}
PX_PER_MM = 2.6
"""Faces are drawn small (about 146 x 226 px): camera crops are smaller still."""


def _suit_outline(kind: str) -> np.ndarray:
    """The (N, 2) outline of a suit symbol in unit coordinates (radius about 1, y down)."""
    if kind == "heart":
        t = np.linspace(0, 2 * np.pi, 60)
        x = 16 * np.sin(t) ** 3
        y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
        return np.stack([x, y + 2.5], axis=1) / 16.5
    if kind == "leaf":
        t = np.linspace(0, np.pi, 30)
        right = np.stack([0.55 * np.sin(t), -np.cos(t)], axis=1)
        left = np.stack([-0.55 * np.sin(t[::-1]), -np.cos(t[::-1])], axis=1)
        stem = np.array([[0.06, 1.0], [0.06, 1.18], [-0.06, 1.18], [-0.06, 1.0]])
        return np.concatenate([right[:-1], stem, left[1:]]) * 0.88
    if kind == "diamond":
        return np.array([[0, -1.0], [0.65, 0], [0, 1.0], [-0.65, 0]], float)
    if kind == "star":
        t = -np.pi / 2 + np.arange(10) * np.pi / 5
        r = np.where(np.arange(10) % 2 == 0, 1.0, 0.42)
        return np.stack([r * np.cos(t), r * np.sin(t)], axis=1)
    raise ValueError(f"suit {kind!r}: expected one of {SUITS}")


def draw_suit(
    img: np.ndarray, kind: str, cx: float, cy: float, size: float, colour: tuple[int, int, int]
) -> None:
    """Fill a suit symbol of radius ``size`` around (cx, cy), anti-aliased, at sub-pixel precision."""
    pts = _suit_outline(kind) * size + (cx, cy)
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], colour, cv2.LINE_AA, 4)


def reads_otherwise_upside_down(number: int) -> bool:
    """True when the number reads as another number turned 180 degrees (6 / 9, 68 / 89, ...)."""
    turned_digit = {"0": "0", "1": "1", "6": "9", "8": "8", "9": "6"}
    s = str(number)
    if any(ch not in turned_digit for ch in s):
        return False
    turned = "".join(turned_digit[ch] for ch in reversed(s))
    return turned != s and not turned.startswith("0")


def _jitter_colour(bgr: tuple[int, int, int], rng: np.random.Generator, amount: float) -> np.ndarray:
    """The colour with hue, saturation and value moved a little (``amount`` 0..1)."""
    b, g, r = (c / 255.0 for c in bgr)
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    h = (h + rng.normal(0, 0.015 * amount)) % 1.0
    s = float(np.clip(s * np.exp(rng.normal(0, 0.15 * amount)), 0, 1))
    v = float(np.clip(v * np.exp(rng.normal(0, 0.15 * amount)), 0.05, 1))
    r, g, b = colorsys.hsv_to_rgb(h, s, v)
    return np.array([b * 255, g * 255, r * 255])


def _tuple(c: np.ndarray) -> tuple[int, int, int]:
    c = np.clip(np.round(c), 0, 255).astype(int)
    return int(c[0]), int(c[1]), int(c[2])


def _neutral(rng: np.random.Generator, low: int, high: int) -> np.ndarray:
    """A grey between ``low`` and ``high``, slightly tinted (paper, dark card stock)."""
    return np.clip(rng.uniform(low, high) + rng.normal(0, 5, size=3), 0, 255)


def _any_colour(rng: np.random.Generator) -> np.ndarray:
    return rng.uniform(0, 255, size=3)


def _text_size(text: str, font: int, height: float, thick: int) -> tuple[float, int, int]:
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = height / max(th, 1)
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    return scale, tw, th


def _put(
    img: np.ndarray,
    text: str,
    cx: float,
    cy: float,
    height: float,
    max_width: float,
    font: int,
    weight: float,
    ink: tuple[int, int, int],
    underline: bool,
    outline: tuple[int, int, int] | None = None,
    shadow: tuple[int, int, int] | None = None,
    zero: str = "font",
    keep_stroke: bool = False,
) -> None:
    """Text centred on (cx, cy), digits ``height`` px tall (narrowed to ``max_width``).

    ``zero``: how zeros are drawn (see :data:`ZERO_STYLES`). ``keep_stroke``: a number narrowed to
    ``max_width`` keeps the thickness of its nominal height instead of thinning with it (a thickness
    kept at 2 or more stays bold, see :data:`HEAVY_SHARE`)."""
    if zero != "font":
        text = text.replace("0", "O")
    thick = max(1, round(height * weight))
    scale, tw, th = _text_size(text, font, height, thick)
    if tw > max_width:
        scale *= max_width / tw
        if not keep_stroke:
            thick = max(1, round(thick * max_width / tw))
        (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    x, y = round(cx - tw / 2), round(cy + th / 2)
    uy = y + max(2, round(th * 0.2))
    dots = []
    if zero in ("dotted", "slashed"):
        for k, ch in enumerate(text):
            if ch == "O":
                x0 = cv2.getTextSize(text[:k], font, scale, thick)[0][0] if k else 0
                x1 = cv2.getTextSize(text[: k + 1], font, scale, thick)[0][0]
                dots.append(((x0 + x1) / 2, x1 - x0, th))
    strokes: list[tuple[tuple[int, int], tuple[int, int, int], int]] = []
    if shadow is not None:
        d = max(1, round(height * 0.06))
        strokes.append(((x + d, y + d), shadow, thick))
    if outline is not None:
        strokes.append(((x, y), outline, thick + max(2, round(height * 0.08))))
    strokes.append(((x, y), ink, thick))
    for (px, py), colour, t in strokes:
        cv2.putText(img, text, (px, py), font, scale, colour, t, cv2.LINE_AA)
        for dx, gw, gh in dots:
            zx, zy = px + dx, py - gh / 2
            if zero == "dotted":
                r = max(1.0, 0.6 * t)
                cv2.circle(img, (round(zx * 16), round(zy * 16)), round(r * 16), colour, -1, cv2.LINE_AA, 4)
            else:  # a slash across the plain O, lower left to upper right
                a = (round((zx - 0.32 * gw) * 16), round((zy + 0.45 * gh) * 16))
                b = (round((zx + 0.32 * gw) * 16), round((zy - 0.45 * gh) * 16))
                cv2.line(img, a, b, colour, max(1, round(0.8 * t)), cv2.LINE_AA, 4)
        if underline:
            cv2.line(img, (px, uy + py - y), (px + tw, uy + py - y), colour, max(1, t), cv2.LINE_AA)


class VariedNumberDeck:
    """A NumberDeck whose faces are drawn in a new random style on every ``image`` call."""

    varied = True
    """Faces differ on every call: the sampler neither caches nor reuses them."""

    def __init__(self, deck: str, seed: int, colour_known: bool = True, extra: bool = False) -> None:
        if deck not in CARD_MM:
            raise ValueError(f"deck {deck!r}: expected one of {tuple(CARD_MM)}")
        self.deck = deck
        self.seed = seed
        self.name = f"varied-{deck}-{seed}"
        self.colour_known = colour_known
        self.rng = np.random.default_rng([seed, 7331])
        self.identities = deck_identities(deck)
        self.extra = extra
        """Also vary the zeros (:data:`ZERO_STYLES`) and the stroke (:data:`HEAVY_SHARE`, strokes kept
        when narrowed). Off by default: the shipped reader was trained without them."""

    def image(self, identity: str) -> np.ndarray:
        return draw_varied_face(identity, self.rng, self.extra)


def _key_colour(identity: str, rng: np.random.Generator) -> np.ndarray | None:
    parts = identity.split(":")
    if parts[0] == "lineit" and parts[1] != "bet":
        return _jitter_colour(SUIT_BGR[parts[2]], rng, 1.0)
    if parts[0] == "trio":
        return _jitter_colour(TRIO_BGR[int(parts[1]) - 1], rng, 0.5)
    return None


def draw_varied_face(identity: str, rng: np.random.Generator, extra: bool = False) -> np.ndarray:
    """One face of ``identity`` (``themind:57``, ``trio:7``, ``lineit:57:heart``, ``lineit:bet:+3``)."""
    parts = identity.split(":")
    deck = parts[0]
    bet = deck == "lineit" and parts[1] == "bet"
    text = parts[2] if bet else parts[1]
    number = 0 if bet else int(parts[1])
    suit = parts[2] if deck == "lineit" and not bet else None
    w_mm, h_mm = CARD_MM[deck]
    ppm = PX_PER_MM * rng.uniform(0.9, 1.1)
    w, h = round(w_mm * ppm), round(h_mm * ppm)
    key = _key_colour(identity, rng)

    # Scheme: where the key colour goes. ink (light card, key ink), disc (key shape, light ink),
    # dark (dark card, bright key ink), frame (light card, dark ink, key frame/symbols).
    schemes = ("ink", "disc", "dark", "frame") if key is not None else ("ink", "disc", "dark")
    scheme = schemes[int(rng.integers(len(schemes)))]
    key_c = _any_colour(rng) if key is None else key
    if scheme == "dark":
        paper = _neutral(rng, 15, 80)
        ink = (
            key_c * rng.uniform(1.0, 1.3) + rng.uniform(10, 60)
            if key is not None
            else _neutral(rng, 190, 255)
        )
        if key is None and rng.random() < 0.5:
            ink = np.clip(_any_colour(rng) * 0.4 + 150, 0, 255)
    else:
        paper = _neutral(rng, 195, 255)
        if key is None and rng.random() < 0.5:
            paper = np.clip(_any_colour(rng) * 0.8 + rng.uniform(0, 60), 0, 255)
        ink = key_c if scheme == "ink" else _neutral(rng, 10, 70)
        if scheme == "disc":
            ink = _neutral(rng, 225, 255)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = _tuple(paper)
    if rng.random() < 0.35:  # gradient
        t = np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None, None]
        other = paper * rng.uniform(0.75, 1.05)
        img[:] = np.clip(paper * (1 - t) + other * t, 0, 255).astype(np.uint8)

    # Background decoration (neutral tones, or the key colour softened).
    soft = paper + (key_c - paper) * rng.uniform(0.15, 0.45)
    deco = rng.random()
    lw = max(1, round(rng.uniform(0.3, 1.2) * ppm))
    if deco < 0.2:
        step = round(rng.uniform(4, 9) * ppm)
        tone = _tuple(paper * rng.uniform(0.85, 0.95)) if rng.random() < 0.6 else _tuple(soft)
        for k in range(-h, w + h, step):
            cv2.line(img, (k, 0), (k + h, h), tone, lw, cv2.LINE_AA)
    elif deco < 0.35:
        cv2.circle(
            img, (w // 2, h // 2), round(w * rng.uniform(0.3, 0.45)), _tuple(soft), lw + 1, cv2.LINE_AA
        )
    elif deco < 0.45 and scheme != "disc":
        cv2.ellipse(
            img, (w // 2, h // 2), (round(w * rng.uniform(0.3, 0.45)), round(h * rng.uniform(0.2, 0.35))),
            0, 0, 360, _tuple(soft), -1, cv2.LINE_AA,
        )  # fmt: skip

    # A frame.
    frame_colour = key_c if (scheme == "frame" or rng.random() < 0.4) else ink
    if scheme == "frame" or rng.random() < 0.4:
        m = round(rng.uniform(1.5, 4.0) * ppm)
        if rng.random() < 0.3:
            img[: round(rng.uniform(8, 18) * ppm)] = _tuple(frame_colour)
        else:
            cv2.rectangle(img, (m, m), (w - 1 - m, h - 1 - m), _tuple(frame_colour), lw + 1, cv2.LINE_AA)

    # The disc (or suit shape) behind the number.
    if scheme == "disc":
        disc = key_c if key is not None else _any_colour(rng) * 0.6
        shape_r = rng.uniform(0.3, 0.45) * w
        if suit is not None and rng.random() < 0.4:
            draw_suit(img, suit, w / 2, h / 2, shape_r * 1.3, _tuple(disc))
        elif rng.random() < 0.5:
            cv2.circle(img, (w // 2, h // 2), round(shape_r), _tuple(disc), -1, cv2.LINE_AA)
        else:
            hw, hh = round(shape_r), round(shape_r * rng.uniform(0.7, 1.4))
            cv2.rectangle(img, (w // 2 - hw, h // 2 - hh), (w // 2 + hw, h // 2 + hh), _tuple(disc), -1)
    elif suit is not None and rng.random() < 0.6:
        tone = paper + (key_c - paper) * (
            rng.uniform(0.2, 0.4) if scheme != "dark" else rng.uniform(0.3, 0.6)
        )
        draw_suit(img, suit, w / 2, h / 2, rng.uniform(0.3, 0.45) * w * 1.3, _tuple(tone))
    if bet:
        gold = _any_colour(rng)
        if rng.random() < 0.6:
            cv2.circle(img, (w // 2, h // 2), round(w * rng.uniform(0.3, 0.4)), _tuple(gold), -1, cv2.LINE_AA)
            ink = _neutral(rng, 10, 50) if gold.mean() > 120 else _neutral(rng, 215, 255)

    # The number.
    font = FONTS[int(rng.integers(len(FONTS)))] | (cv2.FONT_ITALIC if rng.random() < 0.25 else 0)
    if extra:
        weight = rng.uniform(0.05, 0.17) if rng.random() >= HEAVY_SHARE else rng.uniform(0.15, 0.24)
        keep_stroke = rng.random() < 0.5
        zero = ZERO_STYLES[int(rng.integers(len(ZERO_STYLES)))] if "0" in text else "font"
    else:
        weight, keep_stroke, zero = rng.uniform(0.05, 0.17), False, "font"
    under = reads_otherwise_upside_down(number) if number else False
    under = under and rng.random() < 0.9
    outline = shadow = None
    if rng.random() < 0.15:
        outline = _tuple(_neutral(rng, 0, 60) if np.mean(ink) > 128 else _neutral(rng, 200, 255))
    elif rng.random() < 0.15:
        shadow = _tuple(paper * 0.55)
    height = rng.uniform(16, 28) * ppm if len(text) < 3 else rng.uniform(14, 22) * ppm
    cx = w / 2 + rng.normal(0, 1.5) * ppm
    cy = h / 2 + rng.normal(0, 2.0) * ppm
    _put(
        img,
        text,
        cx,
        cy,
        height,
        w - rng.uniform(8, 16) * ppm,
        font,
        weight,
        _tuple(ink),
        under,
        outline,
        shadow,
        zero,
        keep_stroke,
    )

    # Trio's small linked numbers in circles at the bottom (digits that are not the card's).
    if deck == "trio" and rng.random() < 0.5:
        tone = _tuple(_neutral(rng, 40, 110) if scheme != "dark" else _neutral(rng, 150, 220))
        for cx_mm in (10.0, w_mm - 10.0):
            c = (round(cx_mm * ppm), round(h - 10 * ppm))
            cv2.circle(img, c, round(5.5 * ppm), tone, max(1, round(0.4 * ppm)), cv2.LINE_AA)
            other = str(int(rng.integers(1, 13)))
            _put(img, other, c[0], c[1], 3.6 * ppm, 8 * ppm, font, weight, tone, False)

    # Corner indices: top-left and turned bottom-right, sometimes also the other two corners.
    if rng.random() < 0.85:
        corner_ink = _tuple(key_c if (key is not None and rng.random() < 0.5) else ink)
        ch = rng.uniform(4.0, 7.0) * ppm
        cx0, cy0 = rng.uniform(6.5, 10) * ppm, rng.uniform(6.5, 10) * ppm
        both = rng.random() < 0.2
        symbol = suit is not None and rng.random() < 0.7

        def corner(im: np.ndarray) -> None:
            _put(im, text, cx0, cy0, ch, 12 * ppm, font, weight, corner_ink, under, zero=zero)
            if both:
                _put(im, text, w - cx0, cy0, ch, 12 * ppm, font, weight, corner_ink, under, zero=zero)
            if symbol:
                draw_suit(im, suit, cx0, cy0 + ch * 1.45, ch * 0.6, _tuple(key_c))

        corner(img)
        flipped = np.ascontiguousarray(img[::-1, ::-1])
        corner(flipped)
        img = np.ascontiguousarray(flipped[::-1, ::-1])
    return img
