"""Confident misreads found on render-suite boards the bench does not use (seeds 8 and 10 at 1280 x 720),
rebuilt as the suite draws them."""

from __future__ import annotations

from tests.vision._board_helpers import read_suite_board
from web.bench.twixt import near_hands


def test_a_class_is_not_learnt_from_holes_beside_a_pale_finger() -> None:
    """Seed 10, board 10: a pale finger, its hue close to the board's, over empty holes; no cell under
    it changed hue enough to be taken as a hand. The grey class (five pegs on the board) was learnt
    from three holes, two of them the finger's (its tip's shadow over an empty hole, the finger over
    another), and three empty holes under the finger were then read grey, surely (0.96-1.0)."""
    scene, reading, _visible = read_suite_board(10, 10)
    truth = scene.truth.pegs
    near = near_hands(scene, 2.0) & (truth >= 0)
    for hole in ((7, 1), (7, 3), (8, 2)):
        assert truth[hole] == 0 and near[hole]
        assert reading.matrix[hole] in (-1, 0)
    assert not (near & (reading.matrix >= 0) & (reading.matrix != truth)).any()


def test_a_grey_peg_washed_out_on_a_clipped_board_is_not_read_empty() -> None:
    """Seed 8, board 10 (no hand): glare clips a red / grey board at white; a grey peg there keeps a
    ring evenly darker than the white board around a centre no darker than that ring, and was read
    empty (0.94): an empty hole's ring may be a shadow's edge darker than its board (``EDGE``), but
    where the board is clipped white, bare board is that white. Another grey peg there, (6, 6), shows
    only a faint dark smudge the size and depth of the pits round it and was read empty too, surely:
    its darkness is alike in every channel, where the cream board's pits lean to blue as it does."""
    scene, reading, visible = read_suite_board(8, 10)
    truth = scene.truth.pegs
    assert truth[6, 8] == 2 and visible[6, 8]
    assert reading.matrix[6, 8] in (-1, 2)
    assert truth[6, 6] == 2 and visible[6, 6]
    assert reading.matrix[6, 6] in (-1, 2)
    wrong = visible & (reading.matrix >= 0) & (reading.matrix != truth)
    assert not wrong.any()


def test_a_grey_peg_placed_washed_out_on_a_clipped_board_is_not_read_empty_incrementally() -> None:
    """The same board read first without grey peg (6, 6) (its empty hole clipped blank), then
    incrementally once the peg is placed: the one clipped hole classified again shows a dark centre
    alike in every channel, where the board's pits (measured by the full read) lean to blue. It was
    read empty, surely; it abstains, as a full read does."""
    from calibration.board_finder import find_board
    from vision.board.reader import BoardReader
    from vision.render.board import compositor_board_scene, render_board_texture
    from web.bench.twixt import suite_board

    board = suite_board(8, 10)
    spec = board.spec
    before = board.pegs.copy()
    before[6, 6] = 0
    assert not [lk for lk in board.links if (6, 6) in (lk[:2], lk[2:])]
    scenes = []
    for pegs in (before, board.pegs):
        tex, truth = render_board_texture("twixt", pegs, board.links, board.colours, style=board.style)
        scenes.append(compositor_board_scene(board.scene_seed, tex, truth, 1280, 720))
    reader = BoardReader(spec, find_board(scenes[0].image, 24, valid=spec.valid_mask()))
    first = reader.read(scenes[0].image)
    assert first.matrix[6, 6] in (-1, 0)
    reading = reader.update(scenes[1].image)
    assert reading.changed < spec.size**2  # incremental, not a full read again
    assert reading.matrix[6, 6] in (-1, 2)
    truth = scenes[1].truth.pegs
    assert not ((reading.matrix >= 0) & (reading.matrix != truth) & spec.valid_mask()).any()
