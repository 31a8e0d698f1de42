"""The Mind with the hands known: setup, errors, stars, rewards and caps, game over and victory."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.errors import InvalidConfig, InvalidState, MalformedAction
from referee.registry import make_game
from referee.themind.game import TheMindGame
from referee.themind.state import MindState
from referee.types import Ruling, Verdict

NAMES = ("Ana", "Ben", "Chloé", "Dev")


def mind(n: int, mode: str = "normal", **options: object) -> TheMindGame:
    game = make_game("themind", NAMES[:n], mode, options)
    assert isinstance(game, TheMindGame)
    return game


def run(game: TheMindGame, state: MindState, *lines: dict) -> tuple[MindState, list[Ruling]]:
    rulings = []
    for line in lines:
        state, ruling = game.apply(state, game.parse_action(line))
        assert ruling.applies, f"{line} did not apply: {ruling.reason.en}"
        assert not game.check_state(state), game.check_state(state)
        rulings.append(ruling)
    return state, rulings


def deal(*hands: list[int]) -> dict:
    return {"type": "deal", "hands": [list(h) for h in hands]}


def card(player: int, number: int) -> dict:
    return {"type": "play", "player": player, "card": number}


def at_level(game: TheMindGame, level: int, **changes: object) -> MindState:
    return replace(game.initial_state(), level=level, **changes)


@pytest.mark.parametrize(("players", "levels"), [(2, 12), (3, 10), (4, 8)])
def test_setup_by_player_count(players: int, levels: int) -> None:
    game = mind(players)
    state = game.initial_state()
    assert (state.level, state.lives, state.stars, state.phase) == (1, players, 1, "deal")
    assert game.scores(state)["levels"] == levels


def test_invalid_configs() -> None:
    with pytest.raises(InvalidConfig):
        make_game("themind", ["a"])
    with pytest.raises(InvalidConfig):
        make_game("themind", ["a", "b", "c", "d", "e"])
    with pytest.raises(InvalidConfig):
        mind(2, levels=13)


def test_a_level_deals_its_number_of_cards() -> None:
    game = mind(3)
    state = at_level(game, 3)
    bad = game.judge(state, game.parse_action(deal([1, 2], [3, 4, 5], [6, 7, 8])))
    assert bad.reason.code == "bad_deal_sizes" and not bad.applies
    twice = game.judge(state, game.parse_action(deal([1, 2, 3], [3, 4, 5], [6, 7, 8])))
    assert twice.reason.code == "card_twice"
    state, _ = run(game, state, deal([30, 2, 50], [3, 4, 5], [6, 7, 8]))
    assert state.hands[0] == (2, 30, 50) and state.counts == (3, 3, 3)


def test_cards_in_any_player_order() -> None:
    game = mind(2)
    state, _ = run(game, at_level(game, 2), deal([10, 40], [20, 30]))
    state, rulings = run(game, state, card(0, 10), card(1, 20), card(1, 30), card(0, 40))
    assert [r.verdict for r in rulings] == [Verdict.VALID] * 4
    assert state.lives == 2 and state.level == 3 and state.phase == "deal"


def test_an_error_discards_every_lower_card_and_costs_one_life_whatever_the_count() -> None:
    game = mind(3)
    state, _ = run(game, at_level(game, 3), deal([5, 60, 70], [10, 20, 80], [15, 55, 90]))
    state, (ruling,) = run(game, state, card(1, 10))  # Ana (5) still held a lower card
    assert ruling.verdict is Verdict.INVALID and ruling.applies and ruling.reason.code == "error"
    assert state.lives == 2 and state.hands[0] == (60, 70)
    # Chloé plays 55 while Ana's nothing, Ben's 20 and Chloé's own 15 are lower: 2 cards, 1 life.
    state, (ruling,) = run(game, state, card(2, 55))
    assert ruling.details["discarded"] == [{"player": 2, "card": 15}, {"player": 1, "card": 20}]
    assert state.lives == 1
    assert [(d.player, d.card, d.cause) for d in state.discards] == [
        (0, 5, "error"),
        (2, 15, "error"),
        (1, 20, "error"),
    ]
    assert "perd une vie" in ruling.reason.fr
    # The last life goes: game over.
    state, (ruling,) = run(game, state, card(2, 90))
    assert state.phase == "lost" and state.lives == 0 and ruling.details["game_over"]
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == ()
    assert game.judge(state, game.parse_action(card(0, 60))).reason.code == "game_over"


def test_a_card_one_does_not_hold_is_refused() -> None:
    game = mind(2)
    state, _ = run(game, game.initial_state(), deal([10], [20]))
    ruling = game.judge(state, game.parse_action(card(0, 20)))
    assert ruling.reason.code == "not_in_hand" and not ruling.applies


def test_a_star_needs_every_hand_up_and_discards_everyones_lowest() -> None:
    game = mind(3)
    state, _ = run(game, at_level(game, 2), deal([5, 60], [10, 80], [15, 90]))
    half = game.judge(state, game.parse_action({"type": "star", "hands_up": [0, 2]}))
    assert half.reason.code == "not_unanimous" and "Ben" in half.reason.en
    state, (ruling,) = run(game, state, {"type": "star", "hands_up": [0, 1, 2]})
    assert ruling.details["discarded"] == [5, 10, 15]
    assert state.stars == 0 and state.hands == ((60,), (80,), (90,))
    none_left = game.judge(state, game.parse_action({"type": "star", "hands_up": [0, 1, 2]}))
    assert none_left.reason.code == "no_star"


def test_a_star_can_end_the_level() -> None:
    game = mind(2)
    state, _ = run(game, game.initial_state(), deal([5], [10]))
    state, (ruling,) = run(game, state, {"type": "star", "hands_up": [1, 0]})
    assert ruling.details["level_complete"] == 1 and state.level == 2


@pytest.mark.parametrize(
    ("level", "lives", "stars", "after"),
    [
        (1, 2, 1, (2, 1)),
        (2, 2, 1, (2, 2)),
        (3, 2, 1, (3, 1)),
        (5, 2, 3, (2, 3)),  # star capped at 3
        (6, 5, 1, (5, 1)),  # life capped at 5
        (8, 1, 0, (1, 1)),
        (9, 4, 0, (5, 0)),
        (10, 2, 1, (2, 1)),
    ],
)
def test_level_rewards_and_caps(level: int, lives: int, stars: int, after: tuple[int, int]) -> None:
    game = mind(2)
    state = at_level(game, level, lives=lives, stars=stars)
    hands = (list(range(1, level + 1)), list(range(50, 50 + level)))
    state, _ = run(game, state, deal(*hands))
    for c in sorted(hands[0] + hands[1]):
        state, _ = run(game, state, card(0 if c < 50 else 1, c))
    assert (state.lives, state.stars) == after
    assert state.level == level + 1 and state.phase == "deal"


def test_victory_after_the_last_level() -> None:
    game = mind(2, levels=2)
    state, _ = run(game, game.initial_state(), deal([1], [2]), card(0, 1), card(1, 2))
    state, rulings = run(game, state, deal([3, 4], [5, 6]), card(0, 3), card(0, 4), card(1, 5), card(1, 6))
    assert rulings[-1].details["victory"] and state.phase == "won"
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == (0, 1)


def test_only_malformed_input_raises_and_quotes_it() -> None:
    game = mind(2)
    for bad in (
        {"type": "shout"},
        {"type": "play", "player": 0, "card": 101},
        {"type": "play", "player": 7, "card": 5},
        {"type": "star"},
        {"type": "deal", "hands": [[1], "x"]},
    ):
        with pytest.raises(MalformedAction) as info:
            game.parse_action(bad)
        assert repr(bad) in str(info.value)


def test_legal_actions_with_hands_known_all_apply() -> None:
    game = mind(2)
    state, _ = run(game, at_level(game, 2), deal([10, 40], [20, 30]))
    legal = game.legal_actions(state)
    assert legal is not None and len(legal) == 5  # four cards and the star
    assert all(game.judge(state, a).applies for a in legal)
    assert game.legal_actions(game.initial_state()) is None


def test_one_plays_the_lowest_card_of_ones_hand_first_56_before_57() -> None:
    game = mind(2)
    state, _ = run(game, at_level(game, 2), deal([56, 57], [80, 90]))
    state, (ruling,) = run(game, state, card(0, 57))
    assert ruling.reason.code == "error" and ruling.details["discarded"] == [{"player": 0, "card": 56}]
    assert state.lives == 1 and state.counts == (0, 2)
    assert ruling.reason.en.startswith("Error: Ana played 57 while 56 was still held.")
    assert ruling.reason.fr.startswith("Erreur : Ana a joué le 57 alors que 56 était encore en main.")


def test_an_error_that_empties_every_hand_completes_the_level_with_its_reward() -> None:
    game = mind(2)
    state, _ = run(game, at_level(game, 3, lives=3), deal([10, 20, 30], [40, 50, 60]))
    state, _ = run(game, state, card(0, 10), card(0, 20), card(0, 30), card(1, 40))
    # Ben plays 60 while holding 50: his own lower card goes, every hand is empty, one life.
    state, (ruling,) = run(game, state, card(1, 60))
    assert ruling.verdict is Verdict.INVALID and ruling.details["level_complete"] == 3
    assert ruling.details["reward"] == "life"
    assert (state.level, state.phase, state.lives) == (4, "deal", 3)  # 3 - 1 + 1
    assert "Level 3 complete" in ruling.reason.en and "Niveau 3 terminé" in ruling.reason.fr


def test_the_last_life_lost_ends_the_game_even_when_the_hands_are_now_empty() -> None:
    game = mind(2)
    state, _ = run(game, at_level(game, 2, lives=1), deal([10, 20], [30, 40]))
    state, _ = run(game, state, card(0, 10), card(1, 30))  # Ana's 20: error, the last life
    assert state.phase == "lost" and state.lives == 0
    assert game.outcome(state) is not None


def test_stars_are_unlimited_per_level_and_skip_empty_hands() -> None:
    game = mind(2)
    state, _ = run(game, at_level(game, 3, stars=3), deal([10, 20, 30], [40, 50, 60]))
    state, _ = run(game, state, {"type": "star", "hands_up": [0, 1]}, {"type": "star", "hands_up": [0, 1]})
    assert state.stars == 1 and state.hands == ((30,), (60,))
    state, _ = run(game, state, card(0, 30))
    state, (ruling,) = run(game, state, {"type": "star", "hands_up": [0, 1]})
    assert ruling.details["discarded"] == [None, 60] and state.stars == 0
    assert ruling.details["level_complete"] == 3
    wrong = game.judge(
        run(game, at_level(game, 2), deal([10, 20], [30, 40]))[0],
        game.parse_action({"type": "star", "hands_up": [0, 1], "cards": [20, 30]}),
    )
    assert wrong.reason.code == "not_lowest" and "Ana 10, Ben 30" in wrong.reason.en
    assert "Ana 20, Ben 30" in wrong.reason.fr


def _sound() -> tuple[TheMindGame, dict]:
    """A level-3 state after one error: Ana holds 60, 70; Ben 80; Chloé 55, 90; 20 on the pile."""
    game = mind(3)
    state, _ = run(game, at_level(game, 3), deal([5, 60, 70], [10, 20, 80], [15, 55, 90]), card(1, 20))
    assert game.check_state(state) == []
    return game, game.state_to_json(state)


BREAKS = [
    ("lives", 6, "lives is not within"),
    ("stars", 4, "stars is not within"),
    ("lives", 0, "lives in phase"),
    ("level", 11, "level 11 is not within 1..10"),
    ("hands", [[60, 70], [80], [20, 90]], "appears twice"),
    ("hands", [[60, 101], [80], [55, 90]], "outside 1..100"),
    ("hands", [[70, 60], [80], [55, 90]], "is not sorted"),
    ("counts", [2, 1, 1], "do not match counts"),
    ("hands", [[60], [80], [55, 90]], "do not match counts"),
    ("discards", [], "cards in play at level 3"),
    ("pile", [{"player": 1, "card": 20}, {"player": 0, "card": 19}], "does not rise"),
    ("hands", [[19, 70], [80], [55, 90]], "lower than the pile"),
    ("charged", 33, "charged error card 33"),
    ("pile", [{"player": 7, "card": 20}], "belongs to no seat"),
    ("pile", [{"player": 0, "card": 20}], r"seats were dealt \[4, 2, 3\] cards instead of 3"),
]


@pytest.mark.parametrize(("field", "value", "problem"), BREAKS, ids=[f"{b[0]}-{b[2]}" for b in BREAKS])
def test_a_broken_state_is_named_and_refused_from_json(field: str, value: object, problem: str) -> None:
    game, obj = _sound()
    obj[field] = value
    with pytest.raises(InvalidState, match=problem):
        game.state_from_json(obj)


@pytest.mark.parametrize(
    "obj",
    [
        {"phase": "nap"},
        {"level": "3"},
        {"hands": [[60, "70"], [80], [55, 90]]},
        {"pile": [[1, 20]]},
        {"discards": 5},
    ],
)
def test_a_mistyped_state_raises_invalid_state(obj: dict) -> None:
    game, sound = _sound()
    with pytest.raises(InvalidState):
        game.state_from_json({**sound, **obj})


def test_a_won_state_must_be_at_the_last_level() -> None:
    game, _ = _sound()
    empty = {"hands": [[], [], []], "counts": [0, 0, 0], "pile": [], "discards": [], "charged": None}
    won = {"level": 10, "phase": "won", "lives": 2, "stars": 1, **empty}
    assert game.check_state(game.state_from_json(won)) == []
    with pytest.raises(InvalidState, match="won at level 3 of 10"):
        game.state_from_json({**won, "level": 3})
