"""Scenarios: a script of table states over time becomes frames with smooth hand motion.

A :class:`Scenario` holds keyframed tracks: each card's placement over time (it moves smoothly
between two keys, lies still on a key, and is off the table where its key is ``None``), each
hand's pose over time (eased between keys; ``None`` means out of view beyond its seat's edge),
and the board's state (switched at key times). ``frames(fps)`` renders them; every frame's
truth carries the hand landed / lifted events since the previous frame.

The script also records the referee actions it intends (``Scenario.actions``): what a perfect
camera pipeline should report, kept apart from the images, for end-to-end tests.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from vision.render.scene import render
from vision.render.scene_types import (
    BoardPlacement,
    CameraSpec,
    CardPlacement,
    FrameTruth,
    HandPlacement,
    LightSpec,
    SceneEvent,
    SceneSpec,
    TableSpec,
)

MOVING_Z = 100_000
"""A card being carried lies above everything else."""


def ease(t: float) -> float:
    """Smooth ease in / out on 0..1 (zero speed at both ends)."""
    t = min(1.0, max(0.0, t))
    return t * t * (3 - 2 * t)


@dataclass(frozen=True)
class HandPose:
    """Where a hand is at a key: its palm's centre over the table and how it is held."""

    x_mm: float
    y_mm: float
    height_mm: float = 0.0
    angle_deg: float = 0.0
    curl: float = 0.0
    spread: float = 0.3


@dataclass(frozen=True)
class HandLook:
    """What does not change while a hand moves."""

    seat: str
    right: bool = True
    skin: tuple[int, int, int] = (140, 175, 225)
    sleeve: tuple[int, int, int] = (120, 60, 40)
    scale: float = 1.0
    sleeve_start_mm: float = 90.0


@dataclass
class Scenario:
    """A script of table states over time (see the module docstring)."""

    name: str
    base: SceneSpec
    """Size, table, light and camera (its cards, hands and board are ignored)."""
    duration: float
    cards: dict[int, list[tuple[float, CardPlacement | None]]] = field(default_factory=dict)
    hands: dict[int, tuple[HandLook, list[tuple[float, HandPose | None]]]] = field(default_factory=dict)
    boards: list[tuple[float, BoardPlacement | None]] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    """Intended referee actions: ``{"t": seconds, "action": {...}, ...}`` (scenario truth)."""
    info: dict[str, Any] = field(default_factory=dict)
    exposure_s: float = 1 / 90
    """Shutter time: a hand moving while it is open is blurred along its motion."""

    # -- building ------------------------------------------------------------------------------
    def card_key(self, t: float, card: CardPlacement | None, card_id: int | None = None) -> None:
        cid = card.card_id if card is not None else card_id
        if cid is None:
            raise ValueError("a card key needs a placement or a card id")
        track = self.cards.setdefault(cid, [])
        track.append((t, card))
        track.sort(key=lambda k: k[0])

    def hand_key(self, hand_id: int, look: HandLook, t: float, pose: HandPose | None) -> None:
        old_look, track = self.hands.setdefault(hand_id, (look, []))
        if old_look != look:
            self.hands[hand_id] = (look, track)
        track.append((t, pose))
        track.sort(key=lambda k: k[0])

    def card_at(self, card_id: int, t: float) -> CardPlacement | None:
        track = self.cards.get(card_id, [])
        times = [k[0] for k in track]
        i = bisect.bisect_right(times, t) - 1
        if i < 0:
            return None
        t0, c0 = track[i]
        if c0 is None or i + 1 >= len(track):
            return c0
        t1, c1 = track[i + 1]
        if c1 is None or t1 <= t0 or (c1.x_mm, c1.y_mm, c1.angle_deg) == (c0.x_mm, c0.y_mm, c0.angle_deg):
            return c0
        u = ease((t - t0) / (t1 - t0))
        da = ((c1.angle_deg - c0.angle_deg + 180) % 360) - 180
        return replace(
            c0,
            x_mm=c0.x_mm + (c1.x_mm - c0.x_mm) * u,
            y_mm=c0.y_mm + (c1.y_mm - c0.y_mm) * u,
            angle_deg=c0.angle_deg + da * u,
            face_up=c0.face_up if u < 0.5 else c1.face_up,
            z=MOVING_Z + c1.z,
        )

    def hand_at(self, hand_id: int, t: float) -> HandPlacement | None:
        """The hand at time t, with the motion it makes while the shutter is open."""
        hand = self._pose_at(hand_id, t)
        if hand is None or self.exposure_s <= 0:
            return hand
        before = self._pose_at(hand_id, t - self.exposure_s / 2)
        after = self._pose_at(hand_id, t + self.exposure_s / 2)
        if before is None or after is None:
            return hand
        (ax, ay), (bx, by) = before.palm_centre(), after.palm_centre()
        return replace(hand, motion_mm=(bx - ax, by - ay))

    def _pose_at(self, hand_id: int, t: float) -> HandPlacement | None:
        look, track = self.hands[hand_id]
        times = [k[0] for k in track]
        i = bisect.bisect_right(times, t) - 1
        if i < 0:
            return None
        t0, p0 = track[i]
        t1, p1 = track[i + 1] if i + 1 < len(track) else (t0, p0)
        if p0 is None and p1 is None:
            return None
        if p0 is None:
            p0 = _off_table(look, p1)  # type: ignore[arg-type]
        if p1 is None:
            p1 = _off_table(look, p0)
        u = ease((t - t0) / (t1 - t0)) if t1 > t0 else 0.0
        da = ((p1.angle_deg - p0.angle_deg + 180) % 360) - 180
        pose = HandPose(
            x_mm=p0.x_mm + (p1.x_mm - p0.x_mm) * u,
            y_mm=p0.y_mm + (p1.y_mm - p0.y_mm) * u,
            height_mm=p0.height_mm + (p1.height_mm - p0.height_mm) * u,
            angle_deg=p0.angle_deg + da * u,
            curl=p0.curl + (p1.curl - p0.curl) * u,
            spread=p0.spread + (p1.spread - p0.spread) * u,
        )
        return _placement(hand_id, look, pose)

    def board_at(self, t: float) -> BoardPlacement | None:
        current = None
        for tk, b in self.boards:
            if tk <= t:
                current = b
        return current

    def spec_at(self, t: float) -> SceneSpec:
        cards = [c for cid in sorted(self.cards) if (c := self.card_at(cid, t)) is not None]
        hands = [h for hid in sorted(self.hands) if (h := self.hand_at(hid, t)) is not None]
        return replace(
            self.base, cards=cards, hands=hands, board=self.board_at(t), seed=self.base.seed + int(t * 1000)
        )

    def render_at(self, t: float) -> tuple[np.ndarray, FrameTruth]:
        img, truth = render(self.spec_at(t))
        return img, replace(truth, time=t)

    # -- events and frames -----------------------------------------------------------------------
    def contact_times(self) -> list[tuple[float, str, int]]:
        """(time, "landed" | "lifted", hand id) from the hand tracks, in time order."""
        out: list[tuple[float, str, int]] = []
        for hid, (_, track) in self.hands.items():
            down = False
            for i, (t, pose) in enumerate(track):
                on = pose is not None and pose.height_mm <= 0.5
                if on and not down:
                    out.append((t, "landed", hid))
                if down and not on:
                    out.append((track[i - 1][0], "lifted", hid))
                down = on
        return sorted(out)

    def frames(
        self, fps: float = 15.0, start: float = 0.0, end: float | None = None
    ) -> Iterator[tuple[float, np.ndarray, FrameTruth]]:
        """Rendered frames ``(t, image, truth)`` from ``start`` to ``end`` (default: the end)."""
        if fps <= 0:
            raise ValueError(f"fps {fps}: expected > 0")
        end = self.duration if end is None else min(end, self.duration)
        contacts = self.contact_times()
        covering: dict[int, tuple[int, ...]] = {}
        prev = start - 1.0 / fps
        n = math.floor((end - start) * fps + 1e-9) + 1
        for k in range(n):
            t = start + k / fps
            img, truth = self.render_at(t)
            by_hand = {h.hand_id: h for h in truth.hands}
            events: list[SceneEvent] = []
            for tc, kind, hid in contacts:
                if not prev < tc <= t:
                    continue
                h = by_hand.get(hid)
                seat = h.seat if h else self.hands[hid][0].seat
                if kind == "landed":
                    ids = h.covers if h else ()
                    covering[hid] = ids
                else:  # what it covered while it lay on the table
                    ids = covering.pop(hid, h.covers if h else ())
                events.append(SceneEvent(tc, kind, hid, seat, tuple(ids)))
            for h in truth.hands:
                if h.hand_id in covering and h.height_mm <= 0.5:
                    covering[h.hand_id] = h.covers
            prev = t
            yield t, img, replace(truth, events=tuple(events))

    def truth_json(self) -> dict[str, Any]:
        """The scenario's own truth: its intended referee actions and facts (not the images)."""
        return {
            "name": self.name,
            "duration": self.duration,
            "width": self.base.width,
            "height": self.base.height,
            "actions": self.actions,
            "contacts": [{"time": round(t, 4), "kind": k, "hand_id": h} for t, k, h in self.contact_times()],
            "info": self.info,
        }


def _base_direction(seat: str) -> float:
    return {"bottom": -90.0, "top": 90.0, "left": 0.0, "right": 180.0}[seat]


def _placement(hand_id: int, look: HandLook, pose: HandPose) -> HandPlacement:
    return HandPlacement.over(
        hand_id,
        look.seat,
        pose.x_mm,
        pose.y_mm,
        skin=look.skin,
        sleeve=look.sleeve,
        angle_deg=pose.angle_deg,
        scale=look.scale,
        spread=pose.spread,
        curl=pose.curl,
        right=look.right,
        height_mm=pose.height_mm,
        sleeve_start_mm=look.sleeve_start_mm,
    )


def _off_table(look: HandLook, near: HandPose) -> HandPose:
    """The pose out of view: drawn back past the seat's edge, raised."""
    a = math.radians(_base_direction(look.seat) + near.angle_deg)
    back = 900.0
    return replace(
        near, x_mm=near.x_mm - math.cos(a) * back, y_mm=near.y_mm - math.sin(a) * back, height_mm=150.0
    )


SHOULDERS_MM: dict[str, tuple[float, float]] = {
    "bottom": (0.0, 620.0),
    "top": (0.0, -620.0),
    "left": (-820.0, 0.0),
    "right": (820.0, 0.0),
}
"""Where each seat's player sits (the middle of their shoulders), table mm."""


def aim_angle(seat: str, right: bool, x_mm: float, y_mm: float) -> float:
    """The arm's turn from straight-in so that it points from the player's shoulder to (x, y)."""
    sx, sy = SHOULDERS_MM[seat]
    base = _base_direction(seat)
    side = math.radians(base + 90)  # the player's right, as the arm points in
    off = 170.0 if right else -170.0
    sx, sy = sx + math.cos(side) * off, sy + math.sin(side) * off
    a = math.degrees(math.atan2(y_mm - sy, x_mm - sx)) - base
    a = ((a + 180) % 360) - 180
    return max(-40.0, min(40.0, a))


def default_base(seed: int, width: int = 1280, height: int = 720) -> SceneSpec:
    """A steady camera and light for scenarios, varied by seed."""
    rng = np.random.default_rng([0x5CE4A, seed])
    kinds = ("wood", "felt", "cloth", "glossy")
    return SceneSpec(
        width=width,
        height=height,
        table=TableSpec(kinds[int(rng.integers(4))], int(rng.integers(3))),
        light=LightSpec(
            gains=(0.95, 1.0, 1.06),
            brightness=float(rng.uniform(0.92, 1.05)),
            gradient=(float(rng.uniform(0, 360)), float(rng.uniform(0.1, 0.3))),
            vignette=0.15,
            shadow_dir=(0.35, 0.6),
            card_shadow=0.3,
        ),
        camera=CameraSpec(
            height_mm=720.0,
            tilt_deg=float(rng.uniform(5, 20)),
            yaw_deg=float(rng.normal(0, 3)),
            k1=0.03,
            hfov_deg=64.0,
            noise=2.0,
            target_mm=(0.0, 0.0),
        ),
        seed=seed,
    )


def twinit_demo_scenario(
    seed: int = 0, players: int | None = None, width: int = 1280, height: int = 720
) -> Scenario:
    """The Twin It demo table: see :mod:`vision.render.scenario_twinit`."""
    from vision.render.scenario_twinit import twinit_demo_scenario as make

    return make(seed, players, width, height)


def twixt_demo_scenario(seed: int = 0, n_moves: int = 8, width: int = 1280, height: int = 720) -> Scenario:
    """A Twixt game's first pegs placed by hands: see :mod:`vision.render.scenario_board`."""
    from vision.render.scenario_board import twixt_demo_scenario as make

    return make(seed, n_moves, width, height)


twixt_scenario = twixt_demo_scenario
"""The name the live app's demo looks up."""
