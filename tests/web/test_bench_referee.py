"""``tableref bench referee``: the JSON object's shape, from a real quick run."""

from __future__ import annotations

import json
import math

import pytest

from web.bench import referee
from web.cli import main


@pytest.fixture(scope="module")
def result() -> dict:
    return referee.run(quick=True, seed=0)


def test_twixt_part_has_the_issue_keys_measured(result: dict) -> None:
    twixt = result["twixt"]
    for key in ("ms_legal_links_median", "ms_win_check_median", "ms_draw_check_median"):
        value = twixt[key]
        assert isinstance(value, float) and math.isfinite(value) and value > 0, key
        assert twixt[key.replace("_median", "_p95")] >= value
    assert twixt["random_games"] == 4 and twixt["positions"] > 50
    assert twixt["pegs_per_position_mean"] > 100  # positions from well into the game
    assert sum(twixt["endings"].values()) == twixt["random_games"]
    assert twixt["baseline_ms_draw_check_median"] > 0 and twixt["speedup_draw_check"] > 0


def test_lineit_part_plays_whole_games_through_the_registry(result: dict) -> None:
    lineit = result["lineit"]
    assert lineit["random_games"] == 30 and lineit["games_ended"] == 30
    assert lineit["ms_per_game_median"] > 0 and lineit["ms_per_game_p95"] >= lineit["ms_per_game_median"]
    assert lineit["actions_per_game_mean"] > 10


def test_the_same_seed_plays_the_same_games(result: dict) -> None:
    again = referee.run(quick=True, seed=0)
    assert again["twixt"]["positions"] == result["twixt"]["positions"]
    assert again["twixt"]["endings"] == result["twixt"]["endings"]
    assert again["lineit"]["actions_per_game_mean"] == result["lineit"]["actions_per_game_mean"]


def test_cli_prints_the_json_object(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        referee, "run", lambda quick, seed: {"twixt": {"quick": quick}, "lineit": {"seed": seed}}
    )
    assert main(["bench", "referee", "--quick", "--json", "--seed", "3"]) == 0
    assert json.loads(capsys.readouterr().out) == {"twixt": {"quick": True}, "lineit": {"seed": 3}}
