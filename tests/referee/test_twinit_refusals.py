"""Twin It: refused and uncertain rulings of the flow (deal, start, play, reveal, end, ties in the
minute) as a table, and the rulings that let the flow through: each names why, in both languages;
a refusal changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from referee.registry import make_game
from referee.twinit.game import TwinItGame
from referee.twinit.types import Claim, Loc, TwinItState
from referee.types import Verdict

X, Y, Z = "twinit:x", "twinit:y", "twinit:z"
Table = Callable[[], tuple[TwinItGame, TwinItState]]


def table(mode: str, *lines: dict[str, Any], cards: int = 6, players: int = 2) -> Table:
    def build() -> tuple[TwinItGame, TwinItState]:
        g = make_game("twinit", ["Ana", "Ben", "Cy"][:players], mode, {"cards": cards})
        assert isinstance(g, TwinItGame)
        state = g.initial_state()
        for line in lines:
            state, ruling = g.apply(state, g.parse_action(line))
            assert ruling.applies, (line, ruling.reason.en)
        return g, state

    return build


DEAL = {"type": "deal", "piles": [3, 3], "first": 0, "tops": [X, Y]}
START = {"type": "start", "faces": [X, X, Y, Z, None, Y]}
PLAY = {"type": "play", "player": 0, "face": Z, "top": Y}
LAST = [{"type": "deal", "piles": [1, 1], "first": 0, "tops": [X, Y]}]
INVALID, VALID = Verdict.INVALID, Verdict.VALID
CASES = [
    (table("competitive"), PLAY, "not_started", INVALID),
    (table("competitive"), START, "deal_not_spread", INVALID),
    (table("competitive"), {"type": "deal", "piles": [3, 3], "first": 1}, "dealt", VALID),
    (table("competitive", DEAL), PLAY, "played", VALID),
    (table("competitive", DEAL), {**PLAY, "player": 1}, "not_your_turn", INVALID),
    (table("competitive", *LAST, cards=2), {**PLAY, "top": X}, "no_next_card", INVALID),
    (table("competitive", DEAL), {"type": "reveal", "player": 0, "face": Z}, "already_visible", INVALID),
    (table("competitive", DEAL, {**PLAY, "top": None}), PLAY | {"player": 1}, "wait_reveal", INVALID),
    (
        table("competitive", DEAL, {**PLAY, "top": None}),
        {"type": "reveal", "player": 0, "face": Z},
        "revealed",
        VALID,
    ),
    (table("competitive", DEAL), {"type": "end"}, "cards_left", INVALID),
    (
        table(
            "competitive",
            *LAST,
            {"type": "play", "player": 0, "face": Z},
            {"type": "play", "player": 1, "face": X},
            cards=2,
        ),
        {"type": "end"},
        "no_more_pairs",
        VALID,
    ),
    (table("cooperative"), START | {"faces": [X]}, "spread_count", INVALID),
    (table("cooperative"), START, "minute_started", VALID),
    (table("cooperative", START), START, "already_started", INVALID),
    (table("cooperative", START), PLAY, "no_turns", INVALID),
    (
        table("cooperative", START),
        {"type": "tie", "players": [0, 1], "cards": [{"table": 0}, {"table": 1}]},
        "no_ties",
        INVALID,
    ),
    (table("cooperative", START), {"type": "end"}, "minute_over", VALID),
    (
        table("cooperative", START, {"type": "end"}),
        {"type": "claim", "player": 0, "cards": [{"table": 0}, {"table": 1}]},
        "game_over",
        INVALID,
    ),
]


@pytest.mark.parametrize(("build", "obj", "code", "verdict"), CASES, ids=[c[2] for c in CASES])
def test_flow_rulings_name_why(build: Table, obj: dict[str, Any], code: str, verdict: Verdict) -> None:
    g, state = build()
    before = g.state_to_json(state)
    new, ruling = g.apply(state, g.parse_action(obj))
    assert (ruling.reason.code, ruling.verdict) == (code, verdict), ruling.reason.en
    assert ruling.applies is (verdict is VALID)
    if not ruling.applies:
        assert new is state and g.state_to_json(state) == before
    else:
        assert g.check_state(new) == []
    assert ruling.reason.en.endswith((".", "!")) and ruling.reason.fr.endswith((".", "!"))
    assert ruling.reason.en != ruling.reason.fr


def test_the_minute_outcome_and_a_competitive_draw_are_worded() -> None:
    g, state = table(
        "cooperative", START, {"type": "claim", "player": 0, "cards": [{"table": 0}, {"table": 1}]}
    )()
    state, _ = g.apply(state, g.parse_action({"type": "end"}))
    outcome = g.outcome(state)
    assert outcome is not None and outcome.reason.code == "minute_score" and outcome.winners == (0, 1)
    assert outcome.reason.en == "1 point together: level Beginners (Débutants)."
    assert outcome.reason.fr == "1 point ensemble : niveau « Débutants »."
    g, state = table(
        "competitive",
        *LAST,
        {"type": "play", "player": 0, "face": Z},
        {"type": "play", "player": 1, "face": X},
        {"type": "end"},
        cards=2,
    )()
    outcome = g.outcome(state)
    assert outcome is not None and outcome.draw and outcome.reason.code == "draw"
    assert outcome.reason.fr == "Personne n'a de prises : égalité."


def test_a_claim_built_in_python_with_the_wrong_number_of_faces_is_uncertain() -> None:
    """JSON cannot carry it (the parser refuses it); a caller building the action in Python gets an
    uncertain ruling, not an exception."""
    g, state = table("competitive", DEAL)()
    claim = Claim((0, 0), (Loc("pile", 0), Loc("pile", 1)), faces=(X,))
    new, ruling = g.apply(state, claim)
    assert (ruling.reason.code, ruling.verdict, ruling.applies) == ("faces_count", Verdict.UNCERTAIN, False)
    assert new is state
