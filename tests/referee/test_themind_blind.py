"""The Mind in blind mode: the seed's end-of-level count, returned with the line that explains it."""

from __future__ import annotations

import pytest

from referee.errors import InvalidConfig
from referee.themind.tables import blind_count, lives_lost
from referee.types import Verdict
from tests.referee.test_themind_rules import at_level, card, deal, mind, run


@pytest.mark.parametrize(
    ("played", "line", "lost"),
    [
        ([10, 20, 30], [(10, ()), (20, ()), (30, ())], 0),
        ([50, 30, 40, 20], [(50, (30, 40, 20))], 1),  # many under one card: one life
        ([10, 50, 20, 60, 55], [(10, ()), (50, (20,)), (60, (55,))], 2),
        ([10, 50, 60, 20], [(10, ()), (50, (20,)), (60, ())], 1),  # under the earliest higher card
        ([90, 10, 80, 95, 85, 99], [(90, (10, 80, 85)), (95, ()), (99, ())], 1),
    ],
)
def test_blind_count(played: list[int], line: list[tuple[int, tuple[int, ...]]], lost: int) -> None:
    counted = blind_count(played)
    assert [(c.card, c.under) for c in counted] == line
    assert lives_lost(counted) == lost


def test_blind_level_counts_at_the_end_with_the_explaining_line() -> None:
    game = mind(3, "blind")
    state, _ = run(game, at_level(game, 2), deal([20, 60], [10, 50], [55, 90]))
    # Face down, nothing is ruled during the level, even out of order.
    state, rulings = run(game, state, card(0, 20), card(1, 10), card(1, 50), card(2, 55), card(0, 60))
    assert all(r.verdict is Verdict.VALID for r in rulings) and state.lives == 3
    state, (ruling,) = run(game, state, card(2, 90))
    assert ruling.reason.code == "blind_count" and ruling.verdict is Verdict.INVALID
    assert ruling.details["order"] == [20, 10, 50, 55, 60, 90]
    assert ruling.details["line"] == [
        {"card": 20, "under": [10]},
        {"card": 50, "under": []},
        {"card": 55, "under": []},
        {"card": 60, "under": []},
        {"card": 90, "under": []},
    ]
    assert ruling.details["lives_lost"] == 1
    # One life lost, then the level's reward (level 2: a star).
    assert (state.lives, state.stars, state.level) == (2, 2, 3)


def test_blind_count_can_end_the_game() -> None:
    game = mind(2, "blind")
    state, _ = run(game, at_level(game, 2), deal([70, 80], [10, 75]))
    state, rulings = run(game, state, card(0, 70), card(1, 10), card(0, 80), card(1, 75))
    assert rulings[-1].details["lives_lost"] == 2 and state.phase == "lost" and state.lives == 0


def test_blind_with_hands_unknown_reads_the_pile_at_the_end() -> None:
    game = mind(2, "blind", hands="unknown")
    state, _ = run(game, at_level(game, 2), {"type": "deal"})
    face_up = game.judge(state, game.parse_action(card(0, 12)))
    assert face_up.reason.code == "face_down"
    plays = [{"type": "play", "player": p} for p in (0, 1, 1, 0)]
    state, rulings = run(game, state, *plays)
    assert state.phase == "reveal" and "retournez la pile" in rulings[-1].reason.fr
    short = game.judge(state, game.parse_action({"type": "reveal", "cards": [1, 2, 3]}))
    assert short.verdict is Verdict.UNCERTAIN and short.reason.code == "pile_count"
    state, (ruling,) = run(game, state, {"type": "reveal", "cards": [30, 40, 35, 90]})
    assert ruling.details["lives_lost"] == 1 and ruling.details["line"][1] == {"card": 40, "under": [35]}
    assert (state.lives, state.level, state.stars) == (1, 3, 2)


@pytest.mark.parametrize(
    ("under", "line", "lost"),
    [
        ("earliest", [(10, ()), (50, (20, 30)), (60, ()), (70, ())], 1),
        ("latest", [(10, ()), (50, ()), (60, (20,)), (70, (30,))], 2),
    ],
)
def test_the_card_a_late_card_slides_under_is_an_option(
    under: str, line: list[tuple[int, tuple[int, ...]]], lost: int
) -> None:
    counted = blind_count([10, 50, 60, 20, 70, 30], under)
    assert [(c.card, c.under) for c in counted] == line and lives_lost(counted) == lost
    game = mind(2, "blind", slide_under=under)
    state, _ = run(game, at_level(game, 3, lives=3), deal([10, 20, 60], [30, 50, 70]))
    plays = [card(0, 10), card(1, 50), card(0, 60), card(0, 20), card(1, 70), card(1, 30)]
    state, rulings = run(game, state, *plays)
    assert rulings[-1].details["lives_lost"] == lost


def test_slide_under_is_checked() -> None:
    with pytest.raises(InvalidConfig, match="slide_under"):
        mind(2, "blind", slide_under="middle")
    with pytest.raises(InvalidConfig, match="blind"):
        mind(2, "normal", slide_under="latest")
