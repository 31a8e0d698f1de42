"""The values a rendered scene is made of (its spec) and what it returns (its truth).

Table coordinates are millimetres on the table plane, x to the right and y towards the bottom
of the image (the seat nearest the camera), origin where the camera's axis meets the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

SEATS: tuple[str, ...] = ("top", "bottom", "left", "right")
TABLE_KINDS: tuple[str, ...] = ("wood", "felt", "cloth", "glossy")

SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (196, 214, 245),  # very light
    (170, 196, 235),
    (140, 175, 225),
    (110, 150, 205),
    (85, 125, 185),
    (60, 95, 150),
    (45, 70, 115),
    (30, 45, 75),  # very dark
)
"""BGR skin tones from very light to very dark."""


@dataclass(frozen=True)
class TableSpec:
    kind: str = "wood"
    """wood | felt | cloth | glossy."""
    seed: int = 0
    """Texture seed (textures are cached per kind and seed)."""


@dataclass(frozen=True)
class LightSpec:
    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """Per-channel BGR gains: colour temperature (warm light: b < 1 < r)."""
    brightness: float = 1.0
    gradient: tuple[float, float] = (0.0, 0.0)
    """(angle in degrees, strength 0..1): light falls off linearly across the image."""
    vignette: float = 0.0
    """Darkening of the image corners, 0..1."""
    shadow_bands: tuple[tuple[float, float, float, float, float], ...] = ()
    """(angle deg, offset -1..1, width 0..1, softness 0..1, darkness 0..1) soft shadow stripes."""
    shadow_blobs: tuple[tuple[float, float, float, float, float], ...] = ()
    """(x 0..1, y 0..1, radius 0..1 of the width, softness 0..1, darkness 0..1) soft round shadows
    (a phone or a head between the lamp and the table)."""
    glare: tuple[tuple[float, float, float, float], ...] = ()
    """(x 0..1, y 0..1, radius 0..1 of the width, strength 0..1) bright spots."""
    shadow_dir: tuple[float, float] = (0.5, 0.8)
    """Direction shadows fall in, image px per mm of height."""
    card_shadow: float = 0.3
    """Darkness of the thin shadow a card throws on what lies under it."""


@dataclass(frozen=True)
class CameraSpec:
    height_mm: float = 700.0
    """Height of the camera above the table."""
    tilt_deg: float = 0.0
    """0 looks straight down; up to 35 looks from the bottom seat's side."""
    yaw_deg: float = 0.0
    """Turn about the vertical axis."""
    hfov_deg: float = 62.0
    """Horizontal field of view."""
    k1: float = 0.0
    """Barrel distortion (>= 0; 0.05 is visible)."""
    focus_blur: float = 0.0
    """Gaussian sigma in px."""
    motion_blur: tuple[float, float] = (0.0, 0.0)
    """(length px, angle deg)."""
    noise: float = 0.0
    """Sensor noise sigma in grey levels."""
    jpeg_quality: int | None = None
    """Re-encode as JPEG at this quality (None: no)."""
    target_mm: tuple[float, float] = (0.0, 0.0)
    """Point of the table the optical axis goes through."""


@dataclass(frozen=True)
class CardPlacement:
    card_id: int
    identity: str
    style: int = 0
    x_mm: float = 0.0
    """Centre of the card."""
    y_mm: float = 0.0
    angle_deg: float = 0.0
    """Turn of the card, clockwise in the image, 0 = upright (its top towards the top seat)."""
    face_up: bool = True
    z: int = 0
    """Stacking order: higher lies on top."""


@dataclass(frozen=True)
class HandPlacement:
    hand_id: int
    seat: str
    """The table edge the arm comes from: top | bottom | left | right."""
    tip_x_mm: float
    """Where the middle fingertip is, on the table."""
    tip_y_mm: float
    skin: tuple[int, int, int] = SKIN_TONES[2]
    sleeve: tuple[int, int, int] = (120, 60, 40)
    angle_deg: float = 0.0
    """Turn of the arm away from straight in from its edge."""
    scale: float = 1.0
    """Hand size (1.0: a palm 84 mm wide)."""
    spread: float = 0.3
    """Finger spread 0..1."""
    curl: float = 0.0
    """0: flat hand, 1: closed."""
    right: bool = True
    """Right hand (thumb on the left when palm down, seen from above) or left."""
    height_mm: float = 0.0
    """Height above the table: 0 when resting on it (sharp shadow), more when hovering."""
    sleeve_start_mm: float = 90.0
    """Where the sleeve begins, from the wrist up the forearm."""
    motion_mm: tuple[float, float] = (0.0, 0.0)
    """How far the hand moves during the exposure (table mm): motion blur of the hand alone."""

    def direction(self) -> tuple[float, float]:
        """Unit vector (table mm) from wrist to fingertips."""
        base = {"bottom": -90.0, "top": 90.0, "left": 0.0, "right": 180.0}[self.seat]
        a = math.radians(base + self.angle_deg)
        return math.cos(a), math.sin(a)

    @staticmethod
    def palm_offset_mm(scale: float = 1.0, curl: float = 0.0) -> float:
        """Distance from the palm's centre to the middle fingertip."""
        return (47.0 + 85.0 * (1 - 0.55 * curl)) * scale

    @classmethod
    def over(cls, hand_id: int, seat: str, x_mm: float, y_mm: float, **kw: Any) -> HandPlacement:
        """A hand whose palm is centred on (x_mm, y_mm)."""
        probe = cls(hand_id, seat, 0.0, 0.0, **kw)
        dx, dy = probe.direction()
        d = cls.palm_offset_mm(probe.scale, probe.curl)
        return cls(hand_id, seat, x_mm + dx * d, y_mm + dy * d, **kw)

    def palm_centre(self) -> tuple[float, float]:
        dx, dy = self.direction()
        d = self.palm_offset_mm(self.scale, self.curl)
        return self.tip_x_mm - dx * d, self.tip_y_mm - dy * d


@dataclass(frozen=True, eq=False)
class BoardPlacement:
    """A textured board (Twixt, Go) lying on the table; it goes through the same camera pipeline."""

    texture: np.ndarray
    """BGR uint8 texture, its own top-left at index [0, 0]."""
    width_mm: float
    height_mm: float
    x_mm: float = 0.0
    """Centre on the table."""
    y_mm: float = 0.0
    angle_deg: float = 0.0
    truth: Any = None
    """The board's own truth (``vision.render.board.BoardTruth``), in texture pixels."""
    z: int = -1000
    """Stacking order against the cards (below them by default)."""


@dataclass(frozen=True)
class PropPlacement:
    """A thing on the table that is not a card (see :mod:`vision.render.scene_props`)."""

    kind: str
    """pad | phone | coin | pen | coaster."""
    seed: int = 0
    x_mm: float = 0.0
    y_mm: float = 0.0
    angle_deg: float = 0.0
    z: int = -500
    """Stacking order against the cards (below them by default)."""


@dataclass
class SceneSpec:
    """Everything a frame is rendered from; ``render(spec)`` is a pure function of it."""

    width: int = 1280
    height: int = 720
    table: TableSpec = field(default_factory=TableSpec)
    light: LightSpec = field(default_factory=LightSpec)
    camera: CameraSpec = field(default_factory=CameraSpec)
    cards: list[CardPlacement] = field(default_factory=list)
    hands: list[HandPlacement] = field(default_factory=list)
    board: BoardPlacement | None = None
    seed: int = 0
    """Seeds the sensor noise."""
    props: list[PropPlacement] = field(default_factory=list)
    """Clutter that is not a card (score pads, phones, coins, pens, coasters)."""


@dataclass(frozen=True, eq=False)
class CardTruth:
    card_id: int
    identity: str
    deck: str
    quad: np.ndarray
    """(4, 2) float32 image px: the card's own top-left, top-right, bottom-right, bottom-left (distorted)."""
    visible_fraction: float
    """0..1 of the card's area seen (after cards on top, hands, and the image border)."""
    covered_by_hands: tuple[int, ...]
    """Hands that hide more than half of what other cards leave visible of this card (when they
    leave at least a fifth of it: a card deep in a pile is not under a hand)."""
    face_up: bool
    z: int = 0
    style: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "card_id": self.card_id,
            "identity": self.identity,
            "deck": self.deck,
            "quad": [[round(float(x), 3), round(float(y), 3)] for x, y in self.quad],
            "visible_fraction": round(self.visible_fraction, 4),
            "covered_by_hands": list(self.covered_by_hands),
            "face_up": self.face_up,
            "z": self.z,
            "style": self.style,
        }


@dataclass(frozen=True)
class HandTruth:
    hand_id: int
    seat: str
    """The image edge the arm enters from."""
    covers: tuple[int, ...]
    """Card ids this hand covers (see :attr:`CardTruth.covered_by_hands`)."""
    bbox: tuple[int, int, int, int]
    """x, y, width, height in image px (0 size when out of view)."""
    height_mm: float = 0.0
    """0: resting on the table."""
    under: tuple[int, ...] = ()
    """Hands lying over this one (Twin It: the lower hand on a card wins)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "hand_id": self.hand_id,
            "seat": self.seat,
            "covers": list(self.covers),
            "bbox": list(self.bbox),
            "height_mm": self.height_mm,
            "under": list(self.under),
        }


@dataclass(frozen=True)
class SceneEvent:
    """A hand landed on or lifted off cards (scenario truth)."""

    time: float
    kind: str
    """``"landed"`` or ``"lifted"``."""
    hand_id: int
    seat: str
    card_ids: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "time": round(self.time, 4),
            "kind": self.kind,
            "hand_id": self.hand_id,
            "seat": self.seat,
            "card_ids": list(self.card_ids),
        }


@dataclass(frozen=True, eq=False)
class FrameTruth:
    width: int
    height: int
    cards: list[CardTruth]
    hands: list[HandTruth]
    hand_mask: np.ndarray
    """(H, W) bool, in the distorted image."""
    homography_table_to_image: np.ndarray
    """3x3: table mm -> image px, before lens distortion (see :meth:`distort`)."""
    spec: SceneSpec
    board: Any = None
    """The board's truth (texture pixels) when a board is in the scene."""
    board_homography: np.ndarray | None = None
    """3x3: board texture px -> image px before lens distortion."""
    events: tuple[SceneEvent, ...] = ()
    """Hand landed / lifted events of this frame (scenarios)."""
    time: float = 0.0

    def card(self, card_id: int) -> CardTruth | None:
        return next((c for c in self.cards if c.card_id == card_id), None)

    def distort(self, points: np.ndarray) -> np.ndarray:
        """Apply the camera's lens distortion to undistorted image points (N, 2)."""
        from vision.render.scene_camera import Camera

        cam = Camera.build(self.spec.camera, self.width, self.height)
        return cam.distort(np.asarray(points, np.float64))

    def table_to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """Table mm (N, 2) -> distorted image px (N, 2)."""
        from vision.render.scene_camera import Camera

        cam = Camera.build(self.spec.camera, self.width, self.height)
        return cam.project(np.asarray(points_mm, np.float64))

    def to_json(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "time": round(self.time, 4),
            "cards": [c.to_json() for c in self.cards],
            "hands": [h.to_json() for h in self.hands],
            "events": [e.to_json() for e in self.events],
            "homography_table_to_image": np.asarray(self.homography_table_to_image).round(8).tolist(),
            "camera": {
                "height_mm": self.spec.camera.height_mm,
                "tilt_deg": self.spec.camera.tilt_deg,
                "yaw_deg": self.spec.camera.yaw_deg,
                "k1": self.spec.camera.k1,
            },
            "board_homography": None
            if self.board_homography is None
            else np.asarray(self.board_homography).round(8).tolist(),
            "board": _board_json(self.board),
        }


def _board_json(board: Any) -> Any:
    if board is None:
        return None
    to_json = getattr(board, "to_json", None)
    if callable(to_json):
        return to_json()
    pegs = getattr(board, "pegs", None)
    if pegs is not None:  # a board reading (vision.render.board.BoardTruth): its facts as JSON
        geo = getattr(board, "geometry", None)
        rows, cols = np.nonzero(np.asarray(pegs))
        return {
            "kind": getattr(geo, "kind", None),
            "size": getattr(geo, "size", None),
            "pitch_mm": getattr(geo, "pitch_mm", None),
            "margin_mm": getattr(geo, "margin_mm", None),
            "px_per_mm": getattr(board, "px_per_mm", None),
            "colours": list(getattr(board, "colours", ()) or ()),
            "pegs": [[int(r), int(c), int(pegs[r, c])] for r, c in zip(rows, cols, strict=True)],
            "links": [list(map(int, lk)) for lk in getattr(board, "links", ())],
        }
    return repr(board)
