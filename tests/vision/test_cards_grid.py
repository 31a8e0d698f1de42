"""Touching cards in a grid take the quads of the grid the found cards agree on (vision.cards.grid)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision._finder_helpers import bench_frame, best_ious
from vision.cards import FinderConfig, find_cards
from vision.cards.geometry import quad_iou
from vision.cards.grid import GridConfig, apply_grid, grid_cells


def _grid(
    origin: tuple[float, float], size: tuple[float, float], cells: list[tuple[int, int]]
) -> list[np.ndarray]:
    """Axis-aligned card quads of ``size`` on the grid at ``origin`` (cell (0, 0)'s centre)."""
    (x0, y0), (w, h) = origin, size
    out = []
    for i, j in cells:
        cx, cy = x0 + i * w, y0 + j * h
        out.append(
            np.float32(
                [
                    [cx - w / 2, cy - h / 2],
                    [cx + w / 2, cy - h / 2],
                    [cx + w / 2, cy + h / 2],
                    [cx - w / 2, cy + h / 2],
                ]
            )
        )
    return out


CELLS = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2)]


def test_cells_follow_the_found_quads_not_the_coarse_instances() -> None:
    """Seven touching 60 x 93 px cards (a 3 x 2 block and one below). The instances' corners are
    off by up to 4 px; four found quads are right within 0.7 px, one spans two cards, one ended
    5 px inside on a print. The grid from the found quads: every card within 1 px; the merged and
    the short quad give way to their cells (three added: the two under the merged quad, the one
    under the short quad), and the right ones stay."""
    truth = _grid((200.0, 150.0), (60.0, 93.0), CELLS)
    rng = np.random.default_rng(3)
    instances = [q + rng.uniform(-4, 4, (4, 2)).astype(np.float32) for q in truth]
    merged = np.float32([truth[3][0], truth[4][1], truth[4][2], truth[3][3]])
    short = truth[5] + np.float32([[5, 5], [-5, 5], [-5, -5], [5, -5]])
    good = [truth[k] + rng.uniform(-0.7, 0.7, (4, 2)).astype(np.float32) for k in (0, 1, 2, 6)]
    found = [*good, merged, short]
    grids = grid_cells(instances, found, GridConfig(), seam_card=lambda strip: 1.0)
    assert len(grids) == 1 and len(grids[0]) == len(CELLS)
    for t in truth:
        best = max(grids[0], key=lambda c: quad_iou(c, t))
        assert np.abs(best - t).max() < 1.0, (best, t)
    keep, added = apply_grid(found, grids)
    assert keep == [0, 1, 2, 3]
    assert len(added) == 3
    result = [found[k] for k in keep] + added
    assert all(max(quad_iou(q, t) for q in result) > 0.97 for t in truth)


def test_cards_laid_apart_are_no_grid() -> None:
    """The same cards with the table between them (the seams are not card): no grid. Nor do two
    found quads alone make one (one of them may be a card half under a hand)."""
    truth = _grid((200.0, 150.0), (60.0, 93.0), CELLS)
    found = [truth[0], truth[2], truth[4]]
    assert len(grid_cells(truth, found, GridConfig(), seam_card=lambda strip: 1.0)) == 1
    assert grid_cells(truth, found, GridConfig(), seam_card=lambda strip: 0.1) == []
    assert grid_cells(truth, found[:2], GridConfig(), seam_card=lambda strip: 1.0) == []


def test_touching_trio_grid_on_a_rendered_frame() -> None:
    """The quick bench's frame 257: seven Trio cards touching in rows. Without the grid 3 cards
    are within IoU 0.9 (quads ended on the prints, one over two cards); with it, all 7."""
    image, counted = bench_frame(257, "touching", "trio")
    without = best_ious(image, counted, FinderConfig(grid=None))
    with_grid = best_ious(image, counted, FinderConfig())
    assert len(counted) == 7
    assert (without >= 0.9).sum() == 3, without
    assert (with_grid >= 0.9).all(), with_grid


@pytest.mark.parametrize(("seed", "deck"), [(169, "twinit"), (37, "trio")])
def test_cards_in_rows_with_gaps_are_left_as_found(seed: int, deck: str) -> None:
    """The quick bench's frames 169 (Twin It) and 37 (Trio): cards in rows with a gap between
    them. The segmenter's instances lie on whole steps of one another (a step is a card and a
    gap); on 169 the seams are table, on 37 they read as card but every found quad lies inside
    its cell by half the gap: the finder's quads are the same with and without the grid step."""
    image, _ = bench_frame(seed, "rows", deck)
    a = find_cards(image, FinderConfig(grid=None))
    b = find_cards(image, FinderConfig())
    assert len(a) == len(b) >= 5
    assert all(np.array_equal(x.quad, y.quad) for x, y in zip(a, b, strict=True))
