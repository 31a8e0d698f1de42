"""A rendered Twixt game with hands placing pegs: every move committed, in the referee's notation."""

from __future__ import annotations

import random

from web.bench.twixt import _video_suite


def test_rendered_game_moves_are_committed_exactly() -> None:
    result = _video_suite(random.Random(7), 6, 640, 360, 5)
    assert result == {"moves": 6, "moves_exact": 6}


def test_moves_are_committed_beside_a_glare_that_hides_holes_from_the_start() -> None:
    """A lamp's highlight clips part of the board at white from the first frame: the holes it
    hides hold what the committed position holds, so a move elsewhere is still committed."""
    import numpy as np

    from calibration.board_finder import find_board
    from referee.twixt.notation import hole_name
    from vision.board.moves import TwixtMoveTracker
    from vision.board.reader import BoardReader
    from vision.board.spec import BoardSpec
    from vision.render.board import CameraSpec, render_board_scene, render_board_texture

    cam = CameraSpec(960, 540, tilt_deg=20.0, azimuth_deg=5.0, gain=0.9, noise=2.0)
    spec = BoardSpec.twixt()
    pegs = np.zeros((24, 24), np.int8)
    frames = []
    for placed in (False, True):
        if placed:
            pegs[15, 15] = 1
        tex, truth = render_board_texture("twixt", pegs, [])
        scene = render_board_scene(tex, truth, cam, seed=1)
        frames.append(scene)
    holes = frames[0].holes_px()
    h, w = frames[0].image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    pitch = float(np.linalg.norm(holes[6, 9] - holes[6, 8]))
    spot = 400.0 * np.exp(-((xx - holes[6, 8][0]) ** 2 + (yy - holes[6, 8][1]) ** 2) / (2 * (2 * pitch) ** 2))
    lit = [np.clip(f.image + spot[..., None], 0, 255).astype(np.uint8) for f in frames]
    loc = find_board(frames[0].image, 24, valid=spec.valid_mask())
    hidden = BoardReader(spec, loc).read(lit[0]).matrix < 0
    assert hidden.sum() >= 5 and hidden[6, 8]  # the glare hides holes: nothing to remember yet
    tracker = TwixtMoveTracker(BoardReader(spec, loc))
    assert tracker.update(lit[0]).kind == "none"
    events = [tracker.update(lit[1]) for _ in range(3)]
    moves = [e for e in events if e.kind == "move"]
    assert len(moves) == 1 and moves[0].notation == hole_name((15, 15))
    assert len(moves[0].details["assumed_under_glare"]) >= 5
    assert tracker.moves == [hole_name((15, 15))]
