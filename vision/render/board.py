"""Twixt and Go board textures with exact truth, and a stand-in camera for board tests.

A board texture is drawn in millimetres (``px_per_mm`` pixels each) with its own top-left at the
image's top-left: hole (row ``r``, column ``c``) sits at ``(margin + c * pitch, margin + r * pitch)``
mm. Twixt: 24 x 24 holes without the four corners, border lines in the players' colours, pegs and
links (bridges). Go: 19 x 19 line intersections, black and white stones.

    >>> pegs = np.zeros((24, 24), np.int8); pegs[5, 5] = pegs[6, 7] = 1
    >>> texture, truth = render_board_texture("twixt", pegs=pegs, links=[(5, 5, 6, 7)])

The compositor of :mod:`vision.render.scene` places such a texture like any planar object;
:func:`render_board_scene` is this module's own small camera (perspective, light, hands, blur,
noise) used by the board tests and benchmark.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

BOARD_KINDS = ("twixt", "go")

# Colours are RGB here and converted to BGR when drawn.
PIECE_RGB: dict[str, tuple[int, int, int]] = {
    "red": (196, 34, 38),
    "black": (28, 28, 32),
    "grey": (128, 132, 136),
    "white": (236, 236, 230),
}
TWIXT_BOARD_RGB = ((232, 222, 196), (214, 206, 188), (222, 200, 160), (205, 212, 200))
GO_BOARD_RGB = ((222, 178, 108), (232, 196, 130), (205, 160, 95))
DEFAULT_COLOURS = {"twixt": ("red", "black"), "go": ("black", "white")}
SKIN_RGB = ((224, 172, 140), (198, 140, 104), (150, 100, 72), (238, 196, 170), (112, 74, 52))
SLEEVE_RGB = ((40, 60, 120), (120, 30, 40), (60, 60, 60), (200, 200, 205), (30, 90, 60), (150, 120, 60))


@dataclass(frozen=True)
class BoardGeometry:
    """Fixed facts of a board design, in millimetres."""

    kind: str
    """``"twixt"`` or ``"go"``."""
    size: int
    """Holes (or lines) per side: 24 for Twixt, 19 for Go."""
    pitch_mm: float
    """Distance between neighbouring holes."""
    margin_mm: float
    """Distance from the board's edge to the outer row of holes."""

    @property
    def board_mm(self) -> float:
        """Side of the (square) board."""
        return (self.size - 1) * self.pitch_mm + 2 * self.margin_mm

    def hole_mm(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """(..., 2) x, y positions in mm of holes at ``rows``, ``cols``."""
        return np.stack(
            [
                self.margin_mm + np.asarray(cols) * self.pitch_mm,
                self.margin_mm + np.asarray(rows) * self.pitch_mm,
            ],
            axis=-1,
        ).astype(np.float64)

    def valid_mask(self) -> np.ndarray:
        """(size, size) bool: where a hole exists (Twixt has no corners)."""
        mask = np.ones((self.size, self.size), bool)
        if self.kind == "twixt":
            n = self.size - 1
            mask[0, 0] = mask[0, n] = mask[n, 0] = mask[n, n] = False
        return mask


def geometry(kind: str, size: int | None = None) -> BoardGeometry:
    """The standard geometry of a board kind (Twixt: 15 mm pitch; Go: 22 mm)."""
    if kind == "twixt":
        return BoardGeometry("twixt", size or 24, 15.0, 16.0)
    if kind == "go":
        return BoardGeometry("go", size or 19, 22.0, 24.0)
    raise ValueError(f"board kind {kind!r}: expected one of {', '.join(BOARD_KINDS)}")


@dataclass(frozen=True, eq=False)
class BoardTruth:
    """What is on a rendered board, exactly."""

    geometry: BoardGeometry
    """Kind, size, pitch and margin."""
    pegs: np.ndarray
    """(size, size) int8: 0 empty, 1 first colour, 2 second colour; row 0 at the texture's top."""
    links: tuple[tuple[int, int, int, int], ...]
    """Links (bridges) as (r1, c1, r2, c2), the lower (r, c) first."""
    colours: tuple[str, str]
    """Names of colour 1 and colour 2."""
    px_per_mm: float
    """Texture resolution."""
    board_rgb: tuple[int, int, int] = (0, 0, 0)
    """The board's base colour (RGB)."""

    @property
    def holes_mm(self) -> np.ndarray:
        """(size, size, 2) hole positions in mm (x, y)."""
        r, c = np.mgrid[0 : self.geometry.size, 0 : self.geometry.size]
        return self.geometry.hole_mm(r, c)


def _bgr(rgb: Sequence[int]) -> tuple[int, int, int]:
    return (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def _shade(rgb: Sequence[int], f: float) -> tuple[int, int, int]:
    return tuple(int(np.clip(v * f, 0, 255)) for v in rgb)  # type: ignore[return-value]


def _circle(img: np.ndarray, xy: Sequence[float], r: float, colour: Sequence[int]) -> None:
    s = 16
    cv2.circle(img, (round(xy[0] * s), round(xy[1] * s)), max(1, round(r * s)), colour, -1, cv2.LINE_AA, 4)


def _line(img: np.ndarray, a: Sequence[float], b: Sequence[float], colour: Sequence[int], w: float) -> None:
    s = 16
    cv2.line(
        img,
        (round(a[0] * s), round(a[1] * s)),
        (round(b[0] * s), round(b[1] * s)),
        colour,
        max(1, round(w)),
        cv2.LINE_AA,
        4,
    )


def render_board_texture(
    kind: str = "twixt",
    pegs: np.ndarray | None = None,
    links: Iterable[Sequence[int]] = (),
    colours: Sequence[str] | None = None,
    size: int | None = None,
    px_per_mm: float = 3.0,
    style: int = 0,
) -> tuple[np.ndarray, BoardTruth]:
    """The board as a BGR uint8 texture (square, ``board_mm * px_per_mm`` pixels) and its truth.

    ``pegs`` is a (size, size) matrix of 0 / 1 / 2; ``links`` (r1, c1, r2, c2) join two pegs of the
    same colour a knight's move apart; ``style`` picks the board colour. Deterministic.
    """
    geo = geometry(kind, size)
    n = geo.size
    colours = tuple(colours or DEFAULT_COLOURS[kind])
    if len(colours) != 2 or any(c not in PIECE_RGB for c in colours):
        raise ValueError(f"colours {colours!r}: expected two of {', '.join(PIECE_RGB)}")
    pegs = np.zeros((n, n), np.int8) if pegs is None else np.asarray(pegs, np.int8)
    if pegs.shape != (n, n):
        raise ValueError(f"pegs of shape {pegs.shape}: expected ({n}, {n})")
    links_t = tuple(tuple(int(v) for v in link) for link in links)
    palette = TWIXT_BOARD_RGB if kind == "twixt" else GO_BOARD_RGB
    board_rgb = palette[style % len(palette)]
    side = round(geo.board_mm * px_per_mm)
    img = np.empty((side, side, 3), np.uint8)
    img[:] = _bgr(board_rgb)
    # A faint grain so the board is not a flat colour.
    rng = np.random.default_rng(1000 + style)
    grain = cv2.resize(rng.normal(0, 1, (side // 24 + 1, side // 3 + 1)).astype(np.float32), (side, side))
    img = np.clip(img.astype(np.float32) + 3.0 * grain[..., None], 0, 255).astype(np.uint8)
    s = px_per_mm
    pitch = geo.pitch_mm * s
    r_idx, c_idx = np.mgrid[0:n, 0:n]
    holes = geo.hole_mm(r_idx, c_idx) * s
    valid = geo.valid_mask()
    cv2.rectangle(img, (0, 0), (side - 1, side - 1), _bgr(_shade(board_rgb, 0.8)), max(1, round(1.5 * s)))
    if kind == "twixt":
        c1, c2 = (PIECE_RGB[c] for c in colours)
        lo, hi = holes[0, 0], holes[n - 1, n - 1]
        half = 0.5 * pitch
        w = 0.1 * pitch
        # Colour 1 owns the top and bottom border rows; colour 2 the left and right ones.
        for y in (lo[1] + half, hi[1] - half):
            _line(img, (lo[0] + half, y), (hi[0] - half, y), _bgr(c1), w)
        for x in (lo[0] + half, hi[0] - half):
            _line(img, (x, lo[1] + half), (x, hi[1] - half), _bgr(c2), w)
        hole_col = _bgr(_shade(board_rgb, 0.3))
        for (x, y), ok in zip(holes.reshape(-1, 2), valid.ravel(), strict=True):
            if ok:
                _circle(img, (x, y), 0.11 * pitch, hole_col)
        for r1, c1_, r2, c2_ in links_t:
            colour = PIECE_RGB[colours[int(pegs[r1, c1_]) - 1]] if pegs[r1, c1_] else (90, 90, 90)
            _line(img, holes[r1, c1_], holes[r2, c2_], _bgr(_shade(colour, 0.9)), 0.2 * pitch)
        for r, c in zip(*np.nonzero(pegs), strict=True):
            rgb = PIECE_RGB[colours[int(pegs[r, c]) - 1]]
            _circle(img, holes[r, c], 0.3 * pitch, _bgr(_shade(rgb, 0.8)))
            _circle(img, holes[r, c], 0.22 * pitch, _bgr(rgb))
            _circle(
                img,
                holes[r, c] - 0.05 * pitch,
                0.07 * pitch,
                _bgr(_shade(rgb, 1.25) if sum(rgb) > 90 else (80, 80, 84)),
            )
    else:
        line_col = _bgr((40, 30, 20))
        lo, hi = holes[0, 0], holes[n - 1, n - 1]
        for i in range(n):
            _line(img, (holes[0, i][0], lo[1]), (holes[0, i][0], hi[1]), line_col, 0.05 * pitch)
            _line(img, (lo[0], holes[i, 0][1]), (hi[0], holes[i, 0][1]), line_col, 0.05 * pitch)
        if n == 19:
            for r in (3, 9, 15):
                for c in (3, 9, 15):
                    _circle(img, holes[r, c], 0.09 * pitch, line_col)
        for r, c in zip(*np.nonzero(pegs), strict=True):
            rgb = PIECE_RGB[colours[int(pegs[r, c]) - 1]]
            _circle(img, holes[r, c], 0.47 * pitch, _bgr(_shade(rgb, 0.85)))
            _circle(img, holes[r, c], 0.42 * pitch, _bgr(rgb))
            _circle(
                img,
                holes[r, c] - 0.14 * pitch,
                0.1 * pitch,
                _bgr(_shade(rgb, 1.1) if sum(rgb) > 90 else (70, 70, 74)),
            )
    truth = BoardTruth(geo, pegs.copy(), tuple(sorted(links_t)), colours, px_per_mm, board_rgb)  # type: ignore[arg-type]
    return img, truth


# -- random positions ---------------------------------------------------------------------------

KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2))


def _segments_cross(a: Sequence[int], b: Sequence[int]) -> bool:
    """Whether links a and b (r1, c1, r2, c2) cross (sharing an end peg is not crossing)."""
    p1, p2, p3, p4 = (a[0], a[1]), (a[2], a[3]), (b[0], b[1]), (b[2], b[3])
    if len({p1, p2, p3, p4}) < 4:
        return False

    def orient(p: tuple[int, int], q: tuple[int, int], r: tuple[int, int]) -> int:
        v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        return (v > 0) - (v < 0)

    return orient(p1, p2, p3) * orient(p1, p2, p4) < 0 and orient(p3, p4, p1) * orient(p3, p4, p2) < 0


def random_twixt_position(
    rng: random.Random, n_pegs: int, size: int = 24, link_prob: float = 0.8
) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """A random position that the Twixt rules allow: colour 1 avoids the left and right border
    columns, colour 2 the top and bottom rows, no corners, colours alternate (1 moves first), and
    links join knight-move pairs of one colour without crossing any other link."""
    geo = geometry("twixt", size)
    valid = geo.valid_mask()
    n = size
    allowed = {
        1: [(r, c) for r in range(n) for c in range(1, n - 1) if valid[r, c]],
        2: [(r, c) for r in range(1, n - 1) for c in range(n) if valid[r, c]],
    }
    pegs = np.zeros((n, n), np.int8)
    for i in range(n_pegs):
        colour = 1 + i % 2
        free = [p for p in allowed[colour] if pegs[p] == 0]
        if not free:
            break
        pegs[rng.choice(free)] = colour
    links: list[tuple[int, int, int, int]] = []
    candidates = []
    for r, c in zip(*np.nonzero(pegs), strict=True):
        for dr, dc in KNIGHT:
            r2, c2 = r + dr, c + dc
            if 0 <= r2 < n and 0 <= c2 < n and pegs[r2, c2] == pegs[r, c]:
                candidates.append((int(r), int(c), int(r2), int(c2)))
    rng.shuffle(candidates)
    for cand in candidates:
        if rng.random() < link_prob and not any(_segments_cross(cand, other) for other in links):
            links.append(cand)
    return pegs, sorted(links)


def random_go_position(rng: random.Random, n_stones: int, size: int = 19) -> np.ndarray:
    """Random black and white stones (no capture logic: a test of reading, not of Go)."""
    pegs = np.zeros((size, size), np.int8)
    cells = [(r, c) for r in range(size) for c in range(size)]
    for i, p in enumerate(rng.sample(cells, min(n_stones, len(cells)))):
        pegs[p] = 1 + i % 2
    return pegs


# -- a small camera for board scenes -------------------------------------------------------------


@dataclass(frozen=True)
class HandSpec:
    """An arm entering from an image edge with its hand over the board."""

    seat: str
    """``"top"``, ``"bottom"``, ``"left"`` or ``"right"``: the image edge it comes from."""
    tip_mm: tuple[float, float]
    """Where the finger tips are, in board mm (may be outside the board)."""
    width_mm: float = 85.0
    skin: int = 0
    sleeve: int = 0


@dataclass(frozen=True)
class CameraSpec:
    """Where the camera looks from and what the image suffers."""

    width: int = 1920
    height: int = 1080
    tilt_deg: float = 0.0
    azimuth_deg: float = 0.0
    roll_deg: float = 0.0
    fill: float = 0.8
    """Fraction of the image height the board spans (roughly)."""
    offset: tuple[float, float] = (0.0, 0.0)
    """Shift of the board's centre from the image's centre, in fractions of the image size."""
    gain: float = 1.0
    """Overall brightness."""
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """Per-channel (B, G, R) light colour."""
    gradient: tuple[float, float] = (0.0, 0.0)
    """Brightness slope across the image, x and y (fraction over the whole width / height)."""
    blur: float = 0.6
    noise: float = 2.0
    jpeg: int = 0
    """JPEG quality, 0 for none."""
    table: int = 0
    """Table texture seed."""


@dataclass(frozen=True, eq=False)
class BoardScene:
    """A rendered frame of a board and where everything is in it."""

    image: np.ndarray
    """BGR uint8 frame."""
    truth: BoardTruth
    homography: np.ndarray
    """3x3, board mm -> image px."""
    hand_mask: np.ndarray
    """(H, W) bool: pixels of hands and arms."""
    corners: np.ndarray = field(default_factory=lambda: np.zeros((4, 2)))
    """(4, 2) image px of the board's corners: top-left, top-right, bottom-right, bottom-left of
    the texture."""
    lens_holes: np.ndarray | None = None
    """(size, size, 2) hole positions in the image through the camera's lens, when it has one
    (``homography`` ignores the lens)."""

    def holes_px(self) -> np.ndarray:
        """(size, size, 2) hole positions in the image (through the lens)."""
        if self.lens_holes is not None:
            return self.lens_holes.copy()
        pts = self.truth.holes_mm.reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape((*self.truth.pegs.shape, 2))

    def covered(self, radius_mm: float | None = None) -> np.ndarray:
        """(size, size) bool: holes whose disc (peg radius) touches a hand in the image."""
        geo = self.truth.geometry
        radius_mm = radius_mm or 0.5 * geo.pitch_mm
        holes = self.holes_px()
        scale = math.sqrt(abs(np.linalg.det(self.homography[:2, :2]))) / max(self.homography[2, 2], 1e-9)
        rad = max(2, round(radius_mm * scale))
        dil = cv2.dilate(
            self.hand_mask.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * rad + 1,) * 2)
        )
        xs = np.clip(np.round(holes[..., 0]).astype(int), 0, dil.shape[1] - 1)
        ys = np.clip(np.round(holes[..., 1]).astype(int), 0, dil.shape[0] - 1)
        return dil[ys, xs] > 0


def camera_homography(board_mm: float, cam: CameraSpec) -> np.ndarray:
    """Board mm -> image px for a pinhole camera tilted ``tilt_deg`` from straight down."""

    def rot(axis: int, deg: float) -> np.ndarray:
        a = math.radians(deg)
        c, s = math.cos(a), math.sin(a)
        m = np.eye(3)
        i, j = [(1, 2), (0, 2), (0, 1)][axis]
        m[i, i], m[i, j], m[j, i], m[j, j] = c, -s, s, c
        return m

    r = rot(2, cam.roll_deg) @ rot(0, cam.tilt_deg) @ rot(2, cam.azimuth_deg)
    dist = 1.6 * board_mm
    centre = np.array([[1, 0, -board_mm / 2], [0, 1, -board_mm / 2], [0, 0, 1]], float)
    h = np.column_stack([r[:, 0], r[:, 1], np.array([0.0, 0.0, dist])]) @ centre
    corners = np.array([[0, 0], [board_mm, 0], [board_mm, board_mm], [0, board_mm]], float)
    pts = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), h).reshape(-1, 2)
    span = max(np.ptp(pts[:, 1]), np.ptp(pts[:, 0]) * cam.height / cam.width)
    k = cam.fill * cam.height / span
    mid = (pts.max(0) + pts.min(0)) / 2
    sim = np.array(
        [
            [k, 0, cam.width / 2 + cam.offset[0] * cam.width - k * mid[0]],
            [0, k, cam.height / 2 + cam.offset[1] * cam.height - k * mid[1]],
            [0, 0, 1],
        ]
    )
    out = sim @ h
    return out / out[2, 2]


def _table(cam: CameraSpec) -> np.ndarray:
    rng = np.random.default_rng(cam.table)
    base = np.array(
        rng.choice([(60, 80, 110), (40, 90, 50), (90, 90, 95), (30, 50, 80), (120, 120, 130)]), float
    )
    noise = cv2.resize(rng.normal(0, 1, (18, 32)).astype(np.float32), (cam.width, cam.height))
    fine = rng.normal(0, 4, (cam.height, cam.width)).astype(np.float32)
    img = base[None, None, :] * (1 + 0.12 * noise[..., None]) + fine[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _draw_hands(img: np.ndarray, hands: Sequence[HandSpec], h: np.ndarray, cam: CameraSpec) -> np.ndarray:
    """Draw arms with hands (and a soft shadow) onto ``img``; return the (H, W) bool hand mask."""
    mask = np.zeros(img.shape[:2], np.uint8)
    shadow = np.zeros(img.shape[:2], np.uint8)
    scale = math.sqrt(abs(np.linalg.det(h[:2, :2]))) / h[2, 2]
    for hand in hands:
        tip = cv2.perspectiveTransform(np.array([[hand.tip_mm]], float), h).reshape(2)
        w = hand.width_mm * scale
        edge = {
            "top": (tip[0] + 0.15 * (tip[0] - cam.width / 2), -w),
            "bottom": (tip[0] + 0.15 * (tip[0] - cam.width / 2), cam.height + w),
            "left": (-w, tip[1]),
            "right": (cam.width + w, tip[1]),
        }[hand.seat]
        start = np.array(edge, float)
        d = tip - start
        d /= max(np.linalg.norm(d), 1e-6)
        palm = tip - d * 0.7 * w
        layer = np.zeros_like(mask)
        _line(layer, start, palm, 255, w)
        cv2.ellipse(
            layer,
            (round(palm[0] * 16), round(palm[1] * 16)),
            (round(0.75 * w * 16), round(0.55 * w * 16)),
            math.degrees(math.atan2(d[1], d[0])),
            0,
            360,
            255,
            -1,
            cv2.LINE_AA,
            4,
        )
        for k in (-0.3, -0.1, 0.1, 0.3):
            base = palm + np.array([-d[1], d[0]]) * k * w
            _line(layer, base, base + d * 0.75 * w, 255, 0.17 * w)
        sleeve_len = np.linalg.norm(palm - start) * 0.55
        sleeve = np.zeros_like(mask)
        _line(sleeve, start, start + d * sleeve_len, 255, w * 1.15)
        skin = _bgr(SKIN_RGB[hand.skin % len(SKIN_RGB)])
        cloth = _bgr(SLEEVE_RGB[hand.sleeve % len(SLEEVE_RGB)])
        m = layer > 127
        shade = np.linspace(0.85, 1.1, img.shape[1], dtype=np.float32)[None, :, None]
        img[m] = np.clip(np.array(skin, np.float32) * shade[0, np.nonzero(m)[1]], 0, 255).astype(np.uint8)
        img[sleeve > 127] = cloth
        mask |= layer | sleeve
        off = np.float32([[1, 0, 0.25 * w], [0, 1, 0.35 * w]])
        shadow |= cv2.warpAffine(layer | sleeve, off, (img.shape[1], img.shape[0]))
    if hands:
        soft = (
            cv2.GaussianBlur(shadow, (0, 0), 0.25 * hands[0].width_mm * scale + 1).astype(np.float32) / 255.0
        )
        factor = 1.0 - 0.35 * soft * (mask < 128)
        img[:] = np.clip(img.astype(np.float32) * factor[..., None], 0, 255).astype(np.uint8)
    return mask > 127


def render_board_scene(
    texture: np.ndarray,
    truth: BoardTruth,
    cam: CameraSpec,
    hands: Sequence[HandSpec] = (),
    seed: int = 0,
) -> BoardScene:
    """The board texture seen by ``cam`` on a table, with ``hands``, light, blur and noise."""
    geo = truth.geometry
    h = camera_homography(geo.board_mm, cam)
    tex_to_img = h @ np.diag([1 / truth.px_per_mm, 1 / truth.px_per_mm, 1.0])
    img = _table(cam)
    cv2.warpPerspective(
        texture,
        tex_to_img,
        (cam.width, cam.height),
        dst=img,
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_TRANSPARENT,
    )
    hand_mask = _draw_hands(img, hands, h, cam)
    f = img.astype(np.float32)
    ys = (np.arange(cam.height, dtype=np.float32) / cam.height - 0.5)[:, None]
    xs = (np.arange(cam.width, dtype=np.float32) / cam.width - 0.5)[None, :]
    light = cam.gain * (1 + cam.gradient[0] * xs + cam.gradient[1] * ys)
    f *= light[..., None] * np.array(cam.tint, np.float32)[None, None, :]
    if cam.blur > 0:
        f = cv2.GaussianBlur(f, (0, 0), cam.blur)
    if cam.noise > 0:
        rng = np.random.default_rng(seed)
        f += rng.normal(0, cam.noise, f.shape).astype(np.float32)
    img = np.clip(f, 0, 255).astype(np.uint8)
    if cam.jpeg:
        _ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, cam.jpeg])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    b = geo.board_mm
    corners = cv2.perspectiveTransform(np.array([[[0, 0]], [[b, 0]], [[b, b]], [[0, b]]], float), h).reshape(
        4, 2
    )
    return BoardScene(img, truth, h, hand_mask, corners)


def random_camera(
    rng: random.Random, width: int = 1920, height: int = 1080, max_tilt: float = 35.0
) -> CameraSpec:
    """A random camera: tilt up to ``max_tilt``, azimuth within 30 degrees (the board keeps its image
    orientation), slight roll, varied light."""
    return CameraSpec(
        width=width,
        height=height,
        tilt_deg=rng.uniform(0, max_tilt),
        azimuth_deg=rng.uniform(-30, 30),
        roll_deg=rng.uniform(-8, 8),
        fill=rng.uniform(0.7, 0.88),
        offset=(rng.uniform(-0.04, 0.04), rng.uniform(-0.02, 0.02)),
        gain=rng.uniform(0.6, 1.15),
        tint=(rng.uniform(0.8, 1.15), rng.uniform(0.9, 1.05), rng.uniform(0.8, 1.15)),
        gradient=(rng.uniform(-0.35, 0.35), rng.uniform(-0.35, 0.35)),
        blur=rng.uniform(0.3, 1.1),
        noise=rng.uniform(1.0, 4.0),
        jpeg=rng.choice([0, 85, 92]),
        table=rng.randrange(1000),
    )


def random_hands(rng: random.Random, board_mm: float, n: int) -> list[HandSpec]:
    """``n`` hands reaching over the board from random edges."""
    out = []
    for _ in range(n):
        seat = rng.choice(["top", "bottom", "left", "right"])
        tip = (rng.uniform(0.15, 0.85) * board_mm, rng.uniform(0.15, 0.85) * board_mm)
        out.append(HandSpec(seat, tip, rng.uniform(70, 100), rng.randrange(5), rng.randrange(6)))
    return out


# -- through the scene compositor ------------------------------------------------------------------


def compositor_board_scene(
    seed: int,
    texture: np.ndarray,
    truth: BoardTruth,
    width: int = 1280,
    height: int = 720,
    hands: int = 0,
    max_tilt: float = 35.0,
    distortion: bool = True,
    k1: float | None = None,
) -> BoardScene:
    """The board rendered by :func:`vision.render.scene.render` (its table, light, glare,
    shadows, hands, lens, blur, noise and JPEG), the camera raised so the whole board is in view,
    ``hands`` hands reaching over it. ``homography`` ignores lens distortion (as the compositor's
    own truth does); ``lens_holes`` has the holes through the lens. ``k1`` sets the lens's
    barrel term (the random camera's otherwise; none without ``distortion``)."""
    from vision.render.scene import render
    from vision.render.scene_layout import random_camera as scene_camera
    from vision.render.scene_layout import random_scene
    from vision.render.scene_types import SKIN_TONES, BoardPlacement, HandPlacement

    rng = np.random.default_rng([0xB0A2D, seed])
    board_mm = truth.geometry.board_mm
    angle = float(rng.uniform(-12, 12))
    cam = scene_camera(rng, max_tilt)
    # High enough that the board fills 60..85 % of the image height.
    vfov = 2 * math.atan(math.tan(math.radians(cam.hfov_deg) / 2) * height / width)
    fill = float(rng.uniform(0.6, 0.85))
    h_mm = 0.7 * board_mm / fill / (2 * math.tan(vfov / 2))
    from dataclasses import replace as _replace

    cam = _replace(
        cam,
        height_mm=h_mm,
        target_mm=(float(rng.normal(0, 10)), float(rng.normal(0, 10))),
        k1=(cam.k1 if k1 is None else k1) if distortion else 0.0,
    )
    placements = []
    for k in range(hands):
        seat = ["bottom", "top", "left", "right"][int(rng.integers(4))]
        tip = rng.uniform(-0.35, 0.35, 2) * board_mm
        placements.append(
            HandPlacement(
                k,
                seat,
                float(tip[0]),
                float(tip[1]),
                skin=SKIN_TONES[int(rng.integers(len(SKIN_TONES)))],
                sleeve=tuple(int(v) for v in rng.integers(20, 230, 3)),  # type: ignore[arg-type]
                angle_deg=float(rng.uniform(-25, 25)),
                height_mm=float(rng.choice([0.0, 0.0, 30.0])),
            )
        )
    board = BoardPlacement(texture, board_mm, board_mm, 0.0, 0.0, angle, truth)
    for _ in range(4):
        spec = random_scene(seed, width, height, n_cards=0, hands=0, camera=cam, board=board, clutter=0)
        spec.hands = placements
        image, ft = render(spec)
        b = board_mm * truth.px_per_mm
        pts = np.array([[[0, 0]], [[b, 0]], [[b, b]], [[0, b]]], float)
        seen = cv2.perspectiveTransform(pts, ft.board_homography).reshape(4, 2)
        inside = (seen.min(0) >= 0.02 * np.array([width, height])).all() and (
            seen.max(0) <= 0.98 * np.array([width, height])
        ).all()
        if inside:
            break
        cam = _replace(cam, height_mm=cam.height_mm * 1.2)  # raise the camera until the board fits
    h = ft.board_homography @ np.diag([truth.px_per_mm, truth.px_per_mm, 1.0])
    h = h / h[2, 2]
    b = board_mm
    corners = cv2.perspectiveTransform(np.array([[[0, 0]], [[b, 0]], [[b, b]], [[0, b]]], float), h).reshape(
        4, 2
    )
    lens_holes = None
    if cam.k1:
        flat = cv2.perspectiveTransform(truth.holes_mm.reshape(-1, 1, 2), h).reshape(-1, 2)
        lens_holes = ft.distort(flat).reshape((*truth.pegs.shape, 2))
    return BoardScene(image, truth, h, np.asarray(ft.hand_mask, bool), corners, lens_holes)
