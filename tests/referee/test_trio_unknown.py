"""Trio with the hands unknown (a camera sees only reveals): what reveals prove, and contradictions."""

from __future__ import annotations

from referee.types import Verdict
from tests.referee.test_trio_helpers import ask, centre, play, trio


def camera_game(n: int = 4, mode: str = "simple"):
    game = trio(n, mode, hands="unknown")
    state, _ = play(game, game.initial_state(), {"type": "deal", "first": 0})
    return game, state


def test_the_deal_gives_sizes_only() -> None:
    game, state = camera_game()
    assert [h.cards for h in state.hands] == [(None,) * 7] * 4
    refused = game.judge(game.initial_state(), game.parse_action({"type": "deal", "hands": [[1]] * 4}))
    assert refused.reason.code == "hands_unknown"


def test_a_reveal_needs_its_number_until_it_is_known() -> None:
    game, state = camera_game()
    ruling = game.judge(state, game.parse_action(ask(0, 1, "smallest")))
    assert ruling.verdict is Verdict.UNCERTAIN and not ruling.applies
    state, _ = play(game, state, ask(0, 1, "smallest", 5), ask(0, 2, "smallest", 6))
    # Alice's smallest went back and is known: asking again needs no number.
    state, (ruling,) = play(game, state, ask(1, 1, "smallest"))
    assert ruling.details["number"] == 5


def test_a_smallest_below_one_shown_as_smallest_is_flagged() -> None:
    game, state = camera_game()
    state, _ = play(game, state, ask(0, 1, "smallest", 5), ask(0, 2, "smallest", 6))
    ruling = game.judge(state, game.parse_action(ask(1, 1, "smallest", 3)))
    assert ruling.verdict is Verdict.UNCERTAIN and not ruling.applies
    assert ruling.reason.code == "contradicts_hand"
    assert "Alice" in ruling.reason.en and "Alice" in ruling.reason.fr
    # Same for the largest end.
    state, _ = play(game, state, ask(1, 2, "largest", 11), ask(1, 3, "smallest", 2))
    flagged = game.judge(state, game.parse_action(ask(2, 2, "largest", 12)))
    assert flagged.reason.code == "contradicts_hand"
    # A hand's next card lies between what its ends proved.
    state, _ = play(game, state, ask(2, 2, "smallest", 6))
    below = game.judge(state, game.parse_action(ask(2, 2, "smallest", 4)))
    assert below.reason.code == "below_proved" and below.details["number"] == 4
    above = game.judge(state, game.parse_action(ask(2, 2, "smallest", 12)))
    assert above.reason.code == "above_proved"


def test_after_a_trio_the_smallest_cannot_drop_below_the_trio() -> None:
    game, state = camera_game()
    state, rulings = play(
        game, state, ask(0, 1, "smallest", 5), ask(0, 1, "smallest", 5), ask(0, 2, "largest", 5)
    )
    assert rulings[-1].reason.code == "trio"
    assert state.hands[1].low == 5 and state.hands[2].high == 5
    ruling = game.judge(state, game.parse_action(ask(1, 1, "smallest", 4)))
    assert ruling.reason.code == "below_proved"


def test_an_exchange_forgets_what_reveals_proved() -> None:
    game = trio(4, "teams", hands="unknown")
    state, _ = play(game, game.initial_state(), {"type": "deal", "first": 0})
    state, _ = play(game, state, ask(0, 2, "smallest", 5), ask(0, 3, "smallest", 9))
    assert game.judge(state, game.parse_action(ask(1, 2, "smallest", 3))).reason.code == "contradicts_hand"
    state, rulings = play(
        game, state, ask(1, 1, "smallest", 1), ask(1, 1, "smallest", 1), ask(1, 0, "smallest", 1)
    )
    assert rulings[-1].reason.code == "trio" and state.exchanges == (0,)
    # Moi & Basile may exchange now (the opposing team won a trio); the cards stay secret.
    cards = game.judge(state, game.parse_action({"type": "exchange", "players": [0, 2], "cards": [2, 3]}))
    assert cards.reason.code == "hands_unknown"
    state, _ = play(game, state, {"type": "exchange", "players": [0, 2]})
    assert state.hands[2].cards == (None,) * 9
    state, (ruling,) = play(game, state, ask(2, 2, "smallest", 3))
    assert ruling.valid


def test_no_number_more_than_three_times() -> None:
    game, state = camera_game()
    state, _ = play(game, state, centre(0, 0, 8), ask(0, 1, "largest", 12))
    state, _ = play(game, state, centre(1, 1, 8), ask(1, 2, "largest", 12))
    state, _ = play(game, state, centre(2, 2, 8), ask(2, 3, "largest", 11))
    ruling = game.judge(state, game.parse_action(ask(3, 0, "smallest", 8)))
    assert ruling.reason.code == "too_many" and ruling.verdict is Verdict.UNCERTAIN


def test_a_centre_card_keeps_its_number() -> None:
    game, state = camera_game()
    state, _ = play(game, state, centre(0, 3, 8), ask(0, 1, "largest", 12))
    ruling = game.judge(state, game.parse_action(centre(1, 3, 9)))
    assert ruling.reason.code == "contradicts_centre"


def test_the_table_confirms_a_reading_against_the_prior() -> None:
    game, state = camera_game()
    state, _ = play(game, state, ask(0, 1, "smallest", 5), ask(0, 2, "smallest", 6))
    state, (ruling,) = play(game, state, ask(1, 1, "smallest", 3, confirmed=True))
    assert ruling.valid and ruling.details["confirmed_over"] == "contradicts_hand"
    assert state.hands[1].cards[0] == 3 and state.hands[1].cards[1:] == (None,) * 6
    # A fourth card of a number stays impossible even when confirmed, if all three are face up.
    state, _ = play(game, state, ask(1, 1, "smallest", 3), centre(1, 0, 3))
    assert state.trios[1] == (3,)
    impossible = game.judge(state, game.parse_action(ask(2, 3, "smallest", 3, confirmed=True)))
    assert impossible.reason.code == "all_face_up" and not impossible.applies
