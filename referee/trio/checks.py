"""Trio's whole-state check: every broken invariant of a state as a sentence."""

from __future__ import annotations

from referee.trio.cards import COPIES, DECK_SIZE, deal_sizes
from referee.trio.setup import Setup
from referee.trio.state import TrioState


def check_state(setup: Setup, state: TrioState) -> list[str]:
    if not state.dealt:
        if state.hands or state.centre or state.revealed or state.trios or state.exchanges or state.turn:
            return ["cards are on the table before the deal"]
        return []
    n = setup.n
    if len(state.hands) != n or len(state.trios) != n:
        return [f"{len(state.hands)} hands and {len(state.trios)} trio piles for {n} players"]
    problems: list[str] = []
    if not 0 <= state.turn < n:
        problems.append(f"turn {state.turn} is not a seat")
    seen = [0] * 13
    """Cards proved per number (index 0 counts numbers outside 1..12)."""
    unknown = 0
    for seat, hand in enumerate(state.hands):
        previous = hand.low
        for v in hand.cards:
            if v is None:
                unknown += 1
                continue
            if not previous <= v <= hand.high:
                problems.append(
                    f"seat {seat}'s hand {list(hand.cards)} is not sorted within its bounds "
                    f"{hand.low}..{hand.high}"
                )
                break
            previous = v
        if not 1 <= hand.low <= hand.high <= 12:
            problems.append(f"seat {seat}'s bounds {hand.low}..{hand.high} are not within 1..12")
        for v in hand.cards:
            if v is not None:
                seen[v if 1 <= v <= 12 else 0] += 1
    slots = [c.slot for c in state.centre]
    if len(set(slots)) != len(slots):
        problems.append(f"a centre slot appears twice: {slots}")
    if setup.teams and state.centre:
        problems.append("team mode has cards in the centre")
    _, centre_size = deal_sizes(n, setup.teams)
    if any(not 0 <= s < centre_size for s in slots):
        problems.append(f"centre slots {slots} are not within 0..{centre_size - 1}")
    for c in state.centre:
        if c.number is None:
            unknown += 1
        else:
            seen[c.number if 1 <= c.number <= 12 else 0] += 1
    if setup.known and unknown:
        problems.append(f"{unknown} cards are unknown although the hands are known")
    trio_numbers = [t for trios in state.trios for t in trios]
    if len(set(trio_numbers)) != len(trio_numbers):
        problems.append(f"a number was won as a trio twice: {trio_numbers}")
    for t in trio_numbers:
        seen[t if 1 <= t <= 12 else 0] += COPIES
    if seen[0]:
        problems.append("a card holds a number outside 1..12")
    over = [v for v in range(1, 13) if seen[v] > COPIES]
    if over:
        problems.append(f"numbers seen more than three times: {over}")
    total = sum(len(h.cards) for h in state.hands) + len(state.centre) + COPIES * len(trio_numbers)
    if total != DECK_SIZE:
        problems.append(f"{total} cards on the table instead of {DECK_SIZE}: a card was created or lost")
    if setup.known and seen[1:] != [COPIES] * 12:
        problems.append("the known cards are not each number three times")
    if len(state.revealed) >= COPIES or len({r.number for r in state.revealed}) > 1:
        problems.append(f"this turn's reveals {[r.number for r in state.revealed]} should have ended it")
    places = [(r.seat, r.index) for r in state.revealed]
    if len(set(places)) != len(places):
        problems.append("a card is revealed twice in one turn")
    for seat in {r.seat for r in state.revealed if r.seat is not None and 0 <= r.seat < n}:
        if not _at_the_ends(
            {r.index for r in state.revealed if r.seat == seat}, len(state.hands[seat].cards)
        ):
            problems.append(f"a card revealed from seat {seat}'s hand is not at one of its ends")
    for r in state.revealed:
        if r.seat is None:
            card = next((c for c in state.centre if c.slot == r.index), None)
            value = card.number if card else None
        elif 0 <= r.seat < n and 0 <= r.index < len(state.hands[r.seat].cards):
            value = state.hands[r.seat].cards[r.index]
        else:
            value = None
        if value != r.number:
            problems.append(f"revealed card {r} is not on the table")
    if state.exchanges:
        teams = set(range(n // 2)) if setup.teams else set()
        if not set(state.exchanges) <= teams or len(set(state.exchanges)) != len(state.exchanges):
            problems.append(f"exchange window {list(state.exchanges)} names no team of this game")
        if state.revealed:
            problems.append("an exchange window is open during a turn")
    return problems


def _at_the_ends(indices: set[int], size: int) -> bool:
    """Whether ``indices`` are a run from the small end and/or a run from the large end of a hand
    of ``size`` cards: the only cards a turn can reveal."""
    low = 0
    while low in indices:
        low += 1
    high = size - 1
    while high in indices and high >= low:
        high -= 1
    return all(i < low or i > high for i in indices)
