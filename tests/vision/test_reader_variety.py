"""The reader's varied training faces, its read at two half turns, and Trio's colour from the number."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.files import READER
from models.labels import COLOUR_CLASSES, DECK_CLASS_COUNT, TRIO_COLOUR_NAMES
from models.preprocess import to_tensor
from models.reader_decode import decode, fuse_half_turns, fuse_views, view_inputs, with_half_turns
from models.training.augment import AugmentConfig
from models.training.patterns import ProceduralNumberDeck
from models.training.reader_data import NumberSampler
from models.training.reader_faces import SUIT_BGR, TRIO_BGR, VariedNumberDeck
from web.cli import main


def test_varied_faces_change_on_every_draw_and_repeat_with_the_seed() -> None:
    a, b = VariedNumberDeck("themind", 5), VariedNumberDeck("themind", 5)
    first = [a.image("themind:68") for _ in range(4)]
    again = [b.image("themind:68") for _ in range(4)]
    for x, y in zip(first, again, strict=True):
        assert x.dtype == np.uint8 and x.ndim == 3 and x.shape[2] == 3
        assert x.shape == y.shape and np.array_equal(x, y)
    assert x.shape[0] > x.shape[1]  # portrait
    sizes_or_pixels = {(f.shape, f.tobytes()[:2000]) for f in first}
    assert len(sizes_or_pixels) == 4


@pytest.mark.parametrize(
    ("identity", "bgr"),
    [("lineit:57:heart", SUIT_BGR["heart"]), ("lineit:58:leaf", SUIT_BGR["leaf"]), ("trio:6", TRIO_BGR[5])],
)
def test_the_key_colour_is_on_every_varied_face(identity: str, bgr: tuple[int, int, int]) -> None:
    deck = VariedNumberDeck(identity.split(":")[0], 3)
    target = np.array(bgr, np.float32)
    for _ in range(12):
        img = deck.image(identity).astype(np.float32)
        # within a jitter of the key colour, or the key colour brightened on a dark card
        near = np.linalg.norm(img - target, axis=2) < 70
        hsv_img = cv2.cvtColor(img.astype(np.uint8), cv2.COLOR_BGR2HSV)
        hue = cv2.cvtColor(target.astype(np.uint8)[None, None], cv2.COLOR_BGR2HSV)[0, 0, 0]
        dh = np.abs(hsv_img[:, :, 0].astype(int) - int(hue))
        same_hue = (np.minimum(dh, 180 - dh) < 10) & (hsv_img[:, :, 1] > 90) & (hsv_img[:, :, 2] > 60)
        assert max(near.mean(), same_hue.mean()) > 0.003, identity


def test_the_sampler_draws_new_varied_faces() -> None:
    deck = VariedNumberDeck("lineit", 1)
    sampler = NumberSampler([deck], 32, 48, seed=0, aug=AugmentConfig(), fresh=1.0)
    x1, n1, c1, d1 = sampler.sample(0, "lineit:57:heart")
    x2, n2, c2, d2 = sampler.sample(0, "lineit:57:heart")
    assert x1.shape == (3, 48, 32) and d1 == d2 == "lineit"
    assert n1 == n2 == 56 and c1 == c2 == COLOUR_CLASSES.index("heart")
    assert not np.array_equal(x1, x2)


def test_half_turns_are_fused_by_averaging() -> None:
    x = np.arange(2 * 3 * 4 * 2, dtype=np.float32).reshape(2, 3, 4, 2)
    both = with_half_turns(x)
    assert both.shape == (4, 3, 4, 2)
    assert np.array_equal(both[2], x[0, :, ::-1, ::-1])
    z = np.array([[1.0, 3.0], [0.0, 0.0], [3.0, 1.0], [2.0, 4.0]])
    assert np.allclose(fuse_half_turns(z), [[2.0, 2.0], [1.0, 2.0]])


def test_decode_takes_trio_colour_from_the_number_and_masks_the_deck() -> None:
    numbers = np.full((3, 103), -5.0)
    numbers[0, 5] = 5.0  # trio 6
    numbers[1, 50] = 9.0  # outside Trio's 12: masked
    numbers[1, 8] = 1.0
    numbers[2, 101] = 6.0  # lineit bet +4
    colours = np.zeros((3, len(COLOUR_CLASSES)))
    colours[0, COLOUR_CLASSES.index("red")] = 20.0  # Trio's colour head is not asked
    cls, col, conf = decode(numbers, colours, ["trio", "trio", "lineit"], 1.0)
    assert cls.tolist() == [5, 8, 101]
    assert COLOUR_CLASSES[col[0]] == TRIO_COLOUR_NAMES[5] and COLOUR_CLASSES[col[1]] == TRIO_COLOUR_NAMES[8]
    assert col[2] == 0
    p6 = np.exp(5.0) / (np.exp(5.0) + 11 * np.exp(-5.0))
    assert conf[0] == pytest.approx(p6)
    assert DECK_CLASS_COUNT["trio"] == 12


def test_tiny_reader_training_is_bit_reproducible_and_reads_at_half_turns(tmp_path: Path) -> None:
    from vision.identity import NumberReader

    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        assert main(["train", "reader", "--tiny", "--out", str(out)]) == 0
    meta_a = json.loads((a / READER.meta).read_text())
    meta_b = json.loads((b / READER.meta).read_text())
    assert meta_a["sha256"] == meta_b["sha256"]
    assert meta_a["half_turns"] is True
    assert "varied" in " ".join(meta_a["train_decks"])
    reader = NumberReader(a)
    # twice the input size: the shrink and the exposure reference are the same at both half turns
    face = cv2.resize(VariedNumberDeck("trio", 4).image("trio:9"), (2 * reader.width, 2 * reader.height))
    up, down = reader.read(face, "trio"), reader.read(cv2.rotate(face, cv2.ROTATE_180), "trio")
    assert (up.number, up.colour) == (down.number, down.colour)  # half turns fused: same read
    assert up.confidence == pytest.approx(down.confidence, abs=1e-6)
    assert up.colour == TRIO_COLOUR_NAMES[up.number - 1]


def test_views_are_the_crop_and_its_trims_each_at_both_half_turns() -> None:
    rng = np.random.default_rng(0)
    crops = [rng.integers(0, 256, size=(90, 60, 3), dtype=np.uint8) for _ in range(3)]
    x = view_inputs(crops, 32, 48, trims=(0.0, 0.1))
    assert x.shape == (4 * 3, 3, 48, 32) and x.dtype == np.float32
    assert np.array_equal(x[0], to_tensor(crops[0], 32, 48))
    assert np.array_equal(x[3 + 1], x[1][:, ::-1, ::-1])  # the half turn of crop 1
    assert np.array_equal(x[6 + 2], to_tensor(crops[2][9:81, 6:54], 32, 48))
    z = np.arange(12, dtype=np.float64)[:, None] * np.ones((1, 5))
    assert np.allclose(fuse_views(z, 3), [[4.5] * 5, [5.5] * 5, [6.5] * 5])  # mean of rows i, i+3, i+6, i+9


@pytest.mark.parametrize(("bet_share", "low", "high"), [(0.0, 0.0, 0.08), (0.3, 0.22, 0.38)])
def test_the_sampler_shows_line_it_bets_at_the_asked_share(bet_share: float, low: float, high: float) -> None:
    deck = ProceduralNumberDeck("lineit", 0, (48, 72))
    sampler = NumberSampler([deck], 32, 48, seed=1, aug=AugmentConfig(), bet_share=bet_share)
    draws = [sampler._draw_identity(deck) for _ in range(600)]
    share = np.mean([":bet:" in d for d in draws])
    assert low <= share <= high
    assert len({d for d in draws if ":bet:" not in d}) > 60  # the numbers are still all drawn
