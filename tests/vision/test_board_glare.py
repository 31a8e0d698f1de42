"""Holes on a board clipped at white, read by the shape of what still shows (synthetic patches)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.board.glare import OFFSET_X, OFFSET_Y, clean_pits, read_shapes

RED, GREY = 1, 2


def _patch(
    centre: tuple[int, int, int] | None = None, disc: tuple[int, int, int] | None = None
) -> np.ndarray:
    """A white (clipped) patch with a dark pit of radius 0.11 pitch or a disc of 0.3 (BGR), blurred a
    little as a camera would."""
    import cv2

    img = np.full((*OFFSET_Y.shape, 3), 255, np.uint8)
    r = np.hypot(OFFSET_Y, OFFSET_X)
    if disc is not None:
        img[r <= 0.3] = disc
    if centre is not None:
        img[r <= 0.11] = centre
    return cv2.GaussianBlur(img, (3, 3), 0.6)


@pytest.mark.parametrize(
    ("patch", "expected"),
    [
        (_patch(centre=(225, 225, 228)), 0),  # a pit 30 levels below white: empty
        (_patch(disc=(215, 212, 210)), GREY),  # a grey peg's disc washed out to pale grey
        (_patch(disc=(150, 150, 250)), RED),  # a red peg: its red channel clipped, blue and green not
        (_patch(), -1),  # nothing shows: abstain
        (_patch(centre=(252, 252, 252)), -1),  # a pit too faint to tell from noise
    ],
)
def test_shapes(patch: np.ndarray, expected: int) -> None:
    assert read_shapes(patch[None], RED, GREY)[0] == expected


def test_one_sided_darkness_is_no_piece() -> None:
    """A finger's edge darkens one side of the hole, not a round disc: no reading."""
    img = np.full((*OFFSET_Y.shape, 3), 255, np.uint8)
    img[OFFSET_X > 0.05] = (200, 180, 170)
    assert read_shapes(img[None], RED, GREY)[0] == -1


def test_darkness_all_round_is_no_hole() -> None:
    """Dark all round (a shadow, a sleeve): the board around the hole is not white, no reading."""
    img = np.full((*OFFSET_Y.shape, 3), 200, np.uint8)
    assert read_shapes(img[None], RED, GREY)[0] == -1


def test_a_grey_peg_under_warm_light_is_not_read_red() -> None:
    """Warm light's gains darken a washed-out grey peg's blue most and its red least (seed 149's
    board 7, hole 11,11: darkness B 26, G 11, R 5): its red channel is as pale as a red peg's, but
    its blue and green are far from alike, as a red peg's are. It abstains, never reads red."""
    patch = _patch(disc=(229, 244, 250))
    assert read_shapes(patch[None], RED, GREY)[0] == -1
    # A red peg whose blue and green are a little uneven (tinted light) is still red.
    assert read_shapes(_patch(disc=(240, 235, 254))[None], RED, GREY)[0] == RED


def test_a_washed_out_peg_is_read_though_the_board_around_it_is_a_little_dark() -> None:
    """The board around a washed-out grey peg three levels below white (its blurred rim, a bridge),
    a quarter and more of the peg's own darkness: still a piece."""
    patch = _patch(disc=(247, 247, 247)).astype(np.int16) - 3
    patch = np.clip(patch, 0, 255).astype(np.uint8)
    assert read_shapes(patch[None], RED, GREY)[0] == GREY


def test_a_spec_without_a_hued_class_reads_no_red() -> None:
    assert read_shapes(_patch(disc=(150, 150, 250))[None], None, GREY)[0] == -1


def test_a_faint_pit_on_a_flat_clipped_patch_is_read_empty() -> None:
    """Glare that clips the board flat leaves a pit only a few levels below white, but far out of
    the patch's own noise (none here): empty, not an abstention."""
    patch = _patch(centre=(249, 249, 249))
    dark = 255.0 - patch.astype(np.float32).mean(-1)
    assert dark[np.hypot(OFFSET_Y, OFFSET_X) <= 0.09].mean() < 6.0  # under the plain pit level
    assert read_shapes(patch[None], RED, GREY)[0] == 0


def test_a_faint_pit_in_a_noisy_patch_is_not_read() -> None:
    """A faint pit where the patch around it is dark here and there too (noise, a texture): as
    dark as a faint pit on a flat patch, but not out of its own noise, no reading."""
    rng = np.random.default_rng(1)
    patch = _patch(centre=(252, 252, 252)).astype(np.int16)
    patch -= rng.integers(0, 5, patch.shape[:2], dtype=np.int16)[..., None]
    patch = np.clip(patch, 0, 255).astype(np.uint8)
    dark = 255.0 - patch.astype(np.float32).mean(-1)
    assert 4.0 <= dark[np.hypot(OFFSET_Y, OFFSET_X) <= 0.09].mean() < 6.0
    assert read_shapes(patch[None], RED, GREY)[0] == -1


def test_a_clean_pit_is_an_empty_hole_beyond_doubt() -> None:
    """A pit plainly dark in a patch clipped clean all round: empty, and sure of it."""
    patch = _patch(centre=(200, 200, 205))
    assert read_shapes(patch[None], RED, GREY)[0] == 0
    assert clean_pits(patch[None])[0]


def test_a_sliver_between_two_white_fingers_is_no_clean_pit() -> None:
    """Two fingers as white as the glare over a black peg, a gap 0.12 pitch wide between them: the
    sliver of the peg at the centre passes for a pit by the annulus's mean, but it crosses the annulus
    and the board round it on two sides, so it is no empty hole beyond doubt."""
    import cv2

    img = np.full((*OFFSET_Y.shape, 3), 255, np.uint8)
    sliver = (np.abs(OFFSET_X) <= 0.06) & (np.hypot(OFFSET_Y, OFFSET_X) <= 0.3)
    img[sliver] = (40, 40, 44)
    patch = cv2.GaussianBlur(img, (3, 3), 0.6)
    assert not clean_pits(patch[None])[0]


def test_a_pit_beside_a_dark_edge_is_no_clean_pit() -> None:
    """A pit whose patch a dark edge (a finger's shadow, a peg beside it) reaches on one side."""
    patch = _patch(centre=(200, 200, 205))
    patch[OFFSET_Y < -0.36] = (120, 120, 120)
    assert read_shapes(patch[None], RED, GREY)[0] == 0
    assert not clean_pits(patch[None])[0]


def test_a_hueless_dark_centre_among_a_hued_board_s_pits_is_no_sure_pit() -> None:
    """Seed 8, board 10 (1280 x 720): on a cream board clipped at white the pits' darkness leans to
    blue as the board does (B 25, G 11, R 10), and a grey peg lifted by glare to a small dark centre
    darkens every channel alike (B 11, G 10, R 12.5): it was read empty, surely. Among a board's
    pits that lean so, one that does not is no sure pit; alone, or among pits as hueless as it (a
    grey board), it still is one; so is a faint pit (under the plain pit level), a few levels below
    white in every channel, whose hue clipping took (seed 15, board 3, hole 11, 7)."""
    pits = [_patch(centre=(200 + k, 238, 242)) for k in range(8)]
    even = _patch(centre=(228, 228, 226))
    got = read_shapes(np.stack([*pits, even]), RED, GREY)
    assert (got[:-1] == 0).all() and got[-1] == -1
    assert read_shapes(even[None], RED, GREY)[0] == 0
    faint = _patch(centre=(249, 249, 249))
    assert (read_shapes(np.stack([*pits, faint]), RED, GREY) == 0).all()
    grey_board = [_patch(centre=(222 + k % 3, 224, 225)) for k in range(8)]
    assert (read_shapes(np.stack([*grey_board, even]), RED, GREY) == 0).all()
