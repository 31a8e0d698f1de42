"""Enrolled decks: references stored as files, re-enrolment replaces, the deck checked as a whole."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from calibration.deck import EnrolledDeck
from calibration.enroll import candidate_pairs, crop_problem, enroll, report
from calibration.errors import InputError
from models.preprocess import is_square
from vision.identity import NumberReader, PatternJudge
from vision.identity.rendered_enrolment import rendered_deck_crops
from vision.render.faces import deck_identities


def _card(value: int) -> np.ndarray:
    img = np.full((80, 60, 3), value, np.uint8)
    img[20:60, 15:45] = 255 - value
    return img


def test_references_are_stored_and_reloaded(tmp_path: Path) -> None:
    deck = EnrolledDeck.create(tmp_path / "d", "twinit")
    deck.put("c1", _card(40))
    deck.put("c2", _card(90), readable=False, problem="too blurred")
    deck.save()
    again = EnrolledDeck.load(tmp_path / "d")
    assert again.deck == "twinit"
    assert again.readable_ids() == ["c1"]
    np.testing.assert_array_equal(again.reference("c1"), _card(40))
    assert again.cards["c2"].problem == "too blurred"


def test_re_enrolling_a_card_replaces_its_reference(tmp_path: Path) -> None:
    deck = EnrolledDeck.create(tmp_path / "d", "themind")
    deck.put("c1", _card(40))
    deck.put("c1", _card(200))
    deck.save()
    again = EnrolledDeck.load(tmp_path / "d")
    assert list(again.cards) == ["c1"]
    np.testing.assert_array_equal(again.reference("c1"), _card(200))


@pytest.mark.parametrize("card_id", ["", "a/b", "../x", "x" * 65])
def test_bad_card_ids_are_refused(tmp_path: Path, card_id: str) -> None:
    deck = EnrolledDeck.create(tmp_path / "d", "trio")
    with pytest.raises(InputError, match="card id"):
        deck.put(card_id, _card(40))


def test_unknown_deck_and_missing_folder_are_input_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="deck 'uno'"):
        EnrolledDeck.create(tmp_path, "uno")
    with pytest.raises(InputError, match=r"deck\.json"):
        EnrolledDeck.load(tmp_path / "nothing")


def test_crop_problems() -> None:
    assert crop_problem(_card(40)) == ""
    assert "small" in crop_problem(np.zeros((10, 10, 3), np.uint8))
    assert "blurred" in crop_problem(np.full((80, 60, 3), 128, np.uint8))


def test_a_rendered_twinit_deck_enrols_end_to_end(tmp_path: Path) -> None:
    """27 cards laid out in 3 batches, cut by the card finder; groups match the truth's patterns."""
    rendered = rendered_deck_crops("twinit", 0, limit=27)
    deck = EnrolledDeck.create(tmp_path / "twinit", "twinit")
    report = enroll(deck, rendered.crops, judge=PatternJudge())
    found = {cid: rendered.truth[cid] for cid in rendered.crops}
    # every face is laid out (a face the layout had no room for goes into the next batch) and a card
    # missed or cut out oblong is laid out again: all 27 come out, square as Twin It cards are
    assert sorted(rendered.truth.values()) == sorted(deck_identities("twinit", 0)[:27])
    assert sorted(found) == sorted(rendered.truth) and not rendered.missing
    assert all(is_square(c) for c in rendered.crops.values())
    assert report.cards == len(found)
    # Every card is in exactly one group, and a group never mixes two patterns (no confident
    # wrong "same"); copies the judge could not join must be reported as uncertain, never split
    # silently. How many copies it joins is the identity bench's figure, not this test's.
    assert sorted(c for g in report.groups for c in g) == sorted(found)
    assert all(len({found[c] for c in g}) == 1 for g in report.groups), report.groups
    group_of = {c: i for i, g in enumerate(report.groups) for c in g}
    unsure = {frozenset((a, b)) for a, b, _ in report.uncertain_pairs}
    for copies in _groups(found).values():
        for i, a in enumerate(copies):
            for b in copies[i + 1 :]:
                assert group_of[a] == group_of[b] or frozenset((a, b)) in unsure, (a, b)
    want = Counter(min(len(g), 4) for g in report.groups)
    assert report.multiplicities == {"1": want[1], "2": want[2], "3": want[3], "more": want[4]}


def test_a_rendered_number_deck_enrols_and_reads(tmp_path: Path) -> None:
    rendered = rendered_deck_crops("lineit", 0, limit=18)
    deck = EnrolledDeck.create(tmp_path / "lineit", "lineit")
    report = enroll(deck, rendered.crops, reader=NumberReader())
    read = {cid: ident for ident, cids in report.identities.items() for cid in cids}
    unreadable = {cid for cid, _ in report.unreadable}
    for cid, ident in rendered.truth.items():
        if cid in rendered.crops and cid not in unreadable:
            assert read[cid] == ident
    assert len(unreadable) <= 1


def _groups(found: dict[str, str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for cid, ident in found.items():
        out.setdefault(ident, []).append(cid)
    return out


class _MapJudge:
    """A stand-in judge whose signature is the crop itself at its 4 quarter turns (C, H, W maps) and
    whose p_same is the best-turn cosine of the full maps; it counts the pairs it scores."""

    same_at = 0.9
    different_below = 0.2

    def __init__(self) -> None:
        self.scored = 0

    def signatures(self, crops: list[np.ndarray]) -> list[SimpleNamespace]:
        out = []
        for c in crops:
            m = c.astype(np.float32).transpose(2, 0, 1) - 127.5
            turns = np.stack([np.rot90(m, k, axes=(1, 2)) for k in range(4)])
            out.append(SimpleNamespace(turns=turns / np.linalg.norm(turns[0])))
        return out

    def p_same_many(self, pairs: list[tuple[SimpleNamespace, SimpleNamespace]]) -> np.ndarray:
        self.scored += len(pairs)
        cos = [max(float(np.sum(a.turns[0] * b.turns[k])) for k in range(4)) for a, b in pairs]
        return 1.0 / (1.0 + np.exp(-80.0 * (np.asarray(cos) - 0.94)))


def _pattern_deck(tmp_path: Path, n_patterns: int = 40) -> EnrolledDeck:
    """Patterns appearing 1, 2 or 3 times, each copy at a random quarter turn with a little noise;
    every other pattern is a near duplicate of the one before (one or two of its 16 cells changed)."""
    rng = np.random.default_rng(3)
    deck = EnrolledDeck.create(tmp_path / "maps", "twinit")
    cells = rng.integers(0, 256, size=(4, 4, 3)).astype(np.float32)
    for p in range(n_patterns):
        if p % 2 == 0:
            cells = rng.integers(0, 256, size=(4, 4, 3)).astype(np.float32)
        else:
            for _ in range(1 + p % 4 // 2):
                cells[rng.integers(4), rng.integers(4)] = rng.integers(0, 256, size=3)
        base = cv2.resize(cells, (16, 16), interpolation=cv2.INTER_NEAREST)
        for copy in range(1 + p % 3):
            img = np.rot90(base, int(rng.integers(4))) + rng.normal(0, 12, size=base.shape)
            deck.put(f"p{p:02d}c{copy}", np.clip(img, 0, 255).astype(np.uint8))
    return deck


def test_the_deck_check_scores_a_shortlist_and_finds_what_every_pair_finds(tmp_path: Path) -> None:
    deck = _pattern_deck(tmp_path)
    fast_judge, full_judge = _MapJudge(), _MapJudge()
    fast = report(deck, fast_judge, shortlist=8)
    full = report(deck, full_judge, shortlist=None)
    n = len(deck.cards)
    assert full_judge.scored == n * (n - 1) // 2
    assert fast_judge.scored < full_judge.scored / 4
    assert full.uncertain_pairs and full.multiplicities["2"] and full.multiplicities["3"]
    assert fast.groups == full.groups
    assert fast.multiplicities == full.multiplicities
    assert fast.uncertain_pairs == full.uncertain_pairs
    # the near duplicates make the check hard enough: a list of 2 nearest cards is too short
    assert report(deck, _MapJudge(), shortlist=2).uncertain_pairs != full.uncertain_pairs


def test_signatures_without_maps_are_scored_all_pairs() -> None:
    sigs = [SimpleNamespace() for _ in range(30)]
    assert len(candidate_pairs(sigs, 8)) == 30 * 29 // 2
    maps = [SimpleNamespace(turns=np.ones((4, 2, 4, 4), np.float32)) for _ in range(30)]
    pairs = candidate_pairs(maps, 8)
    assert all(i < j for i, j in pairs) and len(set(pairs)) == len(pairs)
    assert 30 * 8 // 2 <= len(pairs) <= 30 * 8
