"""The Mind with the hands unknown (the camera sees the pile and the face-up cards only)."""

from __future__ import annotations

from referee.types import Verdict
from tests.referee.test_themind_rules import at_level, card, mind, run


def camera(level: int = 3, n: int = 3):
    game = mind(n, hands="unknown")
    state, _ = run(game, at_level(game, level), {"type": "deal"})
    return game, state


def test_plays_in_rising_order_are_valid_and_counted() -> None:
    game, state = camera()
    state, rulings = run(game, state, card(0, 5), card(2, 9), card(0, 30))
    assert all(r.valid for r in rulings) and state.counts == (1, 3, 2)


def test_a_late_lower_card_proves_an_error_and_costs_one_life() -> None:
    game, state = camera()
    state, _ = run(game, state, card(0, 5), card(2, 40))
    state, (ruling,) = run(game, state, card(1, 12))
    assert ruling.verdict is Verdict.INVALID and ruling.reason.code == "error" and state.lives == 2
    assert state.discards[-1].card == 12 and [p.card for p in state.pile] == [5, 40]
    # More lower cards shown for the same error cost no further life.
    state, (ruling,) = run(game, state, {"type": "discard", "player": 0, "cards": [20, 33]})
    assert ruling.reason.code == "error_more" and state.lives == 2 and state.counts == (0, 2, 2)
    assert ruling.reason.fr.startswith("Ana défausse aussi 20 et 33, plus bas que le 40 : même erreur")


def test_a_discard_after_an_error_is_called() -> None:
    game, state = camera()
    state, _ = run(game, state, card(0, 50))
    state, (ruling,) = run(game, state, {"type": "discard", "player": 1, "cards": [7, 12]})
    assert ruling.reason.code == "error" and state.lives == 2
    higher = game.judge(state, game.parse_action({"type": "discard", "player": 2, "cards": [60]}))
    assert higher.verdict is Verdict.UNCERTAIN and higher.reason.code == "not_lower"
    too_many = game.judge(state, game.parse_action({"type": "discard", "player": 1, "cards": [8, 9]}))
    assert too_many.reason.code == "too_many_cards"


def test_a_card_seen_twice_is_flagged() -> None:
    game, state = camera()
    state, _ = run(game, state, card(0, 50))
    ruling = game.judge(state, game.parse_action(card(1, 50)))
    assert ruling.verdict is Verdict.UNCERTAIN and ruling.reason.code == "already_seen"


def test_a_star_needs_the_cards_and_they_bound_later_cards() -> None:
    game, state = camera()
    unread = game.judge(state, game.parse_action({"type": "star", "hands_up": [0, 1, 2]}))
    assert unread.verdict is Verdict.UNCERTAIN
    state, _ = run(game, state, {"type": "star", "hands_up": [0, 1, 2], "cards": [10, 20, 30]})
    assert state.stars == 0 and state.counts == (2, 2, 2)
    # Ben discarded 20 as his lowest: a 15 from Ben is impossible.
    ruling = game.judge(state, game.parse_action(card(1, 15)))
    assert ruling.verdict is Verdict.UNCERTAIN and ruling.reason.code == "below_star_card"
    state, _ = run(game, state, card(0, 15))


def test_the_level_ends_when_every_count_is_zero() -> None:
    game, state = camera(level=1, n=2)
    state, rulings = run(game, state, card(0, 5), card(1, 9))
    assert state.level == 2 and state.phase == "deal" and rulings[-1].details["level_complete"] == 1
