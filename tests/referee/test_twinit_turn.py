"""The table's correction of whose turn it is (the live app's resync when its record drifted)."""

from __future__ import annotations

import pytest

from referee.errors import MalformedAction
from referee.registry import make_game
from referee.twinit.types import Pile
from referee.types import Verdict


def dealt(mode: str = "competitive"):
    game = make_game("twinit", ("Ana", "Ben", "Cy"), mode, {"cards": 9})
    state, ruling = game.apply(
        game.initial_state(),
        game.parse_action({"type": "deal", "piles": [3, 3, 3], "first": 0, "tops": ["a", "b", "c"]}),
    )
    assert ruling.applies
    return game, state


def test_the_table_gives_the_turn_to_another_player_who_then_plays() -> None:
    game, state = dealt()
    assert state.turn == 0
    action = game.parse_action({"type": "turn", "player": 2})
    assert game.action_to_json(action) == {"type": "turn", "player": 2}
    state, ruling = game.apply(state, action)
    assert ruling.verdict is Verdict.VALID and ruling.reason.code == "turn_set" and state.turn == 2
    assert "Cy" in ruling.reason.en and "Cy" in ruling.reason.fr
    refused_play = game.judge(state, game.parse_action({"type": "play", "player": 0, "face": "a"}))
    assert refused_play.reason.code == "not_your_turn"
    state, ruling = game.apply(state, game.parse_action({"type": "play", "player": 2, "face": "c"}))
    assert ruling.applies and game.check_state(state) == []


def test_no_turn_for_an_empty_pile_before_the_deal_or_in_the_minute() -> None:
    game = make_game("twinit", ("Ana", "Ben"), "competitive", {"cards": 2})
    turn = game.parse_action({"type": "turn", "player": 0})
    assert game.judge(game.initial_state(), turn).reason.code == "not_started"
    state, _ = game.apply(
        game.initial_state(),
        game.parse_action({"type": "deal", "piles": [1, 1], "first": 0, "tops": ["a", "b"]}),
    )
    state, ruling = game.apply(state, game.parse_action({"type": "play", "player": 0, "face": "a"}))
    assert ruling.applies and state.piles[0].size == 0
    assert game.judge(state, turn).reason.code == "no_cards_left"
    coop = make_game("twinit", ("Ana", "Ben"), "cooperative", {"cards": 4})
    assert coop.judge(coop.initial_state(), coop.parse_action({"type": "turn", "player": 0})).reason.code == (
        "no_turns"
    )


def test_a_turn_for_no_seat_is_malformed() -> None:
    game, _ = dealt()
    with pytest.raises(MalformedAction, match="player"):
        game.parse_action({"type": "turn", "player": 7})


def test_the_table_shows_a_pile_empty_its_cards_are_lost_track_of_and_the_turn_passes() -> None:
    game, state = dealt()
    action = game.parse_action({"type": "empty", "player": 0})
    assert game.action_to_json(action) == {"type": "empty", "player": 0}
    state, ruling = game.apply(state, action)
    assert ruling.applies and ruling.reason.code == "pile_empty" and ruling.details["lost"] == 3
    assert state.piles[0].size == 0 and state.turn == 1 and state.lost == 3
    assert game.check_state(state) == []
    assert game.state_from_json(game.state_to_json(state)) == state
    assert game.judge(state, action).reason.code == "empty_pile"
    state, ruling = game.apply(state, game.parse_action({"type": "play", "player": 1, "face": "b"}))
    assert ruling.applies and state.turn == 2


def test_a_card_back_on_a_pile_counted_empty_is_one_of_the_cards_lost_track_of() -> None:
    game, state = dealt()
    refill = game.parse_action({"type": "refill", "player": 0, "face": "z"})
    assert game.action_to_json(refill) == {"type": "refill", "player": 0, "face": "z"}
    assert game.judge(state, refill).reason.code == "pile_not_empty"
    state, _ = game.apply(state, game.parse_action({"type": "empty", "player": 0}))
    state, ruling = game.apply(state, refill)
    assert ruling.applies and ruling.reason.code == "pile_refilled"
    assert state.piles[0].size == 1 and state.piles[0].top == "z" and state.lost == 2
    assert game.check_state(state) == []
    game2, fresh = dealt()
    state2, _ = game2.apply(fresh, game2.parse_action({"type": "play", "player": 0, "face": "a"}))
    state2, _ = game2.apply(state2, game2.parse_action({"type": "reveal", "player": 0, "face": "d"}))
    for _ in range(2):  # Ana plays her pile out: nothing was lost, so nothing can come back
        state2, _ = game2.apply(state2, game2.parse_action({"type": "turn", "player": 0}))
        state2, _ = game2.apply(state2, game2.parse_action({"type": "play", "player": 0, "face": "d"}))
        if state2.piles[0].size:
            state2, _ = game2.apply(state2, game2.parse_action({"type": "reveal", "player": 0, "face": "d"}))
    assert state2.piles[0].size == 0


def test_a_card_on_a_pile_counted_empty_with_none_lost_is_found_and_makes_up_for_a_later_loss() -> None:
    """Ana plays her pile out as the referee counts it; the table still shows a card there (a
    penalty the camera missed gave cards back): with no card lost track of, it is a card the
    referee had not counted. A pile later shown empty nets against it: the deck's count holds."""
    game, state = dealt()
    refill = game.parse_action({"type": "refill", "player": 0, "face": "z"})
    state, _ = game.apply(state, game.parse_action({"type": "play", "player": 0, "face": "a"}))
    state, _ = game.apply(state, game.parse_action({"type": "reveal", "player": 0, "face": "d"}))
    for _ in range(2):  # Ana plays her pile out: nothing was lost track of
        state, _ = game.apply(state, game.parse_action({"type": "turn", "player": 0}))
        state, _ = game.apply(state, game.parse_action({"type": "play", "player": 0, "face": "d"}))
        if state.piles[0].size:
            state, _ = game.apply(state, game.parse_action({"type": "reveal", "player": 0, "face": "d"}))
    assert state.piles[0].size == 0 and state.lost == 0
    state, ruling = game.apply(state, refill)
    assert ruling.applies and ruling.reason.code == "pile_refilled" and ruling.details["found"] is True
    assert state.piles[0] == Pile(1, "z") and state.found == 1 and state.lost == 0
    assert game.check_state(state) == []
    assert game.state_to_json(state)["found"] == 1
    assert game.state_from_json(game.state_to_json(state)) == state
    # Ben's pile (3 cards counted) shows empty: one of them makes up for the card found
    state, ruling = game.apply(state, game.parse_action({"type": "empty", "player": 1}))
    assert ruling.applies and ruling.details["lost"] == 3
    assert state.found == 0 and state.lost == 2
    assert game.check_state(state) == []
    # a second card back: one of the cards lost track of this time
    state, _ = game.apply(state, game.parse_action({"type": "turn", "player": 0}))
    state, ruling = game.apply(state, game.parse_action({"type": "play", "player": 0, "face": "z"}))
    assert ruling.applies and state.piles[0].size == 0
    state, ruling = game.apply(state, refill)
    assert ruling.details["found"] is False and state.lost == 1 and state.found == 0
    assert game.check_state(state) == []
