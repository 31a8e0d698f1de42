"""Generated card faces: every identity renders, the Twin It deck has the real statistics, and
near-duplicate patterns really differ (in every rotation) while staying the closest pairs."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from vision.render import faces
from vision.render.faces import (
    CARD_SIZE_MM,
    DECKS,
    N_STYLES,
    deck_identities,
    render_back,
    render_face,
    trio_links,
    twinit_deck,
)


@pytest.mark.parametrize("deck", DECKS)
def test_every_identity_renders_in_every_style_at_its_size(deck: str) -> None:
    ids = sorted(set(deck_identities(deck)))
    w_mm, h_mm = CARD_SIZE_MM[deck]
    assert N_STYLES[deck] >= 3
    for style in range(N_STYLES[deck]):
        for ident in ids:
            img = render_face(ident, style, px_per_mm=2.0)
            assert img.shape == (round(h_mm * 2), round(w_mm * 2), 3) and img.dtype == np.uint8
            assert img.std() > 10, f"{ident} style {style} is flat"
    assert render_back(deck).shape[:2] == render_face(ids[0]).shape[:2]


def test_deck_sizes() -> None:
    assert len(deck_identities("themind")) == 100
    assert Counter(deck_identities("trio")) == {f"trio:{v}": 3 for v in range(1, 13)}
    lineit = deck_identities("lineit")
    assert len([i for i in lineit if ":bet:" not in i]) == 100
    assert Counter(i.split(":")[2] for i in lineit if ":bet:" not in i) == dict.fromkeys(
        faces.LINEIT_COLOURS, 25
    )
    assert {i for i in lineit if ":bet:" in i} == {"lineit:bet:+3", "lineit:bet:+4", "lineit:bet:+5"}


@pytest.mark.parametrize("seed", [0, 3])
def test_twinit_deck_has_the_real_statistics(seed: int) -> None:
    deck = twinit_deck(seed)
    assert len(deck.faces) == 270
    assert len(deck.patterns) == 119 == len(set(deck.faces))
    per_count = Counter(Counter(deck.faces).values())
    assert per_count[2] > per_count[3] > per_count[1] > 0
    assert per_count[2] + 2 * per_count[3] == 151
    assert Counter(kind for _, _, kind in deck.near_duplicates) == {
        "colours_swapped": 10,
        "element_changed": 10,
        "mirrored": 10,
    }
    prefix = "twinit:" if seed == 0 else f"twinit:s{seed}"
    assert all(p.startswith(prefix) and p[len(prefix)] == "p" for p in deck.patterns)


def test_twinit_decks_of_different_seeds_differ() -> None:
    a = render_face(twinit_deck(0).patterns[5], 0, 2.0)
    b = render_face(twinit_deck(3).patterns[5], 0, 2.0)
    assert np.abs(a.astype(int) - b.astype(int)).mean() > 10


def _small(ident: str) -> np.ndarray:
    img = render_face(ident, 0, px_per_mm=2.0)[5:-5, 5:-5]
    return cv2.resize(img, (48, 48), interpolation=cv2.INTER_AREA).astype(np.int16)


def _differing_fraction(a: np.ndarray, b: np.ndarray) -> float:
    """Fraction of pixels clearly different (a channel off by > 60) with b in its best rotation."""
    return min(float((np.abs(a - np.rot90(b, k)).max(axis=2) > 60).mean()) for k in range(4))


def test_near_duplicates_differ_visibly_in_every_rotation() -> None:
    deck = twinit_deck(0)
    for a, b, kind in deck.near_duplicates:
        d = _differing_fraction(_small(a), _small(b))
        assert d > 0.015, f"{a} / {b} ({kind}) are too alike: {d:.3f} of the card differs"


def test_all_distinct_patterns_differ_and_near_duplicates_are_closer_than_most() -> None:
    deck = twinit_deck(0)
    stack = np.stack([_small(p) for p in deck.patterns])  # (119, 48, 48, 3)
    n = len(stack)
    dist = np.full((n, n), np.inf)
    for k in range(4):
        r = np.rot90(stack, k, axes=(1, 2))
        for i in range(n):
            d = (np.abs(stack[i][None] - r).max(axis=3) > 60).mean(axis=(1, 2))
            dist[i] = np.minimum(dist[i], d)
    np.fill_diagonal(dist, np.inf)
    assert dist.min() > 0.015
    index = {p: i for i, p in enumerate(deck.patterns)}
    near = np.array([dist[index[a], index[b]] for a, b, _ in deck.near_duplicates])
    others = dist[np.isfinite(dist)]
    assert np.median(near) < np.percentile(others, 5)


def test_faces_are_deterministic() -> None:
    ids = ["twinit:p007", "themind:68", "trio:11", "lineit:40:star", "lineit:bet:+5"]
    first = [render_face(i, 1) for i in ids]
    faces._render_face_cached.cache_clear()
    faces.twinit_deck.cache_clear()
    assert all(np.array_equal(a, render_face(i, 1)) for a, i in zip(first, ids, strict=True))


def test_upside_down_six_is_not_a_nine() -> None:
    six, nine = render_face("themind:6", 0, 3.0), render_face("themind:9", 0, 3.0)
    turned = six[::-1, ::-1].astype(int)
    assert np.abs(turned - nine.astype(int)).mean() > 3.0


def test_trio_links_follow_picante() -> None:
    assert trio_links(1) == (6, 8) and trio_links(12) == (5,) and trio_links(7) == ()


@pytest.mark.parametrize(
    "ident",
    ["themind:0", "themind:101", "trio:13", "lineit:57:leaf", "lineit:bet:+6", "twinit:p999", "uno:3"],
)
def test_bad_identities_are_refused(ident: str) -> None:
    with pytest.raises(ValueError, match="identity"):
        render_face(ident)


def test_bad_style_is_refused() -> None:
    with pytest.raises(ValueError, match="style"):
        render_face("themind:3", style=N_STYLES["themind"])
