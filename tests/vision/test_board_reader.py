"""Finding and reading rendered Twixt and Go boards; hands make holes abstain, never misread."""

from __future__ import annotations

import random

import numpy as np
import pytest

from calibration.board_finder import BoardNotFound, find_board
from vision.board.reader import BoardReader
from vision.board.spec import BoardSpec
from vision.errors import InputError
from vision.render.board import (
    CameraSpec,
    HandSpec,
    random_go_position,
    random_twixt_position,
    render_board_scene,
    render_board_texture,
)

CAM = CameraSpec(
    960, 540, tilt_deg=25.0, azimuth_deg=10.0, roll_deg=3.0, gain=0.9, gradient=(0.2, -0.2), noise=2.0
)


def _twixt(seed: int, n: int, colours=("red", "black"), hands=(), cam=CAM):
    pegs, links = random_twixt_position(random.Random(seed), n)
    tex, truth = render_board_texture("twixt", pegs, links, colours, style=seed % 4)
    return (
        truth,
        render_board_scene(tex, truth, cam, seed=seed),
        render_board_scene(tex, truth, cam, hands, seed=seed),
    )


@pytest.mark.parametrize(("seed", "colours"), [(1, ("red", "black")), (2, ("red", "grey"))])
def test_twixt_board_is_found_and_read_exactly(seed: int, colours: tuple[str, str]) -> None:
    spec = BoardSpec.twixt(colours=colours)
    truth, clear, _ = _twixt(seed, 90, colours)
    loc = find_board(clear.image, 24, valid=spec.valid_mask())
    assert loc.evidence > 0.9
    assert np.abs(loc.holes_px() - clear.holes_px())[spec.valid_mask()].max() < 1.5
    reading = BoardReader(spec, loc).read(clear.image)
    assert (reading.matrix == truth.pegs).all()
    assert set(reading.links) == set(truth.links)
    assert reading.overall_confidence > 0.9


def test_go_board_is_read_exactly() -> None:
    spec = BoardSpec.go()
    stones = random_go_position(random.Random(3), 150)
    tex, truth = render_board_texture("go", stones)
    scene = render_board_scene(tex, truth, CAM, seed=3)
    loc = find_board(scene.image, 19, pattern="lines")
    assert (BoardReader(spec, loc).read(scene.image).matrix == truth.pegs).all()


def test_hand_covered_holes_abstain_and_are_never_misread() -> None:
    spec = BoardSpec.twixt()
    hand = HandSpec("bottom", (190.0, 200.0), 85.0, skin=1, sleeve=2)
    truth, clear, covered = _twixt(4, 120, hands=[hand])
    loc = find_board(clear.image, 24, valid=spec.valid_mask())
    reading = BoardReader(spec, loc).read(covered.image)
    under = covered.covered(0.35 * 15.0) & spec.valid_mask()
    assert under.sum() > 20
    assert (reading.matrix[under] < 0).all()
    assert reading.hand_over_board
    far = spec.valid_mask() & ~covered.covered(45.0)  # the reader abstains up to two holes around a hand
    assert (reading.matrix[far] == truth.pegs[far]).all()


def test_incremental_read_reclassifies_only_changed_holes() -> None:
    spec = BoardSpec.twixt()
    pegs, links = random_twixt_position(random.Random(5), 40)
    tex, truth = render_board_texture("twixt", pegs, links)
    a = render_board_scene(tex, truth, CAM, seed=1).image
    pegs2 = pegs.copy()
    r, c = map(int, np.argwhere((pegs == 0) & spec.valid_mask())[100])
    pegs2[r, c] = 2
    tex2, truth2 = render_board_texture("twixt", pegs2, links)
    b = render_board_scene(tex2, truth2, CAM, seed=2).image
    reader = BoardReader(spec, find_board(a, 24, valid=spec.valid_mask()))
    first = reader.update(a)
    assert first.changed == 24 * 24
    second = reader.update(b)
    assert second.changed < 10
    assert second.matrix[r, c] == 2
    assert (second.matrix == pegs2).all()


def test_no_board_is_reported_with_a_reason() -> None:
    rng = np.random.default_rng(0)
    noise = rng.integers(0, 255, (360, 640, 3), dtype=np.uint8)
    with pytest.raises(BoardNotFound, match=r"lattice|outline"):
        find_board(noise, 24)


def test_wrong_lattice_size_is_not_a_board() -> None:
    spec = BoardSpec.twixt()
    _truth, clear, _ = _twixt(6, 30)
    with pytest.raises(BoardNotFound):
        find_board(clear.image, 15, valid=None)
    assert find_board(clear.image, 24, valid=spec.valid_mask()).evidence > 0.9


def test_spec_rejects_bad_colours() -> None:
    with pytest.raises(InputError, match="colour 'purple'"):
        BoardSpec.twixt(colours=("red", "purple"))


def _lit(image: np.ndarray, centre: np.ndarray, sigma: float, strength: float) -> np.ndarray:
    """``image`` with white light added in a Gaussian spot (clipped at 255, as a camera does)."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    spot = strength * np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * sigma**2))
    return np.clip(image.astype(np.float32) + spot[..., None], 0, 255).astype(np.uint8)


def test_clipped_glare_is_read_by_the_pits_and_taken_for_no_hand() -> None:
    spec = BoardSpec.twixt(colours=("red", "grey"))
    truth, clear, _ = _twixt(7, 120, spec.colours)
    loc = find_board(clear.image, 24, valid=spec.valid_mask())
    holes = clear.holes_px()
    # The board clips at white around the spot; an empty hole's pit stays a little darker.
    image = _lit(clear.image, holes[6, 8], 2.5 * loc.pitch_px(), 150.0)
    reading = BoardReader(spec, loc).read(image)
    near = np.linalg.norm(holes - holes[6, 8], axis=-1) < 6.0 * loc.pitch_px()
    ys, xs = np.round(holes[..., 1]).astype(int), np.round(holes[..., 0]).astype(int)
    cells = np.round((holes[:-1, :-1] + holes[1:, 1:]) / 2).astype(int)
    clipped = np.zeros_like(near)
    clipped[:-1, :-1] = image[cells[..., 1], cells[..., 0]].min(-1) == 255
    empty = clipped & (truth.pegs == 0) & spec.valid_mask()
    assert empty.sum() > 10
    read = reading.matrix >= 0
    # Never a misread; glare is no hand; most empty holes in it are still read.
    assert (reading.matrix[read] == truth.pegs[read]).all()
    assert not reading.hand_over_board
    assert (reading.matrix[empty] == 0).mean() >= 0.8
    assert (reading.matrix[~near] == truth.pegs[~near]).all()
    # Links: none invented, and every one between two pegs read is seen, in the glare too.
    assert set(reading.links) <= set(truth.links)
    both = [lk for lk in truth.links if read[lk[0], lk[1]] and read[lk[2], lk[3]]]
    assert any(near[lk[0], lk[1]] for lk in both)
    assert set(both) <= set(reading.links)
    assert ys.max() < image.shape[0] and xs.max() < image.shape[1]


def test_dark_pegs_lifted_by_added_light_are_read_never_misread() -> None:
    spec = BoardSpec.twixt()
    truth, clear, _ = _twixt(8, 150)
    loc = find_board(clear.image, 24, valid=spec.valid_mask())
    holes = clear.holes_px()
    # A lamp's light added over one side (no clipping): black pegs there turn dark grey, far
    # more in log units than the board; the empty holes' pits show how much light was added.
    image = _lit(clear.image, holes[12, 0], 6.0 * loc.pitch_px(), 45.0)
    reading = BoardReader(spec, loc).read(image)
    read = reading.matrix >= 0
    assert (reading.matrix[read] == truth.pegs[read]).all()
    lamp = np.linalg.norm(holes - holes[12, 0], axis=-1) < 6.0 * loc.pitch_px()
    black = lamp & (truth.pegs == 2)
    assert black.sum() >= 6
    assert (reading.matrix[black] == 2).mean() >= 0.5
    assert (reading.matrix == truth.pegs)[spec.valid_mask()].mean() >= 0.98


def test_a_hard_tinted_shadow_is_no_hand() -> None:
    spec = BoardSpec.twixt()
    truth, clear, _ = _twixt(9, 120)
    loc = find_board(clear.image, 24, valid=spec.valid_mask())
    # A window frame's shadow: a hard-edged band across the board, darker and bluer (sky light).
    image = clear.image.astype(np.float32)
    holes = clear.holes_px()
    top, bottom = holes[8, 0, 1], holes[14, 0, 1]
    band = (np.arange(image.shape[0]) >= top) & (np.arange(image.shape[0]) < bottom)
    image[band] *= np.array([0.8, 0.65, 0.55], np.float32)
    reading = BoardReader(spec, loc).read(image.astype(np.uint8))
    read = reading.matrix >= 0
    assert (reading.matrix[read] == truth.pegs[read]).all()
    # The band is a quarter of the board: once taken for a hand, two thirds of the holes were left.
    assert (reading.matrix == truth.pegs)[spec.valid_mask()].mean() >= 0.8


def test_holes_glare_hides_keep_their_earlier_reading_until_a_hand_comes_near() -> None:
    spec = BoardSpec.twixt(colours=("red", "grey"))
    geo_truth, _, _ = _twixt(7, 120, spec.colours)
    tip = tuple(float(v) for v in geo_truth.geometry.hole_mm(np.array(6), np.array(8)))
    hand = HandSpec("top", tip, 80.0, skin=3, sleeve=3)
    truth, clear, handed = _twixt(7, 120, spec.colours, hands=[hand])
    loc = find_board(clear.image, 24, valid=spec.valid_mask())
    holes = clear.holes_px()
    # Glare strong enough that nothing shows in the spot: pits and pegs all clipped at white.
    spot = (holes[6, 8], 2.0 * loc.pitch_px(), 400.0)
    glared = _lit(clear.image, *spot)
    fresh = BoardReader(spec, loc).read(glared)
    hidden = (fresh.matrix < 0) & spec.valid_mask()
    assert hidden.sum() >= 5 and not fresh.hand_over_board and fresh.remembered is None
    reader = BoardReader(spec, loc)
    assert (reader.update(clear.image).matrix == truth.pegs).all()
    kept = reader.update(glared)
    assert kept.remembered is not None and (kept.remembered >= hidden).all()
    assert (kept.matrix == truth.pegs).all()
    assert (reader.update(glared).matrix == truth.pegs).all()
    # A hand comes into the spot and leaves: what glare hides there may have changed.
    during = reader.update(_lit(handed.image, *spot))
    assert during.hand_over_board
    after = reader.update(glared)
    assert (after.matrix[hidden] < 0).all() and after.remembered is None
    read = after.matrix >= 0
    assert (after.matrix[read] == truth.pegs[read]).all()
