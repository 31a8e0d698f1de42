"""Line-it's whole-state check: a position (from JSON, from the camera) checked apart from any move."""

from __future__ import annotations

import bisect
import itertools
from collections import Counter

from referee.lineit import cards as C
from referee.lineit.cards import Deck
from referee.lineit.lines import line_numbers
from referee.lineit.state import DEAL, FINAL_CLOSE, FINAL_PLAYS, OVER, PHASES, TURNS, LineItState, Turn

TOKEN_VALUES = frozenset(v * s for v in C.BET_VALUES for s in (1, -1))
"""The bonus and malus tokens: +3 +4 +5 and -3 -4 -5."""


def check_state(state: LineItState, deck: Deck, num_players: int) -> list[str]:
    """Every broken invariant of ``state`` as a sentence (empty when sound): every card of the deck
    exactly once, then where each lies, then whose turn it is against the phase."""
    n = num_players
    if len(state.seats) != n:
        return [f"{len(state.seats)} seats for {n} players"]
    everything: list[str] = [*state.deck, *state.market, *state.discard]
    for jackpot in state.jackpots:
        everything.extend(jackpot)
    for seat in state.seats:
        everything.extend(seat.line)
        everything.extend(seat.hand)
        everything.extend(seat.score_pile)
    if sorted(everything) != list(deck.cards):
        return _card_count_problems(everything, deck)
    problems = _check_cards(state, deck)
    problems += _check_flow(state, n)
    return problems


def _card_count_problems(everything: list[str], of_deck: Deck) -> list[str]:
    deck = Counter(of_deck.cards)
    extra = Counter(everything) - deck
    problems = []
    lost = sorted((deck - Counter(everything)).elements())
    if lost:
        problems.append(f"cards lost: {lost}")
    unknown = sorted(c for c in extra.elements() if c not in deck)
    if unknown:
        problems.append(f"cards not of the deck: {unknown}")
    twice = sorted(c for c in extra.elements() if c in deck)
    if twice:
        problems.append(f"cards twice: {twice}")
    return problems


def _check_cards(state: LineItState, deck: Deck) -> list[str]:
    """Where the cards lie: sorted piles, jackpots of their colour, hands, lines, score piles."""
    problems: list[str] = []
    if list(state.deck) != sorted(state.deck) or list(state.discard) != sorted(state.discard):
        problems.append("deck and discard must be kept sorted")
    by_colour, numbers = deck.by_colour, deck.numbers
    for col, jackpot in zip(C.COLOURS, state.jackpots, strict=True):
        if not by_colour[col].issuperset(jackpot):
            problems.append(f"the {col} jackpot holds a card of another kind: {list(jackpot)}")
    tokens = 0
    for p, seat in enumerate(state.seats):
        tokens += len(seat.tokens)
        if len(seat.hand) > 2:
            problems.append(f"player {p} holds {len(seat.hand)} cards (at most 2)")
        if len(seat.line) > 1:
            if len(seat.line) - len(numbers.intersection(seat.line)) > 1:
                problems.append(f"player {p}'s line holds more than one bet card")
            values = line_numbers(seat.line)
            steps = {(b > a) - (b < a) for a, b in itertools.pairwise(values)}
            if 0 in steps or len(steps) > 1:
                problems.append(f"player {p}'s line is not strictly monotonic: {values}")
        if not numbers.issuperset(seat.score_pile):
            problems.append(f"player {p}'s score pile holds a bet card")
        if not TOKEN_VALUES.issuperset(seat.tokens):
            problems.append(f"player {p}'s tokens {list(seat.tokens)} are not all +-3, 4 or 5")
    # Bet cards sort after number cards ("bet:" > digits): those of the sorted discard are its end.
    spent = len(state.discard) - bisect.bisect_left(state.discard, "bet:")
    if tokens > spent:
        problems.append(f"{tokens} bet tokens but only {spent} bet cards spent")
    return problems


def _check_flow(state: LineItState, n: int) -> list[str]:
    """Whose turn and what is on the table, against the phase."""
    market_size = n + 2
    problems: list[str] = []
    if state.phase not in PHASES:
        return [f"unknown phase {state.phase!r}: expected one of {', '.join(PHASES)}"]
    if not 0 <= state.first_player < n:
        problems.append(f"first player {state.first_player} is not a seat 0..{n - 1}")
    if state.round < 0:
        problems.append(f"round {state.round} is negative")
    if state.phase != TURNS and state.turn != Turn():
        problems.append(f"turn flags set outside the players' turns ({state.phase})")
    limit = {DEAL: 1, TURNS: n, FINAL_PLAYS: 2 * n, FINAL_CLOSE: n, OVER: n + 1}[state.phase]
    if not 0 <= state.step < limit:
        problems.append(f"step {state.step} is outside 0..{limit - 1} in phase {state.phase}")
    if state.phase == TURNS:
        expected = market_size - state.step - int(state.turn.took)
        if len(state.market) != expected:
            problems.append(f"{len(state.market)} market cards after {state.step} turns, expected {expected}")
        if state.round < 1:
            problems.append("players' turns before the first market")
    elif state.market:
        problems.append(f"a market outside the players' turns ({state.phase})")
    if state.phase == DEAL and len(state.deck) < market_size:
        problems.append(f"a market is due but the deck holds {len(state.deck)} cards")
    if state.phase in (FINAL_PLAYS, FINAL_CLOSE, OVER) and state.deck:
        problems.append(f"the deck still holds {len(state.deck)} cards at the end of the game")
    if state.phase == OVER and any(seat.line for seat in state.seats):
        problems.append("a line is still open after the game")
    return problems
