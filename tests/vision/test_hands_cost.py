"""What the hand detector works on per frame: the table's colour model only in the box around what
differs from the memory, and a blob's holes only in the blob's box; the results are those of the
whole image."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.hands as hands_mod
from tests.vision._frames import table_frame, with_arm
from vision.cards.segment import table_colours, table_model_mask
from vision.hands import HandTracker, _BoxedTableMask


def _colours(frame: np.ndarray) -> np.ndarray:
    return table_colours(cv2.resize(frame, (320, 180)))


def test_the_table_colour_model_is_worked_out_only_around_the_foreground(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    frame = table_frame()
    colours = _colours(frame)
    tracker = HandTracker()
    for k in range(3):
        tracker.update(frame, 0.1 * k, {}, [], colours=colours)
    sizes: list[int] = []

    def spy(image: np.ndarray, colours: np.ndarray | None = None) -> np.ndarray:
        sizes.append(image.shape[0] * image.shape[1])
        return table_model_mask(image, colours)

    monkeypatch.setattr(hands_mod, "table_model_mask", spy)
    # An arm from the left edge to a third of the way across: the foreground's box is about a
    # third of the image.
    res = tracker.update(with_arm(frame, "left", (400, 360)), 0.3, {}, [], colours=colours)
    assert len(res.hands) == 1
    whole = 320 * 180
    assert sizes, "the arm's pixels are checked against the table's colours"
    assert all(s < 0.5 * whole for s in sizes)
    assert sum(sizes) < 0.8 * whole


def test_the_boxed_table_mask_is_the_whole_images_where_it_is_asked() -> None:
    frame = cv2.resize(table_frame(), (320, 180))
    colours = table_colours(frame)
    where = np.zeros((180, 320), np.uint8)
    where[40:90, 1:120] = 1
    where[150, 200] = 1
    boxed = _BoxedTableMask(frame, colours, where).mask()
    whole = table_model_mask(frame, colours)
    # the box around ``where`` grown by 3 pixels a side
    assert np.array_equal(boxed[37:154, 0:204], whole[37:154, 0:204])
    assert not boxed[154:].any() and not boxed[:37].any() and not boxed[:, 204:].any()
    # without colours, learned from the image: the whole image
    assert np.array_equal(_BoxedTableMask(frame, None, where).mask(), table_model_mask(frame, None))


@pytest.mark.parametrize("seed", range(6))
def test_holes_filled_in_the_blobs_box_are_those_of_the_whole_image(seed: int) -> None:
    rng = np.random.default_rng(seed)
    tracker = HandTracker()
    tracker._card_size = (30.0, 600.0)
    for _ in range(20):
        blob = np.zeros((180, 320), np.uint8)
        # rings (holes of several sizes), bays open to the border, blobs reaching the border
        for _ in range(int(rng.integers(1, 5))):
            c = (int(rng.integers(0, 320)), int(rng.integers(0, 180)))
            cv2.circle(blob, c, int(rng.integers(8, 50)), 1, int(rng.integers(2, 8)))
        cv2.line(blob, (0, int(rng.integers(0, 180))), (int(rng.integers(0, 320)), 90), 1, 9)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(blob, connectivity=8)
        for i in range(1, n):
            one = labels == i
            box = tuple(int(v) for v in stats[i, :4])
            assert np.array_equal(tracker._fill_holes(one, box), tracker._fill_holes(one))
