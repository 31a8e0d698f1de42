"""Random scenes: camera, light, table, card layouts and hands drawn from one seed.

Layouts: ``scattered`` (apart), ``rows`` (a grid with gaps), ``piles`` (stacks, slightly
askew), ``fanned`` (fans as held or spread), ``overlapping`` (captures: cards partly over
each other) and ``touching`` (rows with edges in contact).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from vision.render.faces import CARD_SIZE_MM, DECKS, N_STYLES, deck_identities, deck_of
from vision.render.scene_camera import Camera
from vision.render.scene_props import PROP_KINDS
from vision.render.scene_types import (
    SKIN_TONES,
    TABLE_KINDS,
    BoardPlacement,
    CameraSpec,
    CardPlacement,
    HandPlacement,
    LightSpec,
    PropPlacement,
    SceneSpec,
    TableSpec,
)

LAYOUTS: tuple[str, ...] = ("scattered", "rows", "piles", "fanned", "overlapping", "touching")
TABLE_SEEDS_PER_KIND = 3
"""Random scenes reuse a few textures per table kind (textures are cached; light and camera vary)."""


def random_camera(rng: np.random.Generator, tilt_max: float = 35.0) -> CameraSpec:
    tilt = (
        float(min(tilt_max, abs(rng.normal(0, 14))))
        if rng.random() < 0.85
        else float(rng.uniform(0, tilt_max))
    )
    return CameraSpec(
        height_mm=float(rng.uniform(560, 900)),
        tilt_deg=tilt,
        yaw_deg=float(rng.normal(0, 8)),
        hfov_deg=float(rng.uniform(55, 70)),
        k1=float(rng.uniform(0, 0.08)) if rng.random() < 0.6 else 0.0,
        focus_blur=float(rng.uniform(0.4, 1.4)) if rng.random() < 0.3 else 0.0,
        motion_blur=(float(rng.uniform(2, 7)), float(rng.uniform(0, 180)))
        if rng.random() < 0.12
        else (0.0, 0.0),
        noise=float(rng.uniform(1.0, 6.0)),
        jpeg_quality=int(rng.integers(60, 96)) if rng.random() < 0.5 else None,
        target_mm=(float(rng.normal(0, 40)), float(rng.normal(0, 40))),
    )


def random_light(rng: np.random.Generator, glossy: bool) -> LightSpec:
    t = float(rng.uniform(-1, 1))
    bands = tuple(
        (
            float(rng.uniform(0, 180)),
            float(rng.uniform(-1.2, 1.2)),
            float(rng.uniform(0.08, 0.4)),
            float(rng.uniform(0.05, 0.4)),
            float(rng.uniform(0.15, 0.5)),
        )
        for _ in range(int(rng.integers(1, 3)) if rng.random() < 0.35 else 0)
    )
    n_glare = int(rng.integers(1, 3)) if rng.random() < (0.8 if glossy else 0.35) else 0
    glare = tuple(
        (
            float(rng.uniform(0.1, 0.9)),
            float(rng.uniform(0.1, 0.9)),
            float(rng.uniform(0.02, 0.1)),
            float(rng.uniform(0.3, 0.9) if glossy else rng.uniform(0.15, 0.6)),
        )
        for _ in range(n_glare)
    )
    a = float(rng.uniform(0, 2 * math.pi))
    m = float(rng.uniform(0.2, 1.0))
    # drawn from their own generator, seeded by what was drawn, so the other draws stay as they were
    blob_rng = np.random.default_rng([int(abs(t) * 1e9) % (1 << 32), int(m * 1e9) % (1 << 32)])
    blobs = tuple(
        (
            float(blob_rng.uniform(0.1, 0.9)),
            float(blob_rng.uniform(0.2, 1.1)),
            float(blob_rng.uniform(0.15, 0.45)),
            float(blob_rng.uniform(0.2, 0.8)),
            float(blob_rng.uniform(0.2, 0.55)),
        )
        for _ in range(1 if blob_rng.random() < 0.25 else 0)
    )
    return LightSpec(
        gains=(1 - 0.15 * t, 1.0, 1 + 0.15 * t),
        brightness=float(rng.uniform(0.75, 1.12)),
        gradient=(float(rng.uniform(0, 360)), float(rng.uniform(0, 0.5))),
        vignette=float(rng.uniform(0, 0.35)),
        shadow_bands=bands,
        shadow_blobs=blobs,
        glare=glare,
        shadow_dir=(m * math.cos(a), m * math.sin(a)),
        card_shadow=float(rng.uniform(0.1, 0.45)),
    )


def _card_angle(rng: np.random.Generator, deck: str, neat: bool) -> float:
    if deck == "twinit":
        return (
            float(rng.uniform(0, 360))
            if not neat
            else float(rng.choice([0, 90, 180, 270]) + rng.normal(0, 1.5))
        )
    if neat:
        return float(rng.choice([0, 0, 0, 180]) + rng.normal(0, 1.5))
    return (
        float(rng.choice([0, 180]) + rng.normal(0, 25)) if rng.random() < 0.7 else float(rng.uniform(0, 360))
    )


def _poly(x: float, y: float, w: float, h: float, a: float, grow: float = 0.0) -> np.ndarray:
    r = math.radians(a)
    rot = np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])
    loc = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]) * 1.0
    loc += np.sign(loc) * grow
    return (loc @ rot.T + (x, y)).astype(np.float32)


def _overlaps(p: np.ndarray, others: list[np.ndarray]) -> bool:
    for q in others:
        area, _ = cv2.intersectConvexConvex(p, q)
        if area > 0:
            return True
    return False


def _layout(
    rng: np.random.Generator, layout: str, deck: str, n: int, rect: tuple[float, float, float, float]
) -> list[tuple[float, float, float, bool]]:
    """(x, y, angle, face_up) per card, bottom to top."""
    w, h = CARD_SIZE_MM[deck]
    x0, y0, x1, y1 = rect
    out: list[tuple[float, float, float, bool]] = []
    if layout in ("rows", "touching"):
        gap = 0.0 if layout == "touching" else float(rng.uniform(3, 20))
        turned = deck == "twinit" or rng.random() < 0.2
        cw, ch = (h, w) if (turned and deck != "twinit" and rng.random() < 0.5) else (w, h)
        base = 90.0 if (cw, ch) != (w, h) else 0.0
        cols = max(1, int((x1 - x0 + gap) // (cw + gap)))
        rows = max(1, int((y1 - y0 + gap) // (ch + gap)))
        cols = min(cols, max(1, math.ceil(math.sqrt(n * 1.6))))
        total_w = cols * cw + (cols - 1) * gap
        need_rows = min(rows, math.ceil(n / cols))
        total_h = need_rows * ch + (need_rows - 1) * gap
        ox = (x0 + x1) / 2 - total_w / 2 + cw / 2
        oy = (y0 + y1) / 2 - total_h / 2 + ch / 2
        jitter = 0.3 if layout == "touching" else 1.5
        for k in range(min(n, cols * need_rows)):
            r, c = divmod(k, cols)
            a = base + (
                float(rng.choice([0, 180])) if deck != "twinit" else float(rng.choice([0, 90, 180, 270]))
            )
            if deck != "twinit" and rng.random() < 0.8:
                a = base
            out.append((ox + c * (cw + gap), oy + r * (ch + gap), a + float(rng.normal(0, jitter)), True))
        return out
    if layout == "piles":
        polys: list[np.ndarray] = []
        n_piles = max(1, min(6, n // 3))
        per = [n // n_piles + (1 if i < n % n_piles else 0) for i in range(n_piles)]
        for k in per:
            for _ in range(60):
                cx, cy = float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))
                a = _card_angle(rng, deck, neat=False)
                p = _poly(cx, cy, w, h, a, grow=8)
                if not _overlaps(p, polys):
                    break
            polys.append(p)
            face_up = deck == "twinit" or rng.random() > 0.15
            for _ in range(k):
                out.append(
                    (
                        cx + float(rng.normal(0, 1.5)),
                        cy + float(rng.normal(0, 1.5)),
                        a + float(rng.normal(0, 4)),
                        face_up,
                    )
                )
            if not face_up:  # the top of a face-down pile may be turned
                x, y, aa, _ = out[-1]
                out[-1] = (x, y, aa, rng.random() < 0.5)
        return out
    if layout == "fanned":
        fans = 1 if n < 7 else 2
        per = [n // fans + (1 if i < n % fans else 0) for i in range(fans)]
        polys = []
        for k in per:
            step = float(rng.uniform(7, 14))
            radius = h * float(rng.uniform(0.9, 1.4))
            for _ in range(60):
                px, py = float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))
                base = float(rng.uniform(-30, 30)) + (0 if rng.random() < 0.7 else 180)
                p = _poly(px, py, w + k * 8, h * 1.2, base, grow=5)
                if not _overlaps(p, polys):
                    break
            polys.append(p)
            for i in range(k):
                t = (i - (k - 1) / 2) * step
                a = math.radians(base + t)
                cx = px + radius * math.sin(a) - radius * math.sin(math.radians(base))
                cy = py - radius * math.cos(a) + radius * math.cos(math.radians(base))
                out.append((cx, cy, base + t, True))
        return out
    if layout == "overlapping":
        polys = []
        k_left = n
        while k_left > 0:
            k = min(k_left, int(rng.integers(1, 4)))
            k_left -= k
            for _ in range(60):
                cx, cy = float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))
                a = _card_angle(rng, deck, neat=False)
                p = _poly(cx, cy, w + 40, h + 40, a, grow=4)
                if not _overlaps(p, polys):
                    break
            polys.append(p)
            dx, dy = float(rng.uniform(0.2, 0.5)) * w, float(rng.uniform(0.1, 0.4)) * h
            for i in range(k):
                out.append((cx + i * dx, cy + i * dy, a + float(rng.normal(0, 6)), True))
        return out
    # scattered: apart, any angle
    polys = []
    for _ in range(n):
        for _ in range(80):
            cx, cy = float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))
            a = _card_angle(rng, deck, neat=False)
            p = _poly(cx, cy, w, h, a, grow=3)
            if not _overlaps(p, polys):
                polys.append(p)
                out.append((cx, cy, a, True))
                break
    return out


def random_hand(
    rng: np.random.Generator,
    hand_id: int,
    x_mm: float,
    y_mm: float,
    landed: bool | None = None,
    seat: str | None = None,
) -> HandPlacement:
    """A random hand whose palm is over (x_mm, y_mm)."""
    seat = seat or str(rng.choice(["bottom", "bottom", "left", "right", "top"]))
    landed = bool(rng.random() < 0.6) if landed is None else landed
    tone = np.array(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], float) * rng.uniform(0.93, 1.07, 3)
    sleeve = tuple(int(v) for v in rng.integers(10, 245, 3))
    return HandPlacement.over(
        hand_id,
        seat,
        x_mm,
        y_mm,
        skin=tuple(int(v) for v in np.clip(tone, 0, 255)),
        sleeve=sleeve,
        angle_deg=float(rng.normal(0, 15)),
        scale=float(rng.uniform(0.85, 1.12)),
        spread=float(rng.uniform(0, 0.8)),
        curl=float(rng.uniform(0, 0.15 if landed else 0.45)),
        right=bool(rng.random() < 0.75),
        height_mm=0.0 if landed else float(rng.uniform(40, 160)),
        sleeve_start_mm=float(rng.uniform(30, 260)),
    )


def random_scene(
    seed: int,
    width: int = 1280,
    height: int = 720,
    deck: str = "twinit",
    layout: str = "scattered",
    n_cards: int | None = None,
    hands: int | None = None,
    styles: Sequence[int] | None = None,
    table: TableSpec | None = None,
    camera: CameraSpec | None = None,
    light: LightSpec | None = None,
    deck_seed: int = 0,
    board: BoardPlacement | None = None,
    clutter: int | None = None,
) -> SceneSpec:
    """A random but reproducible scene. ``n_cards`` is an upper bound (a layout that runs out of
    room in the camera's view lays fewer); ``hands=None`` draws 0..2 hands; ``styles`` restricts
    the card styles (to hold some out for testing); ``clutter`` is the number of props (score
    pads, phones, coins, pens, coasters) lying beside the cards (None: 0..3 drawn from the seed)."""
    if not (16 <= width <= 8192 and 16 <= height <= 8192):
        raise ValueError(f"scene size {width}x{height}: expected 16..8192 px a side")
    if deck not in DECKS:
        raise ValueError(f"deck {deck!r}: expected one of {DECKS}")
    if layout not in LAYOUTS:
        raise ValueError(f"layout {layout!r}: expected one of {LAYOUTS}")
    rng = np.random.default_rng([0x5CE7E, seed, DECKS.index(deck), LAYOUTS.index(layout)])
    if table is None:
        kind = str(rng.choice(TABLE_KINDS))
        table = TableSpec(kind, int(rng.integers(TABLE_SEEDS_PER_KIND)))
    camera = camera or random_camera(rng)
    light = light or random_light(rng, table.kind == "glossy")
    cam = Camera.build(camera, width, height)
    w, h = CARD_SIZE_MM[deck]
    rect = cam.footprint_rect(margin_mm=math.hypot(w, h) / 2 + 5)
    if rect[2] <= rect[0] or rect[3] <= rect[1]:
        cx, cy = camera.target_mm
        rect = (cx - 1, cy - 1, cx + 1, cy + 1)
    if n_cards is None:
        n_cards = {
            "scattered": (5, 16),
            "rows": (6, 16),
            "piles": (6, 18),
            "fanned": (4, 12),
            "overlapping": (5, 14),
            "touching": (4, 12),
        }[layout]
        n_cards = int(rng.integers(*n_cards))
    places = _layout(rng, layout, deck, n_cards, rect)
    pool = deck_identities(deck, deck_seed)
    order = rng.permutation(len(pool))
    allowed = list(styles) if styles is not None else list(range(N_STYLES[deck]))
    style = int(rng.choice(allowed))
    cards = [
        CardPlacement(
            card_id=i,
            identity=pool[int(order[i % len(pool)])],
            style=style,
            x_mm=x,
            y_mm=y,
            angle_deg=a % 360,
            face_up=up,
            z=i,
        )
        for i, (x, y, a, up) in enumerate(places)
    ]
    n_hands = int(rng.choice([0, 0, 1, 1, 2])) if hands is None else hands
    hand_list = []
    for j in range(n_hands):
        if cards and rng.random() < 0.85:
            target = cards[int(rng.integers(len(cards)))]
            x, y = target.x_mm + float(rng.normal(0, 8)), target.y_mm + float(rng.normal(0, 8))
        else:
            x, y = float(rng.uniform(rect[0], rect[2])), float(rng.uniform(rect[1], rect[3]))
        hand_list.append(random_hand(rng, j, x, y))
    return SceneSpec(
        width=width,
        height=height,
        table=table,
        light=light,
        camera=camera,
        cards=cards,
        hands=hand_list,
        board=board,
        seed=int(rng.integers(1 << 30)),
        props=_clutter(seed, clutter, cards, cam),
    )


def _clutter(seed: int, n: int | None, cards: list[CardPlacement], cam: Camera) -> list[PropPlacement]:
    """Props in the free parts of the view (their own generator: the rest of the scene is unchanged)."""
    rng = np.random.default_rng([0xC1A77E4, seed])
    if n is None:
        n = int(rng.choice([0, 0, 0, 1, 2, 3]))
    x0, y0, x1, y1 = cam.footprint_rect(margin_mm=-40.0)
    taken = [_poly(c.x_mm, c.y_mm, *CARD_SIZE_MM[deck_of(c.identity)], c.angle_deg, grow=6) for c in cards]
    props: list[PropPlacement] = []
    kinds = list(PROP_KINDS)
    for _ in range(n):
        kind = str(rng.choice(kinds))
        pw, ph = PROP_KINDS[kind]
        for _ in range(40):
            x, y = float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))
            a = float(rng.uniform(0, 360))
            poly = _poly(x, y, pw, ph, a, grow=3)
            if not _overlaps(poly, taken):
                taken.append(poly)
                props.append(PropPlacement(kind, int(rng.integers(1000)), x, y, a, -500 + len(props)))
                break
    return props
