"""Scenario tests pinning Line-it's rules (seeds/line-it.txt, RULES-NOTES)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from referee.errors import InvalidConfig, InvalidState, MalformedAction
from referee.lineit.actions import Close, EndTurn, Market, Pass, Play, Take
from referee.lineit.game import LineItGame
from referee.lineit.lines import bet_result, fits
from referee.lineit.state import DEAL, FINAL_CLOSE, FINAL_PLAYS, OVER, TURNS, LineItState, Seat, Turn
from referee.registry import make_game
from referee.types import Verdict


def game(players: int = 2, **options: object) -> LineItGame:
    g = make_game("lineit", [f"P{i}" for i in range(players)], options=options)
    assert isinstance(g, LineItGame)
    return g


def card(n: int) -> str:
    """Number card ``n`` with the default cyclic colours."""
    return f"{n}:{('heart', 'leaf', 'diamond', 'star')[(n - 1) % 4]}"


def dealt(g: LineItGame, market: list[str]) -> LineItState:
    state, ruling = g.apply(g.initial_state(), Market(tuple(market)))
    assert ruling.valid, ruling
    return state


def with_seat(state: LineItState, player: int, **fields: object) -> LineItState:
    """``state`` with a player's cards set, the cards taken from the deck to keep the count."""
    seat = replace(state.seats[player], **fields)
    moved = [*seat.line, *seat.hand, *seat.score_pile]
    deck = list(state.deck)
    for c in moved:
        deck.remove(c)
    return replace(state.with_seat(player, seat), deck=tuple(deck))


def test_the_second_number_card_fixes_the_direction() -> None:
    assert fits([card(10)], card(5)) and fits([card(10)], card(50))
    assert fits([card(10), card(20)], card(21))
    assert not fits([card(10), card(20)], card(15))
    assert fits([card(40), card(30)], card(2))
    assert not fits([card(40), card(30)], card(35))
    assert fits(["bet:+3", card(40)], card(41)), "the bet card does not count for the direction"


def test_a_line_takes_one_bet_card_at_most() -> None:
    assert fits([card(10)], "bet:+4")
    assert not fits([card(10), "bet:+3"], "bet:+4")


@pytest.mark.parametrize(
    ("line", "token"),
    [
        (["bet:+3", card(1), card(2), card(3)], 3),
        (["bet:+3", card(1), card(2)], -3),
        ([card(1), "bet:+4", card(2), card(3), card(4), card(5)], 4),
        ([card(1), card(2), card(3), card(4), "bet:+5"], -5),
        ([card(1), card(2)], 0),
    ],
)
def test_a_bet_is_won_with_at_least_as_many_number_cards_after_it(line: list[str], token: int) -> None:
    assert bet_result(line) == token


def test_taking_into_the_line_and_the_hand_and_turn_order() -> None:
    g = game(2)
    state = dealt(g, [card(10), card(20), card(30), card(40)])
    assert state.phase == TURNS and g.current_player(state) == 0
    ruling = g.judge(state, Take(1, card(10), "line"))
    assert ruling.verdict is Verdict.INVALID and not ruling.applies and ruling.reason.code == "not_your_turn"
    assert not g.judge(state, EndTurn(0)).applies, "a market card must be taken first"
    state, ruling = g.apply(state, Take(0, card(10), "line"))
    assert ruling.valid and state.seats[0].line == (card(10),)
    assert g.judge(state, Take(0, card(20), "hand")).reason.code == "took_already"
    state, _ = g.apply(state, EndTurn(0))
    state, _ = g.apply(state, Take(1, card(30), "hand"))
    state, ruling = g.apply(state, EndTurn(1))
    assert ruling.reason.code == "end_round"
    # leftovers go under their colour's jackpot; the first-player token passes left
    assert state.phase == DEAL and state.first_player == 1
    assert state.jackpots[3] == (card(20), card(40)) and state.jackpots[0] == ()
    assert not g.check_state(state)


def test_hand_is_limited_to_two_cards_and_one_hand_card_per_turn() -> None:
    g = game(2)
    state = with_seat(dealt(g, [card(10), card(20), card(30), card(40)]), 0, hand=(card(50), card(60)))
    assert g.judge(state, Take(0, card(10), "hand")).reason.code == "hand_full"
    state, ruling = g.apply(state, Play(0, card(50)))
    assert ruling.valid
    assert g.judge(state, Play(0, card(60))).reason.code == "played_already"
    state, ruling = g.apply(state, Take(0, card(10), "hand"))
    assert ruling.valid and state.seats[0].hand == (card(60), card(10))


def test_forced_close_when_no_market_card_can_be_played_or_kept() -> None:
    g = game(2)
    state = dealt(g, [card(10), card(20), card(30), card(40)])
    state = with_seat(state, 0, line=(card(60), card(70)), hand=(card(5), card(6)))
    for c in state.market:
        assert not g.judge(state, Take(0, c, "line")).applies
        assert not g.judge(state, Take(0, c, "hand")).applies
    # the player must close: afterwards any card starts a new line
    state, ruling = g.apply(state, Close(0, ()))
    assert ruling.valid and state.seats[0].line == () and state.seats[0].score_pile == ()
    assert g.judge(state, Take(0, card(10), "line")).valid
    assert g.judge(state, Close(0, ())).reason.code in ("closed_already", "empty_line")


def test_closing_discards_three_chosen_cards_and_scores_the_rest() -> None:
    g = game(2)
    state = dealt(g, [card(90), card(91), card(92), card(93)])
    line = ("bet:+3", card(1), card(2), card(3), card(4), card(5))
    state = with_seat(state, 0, line=line)
    wrong = g.judge(state, Close(0, (card(1), card(2))))
    assert not wrong.applies and wrong.reason.code == "discard_three"
    assert not g.judge(state, Close(0, (card(1), card(2), "bet:+3"))).applies
    state, ruling = g.apply(state, Close(0, (card(1), card(3), card(5))))
    assert ruling.valid and ruling.details["token"] == 3
    seat = state.seats[0]
    assert seat.score_pile == (card(2), card(4)) and seat.tokens == (3,) and seat.score == 5
    assert "bet:+3" in state.discard and not g.check_state(state)


def test_a_lost_bet_is_a_malus_and_a_short_line_scores_nothing() -> None:
    g = game(2)
    state = with_seat(
        dealt(g, [card(90), card(91), card(92), card(93)]), 0, line=(card(1), "bet:+5", card(2))
    )
    state, ruling = g.apply(state, Close(0, ()))
    assert ruling.valid and state.seats[0].tokens == (-5,) and state.seats[0].score == -5


def test_the_third_card_of_a_colour_wins_its_jackpot_once_per_line() -> None:
    g = game(2)
    state = dealt(g, [card(9), card(13), card(30), card(40)])  # 9 and 13 are hearts
    state = replace(
        state, jackpots=((card(97),), (), (), ()), deck=tuple(c for c in state.deck if c != card(97))
    )
    state = with_seat(state, 0, line=(card(1), card(5)), hand=(card(17),))
    state, ruling = g.apply(state, Take(0, card(9), "line"))
    assert ruling.details["jackpot"] == [card(97)] and state.seats[0].score_pile == (card(97),)
    assert state.jackpots[0] == ()
    state = replace(
        state, jackpots=((card(93),), (), (), ()), deck=tuple(c for c in state.deck if c != card(93))
    )
    state, ruling = g.apply(state, Play(0, card(17)))  # the fourth heart wins nothing more
    assert ruling.details["jackpot"] == [] and state.jackpots[0] == (card(93),)
    assert not g.check_state(state)


def test_end_of_game_final_plays_then_every_line_closes() -> None:
    g = game(2, bets={"3": 0, "4": 0, "5": 0})
    state = g.initial_state()
    keep = (card(1), card(2), card(3), card(4), card(5))
    # Leave 5 cards in the deck: one round of 4, then 1 left (not enough for another market).
    state = replace(state, deck=keep, discard=tuple(sorted(c for c in state.deck if c not in keep)), round=24)
    state, _ = g.apply(state, Market((card(1), card(2), card(3), card(4))))
    state = replace(state, seats=(Seat(line=(card(50),), hand=(card(60), card(70))), Seat()))
    state = replace(state, discard=tuple(c for c in state.discard if c not in (card(50), card(60), card(70))))
    assert not g.check_state(state)
    assert g.judge(state, Take(0, card(1), "hand")).reason.code == "hand_full"
    state, _ = g.apply(state, Take(0, card(1), "line"))
    state, _ = g.apply(state, EndTurn(0))
    state, _ = g.apply(state, Take(1, card(2), "line"))
    state, ruling = g.apply(state, EndTurn(1))
    assert ruling.reason.code == "last_round"
    assert state.deck == () and card(5) in state.jackpots[0] and card(3) in state.jackpots[2]
    # P1's hand is empty and P0's falling line (50, 1) takes neither 60 nor 70: no final play is
    # possible, so the game goes straight to closing the lines, from the new first player P1.
    assert state.phase == FINAL_CLOSE and g.current_player(state) == 1
    assert not g.check_state(state)


def test_final_plays_and_closing_reach_the_outcome() -> None:
    g = game(2, bets={"3": 0, "4": 0, "5": 0})
    state = replace(
        g.initial_state(),
        phase=FINAL_PLAYS,
        deck=(),
        seats=(
            Seat(line=(card(10), card(20)), hand=(card(30), card(25))),
            Seat(line=(card(99),), hand=(card(98),)),
        ),
        first_player=0,
    )
    rest = sorted(set(g.deck.cards) - {card(10), card(20), card(30), card(25), card(99), card(98)})
    state = replace(state, discard=tuple(rest))
    assert not g.check_state(state)
    state, ruling = g.apply(state, Play(0, card(25)))
    assert ruling.valid and g.current_player(state) == 1
    state, _ = g.apply(state, Pass(1))
    state, ruling = g.apply(state, Play(0, card(30)))
    assert ruling.valid
    # P1 passed the first time; the second time too
    state, _ = g.apply(state, Play(1, card(98)))
    assert state.phase == FINAL_CLOSE
    assert g.judge(state, Play(1, card(98))).applies is False
    state, ruling = g.apply(state, Close(0, (card(10), card(20), card(25))))
    assert ruling.valid and state.seats[0].score == 1
    state, ruling = g.apply(state, Close(1, ()))
    assert state.phase == OVER
    outcome = g.outcome(state)
    assert outcome is not None and outcome.winners == (0,)


def test_ties_share_the_victory() -> None:
    g = game(3)
    state = replace(g.initial_state(), phase=OVER)
    outcome = g.outcome(state)
    assert outcome is not None and outcome.winners == (0, 1, 2) and outcome.reason.code == "shared_victory"


@pytest.mark.parametrize(
    "obj",
    [
        {"type": "take", "player": 0, "card": "57:leaf", "to": "line"},  # 57 is a heart
        {"type": "take", "player": 0, "card": "57:heart", "to": "pocket"},
        {"type": "take", "player": 9, "card": "57:heart", "to": "line"},
        {"type": "market", "cards": "57:heart"},
        {"type": "fly"},
        {"card": "1:heart"},
    ],
)
def test_malformed_actions_raise_quoting_the_input(obj: dict) -> None:
    with pytest.raises(MalformedAction) as info:
        game(2).parse_action(obj)
    assert str(obj)[:20] in str(info.value) or repr(obj.get("type")) in str(info.value)


def test_configs_are_checked() -> None:
    with pytest.raises(InvalidConfig):
        game(5)
    with pytest.raises(InvalidConfig):
        game(2, bets={"7": 1})


def test_a_market_must_come_from_the_deck() -> None:
    g = game(2)
    state = dealt(g, [card(1), card(2), card(3), card(4)])
    assert state.round == 1
    next_round = replace(state, phase=DEAL, market=(), turn=Turn())
    next_round = replace(next_round, discard=tuple(sorted([*state.market])))
    ruling = g.judge(next_round, Market((card(1), card(5), card(6), card(7))))
    assert not ruling.applies and ruling.reason.code == "not_in_deck"
    assert g.judge(next_round, Market((card(5), card(6)))).reason.code == "market_size"


@pytest.mark.parametrize(
    ("line", "card_", "fits_"),
    [
        ([], card(50), True),
        ([], "bet:+5", True),
        (["bet:+5"], card(50), True),
        ([card(50)], card(1), True),
        ([card(50)], card(100), True),
        ([card(50), card(51)], card(49), False),  # rising from the second card
        ([card(50), card(49)], card(51), False),  # falling from the second card
        ([card(50), "bet:+3", card(40)], card(39), True),
        ([card(50), "bet:+3", card(40)], card(45), False),
        ([card(50), card(60)], "bet:+3", True),
        (["bet:+4", card(50), card(60)], "bet:+3", False),
    ],
)
def test_direction_table(line: list[str], card_: str, fits_: bool) -> None:
    assert fits(line, card_) is fits_


@pytest.mark.parametrize(
    ("line", "hand", "must_close"),
    [
        ((card(60), card(70)), (card(5), card(6)), True),  # nothing fits, hand full, hand useless
        ((card(60), card(70)), (card(5), card(80)), False),  # play 80 from hand first: room in hand
        ((card(60), card(70)), (card(5),), False),  # room in hand
        ((card(60), card(50)), (card(5), card(6)), False),  # a falling line takes 40, 30...
        ((), (card(5), card(6)), False),  # an empty line takes anything
    ],
)
def test_forced_close_table(line: tuple[str, ...], hand: tuple[str, ...], must_close: bool) -> None:
    """'Must close when no market card can be played or kept': the player may first play a hand
    card to make room; otherwise taking is refused until the line is closed."""
    g = game(2)
    state = with_seat(dealt(g, [card(10), card(20), card(30), card(40)]), 0, line=line, hand=hand)
    takes = [Take(0, c, to) for c in state.market for to in ("line", "hand")]
    plays = [Play(0, c) for c in hand if g.judge(state, Play(0, c)).applies]
    reachable = [state] + [g.apply(state, p)[0] for p in plays]
    can_take = any(g.judge(s, t).applies for s in reachable for t in takes)
    assert can_take is not must_close
    assert {g.judge(state, t).reason.code == "must_close" for t in takes} == {must_close}
    assert not g.judge(state, EndTurn(0)).applies
    if must_close:
        closed, ruling = g.apply(state, Close(0, ()))
        assert ruling.valid and all(g.judge(closed, Take(0, c, "line")).applies for c in closed.market)


def test_market_bets_are_discarded_and_the_deck_goes_to_the_jackpots_at_the_end() -> None:
    g = game(2, bets={"3": 2, "4": 0, "5": 0})
    keep = (card(1), card(2), "bet:+3", card(4), card(5), "bet:+3")
    state = replace(
        g.initial_state(),
        deck=tuple(sorted(keep)),
        discard=tuple(sorted(c for c in g.deck.cards if c not in keep)),
    )
    state, _ = g.apply(state, Market((card(1), card(2), "bet:+3", card(4))))
    for p, c in ((0, card(1)), (1, card(2))):
        state, _ = g.apply(state, Take(p, c, "line"))
        state, ruling = g.apply(state, EndTurn(p))
    assert ruling.reason.code == "last_round"  # two cards left: no market of four
    assert state.deck == () and state.market == ()
    assert state.jackpots[3] == (card(4),) and state.jackpots[0] == (card(5),)
    assert state.discard.count("bet:+3") == 2
    assert not g.check_state(state)


def test_end_of_game_plays_start_from_the_new_first_player_and_win_jackpots() -> None:
    """Decision: the token passes at the end of the last round, as after every round; the final
    plays start from its new holder. A third card of a colour played then wins its jackpot,
    which now holds the rest of the deck."""
    g = game(2, bets={"3": 0, "4": 0, "5": 0})
    keep = (card(11), card(12), card(13), card(14), card(15))  # diamond star heart leaf diamond
    seats = (
        Seat(line=(card(3),), hand=(card(19),)),  # 3 and 19 are diamonds
        Seat(line=(card(90), card(80)), hand=(card(70), card(60))),
    )
    held = {*keep, card(3), card(19), card(90), card(80), card(70), card(60)}
    state = replace(
        g.initial_state(),
        seats=seats,
        deck=keep,
        discard=tuple(c for c in g.deck.cards if c not in held),
        round=20,
        first_player=1,
    )
    assert not g.check_state(state)
    state, _ = g.apply(state, Market(keep[:4]))
    assert g.current_player(state) == 1
    for action in (Take(1, card(12), "line"), EndTurn(1), Take(0, card(11), "line")):
        state, ruling = g.apply(state, action)
        assert ruling.valid, ruling.reason.en
    state, ruling = g.apply(state, EndTurn(0))
    assert ruling.reason.code == "last_round" and "from P0" in ruling.reason.en
    assert state.phase == FINAL_PLAYS and state.first_player == 0 and g.current_player(state) == 0
    assert state.jackpots[2] == (card(15),)  # the deck's last card, under the diamond jackpot
    state, ruling = g.apply(state, Play(0, card(19)))
    assert ruling.details["jackpot"] == [card(15)] and card(15) in state.seats[0].score_pile
    # P1's falling line (90 80 12) takes neither 70 nor 60: every line is closed now, from P0
    assert state.phase == FINAL_CLOSE and g.current_player(state) == 0
    state, _ = g.apply(state, Close(0, ()))
    state, _ = g.apply(state, Close(1, ()))
    assert state.phase == OVER and [s.score for s in state.seats] == [1, 0]
    assert g.outcome(state).reason.en == "P0 wins with 1 point."
    assert g.outcome(state).reason.fr == "P0 gagne avec 1 point."


def test_a_line_holding_only_a_bet_closes_to_its_malus() -> None:
    g = game(2)
    state = with_seat(dealt(g, [card(10), card(20), card(30), card(40)]), 0, line=("bet:+4",))
    state, ruling = g.apply(state, Close(0, ()))
    assert ruling.valid and state.seats[0].tokens == (-4,) and ruling.reason.en.endswith("Bet lost: -4.")
    assert ruling.reason.fr == "P0 ferme sa ligne : aucune carte ne marque. Pari raté : -4."


def test_ties_name_every_winner_in_both_languages() -> None:
    g = game(3)
    outcome = g.outcome(replace(g.initial_state(), phase=OVER, deck=(), discard=g.deck.cards))
    assert outcome.reason.en == "P0, P1 and P2 share the victory with 0 points."
    assert outcome.reason.fr == "P0, P1 et P2 se partagent la victoire avec 0 point."


def moved(obj: dict, card_: str, to: list[str]) -> None:
    """Moves ``card_`` from the JSON state's deck to the end of ``to``."""
    obj["deck"].remove(card_)
    to.append(card_)


def good_json(g: LineItGame) -> dict:
    state = with_seat(dealt(g, [card(10), card(20), card(30), card(40)]), 0, line=(card(1), card(5)))
    return g.state_to_json(state)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda s: s.update(phase="play"), "unknown phase"),
        (lambda s: s.update(step=7), "step 7"),
        (lambda s: s.update(step=True), "not int"),
        (lambda s: s.update(first_player=-1), "first player"),
        (lambda s: s.update(round=0), "before the first market"),
        (lambda s: s.update(market=s["market"][:3]), "cards lost"),
        (lambda s: s["seats"][0].update(hand=["1:spade"]), "not of the deck: ['1:spade']"),
        (lambda s: s["seats"][0].update(hand=["999:heart"]), "not of the deck"),
        (lambda s: s["seats"][0].update(line=["5:heart", "1:heart", 1]), "not a list of cards"),
        (lambda s: s["seats"][0].update(hand=["5:heart"]), "twice: ['5:heart']"),
        (lambda s: moved(s, "3:diamond", s["seats"][0]["line"]), "not strictly monotonic"),
        (lambda s: s["seats"][0].update(tokens=[7]), "tokens"),
        (lambda s: s["seats"][0].update(tokens=["3"]), "not integers"),
        (lambda s: s["turn"].update(took="yes"), "not bool"),
        (lambda s: s["turn"].update(extra=True), "must hold"),
        (lambda s: s.pop("deck"), "no 'deck'"),
        (lambda s: moved(s, "14:leaf", s["jackpots"]["heart"]), "heart jackpot"),
        (lambda s: moved(s, "bet:+3", s["jackpots"]["heart"]), "heart jackpot"),
        (lambda s: s.update(seats=s["seats"][:1]), "1 seats for 2 players"),
    ],
)
def test_broken_states_from_json_raise_one_line(change: object, words: str) -> None:
    g = game(2)
    obj = good_json(g)
    assert g.state_from_json(obj) == g.state_from_json(json.loads(json.dumps(obj)))
    change(obj)  # type: ignore[operator]
    with pytest.raises(InvalidState) as info:
        g.state_from_json(obj)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_an_action_built_in_python_for_no_seat_raises_malformed_action() -> None:
    g = game(2)
    state = dealt(g, [card(10), card(20), card(30), card(40)])
    for action in (Take(2, card(10), "line"), EndTurn(-1), Close(True, ())):
        with pytest.raises(MalformedAction):
            g.judge(state, action)
