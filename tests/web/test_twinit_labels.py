"""Labelling cards with the identity judge: the minute's start labels every spread card at once
(off the vision thread, in a worker), so the judge is called in batches (signatures at most
``SIGNATURE_BATCH`` crops a call, the comparisons in one call), never once per card and label.
Counted in judge calls, not timed.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from referee.registry import make_game
from tests.web.tableobs import card, pixel_compare
from tests.web.test_twinit_adapter import P, Table
from web.adapters.twinit import TwinItAdapter
from web.adapters.twinit_match import HEAD_PAIRS, SIGNATURE_BATCH
from web.live_game import LiveGame
from web.settings import Settings
from web.store import EventStore


@dataclass(frozen=True, eq=False)
class Sig:
    crop: np.ndarray
    square: bool = True


class CountingJudge:
    """The test comparator behind the ``PatternJudge`` interface, counting its model calls."""

    def __init__(self) -> None:
        self.embed_calls: list[int] = []
        """Crops per signature call."""
        self.head_calls = 0
        self.head_pairs: list[int] = []
        """Pairs per head call."""

    def signatures(self, crops: list[np.ndarray]) -> list[Sig]:
        self.embed_calls.append(len(crops))
        return [Sig(c) for c in crops]

    def signature(self, crop: np.ndarray) -> Sig:
        return self.signatures([crop])[0]

    def judge_signatures(self, a: Sig, b: Sig) -> Any:
        self.head_calls += 1
        return SimpleNamespace(p_same=pixel_compare(a.crop, b.crop))

    def p_same_many(self, pairs: list[tuple[Sig, Sig]]) -> np.ndarray:
        self.head_calls += 1
        self.head_pairs.append(len(pairs))
        return np.array([pixel_compare(a.crop, b.crop) for a, b in pairs])

    def calls(self) -> int:
        return len(self.embed_calls) + self.head_calls


FACES = [P[0], P[0], P[1], P[2], P[1], P[3], P[2], P[3], P[0], P[2], P[1], P[3]]


def coop(tmp_path: Path, judge: CountingJudge) -> tuple[LiveGame, TwinItAdapter]:
    options = {"cards": len(FACES), "seconds": 60}
    settings = Settings(
        game="twinit", mode="cooperative", players=("Ana", "Ben"), options=options, data_dir=tmp_path
    )
    live = LiveGame.open(
        make_game("twinit", settings.players, "cooperative", options), EventStore(settings.db_path)
    )
    return live, TwinItAdapter(live, settings, pixel_compare, judge=judge)


def test_the_minutes_start_labels_the_spread_in_a_few_batched_judge_calls(tmp_path: Path) -> None:
    judge = CountingJudge()
    live, ad = coop(tmp_path, judge)
    table = Table(ad)
    table.settle([card(1, P[0], 640, 360)])  # the stack
    spread = [card(i + 1, f, 100 + 95 * i, 300 + 60 * (i % 2)) for i, f in enumerate(FACES)]
    table.show(spread)
    before_embed, before_head = len(judge.embed_calls), len(judge.head_pairs)
    table.show(spread)  # at rest: the labelling starts on this frame, off the vision thread
    for _ in range(5):  # the minute starts on a frame at most LABEL_WAIT_S later
        table.show(spread)
    assert live.timer is not None and live.snapshot_state()["phase"] == "minute"
    frame_embeds = judge.embed_calls[before_embed:]
    assert max(frame_embeds) <= SIGNATURE_BATCH  # the judge's memory bound holds
    assert len(frame_embeds) <= math.ceil(len(FACES) / SIGNATURE_BATCH)  # one call per 4 cards
    # the comparisons (each card against the labels before it) in head calls of HEAD_PAIRS pairs:
    # the runtime keeps memory for its largest call (one call of every pair grew it 69 MB for good)
    head = judge.head_pairs[before_head:]
    assert max(head) <= HEAD_PAIRS <= 16 and all(n == HEAD_PAIRS for n in head[:-1]), head
    assert sum(head) >= len(FACES) * (len(FACES) - 1) // 2, head  # every card against the ones before
    start = next(e for e in live.entries if e["action"]["type"] == "start")
    faces = start["action"]["faces"]
    # the labels still follow the patterns: equal faces, equal labels; different faces, different ones
    centres = [c.quad.mean(axis=0) for c in spread]
    truth = [
        FACES[int(np.argmin([np.linalg.norm(np.asarray(p["at"]) - c) for c in centres]))]
        for p in start["evidence"]["places"]
    ]
    assert len(truth) == len(faces) == len(FACES) and len(set(faces)) == len(set(FACES))
    for i in range(len(faces)):
        for j in range(len(faces)):
            assert (faces[i] == faces[j]) == (truth[i] == truth[j]), (faces, truth)


def test_batched_labels_match_labelling_one_view_at_a_time(tmp_path: Path) -> None:
    """A view may match a label an earlier view of the same batch made, or one known before."""
    from tests.web.tableobs import crop

    _live, ad = coop(tmp_path, CountingJudge())
    known = ad.label(crop(P[1]))
    views = [crop(f) for f in (P[0], P[1], P[0], P[2], P[2], P[3], P[1])]
    got = ad.labels_for(views)
    assert got[1] == got[6] == known
    assert got[0] == got[2] and got[3] == got[4]
    assert len({got[0], got[1], got[3], got[5]}) == 4
    assert ad.label(crop(P[3])) == got[5]
    assert ad.labels_for([]) == []


def test_an_arm_over_many_cards_compares_their_pairs_in_one_judge_call(tmp_path: Path) -> None:
    """Which two cards are claimed, among more under the hands, is decided on the vision thread
    before the ruling: every pair in one call of the judge's head, not one call a pair."""
    from tests.web.test_twinit_adapter import BOTTOM, MIDDLE, TOP
    from vision.observation import CardState, HandObservation, Seat

    judge = CountingJudge()
    options = {"cards": 10}
    settings = Settings(
        game="twinit", mode="competitive", players=("Ana", "Ben"), options=options, data_dir=tmp_path
    )
    live = LiveGame.open(
        make_game("twinit", settings.players, "competitive", options), EventStore(settings.db_path)
    )
    ad = TwinItAdapter(live, settings, pixel_compare, judge=judge)
    table = Table(ad)
    table.settle([card(1, P[0], *BOTTOM), card(2, P[1], *TOP)])
    table.settle([card(1, P[0], *MIDDLE), card(2, P[1], *TOP), card(3, P[2], *BOTTOM)])
    table.settle(
        [card(1, P[0], *MIDDLE), card(2, P[1], *TOP), card(3, P[2], *BOTTOM), card(4, P[3], 400, 360)]
    )
    assert live.snapshot_state()["phase"] == "play"
    covered = [
        card(1, P[0], *MIDDLE, state=CardState.COVERED),
        card(2, P[1], *TOP, state=CardState.COVERED),
        card(3, P[2], *BOTTOM, state=CardState.COVERED),
        card(4, P[3], 400, 360, state=CardState.COVERED),
    ]
    arm = HandObservation(7, Seat("bottom"), (1, 2, 3, 4), (380, 30, 300, 690))
    per_frame = []
    for _ in range(10):
        before = judge.head_calls
        table.show(covered, [arm])
        per_frame.append(judge.head_calls - before)
    assert max(per_frame) == 1, per_frame  # 6 pairs among 4 cards: one call (6 calls before)
    assert "which two are claimed is not clear" in ad.held[-1]["en"]


class GatedJudge(CountingJudge):
    """Signatures wait until the test opens the gate: a slow judge."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.waiting = threading.Event()

    def signatures(self, crops: list[np.ndarray]) -> list[Sig]:
        self.waiting.set()
        assert self.gate.wait(10), "the test never opened the gate"
        return super().signatures(crops)


def test_the_minutes_labelling_never_blocks_the_vision_thread(tmp_path: Path) -> None:
    """While the judge labels the spread, frames go on being observed; the minute then starts on
    the first frame after, dated from the spread (not from when the labels were ready)."""
    judge = GatedJudge()
    live, ad = coop(tmp_path, judge)
    table = Table(ad)
    judge.gate.set()
    table.settle([card(1, P[0], 640, 360)])  # the stack (its one card labelled on the spot)
    judge.gate.clear()
    spread = [card(i + 1, f, 100 + 95 * i, 300 + 60 * (i % 2)) for i, f in enumerate(FACES)]
    table.show(spread)
    rest = table.t
    table.show(spread)  # at rest: the labelling starts; this frame returns at once
    assert judge.waiting.wait(5)
    table.show(spread, dt=0.1)  # frames keep coming while the judge works
    table.show(spread, dt=0.1)
    assert live.timer is None and live.snapshot_state()["phase"] == "setup"
    judge.gate.set()
    for _ in range(4):
        table.show(spread)
    assert live.timer is not None and live.snapshot_state()["phase"] == "minute"
    assert live.timer.started_mono == pytest.approx(rest)
