"""Twin It, competitive mode: every situation of the seed as a scenario (seeds/twin-it.txt and
RULES-NOTES.md): pairs in every visible place, win at 5, triple steal, three identical faces at
once, chain reactions and who restarts, wrong claims, simultaneous claims, the lower hand."""

from __future__ import annotations

from typing import Any

import pytest

from referee.registry import make_game
from referee.twinit.game import TwinItGame
from referee.twinit.types import Capture, TwinItState
from referee.types import Ruling, Verdict

X, Y, Z, W = "twinit:x", "twinit:y", "twinit:z", "twinit:w"
PLAYERS = ["Ana", "Ben", "Cy"]


def game(cards: int = 30, players: list[str] | None = None, **options: Any) -> TwinItGame:
    g = make_game(
        "twinit", players=players or PLAYERS, mode="competitive", options={"cards": cards, **options}
    )
    assert isinstance(g, TwinItGame)
    return g


def step(g: TwinItGame, state: TwinItState, obj: dict[str, Any]) -> tuple[TwinItState, Ruling]:
    """Applies one record line, checking judge agrees with apply and the state stays sound."""
    action = g.parse_action(obj)
    judged = g.judge(state, action)
    new, ruling = g.apply(state, action)
    assert judged == ruling
    assert g.check_state(new) == [], g.check_state(new)
    assert g.state_from_json(g.state_to_json(new)) == new
    if not ruling.applies:
        assert new is state
    return new, ruling


def run(g: TwinItGame, *objs: dict[str, Any], state: TwinItState | None = None) -> TwinItState:
    """Applies every line, each of which must apply."""
    state = g.initial_state() if state is None else state
    for obj in objs:
        state, ruling = step(g, state, obj)
        assert ruling.applies, (obj, ruling)
    return state


def dealt(g: TwinItGame, tops: list[str | None], first: int = 0) -> TwinItState:
    n = g.num_players
    cards = g.setup.opts.cards
    piles = [cards // n + (1 if s < cards % n else 0) for s in range(n)]
    return run(g, {"type": "deal", "piles": piles, "first": first, "tops": tops})


def with_captures(g: TwinItGame, state: TwinItState, seat: int, motifs: list[str]) -> TwinItState:
    """``state`` where ``seat`` already holds pairs of ``motifs``, taken from its own pile."""
    captures = list(state.captures)
    captures[seat] = tuple(Capture(m, 2) for m in motifs)
    piles = list(state.piles)
    piles[seat] = type(piles[seat])(piles[seat].size - 2 * len(motifs), piles[seat].top)
    new = TwinItState(**{**vars(state), "captures": tuple(captures), "piles": tuple(piles)})
    assert g.check_state(new) == []
    return new


def test_a_pair_of_pile_tops_is_won_and_the_winner_restarts() -> None:
    g = game()
    state = dealt(g, [X, Y, X], first=1)
    state, ruling = step(g, state, {"type": "claim", "player": "Ben", "cards": [{"pile": 0}, {"pile": 2}]})
    assert ruling.verdict is Verdict.VALID and ruling.reason.code == "pair"
    assert state.captures[1] == (Capture(X, 2),)
    assert state.turn == 1 and state.last_winner == 1
    assert "relance" in ruling.reason.fr and "restarts" in ruling.reason.en


def test_a_pair_of_table_card_and_pile_top() -> None:
    g = game()
    state = dealt(g, [Y, Z, W], first=0)
    state = run(g, {"type": "play", "player": 0, "face": Z, "top": X}, state=state)
    state, ruling = step(g, state, {"type": "claim", "player": 2, "cards": [{"table": 0}, {"pile": 1}]})
    assert ruling.valid and g.scores(state)["captures"] == {"Ana": 0, "Ben": 0, "Cy": 1}
    assert state.table == ()


def test_turn_order_is_clockwise_and_enforced() -> None:
    g = game()
    state = dealt(g, [X, Y, Z], first=2)
    _, ruling = step(g, state, {"type": "play", "player": 0, "face": W})
    assert not ruling.applies and ruling.reason.code == "not_your_turn"
    state = run(g, {"type": "play", "player": 2, "face": W, "top": Y}, state=state)
    assert state.turn == 0


def test_win_at_five_captures_ends_the_game() -> None:
    g = game()
    state = with_captures(g, dealt(g, [X, X, Y]), 0, [Z, W, "twinit:a", "twinit:b"])
    assert g.outcome(state) is None
    state, ruling = step(g, state, {"type": "claim", "player": 0, "cards": [{"pile": 0}, {"pile": 1}]})
    assert ruling.details["won"] is True
    outcome = g.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.reason.code == "five_captures"
    _, after = step(g, state, {"type": "play", "player": 0, "face": Y})
    assert not after.applies and after.reason.code == "game_over"
    assert g.sample_action(state, __import__("random").Random(0)) is None


def test_target_is_an_option() -> None:
    g = game(target=1)
    state = dealt(g, [X, X, Y])
    state, _ = step(g, state, {"type": "claim", "player": 2, "cards": [{"pile": 0}, {"pile": 1}]})
    assert g.outcome(state).winners == (2,)


def test_triple_steal_moves_all_three_cards() -> None:
    g = game()
    state = with_captures(g, dealt(g, [Y, Z, W]), 1, [X])
    state = run(g, {"type": "play", "player": 0, "face": X, "top": Y}, state=state)
    state, ruling = step(
        g, state, {"type": "claim", "player": "Cy", "cards": [{"capture": ["Ben", 0]}, {"table": 0}]}
    )
    assert ruling.reason.code == "triple_steal" and ruling.details["cards"] == 3
    assert state.captures[1] == () and state.captures[2] == (Capture(X, 3),)
    assert "Vol de triple" in ruling.reason.fr
    # A triple cannot be stolen again.
    state = run(g, {"type": "play", "player": 2, "face": X, "top": Z}, state=state)
    _, again = step(g, state, {"type": "claim", "player": 0, "cards": [{"capture": [2, 0]}, {"table": 1}]})
    assert not again.applies and again.reason.code == "triple_safe"


def test_a_won_pair_can_pair_with_a_pile_top() -> None:
    g = game()
    state = with_captures(g, dealt(g, [X, Z, W]), 1, [X])
    state, ruling = step(
        g, state, {"type": "claim", "player": 2, "cards": [{"pile": 0}, {"capture": [1, 0]}]}
    )
    assert ruling.reason.code == "triple_steal" and state.captures[2] == (Capture(X, 3),)
    assert g.scores(state)["captures"] == {"Ana": 0, "Ben": 0, "Cy": 1}
    assert ruling.details["reveal_piles"] == [0]


def test_three_identical_faces_at_once_the_third_is_turned_over() -> None:
    g = game()
    state = dealt(g, [X, Z, W])
    state = run(
        g,
        {"type": "play", "player": 0, "face": X, "top": Y},
        {"type": "play", "player": 1, "face": X, "top": X},
        state=state,
    )
    # X on table cards 0 and 1 and on top of Ben's pile: Cy covers the two table cards.
    state, ruling = step(g, state, {"type": "claim", "player": 2, "cards": [{"table": 0}, {"table": 1}]})
    assert ruling.valid and ruling.details["turned_over"] == [{"pile": 1}]
    assert state.piles[1].top is None  # turned over: its other face is not known yet
    assert "on retourne le sommet de la pioche de Ben" in ruling.reason.fr
    # No claim can use it until the table reveals it, and play waits for it.
    _, unsure = step(g, state, {"type": "claim", "player": 0, "cards": [{"pile": 1}, {"capture": [2, 0]}]})
    assert unsure.verdict is Verdict.UNCERTAIN and not unsure.applies
    _, wait = step(g, state, {"type": "play", "player": 2, "face": Z})
    assert wait.reason.code == "wait_reveal"
    state, revealed = step(g, state, {"type": "reveal", "player": 1, "face": W})
    assert revealed.valid and state.piles[1].top == W


def test_chain_reaction_reveals_the_next_card_and_the_last_winner_restarts() -> None:
    g = game()
    state = dealt(g, [X, X, Y], first=2)
    # Ben takes the two pile tops: both piles show their next card.
    state, first = step(g, state, {"type": "claim", "player": 1, "cards": [{"pile": 0}, {"pile": 1}]})
    assert first.details["reveal_piles"] == [0, 1] and "chaîne" in first.reason.fr
    assert state.turn == 1
    _, blocked = step(g, state, {"type": "play", "player": 1, "face": Z})
    assert blocked.reason.code == "wait_reveal"
    # The next cards make a new pair with Cy's top at once: Ana takes it and restarts play.
    state = run(
        g, {"type": "reveal", "player": 0, "face": Y}, {"type": "reveal", "player": 1, "face": Z}, state=state
    )
    state, second = step(g, state, {"type": "claim", "player": 0, "cards": [{"pile": 0}, {"pile": 2}]})
    assert second.valid and second.details["reveal_piles"] == [0, 2]
    assert state.last_winner == 0 and state.turn == 0
    state = run(
        g, {"type": "reveal", "player": 0, "face": W}, {"type": "reveal", "player": 2, "face": X}, state=state
    )
    _, wrong_player = step(g, state, {"type": "play", "player": 1, "face": Z})
    assert wrong_player.reason.code == "not_your_turn"
    run(g, {"type": "play", "player": 0, "face": Z}, state=state)


def test_restart_passes_on_when_the_winner_has_no_cards() -> None:
    g = game(cards=6, players=["Ana", "Ben"])
    state = run(g, {"type": "deal", "piles": [1, 5], "first": 1, "tops": [X, X]})
    state, _ = step(g, state, {"type": "claim", "player": 0, "cards": [{"pile": 0}, {"pile": 1}]})
    assert state.piles[0].size == 0 and state.turn == 1 and state.last_winner == 0


def test_wrong_claim_costs_a_capture_put_under_the_claimers_pile() -> None:
    g = game()
    state = with_captures(g, dealt(g, [X, Y, Z], first=1), 0, [W, "twinit:a"])
    size = state.piles[0].size
    state, ruling = step(g, state, {"type": "claim", "player": 0, "cards": [{"pile": 1}, {"pile": 2}]})
    assert ruling.verdict is Verdict.INVALID and ruling.applies and ruling.reason.code == "not_identical"
    assert state.captures[0] == (Capture(W, 2),)  # the last won is given up by default
    assert state.piles[0].size == size + 2 and state.piles[0].top == X  # under the pile: top unchanged
    assert state.turn == 0  # the erring player restarts play
    assert "Pas une paire" in ruling.reason.fr and "under their pile" in ruling.reason.en


def test_wrong_claim_may_name_the_capture_given_up() -> None:
    g = game()
    state = with_captures(g, dealt(g, [X, Y, Z]), 0, [W, "twinit:a"])
    claim = {"type": "claim", "player": 0, "cards": [{"pile": 1}, {"pile": 2}], "forfeit": [0, 0]}
    state, ruling = step(g, state, claim)
    assert state.captures[0] == (Capture("twinit:a", 2),) and ruling.details["forfeit"] == {"capture": [0, 0]}
    _, bad = step(g, state, {**claim, "forfeit": [1, 0]})
    assert not bad.applies and bad.reason.code == "bad_forfeit"


def test_wrong_claim_without_captures_has_nothing_to_lose() -> None:
    g = game()
    state = dealt(g, [X, Y, Z], first=2)
    new, ruling = step(g, state, {"type": "claim", "player": 1, "cards": [{"pile": 0}, {"pile": 2}]})
    assert ruling.verdict is Verdict.INVALID and ruling.applies
    assert "no capture to lose" in ruling.reason.en and "aucune prise à perdre" in ruling.reason.fr
    assert new.captures == state.captures and new.piles == state.piles and new.turn == 1


def test_the_other_penalty_puts_the_wrongly_claimed_cards_under_the_pile() -> None:
    """RULES-NOTES: one source puts the two cards of the wrong claim under the pile (option)."""
    g = game(penalty="cards")
    state = with_captures(g, dealt(g, [X, Y, Z], first=1), 0, [W])
    state = run(g, {"type": "play", "player": 1, "face": W, "top": X}, state=state)
    sizes = [p.size for p in state.piles]
    state, ruling = step(g, state, {"type": "claim", "player": 0, "cards": [{"table": 0}, {"pile": 2}]})
    assert ruling.reason.code == "not_identical" and ruling.applies and ruling.verdict is Verdict.INVALID
    assert state.captures[0] == (Capture(W, 2),)  # no capture is given up
    assert state.table == () and [p.size for p in state.piles] == [sizes[0] + 2, sizes[1], sizes[2] - 1]
    assert state.piles[0].top == X and state.piles[2].top is None  # Cy's pile shows its next card
    assert ruling.details["reveal_piles"] == [2] and state.turn == 0
    assert "sous sa pioche" in ruling.reason.fr and "under their pile" in ruling.reason.en
    _, named = step(
        g,
        state,
        {"type": "claim", "player": 0, "cards": [{"pile": 1}, {"capture": [0, 0]}], "forfeit": [0, 0]},
    )
    assert named.reason.code == "bad_forfeit" and not named.applies


def test_wrong_claim_into_an_empty_pile_makes_its_top_unknown() -> None:
    g = game(cards=6, players=["Ana", "Ben"])
    state = run(g, {"type": "deal", "piles": [2, 4], "first": 0, "tops": [X, X]})
    state = run(g, {"type": "claim", "player": 0, "cards": [{"pile": 0}, {"pile": 1}]}, state=state)
    state = run(
        g, {"type": "reveal", "player": 0, "face": Y}, {"type": "reveal", "player": 1, "face": Z}, state=state
    )
    state = run(g, {"type": "play", "player": 0, "face": W}, state=state)  # Ana's pile is now empty
    state, ruling = step(g, state, {"type": "claim", "player": 0, "cards": [{"table": 0}, {"pile": 1}]})
    assert ruling.applies and state.piles[0].size == 2 and state.piles[0].top is None
    assert state.turn == 0


def test_simultaneous_claims_count_to_three_and_turn_the_pair_over() -> None:
    g = game()
    state = dealt(g, [X, X, Y])
    _, split = step(g, state, {"type": "claim", "players": [0, 1], "cards": [{"pile": 0}, {"pile": 1}]})
    assert (
        not split.applies
        and split.reason.code == "not_one_claimer"
        and "comptez jusqu'à 3" in split.reason.fr
    )
    state, ruling = step(
        g, state, {"type": "tie", "players": ["Ana", "Ben"], "cards": [{"pile": 0}, {"pile": 1}]}
    )
    assert ruling.valid and ruling.reason.code == "tie_flip"
    assert state.piles[0].top is None and state.piles[1].top is None
    assert state.captures == ((), (), ())
    assert ruling.details["turned_over"] == [{"pile": 0}, {"pile": 1}]


def test_a_tie_over_a_won_pair_turns_only_the_new_card() -> None:
    g = game()
    state = with_captures(g, dealt(g, [X, Z, W]), 1, [X])
    state, ruling = step(
        g, state, {"type": "tie", "players": [2, 1], "cards": [{"pile": 0}, {"capture": [1, 0]}]}
    )
    assert ruling.details["turned_over"] == [{"pile": 0}]
    assert state.captures[1] == (Capture(X, 2),)


def test_a_tie_needs_a_pair() -> None:
    g = game()
    state = dealt(g, [X, Y, Z])
    _, ruling = step(g, state, {"type": "tie", "players": [0, 1], "cards": [{"pile": 0}, {"pile": 1}]})
    assert not ruling.applies and ruling.reason.code == "tie_not_pair"
    _, alone = step(g, state, {"type": "tie", "players": [0, 0], "cards": [{"pile": 0}, {"pile": 1}]})
    assert alone.reason.code == "tie_one_player"


def test_two_hands_on_one_card_the_lower_hand_wins() -> None:
    g = game()
    state = dealt(g, [X, X, Y])
    state, ruling = step(
        g, state, {"type": "claim", "player": "Ben", "cards": [{"pile": 0}, {"pile": 1}], "beaten": ["Cy"]}
    )
    assert ruling.valid and state.captures[1] == (Capture(X, 2),) and state.captures[2] == ()
    assert (
        ruling.details["beaten"] == [2] and "lower hand" in ruling.reason.en and "dessous" in ruling.reason.fr
    )
    _, nonsense = step(
        g,
        dealt(g, [X, X, Y]),
        {"type": "claim", "player": 1, "cards": [{"pile": 0}, {"pile": 1}], "beaten": [1]},
    )
    assert not nonsense.applies and nonsense.reason.code == "beaten_claimer"


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        ([{"pile": 0}], "two_hands"),
        ([{"pile": 0}, {"pile": 0}], "same_card"),
        ([{"pile": 0}, {"table": 9}], "no_such_card"),
        ([{"capture": [1, 0]}, {"capture": [1, 1]}], "two_captures"),
    ],
)
def test_claims_on_cards_not_in_sight_are_refused(cards: list[dict[str, Any]], code: str) -> None:
    g = game()
    state = with_captures(g, dealt(g, [X, Y, Z]), 1, [X, X])
    before = g.state_to_json(state)
    new, ruling = step(g, state, {"type": "claim", "player": 0, "cards": cards})
    assert ruling.reason.code == code and not ruling.applies and g.state_to_json(new) == before


def test_end_only_when_no_card_and_no_pair_is_left() -> None:
    g = game(cards=4, players=["Ana", "Ben"])
    state = run(g, {"type": "deal", "piles": [2, 2], "first": 0, "tops": [X, Y]})
    _, early = step(g, state, {"type": "end"})
    assert early.reason.code == "cards_left"
    state = run(
        g,
        {"type": "play", "player": 0, "face": Z, "top": W},
        {"type": "play", "player": 1, "face": "twinit:v", "top": X},
        {"type": "play", "player": 0, "face": "twinit:u"},
        {"type": "play", "player": 1, "face": Z},
        state=state,
    )
    assert state.turn is None and [c.face for c in state.table] == [Z, "twinit:v", "twinit:u", Z]
    _, pair = step(g, state, {"type": "end"})
    assert pair.reason.code == "pair_in_sight"
    _, no_cards = step(g, state, {"type": "play", "player": 0, "face": W})
    assert no_cards.reason.code == "no_cards_left"
    state = run(g, {"type": "claim", "player": 1, "cards": [{"table": 3}, {"table": 0}]}, state=state)
    state, ended = step(g, state, {"type": "end"})
    assert ended.valid
    outcome = g.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and outcome.reason.code == "most"


def test_end_with_no_capture_at_all_is_a_draw() -> None:
    g = game(cards=2, players=["Ana", "Ben"])
    state = run(
        g,
        {"type": "deal", "piles": [1, 1], "first": 0, "tops": [X, Y]},
        {"type": "play", "player": 0, "face": Z},
        {"type": "play", "player": 1, "face": W},
        {"type": "end"},
    )
    outcome = g.outcome(state)
    assert outcome is not None and outcome.draw and outcome.winners == ()


def test_deal_must_hold_the_whole_deck() -> None:
    g = game(cards=10, players=["Ana", "Ben"])
    _, short = step(g, g.initial_state(), {"type": "deal", "piles": [4, 5], "first": 0})
    assert short.reason.code == "deal_count"
    state = run(g, {"type": "deal", "piles": [5, 5], "first": 1})
    assert g.check_state(state) == [] and state.turn == 1
    _, again = step(g, state, {"type": "deal", "piles": [5, 5], "first": 1})
    assert again.reason.code == "already_dealt"
    _, taboo = step(g, g.initial_state(), {"type": "deal", "piles": [5, 5], "first": 0, "taboo": [X, Y, Z]})
    assert taboo.reason.code == "no_taboo_variant"


def test_reveals_only_name_unknown_faces() -> None:
    g = game()
    state = run(g, {"type": "deal", "piles": [10, 10, 10], "first": 0, "tops": [X, None, None]})
    _, play = step(g, state, {"type": "play", "player": 0, "face": Y})
    assert play.reason.code == "wait_reveal" and play.details["pending"] == [{"pile": 1}, {"pile": 2}]
    _, known = step(g, state, {"type": "reveal", "player": 0, "face": Y})
    assert known.reason.code == "already_visible"
    state = run(
        g,
        {"type": "reveal", "player": 1, "face": Y},
        {"type": "reveal", "player": "Cy", "face": Z},
        state=state,
    )
    assert [p.top for p in state.piles] == [X, Y, Z]


def test_every_ruling_reason_is_bilingual() -> None:
    g = game()
    state = dealt(g, [X, X, Y])
    for obj in (
        {"type": "claim", "player": 0, "cards": [{"pile": 0}, {"pile": 1}]},
        {"type": "claim", "player": 0, "cards": [{"pile": 0}, {"pile": 2}]},
        {"type": "tie", "players": [0, 2], "cards": [{"pile": 0}, {"pile": 1}]},
        {"type": "play", "player": 2, "face": X},
        {"type": "end"},
    ):
        ruling = g.judge(state, g.parse_action(obj))
        assert ruling.reason.en and ruling.reason.fr and ruling.reason.en != ruling.reason.fr


def test_a_player_may_complete_their_own_pair_into_a_triple() -> None:
    g = game()
    state = with_captures(g, dealt(g, [X, Z, W]), 1, [X, Y])
    state, ruling = step(
        g, state, {"type": "claim", "player": 1, "cards": [{"capture": [1, 0]}, {"pile": 0}]}
    )
    assert ruling.reason.code == "triple_own" and state.captures[1] == (Capture(Y, 2), Capture(X, 3))
    assert g.scores(state)["captures"]["Ben"] == 2


def test_a_claim_may_carry_the_cameras_view_of_the_covered_cards() -> None:
    g = game()
    state = run(g, {"type": "deal", "piles": [10, 10, 10], "first": 0, "tops": [X, None, Y]})
    claim = {"type": "claim", "player": 2, "cards": [{"pile": 0}, {"pile": 1}]}
    _, unsure = step(g, state, claim)
    assert unsure.verdict is Verdict.UNCERTAIN and unsure.reason.code == "face_unknown"
    # The camera saw Ben's top as X when the hands landed: the claim carries it.
    state, ruling = step(g, state, {**claim, "faces": [None, X]})
    assert ruling.reason.code == "pair" and state.captures[2] == (Capture(X, 2),)
    # A view that contradicts a known face is left to the table.
    state = run(
        g, {"type": "reveal", "player": 0, "face": Z}, {"type": "reveal", "player": 1, "face": Z}, state=state
    )
    new, clash = step(g, state, {**claim, "faces": [W, Z]})
    assert clash.verdict is Verdict.UNCERTAIN and clash.reason.code == "faces_disagree" and new is state
    assert "la table décide" in clash.reason.fr


def test_a_wrong_claim_carrying_faces_keeps_them() -> None:
    g = game()
    state = run(g, {"type": "deal", "piles": [10, 10, 10], "first": 0, "tops": [X, None, Y]})
    state, ruling = step(
        g, state, {"type": "claim", "player": 0, "cards": [{"pile": 0}, {"pile": 1}], "faces": [X, W]}
    )
    assert ruling.reason.code == "not_identical" and state.piles[1].top == W
