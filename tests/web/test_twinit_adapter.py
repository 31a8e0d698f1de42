"""The Twin It adapter on hand-built observations: deal, play, reveal, slaps, questions, the minute."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.registry import make_game
from referee.types import Verdict
from tests.web.tableobs import Captured, card, cover, obs, pixel_compare
from web.adapters.twinit import TwinItAdapter
from web.live_game import LiveGame
from web.settings import Settings
from web.store import EventStore

P = ["twinit:p035", "twinit:p047", "twinit:p050", "twinit:p034"]


def setup(
    tmp_path: Path, mode: str = "competitive", compare=pixel_compare, **opts
) -> tuple[LiveGame, TwinItAdapter]:
    options = {"cards": 10, **opts}
    settings = Settings(game="twinit", mode=mode, players=("Ana", "Ben"), options=options, data_dir=tmp_path)
    game = make_game("twinit", settings.players, mode, options)
    live = LiveGame.open(game, EventStore(settings.db_path))
    return live, TwinItAdapter(live, settings, compare)


def feed(adapter: TwinItAdapter, o) -> None:
    adapter.observe(o, Captured(o.timestamp))


def dealt_and_played(tmp_path: Path):
    live, ad = setup(tmp_path)
    # pile tops at the bottom (Ana) and top (Ben) edges
    feed(ad, obs(1, 0.0, [card(1, P[0], 640, 680), card(2, P[1], 640, 40)]))
    assert live.snapshot_state()["phase"] == "play"
    # Ana turns her top card onto the table; her next card (same pattern as Ben's top) shows
    feed(ad, obs(2, 1.0, [card(1, P[0], 640, 360), card(2, P[1], 640, 40), card(3, P[1], 640, 680)]))
    return live, ad


def test_deal_play_and_reveal_follow_the_table(tmp_path: Path) -> None:
    live, ad = dealt_and_played(tmp_path)
    state = live.snapshot_state()
    assert [e["action"]["type"] for e in live.entries] == ["deal", "play", "reveal"]
    assert state["table"] == [[0, ad.face_of[1]]]
    assert state["piles"][0][1] == state["piles"][1][1] == ad.face_of[2]
    assert state["turn"] == 1


def test_a_right_slap_wins_the_pair_with_a_photo_finish(tmp_path: Path) -> None:
    live, ad = dealt_and_played(tmp_path)
    ev = (cover(2.0, "bottom", 3), cover(2.1, "bottom", 2, hand=2))
    feed(ad, obs(3, 2.1, [card(1, P[0], 640, 360), card(2, P[1], 640, 40), card(3, P[1], 640, 680)], ev))
    last = live.entries[-1]
    assert last["action"]["type"] == "claim" and last["ruling"]["verdict"] == "valid"
    assert last["evidence"]["p_same"] > 0.9 and last["evidence"]["seat"] == 0
    assert live.store.blob(int(last["evidence"]["image"].split("/")[-1].split(".")[0]))[1][:2] == b"\xff\xd8"
    assert live.game.scores(live.state)["captures"]["Ana"] == 1


def test_a_wrong_slap_is_penalised_not_forced(tmp_path: Path) -> None:
    live, ad = dealt_and_played(tmp_path)
    ev = (cover(2.0, "top", 1), cover(2.2, "top", 2, hand=2))
    feed(ad, obs(3, 2.2, [card(1, P[0], 640, 360), card(2, P[1], 640, 40), card(3, P[1], 640, 680)], ev))
    last = live.entries[-1]
    assert last["action"]["cards"] == [{"table": 0}, {"pile": 1}]
    assert last["ruling"]["verdict"] == "invalid"
    assert last["evidence"]["judged"] == "different"


def test_an_unsure_judge_asks_the_table_and_the_answer_rules(tmp_path: Path) -> None:
    answers = iter([0.5])

    def unsure_then_pixels(a, b):
        # the slap's comparison is unsure; labelling comparisons use the pixels
        return next(answers) if unsure_then_pixels.slap else pixel_compare(a, b)

    unsure_then_pixels.slap = False
    live, ad = setup(tmp_path, compare=unsure_then_pixels)
    feed(ad, obs(1, 0.0, [card(1, P[0], 640, 680), card(2, P[1], 640, 40)]))
    feed(ad, obs(2, 1.0, [card(1, P[0], 640, 360), card(2, P[1], 640, 40), card(3, P[2], 640, 680)]))
    unsure_then_pixels.slap = True
    ev = (cover(2.0, "bottom", 3), cover(2.1, "bottom", 2, hand=2))
    feed(ad, obs(3, 2.1, [card(1, P[0], 640, 360), card(2, P[1], 640, 40), card(3, P[2], 640, 680)], ev))
    assert len(live.questions) == 1 and live.entries[-1]["action"]["type"] == "reveal"
    (qid,) = live.questions
    # The table says they are the same: the faces are rewritten, the claim is valid.
    _, ruling = live.answer(qid, yes=True)
    assert ruling.verdict is Verdict.VALID
    assert live.game.scores(live.state)["captures"]["Ana"] == 1


def test_the_spread_starts_the_minute_and_claims_score(tmp_path: Path) -> None:
    live, ad = setup(tmp_path, mode="cooperative", seconds=60)
    stack = [
        card(
            i,
            P[0],
            640,
            360,
        )
        for i in range(1, 2)
    ]
    feed(ad, obs(1, 0.0, stack))
    assert live.timer is None
    faces = [P[0], P[0], P[1], P[2], P[1], P[3], P[2], P[3], P[0], P[2]]
    spread = [card(i + 1, f, 150 + 110 * i, 360) for i, f in enumerate(faces)]
    feed(ad, obs(2, 5.0, spread[:7]))  # the spread is under way
    feed(ad, obs(3, 5.2, spread))
    assert live.timer is None
    feed(ad, obs(4, 5.4, spread))
    feed(ad, obs(5, 5.6, spread))  # still for long enough: the minute started at the first frame
    assert live.timer is not None and live.timer.started_mono == pytest.approx(5.0)
    assert live.snapshot_state()["phase"] == "minute"
    ev = (cover(6.0, "bottom", 3), cover(6.1, "top", 5, hand=2))
    feed(ad, obs(6, 6.1, spread, ev))
    feed(ad, obs(7, 6.9, spread))  # no third hand: the pair is claimed
    last = live.entries[-1]
    assert last["action"]["type"] == "claim" and last["ruling"]["verdict"] == "valid", last
    assert last["action"]["at"] == pytest.approx(1.1, abs=0.01)
