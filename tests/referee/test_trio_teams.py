"""Trio in teams: partners face to face share trios; secret one-for-one exchanges and their windows."""

from __future__ import annotations

from referee.types import Verdict
from tests.referee.test_trio_helpers import ask, full_deal, play, trio


def exchange(a: int, b: int, x: int | None = None, y: int | None = None) -> dict:
    out: dict[str, object] = {"type": "exchange", "players": [a, b]}
    if x is not None:
        out["cards"] = [x, y]
    return out


def team_game():
    """Four players: Moi & Basile (seats 0, 2) against Alice & Chloé (seats 1, 3)."""
    game = trio(4, "teams")
    deal = full_deal(
        game,
        {
            0: [4, 4, 6, 8, 9, 10, 11, 12, 12],
            1: [1, 1, 2, 2, 3, 3, 5, 5, 6],
            2: [4, 7, 7, 8, 9, 10, 11, 11, 12],
        },
    )
    state, _ = play(game, game.initial_state(), deal)
    return game, state


def test_exchange_at_the_start_is_secret_swap_between_partners() -> None:
    game, state = team_game()
    assert state.exchanges == (0, 1)
    state, (ruling,) = play(game, state, exchange(0, 2, 6, 7))
    assert ruling.reason.code == "exchanged"
    assert 6 not in state.hands[0].cards and state.hands[2].cards[:3] == (4, 6, 7)
    assert state.exchanges == (1,)
    again = game.judge(state, game.parse_action(exchange(2, 0, 4, 4)))
    assert again.reason.code == "exchange_closed" and not again.applies


def test_only_partners_exchange_and_never_mid_turn() -> None:
    game, state = team_game()
    assert game.judge(state, game.parse_action(exchange(0, 1, 4, 1))).reason.code == "not_partners"
    assert game.judge(state, game.parse_action(exchange(0, 2, 5, 1))).reason.code == "exchange_card_missing"
    state, _ = play(game, state, ask(0, 1, "smallest"))
    assert state.exchanges == ()  # the first reveal closes the window
    assert game.judge(state, game.parse_action(exchange(1, 3, 2, 12))).reason.code == "exchange_mid_turn"


def test_after_a_trio_only_the_opposing_teams_may_exchange_and_partners_share_trios() -> None:
    game, state = team_game()
    # Moi asks her partner Basile (allowed, FAQ) and herself: 4, 4, 4.
    state, rulings = play(game, state, ask(0, 0, "smallest"), ask(0, 2, "smallest"), ask(0, 0, "smallest"))
    assert rulings[-1].reason.code == "trio" and state.trios[0] == (4,)
    assert state.exchanges == (1,)
    assert game.judge(state, game.parse_action(exchange(0, 2, 6, 1))).reason.code == "exchange_closed"
    state, _ = play(game, state, exchange(1, 3, 6, 10))
    # Basile's trio later counts for the same team.
    state, _ = play(game, state, ask(1, 1, "smallest"), ask(1, 1, "largest"))  # Alice: 1 then 10: ends
    assert game.scores(state)["teams"][0] == {"players": ["Moi", "Basile"], "trios": [4]}


def test_a_partner_without_cards_cannot_exchange_but_still_plays() -> None:
    game = trio(4, "teams")
    deal = full_deal(game, {0: [1, 1, 1, 2, 2, 2, 3, 3, 3]})
    state, _ = play(game, game.initial_state(), deal)
    state, _ = play(game, state, ask(0, 0, "smallest"), ask(0, 0, "smallest"), ask(0, 0, "smallest"))
    state, _ = play(game, state, ask(1, 0, "smallest"), ask(1, 0, "smallest"), ask(1, 0, "smallest"))
    state, _ = play(game, state, ask(2, 0, "smallest"), ask(2, 1, "largest"))  # 3 then 12: ends
    state, _ = play(game, state, ask(3, 0, "smallest"), ask(3, 0, "largest"), ask(3, 0, "smallest"))
    assert state.hands[0].cards == () and state.trios == ((1,), (2,), (), (3,))
    # Alice & Chloé won the last trio: Moi & Basile may exchange, but Moi has no card left.
    assert state.exchanges == (0,)
    ruling = game.judge(state, game.parse_action(exchange(0, 2, 1, 12)))
    assert ruling.reason.code == "exchange_empty_hand" and ruling.verdict is Verdict.INVALID
    assert "Moi" in ruling.reason.en


def test_a_team_wins_with_shared_trios() -> None:
    game = trio(6, "teams", goal="picante")
    deal = full_deal(game, {0: [3, 3, 3, 12, 12, 12], 3: [4, 4, 4, 11, 11, 11]})
    state, _ = play(game, game.initial_state(), deal)
    state, _ = play(game, state, ask(0, 0, "smallest"), ask(0, 0, "smallest"), ask(0, 0, "smallest"))
    for seat in (1, 2):  # Alice and Basile fail: largest of seat 0 (12) then smallest of seat 3 (4)
        state, _ = play(game, state, ask(seat, 0, "largest"), ask(seat, 3, "smallest"))
    state, rulings = play(game, state, ask(3, 3, "smallest"), ask(3, 3, "smallest"), ask(3, 3, "smallest"))
    assert rulings[-1].reason.code == "trio_wins"
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == (0, 3)
