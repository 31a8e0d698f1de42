"""Boards of ``tableref bench twixt``'s render suite that were once read wrong, rebuilt as the
suite draws them (its random sequence for a seed, board by board)."""

from __future__ import annotations

import random

import numpy as np

from calibration.board_finder import find_board
from vision.board.reader import BoardReader
from vision.board.spec import BoardSpec
from vision.render.board import BoardScene, BoardTruth, compositor_board_scene, render_board_texture
from web.bench.twixt import suite_board


def _bench_board(
    seed: int, index: int, width: int = 1280, height: int = 720
) -> tuple[BoardSpec, BoardScene, BoardScene]:
    """(spec, the board without hands, with them) as the quick render suite draws board ``index``
    (the full suite draws the same boards at 1920 x 1080)."""
    board = suite_board(seed, index)
    return board.spec, *board.scenes(width, height)


def _read(spec: BoardSpec, clear: BoardScene, scene: BoardScene):
    loc = find_board(clear.image, 24, valid=spec.valid_mask())
    return BoardReader(spec, loc).read(scene.image)


def test_a_cluster_of_links_is_no_hand() -> None:
    """Seed 7, board 8: a blurred board without hands where links crowd round pegs; the cells
    between them changed hue as a hand's do, and 45 holes were once taken as covered; its black
    pegs, blurred, once matched no class (none near the nominal black taught it)."""
    spec, clear, scene = _bench_board(7, 8)
    reading = _read(spec, clear, scene)
    assert not reading.covered.any()
    truth = scene.truth.pegs
    assert not ((reading.matrix >= 0) & (reading.matrix != truth)).any()
    assert (reading.matrix == truth).mean() > 0.99


def test_a_black_peg_lifted_by_glare_is_read() -> None:
    """Seed 0, board 5: a black peg at the board's edge under added light, lifted far from the
    black class, once matched nothing and abstained."""
    spec, clear, scene = _bench_board(0, 5)
    reading = _read(spec, clear, scene)
    assert scene.truth.pegs[20, 23] == 2 and reading.matrix[20, 23] == 2
    visible = spec.valid_mask() & ~scene.covered(2.0 * scene.truth.geometry.pitch_mm)
    assert (reading.matrix == scene.truth.pegs)[visible].all()
    near = ~visible & spec.valid_mask()
    assert not (near & (reading.matrix >= 0) & (reading.matrix != scene.truth.pegs)).any()


def test_a_hand_as_white_as_glare_misreads_nothing() -> None:
    """Seed 21, board 3: a pale hand under glare on a board clipped at white; between two fingers
    a red peg's sliver was once read, confidently, as grey (by its dark ring alone)."""
    spec, clear, scene = _bench_board(21, 3)
    reading = _read(spec, clear, scene)
    near = scene.covered(2.0 * scene.truth.geometry.pitch_mm) & spec.valid_mask()
    assert near[11, 8] and scene.truth.pegs[11, 8] == 1
    assert not (near & (reading.matrix >= 0) & (reading.matrix != scene.truth.pegs)).any()


def test_links_crowding_in_between_two_reads_are_no_hand() -> None:
    """An incremental read where links newly crowd round pegs (seed 7, board 8, its links added
    after a first read without them) reads them as links, not as a hand over the board."""
    board = suite_board(7, 8)
    spec, pegs, links = board.spec, board.pegs, board.links
    scenes = []
    for shown in ([], links):
        tex, truth = render_board_texture("twixt", pegs, shown, board.colours, style=board.style)
        scenes.append(compositor_board_scene(board.scene_seed, tex, truth, 1280, 720))
    reader = BoardReader(spec, find_board(scenes[0].image, 24, valid=spec.valid_mask()))
    first = reader.read(scenes[0].image)
    assert not first.links
    second = reader.update(scenes[1].image)
    assert not second.covered.any()
    assert not ((second.matrix >= 0) & (second.matrix != pegs)).any()
    assert len(set(second.links) & set(links)) >= 0.9 * len(links)
    again = reader.update(scenes[1].image)
    assert not again.covered.any() and again.changed < 20


def test_pieces_and_pits_under_clipped_glare_are_read_by_their_shape() -> None:
    """Seed 7, board 11: glare clips the board's right edge at white. The pits still darker than
    white, and the pegs whose discs still show, are read (once they all abstained); what shows
    nothing abstains; nothing is misread."""
    spec, clear, scene = _bench_board(7, 11)
    reading = _read(spec, clear, scene)
    truth = scene.truth.pegs
    for r, c in [(3, 22), (4, 22), (5, 22), (8, 22), (9, 22)]:
        assert reading.matrix[r, c] == truth[r, c], (r, c)
    assert {0, 1, 2} <= {int(truth[r, c]) for r, c in [(3, 22), (8, 22), (9, 22)]}
    assert not ((reading.matrix >= 0) & (reading.matrix != truth)).any()


def test_grey_links_under_added_light_are_seen() -> None:
    """Seed 29, board 2: glare (not clipping) lifts two grey bridges towards the board; with the
    added light taken off the samples as off the pegs, they are seen (once both were missed)."""
    spec, clear, scene = _bench_board(29, 2)
    reading = _read(spec, clear, scene)
    assert {(17, 16, 19, 17), (19, 17, 20, 15)} <= set(reading.links)
    assert set(reading.links) <= set(scene.truth.links)


def test_holes_beside_a_hand_the_board_colour_are_not_read_by_their_shading() -> None:
    """Seed 97, board 15: a hand the board's own colour (seen by the holes it hides, not by the
    cells' hue). A hole half under a fingertip there changes only in brightness, and its pit,
    half hidden, looks like a grey peg: it must abstain (two such holes were once read grey)."""
    spec, clear, scene = _bench_board(97, 15)
    reading = _read(spec, clear, scene)
    truth = scene.truth.pegs
    near = scene.covered(2.0 * scene.truth.geometry.pitch_mm) & spec.valid_mask()
    assert near[3, 6] and near[9, 1] and truth[3, 6] == 0 and truth[9, 1] == 0
    assert not (near & (reading.matrix >= 0) & (reading.matrix != truth)).any()
    visible = spec.valid_mask() & ~near
    assert (reading.matrix == truth)[visible].mean() > 0.99


def test_black_go_stones_lifted_by_glare_are_not_read_empty() -> None:
    """A Go board under glare (drawn as the Go suite draws its boards, from random.Random(1002)):
    black stones lifted towards the board showed a crossing's darkness at their centre and were
    once read empty, confidently (7 misreads). A stone covers the quarters between the lines."""
    from vision.render.board import random_go_position

    rng = random.Random(1002)
    stones = random_go_position(rng, rng.randint(0, 250))
    tex, truth = render_board_texture("go", stones, style=rng.randrange(3))
    scene = compositor_board_scene(rng.randrange(1 << 30), tex, truth, 1280, 720)
    spec = BoardSpec.go()
    reading = BoardReader(spec, find_board(scene.image, 19, pattern="lines")).read(scene.image)
    lifted = [(7, 10), (7, 11), (8, 9), (8, 11), (8, 15), (11, 13), (11, 16)]
    assert all(truth.pegs[p] == 1 for p in lifted)
    assert sum(reading.matrix[p] == 1 for p in lifted) >= 5
    assert not ((reading.matrix >= 0) & (reading.matrix != truth.pegs)).any()
    assert (reading.matrix == truth.pegs).mean() > 0.98


def _go_board_of_1002(nth: int) -> tuple[BoardReader, np.ndarray, BoardTruth]:
    """The ``nth`` Go board drawn from ``random.Random(1002)``: a reader on the board found in its
    camera image, the image and the board's truth."""
    from vision.render.board import random_go_position

    rng = random.Random(1002)
    for _ in range(nth):
        stones = random_go_position(rng, rng.randint(0, 250))
        tex, truth = render_board_texture("go", stones, style=rng.randrange(3))
        scene_seed = rng.randrange(1 << 30)
    scene = compositor_board_scene(scene_seed, tex, truth, 1280, 720)
    reader = BoardReader(BoardSpec.go(), find_board(scene.image, 19, pattern="lines"))
    return reader, scene.image, truth


def test_black_go_stones_lifted_to_grey_on_a_clipped_board_are_not_read_empty() -> None:
    """The third Go board drawn from random.Random(1002): at its top edge glare clips the board at
    white and lifts three black stones to a pale grey disc, once read empty confidently. There an
    empty point's quarters are that white; a lifted stone's are all a little darker."""
    reader, image, truth = _go_board_of_1002(3)
    reading = reader.read(image)
    lifted = [(0, 14), (0, 16), (1, 14)]
    assert all(truth.pegs[p] == 1 and reader.clipped[p] for p in lifted)
    assert all(reading.matrix[p] != 0 for p in lifted)
    assert not ((reading.matrix >= 0) & (reading.matrix != truth.pegs)).any()
    assert (reading.matrix == truth.pegs).mean() > 0.95


def test_white_go_stones_lifted_by_glare_with_the_board_are_read() -> None:
    """The second Go board drawn from random.Random(1002): under a lamp's glare its white stones
    were lifted about as much as the board, matched the white class no more, and side by side
    were taken for a hand (56 points abstained). An even disc a little brighter than the board,
    centre included (an empty point's centre shows its lines), is the white stone."""
    reader, image, truth = _go_board_of_1002(2)
    reading = reader.read(image)
    assert not reading.covered.any()
    assert not ((reading.matrix >= 0) & (reading.matrix != truth.pegs)).any()
    assert (reading.matrix == truth.pegs).mean() > 0.99
    # An incremental read of the same frame keeps them.
    again = reader.update(image)
    assert (again.matrix == truth.pegs).mean() > 0.99


def test_dark_pegs_are_judged_by_their_ring_more_than_their_highlight() -> None:
    """Seed 0, board 8 and seed 21, board 1: a black peg at the board's edge and one beside links,
    their centres (the highlight) tinted blue in log units, once abstained; their rings are black."""
    for seed, index, hole in ((0, 8, (22, 0)), (21, 1, (5, 10))):
        spec, clear, scene = _bench_board(seed, index)
        reading = _read(spec, clear, scene)
        truth = scene.truth.pegs
        assert truth[hole] == 2 and reading.matrix[hole] == 2, (seed, index)
        near = scene.covered(2.0 * scene.truth.geometry.pitch_mm) & spec.valid_mask()
        assert not ((reading.matrix >= 0) & (reading.matrix != truth)).any()
        assert (reading.matrix == truth)[spec.valid_mask() & ~near].all()


def test_a_link_of_the_other_colour_crossing_a_segment_is_no_bridge() -> None:
    """Seed 5, board 4 at 1920 x 1080: a red bridge crosses the segment between two grey pegs a
    knight's move apart that nothing joins; its samples, nearer red than grey, once voted for a
    grey link (a false link: links never cross)."""
    spec, clear, scene = _bench_board(5, 4, 1920, 1080)
    reading = _read(spec, clear, scene)
    assert scene.truth.pegs[2, 17] == scene.truth.pegs[3, 15] == 2
    assert (2, 17, 3, 15) not in reading.links
    assert set(reading.links) == set(scene.truth.links)


def test_a_board_on_a_checked_cloth_is_found_by_refitting_its_lattice() -> None:
    """Seed 131, board 1: a checked tablecloth and a shadow across the board skew every outline
    found (lattice evidence 0.62 at best, no board); the lattice that outline gave, fitted again
    inside its own outline, is the board's."""
    spec, clear, _scene = _bench_board(131, 1)
    loc = find_board(clear.image, 24, valid=spec.valid_mask())
    assert loc.evidence > 0.9
    true = clear.lens_holes if clear.lens_holes is not None else clear.holes_px()
    assert np.abs(loc.holes_px() - true)[spec.valid_mask()].max() < 2.0


def test_a_pale_board_under_a_hard_shadow_is_found_by_its_dots_relative_to_the_light() -> None:
    """Seed 67, board 5: a pale board on a pale table with a hard shadow across it. No outline
    held it (the best lattice evidence 0.49): its shaded holes, dimmed with the board, fell under
    the dot level the lit ones set. Their depth relative to the light around them marks the whole
    lattice. The reader may abstain in the shadow, never misread."""
    spec, clear, scene = _bench_board(67, 5)
    loc = find_board(clear.image, 24, valid=spec.valid_mask())
    assert loc.evidence >= 0.85
    true = clear.lens_holes if clear.lens_holes is not None else clear.holes_px()
    assert np.abs(loc.holes_px() - true)[spec.valid_mask()].max() < 2.0
    reading = BoardReader(spec, loc).read(scene.image)
    truth = scene.truth.pegs
    assert not ((reading.matrix >= 0) & (reading.matrix != truth) & spec.valid_mask()).any()
    # The lit part is read (182 of 572 holes, a hand over the board besides).
    assert ((reading.matrix == truth) & spec.valid_mask()).sum() > 150


def test_a_glare_rim_on_a_board_white_in_red_is_no_hand() -> None:
    """Seed 97, board 2: glare on a pale board whose red channel the camera already shows at
    white lifts only blue and green round the spot: the rim's cells changed hue as a hand's do,
    and 55 holes two pitches and more from the hand were taken as covered."""
    from web.bench.twixt import near_hands

    spec, clear, scene = _bench_board(97, 2)
    reading = _read(spec, clear, scene)
    truth = scene.truth.pegs
    visible = spec.valid_mask() & ~near_hands(scene, 2.0)
    assert not (reading.covered & visible).any()
    assert not ((reading.matrix >= 0) & (reading.matrix != truth) & spec.valid_mask()).any()
    assert (reading.matrix == truth)[visible].mean() > 0.995


def test_a_finger_in_glare_on_a_board_white_in_red_misreads_nothing() -> None:
    """Seed 131, board 10: a finger over hole (8, 3) in glare on a board at white in red and green;
    its pinkish skin, once the cells around it were taken as lit, could pass for a red peg."""
    from web.bench.twixt import near_hands

    spec, clear, scene = _bench_board(131, 10)
    reading = _read(spec, clear, scene)
    truth = scene.truth.pegs
    assert scene.covered()[8, 3] and truth[8, 3] == 0
    assert not ((reading.matrix >= 0) & (reading.matrix != truth) & spec.valid_mask()).any()
    visible = spec.valid_mask() & ~near_hands(scene, 2.0)
    assert not (reading.covered & visible).any()


def test_a_black_peg_washed_out_beside_saturated_glare_is_not_read_red() -> None:
    """Seed 149, board 7: a black peg at (10, 10) under glare that carries the board's green and
    red to white; measured against that clipped board it leans red. Once the cells round it are
    taken as lit (not a hand), it was read red (0.94): beside such cells a hole must match its
    class closely."""
    spec, clear, scene = _bench_board(149, 7)
    reading = _read(spec, clear, scene)
    truth = scene.truth.pegs
    assert truth[10, 10] == 2 and reading.matrix[10, 10] in (-1, 2)
    assert not ((reading.matrix >= 0) & (reading.matrix != truth) & spec.valid_mask()).any()


def test_a_red_peg_a_little_brighter_than_its_class_is_read() -> None:
    """Seed 7, board 8: red pegs beside the printed border line, where the board is estimated from
    two cells only, look brighter than the red class alike in every channel (0.17 log): their hue
    is red's, yet their spread said 'nothing' and (8, 1) abstained (the board's only loss)."""
    spec, clear, scene = _bench_board(7, 8)
    reading = _read(spec, clear, scene)
    truth = scene.truth.pegs
    assert truth[8, 1] == 1 and reading.matrix[8, 1] == 1
    assert (reading.matrix == truth)[spec.valid_mask()].all()


def test_a_black_peg_under_glare_is_not_read_as_a_faded_red_one() -> None:
    """Seed 97, board 5: a black peg lifted by glare to a hueless grey; allowing red pegs a
    brightness shift everywhere (faded ones too) once read it red. Under glare a piece is judged
    faded, not shifted."""
    spec, clear, scene = _bench_board(97, 5)
    reading = _read(spec, clear, scene)
    truth = scene.truth.pegs
    assert truth[3, 13] == 2 and reading.matrix[3, 13] in (-1, 2)
    assert not ((reading.matrix >= 0) & (reading.matrix != truth) & spec.valid_mask()).any()


def test_a_hole_beside_a_hand_s_edge_seen_by_its_colour_is_read_by_its_shading() -> None:
    """Seed 97, board 12: a hand seen by the cells' hue, its edge hiding a few holes that match
    nothing; an empty hole at the board's edge two pitches from the hand, only dimmed by its
    shadow, was once taken as under the hand (it matched its class a little less than closely)."""
    from web.bench.twixt import near_hands

    spec, clear, scene = _bench_board(97, 12)
    reading = _read(spec, clear, scene)
    truth = scene.truth.pegs
    near = near_hands(scene, 2.0) & spec.valid_mask()
    assert not near[2, 0] and truth[2, 0] == 0
    assert reading.matrix[2, 0] == 0
    assert not (near & (reading.matrix >= 0) & (reading.matrix != truth)).any()
    assert (reading.matrix == truth)[spec.valid_mask() & ~near].all()


def _misread_near_hands(scene: BoardScene, reading) -> np.ndarray:  # type: ignore[no-untyped-def]
    """Holes within two pitches of a hand read, confidently, as something they are not."""
    from web.bench.twixt import near_hands

    near = near_hands(scene, 2.0) & scene.truth.geometry.valid_mask()
    return near & (reading.matrix >= 0) & (reading.matrix != scene.truth.pegs)


def test_a_gap_between_fingers_the_board_colour_is_no_empty_hole() -> None:
    """Full suite, seed 0, board 46 (1920 x 1080): a pale hand, the board's own colour, over the
    board; between two of its fingers a black peg's sliver shows as a dark line inside what looks like
    bare board, and the hole was once read empty, surely, with every hole round it covered."""
    spec, clear, scene = _bench_board(0, 46, 1920, 1080)
    reading = _read(spec, clear, scene)
    assert scene.truth.pegs[15, 16] == 2
    assert reading.matrix[15, 16] == -1
    assert not _misread_near_hands(scene, reading).any()


def test_a_fingertip_over_an_empty_hole_is_no_dark_peg() -> None:
    """Full suite, seed 0, board 57 (1920 x 1080): a brown fingertip over an empty hole beside the
    hand's other fingers, on a board under a little added light; its ring, darker than the board with
    little hue, was once read as a black peg lifted by that light."""
    spec, clear, scene = _bench_board(0, 57, 1920, 1080)
    reading = _read(spec, clear, scene)
    assert scene.truth.pegs[2, 8] == 0
    assert reading.matrix[2, 8] == -1
    assert not _misread_near_hands(scene, reading).any()


def test_a_dark_bridge_crossing_is_no_vote_for_a_red_one() -> None:
    """Full suite, seed 0, board 69 (1920 x 1080): two red pegs a knight's move apart, no bridge
    between them, under a little added light; black bridges cross the segment between them. Taken
    off that light, their samples lie darker than any class, far from all, and once voted red: a red
    link was reported that is not there."""
    spec, clear, scene = _bench_board(0, 69, 1920, 1080)
    reading = _read(spec, clear, scene)
    assert (20, 19, 21, 17) not in scene.truth.links
    assert reading.matrix[20, 19] == reading.matrix[21, 17] == 1
    assert not set(reading.links) - set(scene.truth.links)


def test_empty_holes_clipped_clean_beside_a_hands_margin_are_read() -> None:
    """Full suite, seed 0, board 73 (1920 x 1080): three empty holes of the left border column under
    glare clipped at white, a pale hand two columns away; each shows its pit in a patch clipped clean
    all round, but lay beside holes covered for the hand's margin and abstained."""
    spec, clear, scene = _bench_board(0, 73, 1920, 1080)
    reading = _read(spec, clear, scene)
    for hole in ((6, 0), (7, 0), (8, 0)):
        assert scene.truth.pegs[hole] == 0 and reading.matrix[hole] == 0
    assert not _misread_near_hands(scene, reading).any()


def test_a_grey_peg_and_its_bridge_under_a_glare_s_narrow_peak_are_read() -> None:
    """Full suite, seed 0, board 87 (1920 x 1080, no hand): a glare's peak, about 90 levels, lies on
    grey peg (21, 10); the board's cells around it and the smoothed pits measure 43 levels there, and
    with that taken off the peg was still 0.2 log units brighter than the grey class in every channel:
    it matched nothing and abstained, and its bridge to (20, 8) went unseen. The pit beside it,
    (21, 9), measures 83 levels."""
    spec, clear, scene = _bench_board(0, 87, 1920, 1080)
    reading = _read(spec, clear, scene)
    assert scene.truth.pegs[21, 10] == 2 and reading.matrix[21, 10] == 2
    assert (20, 8, 21, 10) in reading.links
    assert (reading.matrix == scene.truth.pegs).all()
    assert set(reading.links) == set(scene.truth.links)


def test_rim_cells_below_a_model_run_past_white_are_no_hand() -> None:
    """Full suite, seed 0, board 59 (1920 x 1080, the hand far away): glare clips the board's red
    channel at white over much of it; the smooth board model, pulled up there, runs past white in blue
    towards a darker corner, so the bottom rim's cells, bare board, differed from its hue by 0.13-0.19
    and were taken as a hand: five holes of the bottom row abstained. Judged against the hue of the
    board's cells below white, they are bare board."""
    spec, clear, scene = _bench_board(0, 59, 1920, 1080)
    reading = _read(spec, clear, scene)
    for col in range(1, 6):
        assert not reading.covered[23, col]
        assert reading.matrix[23, col] == scene.truth.pegs[23, col]
    assert not _misread_near_hands(scene, reading).any()


def test_a_red_peg_under_none_of_its_class_s_light_is_read() -> None:
    """Full suite, seed 0, board 39 (1920 x 1080): red peg (0, 1) in the board's corner, under no
    added light. Most of the red class's members lie under a lamp's light (5-70 levels, measured by
    the pits round them), and the class learnt from them as seen is that much paler in blue and
    green (0.3 log units): the peg was 1.06 of the limit from it and abstained. Against the class
    learnt with each member's light taken off it matches (the board's only loss)."""
    spec, clear, scene = _bench_board(0, 39, 1920, 1080)
    reading = _read(spec, clear, scene)
    truth = scene.truth.pegs
    assert truth[0, 1] == 1 and reading.matrix[0, 1] == 1
    from web.bench.twixt import near_hands

    visible = spec.valid_mask() & ~near_hands(scene, 2.0)
    assert (reading.matrix == truth)[visible].all()
    assert not _misread_near_hands(scene, reading).any()


def test_a_red_peg_placed_under_none_of_its_class_s_light_is_read_incrementally() -> None:
    """The same board read first without peg (0, 1), then incrementally once it is placed (the hand
    given, as the live app gives it): the hole is classified again against the unlit class the full
    read learnt, as a full read judges it; against the class as seen it matched nothing."""
    board = suite_board(0, 39)
    spec = board.spec
    before = board.pegs.copy()
    before[0, 1] = 0
    scenes = []
    for pegs in (before, board.pegs):
        tex, truth = render_board_texture("twixt", pegs, board.links, board.colours, style=board.style)
        scenes.append(compositor_board_scene(board.scene_seed, tex, truth, 1920, 1080, hands=1))
    clear, _ = board.scenes(1920, 1080)
    reader = BoardReader(spec, find_board(clear.image, 24, valid=spec.valid_mask()))
    reader.read(scenes[0].image, scenes[0].hand_mask)
    reading = reader.update(scenes[1].image, scenes[1].hand_mask)
    assert reading.changed < spec.size**2  # incremental, not a full read again
    assert reading.matrix[0, 1] == 1
    assert not _misread_near_hands(scenes[1], reading).any()
