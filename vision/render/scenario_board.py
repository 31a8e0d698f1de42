"""Board game scenarios (the hook for the Twixt / Go board reader): a board on the table whose
texture changes as hands place pieces.

:func:`board_scenario` is generic: give it one board placement per state (textures from
:mod:`vision.render.board`) and where each move is made, and hands from alternating seats reach
there, land, and the board shows the next state while the hand covers the spot.
:func:`twixt_demo_scenario` plays a random legal Twixt position peg by peg.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.render.scenario import HandLook, HandPose, Scenario, aim_angle, default_base
from vision.render.scene_types import SKIN_TONES, BoardPlacement


def board_point_mm(board: BoardPlacement, x_tex_mm: float, y_tex_mm: float) -> tuple[float, float]:
    """Table mm of a point given in the board's own mm (from its top-left corner)."""
    a = math.radians(board.angle_deg)
    u, v = x_tex_mm - board.width_mm / 2, y_tex_mm - board.height_mm / 2
    return board.x_mm + u * math.cos(a) - v * math.sin(a), board.y_mm + u * math.sin(a) + v * math.cos(a)


def board_scenario(
    name: str,
    boards: Sequence[BoardPlacement],
    moves_mm: Sequence[tuple[float, float]],
    seats: Sequence[str] = ("bottom", "top"),
    seconds_per_move: float = 2.6,
    seed: int = 0,
    width: int = 1280,
    height: int = 720,
    actions: Sequence[dict] = (),
) -> Scenario:
    """``boards[k]`` is shown after move k - 1 (``boards[0]`` at the start); move k is made at
    table point ``moves_mm[k]`` by seat ``seats[k % len(seats)]``."""
    if len(boards) != len(moves_mm) + 1:
        raise ValueError(
            f"{len(boards)} boards for {len(moves_mm)} moves: expected one more board than moves"
        )
    rng = np.random.default_rng([0xB0A4D, seed])
    base = default_base(seed, width, height)
    base = replace(base, camera=replace(base.camera, target_mm=(boards[0].x_mm, boards[0].y_mm)))
    sc = Scenario(name=name, base=base, duration=0.0)
    looks = {
        seat: HandLook(
            seat,
            True,
            SKIN_TONES[int(rng.integers(len(SKIN_TONES)))],
            tuple(int(v) for v in rng.integers(20, 235, 3)),
            float(rng.uniform(0.92, 1.08)),
            float(rng.uniform(60, 200)),
        )
        for seat in dict.fromkeys(seats)
    }
    sc.boards.append((0.0, boards[0]))
    t = 0.8
    for k, (x, y) in enumerate(moves_mm):
        seat = seats[k % len(seats)]
        hid = list(looks).index(seat)
        look = looks[seat]
        # the fingertips reach the hole: the palm lies behind it, towards the player
        probe = aim_angle(seat, True, x, y)
        base_dir = {"bottom": -90.0, "top": 90.0, "left": 0.0, "right": 180.0}[seat] + probe
        back = 95.0 * look.scale
        px, py = x - math.cos(math.radians(base_dir)) * back, y - math.sin(math.radians(base_dir)) * back
        for tk, pose in (
            (t, None),
            (t + 0.7, HandPose(px, py, 50.0, probe, 0.5, 0.1)),
            (t + 0.9, HandPose(px, py, 0.0, probe, 0.5, 0.1)),
            (t + 1.4, HandPose(px, py, 0.0, probe, 0.5, 0.1)),
            (t + 1.7, HandPose(px, py, 60.0, probe, 0.4, 0.2)),
            (t + 2.3, None),
        ):
            sc.hand_key(hid, look, tk, pose)
        sc.boards.append((t + 1.15, boards[k + 1]))
        t += seconds_per_move
    sc.actions = [dict(a) for a in actions]
    sc.duration = round(t + 0.5, 3)
    return sc


def twixt_demo_scenario(seed: int = 0, n_moves: int = 8, width: int = 1280, height: int = 720) -> Scenario:
    """A Twixt game's first ``n_moves`` pegs, placed one by one (links appear with their pegs)."""
    from vision.render.board import geometry, random_twixt_position, render_board_texture

    pegs, links = random_twixt_position(random.Random(seed), n_moves)
    rng = np.random.default_rng([0x7A1C7, seed])
    cells = [tuple(int(v) for v in rc) for rc in np.argwhere(pegs > 0)]
    first = [c for c in cells if pegs[c] == 1]
    second = [c for c in cells if pegs[c] == 2]
    first = [first[int(i)] for i in rng.permutation(len(first))]
    second = [second[int(i)] for i in rng.permutation(len(second))]
    order = [x for pair in zip(first, second, strict=False) for x in pair]
    order += first[len(second) :] + second[len(first) :]
    geo = geometry("twixt")
    side = geo.board_mm
    angle = float(rng.normal(0, 4))
    boards = []
    actions = []
    state = np.zeros_like(pegs)
    for k in range(len(order) + 1):
        if k:
            r, c = order[k - 1]
            state[r, c] = pegs[r, c]
            actions.append(
                {"t": None, "action": {"type": "peg", "player": int(pegs[r, c]) - 1, "row": r, "col": c}}
            )
        shown = [lk for lk in links if state[lk[0], lk[1]] and state[lk[2], lk[3]]]
        tex, truth = render_board_texture("twixt", pegs=state.copy(), links=shown, px_per_mm=2.5)
        boards.append(BoardPlacement(tex, side, side, 0.0, 0.0, angle, truth))
    moves = []
    for r, c in order:
        hx, hy = geo.hole_mm(np.array(r), np.array(c))
        moves.append(board_point_mm(boards[0], float(hx), float(hy)))
    seats = ["bottom" if pegs[rc] == 1 else "top" for rc in order]
    sc = board_scenario(
        f"twixt_demo_{seed}", boards, moves, seats=seats, seed=seed, width=width, height=height
    )
    for k, a in enumerate(actions):
        a["t"] = round(sc.boards[k + 1][0], 3)
    sc.actions = actions
    sc.info = {"board": "twixt", "moves": len(order), "players": 2, "seats": ["bottom", "top"]}
    return sc
