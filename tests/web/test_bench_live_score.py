"""The live bench's scoring: rulings matched to the script's claims, latency and where it went."""

from __future__ import annotations

import pytest

from web.bench.live import _score


def ruling(landed: float, verdict: str, timing: dict | None = None) -> dict:
    return {
        "type": "ruling",
        "entry": {
            "action": {"type": "claim"},
            "evidence": {"landed_mono": landed, "timing": timing},
            "ruling": {"verdict": verdict},
        },
    }


def test_claims_are_matched_scored_and_their_latency_split_into_stages() -> None:
    truth = [
        {
            "seed": 0,
            "claims": [
                {"t": 1.0, "verdict": "valid"},
                {"t": 5.0, "verdict": "invalid"},
                {"t": 9.0, "verdict": "valid"},
            ],
            "spread": 12.0,
        }
    ]
    frames = [[(k / 10, 100.0 + k / 10) for k in range(140)]]  # t -> mono = 100 + t
    timing = {"captured": 101.05, "observed": 101.09, "decided": 101.1}
    seen = [
        (101.12, ruling(100.9, "valid", timing)),  # hands seen 0.1 s early, ruled 120 ms after down
        (105.5, {"type": "question", "question": {"evidence": {"landed_mono": 105.1}}}),
        (107.0, ruling(140.0, "valid")),  # nothing scripted near: spurious
        (112.25, {"type": "timer", "timer": {"started_mono": 112.05}}),
    ]
    slaps, coop = _score(truth, frames, seen)
    assert (slaps["total"], slaps["correct"], slaps["uncertain"], slaps["missed"]) == (3, 1, 1, 1)
    assert slaps["wrong"] == 0 and slaps["spurious"] == 1
    assert slaps["stages_ms_p50"]["detect"] == pytest.approx(50.0)
    assert slaps["stages_ms_p50"]["publish"] == pytest.approx(20.0)
    assert [c["got"] for c in slaps["claims"]] == ["valid", "uncertain", "missed"]
    assert slaps["claims"][0]["latency_ms"] == pytest.approx(120.0)
    assert coop["runs"] == 1 and coop["start_error_ms_max"] == pytest.approx(50.0)
    assert coop["never_started"] == 0
    assert coop["per_game"] == [
        {"seed": 0, "start_error_ms": pytest.approx(50.0), "start_offset_ms": pytest.approx(50.0)}
    ]


def test_a_game_whose_minute_never_started_is_named() -> None:
    truth = [{"seed": 3, "claims": [], "spread": 12.0}, {"seed": 4, "claims": [], "spread": 12.0}]
    frames = [
        [(k / 10, 100.0 + k / 10) for k in range(140)],  # game 3 on the clock 100..114
        [(k / 10, 200.0 + k / 10) for k in range(140)],  # game 4 on the clock 200..214
    ]
    seen = [(112.2, {"type": "timer", "timer": {"started_mono": 112.1}})]  # game 3's minute only
    _, coop = _score(truth, frames, seen)
    assert coop["never_started"] == 1
    assert coop["per_game"] == [
        {"seed": 3, "start_error_ms": pytest.approx(100.0), "start_offset_ms": pytest.approx(100.0)},
        {"seed": 4, "start_error_ms": None, "start_offset_ms": None},
    ]
    # the figure still counts game 4 against the nearest timer (100 s away): never smaller
    assert coop["start_error_ms_max"] == pytest.approx(99_900.0)


def test_a_ruling_answers_only_a_claim_of_its_seat_and_cards_made_before_it_came() -> None:
    """An earlier landing's ruling, received before this claim's hands were down, or a ruling on
    other cards or from another seat, is no answer to it (it once gave negative latencies)."""
    truth = [
        {
            "seed": 0,
            "claims": [
                {"t": 3.0, "verdict": "valid", "player": 1, "cards": ["pile:0", "pile:1"]},
                {"t": 8.0, "verdict": "valid", "player": 2, "cards": ["pile:1", "table"]},
            ],
            "spread": None,
        }
    ]
    frames = [[(k / 10, 100.0 + k / 10) for k in range(140)]]

    def claim(landed: float, player: int, cards: list[dict]) -> dict:
        msg = ruling(landed, "valid")
        msg["entry"]["action"] = {"type": "claim", "players": [player, player], "cards": cards}
        return msg

    seen = [
        (102.6, claim(102.5, 1, [{"pile": 0}, {"pile": 1}])),  # before the hands were down at 103.0
        (103.2, claim(103.0, 0, [{"pile": 0}, {"pile": 1}])),  # another seat
        (103.3, claim(103.0, 1, [{"pile": 0}, {"table": 4}])),  # other cards
        (108.2, claim(108.0, 2, [{"table": 7}, {"pile": 1}])),  # the second claim's own ruling
    ]
    slaps, _ = _score(truth, frames, seen)
    assert [c["got"] for c in slaps["claims"]] == ["missed", "valid"]
    assert slaps["spurious"] == 3
    assert slaps["claims"][1]["latency_ms"] == pytest.approx(200.0)
    assert min(c.get("latency_ms", 0.0) for c in slaps["claims"]) >= 0.0


def test_a_set_laid_out_in_the_cooperative_minute_is_no_spurious_slap() -> None:
    truth = [{"seed": 0, "claims": [{"t": 1.0, "verdict": "valid"}], "spread": 12.0}]
    frames = [[(k / 10, 100.0 + k / 10) for k in range(200)]]
    minute_set = ruling(115.0, "valid")
    minute_set["entry"]["action"] = {"type": "claim", "players": [0, 0], "at": 3.0}
    seen = [
        (101.12, ruling(100.9, "valid")),
        (115.2, minute_set),  # a set of the minute: scored by the minute, not as a slap
        (118.0, ruling(117.9, "valid")),  # a claim outside the minute the script never made
    ]
    slaps, _ = _score(truth, frames, seen)
    assert slaps["correct"] == 1
    assert slaps["spurious"] == 1
    assert slaps["minute_claims"] == 1


def test_the_diagnosis_names_each_unmatched_event_and_why_it_did_not_match() -> None:
    truth = [
        {
            "seed": 4,
            "claims": [
                {"t": 3.0, "verdict": "valid", "player": 1, "cards": ["pile:0", "pile:1"]},
                {"t": 8.0, "verdict": "valid", "player": 0, "cards": ["pile:0", "table"]},
            ],
            "spread": None,
        }
    ]
    frames = [[(k / 10, 100.0 + k / 10) for k in range(120)]]

    def claim(landed: float, player: int, cards: list[dict]) -> dict:
        entry = {
            "action": {"type": "claim", "player": player, "cards": cards},
            "evidence": {"landed_mono": landed},
            "ruling": {"verdict": "valid"},
        }
        return {"type": "ruling", "entry": entry}

    seen = [
        (102.9, claim(102.85, 1, [{"pile": 0}, {"pile": 1}])),  # ruled before the hands were down
        (108.2, claim(108.0, 0, [{"pile": 0}, {"pile": 1}])),  # a pile read as a table card
    ]
    slaps, _ = _score(truth, frames, seen)
    assert (slaps["missed"], slaps["spurious"]) == (2, 2)
    spurious, missed = slaps["diagnosis"]["spurious"], slaps["diagnosis"]["missed"]
    assert [(s["seed"], s["t"], s["player"]) for s in spurious] == [(4, 2.85, 1), (4, 8.0, 0)]
    assert spurious[0]["nearest_claim"]["why_not"] == ["received before the hands were down"]
    assert spurious[1]["nearest_claim"]["why_not"] == ["cards ['pile:0', 'pile:1'] != ['pile:0', 'table']"]
    assert [m["t"] for m in missed] == [3.0, 8.0]
    assert missed[1]["nearest_ruling"]["cards"] == ["pile:0", "pile:1"]
