"""Generated Twin It-like pattern cards: abstract colourful motifs, no copyrighted art.

A deck seed makes 119 patterns; 270 faces show them once, twice or three times
(8 x 1 + 71 x 2 + 40 x 3 = 270, the real deck's proportions in RULES-NOTES). 30 patterns are
deliberate near-duplicates of others: two colours swapped, one element changed, or the whole
pattern mirrored. Each pattern is a background plus a few large elements, so two different
patterns differ visibly at the real card size (50 mm), while near-duplicates differ in one thing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from vision.render.faces_draw import SHAPES, draw_shape

PALETTE: tuple[tuple[int, int, int], ...] = (
    (40, 40, 215),  # red
    (30, 140, 250),  # orange
    (40, 215, 250),  # yellow
    (60, 200, 120),  # green
    (110, 120, 20),  # teal
    (220, 190, 60),  # sky blue
    (170, 70, 30),  # blue
    (150, 40, 120),  # purple
    (170, 70, 230),  # pink
    (40, 70, 120),  # brown
    (35, 35, 35),  # black
    (245, 245, 245),  # white
    (120, 230, 200),  # lime
    (150, 190, 250),  # peach
)
"""BGR colours the patterns use (indices in the pattern definitions)."""

N_PATTERNS = 119
COUNTS = {1: 8, 2: 71, 3: 40}
"""How many patterns appear once, twice, three times: 119 patterns, 270 faces."""
N_NEAR = {"colours_swapped": 10, "element_changed": 10, "mirrored": 10}
BACKDROPS = ("plain", "split", "stripes", "disc", "frame")


@dataclass(frozen=True)
class Element:
    kind: str
    """A shape of :data:`faces_draw.SHAPES`."""
    x: float
    """Centre, as a fraction of the pattern's width (0..1)."""
    y: float
    size: float
    """Radius as a fraction of the pattern's width."""
    angle: float
    """Degrees."""
    colour: int
    """Index into :data:`PALETTE`."""


@dataclass(frozen=True)
class Pattern:
    pid: str
    bg: int
    """Background colour (palette index)."""
    backdrop: str
    """plain | split | stripes | disc | frame: a second large area of colour ``bg2``."""
    bg2: int
    elements: tuple[Element, ...]
    mirrored: bool = False

    def colours(self) -> list[int]:
        used = (
            [self.bg] + ([self.bg2] if self.backdrop != "plain" else []) + [e.colour for e in self.elements]
        )
        return list(dict.fromkeys(used))


@dataclass(frozen=True)
class TwinItDeck:
    """One generated deck."""

    seed: int
    faces: list[str]
    """270 face identities, in deck order."""
    patterns: list[str]
    """The distinct pattern identities (119)."""
    near_duplicates: list[tuple[str, str, str]]
    """(original, near-duplicate, kind): kind is colours_swapped | element_changed | mirrored."""
    definitions: dict[str, Pattern]
    """Pattern identity -> its definition."""

    def count(self, identity: str) -> int:
        return self.faces.count(identity)


def _contrasting(rng: np.random.Generator, avoid: list[int], k: int) -> list[int]:
    choices = [i for i in range(len(PALETTE)) if i not in avoid]
    return [int(c) for c in rng.choice(choices, size=k, replace=False)]


def _scatter_positions(rng: np.random.Generator, sizes: list[float]) -> list[tuple[float, float]]:
    placed: list[tuple[float, float, float]] = []
    for s in sizes:
        best = (0.5, 0.5)
        best_gap = -1.0
        for _ in range(40):
            x, y = (float(v) for v in rng.uniform(0.12 + s * 0.6, 0.88 - s * 0.6, size=2))
            gap = min((math.hypot(x - px, y - py) - (s + ps) * 0.85 for px, py, ps in placed), default=1.0)
            if gap > 0:
                best = (x, y)
                break
            if gap > best_gap:
                best, best_gap = (x, y), gap
        placed.append((best[0], best[1], s))
    return [(x, y) for x, y, _ in placed]


def _base_pattern(rng: np.random.Generator, pid: str) -> Pattern:
    bg = int(rng.integers(len(PALETTE)))
    backdrop = str(rng.choice(BACKDROPS, p=[0.35, 0.2, 0.15, 0.15, 0.15]))
    bg2 = _contrasting(rng, [bg], 1)[0]
    n = int(rng.integers(3, 7))
    kinds = [str(k) for k in rng.choice(SHAPES, size=int(rng.integers(2, 4)), replace=False)]
    colours = _contrasting(rng, [bg, bg2] if backdrop != "plain" else [bg], int(rng.integers(2, 4)))
    composition = rng.choice(["scatter", "centre"], p=[0.65, 0.35])
    sizes = sorted((float(v) for v in rng.uniform(0.1, 0.17, size=n)), reverse=True)
    if composition == "centre":
        sizes[0] = float(rng.uniform(0.2, 0.26))
    positions = _scatter_positions(rng, sizes)
    if composition == "centre":
        positions[0] = (0.5, 0.5)
        ring = float(rng.uniform(0, 2 * math.pi))
        for i in range(1, n):
            a = ring + 2 * math.pi * i / (n - 1) + float(rng.uniform(-0.3, 0.3))
            r = float(rng.uniform(0.3, 0.36))
            positions[i] = (0.5 + r * math.cos(a), 0.5 + r * math.sin(a))
    elements = tuple(
        Element(
            kind=kinds[i % len(kinds)] if i < len(kinds) else str(rng.choice(kinds)),
            x=positions[i][0],
            y=positions[i][1],
            size=sizes[i],
            angle=float(rng.uniform(0, 360)),
            colour=colours[i % len(colours)] if i < len(colours) else int(rng.choice(colours)),
        )
        for i in range(n)
    )
    return Pattern(pid=pid, bg=bg, backdrop=backdrop, bg2=bg2, elements=elements)


def _near_duplicate(rng: np.random.Generator, base: Pattern, pid: str, kind: str) -> Pattern:
    if kind == "mirrored":
        return replace(base, pid=pid, mirrored=not base.mirrored)
    if kind == "colours_swapped":
        used = base.colours()
        a, b = (int(v) for v in rng.choice(used, size=2, replace=False))

        def sw(c: int) -> int:
            return b if c == a else a if c == b else c

        return replace(
            base,
            pid=pid,
            bg=sw(base.bg),
            bg2=sw(base.bg2),
            elements=tuple(replace(e, colour=sw(e.colour)) for e in base.elements),
        )
    # element_changed: the largest element gets another shape (or, half the time, another colour)
    i = 0
    e = base.elements[i]
    if rng.random() < 0.5:
        similar = {"circle": "flower", "flower": "circle", "square": "hexagon", "hexagon": "square"}
        options = [k for k in SHAPES if k != e.kind and k != similar.get(e.kind)]
        changed = replace(e, kind=str(rng.choice(options)))
    else:
        changed = replace(e, colour=_contrasting(rng, base.colours(), 1)[0])
    return replace(base, pid=pid, elements=(changed, *base.elements[1:]))


MIN_VISIBLE_DIFFERENCE = 0.03
"""Near-duplicates differ on at least this fraction of the card, in every relative rotation."""


def visible_difference(a: Pattern, b: Pattern, size: int = 64) -> float:
    """Fraction of the pattern area that clearly differs (a channel off by > 60), in b's best rotation."""
    ia = draw_pattern(a, size).astype(np.int16)
    ib = draw_pattern(b, size).astype(np.int16)
    return min(float((np.abs(ia - np.rot90(ib, k)).max(axis=2) > 60).mean()) for k in range(4))


def _asymmetric(p: Pattern) -> bool:
    """Mirroring only makes a near-duplicate when the mirror is not the same pattern turned."""
    return len(p.elements) >= 4 and p.backdrop in ("plain", "split", "disc", "frame")


@lru_cache(maxsize=16)
def twinit_deck(seed: int = 0) -> TwinItDeck:
    """The generated deck of ``seed``: pattern ids ``p000`` (seed 0) or ``s<seed>p000``."""
    rng = np.random.default_rng([0x7717, seed])
    prefix = "twinit:" + ("" if seed == 0 else f"s{seed}")
    pids = [f"{prefix}p{i:03d}" for i in range(N_PATTERNS)]
    order = [int(i) for i in rng.permutation(N_PATTERNS)]
    n_near = sum(N_NEAR.values())
    n_base = N_PATTERNS - n_near
    defs: dict[str, Pattern] = {}
    base_ids = [pids[i] for i in order[:n_base]]
    for pid in base_ids:
        defs[pid] = _base_pattern(rng, pid)
    near: list[tuple[str, str, str]] = []
    derived_ids = [pids[i] for i in order[n_base:]]
    mirror_bases = [b for b in base_ids if _asymmetric(defs[b])]
    other_bases = [b for b in base_ids if b not in mirror_bases[: N_NEAR["mirrored"]]]
    j = 0
    for kind, count in N_NEAR.items():
        pool = mirror_bases if kind == "mirrored" else other_bases
        for k in range(count):
            base = pool[k] if kind == "mirrored" else pool[(j * 7 + 3) % len(pool)]
            j += 1
            pid = derived_ids.pop()
            for _ in range(20):  # redraw until the difference is plain to see
                defs[pid] = _near_duplicate(rng, defs[base], pid, kind)
                if visible_difference(defs[base], defs[pid]) >= MIN_VISIBLE_DIFFERENCE:
                    break
            near.append((base, pid, kind))
    counts = [1] * COUNTS[1] + [2] * COUNTS[2] + [3] * COUNTS[3]
    counts = [int(c) for c in rng.permutation(counts)]
    faces = [pid for pid, c in zip(pids, counts, strict=True) for _ in range(c)]
    faces = [faces[int(i)] for i in rng.permutation(len(faces))]
    return TwinItDeck(seed=seed, faces=faces, patterns=list(pids), near_duplicates=near, definitions=defs)


_ID = re.compile(r"^twinit:(?:s(\d+))?p(\d{3})$")


def parse_twinit(identity: str) -> tuple[int, Pattern]:
    """(deck seed, pattern) of an identity like ``twinit:p042`` or ``twinit:s3p042``."""
    m = _ID.match(identity)
    if not m:
        raise ValueError(f"Twin It identity {identity!r}: expected 'twinit:p042' or 'twinit:s3p042'")
    seed = int(m.group(1) or 0)
    deck = twinit_deck(seed)
    if identity not in deck.definitions:
        raise ValueError(f"Twin It identity {identity!r}: no such pattern (0..{N_PATTERNS - 1})")
    return seed, deck.definitions[identity]


@dataclass(frozen=True)
class TwinItStyle:
    frame_mm: float
    frame_colour: tuple[int, int, int]
    inner_line: bool
    outline: float
    """Element outline width as a fraction of the pattern's width (0: none)."""
    gain: tuple[float, float, float]
    """Per-channel colour gain (print / ink differences)."""


TWINIT_STYLES: tuple[TwinItStyle, ...] = (
    TwinItStyle(2.5, (248, 248, 248), False, 0.0, (1.0, 1.0, 1.0)),
    TwinItStyle(0.0, (40, 40, 40), False, 0.008, (1.0, 1.0, 1.0)),
    TwinItStyle(3.0, (215, 235, 242), True, 0.0, (0.92, 0.97, 1.03)),
    TwinItStyle(2.0, (70, 40, 30), False, 0.016, (1.05, 1.02, 0.97)),
)


def draw_pattern(p: Pattern, size: int, outline: float = 0.0) -> np.ndarray:
    """The pattern alone, ``size`` x ``size`` BGR."""
    img = np.empty((size, size, 3), np.uint8)
    img[:] = PALETTE[p.bg]
    c2 = PALETTE[p.bg2]
    s = size
    if p.backdrop == "split":
        pts = np.array([[0, 0], [s, 0], [0, s]], np.int32)
        cv2.fillPoly(img, [pts], c2, cv2.LINE_AA)
    elif p.backdrop == "stripes":
        w = max(2, s // 10)
        for k in range(-s, 2 * s, 3 * w):
            pts = np.array([[k, 0], [k + w, 0], [k + w + s, s], [k + s, s]], np.int32)
            cv2.fillPoly(img, [pts], c2, cv2.LINE_AA)
    elif p.backdrop == "disc":
        cv2.circle(img, (round(s * 0.62), round(s * 0.4)), round(s * 0.42), c2, -1, cv2.LINE_AA)
    elif p.backdrop == "frame":
        t = max(2, round(s * 0.08))
        cv2.rectangle(img, (t, t), (s - 1 - t, s - 1 - t), c2, max(2, round(s * 0.05)), cv2.LINE_AA)
    ow = round(outline * s)
    for e in p.elements:
        draw_shape(img, e.kind, e.x * s, e.y * s, e.size * s, e.angle, PALETTE[e.colour], ow, (30, 30, 30))
    if p.mirrored:
        img = np.ascontiguousarray(img[:, ::-1])
    return img


def render_twinit(identity: str, style: int, w: int, h: int, px_per_mm: float) -> np.ndarray:
    """A Twin It face ``w`` x ``h`` px (without the rounded-corner masking)."""
    _, p = parse_twinit(identity)
    st = TWINIT_STYLES[style]
    img = np.empty((h, w, 3), np.uint8)
    img[:] = st.frame_colour
    m = round(st.frame_mm * px_per_mm)
    inner = min(w, h) - 2 * m
    img[m : m + inner, m : m + inner] = draw_pattern(p, inner, st.outline)
    if st.inner_line:
        cv2.rectangle(img, (m - 2, m - 2), (m + inner + 1, m + inner + 1), (60, 60, 60), 1, cv2.LINE_AA)
    if st.gain != (1.0, 1.0, 1.0):
        img = np.clip(img * np.array(st.gain, np.float32), 0, 255).astype(np.uint8)
    return img
