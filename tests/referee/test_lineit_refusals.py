"""Line-it: every refused ruling, as a table: the ruling names why, in both languages, with cards
read as players say them, and changes nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

import pytest

from referee.lineit.actions import Action, Close, EndTurn, Market, Pass, Play, Take
from referee.lineit.game import LineItGame
from referee.lineit.state import FINAL_PLAYS, OVER, LineItState, Seat
from referee.types import Verdict
from tests.referee.test_lineit import card, dealt, game, with_seat

Table = Callable[[LineItGame], LineItState]
MARKET = [card(10), card(20), card(30), card(40)]


def fresh(g: LineItGame) -> LineItState:
    return g.initial_state()


def market(g: LineItGame) -> LineItState:
    return dealt(g, MARKET)


def seat0(**fields: object) -> Table:
    """The dealt market with player 0's cards set."""
    return lambda g: with_seat(dealt(g, MARKET), 0, **fields)


def after(table: Table, *actions: Action) -> Table:
    def build(g: LineItGame) -> LineItState:
        state = table(g)
        for action in actions:
            state, ruling = g.apply(state, action)
            assert ruling.applies, ruling.reason.en
        return state

    return build


def final(phase: str) -> Table:
    """End of the game: P0's rising line 10 20 with 30 and 25 in hand; P1's line 99, 98 in hand."""

    def build(g: LineItGame) -> LineItState:
        held = {card(10), card(20), card(30), card(25), card(99), card(98)}
        seats = (
            Seat(line=(card(10), card(20)), hand=(card(30), card(25))),
            Seat(line=(card(99),), hand=(card(98),)),
        )
        rest = tuple(c for c in g.deck.cards if c not in held)
        state = replace(g.initial_state(), phase=phase, deck=(), seats=seats, discard=rest, round=25)
        if phase == OVER:
            state = replace(state, seats=tuple(replace(s, line=()) for s in seats))
            state = replace(state, discard=tuple(sorted([*rest, card(10), card(20), card(99)])))
        assert not g.check_state(state), g.check_state(state)
        return state

    return build


CASES: list[tuple[str, Table, Action, str]] = [
    ("game_over", final(OVER), Market(tuple(MARKET)), "The game is over."),
    ("market_due", fresh, Take(0, card(10), "line"), "The market must be dealt first."),
    ("market_size", fresh, Market((card(1), card(2))), "The market has 4 cards (players + 2), not 2."),
    (
        "not_in_deck",
        after(market, Take(0, card(10), "line"), EndTurn(0), Take(1, card(20), "hand"), EndTurn(1)),
        Market((card(10), card(1), card(2), card(3))),
        "10 leaf is not in the deck any more.",
    ),
    ("no_market_now", market, Market((card(1), card(2), card(3), card(4))), ""),
    ("not_your_turn", market, Take(1, card(10), "line"), "It is P0's turn, not P1's."),
    ("not_in_market", market, Take(0, card(11), "line"), "11 diamond is not in the market."),
    ("took_already", after(market, Take(0, card(10), "line")), Take(0, card(20), "hand"), ""),
    ("hand_full", seat0(hand=(card(50), card(60))), Take(0, card(10), "hand"), ""),
    (
        "must_close",
        seat0(line=(card(60), card(70)), hand=(card(5), card(6))),
        Take(0, card(10), "hand"),
        "No market card fits your line and your hand is full: close your line first.",
    ),
    (
        "breaks_line",
        seat0(line=(card(50), card(60))),
        Take(0, card(10), "line"),
        "The line is rising: 10 does not follow 60.",
    ),
    (
        "breaks_line",
        seat0(line=(card(60), "bet:+3", card(50)), hand=(card(70),)),
        Play(0, card(70)),
        "The line is falling: 70 does not follow 50.",
    ),
    ("one_bet_per_line", seat0(line=("bet:+3", card(5)), hand=("bet:+4",)), Play(0, "bet:+4"), ""),
    ("not_in_hand", seat0(hand=(card(50),)), Play(0, card(49)), "49 heart is not in your hand."),
    (
        "played_already",
        after(seat0(hand=(card(50), card(60))), Play(0, card(50))),
        Play(0, card(60)),
        "",
    ),
    ("empty_line", market, Close(0, ()), "Your line is empty."),
    (
        "discard_three",
        seat0(line=(card(1), card(2), card(3), card(4))),
        Close(0, (card(1), card(2))),
        "Closing discards three number cards of the line, not 1 heart and 2 leaf.",
    ),
    (
        "discard_three",
        seat0(line=(card(1), card(2))),
        Close(0, (card(1),)),
        "Closing discards both number cards of the line, not 1 heart.",
    ),
    (
        "discard_three",
        seat0(line=("bet:+3", card(1), card(2), card(3), card(4))),
        Close(0, ("bet:+3", card(1), card(2))),
        "Closing discards three number cards of the line, not bet +3, 1 heart and 2 leaf.",
    ),
    (
        "closed_already",
        after(seat0(line=(card(1), card(2))), Close(0, ()), Take(0, card(10), "line")),
        Close(0, ()),
        "",
    ),
    ("must_take", market, EndTurn(0), "You must take a market card before ending your turn."),
    ("no_turn", final(FINAL_PLAYS), EndTurn(0), ""),
    ("no_market", final(FINAL_PLAYS), Take(0, card(10), "line"), ""),
    ("final_plays", final(FINAL_PLAYS), Close(0, ()), ""),
    ("no_pass", market, Pass(0), "Passing is only for the end-of-game plays."),
    (
        "closing_time",
        after(final(FINAL_PLAYS), Play(0, card(25)), Play(1, card(98)), Play(0, card(30))),
        Play(0, card(30)),
        "",
    ),
]


@pytest.mark.parametrize(("code", "table", "action", "en"), CASES, ids=[c[0] for c in CASES])
def test_refused_actions_name_why_and_change_nothing(
    code: str, table: Table, action: Action, en: str
) -> None:
    g = game(2)
    state = table(g)
    before = g.state_to_json(state)
    ruling = g.judge(state, action)
    new, applied = g.apply(state, action)
    assert applied == ruling and ruling.reason.code == code, ruling.reason.en
    assert (ruling.verdict, ruling.applies) == (Verdict.INVALID, False)
    assert new is state and g.state_to_json(state) == before
    reason = ruling.reason
    assert reason.en.endswith(".") and reason.fr.endswith(".") and reason.en != reason.fr
    for text in (reason.en, reason.fr):
        assert not re.search(r"\[|\d+:[a-z]|bet:", text), text  # no Python lists, no raw card ids
    if en:
        assert reason.en == en


def test_every_refusal_code_is_in_the_table() -> None:
    import referee.lineit.reasons as reasons

    with open(reasons.__file__, encoding="utf-8") as f:
        source = f.read()
    codes = set(re.findall(r'refused\(\s*"([a-z_]+)"', source))
    assert codes == {c[0] for c in CASES}


@pytest.mark.parametrize(
    ("code", "table", "action", "fr"),
    [
        ("not_your_turn", market, Take(1, card(10), "line"), "C'est au tour de P0, pas de P1."),
        ("not_in_market", market, Take(0, card(11), "line"), "11 diamant n'est pas dans le marché."),
        ("not_in_hand", seat0(hand=("bet:+3",)), Play(0, "bet:+4"), "Pari +4 n'est pas dans votre main."),
        (
            "discard_three",
            seat0(line=(card(1), card(2), card(3), card(4))),
            Close(0, (card(1), card(2))),
            "Fermer défausse trois cartes Numéro de la ligne, pas 1 cœur et 2 feuille.",
        ),
        (
            "breaks_line",
            seat0(line=(card(60), card(50)), hand=(card(70),)),
            Play(0, card(70)),
            "La ligne est décroissante : 70 ne peut pas suivre 50.",
        ),
    ],
)
def test_french_reasons_read_naturally(code: str, table: Table, action: Action, fr: str) -> None:
    g = game(2)
    ruling = g.judge(table(g), action)
    assert (ruling.reason.code, ruling.reason.fr) == (code, fr)


def test_valid_rulings_name_cards_and_jackpots_in_both_languages() -> None:
    g = game(2, bets={"3": 0, "4": 0, "5": 0})
    empty = with_seat(dealt(g, [card(9), card(13), card(30), card(40)]), 0, line=(card(1), card(5)))
    _, ruling = g.apply(empty, Take(0, card(9), "line"))
    assert (
        ruling.reason.en == "P0 plays 9 heart from the market. Third heart card: the heart jackpot is empty."
    )
    assert ruling.reason.fr == (
        "P0 joue 9 cœur depuis le marché. Troisième carte cœur : le jackpot cœur est vide."
    )
    deck = tuple(c for c in empty.deck if c != card(97))
    state = replace(empty, jackpots=((card(97),), (), (), ()), deck=deck)
    _, ruling = g.apply(state, Take(0, card(9), "line"))
    assert ruling.reason.en == (
        "P0 plays 9 heart from the market. Third heart card: P0 wins the heart jackpot (1 card)."
    )
    assert ruling.reason.fr == (
        "P0 joue 9 cœur depuis le marché. Troisième carte cœur : P0 gagne le jackpot cœur (1 carte)."
    )
    _, ruling = g.apply(state, Take(0, card(13), "hand"))
    assert (ruling.reason.en, ruling.reason.fr) == ("P0 keeps 13 heart in hand.", "P0 garde 13 cœur en main.")
    _, ruling = g.apply(state, Market(tuple(state.market)))
    assert ruling.reason.code == "no_market_now"
