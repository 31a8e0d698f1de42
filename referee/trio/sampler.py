"""Random applicable Trio actions for the random-game tests and benchmarks.

The sampler leans towards the number already revealed this turn so that random games find trios
and end; with the hands unknown it invents numbers that agree with what reveals proved, and falls
back on a table-confirmed reveal when no number can agree.
"""

from __future__ import annotations

import random

from referee.trio.actions import Ask, Deal, Exchange, RevealCentre, TrioAction
from referee.trio.cards import COPIES, NUMBERS, deal_sizes, deck, partners, reaches_goal
from referee.trio.reveals import Target, conflict, target_of
from referee.trio.setup import Setup, collections, winners
from referee.trio.state import TrioState

MATCH_BIAS = 0.9
"""How often the sampler reveals a card equal to this turn's number when one is reachable."""
FOCUS = 0.9
"""How often a turn starts on a number that shows at two reachable places."""
GREED = 0.5
"""How often a turn goes for a number that wins at once when one is reachable."""
EXCHANGE_RATE = 0.4
"""How often an open exchange window is used."""


def sample_action(setup: Setup, state: TrioState, rng: random.Random) -> TrioAction | None:
    if not state.dealt:
        first = rng.randrange(setup.n)
        if not setup.known:
            return Deal(None, None, first)
        cards = deck()
        rng.shuffle(cards)
        per, _ = deal_sizes(setup.n, setup.teams)
        hands = tuple(tuple(sorted(cards[i * per : (i + 1) * per])) for i in range(setup.n))
        return Deal(hands, tuple(cards[setup.n * per :]), first)
    if winners(setup, state) is not None:
        return None
    if state.exchanges and rng.random() < EXCHANGE_RATE:
        exchange = _sample_exchange(setup, state, rng)
        if exchange is not None:
            return exchange
    return _sample_reveal(setup, state, rng)


def _sample_exchange(setup: Setup, state: TrioState, rng: random.Random) -> Exchange | None:
    team = rng.choice(state.exchanges)
    a, b = partners(team, setup.n)
    if not state.hands[a].cards or not state.hands[b].cards:
        return None
    if not setup.known:
        return Exchange((a, b))
    x = rng.choice(state.hands[a].cards)
    y = rng.choice(state.hands[b].cards)
    assert x is not None and y is not None
    return Exchange((a, b), (x, y))


def _candidates(setup: Setup, state: TrioState) -> list[tuple[RevealCentre | Ask, Target]]:
    player = state.turn
    actions: list[RevealCentre | Ask] = [RevealCentre(player, c.slot) for c in state.centre]
    for seat, hand in enumerate(state.hands):
        if hand.cards:
            actions += [Ask(player, seat, "smallest"), Ask(player, seat, "largest")]
    out = []
    for action in actions:
        found = target_of(setup, state, action)
        if isinstance(found, Target):
            out.append((action, found))
    return out


def _with_number(action: RevealCentre | Ask, number: int, confirmed: bool = False) -> RevealCentre | Ask:
    if isinstance(action, RevealCentre):
        return RevealCentre(action.player, action.slot, number, confirmed=confirmed)
    return Ask(action.player, action.target, action.end, number, confirmed=confirmed)


def _sample_reveal(setup: Setup, state: TrioState, rng: random.Random) -> TrioAction:
    candidates = _candidates(setup, state)
    current = state.revealed[0].number if state.revealed else None
    if current is None and setup.known and rng.random() < FOCUS:
        # Start on a number whose three cards can be reached one after the other.
        ready = _reachable_trios(state)
        if ready:
            mine = next(t for seats, t in collections(setup, state) if state.turn in seats)
            winning = [v for v in ready if reaches_goal((*mine, v), setup.goal)]
            number = rng.choice(winning if winning and rng.random() < GREED else ready)
            action = rng.choice([a for a, f in candidates if f.value == number])
            return _with_number(action, number)
    if current is not None and rng.random() < MATCH_BIAS:
        matching = [
            a
            for a, f in candidates
            if f.value == current or (f.value is None and conflict(setup, state, a, f, current) is None)
        ]
        if matching:
            return _with_number(rng.choice(matching), current)
        if not setup.known and _possible(state, current) and rng.random() < MATCH_BIAS:
            # The table confirms a reading that earlier (invented) reveals contradict.
            return _with_number(rng.choice(candidates)[0], current, confirmed=True)
    rng.shuffle(candidates)
    for action, found in candidates:
        if found.value is not None:
            return _with_number(action, found.value)
        allowed = [v for v in NUMBERS if conflict(setup, state, action, found, v) is None]
        if allowed:
            return _with_number(action, rng.choice(allowed))
    # Nothing agrees with the earlier reveals: the table confirms a reading against them.
    possible = [v for v in NUMBERS if _possible(state, v)]
    number = current if current in possible else rng.choice(possible)
    return _with_number(candidates[0][0], number, confirmed=True)


def _possible(state: TrioState, number: int) -> bool:
    """Whether a card of ``number`` can still be face down somewhere."""
    face_up = sum(COPIES for t in state.trios for x in t if x == number)
    return face_up + sum(r.number == number for r in state.revealed) < COPIES


def _reachable_trios(state: TrioState) -> list[int]:
    """Numbers (hands known) whose three cards a turn can reveal in a row."""
    reach = [0] * 13
    for c in state.centre:
        if c.number is not None:
            reach[c.number] += 1
    for hand in state.hands:
        cards = hand.cards
        if not cards:
            continue
        low = 0
        while low < len(cards) and cards[low] == cards[0]:
            low += 1
        reach[cards[0]] += low  # type: ignore[index]
        if low < len(cards):
            high = 0
            while high < len(cards) - low and cards[-1 - high] == cards[-1]:
                high += 1
            reach[cards[-1]] += high  # type: ignore[index]
    return [v for v in NUMBERS if reach[v] >= COPIES]
