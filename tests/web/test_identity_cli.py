"""``tableref match``, ``read``, ``enroll`` and ``bench identity``'s shape from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.training.augment import AugmentConfig, camera_crop
from vision.identity import render_decks as rd
from web.cli import main

GENTLE = AugmentConfig(min_px=90, max_px=120, corner_jitter=0.01, max_rotation_deg=2.0, light=0.3)


@pytest.fixture(scope="module")
def crops(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("crops")
    deck = rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]
    rng = np.random.default_rng(0)
    out = {}
    for name, pattern in (("a1", deck.patterns[0]), ("a2", deck.patterns[0]), ("b", deck.patterns[1])):
        crop = camera_crop(rd.shrink(deck.image(pattern), 220), rng, GENTLE)
        out[name] = folder / f"{name}.png"
        cv2.imwrite(str(out[name]), crop)
    mind = rd.RenderedNumberDeck("themind", 0)
    crop = camera_crop(rd.shrink(mind.image("themind:42"), 240), rng, GENTLE)
    out["m42"] = folder / "m42.png"
    cv2.imwrite(str(out["m42"]), cv2.rotate(crop, cv2.ROTATE_180))
    (folder / "junk.png").write_bytes(b"not an image")
    out["junk"] = folder / "junk.png"
    return out


def test_match_two_images_json(crops: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", str(crops["a1"]), str(crops["a2"]), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert set(obj) == {"a", "b", "verdict", "p_same"}
    assert obj["verdict"] == "same"


def test_match_pairs_csv_one_object_per_pair(
    crops: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(f"{crops['a1']},{crops['a2']}\n{crops['a1']},{crops['b']}\n")
    assert main(["match", "--pairs", str(pairs), "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0]["verdict"] == "same"
    assert lines[1]["verdict"] in ("different", "uncertain")  # never "same"
    assert lines[1]["p_same"] < lines[0]["p_same"]
    assert lines[1]["b"] == str(crops["b"])


def test_read_json(crops: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["read", str(crops["m42"]), "--deck", "themind", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["kind"] == "number" and obj["number"] == 42 and obj["colour"] is None
    assert set(obj) == {"kind", "number", "colour", "confidence"}


@pytest.mark.parametrize(
    "argv, message",
    [
        (["match", "JUNK", "JUNK"], "not a readable image"),
        (["match", "A_ONLY"], "expected two card images"),
        (["match", "--pairs", "/nonexistent.csv"], "no such file"),
        (["read", "JUNK", "--deck", "trio"], "not a readable image"),
        (["match", "A", "A", "--models", "/nonexistent"], "tableref train judge"),
        (["enroll", "--deck", "twinit", "--folder", "/nonexistent", "--out", "/tmp/x"], "no such folder"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    crops: dict[str, Path], argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    subst = {"JUNK": str(crops["junk"]), "A_ONLY": str(crops["a1"]), "A": str(crops["a1"])}
    assert main([subst.get(a, a) for a in argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_enroll_folder_then_re_enrol_one_card(
    crops: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "cards"
    folder.mkdir()
    for name in ("a1", "a2", "b"):
        (folder / f"{name}.png").write_bytes(crops[name].read_bytes())
    out = tmp_path / "deck"
    assert main(["enroll", "--deck", "twinit", "--folder", str(folder), "--out", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert sorted(map(sorted, report["groups"])) == [["a1", "a2"], ["b"]]
    assert report["multiplicities"] == {"1": 1, "2": 1, "3": 0, "more": 0}
    (folder / "b.png").write_bytes(crops["a1"].read_bytes())
    assert (
        main(
            [
                "enroll",
                "--deck",
                "twinit",
                "--folder",
                str(folder),
                "--card",
                "b",
                "--out",
                str(out),
                "--json",
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["cards"] == 3
    assert report["groups"] == [["a1", "a2", "b"]]


def test_bench_pairs_are_equal_designs_and_one_attribute_neighbours() -> None:
    from web.bench.identity import _design_pairs

    designs = [
        {"count": 1, "colour": "red", "shading": "solid", "shape": "oval"},
        {"count": 1, "colour": "red", "shading": "solid", "shape": "oval"},
        {"count": 2, "colour": "red", "shading": "solid", "shape": "oval"},
        {"count": 2, "colour": "green", "shading": "solid", "shape": "oval"},
        {"count": 3, "colour": "purple", "shading": "open", "shape": "diamond"},
    ]
    pairs, same = _design_pairs(designs)
    assert dict(zip(pairs, same, strict=True)) == {(0, 1): True, (0, 2): False, (1, 2): False, (2, 3): False}


def test_bench_real_crops_are_all_loaded() -> None:
    from web.bench.identity import _set_crops

    crops, designs = _set_crops()
    assert len(crops) == len(designs) == 486
    assert len({tuple(sorted(d.items())) for d in designs}) == 81
