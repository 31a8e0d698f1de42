"""Synthetic frame sequences for the tracking, hand and pipeline tests: a real photo of 12 cards
as the table, and an arm drawn in from one edge (a gloved arm: no skin colour anywhere)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
PHOTO = "20170604_134234.png"


def real_dir() -> Path:
    for base in (ROOT.parent / "shared", ROOT / "shared"):
        p = base / "realdata" / "set-boards"
        if p.exists():
            return p
    raise FileNotFoundError("shared/realdata/set-boards not found beside the repository")


def table_frame(size: tuple[int, int] = (1280, 720)) -> np.ndarray:
    img = cv2.imread(str(real_dir() / PHOTO))
    assert img is not None
    return cv2.resize(img, size, interpolation=cv2.INTER_AREA)


EDGE_POINTS = {
    "bottom": lambda w, h, x, y: (x, h + 40),
    "top": lambda w, h, x, y: (x, -40),
    "left": lambda w, h, x, y: (-40, y),
    "right": lambda w, h, x, y: (w + 40, y),
}


def with_arm(
    frame: np.ndarray, seat: str, tip: tuple[float, float], colour: tuple[int, int, int] = (150, 60, 40)
) -> np.ndarray:
    """The frame with an arm from ``seat``'s edge to ``tip`` and a palm around the tip."""
    out = frame.copy()
    h, w = out.shape[:2]
    start = EDGE_POINTS[seat](w, h, tip[0], tip[1])
    cv2.line(out, (int(start[0]), int(start[1])), (int(tip[0]), int(tip[1])), colour, 90)
    cv2.circle(out, (int(tip[0]), int(tip[1])), 85, colour, -1)
    return out


def marked_card(kind: str) -> np.ndarray:
    """A 120 x 80 card: white with a large dark disc near the top (``"disc"``), or a blue block at the
    bottom (anything else): two plainly different looks."""
    card = np.full((120, 80, 3), 235, np.uint8)
    if kind == "disc":
        cv2.circle(card, (30, 36), 24, (30, 30, 30), -1)
    else:
        card[64:108, 8:72] = (200, 60, 30)
    return card
