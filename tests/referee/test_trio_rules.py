"""Trio with the hands known: the seed's guided example, its beginners' mistakes, FAQ, goals, deals."""

from __future__ import annotations

import pytest

from referee.errors import InvalidConfig, InvalidState, MalformedAction
from referee.trio.cards import linked, reaches_goal
from referee.types import Verdict
from tests.referee.test_trio_helpers import ask, centre, full_deal, play, trio

# Six players: five cards each, six in the centre (the guided example's hand has five cards).
MY_HAND = [2, 5, 5, 8, 11]


@pytest.mark.parametrize(("players", "per", "in_centre"), [(3, 9, 9), (4, 7, 8), (5, 6, 6), (6, 5, 6)])
def test_deal_table(players: int, per: int, in_centre: int) -> None:
    game = trio(players)
    state, (ruling,) = play(game, game.initial_state(), full_deal(game, {}))
    assert [len(h.cards) for h in state.hands] == [per] * players
    assert len(state.centre) == in_centre
    assert ruling.details == {"per_player": per, "centre": in_centre}


@pytest.mark.parametrize(("players", "per"), [(4, 9), (6, 6)])
def test_team_deal_gives_every_card_and_no_centre(players: int, per: int) -> None:
    game = trio(players, "teams")
    state, _ = play(game, game.initial_state(), full_deal(game, {}))
    assert [len(h.cards) for h in state.hands] == [per] * players
    assert state.centre == ()
    assert state.exchanges == tuple(range(players // 2))


def test_a_deal_with_wrong_sizes_or_cards_is_refused() -> None:
    game = trio(4)
    deal = full_deal(game, {})
    short = {**deal, "hands": [deal["hands"][0][:-1], *deal["hands"][1:]]}
    ruling = game.judge(game.initial_state(), game.parse_action(short))
    assert (ruling.verdict, ruling.applies, ruling.reason.code) == (Verdict.INVALID, False, "bad_deal_sizes")
    swapped = {**deal, "centre": [1, *deal["centre"][1:]]}
    assert game.judge(game.initial_state(), game.parse_action(swapped)).reason.code in (
        "bad_deal_cards",
        "bad_deal_sizes",
    )


def guided_game():
    """The guided example's table: my hand 2 5 5 8 11; the centre holds the third 5 in slot 0."""
    game = trio(6)
    deal = full_deal(game, {0: MY_HAND}, centre=[5])
    state, _ = play(game, game.initial_state(), deal)
    return game, state


def test_guided_question_1_a_known_five_in_the_middle_of_my_hand_is_not_reachable() -> None:
    game, state = guided_game()
    state, (ruling,) = play(game, state, centre(0, 0))
    assert ruling.details["number"] == 5
    # I cannot put down one of my 5s: they sit between my 2 and my 11.
    refused = game.judge(state, game.parse_action(ask(0, 0, "smallest", 5)))
    assert refused.verdict is Verdict.INVALID and not refused.applies
    assert refused.reason.code == "not_that_card"
    assert "2" in refused.reason.en and "2" in refused.reason.fr
    # What I may reveal from my hand is its smallest, the 2 (which ends the turn).
    state, (ruling,) = play(game, state, ask(0, 0, "smallest"))
    assert ruling.reason.code == "turn_ends" and state.turn == 1


def alice_game():
    """Questions 2 and 3: Alice (seat 1) holds 5, 5 at her small end; the centre holds the third 5."""
    game = trio(6)
    deal = full_deal(game, {0: [2, 6, 8, 8, 11], 1: [5, 5, 9, 10, 12]}, centre=[5])
    state, _ = play(game, game.initial_state(), deal)
    return game, state


def test_guided_questions_2_and_3_ask_again_then_trio_then_the_turn_passes() -> None:
    game, state = alice_game()
    state, rulings = play(game, state, centre(0, 0), ask(0, 1, "smallest"))
    assert rulings[-1].reason.code == "revealed"  # two 5s: the turn goes on
    # Asking Alice's smallest again reveals her next card: the second 5.
    state, (ruling,) = play(game, state, ask(0, 1, "smallest"))
    assert ruling.reason.code == "trio"
    assert state.trios[0] == (5,)
    assert state.hands[1].cards == (9, 10, 12)
    assert all(c.number != 5 for c in state.centre)
    # Question 3: no replay after a trio; the turn passed to Alice.
    assert state.turn == 1
    again = game.judge(state, game.parse_action(ask(0, 2, "largest")))
    assert again.reason.code == "not_your_turn" and not again.applies


def test_guided_question_3_otherwise_a_six_ends_the_turn_and_the_cards_go_back() -> None:
    game = trio(6)
    deal = full_deal(game, {0: [2, 6, 8, 8, 11], 1: [5, 6, 9, 10, 12]}, centre=[5])
    state, _ = play(game, game.initial_state(), deal)
    before = state.hands
    state, rulings = play(game, state, centre(0, 0), ask(0, 1, "smallest"), ask(0, 1, "smallest"))
    assert [r.reason.code for r in rulings] == ["revealed", "revealed", "turn_ends"]
    assert state.hands == before and state.revealed == () and state.trios[0] == ()
    assert state.turn == 1


def test_mistake_continuing_after_two_different_numbers() -> None:
    game, state = alice_game()
    state, rulings = play(game, state, ask(0, 0, "smallest"), ask(0, 1, "smallest"))
    assert rulings[-1].reason.code == "turn_ends"
    ruling = game.judge(state, game.parse_action(centre(0, 0)))
    assert ruling.reason.code == "not_your_turn" and ruling.verdict is Verdict.INVALID
    assert "premier nombre différent" in ruling.reason.fr


def test_mistake_revealing_two_equal_cards_at_once() -> None:
    game, state = alice_game()
    ruling = game.judge(state, game.parse_action(ask(0, 1, "smallest", 5, count=2)))
    assert ruling.reason.code == "one_at_a_time" and not ruling.applies
    assert state.revealed == ()


def test_faq_all_three_from_the_centre() -> None:
    game = trio(3)
    state, _ = play(game, game.initial_state(), full_deal(game, {}, centre=[4, 4, 4]))
    state, rulings = play(game, state, centre(0, 2), centre(0, 0), centre(0, 1))
    assert rulings[-1].reason.code == "trio" and state.trios[0] == (4,)
    assert [c.slot for c in state.centre] == list(range(3, 9))
    gone = game.judge(state, game.parse_action(centre(1, 0)))
    assert gone.reason.code == "no_such_slot"


def test_a_centre_card_cannot_be_revealed_twice_in_a_turn() -> None:
    game = trio(3)
    state, _ = play(game, game.initial_state(), full_deal(game, {}, centre=[4, 4]))
    state, _ = play(game, state, centre(0, 0))
    assert game.judge(state, game.parse_action(centre(0, 0))).reason.code == "already_revealed"


def test_faq_playing_with_an_empty_hand() -> None:
    game = trio(3)
    # Moi's nine cards are three trios she takes from her own hand, one end at a time.
    state, _ = play(game, game.initial_state(), full_deal(game, {0: [1, 1, 1, 2, 2, 2, 12, 12, 12]}))
    state, _ = play(game, state, ask(0, 0, "smallest"), ask(0, 0, "smallest"), ask(0, 0, "smallest"))
    assert state.trios[0] == (1,)
    state, _ = play(game, state, ask(1, 0, "largest"), ask(1, 0, "largest"), ask(1, 0, "largest"))
    assert state.trios[1] == (12,)
    state, _ = play(game, state, ask(2, 0, "smallest"), ask(2, 0, "largest"), ask(2, 0, "smallest"))
    assert state.trios[2] == (2,) and state.hands[0].cards == ()
    # Moi has no card left and still plays her turn with the others' and the centre's cards.
    assert state.turn == 0
    empty = game.judge(state, game.parse_action(ask(0, 0, "smallest")))
    assert empty.reason.code == "empty_hand" and not empty.applies
    state, (ruling,) = play(game, state, centre(0, 0))
    assert ruling.reason.code == "revealed"


def test_three_sevens_stuck_in_a_hand_do_not_win() -> None:
    game = trio(3)
    state, _ = play(game, game.initial_state(), full_deal(game, {0: [1, 7, 7, 7, 8, 9, 10, 11, 12]}))
    assert game.outcome(state) is None
    state, rulings = play(game, state, ask(0, 0, "smallest"), ask(0, 0, "smallest"))
    assert rulings[-1].reason.code == "turn_ends" and game.outcome(state) is None


def test_the_trio_of_seven_wins_at_once() -> None:
    game = trio(4, "picante")
    state, _ = play(game, game.initial_state(), full_deal(game, {}, centre=[7, 7, 7]))
    state, rulings = play(game, state, centre(0, 0), centre(0, 1), centre(0, 2))
    assert rulings[-1].reason.code == "trio_wins"
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    after = game.judge(state, game.parse_action(centre(1, 3)))
    assert after.reason.code == "game_over"


@pytest.mark.parametrize(
    ("a", "b", "links"),
    [
        (1, 6, True),
        (3, 4, True),
        (2, 9, True),
        (5, 12, True),
        (4, 11, True),
        (3, 5, False),
        (6, 12, False),
        (7, 7, False),
        (1, 1, False),
    ],
)
def test_picante_links(a: int, b: int, links: bool) -> None:
    assert linked(a, b) is links


def test_goals() -> None:
    assert reaches_goal((7,), "simple") and reaches_goal((7,), "picante")
    assert reaches_goal((1, 2, 3), "simple") and not reaches_goal((1, 2, 3), "picante")
    assert reaches_goal((2, 12, 5), "picante") and not reaches_goal((2, 12), "simple")
    assert not reaches_goal((1, 12), "picante")


def test_picante_two_linked_trios_win_unlinked_do_not() -> None:
    game = trio(3, "picante")
    state, _ = play(game, game.initial_state(), full_deal(game, {}, centre=[3, 3, 3, 5, 5, 5, 4, 4, 4]))
    state, _ = play(game, state, centre(0, 0), centre(0, 1), centre(0, 2))
    state, _ = play(game, state, centre(1, 3), centre(1, 4), centre(1, 5))
    state, _ = play(game, state, centre(2, 6), ask(2, 2, "smallest"))  # 4 then something else
    assert game.outcome(state) is None
    state, rulings = play(game, state, centre(0, 6), centre(0, 7), centre(0, 8))
    assert rulings[-1].reason.code == "trio_wins" and state.trios[0] == (3, 4)


def test_simple_three_trios_win() -> None:
    game = trio(3)
    cards = [1, 1, 1, 2, 2, 2, 3, 3, 3]
    state, _ = play(game, game.initial_state(), full_deal(game, {}, centre=cards))
    for first in (0, 3):
        state, _ = play(game, state, *(centre(0, s) for s in range(first, first + 3)))
        state, _ = play(game, state, ask(1, 1, "largest"), ask(1, 1, "smallest"))
        state, _ = play(game, state, ask(2, 2, "largest"), ask(2, 2, "smallest"))
    assert game.outcome(state) is None and state.trios[0] == (1, 2)
    state, rulings = play(game, state, *(centre(0, s) for s in range(6, 9)))
    assert rulings[-1].reason.code == "trio_wins"
    assert game.scores(state)["trios"] == {"Moi": [1, 2, 3], "Alice": [], "Basile": []}


def test_only_malformed_input_raises_and_quotes_it() -> None:
    game = trio(3)
    for bad in (
        {"type": "peek", "player": 0},
        {"type": "ask", "player": 0, "target": 1, "end": "middle"},
        {"type": "ask", "player": 0, "target": 9, "end": "smallest"},
        {"type": "reveal", "player": 0, "slot": 1, "number": 13},
        {"type": "reveal", "player": 0},
    ):
        with pytest.raises(MalformedAction) as info:
            game.parse_action(bad)
        assert repr(bad) in str(info.value)


def test_invalid_configs() -> None:
    with pytest.raises(InvalidConfig):
        trio(5, "teams")
    with pytest.raises(InvalidConfig):
        trio(3, "simple", goal="picante")
    with pytest.raises(InvalidConfig):
        trio(3, "simple", hands="maybe")
    with pytest.raises(InvalidConfig):
        trio(2)


def test_judge_changes_nothing_and_states_round_trip() -> None:
    game, state = alice_game()
    action = game.parse_action(centre(0, 0))
    before = game.state_to_json(state)
    game.judge(state, action)
    assert game.state_to_json(state) == before
    state, _ = play(game, state, centre(0, 0))
    assert game.state_from_json(game.state_to_json(state)) == state


def test_legal_actions_with_hands_known_all_apply() -> None:
    game, state = guided_game()
    legal = game.legal_actions(state)
    assert legal is not None and len(legal) == 6 + 6 * 2  # six centre cards, two ends of six hands
    assert all(game.judge(state, a).applies for a in legal)
    assert trio(4, hands="unknown").legal_actions(state) is None


def test_a_broken_state_from_json_is_refused() -> None:
    game, state = guided_game()
    obj = game.state_to_json(state)
    obj["hands"][0]["cards"] = [2, 2, 2, 2, 5]  # four 2s where three exist
    with pytest.raises(InvalidState, match="more than three times"):
        game.state_from_json(obj)
    obj = game.state_to_json(state)
    obj["exchanges"] = [None]
    with pytest.raises(InvalidState):
        game.state_from_json(obj)
    # My hand is 2 5 5 8 11: its second 5 (slot 2) can only be revealed after the 2 and a 5.
    obj = game.state_to_json(state)
    obj["revealed"] = [{"seat": 0, "index": 2, "number": 5}]
    with pytest.raises(InvalidState, match="not at one of its ends"):
        game.state_from_json(obj)
    obj["revealed"] = [{"seat": 0, "index": 4, "number": 11}, {"seat": 0, "index": 3, "number": 8}]
    with pytest.raises(InvalidState, match="should have ended it"):  # sound ends, different numbers
        game.state_from_json(obj)
    obj["revealed"] = [{"seat": 0, "index": 1, "number": 5}, {"seat": 0, "index": 2, "number": 5}]
    with pytest.raises(InvalidState, match="not at one of its ends"):
        game.state_from_json(obj)
    with pytest.raises(InvalidState, match="before the deal"):
        game.state_from_json({**game.state_to_json(game.initial_state()), "turn": 2})
