"""Procedural card faces of our own: pattern decks with near-duplicates, and plain number decks.

They add variety to the renderer's decks (the judge must work on decks it never saw) and let the
training scripts run end to end without the renderer (the CI's tiny configuration). Drawing is
done with OpenCV at twice the size, then shrunk (anti-aliasing).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

import cv2
import numpy as np

from models.labels import deck_identities

PALETTE = (
    (40, 40, 220),  # red (BGR)
    (40, 170, 40),  # green
    (200, 60, 40),  # blue
    (30, 200, 240),  # yellow
    (170, 40, 150),  # purple
    (0, 140, 255),  # orange
    (200, 200, 40),  # teal
    (150, 60, 230),  # pink
    (40, 40, 40),  # black
    (60, 110, 160),  # brown
)
SHAPES = ("circle", "square", "triangle", "diamond", "star", "oval", "squiggle", "ring", "cross", "hexagon")
FILLS = ("solid", "outline", "striped")


@dataclass(frozen=True)
class Element:
    shape: str
    x: float
    """Centre, share of the card width."""
    y: float
    size: float
    """Half size, share of the card width."""
    angle: float
    colour: int
    fill: str


@dataclass(frozen=True)
class Pattern:
    elements: tuple[Element, ...]
    background: tuple[int, int, int]


def _polygon(shape: str, size: float, angle: float) -> np.ndarray | None:
    if shape == "square":
        pts = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    elif shape == "triangle":
        pts = [(0, -1.1), (1, 0.8), (-1, 0.8)]
    elif shape == "diamond":
        pts = [(0, -1.2), (0.7, 0), (0, 1.2), (-0.7, 0)]
    elif shape == "hexagon":
        pts = [(np.cos(a), np.sin(a)) for a in np.linspace(0, 2 * np.pi, 7)[:-1]]
    elif shape == "star":
        r = [1.0 if i % 2 == 0 else 0.45 for i in range(10)]
        pts = [(r[i] * np.sin(i * np.pi / 5), -r[i] * np.cos(i * np.pi / 5)) for i in range(10)]
    elif shape == "cross":
        t = 0.35
        pts = [(-t, -1), (t, -1), (t, -t), (1, -t), (1, t), (t, t), (t, 1), (-t, 1), (-t, t), (-1, t),
               (-1, -t),
               (-t, -t)]  # fmt: skip
    elif shape == "squiggle":
        xs = np.linspace(-1, 1, 24)
        top = [(x, -0.35 + 0.25 * np.sin(3 * x)) for x in xs]
        bottom = [(x, 0.35 + 0.25 * np.sin(3 * x)) for x in xs[::-1]]
        pts = top + bottom
    else:
        return None
    p = np.asarray(pts, dtype=np.float64) * size
    c, s = np.cos(angle), np.sin(angle)
    return p @ np.array([[c, s], [-s, c]])


def _element_mask(el: Element, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """(fill mask, outline mask) uint8 of one element on a (h, w) canvas."""
    fill = np.zeros((h, w), np.uint8)
    centre = (el.x * w, el.y * h)
    size = el.size * w
    poly = _polygon(el.shape, size, el.angle)
    thick = max(2, round(size * 0.18))
    if poly is not None:
        pts = np.round((poly + centre) * 16).astype(np.int32)
        cv2.fillPoly(fill, [pts], 255, cv2.LINE_AA, shift=4)
    else:
        axes = (size, size) if el.shape in ("circle", "ring") else (size, size * 0.55)
        box = (centre, (2 * axes[0], 2 * axes[1]), float(np.degrees(el.angle)))
        cv2.ellipse(fill, box, 255, -1, cv2.LINE_AA)
        if el.shape == "ring":
            inner = (centre, (1.1 * axes[0], 1.1 * axes[1]), 0.0)
            cv2.ellipse(fill, inner, 0, -1, cv2.LINE_AA)
    eroded = cv2.erode(fill, np.ones((thick, thick), np.uint8))
    outline = cv2.subtract(fill, eroded)
    return fill, outline


def render_pattern(pattern: Pattern, width: int, height: int, stripe_period: int = 6) -> np.ndarray:
    """The pattern drawn on a card face of (height, width) px, BGR uint8."""
    W, H = 2 * width, 2 * height
    img = np.empty((H, W, 3), np.float32)
    img[:] = pattern.background
    yy = np.arange(H)[:, None]
    stripes = ((yy // max(2, stripe_period)) % 2 == 0).astype(np.float32) * np.ones((1, W), np.float32)
    for el in pattern.elements:
        fill, outline = _element_mask(el, W, H)
        if el.fill == "solid":
            alpha = fill.astype(np.float32) / 255.0
        elif el.fill == "outline":
            alpha = outline.astype(np.float32) / 255.0
        else:
            alpha = np.maximum(outline.astype(np.float32) / 255.0, fill.astype(np.float32) / 255.0 * stripes)
        colour = np.asarray(PALETTE[el.colour], np.float32)
        img += alpha[:, :, None] * (colour - img)
    return cv2.resize(np.clip(img, 0, 255).astype(np.uint8), (width, height), interpolation=cv2.INTER_AREA)


def random_pattern(rng: np.random.Generator) -> Pattern:
    """A random layout: scattered elements, or a SET-like row of 1 to 3 equal shapes."""
    tint = rng.integers(215, 256, size=3)
    background = (int(tint[0]), int(tint[1]), int(tint[2]))
    if rng.random() < 0.3:
        count = int(rng.integers(1, 4))
        shape = str(rng.choice(SHAPES))
        colour = int(rng.integers(len(PALETTE)))
        fill = str(rng.choice(FILLS))
        size = float(rng.uniform(0.1, 0.16))
        step = 2.3 * size
        horizontal = rng.random() < 0.5
        els = []
        for i in range(count):
            off = (i - (count - 1) / 2) * step
            x, y = (0.5 + off, 0.5) if horizontal else (0.5, 0.5 + off)
            els.append(Element(shape, x, y, size, 0.0 if horizontal else np.pi / 2, colour, fill))
        return Pattern(tuple(els), background)
    n = int(rng.integers(3, 9))
    els = []
    for _ in range(n):
        els.append(
            Element(
                shape=str(rng.choice(SHAPES)),
                x=float(rng.uniform(0.18, 0.82)),
                y=float(rng.uniform(0.18, 0.82)),
                size=float(rng.uniform(0.06, 0.2)),
                angle=float(rng.uniform(0, 2 * np.pi)),
                colour=int(rng.integers(len(PALETTE))),
                fill=str(rng.choice(FILLS, p=[0.6, 0.2, 0.2])),
            )
        )
    return Pattern(tuple(els), background)


def _looks_alike(a: Pattern, b: Pattern, size: int = 64) -> bool:
    """Whether two patterns draw (nearly) the same small image."""
    ia = render_pattern(a, size, size).astype(np.float32)
    ib = render_pattern(b, size, size).astype(np.float32)
    return int((np.abs(ia - ib).max(axis=2) > 40).sum()) <= 2


def near_duplicate(pattern: Pattern, kind: str, rng: np.random.Generator, tries: int = 6) -> Pattern:
    """A pattern made to be confused with ``pattern``: colours swapped, one element changed, mirrored.

    One that would draw the same image (a changed element hidden under another, a symmetric layout
    mirrored) is drawn again as an element change: a "different" label must be visible."""
    dup = _near_duplicate_once(pattern, kind, rng)
    for _ in range(tries - 1):
        if not _looks_alike(pattern, dup):
            break
        dup = _near_duplicate_once(pattern, "element_changed", rng)
    return dup


def _near_duplicate_once(pattern: Pattern, kind: str, rng: np.random.Generator) -> Pattern:
    els = list(pattern.elements)
    if kind == "colours_swapped":
        colours = sorted({e.colour for e in els})
        if len(colours) < 2:
            a, b = colours[0], int((colours[0] + 1 + rng.integers(len(PALETTE) - 1)) % len(PALETTE))
        else:
            a, b = (int(c) for c in rng.choice(colours, size=2, replace=False))
        swap = {a: b, b: a}
        els = [replace(e, colour=swap.get(e.colour, e.colour)) for e in els]
    elif kind == "mirrored":
        els = [replace(e, x=1.0 - e.x, angle=np.pi - e.angle) for e in els]
        if _looks_alike(pattern, Pattern(tuple(els), pattern.background)):
            # A mirror-symmetric layout (a row of ovals, one centred triangle) is no near-duplicate.
            els = list(pattern.elements)
            kind = "element_changed"
    if kind == "element_changed":
        i = int(rng.integers(len(els)))
        what = int(rng.integers(4))
        e = els[i]
        if len(els) > 1 and len({(x.shape, x.colour, x.fill, x.size) for x in els}) == 1 and what < 3:
            # A row of equal shapes: the whole row changes its shape, colour or fill (one attribute).
            if what == 0:
                new = replace(e, shape=str(rng.choice([s for s in SHAPES if s != e.shape])))
            elif what == 1:
                new = replace(e, colour=int((e.colour + 1 + rng.integers(len(PALETTE) - 1)) % len(PALETTE)))
            else:
                new = replace(e, fill=str(rng.choice([f for f in FILLS if f != e.fill])))
            diff = {"shape": new.shape, "colour": new.colour, "fill": new.fill}
            return Pattern(tuple(replace(x, **diff) for x in els), pattern.background)
        if what == 0:
            e = replace(e, shape=str(rng.choice([s for s in SHAPES if s != e.shape])))
        elif what == 1:
            e = replace(e, colour=int((e.colour + 1 + rng.integers(len(PALETTE) - 1)) % len(PALETTE)))
        elif what == 2:
            e = replace(e, fill=str(rng.choice([f for f in FILLS if f != e.fill])))
        elif len(els) > 1:
            els.pop(i)
            return Pattern(tuple(els), pattern.background)
        else:
            els.append(replace(e, x=min(0.85, e.x + 2.3 * e.size)))
        els[i] = e
    return Pattern(tuple(els), pattern.background)


class ProceduralPatternDeck:
    """A deck of random patterns, a third of them with a near-duplicate partner."""

    def __init__(self, seed: int, n_patterns: int = 60, size_px: int = 160, aspect: float = 1.0) -> None:
        rng = np.random.default_rng(seed)
        self.name = f"procedural-{seed}"
        self.size = (size_px, round(size_px * aspect))
        self.stripe_period = int(rng.integers(4, 9))
        self._patterns: dict[str, Pattern] = {}
        self.near_duplicates: list[tuple[str, str, str]] = []
        base = [random_pattern(rng) for _ in range(n_patterns)]
        for i, p in enumerate(base):
            self._patterns[f"g{seed}p{i:03d}"] = p
        kinds = ("colours_swapped", "element_changed", "mirrored")
        for i in range(0, n_patterns, 3):
            kind = kinds[(i // 3) % 3]
            dup = near_duplicate(base[i], kind, rng)
            name = f"g{seed}p{i:03d}{kind[0]}"
            self._patterns[name] = dup
            self.near_duplicates.append((f"g{seed}p{i:03d}", name, kind))
        self.patterns = list(self._patterns)
        self._cache: dict[str, np.ndarray] = {}

    def image(self, pattern: str) -> np.ndarray:
        if pattern not in self._cache:
            w, h = self.size
            self._cache[pattern] = render_pattern(self._patterns[pattern], w, h, self.stripe_period)
        return self._cache[pattern]


class ProceduralNumberDeck:
    """Plain number cards drawn with OpenCV fonts (a stand-in deck for tests without the renderer)."""

    SUIT_COLOURS: ClassVar[dict[str, tuple[int, int, int]]] = {
        "heart": (40, 40, 210),
        "leaf": (40, 160, 40),
        "diamond": (200, 90, 30),
        "star": (30, 170, 220),
    }

    def __init__(
        self, deck: str, style: int = 0, size_px: tuple[int, int] = (112, 174), free_colours: bool = False
    ) -> None:
        self.deck = deck
        self.name = f"procedural-{deck}-{style}" + ("-free" if free_colours else "")
        self.free_colours = free_colours
        self.colour_known = not free_colours
        """With free colours each card gets random paper and ink: its colour class means nothing."""
        self.style = style
        self.size = size_px
        self.identities = deck_identities(deck)
        self._cache: dict[str, np.ndarray] = {}

    def image(self, identity: str) -> np.ndarray:
        if identity in self._cache:
            return self._cache[identity]
        w, h = self.size
        img = np.full((h, w, 3), 235 - 10 * (self.style % 3), np.uint8)
        parts = identity.split(":")
        colour: tuple[int, int, int] = (60, 60, 60)
        if parts[0] == "lineit" and parts[1] != "bet":
            colour = self.SUIT_COLOURS[parts[2]]
        elif parts[0] == "trio":
            colour = PALETTE[int(parts[1]) % len(PALETTE)]
        if self.free_colours:
            rng = np.random.default_rng([self.style, *identity.encode()])
            paper = rng.integers(0, 256, size=3)
            ink = np.where(paper.mean() > 128, rng.integers(0, 90, size=3), rng.integers(170, 256, size=3))
            img[:] = paper.astype(np.uint8)
            if rng.random() < 0.5:
                back = tuple(int(v) for v in rng.integers(0, 256, size=3))
                cv2.ellipse(
                    img, ((w / 2, h / 2), (w * 0.8, h * rng.uniform(0.35, 0.7)), 0), back, -1, cv2.LINE_AA
                )
                ink = np.where(
                    np.mean(back) > 128, rng.integers(0, 90, size=3), rng.integers(170, 256, size=3)
                )
            colour = (int(ink[0]), int(ink[1]), int(ink[2]))
        text = parts[2] if parts[1] == "bet" else parts[1]
        font = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX)[self.style % 3]
        scale = 1.6 if len(text) < 3 else 1.2
        (tw, th), _ = cv2.getTextSize(text, font, scale, 3)
        cv2.putText(img, text, ((w - tw) // 2, (h + th) // 2), font, scale, colour, 3, cv2.LINE_AA)
        cv2.putText(img, text, (6, 22), font, 0.6, colour, 2, cv2.LINE_AA)
        cv2.line(img, (6, 26), (6 + int(tw * 0.6 / scale), 26), colour, 2)
        cv2.rectangle(img, (3, 3), (w - 4, h - 4), colour, 2)
        img[h - 30 :, w - 40 :] = cv2.rotate(img[:30, :40].copy(), cv2.ROTATE_180)
        self._cache[identity] = img
        return img
