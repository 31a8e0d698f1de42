"""The board reader's cheaper arithmetic (issue #6, the incremental read's speed) gives numpy's own
figures: channel reductions added in numpy's order, disc means as whole-number sums, medians by
partition, link pairs from a table built once (every value the same, to the last bit)."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from calibration.board_finder import find_board
from vision.board import reader as R
from vision.board.reader import KNIGHT, BoardReader
from vision.board.spec import BoardSpec
from vision.render.board import random_camera, random_twixt_position, render_board_scene, render_board_texture


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal: every value (NaN where NaN), the dtype and shape. Not the sign of an exact zero (-0.0
    where numpy's reduction gives 0.0), which no comparison, sum or product the reader makes sees,
    and which it never divides by (its divisors are floored at a positive value)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)


def _samples(rng: np.random.Generator, shape: tuple[int, ...], dtype: type) -> np.ndarray:
    x = (rng.standard_normal(shape) * 10.0 ** rng.uniform(-3, 3, shape)).astype(dtype)
    flat = x.reshape(-1)
    flat[rng.integers(0, flat.size, 3)] = np.nan
    flat[rng.integers(0, flat.size, 3)] = -0.0
    flat[rng.integers(0, flat.size, 3)] = 0.0
    return x


@pytest.mark.parametrize("shape", [(625, 3), (25, 25, 3), (24, 24, 6), (7, 3, 6), (90, 8, 3), (3,), (6,)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_channel_reductions_are_numpys_bit_for_bit(shape: tuple[int, ...], dtype: type) -> None:
    rng = np.random.default_rng(len(shape) * 100 + shape[-1])
    for _ in range(5):
        x = _samples(rng, shape, dtype)
        assert _same(R._csum(x), x.sum(-1))
        assert _same(R._cmean(x), x.mean(-1))
        assert _same(R._cnorm(x), np.linalg.norm(x, axis=-1))
        assert _same(R._cmax(x), x.max(-1))
        assert _same(R._cmin(x), x.min(-1))
        b = x > 0
        assert _same(R._cany(b), b.any(-1))
        assert _same(R._call(b), b.all(-1))


@pytest.mark.parametrize("k", [1, 2, 3, 12, 13, 600, 625])
def test_median_of_rows_is_numpys(k: int) -> None:
    rng = np.random.default_rng(k)
    for t in range(10):
        x = _samples(rng, (k, 3), np.float64)
        if t % 2:
            x = np.round(x)  # ties
        if t % 3:
            x = np.nan_to_num(x)
        assert _same(R._median_rows(x), np.median(x, axis=0))


def test_pick_is_take_along_axis() -> None:
    rng = np.random.default_rng(3)
    protos = rng.standard_normal((24, 24, 3, 6))
    label = rng.integers(0, 3, (24, 24)).astype(np.int8)
    want = np.take_along_axis(protos, label.astype(int)[..., None, None], -2)[..., 0, :]
    assert _same(R._pick(protos, label), want)
    flat = rng.standard_normal((3, 6))
    lab = rng.integers(0, 3, 40)
    assert _same(R._pick(flat, lab), np.broadcast_to(flat, (40, 3, 6))[np.arange(40), lab])
    p = rng.random((40, 3))
    assert _same(R._pick_last(p, lab), np.take_along_axis(p, lab[:, None], -1)[:, 0])


@pytest.fixture(scope="module")
def scene() -> tuple[BoardReader, np.ndarray, np.ndarray]:
    rng = random.Random(11)
    pegs, links = random_twixt_position(rng, 80)
    texture, truth = render_board_texture("twixt", pegs, links)
    cam = random_camera(rng, 1280, 720, max_tilt=25.0)
    image = render_board_scene(texture, truth, cam, seed=1).image
    spec = BoardSpec.twixt()
    reader = BoardReader(spec, find_board(image, 24, valid=spec.valid_mask()))
    return reader, image, pegs


def test_hole_discs_are_the_mean_of_their_samples(scene: tuple[BoardReader, np.ndarray, np.ndarray]) -> None:
    """Each hole's centre and ring are the float32 means of their sampled pixels, exactly."""
    reader, image, _ = scene
    n = reader.spec.size
    vals = cv2.remap(image, reader._map_x, reader._map_y, cv2.INTER_LINEAR)[0].astype(np.float32)
    a, b, _c, _q = reader._split
    inner = vals[:a].reshape(n, n, -1, 3).mean(2)
    ring = vals[a : a + b].reshape(n, n, -1, 3).mean(2)
    want = np.log(np.concatenate([inner, ring], -1) + 8.0)
    assert _same(reader._features(image).hole_log, want)


def test_link_table_lists_pairs_in_reading_order(scene: tuple[BoardReader, np.ndarray, np.ndarray]) -> None:
    """The table's pairs of same-colour pegs are a loop over the knight's moves, row by row, would
    list, and their samples are those the homography maps the segment's points to."""
    reader, _, pegs = scene
    n = reader.spec.size
    want = []
    for dr, dc in KNIGHT:
        c0, c1 = max(0, -dc), min(n, n - dc)
        a = pegs[0 : n - dr, c0:c1]
        b = pegs[dr:n, c0 + dc : c1 + dc]
        for r, c in zip(*np.nonzero((a > 0) & (a == b)), strict=True):
            want.append((int(r), int(c + c0), int(r + dr), int(c + c0 + dc)))
    table = reader._link_table()
    flat = pegs.ravel()
    sel = np.flatnonzero((flat[table.first] > 0) & (flat[table.first] == flat[table.second]))
    assert [tuple(p) for p in table.pairs[sel].tolist()] == want
    p = table.pairs[sel]
    xs = (p[:, 1:2] + 1) * R.PX + (p[:, 3:4] - p[:, 1:2]) * R.PX * R.LINK_T[None, :]
    ys = (p[:, 0:1] + 1) * R.PX + (p[:, 2:3] - p[:, 0:1]) * R.PX * R.LINK_T[None, :]
    mx, my = reader._to_image(xs.astype(np.float64), ys.astype(np.float64))
    assert _same(table.map_x[sel], mx) and _same(table.map_y[sel], my)


def test_hued_classes_follow_the_prototypes(scene: tuple[BoardReader, np.ndarray, np.ndarray]) -> None:
    """Which classes are hued is what the prototypes show now, measured once for the same values:
    again when they are replaced, and when they are changed in place (as ``_learn_dark`` does)."""
    reader = BoardReader(BoardSpec.twixt(), scene[0].location)

    def want() -> tuple[np.ndarray, np.ndarray]:
        chroma = R._chroma(reader.prototypes)
        return (
            np.linalg.norm(chroma, axis=-1) > R.FADE_CHROMA,
            np.linalg.norm(chroma[:, 3:], axis=-1) > R.FADE_CHROMA,
        )

    for got, exp in zip(reader._hued(), want(), strict=True):
        assert _same(got, exp)
    first = reader._hued()
    assert reader._hued()[0] is first[0]  # the same values: not measured again
    reader.prototypes[1] = reader.prototypes[1].mean()  # in place: the red class turns grey
    for got, exp in zip(reader._hued(), want(), strict=True):
        assert _same(got, exp)
    assert not reader._hued()[0][1] and first[0][1]
    reader.prototypes = reader.spec.prototypes()
    for got, exp in zip(reader._hued(), want(), strict=True):
        assert _same(got, exp)
    assert reader._hued()[0][1]


def test_board_model_fits_on_rows_picked_by_index(scene: tuple[BoardReader, np.ndarray, np.ndarray]) -> None:
    """The model's terms are the design's first 1, 3 and 6 columns, and rows picked by index are
    those a boolean mask picks: the least-squares fits see the same inputs."""
    reader, image, _ = scene
    for k in (1, 3, 6):
        cols = reader._design_terms[k]
        assert cols.flags["C_CONTIGUOUS"] and _same(cols, reader._design_cells[:, :k])
    y = reader._features(image).cell_log.reshape(-1, 3).astype(np.float64)
    use = ~reader.printed.ravel()
    rows = np.flatnonzero(use)
    assert _same(y.take(rows, 0), y[use])
    assert _same(reader._design_terms[3].take(rows, 0), reader._design_cells[use, :3])
