"""The Mind: every refused or uncertain action, as a table: the ruling names why, in both
languages, and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from referee.themind.game import TheMindGame
from referee.themind.state import MindState
from referee.types import Verdict
from tests.referee.test_themind_rules import at_level, card, deal, mind, run

Table = Callable[[], tuple[TheMindGame, MindState]]


def fresh(mode: str = "normal", hands: str = "known") -> Table:
    return lambda: (g := mind(2, mode, hands=hands), g.initial_state())


def level_two(mode: str = "normal", hands: str = "known", *plays: dict) -> Table:
    """Level 2 dealt (Ana 10, 40; Ben 20, 30 when known), then ``plays``."""

    def build() -> tuple[TheMindGame, MindState]:
        game = mind(2, mode, hands=hands)
        line = deal([10, 40], [20, 30]) if hands == "known" else {"type": "deal"}
        return game, run(game, at_level(game, 2), line, *plays)[0]

    return build


FACE_DOWN = {"type": "play", "player": 0}
UNCERTAIN, INVALID = Verdict.UNCERTAIN, Verdict.INVALID
CASES = [
    (fresh(), card(0, 10), "deal_first", INVALID),
    (fresh(), {"type": "deal"}, "hands_needed", INVALID),
    (fresh(hands="unknown"), deal([10], [20]), "hands_unknown", INVALID),
    (level_two(), deal([1, 2], [3, 4]), "not_dealing", INVALID),
    (level_two("normal", "known", card(0, 10), card(1, 20), card(1, 30)), card(1, 31), "empty_hand", INVALID),
    (level_two(), FACE_DOWN, "card_needed", INVALID),
    (level_two(), {"type": "discard", "player": 0, "cards": [10]}, "discards_automatic", INVALID),
    (level_two(), {"type": "reveal", "cards": [10]}, "not_revealing", INVALID),
    (level_two(), {"type": "star", "hands_up": [0, 1], "cards": [40, 30]}, "not_lowest", INVALID),
    (level_two(hands="unknown"), FACE_DOWN, "card_unread", UNCERTAIN),
    (
        level_two(hands="unknown"),
        {"type": "discard", "player": 0, "cards": [5]},
        "nothing_to_discard",
        INVALID,
    ),
    (level_two(hands="unknown"), {"type": "star", "hands_up": [0, 1]}, "star_cards_unread", UNCERTAIN),
    (
        level_two("normal", "unknown", card(0, 10), card(0, 40)),
        {"type": "star", "hands_up": [0, 1], "cards": [50, 60]},
        "star_cards_mismatch",
        UNCERTAIN,
    ),
    (
        level_two("normal", "unknown", card(0, 40)),
        {"type": "star", "hands_up": [0, 1], "cards": [50, 30]},
        "star_below_top",
        UNCERTAIN,
    ),
    (
        level_two("blind", "unknown"),
        {"type": "discard", "player": 0, "cards": [5]},
        "blind_no_discard",
        INVALID,
    ),
    (
        level_two("blind", "unknown", *[{"type": "play", "player": p} for p in (0, 0, 1, 1)]),
        FACE_DOWN,
        "reveal_first",
        INVALID,
    ),
]


@pytest.mark.parametrize(("table", "obj", "code", "verdict"), CASES, ids=[c[2] for c in CASES])
def test_refused_actions_name_why_and_change_nothing(
    table: Table, obj: dict, code: str, verdict: Verdict
) -> None:
    game, state = table()
    before = game.state_to_json(state)
    new, ruling = game.apply(state, game.parse_action(obj))
    assert (ruling.reason.code, ruling.verdict, ruling.applies) == (code, verdict, False)
    assert new is state and game.state_to_json(state) == before
    assert ruling.reason.en.endswith((".", "!")) and ruling.reason.fr.endswith((".", "!"))
    assert ruling.reason.en != ruling.reason.fr


def test_blind_known_plays_are_face_down_until_the_count() -> None:
    game, state = level_two("blind")()
    state, rulings = run(game, state, card(0, 10), card(1, 20))
    assert [r.reason.code for r in rulings] == ["played_face_down"] * 2
    assert "face cachée" in rulings[0].reason.fr and "20" not in rulings[1].reason.en


def test_outcomes_name_victory_and_defeat() -> None:
    game = mind(2, levels=1)
    won, _ = run(game, game.initial_state(), deal([10], [20]), card(0, 10), card(1, 20))
    outcome = game.outcome(won)
    assert outcome is not None and outcome.reason.code == "all_levels" and outcome.winners == (0, 1)
    lost, _ = run(game, at_level(game, 1, lives=1), deal([10], [20]), card(1, 20))
    outcome = game.outcome(lost)
    assert outcome is not None and outcome.reason.code == "no_lives" and outcome.winners == ()
    assert "perdu" in outcome.reason.fr
