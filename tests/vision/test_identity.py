"""The committed identity models at run time: verdicts, turns, reads, and clear errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.errors import ModelError
from models.files import JUDGE, MODEL_DIR, READER
from models.training.augment import AugmentConfig, camera_crop
from vision.errors import InputError
from vision.identity import NumberReader, PatternJudge
from vision.identity import render_decks as rd

GENTLE = AugmentConfig(min_px=90, max_px=120, corner_jitter=0.01, max_rotation_deg=2.0, light=0.3)


@pytest.fixture(scope="module")
def judge() -> PatternJudge:
    return PatternJudge()


@pytest.fixture(scope="module")
def reader() -> NumberReader:
    return NumberReader()


@pytest.fixture(scope="module")
def bench_deck() -> rd.RenderedTwinItDeck:
    return rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]


def _crop(deck: rd.RenderedTwinItDeck, pattern: str, seed: int) -> np.ndarray:
    return camera_crop(rd.shrink(deck.image(pattern), 220), np.random.default_rng(seed), GENTLE)


def test_two_photos_of_one_pattern_are_the_same_at_every_turn(judge: PatternJudge, bench_deck) -> None:
    pattern = bench_deck.patterns[0]
    a = _crop(bench_deck, pattern, 1)
    b = _crop(bench_deck, pattern, 2)
    for k in range(4):
        result = judge.compare(a, np.ascontiguousarray(np.rot90(b, k)))
        assert result.verdict == "same", (k, result)


def test_different_patterns_are_never_called_the_same(judge: PatternJudge, bench_deck) -> None:
    """Random different pairs: never "same"; most of them confidently "different"."""
    p = bench_deck.patterns
    verdicts = [
        judge.compare(_crop(bench_deck, p[i], i), _crop(bench_deck, p[i + 1], 50 + i)).verdict
        for i in range(12)
    ]
    assert "same" not in verdicts
    assert verdicts.count("different") >= 6, verdicts


def test_near_duplicates_are_never_called_the_same(judge: PatternJudge, bench_deck) -> None:
    wrong_same = 0
    for a, b, _kind in bench_deck.near_duplicates[:10]:
        r = judge.compare(_crop(bench_deck, a, 3), _crop(bench_deck, b, 4))
        wrong_same += r.verdict == "same"
    assert wrong_same == 0


def test_signatures_batch_and_single_agree(judge: PatternJudge, bench_deck) -> None:
    crops = [_crop(bench_deck, q, i) for i, q in enumerate(bench_deck.patterns[:3])]
    many = judge.signatures(crops)
    one = judge.signature(crops[1])
    np.testing.assert_allclose(many[1].turns, one.turns, atol=1e-4)
    assert many[0].turns.shape[0] == 4  # a square card: four turns


def test_many_pairs_in_small_head_batches_agree_with_one_by_one(judge: PatternJudge, bench_deck) -> None:
    crops = [_crop(bench_deck, q, i) for i, q in enumerate(bench_deck.patterns[:5])]
    sigs = judge.signatures(crops)
    pairs = [(sigs[i], sigs[j]) for i in range(5) for j in range(5)]
    small = PatternJudge()
    small.HEAD_BATCH = 3  # chunks of one pair (4 turns each) at most
    many = small.p_same_many(pairs)
    one = np.asarray([judge.p_same_many([pr])[0] for pr in pairs])
    np.testing.assert_allclose(many, one, rtol=1e-5, atol=1e-7)
    rows = many.reshape(5, 5)
    assert all(rows[i, i] == rows[i].max() for i in range(5))  # each crop is most like itself


def test_the_reader_reads_every_turn(reader: NumberReader) -> None:
    deck = rd.RenderedNumberDeck("themind", rd.NUMBER_BENCH_STYLES["themind"][0])
    crop = camera_crop(rd.shrink(deck.image("themind:68"), 240), np.random.default_rng(5), GENTLE)
    for rot in (None, cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE):
        r = reader.read(crop if rot is None else cv2.rotate(crop, rot), "themind")
        assert (r.kind, r.number, r.colour) == ("number", 68, None), (rot, r)
        assert r.certain


def test_the_reader_reads_lineit_colours_and_bets(reader: NumberReader) -> None:
    deck = rd.RenderedNumberDeck("lineit", 0)
    rng = np.random.default_rng(6)
    r = reader.read(camera_crop(rd.shrink(deck.image("lineit:58:leaf"), 240), rng, GENTLE), "lineit")
    assert (r.kind, r.number, r.colour) == ("number", 58, "leaf")
    r = reader.read(camera_crop(rd.shrink(deck.image("lineit:bet:+4"), 240), rng, GENTLE), "lineit")
    assert (r.kind, r.number, r.colour) == ("bet", 4, None)
    assert NumberReader.identity(r, "lineit") == "lineit:bet:+4"


def test_the_deck_limits_the_answer(reader: NumberReader) -> None:
    deck = rd.RenderedNumberDeck("themind", 0)
    crop = camera_crop(rd.shrink(deck.image("themind:57"), 240), np.random.default_rng(7), GENTLE)
    r = reader.read(crop, "trio")
    assert 1 <= r.number <= 12 and r.kind == "number"


@pytest.mark.parametrize("bad", [np.zeros((4, 4, 3), np.uint8), np.zeros((50, 50), np.float32), "card.png"])
def test_bad_crops_are_input_errors(judge: PatternJudge, reader: NumberReader, bad) -> None:
    good = np.full((60, 60, 3), 200, np.uint8)
    with pytest.raises(InputError):
        judge.compare(good, bad)
    with pytest.raises(InputError):
        reader.read(bad, "themind")
    with pytest.raises(InputError, match="deck"):
        reader.read(good, "uno")


def _copy_models(tmp_path: Path) -> Path:
    for name in (*JUDGE.onnx, JUDGE.meta, *READER.onnx, READER.meta):
        shutil.copy(MODEL_DIR / name, tmp_path / name)
    return tmp_path


def test_a_missing_model_names_the_file_and_the_command(tmp_path: Path) -> None:
    folder = _copy_models(tmp_path)
    (folder / "judge_head.onnx").unlink()
    with pytest.raises(ModelError, match=r"judge_head\.onnx.*tableref train judge"):
        PatternJudge(folder)
    (folder / "reader.json").unlink()
    with pytest.raises(ModelError, match=r"reader\.json.*tableref train reader"):
        NumberReader(folder)


def test_a_corrupt_model_names_the_file_and_the_command(tmp_path: Path) -> None:
    folder = _copy_models(tmp_path)
    data = bytearray((folder / "reader.onnx").read_bytes())
    data[100:110] = b"\x00" * 10
    (folder / "reader.onnx").write_bytes(bytes(data))
    with pytest.raises(ModelError, match=r"reader\.onnx.*corrupt.*tableref train reader"):
        NumberReader(folder)
    (folder / "judge.json").write_text("{not json")
    with pytest.raises(ModelError, match=r"judge\.json.*corrupt.*tableref train judge"):
        PatternJudge(folder)
