"""Trio: every refused or uncertain ruling, as a table: the ruling names why, in both languages,
and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from referee.trio.game import TrioGame
from referee.trio.state import TrioState
from referee.types import Verdict
from tests.referee.test_trio_helpers import ask, centre, full_deal, play, trio

Table = Callable[[], tuple[TrioGame, TrioState]]


def fresh(n: int = 3, mode: str = "simple", **options: object) -> Table:
    return lambda: (g := trio(n, mode, **options), g.initial_state())


def dealt(
    n: int = 3, mode: str = "simple", given: dict | None = None, *lines: dict, **options: object
) -> Table:
    def build() -> tuple[TrioGame, TrioState]:
        game = trio(n, mode, **options)
        deal = full_deal(game, given or {}) if game.setup.known else {"type": "deal", "first": 0}
        return game, play(game, game.initial_state(), deal, *lines)[0]

    return build


def exchange(a: int, b: int, cards: list[int] | None = None) -> dict:
    return {"type": "exchange", "players": [a, b], **({"cards": cards} if cards else {})}


# Six players, Moi holds 1 1 1 2 2: after her trio of 1s her hand is 2 2, both reachable.
TWO_TWOS = dealt(6, "simple", {0: [1, 1, 1, 2, 2]}, *[ask(0, 0, "smallest")] * 3)
UNCERTAIN, INVALID = Verdict.UNCERTAIN, Verdict.INVALID
CASES = [
    (fresh(), centre(0, 0), "deal_first", INVALID),
    (fresh(), {"type": "deal", "first": 0}, "hands_needed", INVALID),
    (dealt(), {"type": "deal", "first": 0}, "already_dealt", INVALID),
    (dealt(), centre(1, 0), "not_your_turn", INVALID),
    (dealt(), centre(0, 9), "no_such_slot", INVALID),
    (dealt(3, "simple", None, centre(0, 0)), centre(0, 0), "already_revealed", INVALID),
    (dealt(), ask(0, 1, "smallest", count=2), "one_at_a_time", INVALID),
    (
        dealt(3, "simple", {0: [1, 1, 2, 3, 4, 5, 6, 8, 9]}),
        ask(0, 0, "smallest", 2),
        "not_that_card",
        INVALID,
    ),
    (dealt(3, "simple", {0: [1, 1, 2, 3, 4, 5, 6, 8, 9]}), ask(0, 0, "largest", 8), "not_that_card", INVALID),
    (dealt(), centre(0, 0, 1), "not_that_card", INVALID),  # the centre's slot 0 holds a 3 here
    (dealt(), exchange(0, 1), "no_exchange", INVALID),
    (TWO_TWOS, ask(1, 0, "smallest"), "revealed", None),
    (
        dealt(
            6, "simple", {0: [1, 1, 1, 2, 2]}, *[ask(0, 0, "smallest")] * 3, ask(1, 0), ask(1, 0, "largest")
        ),
        ask(1, 0, "smallest"),
        "hand_all_revealed",
        INVALID,
    ),
    (dealt(4, "teams"), centre(0, 0), "no_centre", INVALID),
    (dealt(4, "teams"), exchange(0, 2), "exchange_cards_needed", INVALID),
    (dealt(4, "teams", None, hands="unknown"), exchange(0, 2, [1, 2]), "hands_unknown", INVALID),
    (dealt(4, "simple", None, hands="unknown"), ask(0, 1, "smallest"), "number_unread", UNCERTAIN),
    (
        dealt(4, "simple", None, centre(0, 0, 5), centre(0, 1, 5), ask(0, 1, "smallest", 5), hands="unknown"),
        centre(1, 2, 5),
        "all_face_up",
        INVALID,
    ),
]


@pytest.mark.parametrize(("table", "obj", "code", "verdict"), CASES, ids=[c[2] for c in CASES])
def test_refused_actions_name_why_and_change_nothing(
    table: Table, obj: dict, code: str, verdict: Verdict | None
) -> None:
    game, state = table()
    before = game.state_to_json(state)
    new, ruling = game.apply(state, game.parse_action(obj))
    assert ruling.reason.code == code, ruling.reason.en
    if verdict is None:  # a control row: the same table lets a legal reveal through
        assert ruling.valid
        return
    assert (ruling.verdict, ruling.applies) == (verdict, False)
    assert new is state and game.state_to_json(state) == before
    assert ruling.reason.en.endswith((".", "!")) and ruling.reason.fr.endswith((".", "!"))


def test_the_centre_card_message_says_what_it_is() -> None:
    game, state = dealt(
        3,
        "simple",
        {},
    )()
    value = state.centre[0].number
    wrong = 1 if value != 1 else 2
    ruling = game.judge(state, game.parse_action(centre(0, 0, wrong)))
    assert ruling.reason.en == f"Centre card 0 is a {value}, not a {wrong}."
    assert ruling.reason.fr == f"La carte 0 du centre est un {value}, pas un {wrong}."


def test_the_outcome_lists_the_winning_trios() -> None:
    game = trio(3)
    state, _ = play(game, game.initial_state(), full_deal(game, {}, centre=[7, 7, 7]))
    state, _ = play(game, state, centre(0, 0), centre(0, 1), centre(0, 2))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.reason.code == "goal_reached"
    assert (outcome.reason.en, outcome.reason.fr) == (
        "Moi won with the trios 7.",
        "Moi gagne avec les trios 7.",
    )
