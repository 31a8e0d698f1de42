"""``tableref recognize --deck``: each card's identity, or null when the models are unsure."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.render.faces import render_face, twinit_deck
from vision.render.scene import random_scene, render
from web.cli import main


def recognize(path: Path, deck: str, capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["recognize", str(path), "--deck", deck, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("seed", [2, 4])
def test_number_cards_get_their_number_or_null(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    image, truth = render(random_scene(seed, deck="themind", layout="scattered", n_cards=6, hands=0))
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), image)
    result = recognize(path, "themind", capsys)
    present = {c.identity for c in truth.cards}
    read = [c["identity"] for c in result["cards"] if c["identity"] is not None]
    assert read, "no card read at all"
    assert set(read) <= present, f"a confident read that is not on the table: {set(read) - present}"
    assert all(set(c) == {"quad", "confidence", "identity"} for c in result["cards"])


def test_twin_it_cards_of_different_patterns_never_share_a_label(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = twinit_deck(0)
    a, b, _kind = deck.near_duplicates[0]
    faces = [render_face(f, style=0, px_per_mm=3.0) for f in (a, a, b, deck.patterns[5])]
    canvas = np.full((480, 900, 3), (40, 70, 40), np.uint8)
    for i, face in enumerate(faces):
        y, x = 150, 40 + i * 215
        canvas[y : y + face.shape[0], x : x + face.shape[1]] = face
    path = tmp_path / "twinit.png"
    cv2.imwrite(str(path), canvas)
    result = recognize(path, "twinit", capsys)
    cards = sorted(result["cards"], key=lambda c: min(x for x, _ in c["quad"]))
    assert len(cards) == 4
    labels = [c["identity"] for c in cards]
    # cards 1 and 2 (same face) may share a label or be unsure; the others never join them
    for i, j in [(0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]:
        assert labels[i] is None or labels[j] is None or labels[i] != labels[j], labels


def test_without_a_deck_identities_stay_null(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image, _ = render(random_scene(4, deck="themind", layout="scattered", n_cards=3, hands=0))
    path = tmp_path / "t.png"
    cv2.imwrite(str(path), image)
    assert main(["recognize", str(path), "--json"]) == 0
    assert all(c["identity"] is None for c in json.loads(capsys.readouterr().out)["cards"])
