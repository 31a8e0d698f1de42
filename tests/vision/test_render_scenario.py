"""Scenarios: the Twin It demo script, its per-frame truth and hand events, and its intended
referee actions (checked against the real referee)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from referee.registry import make_game
from vision.render.scenario import Scenario, ease, twinit_demo_scenario


@pytest.fixture(scope="module")
def demo() -> Scenario:
    return twinit_demo_scenario(0)


def _claims(sc: Scenario) -> list[dict]:
    return [a for a in sc.actions if a["action"]["type"] == "claim" and a.get("phase") != "cooperative"]


def test_ease_is_smooth_and_bounded() -> None:
    assert ease(0) == 0 and ease(1) == 1 and ease(0.5) == pytest.approx(0.5)
    assert ease(-1) == 0 and ease(2) == 1
    assert ease(0.01) < 0.01  # starts slowly


def test_demo_is_deterministic(demo: Scenario) -> None:
    again = twinit_demo_scenario(0)
    assert again.truth_json() == demo.truth_json()
    t = _claims(demo)[0]["t"]
    a, ta = demo.render_at(t)
    b, tb = again.render_at(t)
    assert np.array_equal(a, b) and ta.to_json() == tb.to_json()
    assert twinit_demo_scenario(1).truth_json() != demo.truth_json()


@pytest.mark.parametrize(("seed", "players"), [(0, None), (1, 2), (2, 4)])
def test_demo_has_every_kind_of_claim(seed: int, players: int | None) -> None:
    sc = twinit_demo_scenario(seed, players)
    n = sc.info["players"]
    assert 2 <= n <= 4 and (players is None or n == players)
    expected = [a["expected"] for a in _claims(sc)]
    assert "wrong" in expected and "steal" in expected
    assert sum(e.startswith("pair") for e in expected) >= 2
    assert any("(chain)" in c for c in sc.info["claims"])
    coop = [a for a in sc.actions if a.get("phase") == "cooperative"]
    assert coop[0]["action"]["type"] == "start"
    sets = [a for a in coop if a["action"]["type"] == "claim"]
    assert sets and sc.info["cooperative_score"] == sum(2 if a["expected"] == "triple" else 1 for a in sets)
    faces = coop[0]["action"]["faces"]
    for a in sets:  # every laid-out set really is one pattern
        assert len({faces[loc["table"]] for loc in a["action"]["cards"]}) == 1
    assert sc.duration > max(a["t"] for a in sc.actions)
    _, end = sc.render_at(sc.duration - 0.1)  # the laid-out sets are all in view
    assert all(c.quad[:, 0].min() >= 0 and c.quad[:, 1].min() >= 0 for c in end.cards)
    assert all(c.quad[:, 0].max() < end.width and c.quad[:, 1].max() < end.height for c in end.cards)


@pytest.mark.parametrize("seed", [0, 3])
def test_referee_rules_the_script_as_intended(seed: int) -> None:
    sc = twinit_demo_scenario(seed)
    deal = sc.actions[0]["action"]
    game = make_game(
        "twinit", players=[f"P{i}" for i in range(sc.info["players"])], options={"cards": sum(deal["piles"])}
    )
    state = game.initial_state()
    for a in sc.actions:
        if a.get("phase") == "cooperative":
            break
        state, ruling = game.apply(state, game.parse_action(a["action"]))
        valid = ruling.verdict.value == "valid"
        if a.get("expected") == "wrong":
            assert not valid, a
        else:
            assert valid, (a, ruling)


def test_claimed_cards_are_under_the_claimers_hands(demo: Scenario) -> None:
    for a in _claims(demo):
        p = a["action"]["player"]
        _, truth = demo.render_at(a["t"] + 0.3)
        hands = [h for h in truth.hands if h.hand_id in (2 * p, 2 * p + 1)]
        assert len(hands) == 2 and all(h.height_mm == 0 for h in hands)
        covered = set().union(*(h.covers for h in hands))
        assert set(a["card_ids"]) <= covered, a  # an arm reaching across may cover more
        assert all(h.seat == demo.info["seats"][p] for h in hands)


def test_frames_carry_landed_and_lifted_events(demo: Scenario) -> None:
    claim = _claims(demo)[0]
    p = claim["action"]["player"]
    events = []
    times = []
    for t, img, truth in demo.frames(fps=8, start=claim["t"] - 0.6, end=claim["t"] + 2.2):
        assert img.shape == (720, 1280, 3)
        assert truth.time == t
        times.append(t)
        events += list(truth.events)
    assert np.allclose(np.diff(times), 1 / 8)
    landed = [e for e in events if e.kind == "landed"]
    lifted = [e for e in events if e.kind == "lifted"]
    assert {e.hand_id for e in landed} == {2 * p, 2 * p + 1} == {e.hand_id for e in lifted}
    assert set(claim["card_ids"]) <= set().union(*(e.card_ids for e in landed))
    for e in landed:
        off = next(f for f in lifted if f.hand_id == e.hand_id)
        assert off.time > e.time and off.card_ids == e.card_ids
        assert e.seat == demo.info["seats"][p]


def test_hands_and_cards_move_smoothly(demo: Scenario) -> None:
    fps = 30.0
    prev = None
    worst = 0.0
    for k in range(int(20 * fps)):
        spec = demo.spec_at(k / fps)
        now = {h.hand_id: h.palm_centre() for h in spec.hands if h.height_mm < 120}
        cards = {c.card_id: (c.x_mm, c.y_mm) for c in spec.cards}
        if prev is not None:
            for hid, xy in now.items():
                if hid in prev[0]:
                    worst = max(worst, math.dist(xy, prev[0][hid]))
            for cid, xy in cards.items():
                if cid in prev[1]:
                    assert math.dist(xy, prev[1][cid]) < 40.0
        prev = (now, cards)
    assert 0 < worst < 100.0  # mm per frame at 30 fps (3 m/s, a fast slap): no jumps


def test_twixt_scenario_places_pegs_under_hands() -> None:
    from vision.render.scenario_board import twixt_demo_scenario

    sc = twixt_demo_scenario(3, n_moves=4, width=640, height=360)
    assert [a["action"]["type"] for a in sc.actions] == ["peg"] * 4
    for k, a in enumerate(sc.actions[:3]):
        _, before = sc.render_at(a["t"] - 0.1)
        _, after = sc.render_at(a["t"] + 0.1)
        assert int((before.board.pegs > 0).sum()) == k
        assert int((after.board.pegs > 0).sum()) == k + 1
        r, c = a["action"]["row"], a["action"]["col"]
        assert after.board.pegs[r, c] == a["action"]["player"] + 1
        # the hole is under the hand that places the peg
        hole = after.board.holes_mm[r, c] * after.board.px_per_mm
        h = after.board_homography
        p = h @ np.array([hole[0], hole[1], 1.0])
        x, y = np.round(after.distort((p[:2] / p[2])[None])[0]).astype(int)
        assert after.hand_mask[max(0, y - 6) : y + 7, max(0, x - 6) : x + 7].any()


def test_a_handmade_script_moves_removes_and_reports() -> None:
    from vision.render.scenario import HandLook, HandPose, default_base
    from vision.render.scene import CardPlacement

    sc = Scenario("handmade", default_base(0, 480, 270), duration=4.0)
    card = CardPlacement(7, "themind:42", 0, -60.0, 0.0, 0.0)
    sc.card_key(0.0, card)
    sc.card_key(1.0, card)  # still until 1 s, then carried to x = 60 by 2 s
    sc.card_key(2.0, dataclasses.replace(card, x_mm=60.0))
    sc.card_key(3.0, None, card_id=7)  # gone at 3 s
    look = HandLook("bottom")
    for t, pose in [
        (0.2, None),
        (0.8, HandPose(-60.0, 0.0, 40.0)),
        (1.0, HandPose(-60.0, 0.0)),
        (2.0, HandPose(60.0, 0.0)),
        (2.3, HandPose(60.0, 0.0, 50.0)),
        (2.9, None),
    ]:
        sc.hand_key(5, look, t, pose)
    assert sc.card_at(7, 0.5).x_mm == -60.0
    assert -60.0 < sc.card_at(7, 1.5).x_mm < 60.0 and sc.card_at(7, 1.5).z >= 100_000  # carried on top
    assert sc.card_at(7, 2.5).x_mm == 60.0 and sc.card_at(7, 3.5) is None
    assert sc.hand_at(5, 0.1) is None and sc.hand_at(5, 1.5).height_mm == 0.0
    assert sc.contact_times() == [(1.0, "landed", 5), (2.0, "lifted", 5)]
    events = [e for _, _, truth in sc.frames(fps=4.0) for e in truth.events]
    assert [(e.kind, e.hand_id, e.card_ids) for e in events] == [("landed", 5, (7,)), ("lifted", 5, (7,))]
    assert [e.time for e in events] == [1.0, 2.0]
