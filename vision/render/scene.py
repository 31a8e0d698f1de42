"""Rendered table scenes with exact truth: ``render(spec) -> (image, FrameTruth)``.

>>> spec = random_scene(seed=3, deck="themind", layout="rows", hands=1)
>>> image, truth = render(spec)              # BGR uint8 (720, 1280, 3), deterministic
>>> truth.cards[0].quad                      # (4, 2) px, from the card's own top-left, clockwise

The pipeline, built for speed (>= 20 frames/s at 1280 x 720 on one core): the table texture is
warped once per camera (cached); every planar object (card face, card back, board) is a cached
BGRA texture at the mip level nearest its on-screen size, warped with ``cv2.warpPerspective`` on
its bounding box only and blended with its rounded-corner alpha; an id map records which object
owns each pixel, so visible fractions are exact under occlusion; hands are polygons with soft
shading and a soft shadow; light is a cached multiplicative map; lens distortion is one
``cv2.remap``; then blur, noise and JPEG.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass

import cv2
import numpy as np

from vision.render.faces import (
    CARD_SIZE_MM,
    CORNER_RADIUS_MM,
    card_size_px,
    deck_of,
    render_back,
    render_face,
)
from vision.render.faces_draw import rounded_rect_mask
from vision.render.scene_camera import Camera
from vision.render.scene_hands import HandLayer, build_layer, cast_shadow, composite, entry_seat
from vision.render.scene_layout import random_scene
from vision.render.scene_light import apply_light_and_noise, jpeg, motion_kernel
from vision.render.scene_props import PROP_KINDS, prop_texture
from vision.render.scene_table import table_texture, texture_to_table
from vision.render.scene_types import (
    SEATS,
    SKIN_TONES,
    TABLE_KINDS,
    BoardPlacement,
    CameraSpec,
    CardPlacement,
    CardTruth,
    FrameTruth,
    HandPlacement,
    HandTruth,
    LightSpec,
    PropPlacement,
    SceneEvent,
    SceneSpec,
    TableSpec,
)

__all__ = [
    "SEATS",
    "SKIN_TONES",
    "TABLE_KINDS",
    "BoardPlacement",
    "CameraSpec",
    "CardPlacement",
    "CardTruth",
    "FrameTruth",
    "HandPlacement",
    "HandTruth",
    "LightSpec",
    "PropPlacement",
    "SceneEvent",
    "SceneSpec",
    "TableSpec",
    "card_corners_mm",
    "random_scene",
    "render",
]

MIP_LEVELS: tuple[float, ...] = (1.5, 2.0, 3.0, 4.5, 6.0, 9.0, 12.0)
"""Texture resolutions (px per mm) kept per card face."""

_TEX_CACHE: OrderedDict[tuple, np.ndarray] = OrderedDict()
_TEX_CACHE_BYTES = 300 << 20
"""Card textures are kept up to this many bytes (least recently used go first)."""
_TABLE_CACHE: OrderedDict[tuple, np.ndarray] = OrderedDict()
_CACHE_LOCK = threading.RLock()


def _lru_get(cache: OrderedDict, key: tuple, make, size: int, max_bytes: int | None = None):  # type: ignore[no-untyped-def]
    """A cached value (thread-safe), made on a miss; keeps ``size`` entries and ``max_bytes``."""
    with _CACHE_LOCK:
        hit = cache.get(key)
        if hit is not None:
            cache.move_to_end(key)
            return hit
    value = make()
    with _CACHE_LOCK:
        cache[key] = value
        total = sum(v.nbytes for v in cache.values()) if max_bytes is not None else 0
        while len(cache) > size or (max_bytes is not None and total > max_bytes and len(cache) > 1):
            _, old = cache.popitem(last=False)
            total -= old.nbytes if max_bytes is not None else 0
    return value


def release_caches() -> None:
    """Drops the renderer's caches of finished work: card faces and their textures, the warped
    tables, light maps and camera maps. A long run that plays one scenario after another calls it
    between scenarios, so the textures of games over do not stay resident (the next frames make
    again what they need; frames are unchanged)."""
    from vision.render import faces, scene_camera, scene_light

    with _CACHE_LOCK:
        _TEX_CACHE.clear()
        _TABLE_CACHE.clear()
    faces._render_face_cached.cache_clear()
    scene_light.light_maps.cache_clear()
    scene_camera._build.cache_clear()
    scene_camera._maps.cache_clear()
    prop_texture.cache_clear()


def premultiplied(bgr: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """BGRA with the colour multiplied by the alpha (read-only): what the compositor warps."""
    pre = cv2.multiply(bgr, cv2.merge([alpha, alpha, alpha]), scale=1.0 / 255.0)
    tex = np.dstack([pre, alpha])
    tex.setflags(write=False)
    return tex


def _mip(px_per_mm: float) -> float:
    return next((level for level in MIP_LEVELS if level >= px_per_mm), MIP_LEVELS[-1])


def _card_texture(identity: str, style: int, face_up: bool, level: float) -> np.ndarray:
    """BGRA texture of a card side at ``level`` px/mm; alpha is the rounded-corner mask."""

    def make() -> np.ndarray:
        deck = deck_of(identity)
        base_ppm = 6.0 if level <= 6.0 else 12.0
        img = render_face(identity, style, base_ppm) if face_up else render_back(deck, style, base_ppm)
        w, h = card_size_px(deck, level)
        if (w, h) != (img.shape[1], img.shape[0]):
            img = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
        alpha = rounded_rect_mask(w, h, CORNER_RADIUS_MM[deck] * level)
        # the card's cut edge shows as a thin darker rim (inside the outline: geometry unchanged)
        inner = cv2.erode(alpha, np.ones((3, 3), np.uint8))
        rim = cv2.subtract(alpha, inner)
        keep = cv2.addWeighted(rim, -0.35, rim, 0.0, 255.0)
        img = cv2.multiply(img, cv2.merge([keep, keep, keep]), scale=1.0 / 255.0)
        return premultiplied(img, alpha)

    key = (identity if face_up else deck_of(identity), style, face_up, level)
    return _lru_get(_TEX_CACHE, key, make, 100_000, _TEX_CACHE_BYTES)


_BOARD_LEVELS: OrderedDict[int, tuple[np.ndarray, list[np.ndarray]]] = OrderedDict()


def _board_level(tex: np.ndarray, width_mm: float, image_px_per_mm: float) -> np.ndarray:
    """The board texture as BGRA, halved (cached) while it stays finer than the image needs."""
    key = id(tex)
    hit = _BOARD_LEVELS.get(key)
    if hit is None or hit[0] is not tex:
        if tex.shape[2] == 4:
            first = premultiplied(np.ascontiguousarray(tex[:, :, :3]), np.ascontiguousarray(tex[:, :, 3]))
        else:
            first = np.dstack([tex, np.full(tex.shape[:2], 255, np.uint8)])
        levels = [first]
        while levels[-1].shape[1] > 64 and levels[-1].shape[1] / width_mm > 2.0:
            prev = levels[-1]  # resize keeps the full extent, so the level maps to the same mm
            half = (max(1, round(prev.shape[1] / 2)), max(1, round(prev.shape[0] / 2)))
            levels.append(cv2.resize(prev, half, interpolation=cv2.INTER_AREA))
        _BOARD_LEVELS[key] = (tex, levels)
        while len(_BOARD_LEVELS) > 8:
            _BOARD_LEVELS.popitem(last=False)
        hit = _BOARD_LEVELS[key]
    else:
        _BOARD_LEVELS.move_to_end(key)
    levels = hit[1]
    best = levels[0]
    for lv in levels:
        if lv.shape[1] / width_mm >= image_px_per_mm:
            best = lv
    return best


def card_corners_mm(card: CardPlacement) -> np.ndarray:
    """(4, 2) table mm of the card's own top-left, top-right, bottom-right, bottom-left."""
    w, h = CARD_SIZE_MM[deck_of(card.identity)]
    return _corners(w, h, card.x_mm, card.y_mm, card.angle_deg)


def _corners(w: float, h: float, x: float, y: float, angle_deg: float) -> np.ndarray:
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return local @ rot.T + (x, y)


def _object_to_table(
    w_mm: float, h_mm: float, tw: int, th: int, x: float, y: float, angle: float
) -> np.ndarray:
    """3x3: texture px (index coordinates) -> table mm."""
    a = math.radians(angle)
    sx, sy = w_mm / tw, h_mm / th
    S = np.array([[sx, 0, sx * 0.5 - w_mm / 2], [0, sy, sy * 0.5 - h_mm / 2], [0, 0, 1]])
    R = np.array([[math.cos(a), -math.sin(a), x], [math.sin(a), math.cos(a), y], [0, 0, 1]])
    return R @ S


@dataclass
class _Placed:
    """Where an object landed in the undistorted render."""

    x0: int
    y0: int
    mask: np.ndarray
    """bool: the object's own pixels (ignoring what lies on top)."""
    area: float
    """Full area in px (including any part outside the image)."""


def _table_image(table: TableSpec, cam: Camera) -> np.ndarray:
    def make() -> np.ndarray:
        tex = table_texture(table)
        M = cam.H @ texture_to_table()
        img = cv2.warpPerspective(
            tex, M, (cam.width, cam.height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP
        )
        img.setflags(write=False)
        return img

    return _lru_get(_TABLE_CACHE, (table, cam.spec, cam.width, cam.height), make, 2)


def _place(
    img: np.ndarray,
    idmap: np.ndarray,
    index: int,
    tex: np.ndarray,
    M: np.ndarray,
    card_shadow: float,
    shadow_px: tuple[float, float],
) -> _Placed | None:
    """Warp the BGRA texture with M (texture px -> image px) onto img, on its bounding box only."""
    H, W = img.shape[:2]
    th, tw = tex.shape[:2]
    corners = np.array([[-0.5, -0.5], [tw - 0.5, -0.5], [tw - 0.5, th - 0.5], [-0.5, th - 0.5]])
    q = corners @ M[:, :2].T + M[:, 2]
    q = q[:, :2] / q[:, 2:3]
    area = 0.5 * abs(float(np.dot(q[:, 0], np.roll(q[:, 1], 1)) - np.dot(q[:, 1], np.roll(q[:, 0], 1))))
    pad = 3
    x0 = max(0, math.floor(q[:, 0].min()) - pad)
    y0 = max(0, math.floor(q[:, 1].min()) - pad)
    x1 = min(W, math.ceil(q[:, 0].max()) + pad + 1)
    y1 = min(H, math.ceil(q[:, 1].max()) + pad + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    warped = cv2.warpPerspective(
        tex,
        T @ M,
        (x1 - x0, y1 - y0),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    alpha = warped[:, :, 3]
    roi = img[y0:y1, x0:x1]
    a = alpha.astype(np.float32) * (1.0 / 255.0)
    if card_shadow > 0:
        dx, dy = round(shadow_px[0]), round(shadow_px[1])
        sh = np.zeros_like(a)
        hh, ww = a.shape
        sh[max(0, dy) : hh + min(0, dy), max(0, dx) : ww + min(0, dx)] = a[
            max(0, -dy) : hh + min(0, -dy), max(0, -dx) : ww + min(0, -dx)
        ]
        sh = cv2.blur(sh, (3, 3))
        keep = cv2.convertScaleAbs(sh, alpha=-255.0 * card_shadow, beta=255.0)
        cv2.multiply(roi, cv2.merge([keep, keep, keep]), dst=roi, scale=1.0 / 255.0)
    # textures are premultiplied by their alpha, so the black border that bilinear sampling mixes
    # in at the edges is exactly "no coverage": out = under * (1 - alpha) + colour
    inv = cv2.bitwise_not(alpha)
    under = cv2.multiply(roi, cv2.merge([inv, inv, inv]), scale=1.0 / 255.0)
    cv2.add(under, np.ascontiguousarray(warped[:, :, :3]), dst=roi)
    mask = alpha > 127
    idmap[y0:y1, x0:x1][mask] = index
    return _Placed(x0, y0, mask, area)


def _overlap(a: _Placed, b_x0: int, b_y0: int, b_mask: np.ndarray) -> int:
    ah, aw = a.mask.shape
    bh, bw = b_mask.shape
    x0, y0 = max(a.x0, b_x0), max(a.y0, b_y0)
    x1, y1 = min(a.x0 + aw, b_x0 + bw), min(a.y0 + ah, b_y0 + bh)
    if x1 <= x0 or y1 <= y0:
        return 0
    ma = a.mask[y0 - a.y0 : y1 - a.y0, x0 - a.x0 : x1 - a.x0]
    mb = b_mask[y0 - b_y0 : y1 - b_y0, x0 - b_x0 : x1 - b_x0]
    return int(np.count_nonzero(ma & mb))


def render(spec: SceneSpec) -> tuple[np.ndarray, FrameTruth]:
    """The image (BGR uint8) and its exact truth. A pure function of ``spec``."""
    W, H = spec.width, spec.height
    if not (16 <= W <= 8192 and 16 <= H <= 8192):
        raise ValueError(f"scene size {W}x{H}: expected 16..8192 px a side")
    cam = Camera.build(spec.camera, W, H)
    img = _table_image(spec.table, cam).copy()
    idmap = np.full((H, W), -1, np.int32)
    light = spec.light

    # planar objects in stacking order (stable for equal z): the board, then the cards
    items: list[tuple[int, int, object]] = []
    if spec.board is not None:
        items.append((spec.board.z, -1, spec.board))
    items += [(pr.z, -2, pr) for pr in spec.props]
    items += [(c.z, i, c) for i, c in enumerate(spec.cards)]
    items.sort(key=lambda t: (t[0], t[1]))
    placed: dict[int, _Placed] = {}
    board_h = None
    for _, i, obj in items:
        if isinstance(obj, PropPlacement):
            ptex = prop_texture(obj.kind, obj.seed)
            pw, ph = PROP_KINDS[obj.kind]
            M = cam.H @ _object_to_table(
                pw, ph, ptex.shape[1], ptex.shape[0], obj.x_mm, obj.y_mm, obj.angle_deg
            )
            s = cam.px_per_mm_at(obj.x_mm, obj.y_mm)
            shadow = (light.shadow_dir[0] * 2 * s, light.shadow_dir[1] * 2 * s)
            _place(img, idmap, -4, ptex, M, light.card_shadow, shadow)
            continue
        if isinstance(obj, BoardPlacement):
            tex = obj.texture
            if tex.ndim != 3 or tex.shape[2] not in (3, 4):
                raise ValueError(f"board texture of shape {tex.shape}: expected (h, w, 3) BGR")
            # truth maps the given texture's pixels; the warp may use a halved copy of it
            board_h = cam.H @ _object_to_table(
                obj.width_mm, obj.height_mm, tex.shape[1], tex.shape[0], obj.x_mm, obj.y_mm, obj.angle_deg
            )
            level = _board_level(tex, obj.width_mm, cam.px_per_mm_at(obj.x_mm, obj.y_mm))
            M = cam.H @ _object_to_table(
                obj.width_mm, obj.height_mm, level.shape[1], level.shape[0], obj.x_mm, obj.y_mm, obj.angle_deg
            )
            _place(img, idmap, -3, level, M, 0.0, (0, 0))
            continue
        card = obj
        assert isinstance(card, CardPlacement)
        deck = deck_of(card.identity)
        s = cam.px_per_mm_at(card.x_mm, card.y_mm)
        level = _mip(s)
        tex = _card_texture(card.identity, card.style, card.face_up, level)
        w_mm, h_mm = CARD_SIZE_MM[deck]
        M = cam.H @ _object_to_table(
            w_mm, h_mm, tex.shape[1], tex.shape[0], card.x_mm, card.y_mm, card.angle_deg
        )
        shadow_px = (light.shadow_dir[0] * 1.2 * s, light.shadow_dir[1] * 1.2 * s)
        p = _place(img, idmap, i, tex, M, light.card_shadow, shadow_px)
        if p is None:
            quad = cam.to_image(card_corners_mm(card))
            area = 0.5 * abs(
                float(np.dot(quad[:, 0], np.roll(quad[:, 1], 1)) - np.dot(quad[:, 1], np.roll(quad[:, 0], 1)))
            )
            p = _Placed(0, 0, np.zeros((0, 0), bool), area)
        placed[i] = p

    # hands: shadow first, then the shaded hand; later hands lie over earlier ones
    card_idmap = idmap.copy() if spec.hands else idmap  # who owns each pixel before the hands
    layers: list[HandLayer] = []
    for hand in spec.hands:
        if hand.seat not in SEATS:
            raise ValueError(f"hand {hand.hand_id} seat {hand.seat!r}: expected one of {SEATS}")
        layer = build_layer(hand, cam)
        if layer is None:
            continue
        cast_shadow(img, layer, light)
        composite(img, layer)
        hh, ww = layer.alpha.shape
        idmap[layer.y0 : layer.y0 + hh, layer.x0 : layer.x0 + ww][layer.mask] = -2
        layers.append(layer)

    hand_mask = np.zeros((H, W), np.uint8)
    for layer in layers:
        hh, ww = layer.alpha.shape
        hand_mask[layer.y0 : layer.y0 + hh, layer.x0 : layer.x0 + ww][layer.mask] = 255

    # truth for cards
    hand_covers: dict[int, list[int]] = {h.hand_id: [] for h in spec.hands}
    cards_truth: list[CardTruth] = []
    for i, card in enumerate(spec.cards):
        p = placed[i]
        full = max(p.area * _rounded_fill(deck_of(card.identity)), 1e-6)
        if p.mask.size:
            mh, mw = p.mask.shape
            seen = int(np.count_nonzero(idmap[p.y0 : p.y0 + mh, p.x0 : p.x0 + mw] == i))
        else:
            seen = 0
        # a hand covers a card when it hides over half of what the cards on top leave of it
        # (and they leave at least a fifth): a card deep in a pile is not "under the hand"
        covered_by: list[int] = []
        if layers and p.mask.size:
            mh, mw = p.mask.shape
            own = card_idmap[p.y0 : p.y0 + mh, p.x0 : p.x0 + mw] == i
            n_own = int(np.count_nonzero(own))
            if n_own >= 0.2 * full:
                exposed = _Placed(p.x0, p.y0, own, full)
                for layer in layers:
                    if _overlap(exposed, layer.x0, layer.y0, layer.mask) / n_own > 0.5:
                        covered_by.append(layer.hand.hand_id)
                        hand_covers[layer.hand.hand_id].append(card.card_id)
        quad = cam.distort(cam.to_image(card_corners_mm(card))).astype(np.float32)
        cards_truth.append(
            CardTruth(
                card_id=card.card_id,
                identity=card.identity,
                deck=deck_of(card.identity),
                quad=quad,
                visible_fraction=float(min(1.0, seen / full)),
                covered_by_hands=tuple(covered_by),
                face_up=card.face_up,
                z=card.z,
                style=card.style,
            )
        )

    # camera: lens distortion, blur, light, noise, JPEG
    maps = cam.remap_maps()
    if maps is not None:
        img = cv2.remap(img, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        if layers:
            hand_mask = cv2.remap(hand_mask, maps[0], maps[1], cv2.INTER_NEAREST)
    c = spec.camera
    if c.focus_blur > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), c.focus_blur)
    if c.motion_blur[0] >= 1.5:
        img = cv2.filter2D(img, -1, motion_kernel(*c.motion_blur))
    img = apply_light_and_noise(img, light, c.noise, spec.seed)
    if c.jpeg_quality is not None:
        img = jpeg(img, c.jpeg_quality)

    mask_bool = hand_mask > 127
    hands_truth: list[HandTruth] = []
    for hand in spec.hands:
        layer = next((lay for lay in layers if lay.hand is hand), None)
        if layer is None:
            hands_truth.append(HandTruth(hand.hand_id, hand.seat, (), (0, 0, 0, 0), hand.height_mm))
            continue
        k = layers.index(layer)
        placed_hand = _Placed(layer.x0, layer.y0, layer.mask, 0.0)
        over = tuple(
            later.hand.hand_id
            for later in layers[k + 1 :]
            if _overlap(placed_hand, later.x0, later.y0, later.mask) > 25
        )
        hands_truth.append(
            HandTruth(
                hand_id=hand.hand_id,
                seat=entry_seat(layer, W, H),
                covers=tuple(hand_covers[hand.hand_id]),
                bbox=_hand_bbox(layer, cam),
                height_mm=hand.height_mm,
                under=over,
            )
        )
    truth = FrameTruth(
        width=W,
        height=H,
        cards=cards_truth,
        hands=hands_truth,
        hand_mask=mask_bool,
        homography_table_to_image=cam.H.copy(),
        spec=spec,
        board=None if spec.board is None else spec.board.truth,
        board_homography=board_h,
    )
    return img, truth


def _hand_bbox(layer: HandLayer, cam: Camera) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(layer.mask)
    if len(xs) == 0:
        return (0, 0, 0, 0)
    corners = [[xs.min(), ys.min()], [xs.max(), ys.min()], [xs.max(), ys.max()], [xs.min(), ys.max()]]
    pts = np.array(corners, np.float64) + np.array([layer.x0, layer.y0], np.float64)
    d = cam.distort(pts)
    x0 = int(max(0, math.floor(d[:, 0].min())))
    y0 = int(max(0, math.floor(d[:, 1].min())))
    x1 = int(min(cam.width - 1, math.ceil(d[:, 0].max())))
    y1 = int(min(cam.height - 1, math.ceil(d[:, 1].max())))
    return (x0, y0, x1 - x0 + 1, y1 - y0 + 1)


def _rounded_fill(deck: str) -> float:
    """Share of the card's rectangle inside its rounded corners."""
    w, h = CARD_SIZE_MM[deck]
    r = CORNER_RADIUS_MM[deck]
    return 1 - (4 - math.pi) * r * r / (w * h)
